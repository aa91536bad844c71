"""ladderd's Python client.

    from ladderd import Client

    with Client() as ladder:                      # 127.0.0.1:50151, 1.5 s per call
        ladder.wait_until_ready(timeout=5)
        decision = ladder.decide(session_id=sid, input="open links panel d", options=on_screen)

`AsyncClient` is the same for asyncio. Messages and enums are in
`ladderd.pb`; errors are `LadderError` and its subclasses, one per status an
app handles; `ladderd.testing.FakeLadderd` stands in for the daemon in an
app's own tests. docs/calling.md has the rules (deadlines, retries,
readiness); the package's README has every option.
"""

from ladderd._aio import AsyncClient
from ladderd._calls import DEFAULT_ADDRESS, DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_S, RPCS
from ladderd._client import Client
from ladderd._errors import (
    DeadlineExceededError,
    FailedPreconditionError,
    InternalError,
    InvalidArgumentError,
    LadderError,
    LimitExceededError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    UnavailableError,
)

__all__ = [
    "AsyncClient",
    "Client",
    "DEFAULT_ADDRESS",
    "DEFAULT_MAX_ATTEMPTS",
    "DEFAULT_TIMEOUT_S",
    "RPCS",
    "DeadlineExceededError",
    "FailedPreconditionError",
    "InternalError",
    "InvalidArgumentError",
    "LadderError",
    "LimitExceededError",
    "NotFoundError",
    "OverloadedError",
    "PermissionDeniedError",
    "UnavailableError",
]

try:
    from importlib.metadata import version as _version

    __version__ = _version("ladderd")
except Exception:  # run from a source tree, not installed
    __version__ = "unknown"
