//! Per-session continuity state (docs/continuity.md) and the TTL rules
//! that make it stale. Its rooms: `update` (the updates a decision or an
//! outcome applies to it), `rung` (the deterministic continuity resolver),
//! `enrich` (how `Enrich` evidence joins a cycle's request) and `view`
//! (what a ladder run reads of the state, noted as facts).
//!
//! The state is plain data; a session store (an adapter) keeps it and applies
//! `Update`s atomically with `ContinuityState::apply`, so a shared backend
//! can be added without touching the ladder.

use super::clarifier::Tie;
use super::matching::MatchTier;
use super::scope::Source;
use super::types::{AmbiguityReason, Candidate, DecideRequest, Decision, EvidenceType, OptionSet, Scope, ScopeRef};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Newest-first action trace length: the last 5 actions.
pub const TRACE_LEN: usize = 5;
/// Accepted / rejected choice windows.
pub const CHOICE_WINDOW: usize = 5;

pub use crate::question::{PendingQuestion, QuestionChange, QuestionKind};
pub use crate::types::PendingClarifier;
pub use enrich::merge_evidence;
pub use rung::{Other, REFUSED, Resolution, guarded, label_winner, resolve, the_other};
pub use update::{Applied, CycleChange, DecidedUpdate, EnrichRefusal, OutcomeUpdate, Update};
pub use view::{Fact, StateView};

mod enrich;
mod rung;
mod update;
mod view;

wire_enum! {
    "snake_case",
    /// What an action trace entry records.
    pub enum ActionKind {
        /// An EXECUTE decision.
        Execute,
        /// An escape to a command.
        Command,
        /// A `RecordOutcome`.
        Outcome,
    }
}

