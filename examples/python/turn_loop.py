"""The turn loop an app server runs once per user turn, walked through one
scenario of each outcome and a conversation of replies against a running
ladderd.

    pip install ../../clients/python && python turn_loop.py 127.0.0.1:50151

Decide -> EXECUTE: act, then RecordOutcome(EXECUTED); with a follow_up
          (a yes that also asked or requested something), the rest is
          the user's next turn: answer the question, Decide the request
       -> CLARIFY: show the question and options; the user's pick is
          RecordOutcome(ACCEPTED); an answer in words is the next turn's
          Decide, sent with the clarifier's options, in its order, as the
          screen (so "the second one" is the clarifier's second)
       -> ESCAPE: hand the turn to the app's own router (a question, a
          cancel, a command), or, `declined`, show something else
       -> NEED_MORE_INFO: Enrich with the evidence asked for, then act on
          the new decision (FAILED_PRECONDITION: the cycle is gone, Decide
          again)
Any error: answer the turn without ladderd (it only advises).

A reply ("yes", "the saturday one", "no, not that one") is read against
what was asked: ladderd's own last question, kept in the session, or the
app's, sent on the screen as OptionSet.asked (docs/replies.md).

It is also a test driver: it exits 1 if any scenario ends with an outcome
other than the expected one, 2 if the daemon cannot be reached.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import uuid
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from ladderd import (
    DEFAULT_TIMEOUT_S,
    Client,
    FailedPreconditionError,
    InvalidArgumentError,
    LadderError,
    LimitExceededError,
    NotFoundError,
    pb,
)

MAX_ENRICH_STEPS = 2


def new_traceparent() -> str:
    """A fresh W3C traceparent (version 00, sampled). In an instrumented app,
    inject the current span's context instead (opentelemetry.propagate)."""
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01"


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

    def __init__(self, screen: Screen, user_picks: bool = True):
        self.screen = screen
        self.log: List[str] = []
        # What the last clarifier showed: the next turn's screen.
        self.asked: Optional[pb.OptionSet] = None
        # Whether the simulated user picks an option of a question at once;
        # in a conversation the user answers in words on the next turn.
        self.user_picks = user_picks

    def execute(self, target_id: str) -> None:
        self.log.append(f"executed {target_id}")

    def ask(self, question: str, option_ids: List[str]) -> Optional[str]:
        self.log.append(f"asked {question!r} {option_ids}")
        if not self.user_picks:
            return None  # the answer is the user's next turn
        return option_ids[0] if option_ids else None  # the simulated user picks the first option

    def route(self, reason: str, text: str) -> None:
        self.log.append(f"routed ({reason})")

    def answer_about(self, text: str, about: List[str]) -> None:
        # `question_intent`: the app's chat answers the question, with the
        # options it is about (closest first; none when nothing on the
        # screen is close) as its context: "what is links panel d?" is
        # answered from what the app knows of links-panel-d.
        self.log.append(f"answered a question about {about}")

    def answer(self, question: str) -> None:
        # The app's own chat answers the question the user asked with a yes.
        self.log.append(f"answered {question!r}")

    def show_something_else(self, refused: List[str]) -> None:
        # `declined`: the user refused what was proposed, not the task.
        self.log.append(f"declined {refused}: showing other options")

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


