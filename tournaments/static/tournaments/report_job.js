// The report job page: follow the job's status (poll.js, every 1.5 s) until it is done or
// failed, then reload (the page shows the download link or the failure). Without
// JavaScript the page refreshes itself every 2 s (<noscript> meta refresh).
import { poll } from "./poll.js";

const box = document.getElementById("report-job");
if (box && (box.dataset.state === "pending" || box.dataset.state === "running")) {
  const bar = document.getElementById("job-progress");
  const percent = document.getElementById("job-percent");
  const job = poll(box.dataset.statusUrl, {
    interval: 1500,
    delay: 1000,
    onData(status) {
      if (bar) bar.value = status.progress;
      if (percent) percent.textContent = status.progress;
      if (status.state !== "done" && status.state !== "failed") return;
      job.stop();
      window.location.reload();
    },
  });
}
