"""The domain's refusals and their HTTP statuses: every domain error has one (chosen in
``app.STATUS`` alone), each answers with its code, and the live channel says the same code."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from taash.games.base import IllegalAction, MalformedAction
from taash.server import errors
from taash.server.app import STATUS, add_error_handlers, status_of
from taash.server.errors import DomainError, error_of
from taash.server.store.leases import LeaseLost

EXPECTED = {
    errors.BadRequest: (400, "bad_request"),
    errors.NoEmail: (400, "no_email"),
    errors.PasskeyRefused: (400, "passkey_refused"),
    errors.RecordRefused: (400, "record_refused"),
    errors.Unauthorized: (401, "unauthorized"),
    errors.Forbidden: (403, "forbidden"),
    errors.CrossSite: (403, "cross_site"),
    errors.NotFound: (404, "not_found"),
    errors.Full: (409, "full"),
    errors.NotOver: (409, "not_over"),
    errors.Conflict: (409, "conflict"),
    errors.InviteUsed: (409, "invite_used"),
    errors.SeatedAlready: (409, "seated_already"),
    errors.Waiting: (409, "waiting"),
    errors.Stale: (409, "stale"),
    errors.TooLarge: (413, "too_large"),
    errors.RateLimited: (429, "rate_limited"),
    errors.Moved: (503, "moved"),
    LeaseLost: (503, "moved"),
    errors.Unavailable: (503, "unavailable"),
}


def domain_errors() -> list[type[DomainError]]:
    out: list[type[DomainError]] = []
    todo = list(DomainError.__subclasses__())
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo += cls.__subclasses__()
    return out


def test_every_domain_error_has_a_status() -> None:
    found = domain_errors()
    assert set(found) == set(EXPECTED), "a new domain error needs a status in app.STATUS"
    for cls in found:
        assert cls in STATUS, cls
        assert status_of(cls("x")) == EXPECTED[cls][0], cls
        assert cls.code == EXPECTED[cls][1], cls


def test_core_refusals_and_the_rest() -> None:
    assert status_of(IllegalAction("CP-3", "follow suit")) == 409
    assert status_of(MalformedAction("no card")) == 400
    assert status_of(RuntimeError("x")) == 500
    assert status_of(DomainError("a refusal of no kind")) == 500


def test_error_bodies() -> None:
    assert error_of(errors.Full("no free seat")) == {
        "code": "full", "rule": None, "message": "no free seat"}
    assert error_of(MalformedAction("bad card")) == {
        "code": "malformed", "rule": None, "message": "bad card"}
    e = IllegalAction("CP-3", "You must follow suit", key="must_follow", params={"suit": "S"})
    assert error_of(e) == {"code": "illegal", "rule": "CP-3", "message": "You must follow suit",
                           "key": "must_follow", "params": {"suit": "S"}}
    assert "key" not in error_of(IllegalAction("CP-3", "follow suit"))
    assert error_of(errors.RecordRefused("malformed record: game: missing", exit=2)) == {
        "code": "record_refused", "rule": None, "message": "malformed record: game: missing",
        "exit": 2}
    stale = errors.Stale.since(7, 5)
    assert stale.message.startswith("the table has moved on to version 7 since version 5")


@pytest.mark.parametrize("cls", list(EXPECTED), ids=lambda c: c.__name__)
async def test_each_domain_error_answers_its_status(cls: type[DomainError]) -> None:
    app = FastAPI()
    add_error_handlers(app)

    @app.get("/refuse")
    async def refuse() -> None:
        raise cls("refused here", rule="R-1")

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return await c.get("/refuse")

    r = await go()
    status, code = EXPECTED[cls]
    assert r.status_code == status
    assert r.json() == {"error": {"code": code, "rule": "R-1", "message": "refused here"}}
