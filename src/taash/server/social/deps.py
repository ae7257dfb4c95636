"""The social domain's services, as route parameters (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.http.deps import service
from taash.server.social.friends import Friends
from taash.server.social.profiles import Social

FriendsDep = Annotated[Friends, service("friends")]
SocialDep = Annotated[Social, service("social")]
