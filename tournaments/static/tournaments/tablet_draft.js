// The tablet's draft move: what the player typed or tapped, kept in localStorage so that a
// reload or a lost connection never loses it, with the client key it is (re)sent under.
// Pure helpers on the draft object; tablet.js owns the one draft of the page.
"use strict";

import { ROWS, SIZE } from "./live.js";

/** A fresh draft for round `roundId`: no start square, an empty word, nothing sent. */
export function blankDraft(roundId) {
  return { round: roundId, row: null, col: null, horizontal: true, word: "", jokers: [],
           clientKey: "", pending: false, sentKey: "" };
}

export function loadDraft(key) {
  try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
}

export function saveDraft(key, draft) {
  try { localStorage.setItem(key, JSON.stringify(draft)); } catch (e) { /* storage full */ }
}

/** A random client key (24 hex digits): the server stores one version per key. */
export function newKey() {
  const bytes = new Uint8Array(12);
  (window.crypto || window.msCrypto).getRandomValues(bytes);
  return Array.prototype.map.call(bytes, (b) => ("0" + b.toString(16)).slice(-2)).join("");
}

/** The draft's reference: row letter first when horizontal (H4), column first when vertical (4H). */
export function referenceOf(draft) {
  if (draft.row == null) return "";
  return draft.horizontal ? ROWS[draft.row] + (draft.col + 1) : (draft.col + 1) + ROWS[draft.row];
}

/** {row, col, horizontal} from a typed reference, or null while it is not one yet. */
export function parseReference(text) {
  const t = text.replace(/\s+/g, "").toUpperCase();
  let m;
  if ((m = /^([A-O])(\d{1,2})$/.exec(t)) && +m[2] >= 1 && +m[2] <= 15)
    return { row: ROWS.indexOf(m[1]), col: +m[2] - 1, horizontal: true };
  if ((m = /^(\d{1,2})([A-O])$/.exec(t)) && +m[1] >= 1 && +m[1] <= 15)
    return { row: ROWS.indexOf(m[2]), col: +m[1] - 1, horizontal: false };
  return null;
}

/** The word as sent: jokers in lowercase (the FISF way of circling them). */
export function wordOf(draft) {
  const w = draft.word.toUpperCase();
  return w.split("").map((ch, i) => (draft.jokers.indexOf(i) >= 0 ? ch.toLowerCase() : ch)).join("");
}

/** The draft on the board: [square index, letter, joker?, placed on an empty square?] for
 *  each letter of the word from its start square, as far as the board goes. */
export function pathOf(draft, board) {
  const out = [];
  if (draft.row == null) return out;
  for (let k = 0; k < draft.word.length; k++) {
    const r = draft.row + (draft.horizontal ? 0 : k), c = draft.col + (draft.horizontal ? k : 0);
    if (r >= SIZE || c >= SIZE) break;
    const i = r * SIZE + c;
    out.push([i, draft.word[k], draft.jokers.indexOf(k) >= 0, !board || board[i] === "."]);
  }
  return out;
}

/** The letters the draft puts on empty squares, in order: [{letter, joker}]. */
export function placedOf(draft, board) {
  return pathOf(draft, board).filter((p) => p[3]).map((p) => ({ letter: p[1], joker: p[2] }));
}

/** The word read from the draft's start square once `placed` are laid down: board letters
 *  where there are some, the placed letters in order, then the board letters that touch its
 *  end (they are part of it). {word, jokers}, or null when the letters run off the board. */
export function spell(draft, board, placed) {
  let word = "", k = 0, n = 0;
  const jokers = [];
  while (true) {
    const r = draft.row + (draft.horizontal ? 0 : n), c = draft.col + (draft.horizontal ? n : 0);
    if (r >= SIZE || c >= SIZE) break;
    const ch = board[r * SIZE + c];
    if (ch && ch !== ".") { word += ch.toUpperCase(); if (ch !== ch.toUpperCase()) jokers.push(n); }
    else if (k < placed.length) { word += placed[k].letter; if (placed[k].joker) jokers.push(n); k++; }
    else break;
    n++;
  }
  return k < placed.length ? null : { word, jokers };
}

/** Which rack tiles the placed letters use (letters first, then jokers). */
export function rackUse(rack, placed) {
  const used = rack.map(() => false);
  placed.forEach((p) => {
    const want = p.joker ? "?" : p.letter;
    for (let t = 0; t < rack.length; t++) if (!used[t] && rack[t] === want) { used[t] = true; return; }
  });
  return used;
}
