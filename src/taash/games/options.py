"""A game's options, stated once: each option's name, default, what a record accepts, the bound
a table puts on it (RULES.md "Option bounds") and how the page asks for it.

A game lists its options (``OPTIONS``); its ``DEFAULTS``, ``CHECKS`` and ``BOUNDS`` and the
descriptor that ``GET /api/games`` serves (``describe``) are read from that list, so the page's
new-table form, the server and the core cannot disagree on a default or a bound.

>>> target = Count("target", 5, "Points to win", maximum=100)
>>> target.check(0), target.bound(101), target.bound(100)
('must be an integer of at least 1', 'must be at most 100 at a table', None)
>>> describe_options((target,))[0]["max"]
100
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

Json = Any  # a JSON value: options, views, records (truly untyped at this edge)
Check = Callable[[object], "str | None"]  # an option check: an error text, or None if good


def is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def positive_int(v: object) -> str | None:
    return None if is_int(v) and v >= 1 else "must be an integer of at least 1"


def at_most(bound: int) -> Check:
    """A bound on an integer option already checked (RULES.md "Option bounds")."""
    def check(v: object) -> str | None:
        return None if is_int(v) and v <= bound else f"must be at most {bound} at a table"
    return check


def one_of(*values: object) -> Check:
    def check(v: object) -> str | None:
        if isinstance(v, bool) != any(isinstance(x, bool) for x in values) or v not in values:
            return "must be one of " + ", ".join(_show(x) for x in values)
        return None
    return check


def _show(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)




@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few values (a select on the page).  ``labels``: each value's English words;
    ``key`` names the page's translations (``opt_{key}``, ``opt_{key}_{value}``)."""

    name: str
    default: Json
    values: tuple[Json, ...]
    label: str
    labels: tuple[str, ...]
    key: str = ""

    def check(self, v: object) -> str | None:
        return one_of(*self.values)(v)

    def bound(self, v: object) -> str | None:
        return None

    def describe(self) -> dict[str, Json]:
        return {"name": self.name, "kind": "choice", "default": self.default,
                "values": list(self.values), "label": self.label,
                "labels": dict(zip(map(str, self.values), self.labels, strict=True)),
                "key": self.key or self.name}


@dataclass(frozen=True, slots=True)
class Flag:
    """On or off (a box on the page).  ``needs``: other options' values without which the flag
    means nothing (the page greys the box out and leaves it off)."""

    name: str
    default: bool
    label: str
    needs: Mapping[str, Json] = field(default_factory=dict)
    key: str = ""

    def check(self, v: object) -> str | None:
        return one_of(False, True)(v)

    def bound(self, v: object) -> str | None:
        return None

    def describe(self) -> dict[str, Json]:
        return {"name": self.name, "kind": "flag", "default": self.default, "label": self.label,
                "needs": dict(self.needs), "key": self.key or self.name}


@dataclass(frozen=True, slots=True)
class Count:
    """A whole number from 1; a table takes at most ``maximum`` (a record any)."""

    name: str
    default: int
    label: str
    maximum: int
    key: str = ""

    def check(self, v: object) -> str | None:
        return positive_int(v)

    def bound(self, v: object) -> str | None:
        return at_most(self.maximum)(v)

    def describe(self) -> dict[str, Json]:
        return {"name": self.name, "kind": "count", "default": self.default, "min": 1,
                "max": self.maximum, "label": self.label, "key": self.key or self.name}


@dataclass(frozen=True, slots=True)
class Unit:
    """What a ``CountOf`` may count: its name, its words, the page's default and the bound."""

    name: str
    label: str  # the choice's words ("After N coats")
    count_label: str  # the number's words ("Coats to win")
    default: int
    maximum: int


@dataclass(frozen=True, slots=True)
class CountOf:
    """``{unit: N}`` for one of ``units`` with N a whole number from 1, or (``open_label``
    given) null for no end: a select of the units (and "open") and a number on the page, whose
    field is ``count_key``."""

    name: str
    default: Json
    label: str
    units: tuple[Unit, ...]
    count_key: str
    open_label: str | None = None
    key: str = ""

    def check(self, v: object) -> str | None:
        if v is None and self.open_label is not None:
            return None
        names = [u.name for u in self.units]
        if (isinstance(v, dict) and len(v) == 1 and next(iter(v)) in names
                and is_int(next(iter(v.values()))) and next(iter(v.values())) >= 1):
            return None
        forms = (["null"] if self.open_label is not None else []) + [
            f'{{"{n}": N}}' for n in names]
        listed = forms[0] if len(forms) == 1 else ", ".join(forms[:-1]) + " or " + forms[-1]
        return f"must be {listed} with N an integer of at least 1"

    def bound(self, v: object) -> str | None:
        if v is None:  # no end: the table plays until its players leave
            return None
        assert isinstance(v, dict)  # checked first
        (unit, n), = v.items()
        most = next(u.maximum for u in self.units if u.name == unit)
        if is_int(n) and n <= most:
            return None
        return f'{{"{unit}": N}} must have N at most {most} at a table'

    def describe(self) -> dict[str, Json]:
        return {"name": self.name, "kind": "count_of", "default": self.default,
                "label": self.label, "key": self.key or self.name, "count_key": self.count_key,
                "open_label": self.open_label,
                "units": [{"name": u.name, "label": u.label, "count_label": u.count_label,
                           "default": u.default, "min": 1, "max": u.maximum}
                          for u in self.units]}


Option = Choice | Flag | Count | CountOf


def defaults(options: Sequence[Option]) -> dict[str, Json]:
    return {o.name: o.default for o in options}


def checks(options: Sequence[Option]) -> dict[str, Check]:
    return {o.name: o.check for o in options}


def bounds(options: Sequence[Option]) -> dict[str, Check]:
    return {o.name: o.bound for o in options}


def describe_options(options: Sequence[Option]) -> list[dict[str, Json]]:
    return [o.describe() for o in options]


__all__ = ["Check", "Choice", "Count", "CountOf", "Flag", "Json", "Option", "Unit", "at_most",
           "bounds", "checks", "defaults", "describe_options", "is_int", "one_of",
           "positive_int"]
