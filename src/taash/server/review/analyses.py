"""The deal review of the page: a finished deal's replay steps, and its analysis run in a worker.

- ``table_review``/``record_review``: a deal replayed by ``taash.review.replay`` and shaped by
  ``taash.review.steps``.  A table's deal is answered only once it is over (its record then
  shows every card to anyone); a deal still being played is refused (NotOver), so no hidden
  card leaves this way.  A record pasted into the page is checked as ``taash record verify``
  checks it; a malformed one is a BadRequest naming the record's error.
- ``Analyses``: ``taash.review.analyse`` for a finished deal, in a worker process of its own
  (one at a time, off the event loop and its GIL, so play goes on), with the progress
  (actions done of all) readable while it runs, and the result kept in the store's
  ``analyses`` table (migration 0008) so that a second look is instant.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Literal, NotRequired

from typing_extensions import TypedDict

from taash.fair import NotFair
from taash.games.base import RecordError
from taash.record import ReplayError
from taash.review.analyse import DealAnalysis, analyse_deal
from taash.review.replay import load_record, replay_deal
from taash.review.steps import deal_steps
from taash.server.errors import BadRequest, Conflict, NotFound, NotOver
from taash.server.tables import watch, wire

if TYPE_CHECKING:
    from taash.server.store.db import Store
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

Record = dict[str, object]  # a record as JSON reads it: checked by the core's load_record
JsonObject = dict[str, object]  # the core's review of a deal, and an analysis


class AnalysisStatus(TypedDict):
    """Where an analysis stands; ``analysis``: the analysis once done.  An analysis never
    asked has no ``table``, ``deal`` nor ``error``."""

    key: str
    table: NotRequired[str | None]
    deal: NotRequired[int | None]
    status: Literal["none", "running", "failed", "done"]
    done: int
    total: int
    error: NotRequired[str | None]
    analysis: dict[str, object] | None

# bump when the analysis's JSON changes, so that kept analyses are made again
ANALYSIS_VERSION = 2  # 2: single sar solved by DDS, `solver` names the solver


def deals_of(rec: Record) -> list[object]:
    """A checked record's deals (``load_record`` refuses a record whose deals are no list)."""
    deals = rec["deals"]
    if not isinstance(deals, list):
        raise BadRequest("malformed record: deals is not a list")
    return deals


def checked_record(source: str | bytes | Record) -> tuple[Record, Record]:
    """A record and its summary, checked as ``taash record verify`` checks it; every way it
    can fail is a BadRequest with the record's own one line."""
    try:
        return load_record(source)
    except ReplayError as e:
        raise BadRequest(f"the record has an illegal action: {e}") from None
    except NotFair as e:
        raise BadRequest(f"the record's fair proof fails: {e}") from None
    except RecordError as e:
        raise BadRequest(f"malformed record: {e}") from None


def finished_record(room: Room, deal: int | None, seated: bool = True) -> tuple[Record, int]:
    """The table's record up to its finished deal ``deal`` (None: the last finished one):
    a deal being played is refused, and left out of what is replayed.  Not ``seated`` (a
    spectator asks): as spectators see the table (``tables.watch``: a deal is over for them
    once they have seen it end; refused while a hidden table is played)."""
    state = room.state
    if not seated:
        watch.refuse_hidden(room.watch)
        if room.watch.delayed:
            state = room.watch.shown.state
    deals = state.summary()["deals"]
    done = [i for i, d in enumerate(deals) if d.get("complete")]
    if deal is None:
        if not done:
            raise NotOver("no deal of this table is over yet: its review opens when one is")
        deal = done[-1]
    if not 0 <= deal < len(deals):
        raise NotFound(f"deal {deal}: the table has {len(deals)} deal"
                       f"{'s' if len(deals) != 1 else ''} so far (0..{len(deals) - 1})")
    if deal not in done:
        raise NotOver(f"deal {deal} is still being played: its review opens when it is over")
    rec = wire.record(room, state)
    rec["deals"] = deals_of(rec)[:deal + 1]
    return rec, deal


def review_of(rec: Record, summary: Record, deal: int | None) -> JsonObject:
    """The page's review of deal ``deal`` (None: the last) of a checked record."""
    n = len(deals_of(rec))
    if n == 0:
        raise BadRequest("the record has no deals to review")
    d = n - 1 if deal is None else deal
    try:
        return deal_steps(replay_deal(rec, d, summary))
    except RecordError as e:
        raise BadRequest(str(e)) from None


class ReviewPlayer(TypedDict):
    """A seat of the reviewed deal, as its record names it (None where it does not)."""

    type: str | None
    level: str | None
    name: str | None


