/* Player tablet (issues 6 and 13). Follows the state (poll.js: every second, 304 while
 * nothing changed), previews a move without ever learning whether its words are valid,
 * keeps the typed move in localStorage and resends it with the same client key until the
 * server confirms it (tablet_draft.js). A move is typed or tapped: a square, then rack
 * tiles (a tap on a placed tile takes it back; the joker asks for its letter). Once the
 * time is up or the round is closed, editing is locked and the page says which proposal
 * counts: a late send never replaces an on-time one (docs/live-updates.md). No framework. */
import { ROWS, SIZE, esc, fmt, minutesSeconds, premiumMap, secondsLeft, serverClockOffset } from "./live.js";
import { poll } from "./poll.js";
import {
  blankDraft, loadDraft, newKey, parseReference, pathOf, placedOf, rackUse, referenceOf, saveDraft, spell, wordOf,
} from "./tablet_draft.js";
import { resultsHtml } from "./tablet_results.js";
import { receivedText, sendStatus } from "./tablet_status.js";

var cfg = JSON.parse(document.getElementById("tablet-config").textContent);
var T = cfg.i18n;

var $ = function (id) { return document.getElementById(id); };
var boardEl = $("board"), rackEl = $("rack"), refInput = $("reference"), wordInput = $("word");
var dirBtn = $("direction"), jokersBox = $("jokers"), jokerLetters = $("joker-letters");
var previewEl = $("preview"), sendBtn = $("send"), sentEl = $("sent"), receivedEl = $("received");
var countdownEl = $("countdown"), roundLabel = $("round-label"), connEl = $("connection");
var resultsEl = $("results"), resultsBody = $("results-body");
var actionsEl = $("actions"), boardWrap = $("board-wrap"), pickerEl = $("joker-picker");
var pickerLetters = $("joker-picker-letters"), clearBtn = $("clear");
var lang = document.documentElement.lang || "fr";

// --- State ---------------------------------------------------------------------------
var server = null;          // last state document
var live = null;            // the poller of the state (poll.js)
var clockOffset = 0;        // server clock minus local clock, ms
var online = true;
var previewData = null;     // last successful preview for the current draft
var previewSeq = 0;
var retryTimer = null;
var draft = loadDraft(cfg.storage_key) || blankDraft(null);
var cells = [];             // 225 buttons
var focusIndex = 7 * SIZE + 7;
var wasLocked = null;

function save() { saveDraft(cfg.storage_key, draft); }
function reference() { return referenceOf(draft); }
function typedWord() { return wordOf(draft); }

// --- Board ---------------------------------------------------------------------------
var premium = premiumMap(cfg.premiums);

function buildBoard() {
  var corner = document.createElement("div");
  corner.className = "label corner";
  boardEl.appendChild(corner);
  for (var c = 0; c < SIZE; c++) {
    var top = document.createElement("div");
    top.className = "label col"; top.textContent = c + 1; top.setAttribute("aria-hidden", "true");
    boardEl.appendChild(top);
  }
  for (var r = 0; r < SIZE; r++) {
    var left = document.createElement("div");
    left.className = "label row"; left.textContent = ROWS[r]; left.setAttribute("aria-hidden", "true");
    boardEl.appendChild(left);
    for (c = 0; c < SIZE; c++) {
      var b = document.createElement("button");
      var i = r * SIZE + c;
      b.type = "button";
      b.className = "sq " + (premium[i] || "") + (i === 112 ? " star" : "");
      b.dataset.index = i;
      b.tabIndex = i === focusIndex ? 0 : -1;
      b.addEventListener("click", onSquare);
      b.addEventListener("keydown", onSquareKey);
      boardEl.appendChild(b);
      cells.push(b);
    }
  }
}

// --- Tapping a move: the squares of the word, its placed letters ----------------------
function boardText() {
  return server && server.round && server.round.board ? server.round.board : null;
}
function path() { return pathOf(draft, boardText()); }
function placedLetters() { return placedOf(draft, boardText()); }
function rebuild(placed) {
  var spelt = spell(draft, boardText() || "", placed);
  if (!spelt) return false;  // runs off the board
  draft.word = spelt.word; draft.jokers = spelt.jokers;
  wordInput.value = draft.word;
  return true;
}
function placeLetter(letter, joker) {
  if (locked()) return;
  if (draft.row == null) { renderSendStatus(T.tap_start, "pending"); return; }
  var placed = placedLetters();
  placed.push({ letter: letter, joker: joker });
  if (rebuild(placed)) changed();
}
function takeBack(index) {
  var p = path(), placed = [], taken = false;
  p.forEach(function (q) {
    if (!q[3]) return;
    if (q[0] === index && !taken) { taken = true; return; }
    placed.push({ letter: q[1], joker: q[2] });
  });
  if (!taken) return false;
  rebuild(placed);
  changed();
  return true;
}

