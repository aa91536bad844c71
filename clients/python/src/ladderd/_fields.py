"""The keyword arguments of each call: the request message's fields.

A message field takes the message or a mapping of its fields; an enum field
takes the value or its name ("SCOPE_CHAT"). tests/test_surface.py checks
that these name exactly the fields of the proto's requests.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, TypedDict, Union

from ladderd._proto.ladder.v1 import ladder_pb2 as pb

Fields = Mapping[str, Any]
CandidateLike = Union[pb.Candidate, Fields]
ScopeRefLike = Union[pb.ScopeRef, Fields]


class DecideFields(TypedDict, total=False):
    session_id: str
    turn_id: str
    input: str
    active_scope: ScopeRefLike
    options: Union[pb.OptionSet, Fields]
    recoverable_chat_options: Iterable[CandidateLike]
    widget_items: Iterable[CandidateLike]
    commands: Iterable[CandidateLike]
    force_clarify_only: bool
    language: str
    labels: Mapping[str, str]


class EnrichFields(TypedDict, total=False):
    session_id: str
    turn_id: str
    loop_cycle_id: str
    evidence: Iterable[Union[pb.EvidenceBlock, Fields]]
    chat_history: Iterable[str]


class ClarifyFields(TypedDict, total=False):
    session_id: str
    type: Union[pb.MessageType.ValueType, str]
    reason: str
    query: str
    ui_language: str
    request_language: str
    region_code: str
    intent: str
    baseline_missing_fields: Iterable[str]
    candidates: Iterable[CandidateLike]
    result_count: int
    turn_id: str
    baseline_question: str


class ExtractFields(TypedDict, total=False):
    session_id: str
    turn_id: str
    text: str
    slots: Iterable[Union[pb.SlotSpec, Fields]]
    filled: Mapping[str, str]
    intent: str
    language: str


class RecordOutcomeFields(TypedDict, total=False):
    session_id: str
    decision_id: str
    kind: Union[pb.OutcomeKind.ValueType, str]
    choice_id: str
    turn_id: str
    scope: ScopeRefLike
    option_set_id: str


class GetSessionFields(TypedDict, total=False):
    session_id: str


class ResetSessionFields(TypedDict, total=False):
    session_id: str


class GetRolloutFields(TypedDict, total=False):
    pass


class ResetRolloutFields(TypedDict, total=False):
    note: str


BY_CALL = {
    "decide": DecideFields,
    "enrich": EnrichFields,
    "clarify": ClarifyFields,
    "extract": ExtractFields,
    "record_outcome": RecordOutcomeFields,
    "get_session": GetSessionFields,
    "reset_session": ResetSessionFields,
    "get_rollout": GetRolloutFields,
    "reset_rollout": ResetRolloutFields,
}
