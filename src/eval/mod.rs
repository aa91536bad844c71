//! `ladderd eval FILE.jsonl`: measures decision quality on labelled turns
//! and whole dialogues before a rollout, the way `rasa test` does for NLU
//! and stories.
//!
//! One JSON object a line: the `DecideRequest` fields in proto JSON names
//! (lowerCamelCase; the snake_case originals are accepted too, as proto3
//! JSON parsers do), an `expect` (`{"execute": id}`, `{"clarify": [ids]}`,
//! `{"escape": reason}` or `{"need_more_info": [types]}`) and an optional
//! `category`; or a `dialogue`: a list of such turns on one session, each
//! with an optional `enrich` step and `record_outcome` ([`read`]). Each turn
//! runs through the same code as a `Decide` call (the edge's validation
//! under the configured limits, then the daemon's ladder, the LLM rung
//! included when the configuration enables it), in process; a single turn
//! in a session of its own, a dialogue's turns in one. [`score`] compares
//! decisions with expectations; it is pure, and `cargo test` holds the
//! project's own corpora to it. A dialogue is also measured whole
//! ([`dialogues`]: fully right, repeated clarifiers, turns to resolution).
//! The turns the reply rung decided (docs/replies.md) are also counted by
//! the kind of reply they were read as. An expectation judged wrong is set
//! aside by the line's `id` ([`Exception`]), counted nowhere and listed
//! with its reason.

mod dialogues;
mod read;

pub use dialogues::DialogueTally;
pub use read::{case, decide_request, dialogue, read, read_clinc150, read_exceptions};

use crate::config::Config;
use crate::convert;
use crate::daemon::{Daemon, Generation, StartError};
use crate::pb;
use serde::Serialize;
use std::collections::BTreeMap;

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

/// What the ladder did with a turn, as scoring needs it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Got {
    /// `execute`, `clarify`, `escape`, `need_more_info`, or `invalid` (the
    /// edge refused the request; the message is in `detail`).
    pub outcome: String,
    pub target_id: String,
    pub escape_reason: String,
    /// The clarifier's options, in display order.
    pub offered: Vec<String>,
    /// The evidence types a `NEED_MORE_INFO` asks for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needed: Vec<String>,
    pub detail: String,
    /// The candidate executed is high risk (docs/deciding.md#risk).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub high_risk: bool,
    /// The deterministic rungs named a candidate the input does not
    /// account for, and refused it (docs/deciding.md).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
    /// What the LLM rung did, when the turn reached it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmSeen>,
    /// The kind of reply the reply rung read the turn as, when that rung
    /// decided it (`affirm`, `decline`, `position`, ...; docs/replies.md).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reply: String,
    /// The follow-up an execute left (`question`, `request`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub follow_up: String,
}

/// What the LLM rung did with a turn that reached it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LlmSeen {
    /// The provider was asked (not a loop-guard repeat, not skipped).
    pub called: bool,
    /// `select`, `abstain`, `need_more_info`, or the failure (`timeout`, ...).
    pub verdict: String,
    /// The pick, when it made one.
    pub picked: String,
    /// The corroboration of a pick that passed every other gate
    /// (`agreed`, `disagreed`, ...); empty when none ran.
    pub corroboration: String,
    /// The pick executed.
    pub executed: bool,
}

/// How one turn scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Executed the expected candidate.
    RightExecute,
    /// Executed something else, or executed where a person would ask or
    /// hand back: the worst outcome.
    WrongExecute,
    /// Asked (or handed back) where a person would have acted.
    MissedExecute,
    /// Clarified (or asked for more evidence) where a person would ask.
    ClarifyOk,
    /// Handed back where a person would ask.
    ClarifyMissed,
    /// Handed back for the expected reason.
    EscapeOk,
    /// Handed back for another reason.
    EscapeWrong,
    /// Did not hand back where a person would (asked instead).
    EscapeMissed,
    /// The edge refused the request (a bug in the corpus line).
    Invalid,
}

/// One turn's result.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    pub at: String,
    /// The line's `id` (a dialogue turn's: `id#turn`), when it has one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub id: String,
    pub category: String,
    pub input: String,
    pub expect: Expect,
    /// The follow-up the execute should leave (`question`, `request`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub expect_follow_up: String,
    pub got: Got,
    pub verdict: Verdict,
    /// For an expected execute that was missed, or an expected clarify:
    /// whether the clarifier offered every expected id.
    pub offered_expected: Option<bool>,
}

/// Counts of one category (or all).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Tally {
    pub turns: usize,
    pub right_executes: usize,
    pub wrong_executes: usize,
    pub missed_executes: usize,
    /// Missed executes whose clarifier offered the expected id.
    pub missed_but_offered: usize,
    pub clarify_ok: usize,
    /// Of `clarify_ok`: the clarifier offered every expected id.
    pub clarify_offered: usize,
    pub clarify_missed: usize,
    pub escape_ok: usize,
    pub escape_wrong: usize,
    pub escape_missed: usize,
    pub invalid: usize,
    /// Executes of high-risk candidates, right or wrong (docs/deciding.md#risk).
    pub high_risk_executes: usize,
    /// Of those, wrong.
    pub high_risk_wrong: usize,
    /// Executes that left a follow-up (`Decision.follow_up`), by kind.
    pub follow_up_questions: usize,
    pub follow_up_requests: usize,
    /// Turns whose expectation names a follow-up, and of those the right
    /// executes that left it.
    pub follow_up_expected: usize,
    pub follow_up_right: usize,
    /// Turns whose expected answer is one option (an execute) that ended
    /// in a clarifier: how many, of those the ones that offered the
    /// option, offered it first, and the options they offered, together
    /// (what the clarifier's ranking is judged by).
    pub asked_one: usize,
    pub asked_one_offered: usize,
    pub asked_one_first: usize,
    pub asked_one_options: usize,
}

impl Tally {
    fn add(&mut self, s: &Scored) {
        self.turns += 1;
        if s.got.outcome == "execute" {
            self.follow_up_questions += usize::from(s.got.follow_up == "question");
            self.follow_up_requests += usize::from(s.got.follow_up == "request");
        }
        if !s.expect_follow_up.is_empty() {
            self.follow_up_expected += 1;
            self.follow_up_right += usize::from(s.verdict == Verdict::RightExecute && s.got.follow_up == s.expect_follow_up);
        }
        if let (Expect::Execute(id), "clarify") = (&s.expect, s.got.outcome.as_str()) {
            self.asked_one += 1;
            self.asked_one_offered += usize::from(s.got.offered.contains(id));
            self.asked_one_first += usize::from(s.got.offered.first() == Some(id));
            self.asked_one_options += s.got.offered.len();
        }
        if s.got.high_risk && s.got.outcome == "execute" {
            self.high_risk_executes += 1;
            self.high_risk_wrong += usize::from(s.verdict == Verdict::WrongExecute);
        }
        match s.verdict {
            Verdict::RightExecute => self.right_executes += 1,
            Verdict::WrongExecute => self.wrong_executes += 1,
            Verdict::MissedExecute => {
                self.missed_executes += 1;
                self.missed_but_offered += usize::from(s.offered_expected == Some(true));
            }
            Verdict::ClarifyOk => {
                self.clarify_ok += 1;
                self.clarify_offered += usize::from(s.offered_expected == Some(true));
            }
            Verdict::ClarifyMissed => self.clarify_missed += 1,
            Verdict::EscapeOk => self.escape_ok += 1,
            Verdict::EscapeWrong => self.escape_wrong += 1,
            Verdict::EscapeMissed => self.escape_missed += 1,
            Verdict::Invalid => self.invalid += 1,
        }
    }