function onSquare(ev) {
  if (locked()) return;
  var i = +ev.currentTarget.dataset.index, r = Math.floor(i / SIZE), c = i % SIZE;
  if (draft.word && takeBack(i)) return;
  if (draft.row === r && draft.col === c) draft.horizontal = !draft.horizontal;
  else { draft.row = r; draft.col = c; }
  focusIndex = i;
  refInput.value = reference();
  changed();
}
function onSquareKey(ev) {
  var i = +ev.currentTarget.dataset.index, r = Math.floor(i / SIZE), c = i % SIZE;
  var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[ev.key]) {
    ev.preventDefault();
    r = Math.min(SIZE - 1, Math.max(0, r + moves[ev.key][0]));
    c = Math.min(SIZE - 1, Math.max(0, c + moves[ev.key][1]));
    cells[focusIndex].tabIndex = -1;
    focusIndex = r * SIZE + c;
    cells[focusIndex].tabIndex = 0;
    cells[focusIndex].focus();
  } else if (/^[a-zA-Z]$/.test(ev.key) && draft.row != null) {
    wordInput.focus();  // typing a letter on the board goes to the word
  }
}

function renderBoard() {
  var round = server && server.round;
  var board = round ? round.board : null;
  var overlay = {}, topSq = {}, startIndex = draft.row != null ? draft.row * SIZE + draft.col : -1;
  if (previewData) previewData.placed.forEach(function (p) { overlay[p[0] * SIZE + p[1]] = p[2]; });
  else path().forEach(function (p) { if (p[3]) overlay[p[0]] = p[2] ? p[1].toLowerCase() : p[1]; });
  if (round && round.top) round.top.squares.forEach(function (p) { topSq[p[0] * SIZE + p[1]] = p[2]; });
  for (var i = 0; i < cells.length; i++) {
    var b = cells[i], ch = board ? board[i] : ".", cls = [];
    var letter = ch !== "." ? ch : (overlay[i] || topSq[i] || "");
    if (ch !== ".") cls.push("tile");
    else if (overlay[i]) cls.push("tile", "new");
    else if (topSq[i]) cls.push("tile", "top");
    if (letter && letter === letter.toLowerCase()) cls.push("joker");
    if (i === startIndex) cls.push("start", draft.horizontal ? "h" : "v");
    b.className = "sq " + (premium[i] || "") + (i === 112 ? " star " : " ") + cls.join(" ");
    b.textContent = letter ? letter.toUpperCase() : "";
    var ref = ROWS[Math.floor(i / SIZE)] + (i % SIZE + 1);
    b.setAttribute("aria-label", fmt(T.square, { ref: ref }) + " : " + (letter ? letter.toUpperCase() : T.empty));
    b.setAttribute("aria-pressed", i === startIndex ? "true" : "false");
  }
}

function rackLetters() {
  var rack = server && server.round ? server.round.rack : "";
  return (rack || "").split("").filter(function (ch) { return /[A-Z?]/.test(ch); });
}

function renderRack() {
  var rack = rackLetters(), used = rackUse(rack, placedLetters()), off = locked();
  if (rackEl.dataset.rack !== rack.join("")) {
    rackEl.innerHTML = "";
    rack.forEach(function (ch, t) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "rtile" + (ch === "?" ? " joker" : "");
      b.textContent = ch;
      b.dataset.slot = t;
      b.setAttribute("aria-label", ch === "?" ? T.joker_tile : fmt(T.rack_tile, { letter: ch }));
      b.addEventListener("click", onRackTile);
      rackEl.appendChild(b);
    });
    rackEl.dataset.rack = rack.join("");
  }
  Array.prototype.forEach.call(rackEl.children, function (b, t) {
    b.classList.toggle("used", !!used[t]);
    b.disabled = off || !!used[t];
  });
  jokersBox.hidden = rack.indexOf("?") < 0;
  if (off) pickerEl.hidden = true;
}

function onRackTile(ev) {
  var ch = ev.currentTarget.textContent;
  if (ch === "?") {
    if (draft.row == null) { renderSendStatus(T.tap_start, "pending"); return; }
    pickerEl.hidden = false;
    fitBar();
    var first = pickerLetters.querySelector("button");
    if (first) first.focus();
    return;
  }
  placeLetter(ch, false);
}

