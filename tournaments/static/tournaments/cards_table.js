// The card game's shared table (issue 18), drawn for a seat's tablet and the shared screen:
// an unbounded grid shown as the squares around the cards (two free lines on every side,
// so a word can always grow), the scores and the last turns. The server's view is the
// truth (selectors.card_public_view); this module only draws it.
"use strict";

import { esc, fmt } from "./live.js";

export const MARGIN = 2;

/** Rows and columns to draw: the cards, the move waiting, the draft, the centre, ± MARGIN. */
export function bounds(view, extra) {
  let top = 0, left = 0, bottom = 0, right = 0;
  const squares = [...view.cells, ...(view.pending ? view.pending.cards : []), ...(extra || [])];
  squares.forEach((sq) => {
    top = Math.min(top, sq[0]); bottom = Math.max(bottom, sq[0]);
    left = Math.min(left, sq[1]); right = Math.max(right, sq[1]);
  });
  return { top: top - MARGIN, left: left - MARGIN, bottom: bottom + MARGIN, right: right + MARGIN };
}

function key(r, c) { return r + "," + c; }

/**
 * Draw the grid in `el`. `draft`: [[row, col, letter, joker]] laid on this tablet, not
 * sent; `prime`: {card, row, col} or null; `onSquare(row, col)` when a square is tapped.
 */
export function drawGrid(el, view, T, options) {
  const opts = options || {};
  const draft = opts.draft || [];
  const box = bounds(view, draft);
  const faces = {};
  view.cells.forEach((sq) => { faces[key(sq[0], sq[1])] = { face: sq[2], kind: "table" }; });
  if (view.pending) {
    view.pending.cards.forEach((sq) => { faces[key(sq[0], sq[1])] = { face: sq[2], kind: "pending" }; });
  }
  draft.forEach((sq) => {
    faces[key(sq[0], sq[1])] = { face: sq[3] ? sq[2].toLowerCase() : sq[2], kind: "draft" };
  });
  const prime = opts.prime || (view.pending && view.pending.prime) || null;
  const cols = box.right - box.left + 1;
  el.style.setProperty("--cols", cols);
  el.textContent = "";
  for (let r = box.top; r <= box.bottom; r++) {
    for (let c = box.left; c <= box.right; c++) {
      const cell = faces[key(r, c)];
      const b = document.createElement(opts.onSquare ? "button" : "div");
      if (opts.onSquare) { b.type = "button"; b.addEventListener("click", () => opts.onSquare(r, c)); }
      b.className = "cq" + (cell ? " card " + cell.kind : "") + (r === 0 && c === 0 ? " centre" : "");
      b.dataset.row = r; b.dataset.col = c;
      if (cell) {
        b.textContent = cell.face.toUpperCase();
        if (cell.face !== cell.face.toUpperCase()) b.classList.add("joker");
        b.setAttribute("aria-label", fmt(T.placed, { letter: cell.face.toUpperCase() }));
      } else {
        b.setAttribute("aria-label", fmt(T.cell, { row: r, col: c }));
      }
      if (prime && prime.row === r && prime.col === c) {
        b.classList.add("prime");
        b.dataset.prime = prime.card;
      }
      el.appendChild(b);
    }
  }
}

/** The seats, their scores and cards, whose turn it is. */
export function scoresHtml(view, T) {
  const final = view.end ? view.end.scores : null;
  return view.seats.map((s) => {
    const current = view.current === s.number ? " current" : "";
    const you = view.you === s.number ? " (" + esc(T.you) + ")" : "";
    const named = String(s.name).toLowerCase().includes(T.engine.toLowerCase());
    const engine = s.engine && !named ? ' <span class="muted">' + esc(T.engine) + "</span>" : "";
    const score = final ? final[s.number] : s.score;
    return '<li class="seat' + current + '" data-seat="' + s.number + '"><span class="name">' + esc(s.name) + you +
      engine + '</span> <span class="score">' + esc(fmt(T.score, { score: score })) + '</span> <span class="muted">' +
      esc(fmt(T.cards, { count: s.cards })) + "</span></li>";
  }).join("");
}

/** The last turns, newest first, told by the server in the room's language. */
export function turnsHtml(view) {
  return view.turns.map((t) => '<li data-turn="' + t.number + '">' + esc(t.text) + "</li>").join("");
}

/** The sentence saying whose turn it is, or who is awaited. */
export function statusText(view, T) {
  if (view.end) return view.end.text;
  if (view.table.closed) return T.closed;
  const name = (n) => (view.seats.find((s) => s.number === n) || { name: "?" }).name;
  const p = view.pending;
  if (p) {
    const words = p.words.map((w) => w.word).join(", ");
    const values = { name: name(p.seat), words: words, score: p.score };
    if (view.you === p.seat) return T.pending_yours;
    if (view.can && view.can.answer) return fmt(T.pending_other, values);
    return fmt(T.pending_wait, values);
  }
  if (view.you === view.current) return T.your_turn;
  const seat = view.seats.find((s) => s.number === view.current);
  return fmt(seat && seat.engine ? T.engine_turn : T.their_turn, { name: name(view.current) });
}
