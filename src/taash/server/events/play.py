"""Playing an event's boards, and what an entrant may see of them (docs/events.md).

An entrant sees a board only once they reach it (its row exists: board 1 on entering, each
next one on finishing the one before), and the field's results and play of a board only once
they have finished it themselves (or the event has closed).  The standings stay hidden until
the event closes, but for an entrant who has finished every board (marked provisional).  The
secret is in no answer before the close.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from taash import fair
from taash.games import game_class
from taash.games.base import MatchState
from taash.server.errors import Conflict, Forbidden, NotFound, Stale
from taash.server.events.best import BestResults, review_json
from taash.server.events.boards import (
    ENTRANT,
    board_actions,
    board_over,
    board_record,
    board_table,
    first_card_reached,
    first_trick,
    opening_actions,
    play_board,
    robots_move,
    state_result,
)
from taash.server.events.scoring import board_percentages, standings
from taash.server.events.service import Events, is_closed, reached_board
from taash.server.events.shapes import BoardResults, BoardReview, BoardView, StandingsJson
from taash.server.store.events import BoardRow, EventRow

ANNOUNCE_BATCH = 20  # events whose close one sweep tells at most


@dataclass(frozen=True)
class ClosedNotice:
    """What an entrant is told when an event they entered closes: their place among those
    who finished a board (None if they finished none) and their percentage."""

    player: str
    event: str
    game: str
    daily: bool
    rank: int | None
    field: int
    percent: float | None


def _state(e: EventRow, row: BoardRow) -> MatchState:
    return play_board(e.game, e.options, e.id, row.board, e.secret,
                      row.actions)


class Boards:
    """An entrant's boards: their views, their moves, the field's results, the standings."""

    def __init__(self, events: Events, best: BestResults | None = None) -> None:
        self.events = events
        self.store = events.store
        self.best = best if best is not None else BestResults(events.store.store)

    async def _entry(self, event_id: str, player_id: str) -> tuple[EventRow, list[BoardRow]]:
        e = await self.events.event(event_id)
        rows = await self.store.boards_of(e.id, player_id)
        if not rows:
            raise Forbidden("you have not entered this event")
        return e, rows

    @staticmethod
    def _reached(rows: list[BoardRow], board: int) -> BoardRow:
        for r in rows:
            if r.board == board:
                return r
        raise Forbidden(f"board {board} is not yours to see yet: you have reached board "
                        f"{rows[-1].board}")

    def _view(self, e: EventRow, row: BoardRow, state: MatchState) -> BoardView:
        out: BoardView = {
            "event": e.id, "board": row.board, "boards": e.boards, "version": row.version,
            "done": row.done, "seat": ENTRANT, "commit": fair.commit(e.secret),
            "view": dict(state.view(ENTRANT)), "result": row.result,
            "next": row.board + 1 if row.done and row.board < e.boards else None}
        return out

    async def current(self, event_id: str, player_id: str) -> BoardView:
        """The board the entrant is at: the first not finished (the last when all are)."""
        e, rows = await self._entry(event_id, player_id)
        row = next((r for r in rows if not r.done), rows[-1])
        return self._view(e, row, _state(e, row))

    async def board(self, event_id: str, player_id: str, board: int) -> BoardView:
        e, rows = await self._entry(event_id, player_id)
        row = self._reached(rows, board)
        return self._view(e, row, _state(e, row))

    async def act(self, event_id: str, player_id: str, board: int, action: str,
                  version: int | None, client_id: str | None) -> BoardView:
        """The entrant's move on a board they are playing, the robots' answers after it.  A
        repeat of the last move's client id changes nothing; a move on an older version is
        refused (Stale), so two tabs never play one board twice."""
        e, rows = await self._entry(event_id, player_id)
        row = self._reached(rows, board)
        if client_id is not None and client_id == row.last_id:
            return self._view(e, row, _state(e, row))  # a retry of the move already taken
        if is_closed(e, self.events.clock()):
            raise Conflict("the event has closed: its boards can no longer be played")
        if row.done:
            raise Conflict(f"board {board} is over")
        if version is not None and version != row.version:
            raise Stale.since(row.version, version)
        state = _state(e, row)
        state.apply(ENTRANT, action)  # the core's refusal, with its rule, if not allowed
        expected = row.version
        row = BoardRow(e.id, player_id, board, [], row.version + 1, client_id)
        nxt = None
        state = _play_on(state, e, row)
        if row.done:
            row.finished = self.events.clock()
        if row.done and board < e.boards:
            nxt = reached_board(e, player_id, board + 1)
        if not await self.store.save_board(row, expected, nxt):
            raise Stale.since(expected + 1, expected)
        # the board's best result is searched from its first card on, while it is played
        if first_card_reached(state):
            self.best.first_card(e, board, opening_actions(row.actions))
        if nxt is not None and first_card_reached(_state(e, nxt)):
            self.best.first_card(e, nxt.board, opening_actions(nxt.actions))
        return self._view(e, row, state)

    async def results(self, event_id: str, player_id: str, board: int) -> BoardResults:
        """How the field played a board: each entrant's result and percentage, and the
        distribution; for an entrant who has finished it (anyone, once the event closed)."""
        e = await self.events.event(event_id)
        await self._may_see_board(e, player_id, board)
        rows = await self.store.finished(e.id, board)
        pct = board_percentages({r.player_id: r.score or 0 for r in rows})
        names = await self.store.names(e.id)
        spread = Counter(r.score or 0 for r in rows)
        by_score = {r.score: r.result for r in rows}
        line = Counter(tuple(str(a["action"]) for a in r.actions if a["seat"] == ENTRANT)
                       for r in rows).most_common(1)
        seats = game_class(e.game).num_seats
        trick = Counter(first_trick(r.actions, seats) for r in rows).most_common(1)
        return {
            "event": e.id, "board": board, "field": len(rows),
            "entries": [{"player": r.player_id, "name": names.get(r.player_id),
                         "result": r.result, "percent": round(pct[r.player_id], 2)}
                        for r in sorted(rows, key=lambda r: -pct[r.player_id])],
            "distribution": [{"result": by_score[s], "count": n}
                             for s, n in sorted(spread.items(), reverse=True)],
            "common_line": list(line[0][0]) if line else [],
            "common_line_count": line[0][1] if line else 0,
            "common_first_trick": list(trick[0][0]) if trick else [],
            "common_first_trick_count": trick[0][1] if trick else 0}

    async def review(self, event_id: str, player_id: str, board: int) -> BoardReview:
        """The entrant's board against the best result with every hand open, once they have
        finished it: how many tricks (Goat: card points) their side took, and the most it
        could have taken from the first card with best play by both sides, as the board's
        background search has kept it (``best.BestResults``; "computing" until then)."""
        e = await self.events.event(event_id)
        if not 1 <= board <= e.boards:
            raise NotFound(f"the event has boards 1 to {e.boards}")
        row = next((r for r in await self.store.boards_of(e.id, player_id)
                    if r.board == board and r.done), None)
        if row is None or row.result is None:
            raise Forbidden(f"board {board}'s review opens when you have finished it")
        opening = opening_actions(row.actions)
        kept = await self.best.get(e, board, opening)
        points = game_class(e.game).deal_unit == "points"
        yours = row.result.get("points" if points else "tricks")
        assert isinstance(yours, int)
        link = f"/review?event={e.id}&board={board}&seat={ENTRANT}"
        return review_json(e, board, "points" if points else "tricks", yours, opening, kept,
                           self.best.clock(), link)

    async def _may_see_board(self, e: EventRow, player_id: str, board: int) -> None:
        if not 1 <= board <= e.boards:
            raise NotFound(f"the event has boards 1 to {e.boards}")
        if is_closed(e, self.events.clock()):
            return
        rows = await self.store.boards_of(e.id, player_id)
        if not any(r.board == board and r.done for r in rows):
            raise Forbidden(f"board {board}'s results and play are hidden until you have "
                            "finished it")

    async def record(self, event_id: str, player_id: str, board: int,
                     of: str | None) -> dict[str, object]:
        """A board's record as an entrant played it (``of``; the asker by default): once the
        asker has finished the board, or the event closed; the secret once it closed."""
        e = await self.events.event(event_id)
        await self._may_see_board(e, player_id, board)
        target = of or player_id
        row = next((r for r in await self.store.boards_of(e.id, target)
                    if r.board == board and r.done), None)
        if row is None:
            raise NotFound(f"no finished board {board} of that player")
        closed = is_closed(e, self.events.clock())
        return board_record(_state(e, row), e.id, board, fair.commit(e.secret),
                            e.secret if closed else None)

    async def closed_notices(self) -> list[ClosedNotice]:
        """The notices of the events that have closed since the last call (of any
        instance): each event's close is claimed once in the store, then every entrant is
        told their place."""
        now = self.events.clock()
        out: list[ClosedNotice] = []
        for e in await self.store.to_announce(now, ANNOUNCE_BATCH):
            if not await self.store.claim_announce(e.id, now):
                continue  # another instance tells this one
            per_board: list[dict[str, int]] = [{} for _ in range(e.boards)]
            for player, board, score in await self.store.scores(e.id):
                per_board[board - 1][player] = score
            placed = {s.player: s for s in standings(per_board, e.boards)}
            for player in await self.store.entrant_ids(e.id):
                s = placed.get(player)
                out.append(ClosedNotice(player, e.id, e.game, e.daily,
                                        s.rank if s else None, len(placed),
                                        round(s.percent, 1) if s else None))
        return out

    async def standings(self, event_id: str, player_id: str | None) -> StandingsJson:
        """The event's standings: once it closed, or provisional for an entrant who has
        finished every board."""
        e = await self.events.event(event_id)
        closed = is_closed(e, self.events.clock())
        if not closed:
            mine = await self.store.boards_of(e.id, player_id) if player_id else []
            if sum(r.done for r in mine) < e.boards:
                raise Forbidden("the standings are hidden until the event closes (or you "
                                "have finished every board)")
        per_board: list[dict[str, int]] = [{} for _ in range(e.boards)]
        for player, board, score in await self.store.scores(e.id):
            per_board[board - 1][player] = score
        rows = standings(per_board, e.boards)
        names = await self.store.names(e.id)
        return {"event": e.id, "provisional": not closed,
                "standings": [{"rank": s.rank, "player": s.player, "name": names.get(s.player),
                               "percent": round(s.percent, 2), "boards": s.boards,
                               "finished": s.finished} for s in rows]}


def _play_on(state: MatchState, e: EventRow, row: BoardRow) -> MatchState:
    """The robots' answers after the entrant's move, written into ``row`` (its actions, and
    whether the board is over with its result)."""
    robots_move(state, board_table(e.id, row.board))
    row.actions = board_actions(state)
    if board_over(state):
        result = state_result(state)
        row.done, row.score, row.result = True, result.score, result.json()
    return state
