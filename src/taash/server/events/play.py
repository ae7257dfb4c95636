"""Playing an event's boards, and what an entrant may see of them (docs/events.md).

An entrant sees a board only once they reach it (its row exists: board 1 on entering, each
next one on finishing the one before), and the field's results and play of a board only once
they have finished it themselves (or the event has closed).  The standings stay hidden until
the event closes, but for an entrant who has finished every board (marked provisional).  The
secret is in no answer before the close.
"""

from __future__ import annotations

from collections import Counter

from taash import fair
from taash.games.base import MatchState
from taash.server.errors import Conflict, Forbidden, NotFound, Stale
from taash.server.events.boards import (
    ENTRANT,
    board_actions,
    board_over,
    board_record,
    board_table,
    play_board,
    robots_move,
    state_result,
)
from taash.server.events.scoring import board_percentages, standings
from taash.server.events.service import Events, is_closed, reached_board
from taash.server.events.shapes import BoardResults, BoardView, StandingsJson
from taash.server.store.events import BoardRow, EventRow


def _state(e: EventRow, row: BoardRow) -> MatchState:
    return play_board(e.game, e.options, e.id, row.board, e.secret,
                      row.actions)


class Boards:
    """An entrant's boards: their views, their moves, the field's results, the standings."""

    def __init__(self, events: Events) -> None:
        self.events = events
        self.store = events.store

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
        return {
            "event": e.id, "board": board, "field": len(rows),
            "entries": [{"player": r.player_id, "name": names.get(r.player_id),
                         "result": r.result, "percent": round(pct[r.player_id], 2)}
                        for r in sorted(rows, key=lambda r: -pct[r.player_id])],
            "distribution": [{"result": by_score[s], "count": n}
                             for s, n in sorted(spread.items(), reverse=True)],
            "common_line": list(line[0][0]) if line else []}

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
