/* Arbiter console: status polling (poll.js), countdown, fast slip entry; the keys and the
   close confirmation are console_keys.js.
   Every page works without this file (forms post and reload); this only makes it faster. */
import { minutesSeconds, secondsLeft } from "./live.js";
import { poll } from "./poll.js";
import { setClockOffset } from "./console_keys.js";

// --- Countdown from the server's deadline. ----------------------------------------------
var game = document.getElementById("game");
var offset = 0; // server clock minus local clock, in ms
if (game && game.dataset.serverNow) {
  offset = Date.parse(game.dataset.serverNow) - Date.now();
}
setClockOffset(offset);
function tick() {
  var el = document.getElementById("countdown");
  if (!el || !el.dataset.deadline || el.dataset.paused === "1") return;
  var left = Math.max(0, secondsLeft(el.dataset.deadline, offset));
  el.textContent = minutesSeconds(left);
  el.classList.toggle("late", left === 0);
}
tick();
setInterval(tick, 500);

// --- Game screen: follow the status (poll.js, every 1.5 s, 304 while unchanged). ---------
// A new round, state or top reloads the page, unless the arbiter is typing: then the
// ETag is dropped so that the next answer is compared again.
if (game && game.dataset.statusUrl) {
  var typing = function () {
    return document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
  };
  var status = poll(game.dataset.statusUrl, {
    interval: 1500,
    onData: function (data) {
      var r = data.round;
      var shownRound = game.dataset.round || "";
      var shownState = game.dataset.roundState || "";
      var shownTop = game.dataset.topReady === "1";
      var shownPaused = game.dataset.paused === "1";
      if ((r ? String(r.id) : "") !== shownRound ||
          (r && (r.state !== shownState || r.top_ready !== shownTop || !!r.paused !== shownPaused))) {
        if (typing()) status.forget();
        else window.location.reload();
        return;
      }
      if (r) {
        var received = document.getElementById("received");
        var registered = document.getElementById("registered");
        if (received) received.textContent = r.received;
        if (registered) registered.textContent = r.registered;
        var countdown = document.getElementById("countdown");  // an extension by another screen
        if (countdown && r.deadline && countdown.dataset.deadline) countdown.dataset.deadline = r.deadline;
      }
    },
  });
}

// --- Fast slip entry: fetch POST, outcome above the input, focus kept. ------------------
var form = document.getElementById("slip-form");
if (form) {
  var input = document.getElementById("slip-line");
  var log = document.getElementById("slip-log");
  var missing = document.getElementById("missing-list");
  var root = document.getElementById("slips");
  var busy = false;
  var text = function (tag, cls, value) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = value;
    return el;
  };
  var key = function () {
    return (window.crypto && crypto.randomUUID) ? crypto.randomUUID() : String(Date.now()) + Math.random();
  };
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (busy || !input.value.trim()) return;
    busy = true;
    var body = new FormData(form);
    body.set("client_key", key());
    var line = input.value;
    fetch(form.action, { method: "POST", body: body, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        var item;
        if (data.ok) {
          var e = data.entry;
          item = document.createElement("li");
          item.className = e.kind;
          item.appendChild(text("span", "table", "T." + e.table));
          item.appendChild(text("span", "player", e.player));
          item.appendChild(text("span", "mono", e.reference + " " + e.word + (e.claimed === null ? "" : " " + e.claimed)));
          item.appendChild(text("strong", "kind", e.kind_label));
          item.appendChild(text("strong", "score", String(e.score)));
          item.appendChild(text("span", "reason", e.reason));
          if (e.when) item.appendChild(text("small", "when", e.when));  // as the page shows it
          if (data.conflict) {  // another arbiter typed this slip differently: say so here
            item.classList.add("conflict");
            item.appendChild(text("span", "conflict-note", data.conflict));
          }
          input.value = "";
          document.getElementById("received").textContent = data.received;
          document.getElementById("registered").textContent = data.registered;
          missing.innerHTML = "";
          if (!data.missing.length) missing.appendChild(text("li", "none", root.dataset.missingLabel));
          data.missing.forEach(function (m) {
            var li = document.createElement("li");
            li.appendChild(text("span", "table", "T." + m.table));
            li.appendChild(document.createTextNode(" " + m.player));
            missing.appendChild(li);
          });
        } else {
          item = text("li", "refused", line + " — " + data.error);
        }
        log.insertBefore(item, log.firstChild);
      })
      .catch(function () {
        log.insertBefore(text("li", "refused", line + " — ?"), log.firstChild);
      })
      .then(function () { busy = false; input.focus(); });
  });
}
