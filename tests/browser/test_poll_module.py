"""poll.js on its own, in Chromium, against answers the test writes (page.route): the ETag
goes back in If-None-Match and a 304 calls nothing, ``forget`` asks for a full answer,
failures space the requests out, a hidden page sends nothing and asks at once when shown;
``pollJob`` shows each answer, stops at "done" or "failed" and then reloads the page.

Absence is shown against a second poller that is never paused, used as the clock: no
sleep, every wait is on a count of requests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tablet_game import WAIT, browser

__all__ = ["browser"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any, browser: Any) -> Any:
    """A page of the site with poll.js imported as window.poll and window.pollJob, and a
    record of requests."""
    page = browser.new_context().new_page()
    page.goto(f"{live_server.url}/")
    page.evaluate(
        """async () => { const m = await import('/static/tournaments/poll.js');
                         window.poll = m.poll; window.pollJob = m.pollJob;
                         window.seen = []; }"""
    )
    return page


def until(page: Any, condition: str) -> None:
    page.wait_for_function(f"() => {condition}", timeout=WAIT)  # a function: no eval (CSP)


def test_etag_304_and_forget(page: Any) -> None:
    asked: list[str | None] = []

    def answer(route: Any, request: Any) -> None:
        asked.append(request.headers.get("if-none-match"))
        if request.headers.get("if-none-match") == '"v1"':
            route.fulfill(status=304, headers={"ETag": '"v1"'})
        else:
            route.fulfill(status=200, headers={"ETag": '"v1"'}, json={"n": len(asked)})

    page.route("**/probe/state", answer)
    page.evaluate(
        """() => { window.p = poll('/probe/state', {interval: 20,
                     onData: (data) => window.seen.push(data.n)}); }"""
    )
    until(page, "window.seen.length === 1")
    page.evaluate("window.answered = 0")
    page.route("**/probe/tick", lambda route, _: route.fulfill(status=200, json={}))
    page.evaluate("poll('/probe/tick', {interval: 20, onData: () => { window.answered++; }})")
    until(page, "window.answered >= 10")  # meanwhile the first poller only got 304s
    assert page.evaluate("window.seen") == [1]
    assert asked[0] is None and set(asked[1:]) == {'"v1"'} and len(asked) > 2
    page.evaluate("window.p.forget()")
    until(page, "window.seen.length === 2")  # a full answer again
    page.evaluate("window.p.stop()")


def test_failures_space_the_requests_and_a_hidden_page_waits(page: Any) -> None:
    failures = {"n": 0}

    def broken(route: Any, _: Any) -> None:
        failures["n"] += 1
        route.fulfill(status=503, body="")

    page.route("**/probe/broken", broken)
    page.route("**/probe/tick", lambda route, _: route.fulfill(status=200, json={}))
    page.evaluate(
        """() => { window.answered = 0;
                   poll('/probe/broken', {interval: 20, maxInterval: 2000, onData: () => {}});
                   poll('/probe/tick', {interval: 20, pauseWhenHidden: false,
                                        onData: () => { window.answered++; }}); }"""
    )
    # While the healthy poller answers 60 times (≥ 1.2 s at 20 ms), the broken one waits
    # 40, 80, 160, 320, 640, 1280, 2000… ms: a handful of tries, where it would make 60
    # at the healthy pace (slower answers on a busy machine stretch both alike).
    until(page, "window.answered >= 60")
    assert 3 <= failures["n"] <= 15, failures

    # Hidden: the paused poller sends nothing while the clock poller goes on.
    page.route("**/probe/state", lambda route, _: route.fulfill(status=200, json={"ok": 1}))
    page.evaluate(
        """() => { window.states = 0;
                   window.s = poll('/probe/state', {interval: 20,
                                   onData: () => { window.states++; }}); }"""
    )
    until(page, "window.states >= 2")
    page.evaluate(
        """() => { Object.defineProperty(document, 'hidden', {configurable: true,
                                                             get: () => true});
                   document.dispatchEvent(new Event('visibilitychange'));
                   window.statesWhenHidden = window.states; window.answered = 0; }"""
    )
    until(page, "window.answered >= 20")
    # One request may have been on its way when the page was hidden.
    assert page.evaluate("window.states - window.statesWhenHidden") <= 1
    page.evaluate(
        """() => { Object.defineProperty(document, 'hidden', {configurable: true,
                                                             get: () => false});
                   window.statesWhenShown = window.states;
                   document.dispatchEvent(new Event('visibilitychange')); }"""
    )
    until(page, "window.states > window.statesWhenShown")


def test_poll_job_shows_progress_stops_when_over_then_reloads(page: Any) -> None:
    answers = iter([{"state": "pending", "progress": 0}, {"state": "running", "progress": 40}])
    asked = {"n": 0}

    def job(route: Any, _: Any) -> None:
        asked["n"] += 1
        route.fulfill(status=200, json=next(answers, {"state": "failed", "progress": 40}))

    page.route("**/probe/job", job)
    page.route("**/probe/tick", lambda route, _: route.fulfill(status=200, json={}))
    page.evaluate(
        """() => { window.finished = [];
                   pollJob('/probe/job', (status) => window.seen.push(status.progress),
                           {interval: 20, delay: 0,
                            onFinished: (status) => window.finished.push(status.state)}); }"""
    )
    until(page, "window.finished.length === 1")
    assert page.evaluate("window.seen") == [0, 40, 40]  # each answer shown, the last too
    assert page.evaluate("window.finished") == ["failed"]
    # Over: no request any more while a clock poller answers 20 times.
    page.evaluate(
        """() => { window.answered = 0;
                   poll('/probe/tick', {interval: 20, onData: () => { window.answered++; }}); }"""
    )
    until(page, "window.answered >= 20")
    assert asked["n"] == 3

    # Without onFinished the page reloads once the job is done (it then shows the result).
    page.route("**/probe/done", lambda route, _: route.fulfill(status=200, json={"state": "done"}))
    with page.expect_event("load", timeout=WAIT):
        page.evaluate("pollJob('/probe/done', null, {interval: 20, delay: 0})")
    assert page.evaluate("typeof window.pollJob") == "undefined"  # a fresh page
