//! What a corpus says: its lines (a labelled turn, or a dialogue of them),
//! what a person expects of each turn, and the exceptions that set an
//! expectation judged wrong aside. Plain data: [`read`](super::read) reads it
//! from files, [`run`](super::run) runs it.

use crate::pb;
use serde::Serialize;

/// What a person expects of a turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// Act on this candidate without asking.
    Execute(String),
    /// Ask; the question must offer these candidates.
    Clarify(Vec<String>),
    /// Hand the turn back, for this reason (`question_intent`, `cancel`,
    /// `command`, `no_active_context`).
    Escape(String),
    /// Ask the app for this evidence (`NEED_MORE_INFO`), the types named.
    NeedMoreInfo(Vec<String>),
}

/// One labelled turn.
#[derive(Debug, Clone)]
pub struct Case {
    /// `file:line`.
    pub at: String,
    /// The line's own `id`, when it has one (what an [`Exception`] names).
    pub id: String,
    pub category: String,
    pub request: pb::DecideRequest,
    pub expect: Expect,
    /// The follow-up an expected execute leaves (`question`, `request`;
    /// `expect.follow_up`), or empty.
    pub follow_up: String,
}

/// A line of a corpus: one turn, or a dialogue.
#[derive(Debug, Clone)]
pub enum Line {
    Turn(Box<Case>),
    Dialogue(Dialogue),
}

impl From<Case> for Line {
    fn from(c: Case) -> Self {
        Line::Turn(Box::new(c))
    }
}

impl From<Dialogue> for Line {
    fn from(d: Dialogue) -> Self {
        Line::Dialogue(d)
    }
}

/// Turns on one session, in order.
#[derive(Debug, Clone)]
pub struct Dialogue {
    /// `file:line`.
    pub at: String,
    /// The line's own `id`, when it has one; its turns are `id#1`, `id#2`, ...
    pub id: String,
    pub category: String,
    pub turns: Vec<DialogueTurn>,
}

/// One turn of a dialogue.
#[derive(Debug, Clone)]
pub struct DialogueTurn {
    pub request: pb::DecideRequest,
    pub expect: Expect,
    /// `expect.follow_up`, as a single turn's.
    pub follow_up: String,
    /// After a `NEED_MORE_INFO`: the evidence the app supplies (`Enrich`).
    pub enrich: Option<EnrichStep>,
    /// What the app reports after the turn (`RecordOutcome`, on the turn's
    /// last decision).
    pub record: Option<RecordStep>,
}

#[derive(Debug, Clone)]
pub struct EnrichStep {
    pub evidence: Vec<pb::EvidenceBlock>,
    /// What is expected of the decision `Enrich` returns.
    pub expect: Expect,
}

#[derive(Debug, Clone)]
pub struct RecordStep {
    pub kind: pb::OutcomeKind,
    pub choice_id: String,
}

/// An expectation of a corpus judged wrong. The turn it names (`at`: the
/// line's `id`, or a dialogue's `id#turn`, turns counted from 1; a turn's
/// `Enrich` step with it) still runs, but is counted nowhere: the report
/// lists it apart, with the reason. One JSON object a line of a corpus's
/// `exceptions.jsonl`: `{"at": ..., "reason": ...}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exception {
    pub at: String,
    pub reason: String,
}

/// The exceptions that name no turn of these lines (a stale or mistyped
/// `at`).
pub fn unknown_exceptions<'a>(lines: &[Line], exceptions: &'a [Exception]) -> Vec<&'a Exception> {
    let mut ids = std::collections::BTreeSet::new();
    for line in lines {
        match line {
            Line::Turn(c) => {
                ids.insert(if c.id.is_empty() { c.at.clone() } else { c.id.clone() });
            }
            Line::Dialogue(d) => {
                let id = if d.id.is_empty() { &d.at } else { &d.id };
                ids.extend((1..=d.turns.len()).map(|n| format!("{id}#{n}")))
            }
        }
    }
    exceptions.iter().filter(|e| e.at.is_empty() || !ids.contains(&e.at)).collect()
}
