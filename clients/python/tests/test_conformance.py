"""clients/conformance/cases.json, each case with Client and AsyncClient,
against the real daemon and against FakeLadderd."""

from __future__ import annotations

from typing import Any, Dict

import pytest
from conformance import CASES, Target, run_case


@pytest.mark.parametrize("flavor", ["sync", "async"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_against_the_daemon(case: Dict[str, Any], flavor: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if case.get("off_loopback"):
        d = request.getfixturevalue("daemon_off_loopback")
        target = Target("daemon", d.address, admin_token=request.getfixturevalue("admin_token"))
    else:
        target = Target("daemon", request.getfixturevalue("daemon").address)
    run_case(case, target, flavor, monkeypatch)


@pytest.mark.parametrize("flavor", ["sync", "async"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_against_the_fake(case: Dict[str, Any], flavor: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "fake_off_loopback" if case.get("off_loopback") else "fake"
    fake = request.getfixturevalue(name)
    target = Target("fake", fake.address, admin_token=request.getfixturevalue("admin_token"), fake=fake)
    run_case(case, target, flavor, monkeypatch)
