// The page of a batch of pre-drawn games: follow the batch's status (poll.js's pollJob,
// every 1.5 s), fill in each game's rounds and top total as it lands and show its "create"
// button; the page reloads once the batch is done. Without JavaScript the page refreshes
// itself every 2 s.
import { pollJob } from "./poll.js";

const box = document.getElementById("batch-job");
if (box && box.dataset.state === "running") {
  const bar = document.getElementById("batch-progress");
  const done = document.getElementById("batch-done");
  const show = (game) => {
    const row = box.querySelector('tr[data-id="' + game.id + '"]');
    if (!row || !game.ready || row.dataset.ready === "1") return;
    row.dataset.ready = "1";
    row.querySelector(".rounds").textContent = game.rounds;
    row.querySelector(".top").textContent = game.top_total;
    row.querySelectorAll(".pending").forEach((el) => { el.hidden = true; });
    row.querySelectorAll("form").forEach((el) => { el.hidden = false; });
  };
  pollJob(box.dataset.statusUrl, (status) => {
    if (bar) bar.value = status.done;
    if (done) done.textContent = status.done;
    status.games.forEach(show);
  });
}
