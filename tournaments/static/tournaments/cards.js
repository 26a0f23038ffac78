/* A seat's tablet at a card table (issue 18). Follows the seat's view (poll.js: every
 * second, 304 while nothing changed): the own hand, the shared table, whose turn, the
 * scores, the deck. A move is tapped: a card of the hand, then an empty square (a joker
 * asks for its letter), or dragged onto the square; a Prime card goes on a letter of the
 * word; a card laid here is
 * taken back by tapping it. Pass, exchange (tap the cards to give back), and while a move
 * waits for an answer: let it stand or challenge it. The server judges everything. */
import { fmt } from "./live.js";
import { poll } from "./poll.js";
import { drawGrid, scoresHtml, statusText, turnsHtml } from "./cards_table.js";

const cfg = JSON.parse(document.getElementById("cards-config").textContent);
const T = cfg.i18n;
const $ = (id) => document.getElementById(id);
const gridEl = $("grid"), handEl = $("hand"), statusEl = $("status"), scoresEl = $("scores");
const turnsEl = $("turns"), deckEl = $("deck"), messageEl = $("message"), connEl = $("connection");
const pickerEl = $("joker-picker"), pickerLetters = $("joker-letters"), endEl = $("end");
const buttons = {
  play: $("play"), clear: $("clear"), pass: $("pass"), exchange: $("exchange"),
  accept: $("accept"), challenge: $("challenge"),
};

let view = null;          // the seat's last view
let draft = [];           // [{row, col, letter, joker, index}] laid here, not sent
let prime = null;         // {card, index, row, col}
let selected = null;      // index in the hand of the card chosen
let exchanging = false;   // exchange mode: tapped cards are marked
let marked = new Set();
let busy = false;
let seenRevision = null;
let dragging = null;      // {index, x, y}: a card of the hand pressed, maybe dragged

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function used(index) {
  return draft.some((d) => d.index === index) || (prime && prime.index === index);
}

function resetDraft() {
  draft = []; prime = null; selected = null; exchanging = false; marked = new Set();
  pickerEl.hidden = true;
}

function occupied(r, c) {
  return view.cells.some((sq) => sq[0] === r && sq[1] === c) ||
    (view.pending && view.pending.cards.some((sq) => sq[0] === r && sq[1] === c));
}

function onSquare(r, c) {
  if (!view || !view.can.play) return;
  const mine = draft.findIndex((d) => d.row === r && d.col === c);
  const card = selected === null ? null : view.hand[selected];
  if (card === "2" || card === "3") {
    if (mine >= 0 || occupied(r, c)) {
      prime = { card: card, index: selected, row: r, col: c };
      selected = null;
    }
    return render();
  }
  if (mine >= 0 && card === null) {
    draft.splice(mine, 1);
    if (prime && prime.row === r && prime.col === c && !occupied(r, c)) prime = null;
    return render();
  }
  if (prime && prime.row === r && prime.col === c && card === null) { prime = null; return render(); }
  if (card === null || mine >= 0 || occupied(r, c)) return;
  if (card === "?") { askLetter(selected, r, c); return; }
  draft.push({ row: r, col: c, letter: card, joker: false, index: selected });
  selected = null;
  render();
}

function askLetter(index, r, c) {
  pickerLetters.textContent = "";
  LETTERS.split("").forEach((letter) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = letter; b.dataset.letter = letter;
    b.addEventListener("click", () => {
      draft.push({ row: r, col: c, letter: letter, joker: true, index: index });
      selected = null; pickerEl.hidden = true; render();
    });
    pickerLetters.appendChild(b);
  });
  pickerEl.hidden = false;
}

function cardLabel(card) {
  if (card === "?") return T.joker;
  if (card === "2") return T.prime_2;
  if (card === "3") return T.prime_3;
  return fmt(T.card, { card: card });
}

function drawHand() {
  handEl.textContent = "";
  view.hand.split("").forEach((card, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "hcard" + (card === "2" || card === "3" ? " primecard" : "") + (card === "?" ? " jokercard" : "");
    b.textContent = card === "?" ? "★" : card === "2" ? "×2" : card === "3" ? "×3" : card;
    b.dataset.card = card; b.dataset.index = i;
    b.setAttribute("aria-label", cardLabel(card));
    if (used(i)) { b.disabled = true; b.classList.add("used"); }
    if (selected === i) b.classList.add("selected");
    if (marked.has(i)) b.classList.add("marked");
    b.setAttribute("aria-pressed", selected === i || marked.has(i) ? "true" : "false");
    b.addEventListener("pointerdown", (event) => {
      if (!exchanging && !used(i)) dragging = { index: i, x: event.clientX, y: event.clientY };
    });
    b.addEventListener("click", () => {
      if (exchanging) { if (marked.has(i)) marked.delete(i); else marked.add(i); return render(); }
      selected = selected === i ? null : i;
      render();
    });
    handEl.appendChild(b);
  });
}

