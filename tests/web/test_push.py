"""Web Push in the page and the service worker, in Chromium.

The player turns push on from the table menu; the server pushes the turn notice (encrypted)
to a push service written here on 127.0.0.1, which the test decrypts; that very payload is
given to the service worker's ``push`` handler through the DevTools protocol
(``ServiceWorker.deliverPushMessage``); the notification is read back with
``registration.getNotifications()``, and its tap opens the table.

Two stand-ins, each for what headless Chromium cannot do here:
- ``pushManager.subscribe``: Chromium has no Push API in a Playwright context (an incognito
  profile: "Registration failed - permission denied") and no route to its push service, so an
  init script answers ``subscribe`` with the endpoint and keys of the loopback service, as the
  browser's push service would.  The page's code around it (permission on the tap, the
  server's VAPID key passed as ``applicationServerKey``, the registration with the server) and
  everything after it is real.
- the tap: CDP cannot click a notification, and ``notificationclick`` cannot be dispatched
  trusted from script, so the test calls the function the worker's ``notificationclick``
  listener calls (``self.taashPush.click``) inside the worker through Playwright; a page
  cannot reach it, so it does nothing outside such a test.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.server.notify.test_push import Browser, PushService, unb64
from tests.waiting import wait_until
from tests.web.conftest import DESKTOP, FAST
from tests.web.helpers import Server, call, create_table, through

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STAND_IN = """(() => {
  const f = %s;
  window.__pushAsked = [];
  let sub = null;
  PushManager.prototype.getSubscription = async function () { return sub; };
  PushManager.prototype.subscribe = async function (options) {
    window.__pushAsked.push(Array.from(new Uint8Array(options.applicationServerKey)));
    sub = { endpoint: f.endpoint, options: { applicationServerKey: options.applicationServerKey },
      toJSON: () => ({ endpoint: f.endpoint, expirationTime: null, keys: f.keys }),
      unsubscribe: async () => { sub = null; return true; } };
    return sub;
  };
  window.__permissionAsked = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...a) => { window.__permissionAsked += 1; return ask(...a); };
})();"""


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), PushService)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def push_server(browser: Any, service: str,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("web-push")
    old = os.environ.get("TAASH_PUSH_ALLOW_ORIGINS")
    os.environ["TAASH_PUSH_ALLOW_ORIGINS"] = service  # the server reads it at start
    try:
        srv = Server(folder / "push.db", log=folder / "server.log").start()
    finally:
        if old is None:
            os.environ.pop("TAASH_PUSH_ALLOW_ORIGINS", None)
        else:
            os.environ["TAASH_PUSH_ALLOW_ORIGINS"] = old
    yield srv
    srv.stop()


def context(browser: Any, base: str, sub: Browser, grant: bool, lang: str = "en") -> Any:
    ctx = browser.new_context(base_url=base, service_workers="allow", **DESKTOP)
    ctx.set_default_timeout(15_000)
    if grant:
        ctx.grant_permissions(["notifications"], origin=base)
    ctx.add_init_script(FAST)
    ctx.add_init_script(f"try {{ localStorage.setItem('taash.lang', '{lang}'); }} catch (e) {{}}")
    ctx.add_init_script(STAND_IN % json.dumps(sub.json()))
    return ctx


def open_menu_push(page: Any, tid: str, token: str) -> None:
    page.goto(f"/t/{tid}?seat=0&token={token}")
    page.wait_for_selector("main.table[data-version]")
    page.locator("[data-action='menu']").click()
    page.locator("dialog[data-dialog='menu'] [data-action='push-on']").wait_for()


def wait_for(pred: Any, page: Any, timeout_ms: int = 15_000) -> None:
    wait_until(through(page, pred), timeout=timeout_ms / 1000, every=0.1, what="the push's effect")


def test_push_turned_on_shown_and_tapped_open(browser: Any, push_server: Server,
                                              service: str) -> None:
    base = push_server.base
    t = create_table(base, "court-piece-2p", [{"type": "human", "name": "Zara"},
                                              {"type": "human"}], first_seat=1,
                     options={"target": 1})
    tid = t["id"]
    tokens = {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
    sub = Browser(f"{service}/web/{tid}")
    ctx = context(browser, base, sub, grant=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_menu_push(page, tid, tokens[0])
        assert page.evaluate("() => window.__permissionAsked") == 0  # not before the tap
        page.locator("dialog[data-dialog='menu'] [data-action='push-on']").click()
        status = page.locator("dialog[data-dialog='menu'] [data-field='push-status']")
        status.filter(has_text="Push notifications are on for this table").wait_for()
        key = call(base, "GET", "/api/push/key")["key"]
        assert page.evaluate("() => window.__pushAsked") == [list(unb64(key))]
        page.locator("dialog[data-dialog='menu'] [data-action='push-mute']").wait_for()

        # Away from the table (no live connection), the partner moves: the server pushes.
        page.goto("/")
        page.wait_for_load_state("load")
        call(base, "POST", f"/api/tables/{tid}/actions", {"action": "trump:S"}, tokens[1])
        lead = call(base, "GET", f"/api/tables/{tid}/view", None, tokens[1])["legal_actions"][0]
        call(base, "POST", f"/api/tables/{tid}/actions", {"action": lead}, tokens[1])
        wait_for(lambda: len(sub.messages()) >= 1, page)
        payload = sub.decrypt(sub.messages()[0])
        assert payload["table"] == tid and payload["type"] == "your_turn"

        # That payload, to the worker's push handler, three times (three moves): one notice.
        cdp = ctx.new_cdp_session(page)
        regs: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda e: regs.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        wait_for(lambda: any(not r["isDeleted"] for r in regs), page)
        reg = next(r for r in regs if not r["isDeleted"])
        assert reg["scopeURL"] == base + "/"
        for _ in range(3):
            cdp.send("ServiceWorker.deliverPushMessage", {
                "origin": base, "registrationId": reg["registrationId"],
                "data": json.dumps(payload)})
        shown = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .map((n) => ({ title: n.title, body: n.body, tag: n.tag, icon: n.icon,
                           data: n.data }))"""
        wait_for(lambda: page.evaluate(shown) != [], page)
        page.wait_for_timeout(300)  # the second and third have come too
        notes = page.evaluate(shown)
        assert notes == [{"title": "Your turn: Court Piece for two",
                          "body": f"Zara at table {tid}: the others are waiting for you.",
                          "tag": f"taash-{tid}", "icon": f"{base}/assets/icon.svg",
                          "data": {"url": f"/t/{tid}?seat=0", "table": tid}}]

        # The tap: this window (the home screen, controlled by the worker) goes to the table.
        worker = next(w for w in ctx.service_workers if w.url == base + "/sw.js")
        worker.evaluate("""async () => {
            const [n] = await self.registration.getNotifications();
            await self.taashPush.click(n);
        }""")
        page.wait_for_url(f"**/t/{tid}?seat=0")
        page.wait_for_selector("main.table[data-version]")
        assert page.evaluate(shown) == []  # the tapped notice is closed
        assert errors == []
    finally:
        ctx.close()


