"""What Client and AsyncClient share: the calls, their rules, the options.

The rules (docs/calling.md, "Deadlines, retries and readiness"):

* every call has a timeout, 1.5 s unless the client or the call says
  otherwise: above the daemon's llm.timeout_ms (800 ms by default), so the
  daemon's own fallback clarifier arrives before the client gives up. The
  timeout covers the whole call, retries and their pauses included;
* a call is retried only when it is safe to repeat (REPEATABLE), and only
  after UNAVAILABLE (a lost connection included) or the daemon's
  load-shedding refusal (OverloadedError): up to `max_attempts` attempts in
  all, pausing 50 ms, then 100 ms, ... with jitter, never past the timeout.
  DEADLINE_EXCEEDED is never retried;
* a Decide without a `turn_id` gets a fresh one (a UUID) per call, which
  its retries reuse: the daemon applies a turn once per (session_id,
  turn_id), so a retry after a lost answer gets the first answer and
  applies nothing again. Decide is retried only with a `turn_id`;
* the admin token goes only with the control calls (CONTROL), as
  `authorization: Bearer <token>`; a `traceparent` goes with any call.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Tuple

import grpc
from google.protobuf.message import Message

from ladderd import _errors
from ladderd._proto.ladder.v1 import ladder_pb2 as pb

DEFAULT_ADDRESS = "127.0.0.1:50151"
DEFAULT_TIMEOUT_S = 1.5
DEFAULT_MAX_ATTEMPTS = 3
FIRST_BACKOFF_S = 0.05
# How long one readiness probe waits for the health service's answer.
PROBE_TIMEOUT_S = 0.5
ADDRESS_ENV = "LADDERD_ADDRESS"
TOKEN_ENV = "LADDERD_ADMIN_TOKEN"
# The daemon's own variable for its token file (admin.token_file): an app
# container that mounts the same Secret finds the token with no more setup.
TOKEN_FILE_ENV = "LADDER_ADMIN__TOKEN_FILE"
SERVICE = "ladder.v1.Arbiter"
HEALTH_SERVICE = "grpc.health.v1.Health"


@dataclass(frozen=True)
class Rpc:
    name: str
    request: Any
    response: Any
    # Served off loopback only with the admin token (docs/security.md).
    control: bool
    # Repeating it after a lost answer leaves the daemon as one call would.
    repeatable: bool


# Enrich spends a step of the cycle's budget and may resolve the cycle (a
# repeat spends another, or finds the cycle gone); RecordOutcome counts an
# outcome in the session and the guardrails' windows (a repeat counts it
# twice). Every other call reads, or sets a state a repeat sets again:
# Decide with its turn_id (the app's, else the client's: `with_turn_id`) is
# answered once per turn, a repeat getting the first answer.
RPCS = {
    "decide": Rpc("Decide", pb.DecideRequest, pb.Decision, control=False, repeatable=True),
    "enrich": Rpc("Enrich", pb.EnrichRequest, pb.Decision, control=False, repeatable=False),
    "clarify": Rpc("Clarify", pb.ClarifyRequest, pb.ClarifyResponse, control=False, repeatable=True),
    "extract": Rpc("Extract", pb.ExtractRequest, pb.ExtractResponse, control=False, repeatable=True),
    "record_outcome": Rpc("RecordOutcome", pb.RecordOutcomeRequest, pb.RecordOutcomeResponse, control=True, repeatable=False),
    "get_session": Rpc("GetSession", pb.GetSessionRequest, pb.SessionState, control=True, repeatable=True),
    "reset_session": Rpc("ResetSession", pb.ResetSessionRequest, pb.ResetSessionResponse, control=True, repeatable=True),
    "get_rollout": Rpc("GetRollout", pb.GetRolloutRequest, pb.RolloutState, control=False, repeatable=True),
    "reset_rollout": Rpc("ResetRollout", pb.ResetRolloutRequest, pb.RolloutState, control=True, repeatable=True),
}


def resolve_address(address: Optional[str]) -> str:
    return address or os.environ.get(ADDRESS_ENV) or DEFAULT_ADDRESS


def resolve_token(admin_token: Optional[str]) -> Optional[str]:
    """The argument, else $LADDERD_ADMIN_TOKEN, else the file that
    $LADDER_ADMIN__TOKEN_FILE names (read as the daemon reads it: surrounding
    whitespace ignored). None: control calls go without a token, which the
    daemon accepts from loopback only."""
    if admin_token:
        return admin_token
    if os.environ.get(TOKEN_ENV):
        return os.environ[TOKEN_ENV].strip()
    path = os.environ.get(TOKEN_FILE_ENV)
    if path:
        try:
            with open(path, encoding="ascii") as f:
                return f.read().strip() or None
        except (OSError, UnicodeDecodeError) as err:
            raise ValueError(f"${TOKEN_FILE_ENV} names {path}, which holds no readable token: {err}") from None
    return None


def build_request(rpc: Rpc, request: Optional[Message], fields: Mapping[str, Any]) -> Message:
    if request is not None and fields:
        raise TypeError(f"{rpc.name}: pass a request message or its fields as keyword arguments, not both")
    if request is not None:
        want = rpc.request.DESCRIPTOR.full_name
        if not isinstance(request, Message) or request.DESCRIPTOR.full_name != want:
            raise TypeError(f"{rpc.name}: expected a {want}, got {type(request).__name__}")
        if request.DESCRIPTOR is not rpc.request.DESCRIPTOR:
            # The app's own generated copy of the message: the same wire format.
            request = rpc.request.FromString(request.SerializeToString())
        return request
    try:
        built: Message = rpc.request(**fields)
    except ValueError as err:  # an unknown field name or enum value
        raise TypeError(f"{rpc.name}: {err}") from None
    return built


def with_turn_id(rpc: Rpc, message: Message) -> Message:
    """A Decide without a turn_id, with a fresh one (a UUID) that this
    call's retries reuse. The app's message is left as it was (a copy
    carries the id): a message sent again for the next turn gets a new one."""
    if not isinstance(message, pb.DecideRequest) or message.turn_id:
        return message
    sent = pb.DecideRequest()
    sent.CopyFrom(message)
    sent.turn_id = str(uuid.uuid4())
    return sent


def metadata(
    rpc: Rpc, token: Optional[str], traceparent: Optional[str], extra: Optional[Sequence[Tuple[str, str]]]
) -> Optional[Tuple[Tuple[str, str], ...]]:
    md = list(extra or ())
    if traceparent:
        md.append(("traceparent", traceparent))
    if token and rpc.control:
        md.append(("authorization", f"Bearer {token}"))
    return tuple(md) or None


def error_of(rpc: Rpc, code: grpc.StatusCode, details: Optional[str], deadline: float) -> _errors.LadderError:
    """The exception for a failed attempt. grpc.aio reports its own timeout
    as CANCELLED ("Timeout expired"): past the call's deadline, that is a
    DEADLINE_EXCEEDED like any other."""
    if code is grpc.StatusCode.CANCELLED and time.monotonic() >= deadline - 0.01:
        code = grpc.StatusCode.DEADLINE_EXCEEDED
    return _errors.error_for(rpc.name, code, details or "")


def should_retry(rpc: Rpc, message: Message, err: _errors.LadderError, attempt: int, max_attempts: int) -> bool:
    """Whether to try again: a call safe to repeat (a Decide with its
    turn_id), after UNAVAILABLE or the load-shedding refusal."""
    return (
        rpc.repeatable
        and (not isinstance(message, pb.DecideRequest) or bool(message.turn_id))
        and attempt < max_attempts
        and isinstance(err, (_errors.UnavailableError, _errors.OverloadedError))
    )


def backoff(attempt: int) -> float:
    """The pause before attempt `attempt + 1`: 50 ms doubling, plus up to as
    much again at random (so shed callers do not come back together)."""
    base: float = FIRST_BACKOFF_S * (2 ** (attempt - 1))
    return base * (1 + random.random())
