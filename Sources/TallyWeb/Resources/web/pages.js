// Statistics, Calendar and Settings: their grids' keys, the day sheet, the icon picker and
// import. Kept apart from app.js, which swaps pages and draws Today's and the habits' grids.
(() => {
  document.documentElement.classList.add("js");
  const parser = new DOMParser();
  const { say } = window.TallyWords;

  // Activity grid: on a phone CSS hides the oldest weeks, so arrow keys move among the cells
  // that are shown (the shared grid handler would land on hidden ones).
  document.addEventListener("keydown", (event) => {
    const cell = event.target.closest && event.target.closest("#activity-grid [role=gridcell]");
    if (!cell) return;
    const grid = cell.closest("[role=grid]");
    const rows = [...grid.querySelectorAll("[role=row]")].map((row) =>
      [...row.querySelectorAll("[role=gridcell]")].filter((c) => c.offsetParent !== null));
    let r = rows.findIndex((row) => row.includes(cell));
    let c = rows[r].indexOf(cell);
    switch (window.TallyGridKeys.visualKey(event.key)) {
      case "ArrowRight": c += 1; break;
      case "ArrowLeft": c -= 1; break;
      case "ArrowDown": r += 1; break;
      case "ArrowUp": r -= 1; break;
      case "Home": c = 0; if (event.ctrlKey) r = 0; break;
      case "End": c = Infinity; if (event.ctrlKey) r = rows.length - 1; break;
      default: return;
    }
    event.preventDefault();
    event.stopPropagation();
    r = Math.max(0, Math.min(r, rows.length - 1));
    c = Math.max(0, Math.min(c, rows[r].length - 1));
    const next = rows[r][c];
    grid.querySelectorAll("[role=gridcell]").forEach((x) => x.setAttribute("tabindex", x === next ? "0" : "-1"));
    next.focus();
  }, true);

  // Calendar: the country list submits itself; a day opens and closes in place.
  document.addEventListener("change", (event) => {
    const select = event.target.closest && event.target.closest("select[data-autosubmit]");
    if (select) select.form.requestSubmit();
  });

  async function showCalendar(url, { focusDay = null } = {}) {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) { location.href = url; return; }
      const next = parser.parseFromString(await response.text(), "text/html").querySelector("main");
      if (!next) return;
      document.querySelector("main").replaceWith(next);
      history.pushState({}, "", url);
      document.documentElement.dataset.shown = new URL(url, location.href).pathname + new URL(url, location.href).search;
      const title = document.getElementById("sheet-title");
      if (title) { title.focus(); return; }
      // A day with shows is a link inside its gridcell; the others are cells taking focus.
      const tile = focusDay && document.querySelector(`.tile[href*="day=${focusDay}"]`);
      if (tile) {
        tile.closest("[role=grid]").querySelectorAll(".tile[tabindex]").forEach((t) => t.setAttribute("tabindex", t === tile ? "0" : "-1"));
        tile.focus();
      }
    } catch (_) {
      location.href = url;
    }
  }

  const openDay = () => new URL(location.href).searchParams.get("day");

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button > 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest && event.target.closest("#month-grid a.tile, #sheet-close");
    if (!link) return;
    event.preventDefault();
    showCalendar(link.href, { focusDay: link.id === "sheet-close" ? openDay() : null });
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const close = document.getElementById("sheet-close");
    if (close) { event.preventDefault(); showCalendar(close.href, { focusDay: openDay() }); }
  });

  // The habit form's icon picker fills the icon field, which still takes anything typed.
  document.addEventListener("click", (event) => {
    const choice = event.target.closest && event.target.closest(".icon-picker [data-icon]");
    if (!choice) return;
    const input = document.getElementById("habit-icon");
    input.value = choice.dataset.icon;
    markIcon();
  });
  function markIcon() {
    const input = document.getElementById("habit-icon");
    if (!input) return;
    document.querySelectorAll(".icon-picker [data-icon]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.icon === input.value)));
  }
  document.addEventListener("input", (event) => { if (event.target.id === "habit-icon") markIcon(); });

  // A logo that cannot be loaded leaves its disc empty rather than a broken-image icon.
  document.addEventListener("error", (event) => {
    if (event.target.matches && event.target.matches(".logo-disc img")) event.target.hidden = true;
  }, true);

  function focusSheet() {
    const title = document.getElementById("sheet-title");
    if (title) title.focus();
  }

  // Settings: import posts the chosen file to the API (a preview first, when asked: dryRun
  // writes nothing), then says what happened. The server tells the kind of file from what it
  // holds unless one is chosen here, and names it.
  // What an import did, or would do when previewed (`dryRun`), from the counts the API sends.
  function importReport(body, dryRun) {
    const lines = [];
    const mode = dryRun ? "Preview" : "Done";
    if ("newHabits" in body) {
      lines.push(say(`import${mode}`, { format: body.formatTitle, newHabits: body.newHabits, days: body.entries, notes: body.notes,
        matched: body.matchedHabits, unchanged: body.unchanged, conflicts: body.conflicts }));
      const journal = body.journalAdded + body.journalMerged + body.journalUnchanged;
      if (journal) {
        lines.push(say(`importJournal${mode}`, { added: body.journalAdded, merged: body.journalMerged, unchanged: body.journalUnchanged }));
      }
      for (const habit of body.habitList || []) {
        lines.push(say(habit.isNew ? "importHabitNew" : "importHabitYours", { habit: habit.name, days: habit.entries, notes: habit.notes }));
      }
      for (const warning of body.warnings || []) {
        lines.push(say("importWarning", { message: (warning.habit ? `${warning.habit}: ` : "") + warning.message }));
      }
    } else {
      lines.push(say(`restore${mode}`, { habits: body.habits, entries: body.entries, journal: body.journalEntries,
        chat: body.chatMessages, shows: body.shows, episodes: body.episodes, prices: body.prices, pauses: body.pauses }));
    }
    return lines;
  }

  function sizeText(bytes) {
    return bytes < 1e6 ? `${Math.max(1, Math.round(bytes / 1e3))} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
  }

  // fetch cannot tell how much of a body has been sent; XMLHttpRequest's upload events can, so
  // a large file shows its progress while it travels, and the server's work after it.
  function upload(url, file, progress) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", url);
      request.setRequestHeader("Content-Type", "application/octet-stream");
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) progress(event.loaded / event.total);
      });
      request.upload.addEventListener("load", () => progress(1));
      request.addEventListener("load", () => {
        let body = {};
        try {
          body = JSON.parse(request.responseText);
        } catch (_) {
          // Not JSON (a proxy's error page): the status says what happened.
        }
        resolve({ ok: request.status >= 200 && request.status < 300, status: request.status, body });
      });
      request.addEventListener("error", () => reject(new Error("network")));
      request.send(file);
    });
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.id !== "import-form") return;
    event.preventDefault();
    const dryRun = event.submitter && event.submitter.id === "import-preview";
    const file = form.querySelector("input[type=file]").files[0];
    const result = document.getElementById("import-result");
    const buttons = form.querySelectorAll("button");
    const bar = document.getElementById("import-progress");
    if (!file) return;
    const working = say(dryRun ? "checking" : "importing");
    result.className = "";
    result.textContent = say("uploading", { size: sizeText(file.size) });
    bar.value = 0;
    bar.hidden = false;
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const format = document.getElementById("import-format").value;
      const query = format ? `format=${encodeURIComponent(format)}&` : "";
      const response = await upload(`/api/v1/import?${query}dryRun=${dryRun}`, file, (share) => {
        bar.value = Math.round(share * 100);
        if (share >= 1) result.textContent = working;
      });
      const body = response.body;
      result.replaceChildren();
      if (response.ok) {
        result.className = "ok";
        for (const line of importReport(body, dryRun)) {
          const p = document.createElement("p");
          p.textContent = line;
          result.append(p);
        }
        if (!dryRun) form.reset();
      } else {
        result.className = "failed";
        result.textContent = body.detail || say("importRefused", { status: response.status });
      }
    } catch (_) {
      result.className = "failed";
      result.textContent = say("importUnreachable");
    } finally {
      bar.hidden = true;
      buttons.forEach((b) => { b.disabled = false; });
    }
  });

  // Settings → Reminders on this device: subscribes this browser to Web Push with the
  // server's VAPID key (docs/reminders.md) and marks it in the list. Testing and removing a
  // device are plain forms. Push needs a secure page: https, or localhost.
  const pushSupported = () => window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function keyBytes(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  async function currentPushSubscription() {
    const registration = await navigator.serviceWorker.getRegistration("/");
    return registration ? registration.pushManager.getSubscription() : null;
  }

  async function showPushState() {
    const form = document.getElementById("push-form");
    const status = document.getElementById("push-status");
    if (!form || !status) return;
    if (!pushSupported()) {
      status.textContent = say(window.isSecureContext ? "pushUnsupported" : "pushNeedsHttps");
      return;
    }
    form.hidden = false;
    status.textContent = "";
    const subscription = await currentPushSubscription().catch(() => null);
    const mine = subscription && [...document.querySelectorAll("#push-devices li")].find((li) => li.dataset.endpoint === subscription.endpoint);
    if (mine) {
      const name = mine.querySelector(".push-device-name");
      status.textContent = say("pushThisDevice", { name: name.textContent });
      form.elements.name.value = name.textContent;
      name.append(" " + say("thisDevice"));
    }
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.id !== "push-form") return;
    event.preventDefault();
    const status = document.getElementById("push-status");
    const button = form.querySelector("button");
    const fail = (text) => { status.className = "failed"; status.textContent = text; };
    button.disabled = true;
    status.className = "";
    status.textContent = say("askingBrowser");
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        fail(say("notificationsBlocked"));
        return;
      }
      const keyResponse = await fetch("/api/v1/push/key", { credentials: "same-origin" });
      if (!keyResponse.ok) { fail(say("pushKeyRefused", { status: keyResponse.status })); return; }
      const key = keyBytes((await keyResponse.json()).publicKey);
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      let subscription = await registration.pushManager.getSubscription();
      // A subscription made for another server key cannot carry this server's messages.
      const old = subscription && subscription.options.applicationServerKey;
      if (old && new Uint8Array(old).join() !== key.join()) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription = subscription || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      const json = subscription.toJSON();
      const response = await fetch("/api/v1/push/subscriptions", {
        method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ endpoint: json.endpoint, keys: json.keys, name: form.elements.name.value }),
      });
      if (response.ok) { location.href = "/settings?saved=push-added#reminders"; return; }
      const body = await response.json().catch(() => ({}));
      fail(body.detail || say("pushRefused", { status: response.status }));
    } catch (error) {
      fail(say("pushFailed", { reason: (error && error.message) || error }));
    } finally {
      button.disabled = false;
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("#import-form button").forEach((b) => { b.disabled = false; });
    showPushState();
    focusSheet();
    markIcon();
  });
})();
