"""The page under its Content-Security-Policy (issue 25, 9): playing against bots, the
device-link QR image (a data: image), the WebSocket to this server and the fair-deals page
run with not one violation, and the page cannot be framed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import Server, press, through
from tests.web.test_web import start_against_bots

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_the_page_runs_under_its_policy(server: Server, new_page: Any) -> None:
    page = new_page("desktop", server.base)
    page.context.add_init_script(WATCH)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    start_against_bots(page, "court-piece-2p")
    # the live channel (a WebSocket to this server) is open
    page.wait_for_selector("[data-conn='live']", state="attached")
    assert page.evaluate("window.__csp") == []
    page.goto("/")
    press(page, "[data-action='link-device']")
    page.wait_for_function("() => { const i = document.querySelector('img[data-link-qr]');"
                           " return i && i.complete && i.naturalWidth > 50; }")
    assert page.evaluate("window.__csp") == []
    page.goto("/assets/fair.html")
    page.locator("h1").wait_for()
    assert page.evaluate("window.__csp") == []
    assert refused == [] and page.js_errors == [], (refused, page.js_errors)
    # another page framing it is refused
    page.set_content(f"<iframe src='{server.base}/'></iframe>")
    wait_until(through(page, lambda: any("frame-ancestors" in m for m in refused)), timeout=10,
               what=f"the frame refused ({refused})")
