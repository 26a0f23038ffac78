// The tablet's status line under the rack: whether the move on screen reached the server,
// and once the round is over for this tablet, which proposal counts (a late send never
// replaces an on-time one, docs/live-updates.md). Pure: the page passes what it knows.
"use strict";

import { fmt } from "./live.js";
import { referenceOf, wordOf } from "./tablet_draft.js";

/** A server time (ISO) as the player's clock shows it, "14:03:27". */
export function clockText(iso, lang) {
  return iso ? new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
}

/** [sentence, css kind] for the draft against the server's state (`locked`: time is up or
 *  the round is closed). */
export function sendStatus(draft, server, locked, T, lang) {
  const p = server && server.proposal, extra = server && server.late_attempt;
  if (draft.pending) return [T.retrying, "pending"];
  if (locked) {
    let status;
    if (p && !p.late) status = [fmt(T.over_kept, { time: clockText(p.at, lang) }), "locked"];
    else status = [p ? T.over_late : T.over_none, "late"];
    if (extra) status[0] += " " + fmt(T.late_ignored, { time: clockText(extra.at, lang) });
    return status;
  }
  if (p && p.late) return [T.late, "late"];
  const onScreenIsSent = p && draft.sentKey && p.client_key === draft.sentKey && draft.payload &&
    draft.payload.word === wordOf(draft) && draft.payload.reference === referenceOf(draft);
  if (onScreenIsSent || (p && !draft.word)) return [T.received, "ok"];
  return [p ? T.changed : T.not_sent, "pending"];
}

/** "H4 HAINES (version 2, 14:03:27)": the proposal the server holds, or "". */
export function receivedText(p, T, lang) {
  if (!p) return "";
  if (p.pending) return fmt(T.received_queued, { reference: p.reference, word: p.word, time: clockText(p.at, lang) });
  return fmt(T.received_detail, { reference: p.reference, word: p.word, version: p.version, time: clockText(p.at, lang) });
}
