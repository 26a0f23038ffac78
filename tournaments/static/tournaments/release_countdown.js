// The countdown to a sealed game's next release (console/release.html, console/game.html).
// It shows the time left that the server computed when it rendered the page, and reloads
// the page once that time is over: the page then shows the released round. A page drawn
// when the release is already due (0 s: a worker late or down) does not reload again. No
// request of its own, so no polling loop besides poll.js.
import { minutesSeconds } from "./live.js";

for (const el of document.querySelectorAll("[data-release-seconds]")) {
  if (Number(el.dataset.releaseSeconds) <= 0) continue;
  const end = Date.now() + Number(el.dataset.releaseSeconds) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    el.textContent = minutesSeconds(left);
    if (left === 0) {
      clearInterval(timer);
      setTimeout(() => window.location.reload(), 1500);
    }
  };
  const timer = setInterval(tick, 1000);
  tick();
}
