// The report job page: poll the job's status every 1.5 s until it is done or failed, then
// reload (the page shows the download link or the failure). Without JavaScript the page
// refreshes itself every 2 s (<noscript> meta refresh).
(function () {
  "use strict";
  var box = document.getElementById("report-job");
  if (!box) return;
  var state = box.dataset.state;
  if (state !== "pending" && state !== "running") return;
  var bar = document.getElementById("job-progress");
  var percent = document.getElementById("job-percent");
  function poll() {
    fetch(box.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (job) {
        if (!job) return setTimeout(poll, 3000);
        if (bar) bar.value = job.progress;
        if (percent) percent.textContent = job.progress;
        if (job.state === "done" || job.state === "failed") return window.location.reload();
        setTimeout(poll, 1500);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 1000);
})();