def handle_turn(client: Client, app: DemoApp, session_id: str, text: str) -> Turn:
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
            except FailedPreconditionError:
                # The cycle expired, was replaced or resolved: start the turn
                # over, under a new turn_id (the same one would get the first
                # answer again: a Decide is applied once per turn_id).
                request.turn_id = str(uuid.uuid4())
                decision = client.decide(request, traceparent=traceparent)
            turn.outcomes.append(pb.Outcome.Name(decision.outcome))
        turn.decision = decision

        if decision.outcome == pb.OUTCOME_EXECUTE:
            app.execute(decision.target_id)
            turn.session = client.record_outcome(
                session_id=session_id,
                turn_id=turn_id,
                decision_id=decision.decision_id,
                kind=pb.OUTCOME_KIND_EXECUTED,
                choice_id=decision.target_id,
                traceparent=traceparent,
            ).session
            # "Sounds good, is it covered?": the yes was acted on; the rest
            # of the input is the user's next turn. The app's chat answers
            # a question; a request ("also book me a cab") goes to Decide.
            if decision.HasField("follow_up"):
                rest = decision.follow_up
                if rest.kind == pb.FOLLOW_UP_KIND_REQUEST:
                    next_turn = handle_turn(client, app, session_id, rest.text)
                    turn.outcomes += next_turn.outcomes
                else:
                    app.answer(rest.text)
        elif decision.outcome in (pb.OUTCOME_CLARIFY, pb.OUTCOME_NEED_MORE_INFO):
            # (In a real app the pick arrives with the user's next message.)
            # clarifier.kind "confirmation": the first option is high risk
            # (RISK_HIGH) and was not said in so many words; act on it only
            # when the user confirms it.
            picked = app.ask(decision.clarifier.question, list(decision.clarifier.option_ids))
            # The user sees the clarifier's options, in its order: that is the
            # screen the answer in words comes with ("the second one").
            app.asked = clarifier_screen(app.screen, decision.clarifier)
            if picked is not None:
                turn.session = client.record_outcome(
                    session_id=session_id,
                    turn_id=turn_id,
                    decision_id=decision.decision_id,
                    kind=pb.OUTCOME_KIND_ACCEPTED,
                    choice_id=picked,
                    traceparent=traceparent,
                ).session
        elif decision.outcome == pb.OUTCOME_ESCAPE and decision.escape_reason == "declined":
            # The user refused what was proposed ("no thanks"), not the task:
            # keep it open, show something else, and tell ladderd which option
            # was refused when the screen proposed one, so it is not offered
            # first again.
            on_screen = app.screen.options
            refused = [c.id for c in on_screen.candidates] if on_screen and on_screen.asked == pb.ASKED_CONFIRMATION else []
            app.show_something_else(refused)
            for choice_id in refused:
                turn.session = client.record_outcome(
                    session_id=session_id,
                    turn_id=turn_id,
                    decision_id=decision.decision_id,
                    kind=pb.OUTCOME_KIND_REJECTED,
                    choice_id=choice_id,
                    traceparent=traceparent,
                ).session
        elif decision.outcome == pb.OUTCOME_ESCAPE and decision.escape_reason == "question_intent":
            # A question: the app's chat answers it; `about` says which
            # options it concerns (a hint, never a choice: nothing runs).
            app.answer_about(text, list(decision.about))
        elif decision.outcome == pb.OUTCOME_ESCAPE:
            # cancel (drop the task), no_active_context, or command
            # (target_id is then the command's id).
            app.route(decision.escape_reason, text)
    except LadderError as err:
        # INVALID_ARGUMENT / RESOURCE_EXHAUSTED: the request the app built is
        # wrong or too big (the message names the field); DEADLINE_EXCEEDED /
        # UNAVAILABLE: ladderd is slow or down. Either way, answer the turn
        # without it.
        turn.error = err
        app.route(f"ladderd error {err.code_name}", text)
    return turn


def clarifier_screen(screen: Screen, clarifier: pb.Clarifier) -> pb.OptionSet:
    """The options a clarifier shows, in its order, as the screen of the
    turn that answers it: the candidates of its option_ids, found among
    what the app sent."""
    sent = list(screen.options.candidates) if screen.options else []
    by_id = {c.id: c for c in sent + list(screen.widget_items)}
    base = screen.options or pb.OptionSet(option_set_id="clarifier", scope=pb.SCOPE_CHAT)
    return pb.OptionSet(
        option_set_id=base.option_set_id, scope=base.scope, candidates=[by_id[i] for i in clarifier.option_ids if i in by_id]
    )


# ------------------------------------------------------------ scenarios --


def cand(id: str, label: str, risk: pb.Risk.ValueType = pb.RISK_UNSPECIFIED, sublabel: str = "") -> pb.Candidate:
    return pb.Candidate(id=id, label=label, risk=risk, sublabel=sublabel)


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
    # What `about` leads with (closest first; what follows may vary).
    about: List[str] = field(default_factory=list)


