// Shared by the pages of a job the workers carry out (a report being built, a batch of
// pre-drawn games being prepared): poll the job's JSON status every 1.5 s (3 s after a
// failure) and hand each answer to onStatus until it returns true (the job is over).
// Without JavaScript those pages refresh themselves (<noscript> meta refresh).
window.tiragePollJob = function (url, onStatus) {
  "use strict";
  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (status) {
        if (!status) return setTimeout(poll, 3000);
        if (!onStatus(status)) setTimeout(poll, 1500);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 1000);
};
