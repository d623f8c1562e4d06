// The words the scripts write, in the page's language (docs/translating.md): the catalog's
// `script` section, which the server puts in <body data-words>. A count picks its plural form
// by the same CLDR keys the server reads (`_zero`, then the language's category, then
// `_other`), here from Intl.PluralRules.
"use strict";

self.TallyWords = (() => {
  const words = JSON.parse(document.body.dataset.words || "{}");
  const rules = new Intl.PluralRules(document.documentElement.lang || "en");

  // `values` fill the `{{name}}` placeholders as plain text (the callers set textContent).
  function say(key, values = {}) {
    let text = words[key];
    if (typeof values.count === "number") {
      const count = values.count;
      text = (count === 0 && words[`${key}_zero`]) || words[`${key}_${rules.select(count)}`] || words[`${key}_other`];
    }
    return (text ?? "…").replace(/\{\{(\w+)\}\}/g, (match, name) => (name in values ? String(values[name]) : match));
  }

  return { say };
})();
