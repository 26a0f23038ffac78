// The settings page: follow each word list being compiled (poll.js, every 1.5 s), moving
// its progress bar, and reload the page once it is done or failed so the new lexicon shows
// in the "Lexique" choices. Without JavaScript the arbiter reloads the page.
import { poll } from "./poll.js";

document.querySelectorAll("#lexicon-builds tr[data-state]").forEach((row) => {
  const state = row.dataset.state;
  if (state !== "pending" && state !== "running") return;
  const bar = row.querySelector("progress");
  const percent = row.querySelector(".percent");
  const job = poll(row.dataset.statusUrl, {
    interval: 1500,
    delay: 1000,
    onData(build) {
      if (bar) bar.value = build.progress;
      if (percent) percent.textContent = build.progress;
      if (build.state !== "done" && build.state !== "failed") return;
      job.stop();
      window.location.reload();
    },
  });
});
