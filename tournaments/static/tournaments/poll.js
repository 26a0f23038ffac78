// Following a JSON resource by polling, written once for every page that does it: the
// tablet, the projector, the console's game screen and the job pages (docs/live-updates.md).
//
// Each request leaves after the previous one is over (never two at once), with the ETag
// of the last full answer in If-None-Match so that an unchanged state costs a 304 and no
// body. A network failure or a 5xx/429 answer doubles the wait up to maxInterval, so a
// room of tablets does not hammer a server that is struggling; the first good answer
// goes back to the normal pace. While the page is hidden (a tablet asleep, another tab)
// nothing is sent; when it shows again, or the browser comes back online, it asks at once.
"use strict";

/**
 * Poll `url` until stopped. Options (all optional but onData):
 *  - onData(data, clock): each 200 answer's JSON; clock = {sentAt, receivedAt} (ms, local
 *    clock) to estimate the server's clock from a timestamp in the answer.
 *  - onAnswer(response): every HTTP answer, whatever its status, before onData (the
 *    connection works; a 404 may mean the page itself is gone).
 *  - onError(error): the request failed (offline, DNS, reset).
 *  - interval: ms between the end of one request and the next, or a function returning it.
 *  - maxInterval: the longest wait after failures (ms, default 8000).
 *  - delay: ms before the first request (default 0).
 *  - pauseWhenHidden: default true.
 * Returns {start(), stop(), now(), forget()}: `now` asks at once (the timer restarts from
 * the answer), `forget` drops the ETag so that the next answer is a full one.
 */
export function poll(url, options) {
  const onData = options.onData;
  const onAnswer = options.onAnswer || (() => {});
  const onError = options.onError || (() => {});
  const maxInterval = options.maxInterval || 8000;
  const pauseWhenHidden = options.pauseWhenHidden !== false;
  const pace = () => (typeof options.interval === "function" ? options.interval() : options.interval || 1000);

  let etag = null;
  let failures = 0;
  let timer = null;
  let busy = false; // a request is on its way
  let again = false; // `now` was asked while it was
  let running = false;

  function schedule(ms) {
    clearTimeout(timer);
    timer = null;
    if (running && !(pauseWhenHidden && document.hidden)) timer = setTimeout(request, ms);
  }

  function wait() {
    if (!failures) return pace();
    return Math.min(maxInterval, pace() * 2 ** Math.min(failures, 10));
  }

  async function request() {
    timer = null;
    if (!running) return;
    if (busy) { again = true; return; }
    busy = true;
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    const sentAt = Date.now();
    let data = null;
    try {
      const response = await fetch(url, { headers, cache: "no-store", credentials: "same-origin" });
      onAnswer(response);
      if (response.status === 200) {
        data = await response.json();
        etag = response.headers.get("ETag");
      }
      failures = response.status >= 500 || response.status === 429 ? failures + 1 : 0;
    } catch (error) {
      failures++;
      onError(error);
    }
    busy = false;
    try {
      if (data !== null) onData(data, { sentAt, receivedAt: Date.now() });
    } finally {
      if (again) { again = false; schedule(0); } else schedule(wait());
    }
  }

  const poller = {
    start() { running = true; schedule(0); return poller; },
    stop() { running = false; clearTimeout(timer); timer = null; return poller; },
    now() { if (running) schedule(0); return poller; },
    forget() { etag = null; return poller; },
  };

  document.addEventListener("visibilitychange", () => {
    if (!pauseWhenHidden) return;
    if (document.hidden) { clearTimeout(timer); timer = null; } else poller.now();
  });
  window.addEventListener("online", () => { failures = 0; poller.now(); });
  running = true;
  schedule(options.delay || 0);
  return poller;
}

/**
 * Follow a worker's job (a report, a club's word list, a batch of games) until it is over,
 * then reload the page, which shows the result (the download link, the new lexicon, the
 * games to create, or the failure). `onProgress(status)` runs on every answer first (move a
 * progress bar, fill in a row); the job is over when `status.state` is "done" or "failed".
 * Options: poll's (`interval` 1500 ms and `delay` 1000 ms unless given), and
 * `onFinished(status)` to do something else than reloading. Returns the poller.
 */
export function pollJob(url, onProgress, options = {}) {
  const finished = options.onFinished || (() => window.location.reload());
  const job = poll(url, {
    interval: 1500,
    delay: 1000,
    ...options,
    onData(status) {
      if (onProgress) onProgress(status);
      if (status.state !== "done" && status.state !== "failed") return;
      job.stop();
      finished(status);
    },
  });
  return job;
}