def test_notifications_refused_are_said_in_the_pages_language(browser: Any,
                                                              push_server: Server,
                                                              service: str) -> None:
    base = push_server.base
    t = create_table(base, "court-piece-2p", [{"type": "human"}] * 2, first_seat=1,
                     options={"target": 1})
    tid = t["id"]
    tokens = {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
    sub = Browser(f"{service}/web/{tid}")
    ctx = context(browser, base, sub, grant=False, lang="ru")  # headless: no one says yes
    page = ctx.new_page()
    try:
        open_menu_push(page, tid, tokens[0])
        page.locator("dialog[data-dialog='menu'] [data-action='push-on']").click()
        status = page.locator("dialog[data-dialog='menu'] [data-field='push-status']")
        status.filter(has_text="Уведомления для этого сайта запрещены").wait_for()
        assert page.evaluate("() => window.__permissionAsked") == 1  # asked on the tap
        assert page.evaluate("() => window.__pushAsked") == []  # nothing subscribed
        # nor registered with the server (the page's session holds the seat now: the
        # invite was claimed, so the seat is asked for as the player's)
        gone = page.evaluate("""([tid, endpoint]) => fetch(`/api/tables/${tid}/push?seat=0`, {
            method: 'DELETE', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ endpoint }) }).then((r) => r.json())""", [tid, sub.endpoint])
        assert gone == {"table": tid, "seat": 0, "removed": False}
    finally:
        ctx.close()


WIDE = """(sel) => [...document.querySelectorAll(sel + ' *')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width && (r.left < -1 || r.right > innerWidth + 1); })
  .map((el) => el.className || el.tagName)"""


def words(lang: str) -> dict[str, str]:
    from tests.web.helpers import ROOT

    out: dict[str, str] = json.loads(
        (ROOT / "src" / "taash" / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return out


def test_every_table_from_the_account_panel_and_both_fit_360_px(browser: Any,
                                                                push_server: Server,
                                                                service: str) -> None:
    from tests.web.conftest import PHONE

    base = push_server.base
    for lang in ("en", "hi", "ur", "ru"):
        w = words(lang)
        t = create_table(base, "court-piece-2p", [{"type": "human"}] * 2, first_seat=1,
                         options={"target": 1})
        tid = t["id"]
        token = next(s["token"] for s in t["seats"] if s["seat"] == 0)
        sub = Browser(f"{service}/account/{lang}/{tid}")
        ctx = browser.new_context(base_url=base, service_workers="allow",
                                  **{**PHONE, "viewport": {"width": 360, "height": 740}})
        ctx.set_default_timeout(15_000)
        ctx.grant_permissions(["notifications"], origin=base)
        ctx.add_init_script(FAST)
        ctx.add_init_script(f"try {{ localStorage.setItem('taash.lang', '{lang}'); }} "
                            "catch (e) {}")
        ctx.add_init_script(STAND_IN % json.dumps(sub.json()))
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))  # noqa: B023 (used at once)
        try:
            page.goto("/")
            page.wait_for_selector(f"html[lang='{lang}']", state="attached")
            page.locator("[data-action='push-all-on']").click()
            page.locator("[data-field='push-all-status']").filter(
                has_text=w["push_all_on"]).wait_for()
            page.fill("[data-field='quiet-from']", "23:30")
            page.fill("[data-field='quiet-to']", "06:15")
            page.locator("[data-action='push-quiet']").click()
            page.get_by_text(w["push_quiet_saved"].format(**{"from": "23:30", "to": "06:15"})
                             ).wait_for()
            mine = page.evaluate("() => fetch('/api/me/push').then((r) => r.json())")
            assert [(m["table"], m["quiet_from"], m["quiet_to"], m["language"], m["service"])
                    for m in mine] == [(None, 23 * 60 + 30, 6 * 60 + 15, lang, service)]
            assert page.evaluate(WIDE, ".push-account") == [], lang
            page.locator("[data-action='push-all-off']").click()
            page.locator("[data-field='push-all-status']").filter(
                has_text=w["push_off"]).wait_for()
            assert [m["off"] for m in page.evaluate(
                "() => fetch('/api/me/push').then((r) => r.json())")] == [True]
            # the table menu's section, on, with its two buttons, holds at 360 px too
            page.goto(f"/t/{tid}?seat=0&token={token}")
            page.wait_for_selector("main.table[data-version]")
            page.locator("[data-action='menu']").click()
            page.locator("dialog[data-dialog='menu'] [data-action='push-on']").click()
            page.locator("dialog[data-dialog='menu'] [data-action='push-mute']").wait_for()
            assert page.evaluate(WIDE, "dialog[data-dialog='menu'] [data-section='push']") == []
            assert errors == [], (lang, errors)
        finally:
            ctx.close()