wire_enum! {
    "snake_case",
    /// How an action ended (for decisions) or what the app reported.
    pub enum ActionOutcome {
        Decided,
        Escaped,
        Accepted,
        Executed,
        Rejected,
        Corrected,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionEntry {
    pub kind: ActionKind,
    pub target_ref: String,
    pub source_scope: Scope,
    pub option_set_id: String,
    /// Milliseconds since the Unix epoch.
    pub timestamp_ms: i64,
    pub outcome: ActionOutcome,
    /// The label the target had when it was executed, when the decision
    /// knew it: "one more" and "not that one" on another screen act on it
    /// only where the same id still shows the same label.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target_label: String,
    /// The words of the input that chose it, as a mask
    /// (`refusals::word_mask`; 0: not known): once it is refused, those
    /// words never choose it again within the TTL.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub chosen_by: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

wire_enum! {
    "snake_case",
    /// Which budget table an enrichment cycle runs under.
    pub enum Lane {
        /// Choosing among known candidates.
        Selection,
        /// Inferring meaning from context (no deterministic match).
        Semantic,
    }
}

/// One unresolved cycle: from the first unresolved decision on some evidence
/// until a resolution. Holds the loop guard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cycle {
    pub id: String,
    /// canonical input + sorted candidate ids + option_set_id + scope.
    pub guard_key: String,
    /// An LLM attempt started for `guard_key` (successful or not).
    pub llm_attempted: bool,
    /// The last clarifier's option order, reused on a guard repeat.
    pub ordering: Vec<String>,
    pub suggested_id: Option<String>,
    pub lane: Lane,
    pub fingerprint: String,
    pub enrichment_steps: u32,
    pub llm_calls: u32,
    /// The request the cycle is about (with evidence merged in), kept so
    /// `Enrich` can re-run the ladder. Shared with the caller that owns it
    /// (`Decided::attach_request`), never copied; dropped when the cycle
    /// resolves.
    pub request: Option<std::sync::Arc<DecideRequest>>,
    /// Excerpts supplied through `Enrich`, newest first.
    pub excerpts: Vec<String>,
    /// Chat history from the latest `Enrich`, newest first.
    pub history: Vec<String>,
    /// Evidence types supplied through `Enrich` so far: their candidates
    /// join the pool of the cycle's next LLM call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supplied: Vec<EvidenceType>,
    pub resolved: bool,
}

impl Cycle {
    /// A new open cycle on `guard_key`: selection lane, nothing attempted,
    /// counted or held yet.
    pub fn new(id: impl Into<String>, guard_key: impl Into<String>) -> Self {
        Cycle {
            id: id.into(),
            guard_key: guard_key.into(),
            llm_attempted: false,
            ordering: Vec::new(),
            suggested_id: None,
            lane: Lane::Selection,
            fingerprint: String::new(),
            enrichment_steps: 0,
            llm_calls: 0,
            request: None,
            excerpts: Vec::new(),
            history: Vec::new(),
            supplied: Vec::new(),
            resolved: false,
        }
    }

    /// One `Enrich` step's evidence joins the cycle: its candidates join
    /// the request (ids stay unique), its excerpts (newest first) and chat
    /// history become context, and the types supplied are remembered so
    /// their candidates enter the pool. Returns the request to decide on.
    pub fn enrich(&mut self, evidence: &[(EvidenceType, Vec<Candidate>, String)], history: &[String]) -> DecideRequest {
        let base = self.request.as_deref().cloned().unwrap_or_default();
        let (merged, mut excerpts) = merge_evidence(&base, evidence);
        excerpts.append(&mut self.excerpts);
        self.excerpts = excerpts;
        if !history.is_empty() {
            self.history = history.to_vec();
        }
        for (ty, _, _) in evidence {
            if !self.supplied.contains(ty) {
                self.supplied.push(*ty);
            }
        }
        merged
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ContinuityState {
    pub last_resolved_action: Option<ActionEntry>,
    /// Newest first, at most `TRACE_LEN`.
    pub recent_action_trace: VecDeque<ActionEntry>,
    pub last_accepted_choice_id: Option<String>,
    pub recent_accepted_choice_ids: VecDeque<String>,
    pub recent_rejected_choice_ids: VecDeque<String>,
    pub active_option_set_id: Option<String>,
    pub active_scope: Option<ScopeRef>,
    pub pending_clarifier_type: PendingClarifier,
    /// What ladderd asked on its last turn (a clarifier or a confirmation),
    /// which the next turn may answer (docs/replies.md); kept through a
    /// question the user asks meanwhile, cleared by any other turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<PendingQuestion>,
    /// Turns (Decide calls) seen in this session.
    pub turn_count: u64,
    /// Turn and monotonic time at which the continuity context was last set.
    pub context_turn: u64,
    pub context_at_ms: u64,
    pub cycle: Option<Cycle>,
    /// The session's last applied turn, when its `Decide` carried a
    /// `turn_id`: a `Decide` repeated with that `turn_id` and the same
    /// input (a client retrying after a lost answer) gets its decision and
    /// applies nothing again (`DecidedUpdate::turn`). Kept through stale
    /// context (the ladder never reads it: `view` leaves it out); cleared
    /// by a turn without a `turn_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_turn: Option<Box<LastTurn>>,
}

/// A turn as the session keeps it for a repeated `Decide`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastTurn {
    pub key: TurnKey,
    /// The decision the turn got, without its trace.
    pub decision: Decision,
}

/// What tells a turn from another: digests of its `turn_id` and of its
/// input (SHA-256, cut to 32 bits each: stable across processes, so a
/// replica tells a turn another replica applied). A repeat needs both to
/// match (64 bits); the `turn_id` alone only tells a reused one, counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnKey {
    pub turn: u32,
    pub input: u32,
}

impl TurnKey {
    /// The key of a turn; `None` without a `turn_id` (no turn to repeat).
    pub fn of(turn_id: &str, input: &str) -> Option<TurnKey> {
        use sha2::{Digest, Sha256};
        if turn_id.is_empty() {
            return None;
        }
        let digest = |domain: &[u8], s: &str| {
            let mut h = Sha256::new();
            h.update(domain);
            h.update(s.as_bytes());
            h.finalize()
        };
        let t = digest(b"ladder turn id\0", turn_id);
        let i = digest(b"ladder turn input\0", input);
        Some(TurnKey {
            turn: u32::from_le_bytes(t[..4].try_into().unwrap_or_default()),
            input: u32::from_le_bytes(i[..4].try_into().unwrap_or_default()),
        })
    }
}

/// TTL of the continuity context, whichever comes first: the
/// `[continuity]` section of the configuration, as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Ttl {
    pub ttl_turns: u64,
    pub ttl_seconds: u64,
}

impl Default for Ttl {
    /// 3 turns or 10 minutes, whichever ends first.
    fn default() -> Self {
        Ttl { ttl_turns: 3, ttl_seconds: 600 }
    }
}

impl Ttl {
    pub fn millis(&self) -> u64 {
        self.ttl_seconds.saturating_mul(1000)
    }
}

/// Clock readings for one request: monotonic for TTLs, wall for records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Now {
    pub mono_ms: u64,
    pub wall_ms: i64,
}