function buildPicker() {
  "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").forEach(function (letter) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = letter.toLowerCase();
    b.dataset.letter = letter;
    b.setAttribute("aria-label", fmt(T.joker_letter, { letter: letter }));
    b.addEventListener("click", function () {
      pickerEl.hidden = true;
      fitBar();
      placeLetter(letter, true);
    });
    pickerLetters.appendChild(b);
  });
  $("joker-cancel").addEventListener("click", function () { pickerEl.hidden = true; fitBar(); });
}

// The fixed bottom bar: the page keeps room for it, the phone board frame too.
function fitBar() {
  document.documentElement.style.setProperty("--bar-h", actionsEl.offsetHeight + "px");
}

function renderJokers() {
  jokerLetters.innerHTML = "";
  draft.word.toUpperCase().split("").forEach(function (ch, i) {
    var b = document.createElement("button");
    var on = draft.jokers.indexOf(i) >= 0;
    b.type = "button";
    b.className = "jletter" + (on ? " on" : "");
    b.textContent = ch;
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.setAttribute("aria-label", fmt(T.joker_letter, { letter: ch + " (" + (i + 1) + ")" }));
    b.addEventListener("click", function () {
      var k = draft.jokers.indexOf(i);
      if (k >= 0) draft.jokers.splice(k, 1); else draft.jokers.push(i);
      changed();
      var again = jokerLetters.children[i];
      if (again) again.focus();
    });
    jokerLetters.appendChild(b);
  });
}

// --- Entry and preview -----------------------------------------------------------------
var previewTimer = null;
function changed() {
  draft.pending = false;
  if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
  save();
  previewData = null;
  // Never leave the preview of an older draft on screen while the new one is computed.
  previewEl.innerHTML = '<p class="muted">' + esc(reference() && draft.word.length > 1 ? T.preview_wait : T.preview_hint) + "</p>";
  previewSeq++;
  renderEntry();
  clearTimeout(previewTimer);
  previewTimer = setTimeout(doPreview, 250);
}

function renderEntry() {
  dirBtn.setAttribute("aria-pressed", draft.horizontal ? "false" : "true");
  dirBtn.querySelector("span").textContent = draft.horizontal ? "→" : "↓";
  dirBtn.querySelector(".dir-text").textContent = draft.horizontal ? T.horizontal : T.vertical;
  if (document.activeElement !== wordInput) wordInput.value = draft.word;
  if (document.activeElement !== refInput) refInput.value = reference();
  renderJokers();
  renderBoard();
  renderRack();
  renderSendStatus();
}

function postJSON(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    cache: "no-store",
    headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf, "Accept": "application/json" },
    body: JSON.stringify(body)
  }).then(function (res) {
    return res.json().catch(function () { return {}; }).then(function (data) { return { status: res.status, data: data }; });
  });
}

function doPreview() {
  var round = server && server.round;
  var ref = reference(), word = typedWord();
  if (!round || !ref || word.length < 2 || (round.state !== "open" && round.state !== "closed")) {
    previewEl.innerHTML = '<p class="muted">' + esc(T.preview_hint) + "</p>";
    updateSendButton();
    return;
  }
  var seq = ++previewSeq;
  previewEl.innerHTML = '<p class="muted">' + esc(T.preview_wait) + "</p>";
  postJSON(cfg.urls.preview, { round: round.id, reference: ref, word: word }).then(function (r) {
    if (seq !== previewSeq) return;
    if (r.status === 200) {
      previewData = r.data;
      if (r.data.joker_inferred) {
        // The checker chose a reading; show it as the player's choice, to confirm.
        draft.jokers = [];
        r.data.word.split("").forEach(function (ch, i) { if (ch !== ch.toUpperCase()) draft.jokers.push(i); });
        save();
        renderJokers();
      }
      previewEl.innerHTML =
        '<dl class="pv"><div><dt>' + esc(T.reference) + '</dt><dd id="pv-ref">' + esc(r.data.reference) +
        '</dd></div><div><dt>' + esc(T.score) + '</dt><dd id="pv-score">' + r.data.score +
        '</dd></div></dl><p id="pv-word" class="pv-word">' + esc(r.data.word.toUpperCase()) + "</p>" +
        (r.data.joker_inferred ? '<p class="hint">' + esc(T.joker_inferred) + "</p>" : "");
    } else {
      previewData = null;
      previewEl.innerHTML = '<p class="error" role="alert">' + esc(r.data.message || "") + "</p>";
    }
    renderBoard();
    updateSendButton();
  }).catch(function () {
    if (seq !== previewSeq) return;
    previewEl.innerHTML = '<p class="muted">' + esc(T.preview_offline) + "</p>";
    updateSendButton();
  });
}

