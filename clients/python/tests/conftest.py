"""Fixtures: the real daemon and the fake. The daemon is the one at
$LADDERD_ADDRESS when it is set (a daemon you already run: the suite starts
none, and writes nothing), else the binary $LADDERD_BIN, started here.
Without either the daemon's cases are skipped; the control calls refused
without the token need the suite's own daemon on an address of this host
that is not loopback ($LADDERD_BIN and $LADDERD_TEST_OFF_LOOPBACK_HOST),
and are skipped otherwise. With $LADDERD_CONFORMANCE_STRICT=1 (cargo test
sets it) a skip is a failure."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Iterator, Optional

import pytest

from ladderd.testing import FakeLadderd

STRICT = os.environ.get("LADDERD_CONFORMANCE_STRICT") == "1"


def unavailable(why: str) -> None:
    if STRICT:
        pytest.fail(f"{why} (LADDERD_CONFORMANCE_STRICT=1: nothing may be skipped)")
    pytest.skip(why)


class Daemon:
    """The ladderd binary on `host`:0, its address read from its log."""

    process: Optional["subprocess.Popen[str]"]
    log: "list[str]"
    address: str

    @classmethod
    def running_at(cls, address: str) -> "Daemon":
        """A daemon someone else runs: nothing to start or stop."""
        d = cls.__new__(cls)
        d.process, d.log, d.address = None, [], address
        return d

    def __init__(self, binary: str, host: str, token_file: Optional[Path]) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LADDER")}
        env.update(LADDER_LISTEN=f"{host}:0", LADDER_TELEMETRY__LOG_FORMAT="json")
        if token_file is not None:
            env["LADDER_ADMIN__TOKEN_FILE"] = str(token_file)
        process = subprocess.Popen([binary], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.process = process
        self.log = []
        found = threading.Event()
        self.address = ""

        def read() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                self.log.append(line)
                if not found.is_set():
                    try:
                        fields = json.loads(line).get("fields", {})
                    except ValueError:
                        continue
                    if fields.get("message") == "serving":
                        self.address = fields["addr"]
                        found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(20):
            self.stop()
            raise RuntimeError(f"{binary} did not log its serving address:\n{''.join(self.log)}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="session")
def daemon() -> Iterator[Daemon]:
    running = os.environ.get("LADDERD_ADDRESS")
    if running:
        yield Daemon.running_at(running)
        return
    binary = os.environ.get("LADDERD_BIN")
    if not binary:
        unavailable(
            "neither LADDERD_ADDRESS (a daemon you run) nor LADDERD_BIN (the binary, started here: cargo build, "
            "then target/debug/ladderd) is set"
        )
    d = Daemon(str(binary), "127.0.0.1", None)
    yield d
    d.stop()


@pytest.fixture(scope="session")
def admin_token() -> str:
    return secrets.token_hex(16)


@pytest.fixture(scope="session")
def daemon_off_loopback(admin_token: str) -> Iterator[Daemon]:
    binary = os.environ.get("LADDERD_BIN")
    host = os.environ.get("LADDERD_TEST_OFF_LOOPBACK_HOST")
    if not binary or not host:
        unavailable(
            "a control call refused without the token needs the suite's own daemon (LADDERD_BIN) on an address of this host "
            "that is not loopback (LADDERD_TEST_OFF_LOOPBACK_HOST); cargo test runs the suite in a network namespace that has one"
        )
    with tempfile.TemporaryDirectory() as tmp:
        token_file = Path(tmp) / "admin-token"
        token_file.write_text(admin_token + "\n")
        d = Daemon(str(binary), str(host), token_file)
        yield d
        d.stop()


@pytest.fixture(scope="session")
def fake() -> Iterator[FakeLadderd]:
    with FakeLadderd() as f:
        yield f


@pytest.fixture(scope="session")
def fake_off_loopback(admin_token: str) -> Iterator[FakeLadderd]:
    with FakeLadderd(admin_token=admin_token) as f:
        yield f
