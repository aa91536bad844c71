"""The client's own rules, against FakeLadderd: retries, timeouts, the
admin token, traceparent, readiness, and the call surface."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Iterator, get_type_hints

import grpc
import pytest

import ladderd
from ladderd import (
    AsyncClient,
    Client,
    DeadlineExceededError,
    InvalidArgumentError,
    LimitExceededError,
    NotFoundError,
    OverloadedError,
    UnavailableError,
)
from ladderd import pb
from ladderd._fields import BY_CALL
from ladderd.testing import FakeLadderd, Refusal

SHED = Refusal("RESOURCE_EXHAUSTED", "ladderd is at its limit of 64 requests in flight (server.max_concurrent_requests); retry with backoff")
DOWN = Refusal("UNAVAILABLE", "the session store did not answer; retry")
EXECUTE = {"outcome": "OUTCOME_EXECUTE", "target_id": "a"}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLadderd]:
    for var in ("LADDERD_ADMIN_TOKEN", "LADDER_ADMIN__TOKEN_FILE", "LADDERD_ADDRESS"):
        monkeypatch.delenv(var, raising=False)
    with FakeLadderd() as f:
        yield f


@pytest.mark.parametrize("refusal", [SHED, DOWN], ids=["overloaded", "unavailable"])
def test_a_call_safe_to_repeat_is_retried_after_overload_or_unavailable(fake: FakeLadderd, refusal: Refusal) -> None:
    fake.script("decide", refusal, times=2)
    fake.script("decide", EXECUTE)
    with Client(fake.address) as client:
        assert client.decide(session_id="s", input="a").target_id == "a"
    assert len(fake.requests("decide")) == 3


def test_retries_stop_after_max_attempts_with_the_last_error(fake: FakeLadderd) -> None:
    fake.script("get_rollout", SHED, times=None)
    with Client(fake.address, max_attempts=2) as client, pytest.raises(OverloadedError):
        client.get_rollout()
    assert len(fake.requests("get_rollout")) == 2


@pytest.mark.parametrize("method", ["enrich", "record_outcome"])
def test_enrich_and_record_outcome_are_never_repeated(fake: FakeLadderd, method: str) -> None:
    fake.script(method, DOWN)
    with Client(fake.address) as client, pytest.raises(UnavailableError):
        getattr(client, method)(session_id="s")
    assert len(fake.requests(method)) == 1


@pytest.mark.parametrize(
    "refusal, error",
    [
        (Refusal("RESOURCE_EXHAUSTED", "input: 4097 bytes is over the limit of 4096"), LimitExceededError),
        (Refusal("INVALID_ARGUMENT", "options.candidates.id: required"), InvalidArgumentError),
        (Refusal("NOT_FOUND", 'session "s" not found (expired or never seen)'), NotFoundError),
    ],
)
def test_other_refusals_are_not_retried_and_name_their_field(fake: FakeLadderd, refusal: Refusal, error: type) -> None:
    fake.script("decide", refusal)
    with Client(fake.address) as client, pytest.raises(error) as raised:
        client.decide(session_id="s")
    assert len(fake.requests("decide")) == 1
    if isinstance(raised.value, (LimitExceededError, InvalidArgumentError)):
        assert raised.value.field == refusal.message.split(":")[0]


def test_the_timeout_covers_the_retries(fake: FakeLadderd) -> None:
    fake.script("decide", DOWN, delay=0.15, times=None)
    started = time.monotonic()
    with Client(fake.address, timeout=0.25, max_attempts=10) as client, pytest.raises((UnavailableError, DeadlineExceededError)):
        client.decide(session_id="s")
    assert time.monotonic() - started < 0.6
    assert len(fake.requests("decide")) <= 2


def test_a_deadline_is_never_retried(fake: FakeLadderd) -> None:
    fake.script("decide", EXECUTE, delay=0.3)
    with Client(fake.address, timeout=0.05) as client, pytest.raises(DeadlineExceededError):
        client.decide(session_id="s")
    time.sleep(0.3)
    assert len(fake.requests("decide")) == 1


def test_the_default_timeout_is_finite_and_above_the_llm_timeout() -> None:
    assert 0.8 < ladderd.DEFAULT_TIMEOUT_S < 5
    with pytest.raises(ValueError):
        Client(timeout=0)


def test_the_admin_token_goes_with_control_calls_only(fake: FakeLadderd) -> None:
    with Client(fake.address, admin_token="t0ken-0123456789") as client:
        client.decide(session_id="s", input="hi")
        client.get_session(session_id="s")
    (decide,) = [c for c in fake.calls if c.method == "decide"]
    (get,) = [c for c in fake.calls if c.method == "get_session"]
    assert "authorization" not in decide.metadata
    assert get.metadata["authorization"] == "Bearer t0ken-0123456789"


def test_the_admin_token_is_read_from_the_daemons_token_file_variable(
    fake: FakeLadderd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "admin-token").write_text("  from-the-file-0123456789\n")
    monkeypatch.setenv("LADDER_ADMIN__TOKEN_FILE", str(tmp_path / "admin-token"))
    with Client(fake.address) as client:
        client.reset_rollout(note="checked")
    assert fake.calls[-1].metadata["authorization"] == "Bearer from-the-file-0123456789"


def test_traceparent_and_extra_metadata_are_passed_through(fake: FakeLadderd) -> None:
    tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    with Client(fake.address) as client:
        client.clarify(session_id="s", traceparent=tp, metadata=[("x-app", "1")])
    assert fake.calls[-1].metadata["traceparent"] == tp
    assert fake.calls[-1].metadata["x-app"] == "1"


def test_fields_as_keywords_build_the_same_request_as_a_message(fake: FakeLadderd) -> None:
    options = {"option_set_id": "o", "asked": "ASKED_CONFIRMATION", "candidates": [{"id": "a", "label": "A", "risk": "RISK_HIGH"}]}
    with Client(fake.address) as client:
        client.decide(session_id="s", input="yes", options=options)
        client.decide(pb.DecideRequest(session_id="s", input="yes", options=pb.OptionSet(**options)))  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            client.decide(pb.DecideRequest(session_id="s"), input="yes")
        with pytest.raises(TypeError):
            client.decide(session_id="s", not_a_field=1)  # type: ignore[call-arg]
    first, second = fake.requests("decide")
    # Each its own turn_id (the client's), else the same request.
    assert first.turn_id != second.turn_id
    first.turn_id = second.turn_id = ""
    assert first == second and first.options.candidates[0].risk == pb.RISK_HIGH


def test_a_decide_gets_a_turn_id_of_its_own_that_its_retries_reuse(fake: FakeLadderd) -> None:
    fake.script("decide", DOWN)
    fake.script("decide", EXECUTE)
    request = pb.DecideRequest(session_id="s", input="a")
    with Client(fake.address) as client:
        client.decide(request)
        client.decide(request)
        client.decide(session_id="s", turn_id="the-apps-own", input="a")
    ids = [r.turn_id for r in fake.requests("decide")]
    assert ids[0] and ids[1] == ids[0], "the retry reuses the call's turn_id"
    assert ids[2] not in ("", ids[0]), "the next call gets another"
    assert ids[3] == "the-apps-own"
    assert request.turn_id == "", "the app's message is left as it was"


def test_the_fake_answers_a_repeated_turn_as_it_did_and_counts_it_once(fake: FakeLadderd) -> None:
    fake.script("decide", EXECUTE)
    with Client(fake.address) as client:
        first = client.decide(session_id="s", turn_id="t1", input="a")
        again = client.decide(session_id="s", turn_id="t1", input="a")
        other = client.decide(session_id="s", turn_id="t1", input="b")
        assert (again, other.outcome) == (first, pb.OUTCOME_ESCAPE), "another input: a new turn, answered by default"
        assert client.get_session(session_id="s").turn_count == 2


def test_wait_until_ready_waits_for_serving_not_for_an_open_port(fake: FakeLadderd) -> None:
    fake.set_serving(False)
    with Client(fake.address) as client:
        # Long enough for a probe's answer however slow the first connection
        # (each probe waits 0.5 s at most, then the next one goes).
        with pytest.raises(UnavailableError, match="NOT_SERVING"):
            client.wait_until_ready(timeout=1.5)
        fake.set_serving(True)
        client.wait_until_ready(timeout=2)


def test_wait_until_ready_gives_up_on_an_address_nobody_serves() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with Client(f"127.0.0.1:{port}") as client, pytest.raises(UnavailableError, match="not serving after"):
        client.wait_until_ready(timeout=0.5)
    assert time.monotonic() - started < 2


def test_wait_until_ready_sees_a_daemon_that_starts_late() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    late = FakeLadderd(port=port)

    async def scenario() -> None:
        async with AsyncClient(f"127.0.0.1:{port}") as client:
            waiting = asyncio.ensure_future(client.wait_until_ready(timeout=5))
            await asyncio.sleep(0.3)
            assert not waiting.done()
            late.start()
            try:
                await waiting
            finally:
                late.stop()

    asyncio.run(scenario())


def test_an_async_client_made_outside_a_loop_works_inside_one(fake: FakeLadderd) -> None:
    client = AsyncClient(fake.address)

    async def use() -> str:
        try:
            return (await client.decide(session_id="s", input="x", options={"candidates": [{"id": "x", "label": "X"}]})).clarifier.option_ids[0]
        finally:
            await client.close()

    assert asyncio.run(use()) == "x"


def test_every_rpc_has_a_method_on_both_clients_with_the_requests_fields_as_keywords() -> None:
    service = pb.DESCRIPTOR.services_by_name["Arbiter"]
    assert sorted(rpc.name for rpc in ladderd.RPCS.values()) == sorted(m.name for m in service.methods)
    for attr, rpc in ladderd.RPCS.items():
        method = service.methods_by_name[rpc.name]
        assert rpc.request.DESCRIPTOR is method.input_type and rpc.response.DESCRIPTOR is method.output_type
        assert set(get_type_hints(BY_CALL[attr])) == {f.name for f in method.input_type.fields}, attr
        assert not {"timeout", "traceparent", "metadata"} & set(BY_CALL[attr].__annotations__)
        assert callable(getattr(Client, attr)) and asyncio.iscoroutinefunction(getattr(AsyncClient, attr))


def test_errors_map_from_status_codes() -> None:
    from ladderd._errors import error_for

    assert isinstance(error_for("Decide", grpc.StatusCode.RESOURCE_EXHAUSTED, SHED.message), OverloadedError)
    assert isinstance(error_for("Decide", grpc.StatusCode.RESOURCE_EXHAUSTED, "widget_items: 9 items is over the limit of 5"), LimitExceededError)
    assert type(error_for("Decide", grpc.StatusCode.UNIMPLEMENTED, "")) is ladderd.LadderError


def test_the_generated_code_is_not_in_protobufs_default_pool() -> None:
    from google.protobuf import descriptor_pool

    with pytest.raises(KeyError):
        descriptor_pool.Default().FindMessageTypeByName("ladder.v1.Decision")


def test_the_installed_version_is_the_packages() -> None:
    assert ladderd.__version__ != "unknown"


def test_a_token_file_that_cannot_be_read_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LADDERD_ADMIN_TOKEN", raising=False)
    monkeypatch.setenv("LADDER_ADMIN__TOKEN_FILE", str(tmp_path / "missing"))
    with pytest.raises(ValueError, match=r"\$LADDER_ADMIN__TOKEN_FILE names .*missing"):
        Client("127.0.0.1:1")
