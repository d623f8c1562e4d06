// Tally's pages work as plain links and form posts. This script makes the same requests
// without reloading, moves focus with arrow keys in every grid, and lets a finger or mouse
// scrub through the Today view's days.
"use strict";

(() => {
  const parser = new DOMParser();

  // Replaces <main> with the one in `html`, keeping focus on the element with the same id.
  function swapMain(html, focusId) {
    const next = parser.parseFromString(html, "text/html");
    const main = next.querySelector("main");
    if (!main) return;
    document.querySelector("main").replaceWith(main);
    document.title = next.title;
    settle();
    follow();
    const target = focusId && document.getElementById(focusId);
    if (target) target.focus({ preventScroll: true });
  }

  function toast(text) {
    document.querySelectorAll(".toast").forEach((t) => t.remove());
    const box = document.createElement("p");
    box.className = "toast";
    box.setAttribute("role", "alert");
    box.textContent = text;
    document.body.append(box);
    setTimeout(() => box.remove(), 6000);
  }

  // The message of an error page, or a sentence when the server sent none.
  function problemText(html, status) {
    const page = parser.parseFromString(html, "text/html");
    const alert = page.querySelector("[role=alert]");
    return alert ? alert.textContent.trim() : window.TallyWords.say("serverAnswered", { status });
  }

  const pageOf = (url) => { const u = new URL(url, location.href); return u.pathname + u.search; };
  const shown = (url) => { document.documentElement.dataset.shown = pageOf(url); };
  shown(location.href);

  let pending = null;
  // `remember: false` keeps the address as it is (a relayout is not a new page).
  // A write that can wait (a data-offline form, a habit grid's tap) is handed to offline.js
  // when the network fails.
  async function load(url, { method = "GET", body = null, focusId = null, push = false, remember = true, form = null, cell = null } = {}) {
    if (pending) pending.abort();
    const controller = new AbortController();
    pending = controller;
    try {
      const response = await fetch(url, {
        method, body, signal: controller.signal, credentials: "same-origin",
        headers: body ? { "Content-Type": "application/x-www-form-urlencoded" } : {},
      });
      const html = await response.text();
      if (!response.ok) { toast(problemText(html, response.status)); return false; }
      if (remember && (push || response.url !== location.href)) {
        history.pushState({}, "", response.url);
        shown(response.url);
      }
      swapMain(html, focusId);
      return true;
    } catch (error) {
      if (error.name === "AbortError") return false;
      // offline.js keeps what it can write later, and says so; anything else is lost, and said.
      const kept = !document.dispatchEvent(new CustomEvent("tally:unreachable", { detail: { form, cell }, cancelable: true }));
      if (!kept) toast(window.TallyWords.say("unreachableNothingChanged"));
      return false;
    } finally {
      if (pending === controller) {
        pending = null;
        if (stale) setTimeout(catchUp, 0);
      }
    }
  }

  // Forms marked data-enhance post in the background; on an error the page and what was
  // typed stay as they are.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches("form[data-enhance]")) return;
    event.preventDefault();
    const focusId = document.activeElement && document.activeElement.id ? document.activeElement.id : form.id;
    const body = new URLSearchParams(new FormData(form));
    load(form.action, { method: "POST", body, focusId, form });
  });

  // ---- Grids: one tab stop each, arrow keys move between cells (WAI-ARIA grid pattern).
  // A cell takes focus itself or, when it holds a link to its day, through that link (a link
  // keeps its own role inside a gridcell).
  const focusable = (cell) => (cell.hasAttribute("tabindex") ? cell : cell.querySelector("[tabindex]")) || cell;

  function cellsByRow(grid) {
    return [...grid.querySelectorAll("[role=row]")].map((row) => [...row.querySelectorAll("[role=gridcell]")]);
  }

  // `cell` is a gridcell or what is focused inside one.
  function focusCell(grid, cell) {
    const chosen = cell.closest("[role=gridcell]") || cell;
    grid.querySelectorAll("[role=gridcell]").forEach((c) => focusable(c).setAttribute("tabindex", c === chosen ? "0" : "-1"));
    focusable(chosen).focus();
  }

  // Right to left the grids read from the right, so the arrow that points to the next cell
  // is the left one: keys name directions on screen, not in the list.
  function visualKey(key) {
    if (document.documentElement.dir !== "rtl") return key;
    return key === "ArrowRight" ? "ArrowLeft" : key === "ArrowLeft" ? "ArrowRight" : key;
  }
  window.TallyGridKeys = { visualKey };

  document.addEventListener("keydown", (event) => {
    const cell = event.target.closest && event.target.closest("[role=gridcell]");
    if (!cell) return;
    const grid = cell.closest("[role=grid]");
    const rows = cellsByRow(grid);
    let r = rows.findIndex((row) => row.includes(cell));
    let c = rows[r].indexOf(cell);
    switch (visualKey(event.key)) {
      case "ArrowRight": c += 1; if (c >= rows[r].length && r + 1 < rows.length && grid.dataset.wrap !== "no") { r += 1; c = 0; } break;
      case "ArrowLeft": c -= 1; if (c < 0 && r > 0 && grid.dataset.wrap !== "no") { r -= 1; c = rows[r].length - 1; } break;
      case "ArrowDown": r += 1; break;
      case "ArrowUp": r -= 1; break;
      case "Home": if (event.ctrlKey) r = 0; c = 0; break;
      case "End": if (event.ctrlKey) r = rows.length - 1; c = rows[Math.max(0, Math.min(r, rows.length - 1))].length - 1; break;
      case " ": { const link = focusable(cell); if (link.matches("a")) { event.preventDefault(); link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true })); } return; }
      default: return;
    }
    event.preventDefault();
    r = Math.max(0, Math.min(r, rows.length - 1));
    c = Math.max(0, Math.min(c, rows[r].length - 1));
    const next = rows[r][c];
    if (next) focusCell(grid, next);
  });

  // ---- Today: select a day by tap, by keyboard, or by dragging across the date grid.
  function selectDay(day, { push = true, focus = false } = {}) {
    const width = currentWidth();
    const url = `/today?day=${day}` + (width ? `&width=${width}` : "");
    return load(url, { push, focusId: focus ? `cell-${day}` : null }).then(() => {
      if (focus) {
        const cell = document.querySelector(`.dc[data-day="${day}"]`);
        if (cell) focusCell(cell.closest("[role=grid]"), cell);
      }
    });
  }

  // SPEC 5's W is the screen's width, not the card's.
  function currentWidth() {
    return document.getElementById("date-grid") ? screenWidth() : null;
  }

  function screenWidth() {
    return Math.round(document.documentElement.clientWidth);
  }

  // Shows a day as selected at once while dragging; the server's page follows on release.
  function preview(svg, day) {
    svg.querySelectorAll(".dc").forEach((c) => c.parentNode.setAttribute("aria-selected", String(c.dataset.day === day)));
    const cell = svg.querySelector(`.dc[data-day="${day}"]`);
    const heading = document.getElementById("day-heading");
    if (cell && heading) heading.textContent = cell.dataset.name;
  }

  // Selections made by dragging, kept across page swaps and shown on the grid for tests.
  let selections = 0;
  let drag = null;
  document.addEventListener("pointerdown", (event) => {
    const svg = event.target.closest && event.target.closest("#date-grid .date-svg");
    if (!svg || event.button > 0) return;
    const cell = event.target.closest(".dc");
    drag = { svg, day: null, pointer: event.pointerId };
    svg.setPointerCapture(event.pointerId);
    if (cell) scrubTo(cell.dataset.day);
    event.preventDefault();
  });

  function scrubTo(day) {
    if (!drag || day === drag.day) return;
    drag.day = day;
    // One selection and one buzz per new day, none for the same day again.
    selections += 1;
    drag.svg.closest("#date-grid").dataset.selections = String(selections);
    if (navigator.vibrate) navigator.vibrate(8);
    preview(drag.svg, day);
  }

  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = under && under.closest(".dc");
    if (cell && drag.svg.contains(cell)) scrubTo(cell.dataset.day);
  });

  function endDrag(event) {
    if (!drag || event.pointerId !== drag.pointer) return;
    const { day } = drag;
    drag = null;
    if (day && day !== document.querySelector(".today").dataset.selected) selectDay(day);
  }
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", endDrag);

  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest(".dc");
    if (cell) {
      event.preventDefault();
      // In the grid a pointer selects on release; a click from the keyboard (Enter) or in
      // the date row selects here.
      if (event.detail === 0 || !cell.closest("#date-grid")) selectDay(cell.dataset.day, { focus: event.detail === 0 });
      return;
    }
    const todayButton = event.target.closest && event.target.closest("#today-button");
    if (todayButton) {
      event.preventDefault();
      selectDay(document.querySelector(".today").dataset.today);
    }
  });


  // ---- A habit's grid: a tap toggles the day; a long press, right click or M opens the day
  // to skip it or add a note.
  function habitCell(event) {
    return event.target.closest && event.target.closest("#habit-grid .gc");
  }

  function toggleHabitDay(cell) {
    const habit = cell.closest("#habit-grid").dataset.habit;
    // Back to this address, so a grid paged to earlier weeks stays on them.
    const body = new URLSearchParams({ day: cell.dataset.day, back: location.pathname + location.search });
    load(`/habits/${habit}/toggle`, { method: "POST", body, cell }).then(() => {
      const again = document.querySelector(`#habit-grid .gc[data-day="${cell.dataset.day}"]`);
      if (again) focusCell(again.closest("[role=grid]"), again);
    });
  }

  let pressTimer = 0;
  let pressed = false;
  document.addEventListener("pointerdown", (event) => {
    const cell = habitCell(event);
    if (!cell || event.pointerType !== "touch") return;
    pressed = false;
    pressTimer = setTimeout(() => { pressed = true; location.href = cell.getAttribute("href"); }, 550);
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("pointercancel", () => clearTimeout(pressTimer));
  document.addEventListener("contextmenu", (event) => {
    const cell = habitCell(event);
    if (!cell) return;
    event.preventDefault();
    clearTimeout(pressTimer);
    if (!pressed) location.href = cell.getAttribute("href");
  });
  document.addEventListener("click", (event) => {
    const cell = habitCell(event);
    if (!cell) return;
    event.preventDefault();
    // A measurable day needs an amount, so a tap opens the day rather than toggling it.
    if (!pressed && cell.closest("#habit-grid").dataset.measurable) location.href = cell.getAttribute("href");
    else if (!pressed) toggleHabitDay(cell);
    pressed = false;
  });
  document.addEventListener("keydown", (event) => {
    const cell = habitCell(event);
    if (cell && (event.key === "m" || event.key === "M")) {
      event.preventDefault();
      location.href = cell.getAttribute("href");
    }
  });

  // Back and forward load the page they land on; a move within the page (the skip link's
  // #main) is not a new page, and reloading it would take its focus away.
  window.addEventListener("popstate", () => {
    if (pageOf(location.href) === document.documentElement.dataset.shown) return;
    shown(location.href);
    load(location.href);
  });

  // The grids are laid out on the server for a width. Every page remembers the screen's width,
  // so Today is laid out right the first time it is drawn; a grid made for another width (more
  // than a point off, SPEC 5) stays hidden until the page for this one replaces it.
  function relayout() {
    document.cookie = `tally_width=${screenWidth()}; path=/; max-age=31536000; samesite=lax`;
    const grid = document.getElementById("date-grid") || document.getElementById("habit-grid");
    if (!grid) return;
    const width = grid.id === "date-grid" ? screenWidth() : Math.round(grid.clientWidth);
    if (grid.id === "habit-grid") document.cookie = `tally_grid_width=${width}; path=/; max-age=31536000; samesite=lax`;
    const same = width >= Number(grid.dataset.wideFrom || Infinity) || Math.abs(width - Number(grid.dataset.layoutWidth)) <= 1;
    // Offline the page kept for another width is shown as it is (docs/offline.md).
    if (!same && navigator.onLine) {
      if (grid.id === "date-grid") grid.classList.add("relayout");
      const url = new URL(location.href);
      url.searchParams.set("width", width);
      if (grid.id === "date-grid") url.searchParams.set("day", document.querySelector(".today").dataset.selected);
      load(url.pathname + url.search + url.hash, { remember: false }).then((ok) => { if (!ok) grid.classList.remove("relayout"); });
    }
  }

  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(relayout, 150);
  });

  // The date row scrolls its selected day into view: five days before it, at the leading edge.
  // It rests on whole circles (app.css): the header is given whole steps of a circle and its
  // gap, so the row's end cuts no circle while the header shows either.
  function scrollStrip() {
    const strip = document.getElementById("date-strip");
    if (!strip) return;
    const header = document.getElementById("strip-header");
    const step = 34;
    header.style.minWidth = "";
    header.style.minWidth = `${Math.ceil((header.getBoundingClientRect().width + 12) / step) * step - 12}px`;
    const target = strip.dataset.scrollTo;
    if (target === "header") { strip.scrollLeft = 0; return; }
    const cell = strip.querySelector(`.dc[data-day="${target}"]`);
    if (!cell) return;
    const box = cell.getBoundingClientRect();
    const frame = strip.getBoundingClientRect();
    strip.scrollLeft += strip.dataset.scrollAnchor === "trailing" ? box.right - frame.right + 12 : box.left - frame.left - 12;
  }

  function fillTimeZone() {
    document.querySelectorAll("input[data-fill=time-zone]").forEach((input) => {
      try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || input.value; } catch (_) { /* keep */ }
    });
  }

  function settle() {
    const grid = document.getElementById("date-grid");
    if (grid && selections) grid.dataset.selections = String(selections);
    scrollStrip();
    fillTimeZone();
    document.querySelectorAll(".dc").forEach((c) => { c.id = `cell-${c.dataset.day}`; });
  }

  // Pages that show data (<main data-live>: Today, the habits, a habit, the calendar) follow
  // the account live (docs/sync.md "Live changes"): when the feed moves past the position a
  // page shows, it fetches itself again and swaps its content in place; not under someone
  // typing in one of its fields (then once they leave it), nor while another load is on.
  let stream = null;
  let heard = 0;
  let stale = false;
  const shownHead = () => Number(document.querySelector("main[data-live]")?.dataset.live || 0);
  const typing = () => {
    const field = document.activeElement;
    return field && field.closest("main") && field.matches("textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button])");
  };
  async function catchUp() {
    stale = heard > shownHead();
    if (!stale || pending || typing()) return;
    const response = await fetch(location.href, { credentials: "same-origin" }).catch(() => null);
    if (!response || !response.ok || pending) return;
    const html = await response.text();
    const focused = document.activeElement;
    swapMain(html, focused && focused.id);
    // The page's head was read after the change was told, so one fetch catches up.
    stale = false;
  }
  function follow() {
    const live = document.querySelector("main[data-live]");
    if (!live || document.hidden || !("EventSource" in window)) {
      if (stream) { stream.close(); stream = null; }
      delete document.documentElement.dataset.following;
      return;
    }
    if (stream) return;
    stream = new EventSource("/api/v1/sync/live");
    // Says the stream is open: for the browser suite, which waits for it as a person's page would.
    stream.addEventListener("open", () => { document.documentElement.dataset.following = "yes"; });
    const hear = (event) => {
      heard = Math.max(heard, Number(JSON.parse(event.data).cursor.split(":")[0]));
      catchUp();
    };
    stream.addEventListener("ready", hear);
    stream.addEventListener("changed", hear);
    // EventSource gives up for good on an answer that is not the stream (a proxy's 502 while
    // the server restarts): open a new one a little later.
    stream.addEventListener("error", (event) => {
      if (event.target !== stream || stream.readyState !== EventSource.CLOSED) return;
      stream = null;
      setTimeout(follow, 5000);
    });
  }
  document.addEventListener("visibilitychange", () => {
    follow();
    if (!document.hidden && stale) catchUp();
  });
  document.addEventListener("focusout", () => setTimeout(() => { if (stale && !typing()) catchUp(); }, 0));
  follow();

  // Deferred scripts run before DOMContentLoaded; relayout at once, before the first paint.
  relayout();
  document.addEventListener("DOMContentLoaded", settle);
})();
