"""The accounts domain's services, as route parameters (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.accounts.email_sign_in import EmailSignIn
from taash.server.accounts.link import Linker
from taash.server.accounts.passkeys import Passkeys
from taash.server.accounts.players import Players
from taash.server.accounts.sign_in import SignIn
from taash.server.accounts.tokens import Tokens
from taash.server.http.deps import service

EmailDep = Annotated[EmailSignIn, service("email")]
LinkerDep = Annotated[Linker, service("linker")]
PasskeysDep = Annotated[Passkeys, service("passkeys")]
PlayersDep = Annotated[Players, service("players")]
SignInDep = Annotated[SignIn, service("sign_in")]
TokensDep = Annotated[Tokens, service("tokens")]
