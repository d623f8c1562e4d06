// Typed text is never lost: each field marked data-draft keeps what is typed in the
// browser's storage until it is saved or discarded, so picking another day, reloading or a
// dropped connection brings it back. Where storage is refused, leaving the page warns.
"use strict";

(() => {
  const prefix = "tally.draft.";

  function keyOf(field) {
    const owner = field.closest("[data-owner]");
    return `${prefix}${owner ? owner.dataset.owner : ""}.${field.dataset.draft}`;
  }

  function read(key) {
    try { return localStorage.getItem(key); } catch (_) { return null; }
  }

  // Whether the field's text is safe: saved on the server or kept in storage.
  function keep(field) {
    try {
      if (field.value === field.defaultValue) localStorage.removeItem(keyOf(field));
      else localStorage.setItem(keyOf(field), field.value);
      return true;
    } catch (_) {
      return false;
    }
  }

  function forget(field) {
    try { localStorage.removeItem(keyOf(field)); } catch (_) { /* nothing kept */ }
  }

  function note(field) {
    const box = document.createElement("p");
    box.className = "draft-note";
    box.setAttribute("role", "status");
    box.append(window.TallyWords.say("draftRestored") + " ");
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "link draft-discard";
    discard.textContent = window.TallyWords.say("discardDraft");
    discard.addEventListener("click", () => {
      if (!window.confirm(window.TallyWords.say("discardConfirm"))) return;
      field.value = field.defaultValue;
      forget(field);
      box.remove();
      field.focus();
    });
    box.append(discard);
    // A one-line field sits in a row with its button: the note goes under the whole form.
    (field.tagName === "INPUT" && field.form ? field.form : field).after(box);
  }

  // Puts each kept draft back into its field; a draft equal to what the server holds is done.
  function restore() {
    document.querySelectorAll("[data-draft]").forEach((field) => {
      if (field.dataset.restored) return;
      field.dataset.restored = "yes";
      const draft = read(keyOf(field));
      if (draft === null) return;
      if (draft === field.defaultValue) { forget(field); return; }
      field.value = draft;
      note(field);
    });
  }

  document.addEventListener("input", (event) => {
    const field = event.target.closest && event.target.closest("[data-draft]");
    if (field) keep(field);
  });

  // Saving or sending ends the draft. If the post fails the text stays in the field, and
  // the next keystroke or leaving the page keeps it again.
  document.addEventListener("submit", (event) => {
    event.target.querySelectorAll("[data-draft]").forEach(forget);
  }, true);

  window.addEventListener("beforeunload", (event) => {
    const unsafe = [...document.querySelectorAll("[data-draft]")].some((field) =>
      field.value !== field.defaultValue && read(keyOf(field)) !== field.value && !keep(field));
    if (unsafe) { event.preventDefault(); event.returnValue = ""; }
  });

  // app.js swaps <main> when another day is picked; the new day's fields get their drafts.
  document.addEventListener("DOMContentLoaded", () => {
    restore();
    new MutationObserver(restore).observe(document.body, { childList: true });
  });
})();

// Shows: a chosen .ics file is read into the feed's text box, which the form posts.
(() => {
  document.addEventListener("change", async (event) => {
    const input = event.target.closest && event.target.closest("input[type=file][data-fills]");
    const target = input && document.getElementById(input.dataset.fills);
    if (!target || !input.files[0]) return;
    try { target.value = await input.files[0].text(); } catch (_) { target.value = ""; }
  });
})();