function updateSendButton() {
  var round = server && server.round;
  sendBtn.disabled = !(previewData && round && round.state === "open") || draft.pending || locked();
}

// Editing is over once the round is closed or its time is up (server clock): what the
// server holds is what counts, a late send could never replace it.
function timeUp() {
  var r = server && server.round;
  return !!(r && r.state === "open" && r.deadline &&
            Date.parse(r.deadline) - (Date.now() + clockOffset) <= 0);
}
// In a simultaneous event the player's centre may collect its slips before the others:
// the round is over for this tablet, while the other centres still play it.
function centreClosed() {
  var r = server && server.round;
  return !!(r && r.state === "open" && server.centre && server.centre.closed);
}
function locked() {
  var r = server && server.round;
  return !!(r && (r.state === "closed" || timeUp() || centreClosed()));
}

// --- Sending ---------------------------------------------------------------------------
function send() {
  var round = server && server.round;
  if (!round) return;
  if (!draft.pending) {
    draft.clientKey = newKey();
    draft.round = round.id;
    draft.pending = true;
    draft.payload = { round: round.id, reference: reference(), word: typedWord(), client_key: draft.clientKey };
    save();
  }
  attemptSend();
}

function attemptSend() {
  if (!draft.pending || !draft.payload) return;
  renderSendStatus(T.sending);
  updateSendButton();
  postJSON(cfg.urls.submit, draft.payload).then(function (r) {
    if (r.status === 200 || r.status === 201 || r.status === 202) {
      draft.pending = false;
      draft.sentKey = draft.payload.client_key;
      save();
      if (server) {
        if (r.data.counts === false) { server.proposal = r.data.standing; server.late_attempt = r.data; }
        else server.proposal = r.data;
        if (live) live.forget();
      }
      renderSendStatus();
      if (r.data.late && r.data.outcome) renderSendStatus(T.late + " " + r.data.outcome.reason, "late");
    } else if (r.status >= 500 || r.status === 0) {
      scheduleRetry();
    } else {
      draft.pending = false;
      save();
      renderSendStatus(fmt(T.refused, { message: r.data.message || r.status }), "error");
    }
    updateSendButton();
  }).catch(function () {
    setOnline(false);
    scheduleRetry();
  });
}

function scheduleRetry() {
  renderSendStatus(T.retrying, "pending");
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = setTimeout(function () { retryTimer = null; attemptSend(); }, 2000);
}

function renderSendStatus(text, kind) {
  var status = text ? [text, kind] : sendStatus(draft, server, locked(), T, lang);
  sentEl.textContent = status[0];
  sentEl.className = "sent-status " + (status[1] || "");
  receivedEl.textContent = receivedText(server && server.proposal, T, lang);
  fitBar();
}

// --- Polling ---------------------------------------------------------------------------
function setOnline(value) {
  online = value;
  connEl.textContent = value ? T.online : T.offline;
  connEl.className = "connection " + (value ? "ok" : "lost");
}

// Any answer means the connection works again: a move waiting to be sent leaves at once.
// A 404 is a revoked or replaced tablet link: the reload shows the page that says so.
function onAnswer(res) {
  if (!online) { setOnline(true); if (draft.pending) attemptSend(); }
  else setOnline(true);
  if (res.status === 404) location.reload();
}

function applyState(data) {
  var before = server && server.round ? server.round.id : null;
  var prevState = server && server.round ? server.round.state : null;
  server = data;
  var round = data.round;
  if (round && draft.round !== round.id && !(draft.pending && draft.payload && draft.payload.round !== round.id)) {
    // A new round: start afresh (an unsent move of the old round cannot count any more).
    draft = blankDraft(round.id);
    previewData = null;
    previewSeq++;
    previewEl.innerHTML = '<p class="muted">' + esc(T.preview_hint) + "</p>";
    pickerEl.hidden = true;
    save();
  }
  if (round && draft.round === round.id && data.proposal && !draft.sentKey &&
      !draft.word && data.proposal.client_key) {
    draft.sentKey = data.proposal.client_key;
  }
  if (round && before !== round.id) centreBoard();
  renderRound();
  renderEntry();
  renderResults();
  if (round && (before !== round.id || prevState !== round.state) && draft.word) doPreview();
  updateSendButton();
}

