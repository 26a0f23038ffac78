/* Console keyboard (issue 15): every key of a page either acts or says why not, `?` opens
   the help overlay, and closing a round with time left asks first (« Fermer quand même »).

   A key clicks the element marked data-key="<key>" (a link is followed, a data-focus
   element focuses its field); without one, the sentence marked data-key-why="<key>" says
   why it cannot act now. The lists come from the server (console/keys.py). In a field a
   key is typed, except in a field marked data-shortcuts-when-empty while it is empty (a
   slip starts with its table number: a letter there is a shortcut). No window.confirm:
   the confirmation is part of the page, and the server refuses an unconfirmed close too. */
import { minutesSeconds } from "./live.js";

var message = document.getElementById("key-message");
var help = document.getElementById("key-help");
var confirmBox = document.getElementById("close-confirm");
var closeForm = document.getElementById("close-form");

function quoted(key) {
  return window.CSS && CSS.escape ? CSS.escape(key) : key.replace(/["\\]/g, "\\$&");
}
function byKey(attribute, key) {
  return document.querySelector("[" + attribute + '="' + quoted(key) + '"]');
}
function say(text) {
  if (!message) return;
  message.textContent = text;
  message.hidden = false;
}
function editable(target) {
  return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}
function shown(el) {
  return el && !el.hidden;
}

// --- Help overlay --------------------------------------------------------------------------
var before = null;
function openHelp() {
  if (!help) return;
  before = document.activeElement;
  help.hidden = false;
  var button = document.getElementById("key-help-close");
  if (button) button.focus();
}
function closeHelp() {
  help.hidden = true;
  if (before && before.focus) before.focus();
}
var helpClose = document.getElementById("key-help-close");
if (helpClose) helpClose.addEventListener("click", closeHelp);

// --- Close confirmation ----------------------------------------------------------------------
/** Seconds left on the game screen's clock (the paused seconds while paused). */
export function clockLeft(offset) {
  var el = document.getElementById("countdown");
  if (!el) return 0;
  if (el.dataset.paused === "1") return Number(el.dataset.remaining || 0);
  if (!el.dataset.deadline) return 0;
  return Math.max(0, Math.ceil((Date.parse(el.dataset.deadline) - (Date.now() + offset)) / 1000));
}
var clockOffset = 0;
export function setClockOffset(offset) { clockOffset = offset; }

function openConfirm(left) {
  var shownLeft = document.getElementById("close-left");
  if (shownLeft) shownLeft.textContent = minutesSeconds(left);
  confirmBox.hidden = false;
  document.getElementById("close-confirm-yes").focus();
}
function closeConfirm() {
  confirmBox.hidden = true;
  say("");
  if (message) message.hidden = true;
}
if (closeForm && confirmBox) {
  closeForm.addEventListener("submit", function (event) {
    var left = clockLeft(clockOffset);
    if (left > 0) {
      event.preventDefault();
      openConfirm(left);
    }
  });
  document.getElementById("close-confirm-no").addEventListener("click", closeConfirm);
}
if (confirmBox && !confirmBox.hidden) {
  // The server refused an unconfirmed close (no script ran then): the confirmation is shown.
  var yes = document.getElementById("close-confirm-yes");
  if (yes) yes.focus();
}

// --- The keys --------------------------------------------------------------------------------
function act(element) {
  if (element.dataset.focus) {
    var field = document.getElementById(element.dataset.focus);
    if (field) field.focus();
  } else if (element.tagName === "A") {
    window.location.href = element.href;
  } else {
    element.click();
  }
}

document.addEventListener("keydown", function (event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  var key = event.key;
  if (key === "Escape") {
    if (shown(help)) { event.preventDefault(); closeHelp(); return; }
    if (shown(confirmBox)) { event.preventDefault(); closeConfirm(); return; }
  }
  if (shown(confirmBox)) {
    if (key === "Enter") {
      event.preventDefault();
      document.getElementById("close-confirm-yes").click();
    }
    return;
  }
  if (shown(help)) return;
  var target = event.target;
  if (editable(target)) {
    if (key === "Escape") { target.blur(); return; }
    var emptyShortcuts = target.dataset && target.dataset.shortcutsWhenEmpty !== undefined;
    if (!emptyShortcuts || target.value !== "" || key.length !== 1 || /[0-9\s-]/.test(key)) return;
    if (key !== "?" && !byKey("data-key", key) && !byKey("data-key-why", key)) {
      event.preventDefault();
      say(target.dataset.shortcutsWhenEmpty);
      return;
    }
  }
  if (key === "?" && help) { event.preventDefault(); openHelp(); return; }
  var element = byKey("data-key", key);
  if (element) { event.preventDefault(); act(element); return; }
  var why = byKey("data-key-why", key);
  if (why) { event.preventDefault(); say(why.textContent); return; }
  if (help && key.length === 1 && /\S/.test(key) && help.dataset.unknown) {
    say("« " + key + " » : " + help.dataset.unknown);
  }
});
