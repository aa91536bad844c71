"""A stand-in for ladderd in an app's own tests: FakeLadderd.

It is a real gRPC server in the test's process (port 0 on 127.0.0.1), so the
app's code under test uses the real Client or AsyncClient against
`fake.address`. It records every call (`fake.calls`, `fake.requests("decide")`)
and answers what the test scripted, else a safe default: Decide and Enrich
answer a clarifier over every candidate they were sent (an escape
`no_active_context` when there are none), like the daemon when its rules
cannot settle a turn.

    with FakeLadderd() as fake, Client(fake.address) as ladder:
        fake.script("decide", {"outcome": "OUTCOME_EXECUTE", "target_id": "links-panel-d"})
        app.handle_turn(ladder, "open links panel d")
        assert fake.requests("decide")[0].input == "open links panel d"

It keeps the daemon's rules an app's code can trip over: `session_id` is
required where the daemon requires it (INVALID_ARGUMENT "session_id:
required"), a Decide with the session's last `turn_id` and input gets that
turn's answer again (a retry after a lost answer: nothing is scripted or
counted again), health says SERVING (or what `set_serving` says), and with
`admin_token` set it refuses the control calls without that token, as a
daemon does for a caller off loopback. It decides nothing: script what your
test needs.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from ladderd._calls import HEALTH_SERVICE, RPCS, SERVICE
from ladderd._proto.grpc.health.v1 import health_pb2
from ladderd._proto.ladder.v1 import ladder_pb2 as pb

__all__ = ["Call", "FakeLadderd", "Refusal"]

# The calls whose requests the daemon refuses without a session_id.
_SESSION_REQUIRED = {"decide", "enrich", "record_outcome", "get_session", "reset_session"}


@dataclass(frozen=True)
class Refusal:
    """A scripted error: `code` a grpc.StatusCode or its name, `message` the
    daemon's words ("session_id: required", "... retry with backoff")."""

    code: Union[grpc.StatusCode, str]
    message: str = ""

    @property
    def status(self) -> grpc.StatusCode:
        return self.code if isinstance(self.code, grpc.StatusCode) else grpc.StatusCode[self.code]


@dataclass(frozen=True)
class Call:
    """One call the fake received: the method ("decide"), the request
    message and the call's metadata (lower-case keys)."""

    method: str
    request: Any
    metadata: Mapping[str, str]


Answer = Union[Message, Mapping[str, Any], Refusal, Callable[[Any], Union[Message, Mapping[str, Any], Refusal]]]


@dataclass
class _Scripted:
    answer: Optional[Answer]
    delay: float
    when: Optional[Callable[[Any], bool]]
    times: Optional[int]


@dataclass
class _Session:
    turns: int = 0
    accepted: List[str] = field(default_factory=list)
    rejected: List[str] = field(default_factory=list)


