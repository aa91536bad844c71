"""A tiny client for ladderd (gRPC service ladder.v1.Arbiter).

The stubs are generated from proto/ladder/v1/ladder.proto with grpcio-tools
(nothing generated is committed); put their output directory on PYTHONPATH:

    python -m grpc_tools.protoc -I ../../proto --python_out=gen \
        --pyi_out=gen --grpc_python_out=gen ladder/v1/ladder.proto
    PYTHONPATH=gen python turn_loop.py 127.0.0.1:50151

What the wrapper adds to the generated stub:
  * a deadline on every call, above the daemon's llm.timeout_ms (800 ms by
    default), so the daemon's own fallback clarifier arrives before the
    client gives up;
  * a W3C `traceparent` sent as call metadata when the caller passes one;
  * retries with backoff for the two refusals that are worth retrying
    (UNAVAILABLE, and RESOURCE_EXHAUSTED when the daemon is at its
    concurrency limit), and one exception type, LadderError, carrying the
    status code for everything else.
"""

from __future__ import annotations

import random
import secrets
import time
from typing import Optional, Sequence, Tuple

import grpc

try:
    from ladder.v1 import ladder_pb2 as pb
    from ladder.v1 import ladder_pb2_grpc
except ImportError as err:  # pragma: no cover - a setup mistake, not a code path
    raise ImportError(
        "ladder.v1 stubs not found: generate them with "
        "`python -m grpc_tools.protoc -I proto --python_out=gen --pyi_out=gen "
        "--grpc_python_out=gen ladder/v1/ladder.proto` and add gen/ to PYTHONPATH"
    ) from err

__all__ = ["LadderClient", "LadderError", "pb", "new_traceparent", "DEFAULT_DEADLINE_S"]

# Above llm.timeout_ms (800 ms by default): when the LLM rung is slow the
# daemon cancels it and answers with a clarifier; give it the time to do so.
DEFAULT_DEADLINE_S = 1.5

# The daemon's load-shedding refusals (at server.max_concurrent_requests or
# server.request_memory_bytes) end with this; size refusals (also
# RESOURCE_EXHAUSTED) do not and are never retried.
_OVERLOADED_MARKER = "retry with backoff"


class LadderError(Exception):
    """A call that ladderd refused or that did not complete.

    `code` is the grpc.StatusCode; `details` is the daemon's message, which
    names the field and the limit for INVALID_ARGUMENT and RESOURCE_EXHAUSTED.
    """

    def __init__(self, method: str, code: grpc.StatusCode, details: str):
        super().__init__(f"{method}: {code.name}: {details}")
        self.method = method
        self.code = code
        self.details = details


def new_traceparent() -> str:
    """A fresh W3C traceparent (version 00, sampled). In an instrumented app,
    inject the current span's context instead (opentelemetry.propagate)."""
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01"


def _retryable(code: grpc.StatusCode, details: str) -> bool:
    if code is grpc.StatusCode.UNAVAILABLE:
        return True
    return code is grpc.StatusCode.RESOURCE_EXHAUSTED and _OVERLOADED_MARKER in details


class LadderClient:
    """One channel to the daemon; safe to share between threads."""

    def __init__(
        self,
        address: str = "127.0.0.1:50151",
        *,
        deadline_s: float = DEFAULT_DEADLINE_S,
        max_attempts: int = 3,
    ):
        self._channel = grpc.insecure_channel(address)
        self._stub = ladder_pb2_grpc.ArbiterStub(self._channel)
        self._deadline_s = deadline_s
        self._max_attempts = max_attempts

    def __enter__(self) -> "LadderClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def wait_ready(self, timeout_s: float = 5.0) -> None:
        """Blocks until the channel connects (the daemon is up)."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout_s)
        except grpc.FutureTimeoutError:
            raise LadderError("connect", grpc.StatusCode.UNAVAILABLE, f"not up after {timeout_s} s") from None

    # ------------------------------------------------------------ calls --

    def decide(self, request: pb.DecideRequest, *, traceparent: Optional[str] = None) -> pb.Decision:
        return self._call("Decide", request, traceparent)

    def enrich(self, request: pb.EnrichRequest, *, traceparent: Optional[str] = None) -> pb.Decision:
        return self._call("Enrich", request, traceparent)

    def record_outcome(
        self, request: pb.RecordOutcomeRequest, *, traceparent: Optional[str] = None
    ) -> pb.SessionState:
        return self._call("RecordOutcome", request, traceparent).session

    def get_session(self, session_id: str, *, traceparent: Optional[str] = None) -> pb.SessionState:
        return self._call("GetSession", pb.GetSessionRequest(session_id=session_id), traceparent)

    def reset_session(self, session_id: str, *, traceparent: Optional[str] = None) -> bool:
        """Clears the session; returns whether it existed."""
        return self._call("ResetSession", pb.ResetSessionRequest(session_id=session_id), traceparent).existed

    # --------------------------------------------------------- plumbing --

    def _call(self, method: str, request, traceparent: Optional[str]):
        rpc = getattr(self._stub, method)
        metadata: Optional[Sequence[Tuple[str, str]]] = (("traceparent", traceparent),) if traceparent else None
        backoff_s = 0.05
        for attempt in range(1, self._max_attempts + 1):
            try:
                return rpc(request, timeout=self._deadline_s, metadata=metadata)
            except grpc.RpcError as err:
                code, details = err.code(), err.details() or ""
                if attempt < self._max_attempts and _retryable(code, details):
                    time.sleep(backoff_s * (1 + random.random()))
                    backoff_s *= 2
                    continue
                raise LadderError(method, code, details) from None
        raise AssertionError("unreachable")
