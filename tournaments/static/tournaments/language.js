// The language switch submits itself when a language is picked (no inline handler: the
// Content-Security-Policy forbids them). Without JavaScript the form's button does it.
"use strict";
document.querySelectorAll("form.language select[data-autosubmit]").forEach((select) => {
  select.addEventListener("change", () => select.form.submit());
});