    /// Right answers of every kind.
    pub fn right(&self) -> usize {
        self.right_executes + self.clarify_ok + self.escape_ok
    }

    pub fn accuracy(&self) -> f64 {
        ratio(self.right(), self.turns)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The figures the project's gates read: shares of each kind of turn,
/// counted by what a person expects.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Shares {
    pub expected_execute: usize,
    pub expected_clarify: usize,
    pub expected_escape: usize,
    /// Clear requests executed right.
    pub clear_executed: f64,
    /// Ambiguous turns clarified.
    pub ambiguous_clarified: f64,
    /// Escapes right.
    pub escapes_right: f64,
}

/// What the LLM rung did over the run (docs/llm.md), and what it made of
/// the turns the deterministic rungs refused by the principle
/// (docs/deciding.md).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LlmTally {
    /// Turns that reached the LLM rung (asked, or answered by the loop
    /// guard, or skipped there: disabled, budget, store).
    pub reached: usize,
    /// Turns the provider was asked about.
    pub called: usize,
    /// By verdict (`select`, `abstain`, `timeout`, `llm_disabled`, ...).
    pub by_verdict: BTreeMap<String, usize>,
    /// Picks (a `select` verdict).
    pub picked: usize,
    /// Picks that executed (every gate passed, corroborated).
    pub executed: usize,
    /// Of those, the expected candidate.
    pub executed_right: usize,
    /// Of those, wrong.
    pub executed_wrong: usize,
    /// Picks a corroboration did not confirm (`not_corroborated`).
    pub not_corroborated: usize,
    /// Picks the gates kept to a clarifier (auto-execute off, a gate failed,
    /// or a high-risk pick asked to confirm).
    pub kept_to_clarifier: usize,
    /// Turns the deterministic rungs refused (a named candidate the input
    /// does not account for).
    pub refused: usize,
    /// Of those, the LLM executed the expected candidate.
    pub refused_resolved: usize,
    /// Of those, the LLM picked the expected candidate (executed or not).
    pub refused_picked_right: usize,
}

impl LlmTally {
    /// Nothing reached the LLM rung and the principle refused nothing.
    pub fn is_empty(&self) -> bool {
        *self == LlmTally::default()
    }
}

