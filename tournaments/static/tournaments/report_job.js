// The report job page: poll the job's status (job_poll.js) until it is done or failed, then
// reload (the page shows the download link or the failure). Without JavaScript the page
// refreshes itself every 2 s (<noscript> meta refresh).
(function () {
  "use strict";
  var box = document.getElementById("report-job");
  if (!box || !window.tiragePollJob) return;
  var state = box.dataset.state;
  if (state !== "pending" && state !== "running") return;
  var bar = document.getElementById("job-progress");
  var percent = document.getElementById("job-percent");
  window.tiragePollJob(box.dataset.statusUrl, function (job) {
    if (bar) bar.value = job.progress;
    if (percent) percent.textContent = job.progress;
    if (job.state !== "done" && job.state !== "failed") return false;
    window.location.reload();
    return true;
  });
})();