impl ContinuityState {
    /// Whether the continuity context is still valid for the turn that is
    /// being decided now (turn `turn_count + 1`).
    pub fn is_fresh(&self, now: Now, ttl: Ttl) -> bool {
        self.context_turn > 0
            && (self.turn_count + 1).saturating_sub(self.context_turn) <= ttl.ttl_turns
            && now.mono_ms.saturating_sub(self.context_at_ms) <= ttl.millis()
    }

    /// The state as the ladder may use it now: stale context is cleared, so
    /// an old winner can never be forced (the turn counter survives).
    pub fn view(&self, now: Now, ttl: Ttl) -> ContinuityState {
        if self.is_fresh(now, ttl) { self.clone() } else { ContinuityState { turn_count: self.turn_count, ..Default::default() } }
    }

    /// `view` without copying: the same state when it is fresh.
    pub fn view_shared(state: Option<std::sync::Arc<ContinuityState>>, now: Now, ttl: Ttl) -> std::sync::Arc<ContinuityState> {
        match state {
            Some(s) if s.is_fresh(now, ttl) => s,
            Some(s) => std::sync::Arc::new(ContinuityState { turn_count: s.turn_count, ..Default::default() }),
            None => std::sync::Arc::default(),
        }
    }

    /// Candidates held by the open cycle's stored request (memory accounting).
    pub fn held_candidates(&self) -> usize {
        self.open_cycle().and_then(|c| c.request.as_deref()).map_or(0, DecideRequest::candidate_count)
    }

    /// The bytes of those candidates (`DecideRequest::candidate_bytes`).
    pub fn held_bytes(&self) -> usize {
        self.open_cycle().and_then(|c| c.request.as_deref()).map_or(0, DecideRequest::candidate_bytes)
    }

    /// The label `id` was shown with: by the question asked, else by the
    /// open cycle's held request (empty: not known).
    fn label_shown(&self, id: &str) -> String {
        let asked = self.question.as_ref().map_or("", |q| q.label_of(id));
        if !asked.is_empty() || id.is_empty() {
            return asked.to_string();
        }
        let held = self.open_cycle().and_then(|c| c.request.as_deref());
        held.and_then(|r| r.option_candidates().iter().find(|c| c.id == id)).map_or_else(String::new, |c| c.label.clone())
    }

    /// The open (unresolved) cycle, if any.
    pub fn open_cycle(&self) -> Option<&Cycle> {
        self.cycle.as_ref().filter(|c| !c.resolved)
    }

    /// The open cycle, if its guard key is `guard_key` (the same evidence).
    pub fn cycle_keyed(&self, guard_key: &str) -> Option<&Cycle> {
        self.open_cycle().filter(|c| c.guard_key == guard_key)
    }

    /// Whether the continuity context's option set is `set` (never for "").
    pub fn active_set_is(&self, set: &str) -> bool {
        !set.is_empty() && self.active_option_set_id.as_deref() == Some(set)
    }

    /// Whether the continuity context's scope is `scope`.
    pub fn active_scope_is(&self, scope: &Option<ScopeRef>) -> bool {
        self.active_scope == *scope
    }

    /// Refusals stick (docs/llm.md#refusals-stick): whether `id` may not be
    /// executed by an LLM pick or the continuity resolver, because the user
    /// refused it (`recent_rejected_choice_ids`: RecordOutcome REJECTED or
    /// CORRECTED) or the session awaits a repair
    /// (`pending_clarifier = repair`: then no pick is). Read on the state as
    /// the ladder sees it (`view`), so only within the continuity TTL. The
    /// user's own explicit words (a deterministic execute) are never
    /// refused.
    pub fn refused(&self, id: &str) -> bool {
        self.pending_clarifier_type == PendingClarifier::Repair || self.recent_rejected_choice_ids.iter().any(|r| r == id)
    }

    /// When the user refused `id` within the TTL (`rejected`): the words
    /// that chose it (the mask kept with the execute of ladderd's that ran
    /// it; every word, `u64::MAX`, when none did: the app chose it).
    pub fn refusal(&self, id: &str) -> Option<u64> {
        if !self.rejected(id) {
            return None;
        }
        let chosen = self.recent_action_trace.iter().find(|e| e.kind == ActionKind::Execute && e.target_ref == id && e.chosen_by != 0);
        Some(chosen.map_or(u64::MAX, |e| e.chosen_by))
    }