function renderRound() {
  var g = server.game, r = server.round;
  if (!g || !r) { roundLabel.textContent = T.waiting; return; }
  var label = fmt(T.game_round, { game: g.number, round: r.number }) + " — " +
    (g.state === "finished" && r.state === "closed" ? T.finished :
      (centreClosed() ? T.centre_closed : (T[r.state] || r.state)));
  roundLabel.textContent = label;
  var editable = r.state === "open" && !locked();
  refInput.disabled = wordInput.disabled = dirBtn.disabled = clearBtn.disabled = !editable;
  document.body.classList.toggle("locked", !editable);
}

function centreBoard() {
  // Phones pan a zoomed board: start on the centre square.
  if (boardWrap.scrollWidth > boardWrap.clientWidth)
    boardWrap.scrollLeft = (boardWrap.scrollWidth - boardWrap.clientWidth) / 2;
  if (boardWrap.scrollHeight > boardWrap.clientHeight)
    boardWrap.scrollTop = (boardWrap.scrollHeight - boardWrap.clientHeight) / 2;
}

function renderResults() {
  resultsEl.hidden = !server.results;
  if (server.results) resultsBody.innerHTML = resultsHtml(server.results, server.round.top, T);
}

function tick() {
  var r = server && server.round;
  var text = "--:--", cls = "countdown";
  countdownEl.title = "";
  if (centreClosed()) {
    text = T.centre_closed; cls += " over";
    countdownEl.title = T.centre_closed_title || "";
  } else if (r && r.state === "open" && r.paused) {
    // The arbiter stopped the clock: no time passes, a move sent now is on time.
    text = T.paused; cls += " paused";
    countdownEl.title = T.paused_title || "";
  } else if (r && r.state === "open" && r.deadline) {
    var left = secondsLeft(r.deadline, clockOffset);
    if (left > 0) {
      text = minutesSeconds(left);
      if (left <= 30) cls += " soon";
    } else {
      text = T.time_up; cls += " over";
    }
    countdownEl.title = left <= 0 ? T.late_warning : "";
  } else if (r && r.state === "closed") {
    text = T.closed; cls += " over";
  }
  countdownEl.textContent = text;
  countdownEl.className = cls;
  var now = locked();
  if (server && now !== wasLocked) {
    wasLocked = now;
    renderRound(); renderEntry(); updateSendButton();
  }
}

// --- Wiring ----------------------------------------------------------------------------
refInput.addEventListener("input", function () {
  var p = parseReference(refInput.value);
  if (p) { draft.row = p.row; draft.col = p.col; draft.horizontal = p.horizontal; }
  else if (!refInput.value.trim()) { draft.row = draft.col = null; }
  changed();
});
wordInput.addEventListener("input", function () {
  var clean = wordInput.value.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z]/g, "");
  var lowered = [];
  if (/[A-Z]/.test(clean)) {  // mixed case: the lowercase letters are jokers (FISF)
    clean.split("").forEach(function (ch, i) { if (ch !== ch.toUpperCase()) lowered.push(i); });
  }
  draft.word = clean.toUpperCase();
  // Typed in mixed case, a lowercase letter is a joker (FISF notation); else keep the marks.
  draft.jokers = lowered.length ? lowered : draft.jokers.filter(function (i) { return i < clean.length; });
  if (wordInput.value !== draft.word) wordInput.value = draft.word;
  changed();
});
dirBtn.addEventListener("click", function () { draft.horizontal = !draft.horizontal; refInput.value = reference(); changed(); });
clearBtn.addEventListener("click", function () { draft.word = ""; draft.jokers = []; wordInput.value = ""; changed(); });
$("entry").addEventListener("submit", function (ev) { ev.preventDefault(); if (!sendBtn.disabled) send(); });
window.addEventListener("online", function () { if (draft.pending) attemptSend(); });

buildBoard();
buildPicker();
if (window.ResizeObserver) new ResizeObserver(fitBar).observe(actionsEl);
window.addEventListener("resize", fitBar);
fitBar();
renderEntry();
if (draft.pending) attemptSend();
live = poll(cfg.urls.state, {
  interval: function () { return ((server && server.poll_seconds) || 1) * 1000; },
  onAnswer: onAnswer,
  onError: function () { setOnline(false); },
  onData: function (data, clock) {
    clockOffset = serverClockOffset(data.server_time, clock);
    applyState(data);
  },
});
setInterval(tick, 250);

