"""The turn loop an app server runs once per user turn, walked through one
scenario of each outcome against a running ladderd.

    PYTHONPATH=gen python turn_loop.py 127.0.0.1:50151

Decide -> EXECUTE: act, then RecordOutcome(EXECUTED)
       -> CLARIFY: show the question and options; the user's pick is
          RecordOutcome(ACCEPTED)
       -> ESCAPE: hand the turn to the app's own router (a question, a
          cancel, a command)
       -> NEED_MORE_INFO: Enrich with the evidence asked for, then act on
          the new decision (FAILED_PRECONDITION: the cycle is gone, Decide
          again)
Any error: answer the turn without ladderd (it only advises).

It is also a test driver: it exits 1 if any scenario ends with an outcome
other than the expected one, 2 if the daemon cannot be reached.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import grpc

from ladder_client import DEFAULT_DEADLINE_S, LadderClient, LadderError, new_traceparent, pb

MAX_ENRICH_STEPS = 2


# ------------------------------------------------------------------ app --


@dataclass
class Screen:
    """What the app has in play for this user when the turn arrives."""

    options: Optional[pb.OptionSet] = None
    widget_items: List[pb.Candidate] = field(default_factory=list)
    # Options shown earlier in the chat, which the app can recover if asked.
    older_chat_options: List[pb.Candidate] = field(default_factory=list)


class DemoApp:
    """Stands in for the app server: it prints what it would do."""

    def __init__(self, screen: Screen):
        self.screen = screen
        self.log: List[str] = []

    def execute(self, target_id: str) -> None:
        self.log.append(f"executed {target_id}")

    def ask(self, question: str, option_ids: List[str]) -> Optional[str]:
        self.log.append(f"asked {question!r} {option_ids}")
        return option_ids[0] if option_ids else None  # the simulated user picks the first option

    def route(self, reason: str, text: str) -> None:
        self.log.append(f"routed ({reason})")

    def evidence(self, evidence_type: str) -> Optional[pb.EvidenceBlock]:
        if evidence_type == "chat_recoverable_options" and self.screen.older_chat_options:
            return pb.EvidenceBlock(type=evidence_type, candidates=self.screen.older_chat_options)
        if evidence_type == "active_widget_items" and self.screen.widget_items:
            return pb.EvidenceBlock(type=evidence_type, candidates=self.screen.widget_items)
        return None


# ------------------------------------------------------------ turn loop --


@dataclass
class Turn:
    outcomes: List[str] = field(default_factory=list)
    decision: Optional[pb.Decision] = None
    session: Optional[pb.SessionState] = None
    error: Optional[LadderError] = None


def handle_turn(client: LadderClient, app: DemoApp, session_id: str, text: str) -> Turn:
    turn = Turn()
    turn_id = str(uuid.uuid4())
    # In an instrumented app, forward the incoming request's trace context.
    traceparent = new_traceparent()
    request = pb.DecideRequest(
        session_id=session_id,
        turn_id=turn_id,
        input=text,
        active_scope=pb.ScopeRef(scope=pb.SCOPE_CHAT, instance_id="chat-1"),
        options=app.screen.options,
        widget_items=app.screen.widget_items,
        language="en",
    )
    try:
        decision = client.decide(request, traceparent=traceparent)
        turn.outcomes.append(pb.Outcome.Name(decision.outcome))

        steps = 0
        while decision.outcome == pb.OUTCOME_NEED_MORE_INFO and steps < MAX_ENRICH_STEPS:
            steps += 1
            blocks = [b for t in decision.needed_evidence_types if (b := app.evidence(t)) is not None]
            if not blocks:
                break  # nothing to add: show the decision's clarifier question below
            try:
                decision = client.enrich(
                    pb.EnrichRequest(
                        session_id=session_id, turn_id=turn_id, loop_cycle_id=decision.loop_cycle_id, evidence=blocks
                    ),
                    traceparent=traceparent,
                )
            except LadderError as err:
                if err.code is not grpc.StatusCode.FAILED_PRECONDITION:
                    raise
                # The cycle expired, was replaced or resolved: start the turn over.
                decision = client.decide(request, traceparent=traceparent)
            turn.outcomes.append(pb.Outcome.Name(decision.outcome))
        turn.decision = decision

        if decision.outcome == pb.OUTCOME_EXECUTE:
            app.execute(decision.target_id)
            turn.session = client.record_outcome(
                pb.RecordOutcomeRequest(
                    session_id=session_id,
                    turn_id=turn_id,
                    decision_id=decision.decision_id,
                    kind=pb.OUTCOME_KIND_EXECUTED,
                    choice_id=decision.target_id,
                ),
                traceparent=traceparent,
            )
        elif decision.outcome in (pb.OUTCOME_CLARIFY, pb.OUTCOME_NEED_MORE_INFO):
            # (In a real app the pick arrives with the user's next message.)
            # clarifier.kind "confirmation": the first option is high risk
            # (RISK_HIGH) and was not said in so many words; act on it only
            # when the user confirms it.
            picked = app.ask(decision.clarifier.question, list(decision.clarifier.option_ids))
            if picked is not None:
                turn.session = client.record_outcome(
                    pb.RecordOutcomeRequest(
                        session_id=session_id,
                        turn_id=turn_id,
                        decision_id=decision.decision_id,
                        kind=pb.OUTCOME_KIND_ACCEPTED,
                        choice_id=picked,
                    ),
                    traceparent=traceparent,
                )
        elif decision.outcome == pb.OUTCOME_ESCAPE:
            # question_intent, cancel, no_active_context, or command (target_id
            # is then the command's id).
            app.route(decision.escape_reason, text)
    except LadderError as err:
        # INVALID_ARGUMENT / RESOURCE_EXHAUSTED: the request the app built is
        # wrong or too big (the message names the field); DEADLINE_EXCEEDED /
        # UNAVAILABLE: ladderd is slow or down. Either way, answer the turn
        # without it.
        turn.error = err
        app.route(f"ladderd error {err.code.name}", text)
    return turn


# ------------------------------------------------------------ scenarios --


def cand(id: str, label: str, risk: int = pb.RISK_UNSPECIFIED) -> pb.Candidate:
    return pb.Candidate(id=id, label=label, risk=risk)


PANELS = pb.OptionSet(
    option_set_id="set-1",
    scope=pb.SCOPE_CHAT,
    candidates=[
        cand("links-panels", "Links Panels"),
        cand("links-panel-d", "Links Panel D"),
        cand("links-panel-e", "Links Panel E"),
    ],
)


# The same panels and one destructive action: RISK_HIGH executes only when
# the user says its whole label (or an alias), or picks it by position from
# a clarifier; anything less asks to confirm it.
RISKY = pb.OptionSet(
    option_set_id="set-2",
    scope=pb.SCOPE_CHAT,
    candidates=list(PANELS.candidates) + [cand("delete-panels", "Delete All Panels", pb.RISK_HIGH)],
)


@dataclass
class Scenario:
    name: str
    screen: Screen
    text: str
    outcomes: List[str]
    target_id: str = ""
    option_ids: List[str] = field(default_factory=list)
    escape_reason: str = ""
    confirm_id: str = ""


SCENARIOS = [
    Scenario("execute", Screen(options=PANELS), "open links panel d", ["OUTCOME_EXECUTE"], target_id="links-panel-d"),
    Scenario(
        "clarify", Screen(options=PANELS), "links panel", ["OUTCOME_CLARIFY"], option_ids=["links-panel-d", "links-panel-e"]
    ),
    Scenario("escape", Screen(options=PANELS), "what is links panel d?", ["OUTCOME_ESCAPE"], escape_reason="question_intent"),
    Scenario("confirm", Screen(options=RISKY), "delete", ["OUTCOME_CLARIFY"], confirm_id="delete-panels"),
    Scenario(
        "need_more_info",
        Screen(
            widget_items=[cand("w-1", "Panel D")],
            older_chat_options=[cand("chat-d", "Links Panel D"), cand("chat-e", "Links Panel E")],
        ),
        "open panel d from chat",
        ["OUTCOME_NEED_MORE_INFO", "OUTCOME_EXECUTE"],
        target_id="chat-d",
    ),
]


def check(s: Scenario, turn: Turn, existed: bool) -> List[str]:
    problems = []
    if turn.error is not None:
        return [f"unexpected error {turn.error}"]
    d = turn.decision
    if turn.outcomes != s.outcomes:
        problems.append(f"outcomes {turn.outcomes}, expected {s.outcomes}")
    if s.target_id and d.target_id != s.target_id:
        problems.append(f"target_id {d.target_id!r}, expected {s.target_id!r}")
    if s.option_ids and list(d.clarifier.option_ids) != s.option_ids:
        problems.append(f"clarifier.option_ids {list(d.clarifier.option_ids)}, expected {s.option_ids}")
    if s.escape_reason and d.escape_reason != s.escape_reason:
        problems.append(f"escape_reason {d.escape_reason!r}, expected {s.escape_reason!r}")
    if s.confirm_id and (d.clarifier.kind != "confirmation" or d.clarifier.option_ids[:1] != [s.confirm_id]):
        problems.append(f"clarifier {d.clarifier.kind!r} {list(d.clarifier.option_ids)}, expected a confirmation of {s.confirm_id!r}")
    if d.outcome in (pb.OUTCOME_CLARIFY, pb.OUTCOME_NEED_MORE_INFO) and not d.loop_cycle_id:
        problems.append("an unresolved decision without loop_cycle_id")
    expected_choice = s.target_id or s.confirm_id or (s.option_ids[0] if s.option_ids else "")
    if expected_choice and (turn.session is None or turn.session.last_accepted_choice_id != expected_choice):
        problems.append(f"session after RecordOutcome: {turn.session}")
    if not existed:
        problems.append("ResetSession: the session did not exist")
    return problems


def check_errors(client: LadderClient, run_id: str) -> Tuple[List[str], List[str]]:
    """The refusals an app must handle, by code: (problems, what was seen)."""
    problems, seen = [], []

    def expect(code: grpc.StatusCode, needle: str, call) -> None:
        try:
            call()
            problems.append(f"expected {code.name}, the call succeeded")
        except LadderError as err:
            if err.code is not code or needle not in err.details:
                problems.append(f"expected {code.name} naming {needle!r}, got {err}")
            else:
                seen.append(f"{code.name}: {err.details}")

    expect(grpc.StatusCode.INVALID_ARGUMENT, "session_id", lambda: client.decide(pb.DecideRequest(input="hi")))
    expect(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "input",
        lambda: client.decide(pb.DecideRequest(session_id=f"{run_id}-big", input="x" * 5000)),
    )
    expect(
        grpc.StatusCode.FAILED_PRECONDITION,
        "Decide",
        lambda: client.enrich(
            pb.EnrichRequest(
                session_id=f"{run_id}-stale",
                loop_cycle_id="a-cycle-that-never-was",
                evidence=[pb.EvidenceBlock(type="chat_recoverable_options", candidates=[cand("x", "X")])],
            )
        ),
    )
    expect(grpc.StatusCode.NOT_FOUND, "not found", lambda: client.get_session(f"{run_id}-never-seen"))
    return problems, seen


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", nargs="?", default="127.0.0.1:50151", help="ladderd's host:port")
    parser.add_argument("--deadline-ms", type=int, default=int(DEFAULT_DEADLINE_S * 1000), help="per-call deadline")
    args = parser.parse_args(argv)

    run_id = uuid.uuid4().hex[:8]
    failures = 0
    with LadderClient(args.address, deadline_s=args.deadline_ms / 1000) as client:
        try:
            client.wait_ready()
        except LadderError as err:
            print(f"cannot reach ladderd at {args.address}: {err}", file=sys.stderr)
            return 2

        for s in SCENARIOS:
            session_id = f"py-{run_id}-{s.name}"
            app = DemoApp(s.screen)
            turn = handle_turn(client, app, session_id, s.text)
            existed = client.reset_session(session_id)
            problems = check(s, turn, existed)
            failures += bool(problems)
            print(f"{'ok' if not problems else 'FAIL':4}  {s.name:15} {' -> '.join(turn.outcomes)}  [{'; '.join(app.log)}]")
            for p in problems:
                print(f"        {p}")

        problems, seen = check_errors(client, f"py-{run_id}")
        failures += bool(problems)
        print(f"{'ok' if not problems else 'FAIL':4}  {'errors':15} refusals handled by status code")
        for line in problems + seen:
            print(f"        {line}")

    total = len(SCENARIOS) + 1
    print(f"turn loop: {total - failures} of {total} scenarios as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
