"""A table's live connections (``tables.connections.Connections``): who is connected here and
through the other instances, as presence and the table's info read it."""

from __future__ import annotations

from taash.server.tables.connections import Connections


def test_the_first_and_last_of_a_seat_are_told_and_the_others_seats_count() -> None:
    live = Connections()
    a, first = live.add(1)
    b, again = live.add(1)
    watcher, _ = live.add(None)
    assert first and not again
    assert live.local_seats() == [1] and live.seat(1) and not live.seat(0)
    assert live.remove(a) is False and live.remove(a) is None  # not the last; then unknown
    assert live.remove(b) is True and live.local_seats() == []
    assert live.any()  # a spectator still watches
    assert live.remove(watcher) is True and not live.any()
    assert live.heard("other", frozenset({0}), 5) and live.seat(0) and live.any()
    assert not live.heard("other", frozenset(), 4)  # an older message changes nothing
    assert live.seat(0)
    assert live.heard("other", None) and not live.seat(0)  # that instance is gone


def test_pushes_reach_every_connection_and_an_ended_seat_alone_closes() -> None:
    live = Connections()
    seat0, _ = live.add(0)
    seat1, _ = live.add(1)
    assert live.push_all(3, "hello") == 2
    assert list(seat0.queue) == [(3, "hello")] == list(seat1.queue)
    live.end(0)
    assert seat0.ended and seat0.wake.is_set() and not seat1.ended
    seat1.wake.clear()
    live.wake_all()
    assert seat1.wake.is_set() and not seat1.ended