SCENARIOS = [
    Scenario("execute", Screen(options=PANELS), "open links panel d", ["OUTCOME_EXECUTE"], target_id="links-panel-d"),
    Scenario(
        "clarify", Screen(options=PANELS), "links panel", ["OUTCOME_CLARIFY"], option_ids=["links-panel-d", "links-panel-e"]
    ),
    Scenario(
        "escape",
        Screen(options=PANELS),
        "what is links panel d?",
        ["OUTCOME_ESCAPE"],
        escape_reason="question_intent",
        about=["links-panel-d"],
    ),
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


# ------------------------------------------------------- a conversation --

# Three tables that differ only by their day and time.
TABLES = pb.OptionSet(
    option_set_id="tables",
    scope=pb.SCOPE_CHAT,
    candidates=[
        cand("fri-6pm", "Table for 2", sublabel="Friday 6:00 pm"),
        cand("fri-7pm", "Table for 2", sublabel="Friday 7:00 pm"),
        cand("sat-8pm", "Table for 2", sublabel="Saturday 8:00 pm"),
    ],
)

# The app's own questions: it proposes one option and asks the user to
# confirm it (ASKED_CONFIRMATION), so that "yes" or "no thanks" is read as
# the answer. A RISK_HIGH option is confirmed by that "yes".
WINE = pb.OptionSet(
    option_set_id="wine", scope=pb.SCOPE_CHAT, asked=pb.ASKED_CONFIRMATION, candidates=[cand("add-wine", "Add the wine pairing ($30)")]
)
DEPOSIT = pb.OptionSet(
    option_set_id="deposit",
    scope=pb.SCOPE_CHAT,
    asked=pb.ASKED_CONFIRMATION,
    candidates=[cand("pay-deposit", "Pay the $20 deposit", pb.RISK_HIGH)],
)
PARKING = pb.OptionSet(
    option_set_id="parking",
    scope=pb.SCOPE_CHAT,
    asked=pb.ASKED_CONFIRMATION,
    candidates=[cand("add-parking", "Reserve a parking spot ($5)")],
)


@dataclass
class Reply:
    """One turn of the conversation: what the user says to the screen."""

    name: str
    # The screen the reply comes with; None: the last clarifier's options,
    # in its order (what the user was shown).
    options: Optional[pb.OptionSet]
    text: str
    outcome: str
    # The kind of reply the decision's trace shows (handled_by_tier "reply").
    kind: str = ""
    target_id: str = ""
    option_ids: List[str] = field(default_factory=list)
    escape_reason: str = ""
    # The rest of the input the decision hands back (Decision.follow_up).
    follow_up: str = ""


CONVERSATION = [
    # ladderd asks "which one?" (its question is kept in the session) ...
    Reply("which_one", TABLES, "book a table for 2", "OUTCOME_CLARIFY", option_ids=["fri-6pm", "fri-7pm", "sat-8pm"]),
    # ... answered by a detail only one of them shows (a day or a time an
    # option shows is a value: the match rung reads it, not a reply).
    Reply("detail", None, "the saturday one", "OUTCOME_EXECUTE", kind="", target_id="sat-8pm"),
    # The execute refused: ladderd records it as rejected and asks again
    # among the others.
    Reply("not_that_one", TABLES, "no, not that one", "OUTCOME_CLARIFY", kind="repair", option_ids=["fri-6pm", "fri-7pm"]),
    Reply("detail_again", None, "the 7 pm one", "OUTCOME_EXECUTE", kind="", target_id="fri-7pm"),
    # The app's own confirmations: one declined, one answered "yes".
    Reply("declined", WINE, "no thanks", "OUTCOME_ESCAPE", kind="decline", escape_reason="declined"),
    Reply("yes", DEPOSIT, "yes", "OUTCOME_EXECUTE", kind="affirm", target_id="pay-deposit"),
    # A yes that also asks: executed, and the question handed back.
    Reply(
        "yes_and_ask",
        PARKING,
        "Yes please, is it covered?",
        "OUTCOME_EXECUTE",
        kind="affirm",
        target_id="add-parking",
        follow_up="is it covered?",
    ),
    # A clarifier answered by position: the second of the options it
    # showed, in its order (the screen re-sent as it was would put another
    # option second, and both would be asked).
    Reply("which_panel", PANELS, "links panel", "OUTCOME_CLARIFY", option_ids=["links-panel-d", "links-panel-e"]),
    Reply("position", None, "the second one", "OUTCOME_EXECUTE", kind="position", target_id="links-panel-e"),
]


def reply_kind(d: pb.Decision) -> str:
    """The kind of reply the trace shows, when the reply rung decided."""
    if d.handled_by_tier != "reply":
        return ""
    read = [step.outcome for step in d.trace if step.rung == "reply" and step.outcome != "pass"]
    return read[-1] if read else ""


def check_reply(r: Reply, turn: Turn) -> List[str]:
    if turn.error is not None:
        return [f"unexpected error {turn.error}"]
    d = turn.decision
    assert d is not None
    problems = []
    if turn.outcomes != [r.outcome]:
        problems.append(f"outcomes {turn.outcomes}, expected {[r.outcome]}")
    if reply_kind(d) != r.kind:
        problems.append(f"read as {d.handled_by_tier} {reply_kind(d)!r}, expected reply {r.kind!r}")
    if r.target_id and d.target_id != r.target_id:
        problems.append(f"target_id {d.target_id!r}, expected {r.target_id!r}")
    if r.option_ids and list(d.clarifier.option_ids) != r.option_ids:
        problems.append(f"clarifier.option_ids {list(d.clarifier.option_ids)}, expected {r.option_ids}")
    if r.escape_reason and d.escape_reason != r.escape_reason:
        problems.append(f"escape_reason {d.escape_reason!r}, expected {r.escape_reason!r}")
    if d.follow_up.text != r.follow_up:
        problems.append(f"follow_up {d.follow_up.text!r}, expected {r.follow_up!r}")
    return problems


def check(s: Scenario, turn: Turn, existed: bool) -> List[str]:
    problems = []
    if turn.error is not None:
        return [f"unexpected error {turn.error}"]
    d = turn.decision
    assert d is not None
    if turn.outcomes != s.outcomes:
        problems.append(f"outcomes {turn.outcomes}, expected {s.outcomes}")
    if s.target_id and d.target_id != s.target_id:
        problems.append(f"target_id {d.target_id!r}, expected {s.target_id!r}")
    if s.option_ids and list(d.clarifier.option_ids) != s.option_ids:
        problems.append(f"clarifier.option_ids {list(d.clarifier.option_ids)}, expected {s.option_ids}")
    if s.escape_reason and d.escape_reason != s.escape_reason:
        problems.append(f"escape_reason {d.escape_reason!r}, expected {s.escape_reason!r}")
    if s.about and list(d.about)[: len(s.about)] != s.about:
        problems.append(f"about {list(d.about)}, expected it to lead with {s.about}")
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


def check_errors(client: Client, run_id: str) -> Tuple[List[str], List[str]]:
    """The refusals an app must handle, by class: (problems, what was seen)."""
    problems: List[str] = []
    seen: List[str] = []

    def expect(error: type, needle: str, call: Callable[[], object]) -> None:
        try:
            call()
            problems.append(f"expected {error.__name__}, the call succeeded")
        except LadderError as err:
            if not isinstance(err, error) or needle not in err.details:
                problems.append(f"expected {error.__name__} naming {needle!r}, got {err}")
            else:
                seen.append(f"{err.code_name}: {err.details}")

    expect(InvalidArgumentError, "session_id", lambda: client.decide(input="hi"))
    expect(LimitExceededError, "input", lambda: client.decide(session_id=f"{run_id}-big", input="x" * 5000))
    expect(
        FailedPreconditionError,
        "Decide",
        lambda: client.enrich(
            session_id=f"{run_id}-stale",
            loop_cycle_id="a-cycle-that-never-was",
            evidence=[pb.EvidenceBlock(type="chat_recoverable_options", candidates=[cand("x", "X")])],
        ),
    )
    expect(NotFoundError, "not found", lambda: client.get_session(session_id=f"{run_id}-never-seen"))
    return problems, seen


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", nargs="?", default="127.0.0.1:50151", help="ladderd's host:port")
    parser.add_argument("--deadline-ms", type=int, default=int(DEFAULT_TIMEOUT_S * 1000), help="per-call timeout")
    args = parser.parse_args(argv)

    run_id = uuid.uuid4().hex[:8]
    failures = 0
    with Client(args.address, timeout=args.deadline_ms / 1000) as client:
        try:
            client.wait_until_ready(timeout=5)
        except LadderError as err:
            print(f"cannot reach ladderd at {args.address}: {err}", file=sys.stderr)
            return 2

        for s in SCENARIOS:
            session_id = f"py-{run_id}-{s.name}"
            app = DemoApp(s.screen)
            turn = handle_turn(client, app, session_id, s.text)
            existed = client.reset_session(session_id=session_id).existed
            problems = check(s, turn, existed)
            failures += bool(problems)
            print(f"{'ok' if not problems else 'FAIL':4}  {s.name:15} {' -> '.join(turn.outcomes)}  [{'; '.join(app.log)}]")
            for p in problems:
                print(f"        {p}")

        # One session: each turn is read against what was asked before it.
        session_id = f"py-{run_id}-conversation"
        app = DemoApp(Screen(), user_picks=False)
        for r in CONVERSATION:
            app.screen = Screen(options=r.options if r.options is not None else app.asked)
            app.log = []
            turn = handle_turn(client, app, session_id, r.text)
            problems = check_reply(r, turn)
            failures += bool(problems)
            read = f"reply {reply_kind(turn.decision)}; " if turn.decision is not None and reply_kind(turn.decision) else ""
            print(f"{'ok' if not problems else 'FAIL':4}  {r.name:15} {' -> '.join(turn.outcomes)}  [{read}{'; '.join(app.log)}]")
            for p in problems:
                print(f"        {p}")
        client.reset_session(session_id=session_id)

        problems, seen = check_errors(client, f"py-{run_id}")
        failures += bool(problems)
        print(f"{'ok' if not problems else 'FAIL':4}  {'errors':15} refusals handled by status code")
        for line in problems + seen:
            print(f"        {line}")

    total = len(SCENARIOS) + len(CONVERSATION) + 1
    print(f"turn loop: {total - failures} of {total} scenarios as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
