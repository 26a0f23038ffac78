// What the live pages share (the tablet, the projector; the console its countdown): the
// board's geometry and premium squares, the translated sentences' placeholders, HTML
// escaping, the server's clock and the countdown.
"use strict";

export const SIZE = 15;
export const ROWS = "ABCDEFGHIJKLMNO";

/** {square index: "tw" | "dw" | "tl" | "dl"} from the page's config (the variant's board). */
export function premiumMap(premiums) {
  const map = {};
  ["tw", "dw", "tl", "dl"].forEach((kind) => {
    premiums[kind].forEach((sq) => { map[sq[0] * SIZE + sq[1]] = kind; });
  });
  return map;
}

/** Django's "%(name)s" placeholders filled in (the sentences come translated from the server). */
export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, k) => (values[k] == null ? "" : values[k]));
}

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text made safe for innerHTML (player names, words and reasons come from people). */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Server clock minus local clock (ms), from an answer's server_time and when it travelled:
 *  the server stamped it about halfway between the request leaving and the answer landing. */
export function serverClockOffset(serverTime, clock) {
  return Date.parse(serverTime) - (clock.sentAt + clock.receivedAt) / 2;
}

/** Seconds left before `deadline` (ISO) by the server's clock. */
export function secondsLeft(deadline, offset) {
  return Math.round((Date.parse(deadline) - (Date.now() + offset)) / 1000);
}

/** "m:ss" for a positive number of seconds. */
export function minutesSeconds(left) {
  return Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
}
