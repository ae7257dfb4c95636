"""What an instance that forwards a table's request to its owner (tables/forward.py) tells the
owner about the request as it arrived.

``x-taash-forwarded`` marks a forwarded request (never forwarded again), and
``x-taash-origin`` is the origin the request was made to, as the forwarding instance saw it
(its scheme and Host). The owner is reached at its own address (``--instance-url``), so a
page's Origin is the forwarder's, not the owner's: the owner counts the forwarded origin as
its own in the session cookie's same-site check (accounts/me.py). Trusting the header is safe
for that check's purpose, cross-site request forgery: a page on another site cannot send a
custom header with a credentialed request without a CORS preflight, which this server never
grants, nor any header at all with a WebSocket; and a program that sets it holds no victim's
cookie.
"""

from __future__ import annotations

from collections.abc import Mapping

MARK = b"x-taash-forwarded"
ORIGIN = b"x-taash-origin"


def forwarded_origin(headers: Mapping[str, str]) -> str | None:
    """The origin a forwarded request was made to (None: not a forwarded request)."""
    if headers.get(MARK.decode()) is None:
        return None
    origin = headers.get(ORIGIN.decode())
    return origin.lower() if origin else None
