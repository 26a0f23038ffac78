// The tablet's results box once the top is placed: the player's score and why, their move,
// the top, their total, négatif and rank. Every value that comes from people is escaped.
"use strict";

import { esc, fmt } from "./live.js";

export function resultsHtml(res, top, T) {
  const row = (label, id, value) => "<div><dt>" + esc(label) + "</dt><dd" + (id ? ' id="' + id + '"' : "") + ">" + value + "</dd></div>";
  return '<p class="outcome ' + esc(res.kind) + '"><strong id="res-score">' + res.score + " " + esc(T.points) +
    '</strong> — <span id="res-reason">' + esc(res.reason) + "</span></p>" +
    '<dl class="res">' +
    row(T.result_you, "", res.word ? esc(res.reference + " " + res.word) : esc(T.result_none)) +
    row(T.result_top, "res-top", top ? esc(top.reference + " " + top.word + " · " + top.score) : "") +
    row(T.result_total, "res-total", res.total) +
    row(T.result_negatif, "res-negatif", esc(res.negatif)) +
    row(T.result_rank, "res-rank", res.rank ? esc(fmt(T.rank_of, { rank: res.rank, players: res.players })) : "–") +
    "</dl>";
}