def players_of(rec: Record) -> list[ReviewPlayer] | None:
    """Who sat where, as the record says, for the page to call each seat by its player's name
    (issue 43: the review said "Seat 2"): per seat its type, bot level and public name.  A
    table's record carries them; a record of one's own may not (None), and an entry that is
    not one is left unnamed."""
    seats = rec.get("seats")
    if not isinstance(seats, list):
        return None

    def text(x: object, longest: int) -> str | None:
        return x[:longest] if isinstance(x, str) and x else None

    return [{"type": text(s.get("type"), 10), "level": text(s.get("level"), 20),
             "name": text(s.get("name"), 200)} if isinstance(s, dict)
            else {"type": None, "level": None, "name": None} for s in seats]


def table_review(room: Room, deal: int | None, seated: bool = True) -> JsonObject:
    rec, d = finished_record(room, deal, seated)
    out = review_of(*checked_record(rec), d)
    out["table"] = room.id
    out["players"] = players_of(rec)
    return out


def record_review(body: bytes, deal: int | None) -> JsonObject:
    rec, summary = checked_record(body)
    out = review_of(rec, summary, deal)
    out["table"] = None
    out["players"] = players_of(rec)
    return out


def analysis_key(rec: Record, deal: int, solver_time: float) -> str:
    """The same deal of the same record, analysed the same way, has one key."""
    keep = {k: v for k, v in rec.items() if k not in ("table", "deals")}
    keep["deals"] = deals_of(rec)[:deal + 1]
    keep["analysis"] = {"deal": deal, "solver_time": solver_time, "v": ANALYSIS_VERSION}
    text = json.dumps(keep, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# -- in the worker process ----------------------------------------------------------------------

def analyse_record(key: str, rec: Record, deal: int, solver_time: float,
                   progress: Callable[[int, int], None] | None = None) -> str:
    """Analyse deal ``deal`` of a checked record, every seat, both ways: the analysis as JSON
    text; ``progress(done, total)`` after each action."""
    rec, summary = load_record(rec)
    d = replay_deal(rec, deal, summary)
    a = analyse_deal(d, time_limit=solver_time, progress=progress)
    return json.dumps(analysis_json(a, deal, solver_time))


def worker_main(key: str, rec: Record, deal: int, solver_time: float, out: Connection,
                parent: int) -> None:
    """The worker process: the analysis, its progress and its end sent on ``out`` (the
    writing end of a pipe of its own), as ("progress", key, done, total), ("done", key, text)
    or ("failed", key, why).  It stops by itself when the server that started it is gone.

    A pipe of its own and no queue: a ``multiprocessing.Queue`` shares one write lock between
    the server and every worker, and a worker ended while its queue's thread held that lock
    (a long answer, still being written when the server had read it and ended the worker)
    left the server waiting for it for ever when it stopped."""

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:
            os._exit(0)
        out.send(("progress", key, done, total))

    try:
        out.send(("done", key, analyse_record(key, rec, deal, solver_time, progress)))
    except Exception as e:
        out.send(("failed", key, repr(e)))
    finally:
        out.close()


def analysis_json(a: DealAnalysis, deal: int, solver_time: float) -> JsonObject:
    return {"deal": deal, "solver": a.solver, "solver_time": solver_time,
            "actions": [r.as_json() for r in a.actions],
            "seats": [s.as_json() for s in a.seats], "notes": list(a.notes)}


# -- in the server ------------------------------------------------------------------------------

@dataclass
class Job:
    key: str
    table_id: str | None
    deal: int
    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Future[None] | None = None
    result: asyncio.Future[str] | None = None

    def as_json(self) -> AnalysisStatus:
        return {"key": self.key, "table": self.table_id, "deal": self.deal,
                "status": "failed" if self.error else "running", "done": self.done,
                "total": self.total, "error": self.error, "analysis": None}


class Analyses:
    """Deal analyses, one at a time, each in a worker process of its own (so that closing the
    server ends it at once), kept in the store."""

    def __init__(self, store: Store, solver_time: float = 2.0, queue_max: int = 4) -> None:
        self.store = store
        self.solver_time = solver_time
        self.queue_max = queue_max
        self.jobs: dict[str, Job] = {}
        self.one_at_a_time = asyncio.Lock()
        self.proc: BaseProcess | None = None  # the worker process of the analysis under way
        self._ctx = multiprocessing.get_context("spawn")
        self._loop: asyncio.AbstractEventLoop | None = None

    def _read(self, conn: Connection) -> None:
        """A worker's messages, read in a thread of their own and handed to the loop, until
        the worker closes its end (it is done, or it was ended)."""
        try:
            while True:
                try:
                    item = conn.recv()
                except (EOFError, OSError, ValueError):
                    return
                if self._loop is None:
                    return
                try:
                    self._loop.call_soon_threadsafe(self._message, item)
                except RuntimeError:  # the loop is closed: the server has stopped
                    return
        finally:
            conn.close()

    def _message(self, item: tuple[object, ...]) -> None:
        """A worker's message (see ``worker_main``)."""
        kind, key = item[0], item[1]
        job = self.jobs.get(key) if isinstance(key, str) else None
        if job is None:
            return
        if kind == "progress":
            done, total = item[2], item[3]
            if isinstance(done, int) and isinstance(total, int):
                job.done, job.total = done, total
        elif job.result is not None and not job.result.done():
            if kind == "done" and isinstance(item[2], str):
                job.result.set_result(item[2])
            else:
                job.result.set_exception(RuntimeError(item[2]))

    async def status(self, key: str) -> AnalysisStatus:
        """Where the analysis of ``key`` stands: running (done of total), done (with it),
        failed, or none (never asked)."""
        job = self.jobs.get(key)
        if job is not None:
            return job.as_json()
        kept = await self.store.load_analysis(key)
        if kept is None:
            return {"key": key, "status": "none", "done": 0, "total": 0, "analysis": None}
        a: dict[str, object] = json.loads(kept)  # as _run saved it
        actions, table, deal = a.get("actions", []), a.get("table"), a.get("deal")
        n = len(actions) if isinstance(actions, list) else 0
        return {"key": key, "table": table if isinstance(table, str) else None,
                "deal": deal if isinstance(deal, int) else None, "status": "done",
                "done": n, "total": n, "error": None, "analysis": a}

    async def start(self, rec: Record, deal: int, table_id: str | None) -> AnalysisStatus:
        """Analyse deal ``deal`` of a checked record, unless it is kept or under way."""
        key = analysis_key(rec, deal, self.solver_time)
        now = await self.status(key)
        if now["status"] in ("running", "done"):
            return now
        if sum(1 for j in self.jobs.values() if j.error is None) >= self.queue_max:
            raise Conflict(f"{self.queue_max} analyses are waiting already: ask again in a "
                           "minute")
        job = Job(key, table_id, deal)
        self.jobs[key] = job
        job.task = asyncio.ensure_future(self._run(job, rec))
        return job.as_json()

    async def _analyse(self, job: Job, rec: Record) -> str:
        """The analysis in a new worker process; its end awaited, its death noticed."""
        self._loop = asyncio.get_running_loop()
        job.result = self._loop.create_future()
        reader, writer = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=worker_main, daemon=True, name="taash-analysis",
                                 args=(job.key, rec, job.deal, self.solver_time, writer,
                                       os.getpid()))
        proc.start()
        writer.close()  # the worker holds the writing end: its end is the reader's
        threading.Thread(target=self._read, args=(reader,), daemon=True,
                         name="taash-analysis-results").start()
        self.proc = proc
        try:
            while True:
                done, _ = await asyncio.wait({job.result}, timeout=0.5)
                if done:
                    return job.result.result()
                if not proc.is_alive():  # its last message may still be on the way
                    done, _ = await asyncio.wait({job.result}, timeout=2)
                    if done:
                        return job.result.result()
                    raise RuntimeError(f"the analysis worker stopped (exit {proc.exitcode})")
        finally:
            if proc.is_alive():
                proc.terminate()
            self.proc = None

    async def _run(self, job: Job, rec: Record) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with self.one_at_a_time:
                text = await self._analyse(job, rec)
            a = json.loads(text)
            a["table"] = job.table_id
            await self.store.save_analysis(job.key, job.table_id, job.deal, time.time(),
                                               json.dumps(a))
            self.jobs.pop(job.key, None)
        except asyncio.CancelledError:
            self.jobs.pop(job.key, None)
            raise
        except Exception as e:
            log.error("analysis of deal %s (%s) failed: %s", job.deal, job.table_id, e)
            job.error = "the analysis failed; it has been logged"
            # a failed job is forgotten after a while, so it can be asked again
            loop.call_later(60, lambda: self.jobs.pop(job.key, None))

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self.proc is not None and self.proc.is_alive():
            self.proc.terminate()

    async def for_table(self, room: Room, deal: int | None, start: bool,
                        seated: bool = True) -> AnalysisStatus:
        """A table's finished deal: its analysis started (``start``) or where it stands
        (``seated``: as ``finished_record``)."""
        rec, d = finished_record(room, deal, seated)
        checked_record(rec)
        if start:
            return await self.start(rec, d, room.id)
        return await self.status(analysis_key(rec, d, self.solver_time))

    async def for_record(self, body: bytes, deal: int | None) -> AnalysisStatus:
        rec, _ = checked_record(body)
        n = len(deals_of(rec))
        if n == 0:
            raise BadRequest("the record has no deals to analyse")
        d = n - 1 if deal is None else deal
        if not 0 <= d < n:
            raise BadRequest(f"deal {d}: the record has {n} deal{'s' if n != 1 else ''} "
                             f"(0..{n - 1})")
        return await self.start(rec, d, None)


__all__ = ["Analyses", "analysis_key", "checked_record", "finished_record", "record_review",
           "table_review"]
