"""One exception hierarchy for every refusal, mapped from the gRPC status.

The daemon's messages name what was wrong: "session_id: required",
"input: 4097 bytes is over the limit of 4096". `field` is that name.
"""

from __future__ import annotations

from typing import Optional

import grpc

# The daemon's load-shedding refusals (at server.max_concurrent_requests or
# server.request_memory_bytes) end with these words; a size over its limit
# is RESOURCE_EXHAUSTED too, and is never retried.
OVERLOADED_MARKER = "retry with backoff"


class LadderError(Exception):
    """A call that ladderd refused or that did not complete.

    `code` is the grpc.StatusCode, `code_name` its name ("NOT_FOUND"),
    `details` the daemon's message, `method` the RPC ("Decide").
    """

    def __init__(self, method: str, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{method}: {code.name}: {details}")
        self.method = method
        self.code = code
        self.details = details

    @property
    def code_name(self) -> str:
        return str(self.code.name)


def _field(details: str) -> Optional[str]:
    head, sep, _ = details.partition(": ")
    return head if sep and head and " " not in head else None


class InvalidArgumentError(LadderError):
    """INVALID_ARGUMENT: a bug in the request the app built. `field` names
    the field ("session_id", "options.candidates.id"). Never retried."""

    @property
    def field(self) -> Optional[str]:
        return _field(self.details)


class OverloadedError(LadderError):
    """RESOURCE_EXHAUSTED from the daemon's load shedding (its message ends
    "retry with backoff"): nothing was done. Retried for calls safe to repeat."""


class LimitExceededError(LadderError):
    """RESOURCE_EXHAUSTED for a request over a limit (a size, a count, the
    matching work); `field` names it. Never retried: send less."""

    @property
    def field(self) -> Optional[str]:
        return _field(self.details)


class FailedPreconditionError(LadderError):
    """FAILED_PRECONDITION: Enrich on a cycle that is gone (Decide again), an
    option set by reference that ladderd no longer holds (resend it), or a
    version held with other content (send a new version)."""


class NotFoundError(LadderError):
    """NOT_FOUND: GetSession / RecordOutcome for a session that expired."""


class PermissionDeniedError(LadderError):
    """PERMISSION_DENIED: a control call from off loopback without the admin
    token (or with a wrong one)."""


class DeadlineExceededError(LadderError):
    """DEADLINE_EXCEEDED: no answer within the call's timeout. Never retried:
    answer the turn without ladderd."""


class UnavailableError(LadderError):
    """UNAVAILABLE: the daemon is not up, or its shared session store did not
    answer. Retried for calls safe to repeat."""


class InternalError(LadderError):
    """INTERNAL: a fault inside ladderd (its log says where)."""


_BY_CODE = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgumentError,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPreconditionError,
    grpc.StatusCode.NOT_FOUND: NotFoundError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceededError,
    grpc.StatusCode.UNAVAILABLE: UnavailableError,
    grpc.StatusCode.INTERNAL: InternalError,
}


def error_for(method: str, code: grpc.StatusCode, details: str) -> LadderError:
    """The exception for a status: its class says what the app can do."""
    if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        cls: type[LadderError] = OverloadedError if OVERLOADED_MARKER in details else LimitExceededError
    else:
        cls = _BY_CODE.get(code, LadderError)
    return cls(method, code, details)