function render() {
  if (!view) return;
  statusEl.textContent = statusText(view, T);
  deckEl.textContent = fmt(T.deck, { count: view.deck });
  scoresEl.innerHTML = scoresHtml(view, T);
  turnsEl.innerHTML = turnsHtml(view);
  const draftSquares = draft.map((d) => [d.row, d.col, d.letter, d.joker]);
  drawGrid(gridEl, view, T, { draft: draftSquares, prime: prime, onSquare: onSquare });
  drawHand();
  const can = view.can;
  buttons.play.disabled = busy || !can.play || !draft.length;
  buttons.clear.disabled = busy || (!draft.length && !prime && !marked.size);
  buttons.pass.disabled = busy || !can.pass;
  buttons.exchange.disabled = busy || !can.exchange;
  buttons.exchange.setAttribute("aria-pressed", exchanging ? "true" : "false");
  buttons.accept.hidden = buttons.challenge.hidden = !can.answer;
  buttons.accept.disabled = buttons.challenge.disabled = busy;
  if (view.end) {
    endEl.hidden = false;
    $("end-text").textContent = view.end.text;
  }
}

function onView(data) {
  if (seenRevision !== null && data.table.revision !== seenRevision && !data.can.play) resetDraft();
  seenRevision = data.table.revision;
  view = data;
  if (view.can.play) {
    draft = draft.filter((d) => !occupied(d.row, d.col) && d.index < view.hand.length);
  }
  render();
}

async function send(body) {
  if (busy) return;
  busy = true; messageEl.textContent = T.sending; render();
  try {
    const response = await fetch(cfg.urls.act, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf, Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = await response.json();
    if (response.ok) {
      messageEl.textContent = "";
      resetDraft();
      onView(data);
    } else {
      messageEl.textContent = data.message || "";
    }
  } catch (error) {
    messageEl.textContent = T.offline;
  } finally {
    busy = false; render(); poller.now();
  }
}

// Drag and drop: a card of the hand pressed and released over a square of the table is
// laid there, exactly as a tap on the card then on the square.
document.addEventListener("pointerup", (event) => {
  const drag = dragging;
  dragging = null;
  if (!drag || Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 10) return;
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const sq = target && target.closest ? target.closest("#grid [data-row]") : null;
  if (!sq) return;
  selected = drag.index;
  onSquare(Number(sq.dataset.row), Number(sq.dataset.col));
});

buttons.play.addEventListener("click", () => {
  const play = { cards: draft.map((d) => ({ row: d.row, col: d.col, letter: d.letter, joker: d.joker })) };
  if (prime) play.prime = { card: prime.card, row: prime.row, col: prime.col };
  send({ kind: "play", play: play });
});
buttons.clear.addEventListener("click", () => { resetDraft(); render(); });
buttons.pass.addEventListener("click", () => send({ kind: "pass" }));
buttons.exchange.addEventListener("click", () => {
  if (!exchanging) {
    resetDraft(); exchanging = true; messageEl.textContent = T.exchange_hint; return render();
  }
  if (!marked.size) { exchanging = false; messageEl.textContent = ""; return render(); }
  const cards = Array.from(marked).map((i) => view.hand[i]).join("");
  send({ kind: "exchange", cards: cards });
});
buttons.accept.addEventListener("click", () => send({ kind: "accept" }));
buttons.challenge.addEventListener("click", () => send({ kind: "challenge" }));
$("joker-cancel").addEventListener("click", () => { pickerEl.hidden = true; selected = null; render(); });

const poller = poll(cfg.urls.state, {
  onData: (data) => { connEl.textContent = T.online; connEl.className = "connection ok"; onView(data); },
  onError: () => { connEl.textContent = T.offline; connEl.className = "connection lost"; },
  interval: () => 1000,
});
window.addEventListener("pagehide", () => poller.stop());
