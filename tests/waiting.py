"""Waiting in tests for something to happen, never for a fixed time.

``wait_until`` asks its condition again and again until it holds (and returns what it
returned) or the time limit passes (and fails, saying what it waited for).  The limit is
only a bound for a test that would otherwise hang: a test never waits a fixed time, and no
test asserts how long anything took (timings are benchmarks, in bench/)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], *, timeout: float = 20.0, what: str = "",
               every: float = 0.02) -> T:
    """``condition()`` as soon as it is truthy; AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout:g} s waiting for "
                                 f"{what or getattr(condition, '__name__', 'a condition')}")
        time.sleep(every)  # the one poll in the suite: between two looks at the condition