impl LlmTally {
    fn add(&mut self, s: &Scored) {
        let expected = match &s.expect {
            Expect::Execute(id) => Some(id.as_str()),
            _ => None,
        };
        if s.got.refused {
            self.refused += 1;
        }
        let Some(l) = &s.got.llm else { return };
        self.reached += 1;
        self.called += usize::from(l.called);
        *self.by_verdict.entry(l.verdict.clone()).or_default() += 1;
        if l.verdict == "select" {
            self.picked += 1;
            let right = expected == Some(l.picked.as_str());
            if l.executed {
                self.executed += 1;
                self.executed_right += usize::from(right && s.verdict == Verdict::RightExecute);
                self.executed_wrong += usize::from(s.verdict == Verdict::WrongExecute);
            } else if l.corroboration.is_empty() || l.corroboration == "agreed" {
                self.kept_to_clarifier += 1;
            } else {
                self.not_corroborated += 1;
            }
            if s.got.refused && right {
                self.refused_picked_right += 1;
                self.refused_resolved += usize::from(l.executed && s.verdict == Verdict::RightExecute);
            }
        }
    }
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

/// A turn an [`Exception`] set aside: what happened, and why it is not
/// counted.
#[derive(Debug, Clone, Serialize)]
pub struct SetAside {
    pub reason: String,
    #[serde(flatten)]
    pub turn: Scored,
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

/// The whole evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub config_revision: String,
    pub overall: Tally,
    pub shares: Shares,
    pub by_category: BTreeMap<String, Tally>,
    /// The turns the reply rung decided (docs/replies.md: its step in the
    /// trace named the kind of reply, and the decision's tier is `reply`).
    pub replies: Tally,
    /// The same by kind: `affirm`, `decline`, `cancel`, `repair`,
    /// `position`, `detail`, `comparison`, `repeat`.
    pub replies_by_kind: BTreeMap<String, Tally>,
    /// What the LLM rung did (empty when no turn reached it, and then left
    /// out of `--json`).
    #[serde(skip_serializing_if = "LlmTally::is_empty")]
    pub llm: LlmTally,
    /// The dialogues, whole (all of them; empty when the corpus has none,
    /// and then left out of `--json`).
    #[serde(skip_serializing_if = "DialogueTally::is_empty")]
    pub dialogues: DialogueTally,
    /// The dialogues by category.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub dialogues_by_category: BTreeMap<String, DialogueTally>,
    /// Every turn that was not right, in file order.
    pub failures: Vec<Scored>,
    /// The turns [`Exception`]s set aside (counted nowhere above).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_aside: Vec<SetAside>,
}

impl Report {
    pub fn wrong_executes(&self) -> usize {
        self.overall.wrong_executes
    }
}

/// Scores one turn.
pub fn score(expect: &Expect, got: &Got) -> (Verdict, Option<bool>) {
    let offered = |ids: &[String]| ids.iter().all(|id| got.offered.contains(id));
    let asked = matches!(got.outcome.as_str(), "clarify" | "need_more_info");
    if got.outcome == "invalid" {
        return (Verdict::Invalid, None);
    }
    match expect {
        Expect::Execute(id) => match got.outcome.as_str() {
            "execute" if got.target_id == *id => (Verdict::RightExecute, None),
            "execute" => (Verdict::WrongExecute, None),
            _ => (Verdict::MissedExecute, Some(asked && offered(std::slice::from_ref(id)))),
        },
        Expect::Clarify(ids) => match got.outcome.as_str() {
            "execute" => (Verdict::WrongExecute, None),
            "escape" => (Verdict::ClarifyMissed, None),
            _ => (Verdict::ClarifyOk, Some(offered(ids))),
        },
        Expect::Escape(reason) => match got.outcome.as_str() {
            "execute" => (Verdict::WrongExecute, None),
            "escape" if got.escape_reason == *reason => (Verdict::EscapeOk, None),
            "escape" => (Verdict::EscapeWrong, None),
            _ => (Verdict::EscapeMissed, None),
        },
        // A clarifier instead is not wrong: `offered_expected` says whether
        // the evidence asked for was the expected.
        Expect::NeedMoreInfo(types) => match got.outcome.as_str() {
            "execute" => (Verdict::WrongExecute, None),
            "escape" => (Verdict::ClarifyMissed, None),
            "need_more_info" => (Verdict::ClarifyOk, Some(types.iter().all(|t| got.needed.contains(t)))),
            _ => (Verdict::ClarifyOk, Some(false)),
        },
    }
}

/// Adds up scored turns.
pub fn report(config_revision: String, scored: Vec<Scored>) -> Report {
    let mut overall = Tally::default();
    let mut llm = LlmTally::default();
    let mut by_category: BTreeMap<String, Tally> = BTreeMap::new();
    let (mut replies, mut replies_by_kind) = (Tally::default(), BTreeMap::<String, Tally>::new());
    let mut shares = Shares::default();
    let (mut executed, mut clarified, mut escaped) = (0, 0, 0);
    for s in &scored {
        overall.add(s);
        llm.add(s);
        by_category.entry(s.category.clone()).or_default().add(s);
        if !s.got.reply.is_empty() {
            replies.add(s);
            replies_by_kind.entry(s.got.reply.clone()).or_default().add(s);
        }
        match (&s.expect, s.verdict) {
            (Expect::Execute(_), v) => {
                shares.expected_execute += 1;
                executed += usize::from(v == Verdict::RightExecute);
            }
            (Expect::Clarify(_) | Expect::NeedMoreInfo(_), v) => {
                shares.expected_clarify += 1;
                clarified += usize::from(v == Verdict::ClarifyOk);
            }
            (Expect::Escape(_), v) => {
                shares.expected_escape += 1;
                escaped += usize::from(v == Verdict::EscapeOk);
            }
        }
    }
    shares.clear_executed = ratio(executed, shares.expected_execute);
    shares.ambiguous_clarified = ratio(clarified, shares.expected_clarify);
    shares.escapes_right = ratio(escaped, shares.expected_escape);
    // Not right: a wrong verdict, or an execute that left another
    // follow-up than the one expected (listed with its verdict).
    let follow_up_missed = |s: &Scored| !s.expect_follow_up.is_empty() && s.got.follow_up != s.expect_follow_up;
    let failures = scored
        .into_iter()
        .filter(|s| !matches!(s.verdict, Verdict::RightExecute | Verdict::ClarifyOk | Verdict::EscapeOk) || follow_up_missed(s))
        .collect();
    Report {
        config_revision,
        overall,
        shares,
        by_category,
        replies,
        replies_by_kind,
        llm,
        dialogues: DialogueTally::default(),
        dialogues_by_category: BTreeMap::new(),
        failures,
        set_aside: Vec::new(),
    }
}

/// Runs every line through the daemon's own code, in process: a turn in a
/// session of its own, a dialogue's turns in one (with their `Enrich` and
/// `RecordOutcome` calls).
pub async fn evaluate<L: Into<Line>>(config: Config, lines: impl IntoIterator<Item = L>) -> Result<Report, StartError> {
    evaluate_except(config, lines, &[]).await
}

/// [`evaluate`], the turns the exceptions name set aside: run as any
/// other, counted nowhere, listed with their reasons.
pub async fn evaluate_except<L: Into<Line>>(
    mut config: Config,
    lines: impl IntoIterator<Item = L>,
    exceptions: &[Exception],
) -> Result<Report, StartError> {
    // Each line is a session of its own, in this process: never written to
    // a shared store.
    config.sessions.backend = crate::config::SessionBackend::Memory;
    Ok(evaluate_on(&Daemon::new(config)?, lines, exceptions).await)
}

/// Every single-turn line's decision, scored, in file order (a dialogue's
/// turns are left out: they depend on what earlier turns showed): two
/// configurations compared line by line (S8, with the model on and off).
pub async fn decisions<L: Into<Line>>(mut config: Config, lines: impl IntoIterator<Item = L>) -> Result<Vec<Scored>, StartError> {
    config.sessions.backend = crate::config::SessionBackend::Memory;
    let daemon = Daemon::new(config)?;
    let g = daemon.current();
    let mut out = Vec::new();
    for line in lines {
        if let Line::Turn(c) = line.into() {
            let Case { at, category, request, expect, .. } = *c;
            out.push(decide(&daemon, &g, at, category, request, expect).await.0);
        }
    }
    Ok(out)
}

/// [`evaluate_except`] on `daemon`.
async fn evaluate_on<L: Into<Line>>(daemon: &Daemon, lines: impl IntoIterator<Item = L>, exceptions: &[Exception]) -> Report {
    // A line or dialogue without an id of its own is named by where it is
    // ("tests/corpus/dialogues.jsonl:1#2", as the report lists it).
    let reason_of = |id: &str| exceptions.iter().find(|e| !id.is_empty() && e.at == id).map(|e| e.reason.clone());
    let reason = |s: &Scored| reason_of(if s.id.is_empty() { &s.at } else { &s.id });
    let g = daemon.current();
    let mut scored = Vec::new();
    let mut walked: Vec<(String, dialogues::Walked)> = Vec::new();
    for line in lines {
        match line.into() {
            Line::Turn(c) => {
                let Case { at, id, category, request, expect, follow_up } = *c;
                let (mut s, _) = decide(daemon, &g, at, category, request, expect).await;
                s.id = id;
                s.expect_follow_up = follow_up;
                scored.push(s);
            }
            Line::Dialogue(d) => {
                let mut seen = Vec::with_capacity(d.turns.len());
                for (i, t) in d.turns.into_iter().enumerate() {
                    let at = format!("{}#{}", d.at, i + 1);
                    let id = if d.id.is_empty() { String::new() } else { format!("{}#{}", d.id, i + 1) };
                    let key = dialogues::request_key(&t.request);
                    let (session, turn_id) = (t.request.session_id.clone(), t.request.turn_id.clone());
                    let (mut s, mut last) = decide(daemon, &g, at.clone(), d.category.clone(), t.request, t.expect).await;
                    s.id = id.clone();
                    s.expect_follow_up = t.follow_up.clone();
                    let mut turn = dialogues::Seen {
                        at: at.clone(),
                        input: s.input.clone(),
                        key,
                        got: s.got.clone(),
                        verdicts: vec![s.verdict],
                        choice: None,
                        excepted: reason_of(if id.is_empty() { &at } else { &id }).is_some(),
                    };
                    scored.push(s);
                    if let Some(e) = t.enrich {
                        let at = format!("{at}+enrich");
                        let (s, d2) = match last.as_ref().filter(|dec| dec.outcome == ladder::Outcome::NeedMoreInfo) {
                            Some(dec) => {
                                let req = pb::EnrichRequest {
                                    session_id: session.clone(),
                                    turn_id: turn_id.clone(),
                                    loop_cycle_id: dec.loop_cycle_id.clone().unwrap_or_default(),
                                    evidence: e.evidence,
                                    chat_history: Vec::new(),
                                };
                                let (mut s, d2) = enrich(daemon, &g, at, req, e.expect, &d.category).await;
                                s.id = id.clone();
                                (s, d2)
                            }
                            // The app calls Enrich only after a NEED_MORE_INFO:
                            // the turn's own decision answers the expectation.
                            None => {
                                let (verdict, offered_expected) = score(&e.expect, &turn.got);
                                let input = scored.last().map(|s: &Scored| s.input.clone()).unwrap_or_default();
                                (
                                    Scored {
                                        at,
                                        id: id.clone(),
                                        category: d.category.clone(),
                                        input,
                                        expect: e.expect,
                                        expect_follow_up: String::new(),
                                        got: turn.got.clone(),
                                        verdict,
                                        offered_expected,
                                    },
                                    None,
                                )
                            }
                        };
                        turn.got = s.got.clone();
                        turn.verdicts.push(s.verdict);
                        scored.push(s);
                        if d2.is_some() {
                            last = d2;
                        }
                    }
                    if let Some(r) = t.record {
                        turn.choice = matches!(r.kind, pb::OutcomeKind::Accepted | pb::OutcomeKind::Executed | pb::OutcomeKind::Corrected)
                            .then(|| r.choice_id.clone());
                        if let Err(e) = record(daemon, &g, &session, &turn_id, last.as_ref(), r).await {
                            let got = Got { outcome: "invalid".into(), detail: format!("record_outcome: {e}"), ..Got::default() };
                            let input = scored.last().map(|s: &Scored| s.input.clone()).unwrap_or_default();
                            scored.push(Scored {
                                at: format!("{at}+record"),
                                id: id.clone(),
                                category: d.category.clone(),
                                input,
                                expect: Expect::Clarify(Vec::new()),
                                expect_follow_up: String::new(),
                                got,
                                verdict: Verdict::Invalid,
                                offered_expected: None,
                            });
                        }
                    }
                    seen.push(turn);
                }
                walked.push((d.category, dialogues::walk(&seen)));
            }
        }
    }
    let (counted, aside): (Vec<Scored>, Vec<Scored>) = scored.into_iter().partition(|s| reason(s).is_none());
    let mut r = report(g.policy.revision.clone(), counted);
    r.set_aside = aside.into_iter().map(|s| SetAside { reason: reason(&s).unwrap_or_default(), turn: s }).collect();
    for (category, w) in walked {
        r.dialogues.add(&w);
        r.dialogues_by_category.entry(category).or_default().add(&w);
    }
    r
}

/// One `Decide` turn, scored; its decision when the edge let it through.
async fn decide(
    daemon: &Daemon,
    g: &Generation,
    at: String,
    category: String,
    request: pb::DecideRequest,
    expect: Expect,
) -> (Scored, Option<ladder::Decision>) {
    let input = request.input.clone();
    let (got, decision) = match convert::decide_request(request, &g.config.limits) {
        Err(e) => (Got { outcome: "invalid".into(), detail: e.to_string(), ..Got::default() }, None),
        Ok(req) => {
            let risky = high_risk_ids(&req, &g.policy.matching.high_risk_kinds);
            match daemon.decide(g, req, None).await {
                Err(e) => (Got { outcome: "invalid".into(), detail: e.to_string(), ..Got::default() }, None),
                Ok(d) => (got(&d, &risky), Some(d)),
            }
        }
    };
    let (verdict, offered_expected) = score(&expect, &got);
    (Scored { at, id: String::new(), category, input, expect, expect_follow_up: String::new(), got, verdict, offered_expected }, decision)
}

/// A dialogue turn's `Enrich` step, scored.
async fn enrich(
    daemon: &Daemon,
    g: &Generation,
    at: String,
    request: pb::EnrichRequest,
    expect: Expect,
    category: &str,
) -> (Scored, Option<ladder::Decision>) {
    let risky: Vec<String> = request
        .evidence
        .iter()
        .flat_map(|b| b.candidates.iter().cloned())
        .map(ladder::Candidate::from)
        .filter(|c| c.is_high_risk(&g.policy.matching.high_risk_kinds))
        .map(|c| c.id)
        .collect();
    let (got, decision) = match convert::enrich_request(request, &g.config.limits) {
        Err(e) => (Got { outcome: "invalid".into(), detail: e.to_string(), ..Got::default() }, None),
        Ok(input) => match daemon.enrich(g, input, None).await {
            Err(e) => (Got { outcome: "invalid".into(), detail: format!("enrich: {e}"), ..Got::default() }, None),
            Ok(d) => (got(&d, &risky), Some(d)),
        },
    };
    let (verdict, offered_expected) = score(&expect, &got);
    (
        Scored {
            at,
            id: String::new(),
            category: category.to_string(),
            input: String::new(),
            expect,
            expect_follow_up: String::new(),
            got,
            verdict,
            offered_expected,
        },
        decision,
    )
}

/// A dialogue turn's `RecordOutcome`, on the turn's last decision.
async fn record(
    daemon: &Daemon,
    g: &Generation,
    session: &str,
    turn_id: &str,
    last: Option<&ladder::Decision>,
    r: RecordStep,
) -> Result<(), String> {
    let m = pb::RecordOutcomeRequest {
        session_id: session.to_string(),
        decision_id: last.map(|d| d.decision_id.clone()).unwrap_or_default(),
        kind: r.kind as i32,
        choice_id: r.choice_id,
        turn_id: turn_id.to_string(),
        scope: None,
        option_set_id: String::new(),
    };
    let o = convert::outcome_request(m, &g.config.limits).map_err(|e| e.to_string())?;
    daemon.record_outcome(g, o).await.map(|_| ()).map_err(|e| e.to_string())
}

/// The ids of the request's candidates that are high risk.
fn high_risk_ids(req: &ladder::DecideRequest, kinds: &[String]) -> Vec<String> {
    let lists = [req.option_candidates(), &req.recoverable_chat_options[..], &req.widget_items[..]];
    lists.iter().flat_map(|l| l.iter()).filter(|c| c.is_high_risk(kinds)).map(|c| c.id.clone()).collect()
}

/// What a decision did, as scoring needs it.
fn got(d: &ladder::Decision, high_risk: &[String]) -> Got {
    let target_id = d.target_id.clone().unwrap_or_default();
    let execute = d.outcome == ladder::Outcome::Execute;
    let rung = |name: &str| d.trace.iter().find(|s| s.rung == name);
    // A rung with the LLM off is no LLM turn.
    let llm = rung("llm").filter(|s| !matches!(s.outcome.as_str(), "not_eligible" | "llm_disabled")).map(|s| LlmSeen {
        called: d.llm.called,
        verdict: if d.llm.verdict.is_empty() { s.outcome.clone() } else { d.llm.verdict.clone() },
        picked: d.llm.suggested_id.clone().unwrap_or_default(),
        corroboration: d.llm.corroboration.clone(),
        executed: execute && d.decided_by == ladder::Decider::Llm,
    });
    Got {
        outcome: d.outcome.as_str().to_string(),
        high_risk: execute && high_risk.contains(&target_id),
        refused: rung("classify").is_some_and(|s| s.detail.contains("does not account for")),
        target_id,
        escape_reason: d.escape_reason.map(|r| r.as_str().to_string()).unwrap_or_default(),
        offered: d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default(),
        needed: d.needed_evidence_types.iter().map(|t| t.as_str().to_string()).collect(),
        detail: [d.ambiguity_reason.map(|r| r.as_str()), d.fallback_reason.map(|r| r.as_str())]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", "),
        llm,
        reply: reply_kind(d).unwrap_or_default().to_string(),
        follow_up: d.follow_up.as_ref().map(|f| f.kind.as_str().to_string()).unwrap_or_default(),
    }
}

