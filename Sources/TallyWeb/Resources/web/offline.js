// Offline writes (docs/offline.md): without a connection, marking a day, the journal and a chat
// message are kept in the outbox (sync-core.js) and shown on the page at once; a page opened
// again shows what still waits; the outbox is sent when the connection returns. The status
// in the header says what waits and when the last sync was.
"use strict";

(() => {
  const user = document.body.dataset.user;
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* pages work without it */ });
  }
  if (!user || !window.indexedDB || !window.TallySync) return;
  const sync = window.TallySync;
  const { say } = window.TallyWords;

  // Why the server refused a change, in the page's words.
  function refusal(error) {
    if (error.status === 401) return say("signInAgain");
    return error.message || say("serverAnswered", { status: error.status });
  }
  let problem = null;
  let sentThisPage = false;

  // ---- From a form to a sync change (docs/sync.md's kinds and fields).
  const value = (form, name) => (form.elements[name] ? form.elements[name].value : "");
  const habitOf = (form) => new URL(form.action).pathname.split("/")[2];

  async function changeOf(form) {
    const day = value(form, "day");
    switch (form.dataset.offline) {
      case "entry": {
        const habit = habitOf(form);
        const status = value(form, "status");
        // The Today button carries the day's note unchanged: an entry syncs status and note together.
        const note = form.elements.note ? form.elements.note.value : form.dataset.note || "";
        // The day editor's "not done" with a note keeps the note on the day (a noted entry).
        const noted = status === "none" && form.elements.note && note.trim() !== "";
        const cleared = (status === "none" || !status) && !noted;
        const fields = { status: noted ? "noted" : cleared ? null : status, note: cleared || !note.trim() ? null : note };
        // A measurable habit's form has an amount (in the habit's unit): sent with a done day.
        const amount = value(form, "amount").trim();
        if (status === "done" && amount !== "" && Number.isFinite(Number(amount))) fields.amount = Number(amount);
        return { kind: "entry", id: `${habit}/${day}`, fields };
      }
      case "journal": {
        const text = value(form, "text");
        return { kind: "journal", id: day, fields: { text: text.trim() ? text : null } };
      }
      case "chat": {
        const text = value(form, "text").trim();
        if (!text) return null;
        const sentAt = new Date(await sync.now()).toISOString();
        return { kind: "chat", id: sync.uuid(), fields: { day, role: "user", text, sentAt } };
      }
      case "pause": {
        // A new pause of the form's habit (none: every habit), from the day given or today.
        const habitId = value(form, "habit") || null;
        const from = value(form, "from") || form.dataset.today;
        return [{ kind: "pause", id: sync.uuid(), fields: { habitId, from, until: value(form, "until") || null } }];
      }
      case "resume":
        // The page names each pause holding today and what resuming makes of it (docs/web.md).
        return JSON.parse(form.dataset.resume).map(({ id, until }) => (until
          ? { kind: "pause", id, fields: { until } } : { kind: "pause", id, deleted: true }));
      default: return null;
    }
  }

  // ---- A kept change drawn on the page from the fragments the server ships beside what it
  // drew (<template>s rendered by the same templates), so the two cannot drift apart.
  const fragment = (template) => template.content.firstElementChild.cloneNode(true);
  // A fragment drawn once for the page, with the habit's colour where the template left a blank.
  function coloured(template, color) {
    const node = fragment(template);
    [node, ...node.querySelectorAll("*")].forEach((element) => [...element.attributes]
      .filter((attribute) => attribute.value === template.dataset.blank)
      .forEach((attribute) => element.setAttribute(attribute.name, color)));
    return node;
  }

  function showEntry(change) {
    const [habit, day] = change.id.split("/");
    const done = change.fields.status === "done";
    // A one-tap button (Today's, a Habits card's): what its next tap sends, and its state.
    const oneTap = (form) => {
      if (!form || value(form, "day") !== day) return null;
      form.elements.status.value = done ? "none" : "done";
      form.dataset.note = change.fields.note || "";
      form.dataset.pending = "yes";
      const button = form.querySelector("button");
      button.setAttribute("aria-pressed", String(done));
      return button;
    };
    const quick = oneTap(document.getElementById(`quick-${habit}`));
    if (quick) {
      quick.classList.toggle("is-done", done);
      quick.firstChild.textContent = done ? quick.dataset.doneLabel : quick.dataset.undoneLabel;
    }
    const markForm = document.getElementById(`mark-${habit}`);
    // Today's amount field for a measurable habit: the amount kept, the form left as it is.
    const amountForm = markForm && markForm.classList.contains("amount-form") && value(markForm, "day") === day && markForm;
    if (amountForm) {
      amountForm.elements.amount.value = change.fields.amount ?? "";
      amountForm.dataset.note = change.fields.note || "";
      amountForm.closest(".due").dataset.pending = "yes";
    }
    const button = !amountForm && oneTap(markForm);
    if (button) {
      const item = button.closest(".due");
      item.classList.toggle("is-done", done);
      item.dataset.pending = "yes";
      button.querySelector(":scope > svg").replaceWith(coloured(document.getElementById(done ? "check-done" : "check-undone"), markForm.dataset.color));
    }
    const grid = document.getElementById("habit-grid");
    const cell = grid && grid.dataset.habit === habit && grid.querySelector(`.gc[data-day="${day}"]`);
    if (cell) paintCell(cell, change.fields);
    const editor = document.getElementById("day-editor-form");
    if (editor && value(editor, "day") === day && habitOf(editor) === habit) {
      editor.elements.status.value = change.fields.status === "noted" ? "none" : change.fields.status || "none";
      editor.elements.note.value = editor.elements.note.defaultValue = change.fields.note || "";
      if (editor.elements.amount) editor.elements.amount.value = change.fields.amount ?? "";
      editor.dataset.pending = "yes";
    }
  }

  function showJournal(change) {
    const form = document.getElementById("journal-form");
    if (!form || value(form, "day") !== change.id) return;
    const field = form.elements.text;
    // As saved; a draft typed after it (restored by features.js) stays in the field.
    const untouched = field.value === field.defaultValue;
    field.defaultValue = change.fields.text || "";
    if (untouched) field.value = field.defaultValue;
    form.dataset.pending = "yes";
  }

  function showChat(change) {
    const form = document.getElementById("chat-form");
    if (!form || value(form, "day") !== change.fields.day || document.getElementById(`message-${change.id}`)) return;
    const card = form.closest("#chat");
    let list = card.querySelector("ol.messages");
    if (!list) {
      card.querySelectorAll("p.empty").forEach((p) => p.remove());
      list = document.createElement("ol");
      list.className = "messages";
      form.before(list);
    }
    const item = fragment(document.getElementById("message-template"));
    item.id = `message-${change.id}`;
    item.dataset.pending = "yes";
    const time = item.querySelector("time");
    time.dateTime = change.fields.sentAt;
    time.textContent = clockTime(new Date(change.fields.sentAt));
    item.querySelector("p").textContent = change.fields.text;
    list.append(item);
  }

  // A habit grid's cell given the look the server ships for its state (HabitDetailGrid's
  // looks: the square, its marks and its words), and said to be waiting.
  function paintCell(cell, { status, note }) {
    const looks = document.getElementById("grid-cell-looks").content.firstElementChild;
    // A day left with nothing goes back to its own look: not done, or paused / not scheduled.
    const state = status === "done" || status === "skipped" ? status : cell.dataset.neutral || "empty";
    const look = looks.querySelector(`[data-state="${state}"]`);
    const marks = [...look.children].filter((node) => node.localName !== "rect");
    if (note) marks.push(...[...looks.querySelector('[data-state="noted"]').children].filter((node) => node.localName !== "rect"));
    // The title and the target's hit area stay; the square and its marks are the look's.
    [...cell.children].filter((node) => !["title", "rect"].includes(node.localName) && !node.classList.contains("hit"))
      .forEach((node) => node.remove());
    cell.querySelector("rect").replaceWith(look.querySelector("rect").cloneNode(true));
    cell.append(...marks.map((node) => node.cloneNode(true)));
    if (note) cell.dataset.note = note; else delete cell.dataset.note;
    const label = `${cell.dataset.name}${looks.dataset.separator}${look.dataset.spoken}${looks.dataset.pending}`;
    cell.setAttribute("aria-label", label);
    cell.querySelector("title").textContent = label;
    cell.dataset.pending = "yes";
  }

  // A tap on a cell: done becomes nothing (noted, when it has a note), anything else done, the
  // note kept (as /toggle does).
  function toggleOf(cell) {
    const done = cell.querySelector("rect").hasAttribute("fill");
    const note = cell.dataset.note || null;
    return {
      kind: "entry", id: `${cell.closest("#habit-grid").dataset.habit}/${cell.dataset.day}`,
      fields: { status: done ? (note ? "noted" : null) : "done", note },
    };
  }

  // A pause kept offline: said in words beside the form that made it (its days are drawn
  // when the page comes from the server again).
  function showPause(change) {
    const form = document.querySelector('form[data-offline="pause"], form[data-offline="resume"]');
    if (!form || document.getElementById(`pause-${change.id}`)) return;
    const note = document.createElement("p");
    note.id = `pause-${change.id}`;
    note.className = "help";
    note.dataset.pending = "yes";
    const named = (day) => day && new Date(`${day}T12:00:00Z`).toLocaleDateString(document.documentElement.lang, {
      weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
    const [from, until] = [named(change.fields?.from), named(change.fields?.until)];
    note.textContent = change.deleted ? say("pauseRemoved")
      : from ? (until ? say("pausedThrough", { from, until }) : say("pausedUntilResumed", { from }))
        : say("resumed");
    form.before(note);
  }

  const drawers = { entry: showEntry, journal: showJournal, chat: showChat, pause: showPause };
  const show = (change) => (drawers[change.kind] || (() => {}))(change);

  async function showWaiting() {
    try { (await sync.pending(user)).forEach(show); } catch (_) { /* storage refused: nothing kept */ }
  }

  // ---- The status in the header.
  // Clock times as the server writes them: the locale's own 12- or 24-hour clock (PageDays).
  const clockLocale = document.documentElement.dataset.clockLocale || document.documentElement.lang || "en";

  function clockTime(when) {
    return when.toLocaleTimeString(clockLocale, { hour: "numeric", minute: "2-digit" });
  }

  function clock(ms) {
    const when = new Date(ms);
    const sameDay = when.toDateString() === new Date().toDateString();
    return sameDay ? clockTime(when)
      : when.toLocaleString(clockLocale, { day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
  }

  async function showStatus() {
    const box = document.getElementById("sync-status");
    const button = document.getElementById("sync-now");
    if (!box) return;
    const [waiting, last] = await Promise.all([sync.pending(user).then((c) => c.length), sync.lastSync(user)]).catch(() => [0, null]);
    const parts = [];
    if (!navigator.onLine) parts.push(say("offline"));
    if (waiting) parts.push(say("waiting", { count: waiting }));
    else if (sentThisPage) parts.push(say("allSent"));
    if (problem && waiting) parts.push(problem);
    if (parts.length) parts.push(last ? say("lastSync", { time: clock(last) }) : say("neverSynced"));
    box.textContent = parts.join(" ");
    box.hidden = parts.length === 0;
    box.classList.toggle("waiting", waiting > 0);
    document.documentElement.dataset.waiting = String(waiting);
    if (button) button.hidden = !(waiting && navigator.onLine);
  }

  // ---- Sending: on load, when the connection returns, when the page is shown again, on
  // the button, and after a failed try every 30 seconds while changes wait.
  let sending = null;
  let retry = 0;
  function send() {
    if (sending || !navigator.onLine) return sending;
    clearTimeout(retry);
    sending = sync.send(user).then((count) => {
      problem = null;
      if (count) sentThisPage = true;
    }, (error) => {
      problem = error instanceof sync.Refused ? say("notSent", { reason: refusal(error) }) : say("unreachableRetrying");
      if (!(error instanceof sync.Refused)) retry = setTimeout(send, 30000);
    }).finally(() => {
      sending = null;
      showStatus();
    });
    return sending;
  }

  async function keep(made, form = null) {
    const result = await made;
    if (!result) return;
    // A resume may end several pauses: each is a change of its own.
    const changes = Array.isArray(result) ? result : [result];
    try {
      for (const change of changes) await sync.record(user, change);
    } catch (_) {
      problem = say("notKept");
      showStatus();
      return;
    }
    changes.forEach(show);
    if (changes[0].kind === "chat" && form) form.elements.text.value = "";
    problem = null;
    if (navigator.onLine) send();
    else showStatus();
    navigator.serviceWorker?.ready.then((r) => r.sync && r.sync.register("tally-outbox")).catch(() => {});
  }

  // Offline, a form that can wait or a tap on a habit's grid is kept instead of posted.
  // Online, app.js posts it and hands it back here when the network fails
  // (`tally:unreachable`).
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (navigator.onLine || !form.matches("form[data-offline]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    keep(changeOf(form), form);
  }, true);
  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest("#habit-grid .gc");
    // A measurable habit's day is entered in its day editor, which the cell's link opens.
    if (navigator.onLine || !cell || event.button > 0 || cell.closest("[data-measurable]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    keep(toggleOf(cell));
  }, true);
  document.addEventListener("tally:unreachable", (event) => {
    const { form, cell } = event.detail;
    if (!(form && form.matches("form[data-offline]")) && !cell) return;
    event.preventDefault();
    keep(form ? changeOf(form) : toggleOf(cell), form);
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("#sync-now")) send();
  });

  // Signing out: the worker forgets the kept pages; the outbox stays for this account's
  // next sign-in (it may hold the only copy of a change).
  document.addEventListener("submit", (event) => {
    if (event.target.matches("form.signout")) sync.setSignedIn(null).catch(() => {});
  });

  window.addEventListener("online", () => { showStatus(); send(); });
  window.addEventListener("offline", showStatus);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") send(); });
  navigator.serviceWorker?.addEventListener("message", (event) => {
    if (event.data && event.data.type === "tally-synced") { sentThisPage = true; showStatus(); }
  });

  // Online, the worker is asked to keep the pages this one leads to (sw.js keeps each at
  // most every ten minutes): Today, Habits, the calendar and every habit named here.
  function keepAhead() {
    if (!navigator.onLine) return;
    const habits = [...document.querySelectorAll("a[href^='/habits/'], form[action^='/habits/']")]
      .map((node) => (node.getAttribute("href") || node.getAttribute("action")).split(/[?#]/)[0].split("/").slice(0, 3).join("/"));
    const urls = ["/today", "/habits", "/calendar", ...habits].filter((url) => url !== location.pathname);
    // And the words of the page it shows for a page never kept, in this page's language.
    const say = self.TallyWords.say;
    const offlinePage = {
      lang: document.documentElement.lang, dir: document.documentElement.dir, title: say("offlinePageTitle"),
      heading: say("offlinePageHeading"), body: say("offlinePageBody"), today: say("offlinePageToday"),
    };
    navigator.serviceWorker?.ready.then((registration) => {
      registration.active?.postMessage({ type: "tally-keep", urls, offlinePage });
    }).catch(() => {});
  }

  document.addEventListener("DOMContentLoaded", async () => {
    sync.setSignedIn(user).catch(() => {});
    keepAhead();
    await showWaiting();
    await showStatus();
    send();
    // app.js swaps <main> for another day: what waits for that day is drawn again.
    new MutationObserver(showWaiting).observe(document.body, { childList: true });
  });
})();
