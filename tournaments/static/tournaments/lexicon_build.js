// The settings page: follow each word list being compiled (job_poll.js), moving its
// progress bar, and reload the page once it is done or failed so the new lexicon shows in
// the "Lexique" choices. Without JavaScript the arbiter reloads the page.
(function () {
  "use strict";
  if (!window.tiragePollJob) return;
  document.querySelectorAll("#lexicon-builds tr[data-state]").forEach(function (row) {
    var state = row.dataset.state;
    if (state !== "pending" && state !== "running") return;
    var bar = row.querySelector("progress");
    var percent = row.querySelector(".percent");
    window.tiragePollJob(row.dataset.statusUrl, function (build) {
      if (bar) bar.value = build.progress;
      if (percent) percent.textContent = build.progress;
      if (build.state !== "done" && build.state !== "failed") return false;
      window.location.reload();
      return true;
    });
  });
})();
