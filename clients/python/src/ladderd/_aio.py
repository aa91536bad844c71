"""The asyncio client (grpc.aio): one channel, made in the running loop on
first use and reused for every call."""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

import grpc
import grpc.aio
from google.protobuf.message import Message

from ladderd import _calls, _fields
from ladderd._client import CHANNEL_OPTIONS
from ladderd._errors import UnavailableError
from ladderd._proto.grpc.health.v1 import health_pb2
from ladderd._proto.ladder.v1 import ladder_pb2 as pb

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:
        from typing_extensions import Unpack


class AsyncClient:
    """ladderd's asyncio client, with Client's options and methods, awaited.

    It may be built outside a loop (at import, in a constructor); its channel
    is made in the loop that makes the first call, and is bound to it: use
    the client from that loop only, and `await client.close()` (or
    `async with`) before the loop ends.
    """

    def __init__(
        self,
        address: Optional[str] = None,
        *,
        timeout: float = _calls.DEFAULT_TIMEOUT_S,
        max_attempts: int = _calls.DEFAULT_MAX_ATTEMPTS,
        admin_token: Optional[str] = None,
        channel_options: Sequence[Tuple[str, Any]] = (),
    ) -> None:
        if not timeout > 0:
            raise ValueError("timeout must be a positive number of seconds: a call without one can wait forever")
        if max_attempts < 1:
            raise ValueError("max_attempts counts the first try: at least 1")
        self.address = _calls.resolve_address(address)
        self._timeout = timeout
        self._max_attempts = max_attempts
        self._token = _calls.resolve_token(admin_token)
        self._options = [*CHANNEL_OPTIONS, *channel_options]
        self._channel: Optional[grpc.aio.Channel] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stubs: Dict[str, Callable[..., Any]] = {}

    async def __aenter__(self) -> "AsyncClient":
        self._connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._channel is not None:
            channel, self._channel, self._loop, self._stubs = self._channel, None, None, {}
            await channel.close()

    def _connect(self) -> Dict[str, Callable[..., Any]]:
        loop = asyncio.get_running_loop()
        if self._channel is None:
            self._channel = grpc.aio.insecure_channel(self.address, options=self._options)
            self._loop = loop
            self._stubs = {
                attr: self._channel.unary_unary(
                    f"/{_calls.SERVICE}/{rpc.name}",
                    request_serializer=rpc.request.SerializeToString,
                    response_deserializer=rpc.response.FromString,
                )
                for attr, rpc in _calls.RPCS.items()
            }
            self._stubs["health"] = self._channel.unary_unary(
                f"/{_calls.HEALTH_SERVICE}/Check",
                request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
                response_deserializer=health_pb2.HealthCheckResponse.FromString,
            )
        elif self._loop is not loop:
            raise RuntimeError("this AsyncClient's channel belongs to another event loop: make one client per loop")
        return self._stubs

    async def wait_until_ready(self, timeout: float = 5.0) -> None:
        """Returns once the daemon's health service says ladder.v1.Arbiter is
        SERVING; raises UnavailableError after `timeout` seconds."""
        health = self._connect()["health"]
        deadline = time.monotonic() + timeout
        last = "no answer"
        pause = 0.05
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise UnavailableError("Health/Check", grpc.StatusCode.UNAVAILABLE, f"ladderd at {self.address} is not serving after {timeout} s ({last})")
            try:
                answer = await health(health_pb2.HealthCheckRequest(service=_calls.SERVICE), timeout=min(remaining, _calls.PROBE_TIMEOUT_S))
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return
                last = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
            except grpc.aio.AioRpcError as err:
                last = f"{err.code().name}: {err.details()}"
            await asyncio.sleep(min(pause, max(deadline - time.monotonic(), 0)))
            pause = min(pause * 2, 0.5)

    async def decide(
        self,
        request: Optional[pb.DecideRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.DecideFields],
    ) -> pb.Decision:
        """The user said `input` while these candidates are in play: execute which one, ask what, or hand back?"""
        response: pb.Decision = await self._call("decide", request, fields, timeout, traceparent, metadata)
        return response

    async def enrich(
        self,
        request: Optional[pb.EnrichRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.EnrichFields],
    ) -> pb.Decision:
        """The evidence a NEED_MORE_INFO decision asked for; a new decision. Never retried."""
        response: pb.Decision = await self._call("enrich", request, fields, timeout, traceparent, metadata)
        return response

    async def clarify(
        self,
        request: Optional[pb.ClarifyRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.ClarifyFields],
    ) -> pb.ClarifyResponse:
        """A safe, short assistant message in the user's language."""
        response: pb.ClarifyResponse = await self._call("clarify", request, fields, timeout, traceparent, metadata)
        return response

    async def extract(
        self,
        request: Optional[pb.ExtractRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.ExtractFields],
    ) -> pb.ExtractResponse:
        """Slots (entities) and an optional normalized text."""
        response: pb.ExtractResponse = await self._call("extract", request, fields, timeout, traceparent, metadata)
        return response

    async def record_outcome(
        self,
        request: Optional[pb.RecordOutcomeRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.RecordOutcomeFields],
    ) -> pb.RecordOutcomeResponse:
        """What happened after a decision (a control call). Never retried."""
        response: pb.RecordOutcomeResponse = await self._call("record_outcome", request, fields, timeout, traceparent, metadata)
        return response

    async def get_session(
        self,
        request: Optional[pb.GetSessionRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.GetSessionFields],
    ) -> pb.SessionState:
        """A session's continuity state (a control call)."""
        response: pb.SessionState = await self._call("get_session", request, fields, timeout, traceparent, metadata)
        return response

    async def reset_session(
        self,
        request: Optional[pb.ResetSessionRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.ResetSessionFields],
    ) -> pb.ResetSessionResponse:
        """Clears a session's state and held option sets (a control call)."""
        response: pb.ResetSessionResponse = await self._call("reset_session", request, fields, timeout, traceparent, metadata)
        return response

    async def get_rollout(
        self,
        request: Optional[pb.GetRolloutRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.GetRolloutFields],
    ) -> pb.RolloutState:
        """The active config revision, the kill switch and the guardrail figures."""
        response: pb.RolloutState = await self._call("get_rollout", request, fields, timeout, traceparent, metadata)
        return response

    async def reset_rollout(
        self,
        request: Optional[pb.ResetRolloutRequest] = None,
        /,
        *,
        timeout: Optional[float] = None,
        traceparent: Optional[str] = None,
        metadata: Optional[Sequence[Tuple[str, str]]] = None,
        **fields: Unpack[_fields.ResetRolloutFields],
    ) -> pb.RolloutState:
        """Re-enables auto-execute after the guardrails tripped it (a control call)."""
        response: pb.RolloutState = await self._call("reset_rollout", request, fields, timeout, traceparent, metadata)
        return response

    async def _call(
        self,
        attr: str,
        request: Optional[Message],
        fields: Mapping[str, Any],
        timeout: Optional[float],
        traceparent: Optional[str],
        extra: Optional[Sequence[Tuple[str, str]]],
    ) -> Any:
        stubs = self._connect()
        rpc = _calls.RPCS[attr]
        message = _calls.with_turn_id(rpc, _calls.build_request(rpc, request, fields))
        md = _calls.metadata(rpc, self._token, traceparent, extra)
        budget = self._timeout if timeout is None else timeout
        deadline = time.monotonic() + budget
        attempt = 0
        while True:
            attempt += 1
            try:
                return await stubs[attr](message, timeout=max(deadline - time.monotonic(), 0.0), metadata=md)
            except grpc.aio.AioRpcError as raw:
                err = _calls.error_of(rpc, raw.code(), raw.details(), deadline)
            if not _calls.should_retry(rpc, message, err, attempt, self._max_attempts):
                raise err
            pause = _calls.backoff(attempt)
            if time.monotonic() + pause >= deadline:
                raise err
            await asyncio.sleep(pause)


__all__ = ["AsyncClient"]
