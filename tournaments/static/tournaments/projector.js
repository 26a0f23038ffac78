/* Projector (issue 6): read-only, follows the game state (poll.js: every second, 304 while
 * unchanged) and redraws the board, rack, countdown, top, best moves, ranking. */
import { poll } from "./poll.js";
import { ROWS, SIZE, serverClockOffset, esc, fmt, minutesSeconds, premiumMap, secondsLeft } from "./live.js";

const cfg = JSON.parse(document.getElementById("projector-config").textContent);
const T = cfg.i18n;
const $ = (id) => document.getElementById(id);
const boardEl = $("p-board"), cells = [], premium = premiumMap(cfg.premiums);
let state = null, offset = 0;

function build() {
  var corner = document.createElement("div"); corner.className = "label"; boardEl.appendChild(corner);
  for (var c = 0; c < SIZE; c++) {
    var l = document.createElement("div"); l.className = "label"; l.textContent = c + 1; boardEl.appendChild(l);
  }
  for (var r = 0; r < SIZE; r++) {
    var rl = document.createElement("div"); rl.className = "label"; rl.textContent = ROWS[r]; boardEl.appendChild(rl);
    for (c = 0; c < SIZE; c++) {
      var d = document.createElement("div");
      d.className = "sq " + (premium[r * SIZE + c] || "");
      boardEl.appendChild(d); cells.push(d);
    }
  }
}

function render() {
  var g = state.game, r = state.round;
  $("p-round").textContent = g && r ? fmt(T.game_round, { game: g.number, round: r.number }) + " — " +
    (centreClosed() ? T.centre_closed : (T[r.state] || r.state)) : T.waiting;
  var hi = {}, squares = r && r.top ? r.top.squares : state.last_top;
  (squares || []).forEach(function (p) { hi[p[0] * SIZE + p[1]] = p[2]; });
  for (var i = 0; i < cells.length; i++) {
    var ch = r ? r.board[i] : ".", letter = ch !== "." ? ch : (r && r.top && hi[i]) || "";
    cells[i].textContent = letter ? letter.toUpperCase() : "";
    cells[i].className = "sq " + (premium[i] || "") + (letter ? " tile" : "") + (hi[i] ? " last" : "") +
      (letter && letter !== letter.toUpperCase() ? " joker" : "");
  }
  var rack = $("p-rack"); rack.innerHTML = "";
  (r ? r.rack : "").split("").filter(function (ch) { return /[A-Z?]/.test(ch); }).forEach(function (ch) {
    var t = document.createElement("span"); t.className = "rtile"; t.textContent = ch; rack.appendChild(t);
  });
  var top = $("p-top");
  top.hidden = !(r && r.top);
  if (r && r.top) top.innerHTML = '<h2>' + esc(T.top) + '</h2><p class="topline"><span id="p-top-ref">' + esc(r.top.reference) +
    '</span> <span id="p-top-word">' + esc(r.top.word.toUpperCase()) + '</span> <span class="pts">' + r.top.score + " " + esc(T.points) + "</span></p>";
  var best = $("p-best"); best.hidden = !state.best_moves.length;
  $("p-best-list").innerHTML = state.best_moves.map(function (m) {
    return '<li' + (m.top ? ' class="istop"' : "") + "><strong>" + esc(m.name) + "</strong> " + esc(m.reference) + " " +
      esc(m.word.toUpperCase()) + " · " + m.score + "</li>";
  }).join("");
  var showRanking = state.ranking.length && r && (r.state !== "open");
  $("p-ranking").hidden = !showRanking;
  $("p-ranking-body").innerHTML = state.ranking.map(function (s) {
    return "<tr><td>" + s.rank + "</td><td>" + esc(s.name) + "</td><td>" + s.total + "</td><td>" + esc(s.negatif) + "</td></tr>";
  }).join("");
  measure();
  showPage();
}

// The ranking pages through the lines the state carries (the top TIRAGE_PROJECTOR_LINES,
// "1–13 sur 5000" saying how many there are in all), as many rows as fit at a readable size, one
// page every cfg.page_seconds (a room of 200 players is read in turn from the back). The
// page size is measured when the rows are drawn (all displayed) and on resize.
var page = 0, size = 0;
function measure() {
  var wrap = $("p-table-wrap"), rows = $("p-ranking-body").rows;
  size = 0;
  if ($("p-ranking").hidden || !rows.length) return;
  Array.prototype.forEach.call(rows, function (tr) { tr.classList.remove("off"); });
  var head = wrap.querySelector("thead").offsetHeight, row = rows[0].offsetHeight || 1;
  size = Math.max(1, Math.floor((wrap.clientHeight - head) / row));
}
function showPage() {
  var rows = $("p-ranking-body").rows, n = rows.length, pager = $("p-pager");
  if (!size || !n) { pager.textContent = ""; delete pager.dataset.page; return; }
  var pages = Math.ceil(n / size);
  if (page >= pages) page = 0;
  var first = page * size, last = Math.min(n, first + size);
  Array.prototype.forEach.call(rows, function (tr, i) { tr.classList.toggle("off", i < first || i >= last); });
  var count = Math.max(n, (state && state.ranking_count) || 0);  // the top lines of how many
  pager.textContent = pages > 1 || count > n ? fmt(T.pager, { first: first + 1, last: last, count: count }) : "";
  pager.dataset.page = page + 1;
  pager.dataset.pages = pages;
}
setInterval(function () { page++; showPage(); }, (cfg.page_seconds || 8) * 1000);
window.addEventListener("resize", function () { measure(); showPage(); });

// A centre's projector (issue 16): the centre may collect its slips before the others.
function centreClosed() {
  var r = state && state.round;
  return !!(r && r.state === "open" && state.centre && state.centre.closed);
}

function tick() {
  var r = state && state.round, el = $("p-countdown"), text = "", cls = "pcountdown";
  if (centreClosed()) {
    text = T.centre_closed; cls += " closed";
  } else if (r && r.state === "open" && r.paused) {
    text = T.paused; cls += " paused";
  } else if (r && r.state === "open" && r.deadline) {
    var left = secondsLeft(r.deadline, offset);
    text = left > 0 ? minutesSeconds(left) : T.time_up;
    if (left <= 30) cls += " soon";
  }
  el.textContent = text; el.className = cls; el.hidden = !text;
}

$("fullscreen").addEventListener("click", function () {
  if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
});
build();
// A failed request keeps the last picture; the next answer redraws everything.
poll(cfg.state_url, {
  interval: 1000,
  onData: function (data, clock) {
    offset = serverClockOffset(data.server_time, clock);
    state = data; render();
  },
});
setInterval(tick, 250);