    /// The session's newest action, when it executed something (a
    /// decision's execute, or the app's EXECUTED, ACCEPTED or REJECTED
    /// of one): what "not that one" refuses and "one more" repeats.
    pub fn last_execute(&self) -> Option<Executed> {
        let e = self.recent_action_trace.front().filter(|e| {
            matches!(e.kind, ActionKind::Execute)
                || matches!(e.outcome, ActionOutcome::Executed | ActionOutcome::Accepted | ActionOutcome::Rejected)
        })?;
        if e.target_ref.is_empty() {
            return None;
        }
        // An outcome the app recorded carries no label: the execute it
        // reports does.
        let label = self
            .recent_action_trace
            .iter()
            .find(|a| a.target_ref == e.target_ref && !a.target_label.is_empty())
            .map_or_else(String::new, |a| a.target_label.clone());
        Some(Executed { id: e.target_ref.clone(), option_set_id: e.option_set_id.clone(), label })
    }

    /// Whether the user rejected `id` within the continuity TTL (a
    /// `RecordOutcome` REJECTED or CORRECTED, or a reply's "not that one").
    pub fn rejected(&self, id: &str) -> bool {
        self.recent_rejected_choice_ids.iter().any(|r| r == id)
    }

    /// Whether `fact` is true of this state (as the ladder reads it:
    /// `view` applied first).
    pub fn holds(&self, fact: &Fact) -> bool {
        match fact {
            Fact::NoCycle(key) => self.cycle_keyed(key).is_none(),
            Fact::NoOtherSuggestion { key, winner } => {
                self.cycle_keyed(key).is_none_or(|c| c.suggested_id.as_deref().is_none_or(|s| s == winner))
            }
            Fact::ActiveSet { set, is } => self.active_set_is(set) == *is,
            Fact::ActiveScope { scope, is } => self.active_scope_is(scope) == *is,
            Fact::Refused { id, is } => self.refused(id) == *is,
            Fact::Rejected { id, is } => self.rejected(id) == *is,
            Fact::Refusal { id, is } => self.refusal(id) == *is,
            Fact::Asked(q) => self.question == *q,
            Fact::LastExecute(is) => self.last_execute() == *is,
            Fact::Detail { words, values, is } => self.question.as_ref().and_then(|q| q.detail(words, values)) == is.as_deref(),
        }
    }
}

/// The execute a session had last (`ContinuityState::last_execute`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Executed {
    pub id: String,
    pub option_set_id: String,
    /// Its label when executed (empty: not known).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

