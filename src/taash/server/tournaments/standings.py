"""A tournament's page: its entrants, standings, games, final table and the asker's table
(docs/tournaments.md), from the store's rows and the pure scoring of ``pairing``."""

from __future__ import annotations

from collections.abc import Sequence

from taash.games import game_class
from taash.server.store.tournaments import EntrantRow, GameRow, TournamentRow
from taash.server.tournaments.pairing import (
    DRAW,
    WIN,
    Game,
    arena_points,
    on_streak,
    swiss_standings,
)
from taash.server.tournaments.service import members
from taash.server.tournaments.shapes import (
    EntrantJson,
    GameJson,
    MyTable,
    StandingJson,
)


def games_of(rows: Sequence[GameRow]) -> list[Game]:
    return [Game(g.round, g.a, g.b, g.result) for g in rows]


def entrant_json(e: EntrantRow) -> EntrantJson:
    return {"seed": e.seed, "name": e.name, "players": members(e), "bot": e.bot}


def result_word(g: GameRow) -> str | None:
    if g.b is None:
        return "a"
    if g.result is None:
        return None
    return "a" if g.result == WIN else "draw" if g.result == DRAW else "b"


def final_board(t: TournamentRow, games: Sequence[GameRow]) -> GameRow | None:
    """The final table: the last Swiss round's top board (its leaders' game), once paired."""
    if t.kind != "swiss" or t.round < t.rounds:
        return None
    return next((g for g in games if g.round == t.rounds and g.b is not None), None)


def games_json(t: TournamentRow, games: Sequence[GameRow]) -> list[GameJson]:
    final = final_board(t, games)
    return [{"round": g.round, "board": g.board, "a": g.a, "b": g.b, "table": g.table_id,
             "result": result_word(g), "final": g is final} for g in games]


def swiss_json(entrants: Sequence[EntrantRow], games: Sequence[GameRow]) -> list[StandingJson]:
    by_seed = {e.seed: e for e in entrants}
    rows = swiss_standings({e.seed: e.seed for e in entrants}, games_of(games))
    return [{"rank": s.rank, "seed": s.id, "name": by_seed[s.id].name,
             "players": members(by_seed[s.id]), "score": s.score / 2,
             "buchholz": s.buchholz / 2, "played": s.played, "wins": s.wins,
             "draws": s.draws, "losses": s.losses, "byes": s.byes, "streak": False}
            for s in rows]


def arena_results(entrants: Sequence[EntrantRow],
                  games: Sequence[GameRow]) -> dict[int, list[int]]:
    """Each entrant's finished results (half points, theirs), in the order the games began."""
    out: dict[int, list[int]] = {e.seed: [] for e in entrants}
    for g in sorted(games, key=lambda g: g.round):
        if g.result is None or g.b is None:
            continue
        out[g.a].append(g.result)
        out[g.b].append(WIN - g.result)
    return out


def arena_json(entrants: Sequence[EntrantRow], games: Sequence[GameRow]) -> list[StandingJson]:
    results = arena_results(entrants, games)
    rows = sorted(((sum(arena_points(results[e.seed])), e) for e in entrants),
                  key=lambda r: (-r[0], r[1].seed))
    out: list[StandingJson] = []
    for n, (points, e) in enumerate(rows):
        res = results[e.seed]
        rank = out[-1]["rank"] if out and out[-1]["score"] == points else n + 1
        out.append({"rank": rank, "seed": e.seed, "name": e.name, "players": members(e),
                    "score": points, "buchholz": 0.0, "played": len(res),
                    "wins": res.count(WIN), "draws": res.count(DRAW),
                    "losses": res.count(0), "byes": 0, "streak": on_streak(res)})
    return out


def seat_of(game: str, e: EntrantRow, side: int, player_id: str) -> int | None:
    people = members(e)
    if player_id not in people:
        return None
    return game_class(game).teams[side][people.index(player_id)]


def my_table(t: TournamentRow, entrants: Sequence[EntrantRow], games: Sequence[GameRow],
             player_id: str | None) -> MyTable | None:
    """The asker's game being played now (the current round's, or the arena's), if any."""
    if player_id is None or t.state != "running":
        return None
    by_seed = {e.seed: e for e in entrants}
    for g in games:
        if g.result is not None or g.b is None or g.table_id is None:
            continue
        if t.kind == "swiss" and g.round != t.round:
            continue
        for side, seed in ((0, g.a), (1, g.b)):
            seat = seat_of(t.game, by_seed[seed], side, player_id)
            if seat is not None:
                return {"round": g.round, "table": g.table_id, "seat": seat,
                        "url": f"/t/{g.table_id}?seat={seat}"}
    return None
