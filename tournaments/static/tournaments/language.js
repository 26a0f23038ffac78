/* The language switch sends its form as soon as a language is chosen (no inline handler:
 * pages run under a Content-Security-Policy with script-src 'self'). */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    if (select.dataset.wired) return;
    select.dataset.wired = "1";
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
