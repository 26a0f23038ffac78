// The settings page: follow each word list being compiled (poll.js's pollJob, every 1.5 s),
// moving its progress bar; the page reloads once it is done or failed so the new lexicon
// shows in the "Lexique" choices. Without JavaScript the arbiter reloads the page.
import { pollJob } from "./poll.js";

document.querySelectorAll("#lexicon-builds tr[data-state]").forEach((row) => {
  const state = row.dataset.state;
  if (state !== "pending" && state !== "running") return;
  const bar = row.querySelector("progress");
  const percent = row.querySelector(".percent");
  pollJob(row.dataset.statusUrl, (build) => {
    if (bar) bar.value = build.progress;
    if (percent) percent.textContent = build.progress;
  });
});
