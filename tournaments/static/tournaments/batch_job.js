// The page of a batch of pre-drawn games: poll the batch's status (job_poll.js), fill in
// each game's rounds and top total as it lands and show its "create" button; reload once
// the batch is done. Without JavaScript the page refreshes itself every 2 s.
(function () {
  "use strict";
  var box = document.getElementById("batch-job");
  if (!box || !window.tiragePollJob || box.dataset.state !== "running") return;
  var bar = document.getElementById("batch-progress");
  var done = document.getElementById("batch-done");
  function show(game) {
    var row = box.querySelector('tr[data-id="' + game.id + '"]');
    if (!row || !game.ready || row.dataset.ready === "1") return;
    row.dataset.ready = "1";
    row.querySelector(".rounds").textContent = game.rounds;
    row.querySelector(".top").textContent = game.top_total;
    row.querySelectorAll(".pending").forEach(function (el) { el.hidden = true; });
    row.querySelectorAll("form").forEach(function (el) { el.hidden = false; });
  }
  window.tiragePollJob(box.dataset.statusUrl, function (batch) {
    if (bar) bar.value = batch.done;
    if (done) done.textContent = batch.done;
    batch.games.forEach(show);
    if (batch.state !== "done") return false;
    window.location.reload();
    return true;
  });
})();