class FakeLadderd:
    """An in-process gRPC server that answers as scripted and records calls.

    `admin_token`: when set, the control calls (RecordOutcome, GetSession,
    ResetSession, ResetRollout) are refused PERMISSION_DENIED unless they
    carry `authorization: Bearer <admin_token>`, as the daemon refuses a
    caller off loopback; when None, every call is served, as on loopback.
    `port` 0 (the default) takes a free one; `address` says which.
    """

    def __init__(self, *, admin_token: Optional[str] = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self._admin_token = admin_token
        self._host = host
        self._port = port
        self._lock = threading.Lock()
        self._scripts: Dict[str, List[_Scripted]] = {name: [] for name in RPCS}
        self._sessions: Dict[str, _Session] = {}
        # Each session's last Decide with a turn_id: (turn_id, input) and its answer.
        self._last_turns: Dict[str, Tuple[Tuple[str, str], Message]] = {}
        self._serving = True
        self._server: Optional[grpc.Server] = None
        self.calls: List[Call] = []
        self.address = ""

    # ------------------------------------------------------------ running --

    def start(self) -> "FakeLadderd":
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        handlers = {
            rpc.name: grpc.unary_unary_rpc_method_handler(
                self._handler(attr),
                request_deserializer=rpc.request.FromString,
                response_serializer=rpc.response.SerializeToString,
            )
            for attr, rpc in RPCS.items()
        }
        health = {
            "Check": grpc.unary_unary_rpc_method_handler(
                self._health,
                request_deserializer=health_pb2.HealthCheckRequest.FromString,
                response_serializer=health_pb2.HealthCheckResponse.SerializeToString,
            )
        }
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE, handlers), grpc.method_handlers_generic_handler(HEALTH_SERVICE, health))
        )
        port = server.add_insecure_port(f"{self._host}:{self._port}")
        server.start()
        self._server = server
        self.address = f"{self._host}:{port}"
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop(grace=None)
            self._server = None

    def __enter__(self) -> "FakeLadderd":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---------------------------------------------------------- scripting --

    def script(
        self,
        method: str,
        answer: Optional[Answer] = None,
        *,
        delay: float = 0.0,
        when: Optional[Callable[[Any], bool]] = None,
        times: Optional[int] = 1,
    ) -> None:
        """The next call of `method` ("decide") that `when` accepts (any, by
        default) gets `answer`: a response message, a mapping of its fields
        in proto JSON ({"outcome": "OUTCOME_EXECUTE", "target_id": "a"}), a
        Refusal, or a function of the request returning one of those; None
        answers the default. `delay` (seconds) passes first, so a delay
        beyond the client's timeout makes a DEADLINE_EXCEEDED. It answers
        `times` calls (None: every one), in the order scripted."""
        if method not in RPCS:
            raise ValueError(f"unknown method {method!r}: one of {', '.join(RPCS)}")
        with self._lock:
            self._scripts[method].append(_Scripted(answer, delay, when, times))

    def set_serving(self, serving: bool) -> None:
        """What the health service answers: SERVING, or NOT_SERVING (as a
        daemon that is starting or draining)."""
        self._serving = serving

    def requests(self, method: str) -> List[Any]:
        """The requests `method` received, oldest first."""
        with self._lock:
            return [c.request for c in self.calls if c.method == method]

    # ---------------------------------------------------------- answering --

    def _health(self, request: health_pb2.HealthCheckRequest, context: grpc.ServicerContext) -> health_pb2.HealthCheckResponse:
        if request.service not in ("", SERVICE):
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown service {request.service!r}")
        status = health_pb2.HealthCheckResponse.SERVING if self._serving else health_pb2.HealthCheckResponse.NOT_SERVING
        return health_pb2.HealthCheckResponse(status=status)

    def _handler(self, method: str) -> Callable[[Any, grpc.ServicerContext], Any]:
        rpc = RPCS[method]

        def handle(request: Any, context: grpc.ServicerContext) -> Any:
            md: Dict[str, str] = {k: v for k, v in context.invocation_metadata() if isinstance(v, str)}
            turn = (request.turn_id, request.input) if method == "decide" and request.turn_id else None
            with self._lock:
                self.calls.append(Call(method, request, md))
                if method == "decide" and turn is None:
                    self._last_turns.pop(request.session_id, None)
                last = self._last_turns.get(request.session_id) if turn else None
                if last is not None and last[0] == turn and self._guard(rpc.name, rpc.control, md) is None:
                    return last[1]
                scripted = self._take(method, request)
            refusal = self._guard(rpc.name, rpc.control, md)
            if refusal is None and method in _SESSION_REQUIRED and not request.session_id:
                refusal = Refusal(grpc.StatusCode.INVALID_ARGUMENT, "session_id: required")
            if refusal is not None:
                context.abort(refusal.status, refusal.message)
            if scripted is not None and scripted.delay:
                time.sleep(scripted.delay)
            answer = scripted.answer if scripted is not None else None
            if callable(answer):
                answer = answer(request)
            if answer is None:
                answer = self._default(method, request)
            if isinstance(answer, Refusal):
                context.abort(answer.status, answer.message)
                raise AssertionError("abort raises")
            message = answer if isinstance(answer, Message) else json_format.ParseDict(dict(answer), rpc.response())
            if method == "decide":
                # A turn of the session, whatever answered it (a repeat is not one).
                self._session(request.session_id).turns += 1
            if turn is not None:
                with self._lock:
                    self._last_turns[request.session_id] = (turn, message)
            return message

        return handle

    def _take(self, method: str, request: Any) -> Optional[_Scripted]:
        for s in self._scripts[method]:
            if s.when is None or s.when(request):
                if s.times is not None:
                    s.times -= 1
                    if s.times == 0:
                        self._scripts[method].remove(s)
                return s
        return None

    def _guard(self, name: str, control: bool, md: Mapping[str, str]) -> Optional[Refusal]:
        if not control or self._admin_token is None:
            return None
        presented = md.get("authorization")
        if presented is None:
            return Refusal(
                grpc.StatusCode.PERMISSION_DENIED,
                f"{name} from another host needs the admin token, sent as `authorization: Bearer <token>` (admin.token_file)",
            )
        scheme, _, token = presented.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return Refusal(grpc.StatusCode.PERMISSION_DENIED, f"{name}: the authorization metadata must be `Bearer <token>`")
        if token.strip() != self._admin_token:
            return Refusal(grpc.StatusCode.PERMISSION_DENIED, f"{name}: the admin token does not match (admin.token_file)")
        return None

    def _session(self, session_id: str) -> _Session:
        with self._lock:
            return self._sessions.setdefault(session_id, _Session())

    def _default(self, method: str, request: Any) -> Union[Message, Refusal]:
        if method in ("decide", "enrich"):
            if method == "enrich":
                self._session(request.session_id).turns += 1
            if method == "decide":
                pools: Sequence[Any] = [request.options.candidates, request.recoverable_chat_options, request.widget_items]
            else:
                pools = [block.candidates for block in request.evidence]
            ids = list(dict.fromkeys(c.id for pool in pools for c in pool))
            if not ids:
                return pb.Decision(
                    decision_id=str(uuid.uuid4()),
                    outcome=pb.OUTCOME_ESCAPE,
                    escape_reason="no_active_context",
                    decided_by=pb.DECIDER_DETERMINISTIC,
                    handled_by_tier="exclusions",
                )
            return pb.Decision(
                decision_id=str(uuid.uuid4()),
                outcome=pb.OUTCOME_CLARIFY,
                decided_by=pb.DECIDER_DETERMINISTIC,
                confidence=pb.CONFIDENCE_BUCKET_LOW_CONFIDENCE_CLARIFIER_ONLY,
                handled_by_tier="fallback",
                loop_cycle_id=str(uuid.uuid4()),
                clarifier=pb.Clarifier(question="Which one did you mean?", option_ids=ids, kind="selection_disambiguation"),
            )
        if method == "clarify":
            return pb.ClarifyResponse(suggested_action="NONE", source="fallback", language=request.ui_language or "en")
        if method == "extract":
            return pb.ExtractResponse(decided_by="baseline")
        if method == "record_outcome":
            with self._lock:
                held = self._sessions.get(request.session_id)
            if held is None:
                return _not_found(request.session_id)
            if request.kind == pb.OUTCOME_KIND_REJECTED:
                held.rejected.insert(0, request.choice_id)
            elif request.choice_id:
                held.accepted.insert(0, request.choice_id)
            return pb.RecordOutcomeResponse(session=self._state(request.session_id, held))
        if method == "get_session":
            with self._lock:
                known = self._sessions.get(request.session_id)
            return _not_found(request.session_id) if known is None else self._state(request.session_id, known)
        if method == "reset_session":
            with self._lock:
                existed = self._sessions.pop(request.session_id, None) is not None
                self._last_turns.pop(request.session_id, None)
            return pb.ResetSessionResponse(existed=existed)
        return pb.RolloutState(config_revision="fake", llm_mode="off")

    @staticmethod
    def _state(session_id: str, s: _Session) -> pb.SessionState:
        return pb.SessionState(
            session_id=session_id,
            turn_count=s.turns,
            last_accepted_choice_id=s.accepted[0] if s.accepted else "",
            recent_accepted_choice_ids=s.accepted[:5],
            recent_rejected_choice_ids=s.rejected[:5],
            continuity_fresh=True,
        )


def _not_found(session_id: str) -> Refusal:
    return Refusal(grpc.StatusCode.NOT_FOUND, f"session {json.dumps(session_id)} not found (expired or never seen)")