/// The kind of reply a decision the reply rung made was read as: its step
/// in the trace names it (a step that passed, or read the words again for
/// the ladder to match, did not decide).
fn reply_kind(d: &ladder::Decision) -> Option<&str> {
    if d.handled_by_tier != ladder::Tier::Reply {
        return None;
    }
    let step = d.trace.iter().rev().find(|s| s.rung == "reply" && ladder::replies::ReplyKind::parse(&s.outcome).is_some())?;
    Some(step.outcome.as_str())
}

/// The report as a table, then the turns that were not right.
pub fn render(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "evaluated {} turns under config revision {}\n", r.overall.turns, r.config_revision);
    let header = |s: &mut String, first: &str| {
        let _ = writeln!(
            s,
            "{:<22} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>9}",
            first, "turns", "exec+", "exec-", "missed", "clarify", "offered", "esc+", "esc~", "esc-", "accuracy"
        );
    };
    header(&mut s, "category");
    let row = |s: &mut String, name: &str, t: &Tally| {
        let _ = writeln!(
            s,
            "{:<22} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>8.1}%",
            name,
            t.turns,
            t.right_executes,
            t.wrong_executes,
            t.missed_executes,
            t.clarify_ok,
            t.clarify_offered,
            t.escape_ok,
            t.escape_wrong,
            t.escape_missed + t.clarify_missed,
            100.0 * t.accuracy()
        );
    };
    for (name, t) in &r.by_category {
        row(&mut s, name, t);
    }
    row(&mut s, "overall", &r.overall);
    let sh = &r.shares;
    let _ = writeln!(
        s,
        "\nclear requests executed: {:.1}% of {}; ambiguous turns clarified: {:.1}% of {}; escapes right: {:.1}% of {}",
        100.0 * sh.clear_executed,
        sh.expected_execute,
        100.0 * sh.ambiguous_clarified,
        sh.expected_clarify,
        100.0 * sh.escapes_right,
        sh.expected_escape
    );
    let _ = writeln!(s, "wrong executes: {}", r.overall.wrong_executes);
    let o = &r.overall;
    let _ = writeln!(s, "high-risk executes: {} ({} wrong)", o.high_risk_executes, o.high_risk_wrong);
    if o.asked_one > 0 {
        let _ = writeln!(
            s,
            "clarifiers where one option was expected: {}; it was offered in {:.1}%, first in {:.1}%; options offered: {:.2} on average",
            o.asked_one,
            100.0 * ratio(o.asked_one_offered, o.asked_one),
            100.0 * ratio(o.asked_one_first, o.asked_one),
            ratio(o.asked_one_options, o.asked_one)
        );
    }
    if o.follow_up_questions + o.follow_up_requests + o.follow_up_expected > 0 {
        let _ = writeln!(
            s,
            "executes with a follow-up: {} question, {} request; expected {}, right {}",
            o.follow_up_questions, o.follow_up_requests, o.follow_up_expected, o.follow_up_right
        );
    }
    if r.replies.turns > 0 {
        // The order of `ReplyKind::ALL`: affirm, decline, cancel, repair, then the
        // answers to "which one?" and repetition.
        let order = |k: &str| ladder::replies::ReplyKind::ALL.iter().position(|x| x.as_str() == k).unwrap_or(usize::MAX);
        let mut kinds: Vec<_> = r.replies_by_kind.iter().collect();
        kinds.sort_by_key(|(k, _)| (order(k), k.as_str()));
        let _ = writeln!(s);
        header(&mut s, "reply read as");
        for (kind, t) in kinds {
            row(&mut s, kind, t);
        }
        row(&mut s, "all replies", &r.replies);
    }
    if r.dialogues.dialogues > 0 {
        let _ = writeln!(
            s,
            "\n{:<22} {:>9} {:>11} {:>10} {:>10} {:>9} {:>12} {:>15}",
            "dialogues", "dialogues", "fully right", "wrong exec", "repeated", "clarify %", "turns p50", "turns p90"
        );
        let row = |s: &mut String, name: &str, t: &DialogueTally| {
            let _ = writeln!(
                s,
                "{:<22} {:>9} {:>11} {:>10} {:>10} {:>8.1}% {:>12} {:>15}",
                name,
                t.dialogues,
                t.fully_right,
                t.wrong_executes,
                t.repeated_clarifiers,
                100.0 * t.clarifier_rate(),
                t.turns_to_resolution_median,
                t.turns_to_resolution_p90
            );
        };
        for (name, t) in &r.dialogues_by_category {
            row(&mut s, name, t);
        }
        row(&mut s, "overall", &r.dialogues);
        let d = &r.dialogues;
        let _ = writeln!(
            s,
            "\ndialogues fully right: {} of {}; wrong executes per dialogue: {:.2}; repeated clarifiers: {} ({} where an action was expected); clarifier rate per turn: {:.1}%; turns to resolution: median {}, p90 {}",
            d.fully_right,
            d.dialogues,
            d.wrong_executes_per_dialogue(),
            d.repeated_clarifiers,
            d.repeated_clarifiers_unexpected,
            100.0 * d.clarifier_rate(),
            d.turns_to_resolution_median,
            d.turns_to_resolution_p90
        );
        for (at, input) in &d.repeated {
            let _ = writeln!(s, "  repeated clarifier {at} {input:?}");
        }
    }
    let l = &r.llm;
    if l.reached > 0 {
        let verdicts = l.by_verdict.iter().map(|(v, n)| format!("{v} {n}")).collect::<Vec<_>>().join(", ");
        let _ = writeln!(s, "\nLLM rung: reached by {} turns, the provider asked on {} ({verdicts})", l.reached, l.called);
        let _ = writeln!(
            s,
            "  picks: {}; executed {} ({} right, {} wrong); not corroborated {}; kept to a clarifier by the gates {}",
            l.picked, l.executed, l.executed_right, l.executed_wrong, l.not_corroborated, l.kept_to_clarifier
        );
    }
    if l.refused > 0 {
        let _ = writeln!(
            s,
            "refused by the principle (a named candidate the input does not account for): {} turns; the LLM picked the expected one on {}, executed it on {}",
            l.refused, l.refused_picked_right, l.refused_resolved
        );
    }
    if r.overall.invalid > 0 {
        let _ = writeln!(s, "invalid lines (refused at the edge): {}", r.overall.invalid);
    }
    let got = |g: &Got| match g.outcome.as_str() {
        "execute" => format!("execute {}", g.target_id),
        "escape" => format!("escape {}", g.escape_reason),
        "invalid" => format!("invalid: {}", g.detail),
        o => format!("{o} {:?} ({})", g.offered, g.detail),
    };
    if !r.set_aside.is_empty() {
        let _ = writeln!(s, "\nset aside, the expectation judged wrong (counted nowhere above): {}", r.set_aside.len());
        for a in &r.set_aside {
            let f = &a.turn;
            let _ = writeln!(s, "  {} {} [{}] {:?}: expected {:?}, got {}", f.id, f.at, f.category, f.input, f.expect, got(&f.got));
            let _ = writeln!(s, "    because {}", a.reason);
        }
    }
    if !r.failures.is_empty() {
        let _ = writeln!(s, "\nnot right:");
        for f in &r.failures {
            let expected_follow_up =
                if f.expect_follow_up.is_empty() { String::new() } else { format!(" with a {} follow-up", f.expect_follow_up) };
            let got_follow_up = if f.got.follow_up.is_empty() { String::new() } else { format!(" with a {} follow-up", f.got.follow_up) };
            let _ = writeln!(
                s,
                "  {:?} {} [{}] {:?}: expected {:?}{expected_follow_up}, got {}{got_follow_up}",
                f.verdict,
                f.at,
                f.category,
                f.input,
                f.expect,
                got(&f.got)
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decisions do not depend on how the store keeps a session: the
    /// dialogue corpora (every turn reads what the turns before left) give
    /// the same report when every session is packed as soon as its call
    /// is done (as each is in a store holding more than 4,096) as when
    /// every session stays open (as each is in one holding fewer).
    #[tokio::test]
    async fn dialogues_decide_the_same_on_packed_sessions() {
        for file in ["tests/corpus/dialogues.jsonl", "tests/corpus/dialogues-b/dialogues.jsonl", "examples/eval/dialogues.jsonl"] {
            let lines = read(std::path::Path::new(file)).expect("the corpus reads");
            assert!(lines.iter().any(|l| matches!(l, Line::Dialogue(_))), "{file} holds dialogues");
            let config = Config::default();
            let max = config.sessions.max;
            let idle = std::time::Duration::from_secs(config.sessions.idle_ttl_seconds);
            let open = Daemon::new(config.clone())
                .expect("the defaults")
                .with_store(std::sync::Arc::new(crate::store::MemoryStore::keeping_open(max, idle, 1_000_000)));
            let packed = Daemon::new(config)
                .expect("the defaults")
                .with_store(std::sync::Arc::new(crate::store::MemoryStore::keeping_open(max, idle, 0)));
            let (a, b) = (evaluate_on(&open, lines.clone(), &[]).await, evaluate_on(&packed, lines, &[]).await);
            let json = |r: &Report| serde_json::to_string_pretty(r).expect("a report serializes");
            let (a, b) = (json(&a), json(&b));
            let first = a.lines().zip(b.lines()).position(|(x, y)| x != y);
            assert!(
                a == b,
                "{file}: the reports differ, first at line {first:?}: {:?}",
                first.map(|i| (a.lines().nth(i), b.lines().nth(i)))
            );
        }
    }

    fn got(outcome: &str, target: &str, offered: &[&str]) -> Got {
        Got {
            outcome: outcome.into(),
            target_id: target.into(),
            escape_reason: if outcome == "escape" { target.into() } else { String::new() },
            offered: offered.iter().map(|s| s.to_string()).collect(),
            detail: String::new(),
            ..Got::default()
        }
    }

    #[test]
    fn scoring_table() {
        let ex = |id: &str| Expect::Execute(id.into());
        let cl = |ids: &[&str]| Expect::Clarify(ids.iter().map(|s| s.to_string()).collect());
        let es = |r: &str| Expect::Escape(r.into());
        let table = [
            (ex("a"), got("execute", "a", &[]), Verdict::RightExecute, None),
            (ex("a"), got("execute", "b", &[]), Verdict::WrongExecute, None),
            (ex("a"), got("clarify", "", &["b", "a"]), Verdict::MissedExecute, Some(true)),
            (ex("a"), got("clarify", "", &["b"]), Verdict::MissedExecute, Some(false)),
            (ex("a"), got("escape", "cancel", &[]), Verdict::MissedExecute, Some(false)),
            (cl(&["a", "b"]), got("clarify", "", &["b", "a", "c"]), Verdict::ClarifyOk, Some(true)),
            (cl(&["a", "b"]), got("need_more_info", "", &["a"]), Verdict::ClarifyOk, Some(false)),
            (cl(&["a"]), got("execute", "a", &[]), Verdict::WrongExecute, None),
            (cl(&["a"]), got("escape", "command", &[]), Verdict::ClarifyMissed, None),
            (es("cancel"), got("escape", "cancel", &[]), Verdict::EscapeOk, None),
            (es("cancel"), got("escape", "question_intent", &[]), Verdict::EscapeWrong, None),
            (es("cancel"), got("clarify", "", &["a"]), Verdict::EscapeMissed, None),
            (es("question_intent"), got("execute", "a", &[]), Verdict::WrongExecute, None),
            (ex("a"), got("invalid", "", &[]), Verdict::Invalid, None),
        ];
        for (expect, got, verdict, offered) in table {
            assert_eq!(score(&expect, &got), (verdict, offered), "{expect:?} vs {got:?}");
        }
    }

    #[test]
    fn lines_read_in_proto_json_names_or_the_originals() {
        let camel = serde_json::json!({"input": "the second one", "category": "ordinal",
            "options": {"optionSetId": "s", "scope": "SCOPE_CHAT", "candidates": [{"id": "a", "label": "A"}, {"id": "b", "label": "B", "aliases": ["bee"]}]},
            "activeScope": {"scope": "SCOPE_CHAT", "instanceId": "c1"}, "widgetItems": [{"id": "w", "label": "W"}],
            "expect": {"execute": "b"}});
        let snake = serde_json::json!({"input": "the second one", "category": "ordinal",
            "options": {"option_set_id": "s", "scope": 1, "candidates": [{"id": "a", "label": "A"}, {"id": "b", "label": "B", "aliases": ["bee"]}]},
            "active_scope": {"scope": "SCOPE_CHAT", "instance_id": "c1"}, "widget_items": [{"id": "w", "label": "W"}],
            "expect": {"execute": "b"}});
        let a = case("f:1", &camel).unwrap();
        let b = case("f:1", &snake).unwrap();
        assert_eq!(a.request, b.request);
        assert_eq!(a.expect, Expect::Execute("b".into()));
        let o = a.request.options.unwrap();
        assert_eq!((o.option_set_id.as_str(), o.scope, o.candidates[1].aliases.clone()), ("s", pb::Scope::Chat as i32, vec!["bee".into()]));
        assert_eq!(a.request.active_scope.unwrap().instance_id, "c1");
        assert_eq!(a.request.widget_items.len(), 1);
        assert!(!a.request.session_id.is_empty(), "each line gets a session of its own");
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, want) in [
            (serde_json::json!({"input": "x"}), "expect must be"),
            (serde_json::json!({"input": "x", "expect": {"pick": "a"}}), "expect.pick"),
            (serde_json::json!({"input": "x", "expect": {"clarify": "a"}}), "list of ids"),
            (serde_json::json!({"input": 3, "expect": {"execute": "a"}}), "input must be a string"),
            (serde_json::json!({"input": "x", "options": {"scope": "SCOPE_MOON"}, "expect": {"execute": "a"}}), "not a Scope"),
        ] {
            let err = case("f:1", &line).unwrap_err();
            assert!(err.contains(want), "{line}: {err}");
        }
    }

    #[test]
    fn the_report_counts_each_kind_of_turn_by_what_a_person_expects() {
        let s = scored;
        let r = report(
            "rev".into(),
            vec![
                s(Expect::Execute("a".into()), got("execute", "a", &[]), "ordinal"),
                s(Expect::Execute("a".into()), got("clarify", "", &["a"]), "ordinal"),
                s(Expect::Clarify(vec!["a".into()]), got("clarify", "", &["a"]), "vague"),
                s(Expect::Clarify(vec!["a".into()]), got("execute", "b", &[]), "vague"),
                s(Expect::Escape("cancel".into()), got("escape", "cancel", &[]), "cancel"),
            ],
        );
        assert_eq!((r.overall.turns, r.overall.right(), r.wrong_executes()), (5, 3, 1));
        assert_eq!((r.shares.expected_execute, r.shares.expected_clarify, r.shares.expected_escape), (2, 2, 1));
        assert_eq!((r.shares.clear_executed, r.shares.ambiguous_clarified, r.shares.escapes_right), (0.5, 0.5, 1.0));
        assert_eq!(r.by_category["ordinal"].missed_but_offered, 1);
        assert_eq!(r.failures.len(), 2);
        assert!(render(&r).contains("wrong executes: 1"));
    }

    /// A clarifier where one option was expected is judged by whether it
    /// offered the option, first, and how many it offered; other turns
    /// are not counted there.
    #[test]
    fn clarifiers_where_one_option_was_expected_count_the_option_offered_and_first() {
        let one = |offered: &[&str]| scored(Expect::Execute("a".into()), got("clarify", "", offered), "vague");
        let r = report(
            "rev".into(),
            vec![
                one(&["b", "a", "c"]),
                one(&["a", "b"]),
                one(&["b", "c", "d", "e"]),
                scored(Expect::Execute("a".into()), got("execute", "a", &[]), "exact"),
                scored(Expect::Clarify(vec!["a".into(), "b".into()]), got("clarify", "", &["a", "b"]), "vague"),
            ],
        );
        let o = &r.overall;
        assert_eq!((o.asked_one, o.asked_one_offered, o.asked_one_first, o.asked_one_options), (3, 2, 1, 9));
        assert!(
            render(&r).contains(
                "clarifiers where one option was expected: 3; it was offered in 66.7%, first in 33.3%; options offered: 3.00 on average"
            ),
            "{}",
            render(&r)
        );
        let none = report("rev".into(), vec![scored(Expect::Execute("a".into()), got("execute", "a", &[]), "exact")]);
        assert!(!render(&none).contains("clarifiers where one option"), "no line without such turns");
    }

    fn scored(expect: Expect, got: Got, category: &str) -> Scored {
        let (verdict, offered_expected) = score(&expect, &got);
        Scored {
            at: "f:1".into(),
            id: String::new(),
            category: category.into(),
            input: String::new(),
            expect,
            expect_follow_up: String::new(),
            got,
            verdict,
            offered_expected,
        }
    }

    fn replied(mut g: Got, kind: &str) -> Got {
        g.reply = kind.into();
        g
    }

    #[test]
    fn the_turns_the_reply_rung_decided_are_counted_by_kind() {
        let ex = |id: &str| Expect::Execute(id.into());
        let r = report(
            "rev".into(),
            vec![
                scored(ex("a"), replied(got("execute", "a", &[]), "affirm"), "confirm"),
                scored(ex("a"), replied(got("execute", "a", &[]), "affirm"), "confirm"),
                scored(Expect::Clarify(vec![]), replied(got("execute", "a", &[]), "position"), "refuse"),
                scored(ex("b"), replied(got("clarify", "", &["a", "b"]), "position"), "pick"),
                scored(Expect::Escape("declined".into()), replied(got("escape", "declined", &[]), "decline"), "refuse"),
                scored(Expect::Escape("cancel".into()), replied(got("escape", "declined", &[]), "decline"), "refuse"),
                // Not read as a reply: in the categories, not in the replies.
                scored(ex("a"), got("execute", "a", &[]), "pick"),
            ],
        );
        let t = |kind: &str| {
            let t = &r.replies_by_kind[kind];
            (t.turns, t.right_executes, t.wrong_executes, t.missed_executes, t.escape_ok, t.escape_wrong)
        };
        assert_eq!(t("affirm"), (2, 2, 0, 0, 0, 0));
        assert_eq!(t("position"), (2, 0, 1, 1, 0, 0));
        assert_eq!(t("decline"), (2, 0, 0, 0, 1, 1));
        assert_eq!(r.replies_by_kind.len(), 3);
        assert_eq!((r.replies.turns, r.replies.right(), r.overall.turns), (6, 3, 7));
        let text = render(&r);
        let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("reply read as")).take(5).collect();
        assert_eq!(rows.len(), 5, "{text}");
        assert!(
            rows[1].starts_with("affirm ") && rows[2].starts_with("decline ") && rows[3].starts_with("position "),
            "ReplyKind::ALL order: {text}"
        );
        assert!(rows[4].starts_with("all replies") && rows[4].contains("50.0%"), "{text}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["replies_by_kind"]["position"]["wrong_executes"], 1);
        // A corpus nobody replied in shows no reply table.
        let r = report("rev".into(), vec![scored(ex("a"), got("execute", "a", &[]), "pick")]);
        assert!(!render(&r).contains("reply read as"));
        assert_eq!(serde_json::to_value(&r).unwrap()["replies_by_kind"], serde_json::json!({}));
    }

    #[test]
    fn a_reply_kind_is_the_reply_rungs_own_decision_only() {
        let step = |rung: &'static str, outcome: &str| ladder::Step {
            rung: rung.into(),
            outcome: outcome.into(),
            detail: String::new(),
            duration_us: 0,
        };
        let decision = |tier: ladder::Tier, trace: Vec<ladder::Step>| {
            let mut d = ladder::Decision::new(ladder::Outcome::Execute, tier);
            d.trace = trace;
            d
        };
        let read = |d: &ladder::Decision| reply_kind(d).map(str::to_string);
        let d = decision(ladder::Tier::Reply, vec![step("scope", "chat"), step("reply", "affirm")]);
        assert_eq!(read(&d).as_deref(), Some("affirm"));
        // The detail answer read after the match (step 7b) follows a pass.
        let d = decision(ladder::Tier::Reply, vec![step("reply", "pass"), step("match", "tie"), step("reply", "detail")]);
        assert_eq!(read(&d).as_deref(), Some("detail"));
        // A refusal whose words the ladder read again was decided by the match.
        let d = decision(ladder::Tier::Deterministic, vec![step("reply", "decline"), step("match", "one")]);
        assert_eq!(read(&d), None);
        let d = decision(ladder::Tier::Deterministic, vec![step("reply", "pass")]);
        assert_eq!(read(&d), None);
        for kind in ladder::replies::ReplyKind::ALL {
            let d = decision(ladder::Tier::Reply, vec![step("reply", kind.as_str())]);
            assert_eq!(read(&d).as_deref(), Some(kind.as_str()));
        }
    }

    #[test]
    fn exceptions_name_turns_by_line_id_and_dialogue_turn() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exceptions.jsonl");
        std::fs::write(&path, "# judged wrong\n{\"at\": \"t1\", \"reason\": \"r1\"}\n\n{\"at\": \"d1#2\", \"reason\": \"r2\"}\n").unwrap();
        let ex = read_exceptions(&path).unwrap();
        assert_eq!(ex, vec![Exception { at: "t1".into(), reason: "r1".into() }, Exception { at: "d1#2".into(), reason: "r2".into() }]);
        let turn = serde_json::json!({"id": "t1", "input": "x", "expect": {"execute": "a"}});
        let talk = serde_json::json!({"id": "d1", "dialogue": [{"input": "x", "expect": {"execute": "a"}}, {"input": "y", "expect": {"execute": "a"}}]});
        let lines = vec![Line::from(case("f:1", &turn).unwrap()), Line::from(dialogue("f:2", &talk).unwrap())];
        assert!(unknown_exceptions(&lines, &ex).is_empty());
        let stale = [Exception { at: "d1#3".into(), reason: "r".into() }, Exception { at: "t2".into(), reason: "r".into() }];
        assert_eq!(unknown_exceptions(&lines, &stale).len(), 2);
        for (text, want) in [
            ("{\"at\": \"t1\"}", "reason"),
            ("{\"at\": \" \", \"reason\": \"r\"}", "reason"),
            ("{\"at\": \"t1\", \"reason\": \"r\"}\n{\"at\": \"t1\", \"reason\": \"s\"}", "twice"),
            ("at t1", "not JSON"),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = read_exceptions(&path).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[tokio::test]
    async fn a_turn_set_aside_runs_but_is_counted_nowhere_and_listed_with_its_reason() {
        let options = serde_json::json!({"optionSetId": "s", "scope": "SCOPE_CHAT",
            "candidates": [{"id": "a", "label": "Alpha report"}, {"id": "b", "label": "Beta report"}]});
        let turn = |id: &str, input: &str, expect: serde_json::Value| {
            Line::from(
                case(&format!("f:{id}"), &serde_json::json!({"id": id, "input": input, "options": options, "expect": expect})).unwrap(),
            )
        };
        let lines = || {
            vec![
                turn("t1", "alpha report", serde_json::json!({"execute": "a"})),
                // Judged wrong: the expectation asks to execute what the user did not name.
                turn("t2", "alpha report", serde_json::json!({"execute": "b"})),
            ]
        };
        let all = evaluate(Config::default(), lines()).await.unwrap();
        assert_eq!((all.overall.turns, all.wrong_executes(), all.set_aside.len()), (2, 1, 0));
        let why = [Exception { at: "t2".into(), reason: "the user named alpha".into() }];
        let r = evaluate_except(Config::default(), lines(), &why).await.unwrap();
        assert_eq!((r.overall.turns, r.wrong_executes(), r.failures.len()), (1, 0, 0));
        assert_eq!((r.set_aside.len(), r.set_aside[0].turn.id.as_str(), r.set_aside[0].turn.verdict), (1, "t2", Verdict::WrongExecute));
        let text = render(&r);
        assert!(text.contains("set aside, the expectation judged wrong (counted nowhere above): 1"), "{text}");
        assert!(
            text.contains(
                "  t2 f:t2 [uncategorized] \"alpha report\": expected Execute(\"b\"), got execute a\n    because the user named alpha"
            ),
            "{text}"
        );
        assert_eq!(serde_json::to_value(&r).unwrap()["set_aside"][0]["reason"], "the user named alpha");
    }

    /// The reply rung's own trace names the kind, as the daemon runs it.
    #[tokio::test]
    async fn a_reply_to_the_apps_confirmation_is_counted_as_its_kind() {
        let confirm = serde_json::json!({"optionSetId": "s", "scope": "SCOPE_CHAT", "asked": "ASKED_CONFIRMATION",
            "candidates": [{"id": "a", "label": "Book a table: Luigi's"}]});
        let lines = [("yes please", serde_json::json!({"execute": "a"})), ("no", serde_json::json!({"escape": "declined"}))]
            .iter()
            .map(|(input, expect)| case("f:1", &serde_json::json!({"input": input, "options": confirm, "expect": expect})).unwrap())
            .collect::<Vec<_>>();
        let r = evaluate(Config::default(), lines).await.unwrap();
        let text = render(&r);
        assert_eq!((r.replies.turns, r.replies.right()), (2, 2), "{text}");
        assert_eq!((r.replies_by_kind["affirm"].right_executes, r.replies_by_kind["decline"].escape_ok), (1, 1), "{text}");
    }
}