impl Executed {
    /// Whether it is `cand` on the screen of option set `set`: the same
    /// option set, or the same id showing the same label.
    pub fn is(&self, cand: &Candidate, set: &str) -> bool {
        cand.id == self.id && ((!set.is_empty() && set == self.option_set_id) || (!self.label.is_empty() && cand.label == self.label))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTL: Ttl = Ttl { ttl_turns: 3, ttl_seconds: 600 };

    fn at(ms: u64) -> Now {
        Now { mono_ms: ms, wall_ms: 0 }
    }

    fn decided(set: &str) -> Update {
        Update::Decided(DecidedUpdate {
            new_turn: true,
            options_context: Some((set.into(), None)),
            pending: PendingClarifier::SelectionDisambiguation,
            keep_pending: false,
            resolved: None,
            cycle: CycleChange::Keep,
            ..Default::default()
        })
    }

    fn bare_turn() -> Update {
        Update::Decided(DecidedUpdate {
            new_turn: true,
            options_context: None,
            pending: PendingClarifier::None,
            keep_pending: false,
            resolved: None,
            cycle: CycleChange::Keep,
            ..Default::default()
        })
    }

    #[test]
    fn context_expires_after_ttl_turns() {
        let mut s = ContinuityState::default();
        s.apply(decided("set-1"), at(0), TTL);
        let mut fresh_turns = Vec::new();
        for turn in 2..=6 {
            if s.is_fresh(at(0), TTL) {
                fresh_turns.push(turn);
            }
            s.apply(bare_turn(), at(0), TTL); // a turn that shows no options
        }
        assert_eq!(fresh_turns, [2, 3, 4], "fresh for exactly ttl_turns turns");
        assert_eq!(s.view(at(0), TTL).active_option_set_id, None);
    }

    #[test]
    fn showing_options_again_refreshes_the_context() {
        let mut s = ContinuityState::default();
        for _ in 0..10 {
            s.apply(decided("set-1"), at(0), TTL);
        }
        assert!(s.is_fresh(at(0), TTL));
        assert_eq!(s.view(at(0), TTL).active_option_set_id.as_deref(), Some("set-1"));
    }

    #[test]
    fn context_expires_after_ttl_time() {
        let mut s = ContinuityState::default();
        s.apply(decided("set-1"), at(1_000), TTL);
        assert!(s.is_fresh(at(1_000 + 600_000), TTL));
        assert!(!s.is_fresh(at(1_000 + 600_001), TTL));
        assert_eq!(s.view(at(1_000 + 600_001), TTL).active_option_set_id, None);
    }

    #[test]
    fn guard_claims_once_per_key_until_the_cycle_resolves() {
        let mut s = ContinuityState::default();
        let claim = |k: &str| Update::ClaimGuard { guard_key: k.into(), cycle_id: format!("cyc-{k}") };
        assert_eq!(s.apply(claim("k1"), at(0), TTL), Applied::GuardClaimed);
        assert!(matches!(s.apply(claim("k1"), at(0), TTL), Applied::GuardRepeat { .. }));
        assert_eq!(s.apply(claim("k2"), at(0), TTL), Applied::GuardClaimed, "new evidence, new key");
        let outcome = Update::Outcome(OutcomeUpdate {
            entry: ActionEntry {
                kind: ActionKind::Outcome,
                target_ref: "x".into(),
                source_scope: Scope::Chat,
                option_set_id: String::new(),
                timestamp_ms: 0,
                outcome: ActionOutcome::Accepted,
                target_label: String::new(),
                chosen_by: 0,
            },
            also_rejected: None,
        });
        s.apply(outcome, at(0), TTL);
        assert_eq!(s.apply(claim("k2"), at(0), TTL), Applied::GuardClaimed, "an outcome resets the guard");
    }

    #[test]
    fn enrich_steps_and_llm_calls_are_claimed_once_each_and_a_stale_commit_keeps_them() {
        let mut s = ContinuityState::default();
        s.apply(Update::ClaimGuard { guard_key: "k".into(), cycle_id: "c".into() }, at(0), TTL);
        let mut open = s.cycle.clone().unwrap();
        open.request = Some(std::sync::Arc::new(DecideRequest::default()));
        open.llm_calls = 1;
        let commit = |c: &Cycle| {
            Update::Decided(DecidedUpdate {
                new_turn: false,
                options_context: None,
                pending: PendingClarifier::SelectionDisambiguation,
                keep_pending: false,
                resolved: None,
                cycle: CycleChange::Open(Box::new(c.clone())),
                ..Default::default()
            })
        };
        s.apply(commit(&open), at(0), TTL);
        let begin = || Update::BeginEnrich { cycle_id: "c".into(), max_selection_steps: 3, max_semantic_steps: 3 };
        // Two Enrich calls start from their own snapshots.
        let Applied::EnrichStarted(a) = s.apply(begin(), at(0), TTL) else { panic!() };
        let Applied::EnrichStarted(b) = s.apply(begin(), at(0), TTL) else { panic!() };
        assert_eq!((a.enrichment_steps, b.enrichment_steps), (1, 2));
        let claim = || Update::ClaimLlmCall { cycle_id: "c".into(), max: 2 };
        assert_eq!(s.apply(claim(), at(0), TTL), Applied::Done, "the second call of the budget");
        assert_eq!(s.apply(claim(), at(0), TTL), Applied::CallRefused, "none left for the other step");
        // The first step commits last, from its older snapshot.
        s.apply(commit(&a), at(0), TTL);
        let now = s.cycle.as_ref().unwrap();
        assert_eq!((now.enrichment_steps, now.llm_calls), (2, 2), "nothing claimed is given back");
        assert_eq!(s.apply(claim(), at(0), TTL), Applied::CallRefused);
        assert_eq!(s.apply(Update::ClaimLlmCall { cycle_id: "other".into(), max: 9 }, at(0), TTL), Applied::CallRefused);
    }

    /// A turn's change carrying its key (`turn_id`, `input`) and the
    /// decision answered, a clarifier naming `cycle`.
    fn keyed(turn_id: &str, input: &str, set: &str) -> Update {
        let Update::Decided(mut d) = decided(set) else { unreachable!() };
        let mut decision = crate::types::Decision::new(crate::types::Outcome::Clarify, crate::types::Tier::Fallback);
        decision.decision_id = format!("decision-{turn_id}-{input}");
        d.turn = TurnKey::of(turn_id, input).map(|key| Box::new(LastTurn { key, decision }));
        Update::Decided(d)
    }

    #[test]
    fn a_turn_applied_last_applies_nothing_again_and_answers_its_decision() {
        let mut s = ContinuityState::default();
        assert_eq!(s.apply(keyed("t1", "links panel", "set-1"), at(0), TTL), Applied::Done);
        let after_first = s.clone();
        let Applied::Replay(d) = s.apply(keyed("t1", "links panel", "set-2"), at(0), TTL) else { panic!("applied again") };
        assert_eq!(d.decision_id, "decision-t1-links panel");
        assert_eq!(s, after_first, "nothing changed");
        // Also when the change is logged on facts, and past the TTL.
        let Update::Decided(d) = keyed("t1", "links panel", "set-3") else { unreachable!() };
        let logged = Update::DecidedIf { facts: vec![Fact::ActiveSet { set: "x".into(), is: true }], update: d, otherwise: None };
        assert!(matches!(s.apply(logged, at(TTL.millis() + 1), TTL), Applied::Replay(_)));
        assert_eq!(s, after_first);
    }

    #[test]
    fn another_input_or_another_turn_id_is_a_new_turn() {
        let mut s = ContinuityState::default();
        s.apply(keyed("t1", "links panel", "set-1"), at(0), TTL);
        assert_eq!(s.apply(keyed("t1", "the second one", "set-1"), at(0), TTL), Applied::Done, "the same turn_id, another input");
        assert_eq!(s.apply(keyed("t2", "the second one", "set-1"), at(0), TTL), Applied::Done);
        assert_eq!(s.turn_count, 3);
        // Only the last turn is kept: an older one is a new turn again.
        assert_eq!(s.apply(keyed("t1", "links panel", "set-1"), at(0), TTL), Applied::Done);
        assert_eq!(s.turn_count, 4);
    }

    #[test]
    fn a_turn_without_a_turn_id_forgets_the_last_one_and_stale_context_does_not() {
        let mut s = ContinuityState::default();
        s.apply(keyed("t1", "links panel", "set-1"), at(0), TTL);
        // Past the TTL the context goes, the last turn stays.
        s.apply(Update::Fold, at(TTL.millis() + 1), TTL);
        assert!(s.last_turn.is_some());
        assert!(s.view(at(TTL.millis() + 1), TTL).last_turn.is_none(), "the ladder never reads it");
        assert!(matches!(s.apply(keyed("t1", "links panel", "set-1"), at(0), TTL), Applied::Replay(_)));
        s.apply(bare_turn(), at(0), TTL);
        assert_eq!(s.last_turn, None);
        assert_eq!(s.apply(keyed("t1", "links panel", "set-1"), at(0), TTL), Applied::Done);
        assert_eq!(TurnKey::of("", "links panel"), None, "no turn_id, no key");
    }

    #[test]
    fn a_logged_turn_that_continues_the_sessions_cycle_keeps_that_cycles_id() {
        let mut s = ContinuityState::default();
        s.apply(Update::ClaimGuard { guard_key: "k".into(), cycle_id: "open".into() }, at(0), TTL);
        let Update::Decided(mut d) = keyed("t2", "links panel", "set-1") else { unreachable!() };
        d.cycle = CycleChange::Open(Box::new(Cycle::new("new", "k")));
        d.turn.as_mut().unwrap().decision.loop_cycle_id = Some("new".into());
        s.apply(Update::DecidedIf { facts: vec![], update: d, otherwise: None }, at(0), TTL);
        assert_eq!(s.cycle.as_ref().unwrap().id, "open");
        assert_eq!(s.last_turn.unwrap().decision.loop_cycle_id.as_deref(), Some("open"));
    }

    #[test]
    fn trace_keeps_five_newest_first() {
        let mut s = ContinuityState::default();
        for i in 0..7 {
            let entry = ActionEntry {
                kind: ActionKind::Outcome,
                target_ref: format!("t{i}"),
                source_scope: Scope::Chat,
                option_set_id: String::new(),
                timestamp_ms: i,
                outcome: ActionOutcome::Executed,
                target_label: String::new(),
                chosen_by: 0,
            };
            s.apply(Update::Outcome(OutcomeUpdate { entry, also_rejected: None }), at(0), TTL);
        }
        let ids: Vec<&str> = s.recent_action_trace.iter().map(|e| e.target_ref.as_str()).collect();
        assert_eq!(ids, ["t6", "t5", "t4", "t3", "t2"]);
        assert_eq!(s.last_accepted_choice_id.as_deref(), Some("t6"));
        assert_eq!(s.recent_accepted_choice_ids.len(), CHOICE_WINDOW);
    }
}
