"""What the tournaments' routes answer (docs/tournaments.md, docs/API.md "Tournaments")."""

from __future__ import annotations

from typing_extensions import TypedDict


class TournamentJson(TypedDict):
    id: str
    name: str
    kind: str  # swiss or arena
    game: str
    options: dict[str, object]
    rounds: int  # Swiss: how many rounds; arena: 0
    minutes: int  # arena: how long; Swiss: 0
    starts: float  # Unix seconds
    ends: float | None  # arena: when pairing stops
    seconds_to_start: float | None  # the countdown; None once started
    state: str  # scheduled, running, over or cancelled
    round: int  # Swiss: the round being played (0 before the first); arena: 0
    organiser: str
    club: str | None
    turn_timer_s: float
    partners: bool  # entrants are pairs of partners (the four-seat games)
    entrants: int
    registered: bool  # the asker is an entrant
    spectator_delay: str  # how far behind spectators see its tables: trick, deal or hidden


class EntrantJson(TypedDict):
    seed: int
    name: str
    players: list[str]
    bot: str | None  # a bot's level; None: players


class StandingJson(TypedDict):
    rank: int
    seed: int
    name: str
    players: list[str]
    score: float  # Swiss: points (a win 1, a draw 0.5, a bye 1); arena: points
    buchholz: float  # Swiss: the opponents' scores summed; arena: 0
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    streak: bool  # arena: the next game counts double


class GameJson(TypedDict):
    round: int
    board: int
    a: int  # the entrants' seeds
    b: int | None  # None: a bye for a
    table: str | None
    result: str | None  # "a", "b", "draw"; None while played (a bye: "a")
    final: bool  # the last round's top board


class MyTable(TypedDict):
    round: int
    table: str
    seat: int
    url: str


class TournamentPage(TournamentJson):
    entrant_list: list[EntrantJson]
    standings: list[StandingJson]
    games: list[GameJson]
    final_table: str | None
    my_table: MyTable | None


class TournamentsList(TypedDict):
    tournaments: list[TournamentJson]  # scheduled and running, the soonest first
    mine: list[TournamentJson]  # those the asker entered
