// The report job page: follow the job's status (poll.js's pollJob, every 1.5 s) until it is
// done or failed, then reload (the page shows the download link or the failure). Without
// JavaScript the page refreshes itself every 2 s (<noscript> meta refresh).
import { pollJob } from "./poll.js";

const box = document.getElementById("report-job");
if (box && (box.dataset.state === "pending" || box.dataset.state === "running")) {
  const bar = document.getElementById("job-progress");
  const percent = document.getElementById("job-percent");
  pollJob(box.dataset.statusUrl, (status) => {
    if (bar) bar.value = status.progress;
    if (percent) percent.textContent = status.progress;
  });
}
