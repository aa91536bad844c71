"""Runs one case of clients/conformance/cases.json with a client (sync or
async) against a target (the real daemon, or FakeLadderd)."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest
from google.protobuf import json_format

import ladderd
from ladderd import RPCS, AsyncClient, Client, LadderError
from ladderd.testing import FakeLadderd

CASES_FILE = Path(os.environ.get("LADDERD_CONFORMANCE_CASES", Path(__file__).resolve().parents[2] / "conformance" / "cases.json"))
CASES: List[Dict[str, Any]] = json.loads(CASES_FILE.read_text())["cases"]
RUN = uuid.uuid4().hex[:8]
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


@dataclass
class Target:
    kind: str  # "daemon" or "fake"
    address: str
    admin_token: Optional[str] = None
    fake: Optional[FakeLadderd] = None


def expand(value: Any) -> Any:
    """{"$repeat": N, "item": {...}} in a list stands for N items, "{i}" in
    their strings replaced by 0 .. N-1."""
    if isinstance(value, list):
        out: List[Any] = []
        for v in value:
            if isinstance(v, dict) and "$repeat" in v:
                text = json.dumps(v["item"])
                out += [json.loads(text.replace("{i}", str(i))) for i in range(v["$repeat"])]
            else:
                out.append(expand(v))
        return out
    if isinstance(value, dict):
        return {k: expand(v) for k, v in value.items()}
    return value


def request_of(case: Dict[str, Any], turn: Dict[str, Any], prefix: str) -> Any:
    body = expand(copy.deepcopy(turn["request"]))
    if body.get("session_id"):
        body["session_id"] = f"{prefix}-{body['session_id']}"
    return json_format.ParseDict(body, RPCS[case["call"]].request())


def subset_mismatch(want: Any, have: Any, path: str = "") -> Optional[str]:
    if isinstance(want, dict):
        if not isinstance(have, dict):
            return f"{path or 'response'}: {have!r}, expected {want!r}"
        for k, v in want.items():
            m = subset_mismatch(v, have.get(k), f"{path}.{k}" if path else k)
            if m:
                return m
        return None
    return None if want == have else f"{path}: {have!r}, expected {want!r}"


def as_json(message: Any) -> Dict[str, Any]:
    return json_format.MessageToDict(message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)


def check_error(case: Dict[str, Any], err: LadderError) -> None:
    want = case["expect"].get("error")
    assert want is not None, f"{case['name']}: unexpected {err!r}"
    assert type(err).__name__ == want["class"], f"{case['name']}: {type(err).__name__} ({err}), expected {want['class']}"
    assert isinstance(err, getattr(ladderd, want["class"]))
    assert err.code_name == want["code"], f"{case['name']}: {err}"
    if "field" in want:
        assert getattr(err, "field") == want["field"], f"{case['name']}: field of {err}"
    if "message" in want:
        assert err.details == want["message"], f"{case['name']}: {err}"
    if "message_contains" in want:
        assert want["message_contains"] in err.details, f"{case['name']}: {err}"


def script_fake(fake: FakeLadderd, case: Dict[str, Any], turns: List[Dict[str, Any]], requests: List[Any]) -> None:
    """The fake answers each turn what the case expects of the daemon;
    refusals come from the fake's own rules (session_id required, the admin
    token), and a deadline from the delay the case gives the fake."""
    for turn, request in zip(turns, requests):
        expect = turn.get("expect", {})
        delay = case.get("fake", {}).get("delay_ms", 0) / 1000 if turn is case else 0.0
        answer = expect.get("response")
        fake.script(case["call"], answer, delay=delay, when=_equal_to(request))


def _equal_to(want: Any) -> Callable[[Any], bool]:
    return lambda got: bool(as_sent(got, want) == want)


def as_sent(got: Any, sent: Any) -> Any:
    """The request `got` as the case wrote it: without the turn_id the
    client gives a Decide that has none."""
    if getattr(sent, "turn_id", None) == "" and getattr(got, "turn_id", ""):
        bare = type(got)()
        bare.CopyFrom(got)
        bare.turn_id = ""
        return bare
    return got


class LosingProxy:
    """A TCP proxy in front of a target that loses one answer: once armed,
    the first response it sees (an HTTP/2 HEADERS frame on a stream: the
    target has read the request and answered) is not passed on, and both
    connections are cut, as a network that fails after the request
    arrived. Everything else goes through unchanged."""

    def __init__(self, upstream: str) -> None:
        host, _, port = upstream.rpartition(":")
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.armed = threading.Event()
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            threading.Thread(target=self._up, args=(client, server), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client), daemon=True).start()

    @staticmethod
    def _up(client: socket.socket, server: socket.socket) -> None:
        try:
            while data := client.recv(65536):
                server.sendall(data)
        except OSError:
            pass
        finally:
            LosingProxy._close(client, server)

    def _down(self, server: socket.socket, client: socket.socket) -> None:
        try:
            while True:
                head = self._exactly(server, 9)
                payload = self._exactly(server, int.from_bytes(head[:3], "big"))
                stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
                if head[3] == 1 and stream and self.armed.is_set():
                    self.armed.clear()
                    self.cuts += 1
                    return
                client.sendall(head + payload)
        except OSError:
            pass
        finally:
            LosingProxy._close(client, server)

    @staticmethod
    def _exactly(s: socket.socket, n: int) -> bytes:
        out = b""
        while len(out) < n:
            chunk = s.recv(n - len(out))
            if not chunk:
                raise OSError("closed")
            out += chunk
        return out

    @staticmethod
    def _close(*socks: socket.socket) -> None:
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


def run_case(case: Dict[str, Any], target: Target, flavor: str, monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = f"py-{RUN}-{target.kind}-{flavor}"
    turns = case.get("before", []) + [case]
    requests = [request_of(case, t, prefix) for t in turns]
    for var in ("LADDERD_ADMIN_TOKEN", "LADDER_ADMIN__TOKEN_FILE", "LADDERD_ADDRESS"):
        monkeypatch.delenv(var, raising=False)
    if case.get("admin_token") == "environment":
        assert target.admin_token, "the target has no admin token"
        monkeypatch.setenv("LADDERD_ADMIN_TOKEN", target.admin_token)
    if target.fake is not None:
        script_fake(target.fake, case, turns, requests)
        seen_before = len(target.fake.calls)
    timeout = case["timeout_ms"] / 1000 if "timeout_ms" in case else ladderd.DEFAULT_TIMEOUT_S
    # The case's own call loses its first answer on the way back.
    proxy = LosingProxy(target.address) if case.get("lose_first_answer") else None
    address = proxy.address if proxy else target.address
    attempts = case.get("max_attempts", ladderd.DEFAULT_MAX_ATTEMPTS)

    def arm(i: int) -> None:
        if proxy is not None and turns[i] is case:
            proxy.armed.set()

    async def call_async() -> List[Any]:
        out = []
        async with AsyncClient(address, max_attempts=attempts) as client:
            for i, r in enumerate(requests):
                arm(i)
                out.append(await _one(getattr(client, case["call"])(r, timeout=timeout, traceparent=TRACEPARENT)))
            return out

    def call_sync() -> List[Any]:
        out = []
        with Client(address, max_attempts=attempts) as client:
            for i, r in enumerate(requests):
                arm(i)
                out.append(_sync_one(lambda r=r: getattr(client, case["call"])(r, timeout=timeout, traceparent=TRACEPARENT)))
            return out

    try:
        results = asyncio.run(call_async()) if flavor == "async" else call_sync()
    finally:
        if proxy is not None:
            proxy.close()
    if proxy is not None:
        assert proxy.cuts == 1, f"{case['name']}: the answer was not lost ({proxy.cuts} cuts)"

    for turn, result in zip(turns, results):
        expect = turn.get("expect", {})
        if isinstance(result, LadderError):
            if turn is case:
                check_error(case, result)
            else:
                pytest.fail(f"{case['name']}: a turn before failed: {result}")
            continue
        assert "error" not in expect, f"{case['name']}: succeeded, expected {expect['error']}"
        want = expect.get("response", {})
        if case.get("pending_on_daemon") and turn is case and target.kind == "daemon":
            if not result.HasField("follow_up"):
                pytest.xfail(case["pending_on_daemon"])
            assert subset_mismatch(want, as_json(result)) is not None, (
                f"{case['name']} passes against the daemon now: delete its pending_on_daemon line in {CASES_FILE.name}"
            )
        mismatch = subset_mismatch(want, as_json(result))
        assert mismatch is None, f"{case['name']}: {mismatch}\n{as_json(result)}"

    if "turn_count" in case["expect"]:
        with Client(target.address, admin_token=target.admin_token) as client:
            state = client.get_session(session_id=requests[-1].session_id)
        assert state.turn_count == case["expect"]["turn_count"], f"{case['name']}: the session advanced {state.turn_count} turns"

    if target.fake is not None:
        got = target.fake.calls[seen_before:]
        if "turn_count" in case["expect"]:
            got = [c for c in got if c.method == case["call"]]
        sent = requests + [requests[-1]] * (len(got) - len(requests))
        assert [as_sent(c.request, r) for c, r in zip(got, sent)] == sent[: len(got)], f"{case['name']}: the fake got other requests than were sent"
        if case["call"] == "decide":
            ids = [c.request.turn_id for c in got]
            assert all(ids), f"{case['name']}: a Decide went without a turn_id"
            assert len(set(ids[: len(turns)])) == min(len(ids), len(turns)), f"{case['name']}: two calls shared a turn_id: {ids}"
            assert all(i == ids[len(turns) - 1] for i in ids[len(turns) :]), f"{case['name']}: a retry with another turn_id: {ids}"
        assert all(c.metadata.get("traceparent") == TRACEPARENT for c in got), f"{case['name']}: traceparent not passed"
        # At most: a request the client gave up on while sending may never reach the fake.
        if "attempts" in case["expect"]:
            assert len(got) <= len(turns) - 1 + case["expect"]["attempts"], f"{case['name']}: {len(got)} calls"


async def _one(awaitable: Any) -> Any:
    try:
        return await awaitable
    except LadderError as err:
        return err


def _sync_one(call: Any) -> Any:
    try:
        return call()
    except LadderError as err:
        return err
