/* The shared screen of a card table (issue 18): the table, the scores, whose turn, the
 * deck and the last turns, followed through poll.js. It never holds a hand. */
import { drawGrid, scoresHtml, statusText, turnsHtml } from "./cards_table.js";
import { fmt } from "./live.js";
import { poll } from "./poll.js";

const cfg = JSON.parse(document.getElementById("cards-config").textContent);
const T = cfg.i18n;
const $ = (id) => document.getElementById(id);

function render(view) {
  view.you = null;
  $("status").textContent = statusText(view, T);
  $("deck").textContent = fmt(T.deck, { count: view.deck });
  $("scores").innerHTML = scoresHtml(view, T);
  $("turns").innerHTML = turnsHtml(view);
  drawGrid($("grid"), view, T, {});
}

poll(cfg.urls.state, { onData: render, interval: () => 1000, pauseWhenHidden: false });
