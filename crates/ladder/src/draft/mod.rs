//! A decision in the making: what the ladder is given (`Ctx`, `Mode`),
//! its working state (`Draft`: the trace and spans of the rungs, the
//! unresolved cycle the decision belongs to), and what it produces
//! (`Decided`). The constructors that turn a rung's result into a
//! `Decision` and the session change it implies are in `decision`; what a
//! reply came to, as a decision, in `reply`; the policy step after the LLM
//! rung (`Draft::settle`) with that rung, in `llm_rung`.

mod decision;
mod reply;

pub(crate) use decision::Offer;
pub use decision::budget_exhausted;
pub(crate) use reply::{reply_decision, unless_refused};

use crate::clarifier::{Tie, Wording};
use crate::classify::Classification;
use crate::continuity::{
    ActionEntry, ActionKind, ActionOutcome, Cycle, CycleChange, DecidedUpdate, Lane, Now, PendingClarifier, QuestionChange, QuestionKind,
    StateView,
};
use crate::fingerprint::fingerprint;
use crate::intern::{PoolMemo, pool_fingerprint};
use crate::policy::{LlmAnswer, Policy, SecondAnswer, Verdict};
use crate::ports::{GuardClaim, TokenCounter};
use crate::refusals;
use crate::scope::{self, Source};
use crate::types::*;
use sha2::{Digest, Sha256};
use std::time::Instant;

/// Per-request context.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub policy: &'a Policy,
    /// The session's continuity state with TTLs applied (`ContinuityState::view`).
    pub state: StateView<'a>,
    pub now: Now,
    pub decision_id: &'a str,
    /// Used when this decision opens a new unresolved cycle.
    pub new_cycle_id: &'a str,
    pub tokens: &'a dyn TokenCounter,
    /// Auto-execute was turned off by the rollout guardrails.
    pub auto_execute_tripped: bool,
    /// The caller's deadline: the matching rungs stop when it passes
    /// (`decide` then returns `DeadlinePassed`).
    pub deadline: Option<Instant>,
    /// Canonical pools of recent requests, kept across calls (the daemon
    /// keeps one per configuration generation; `None`: each call
    /// canonicalizes its pool).
    pub pool_memo: Option<&'a PoolMemo>,
}

/// A `Decide` turn, or an `Enrich` step of an open cycle.
#[derive(Debug, Clone, Copy)]
pub enum Mode<'a> {
    Turn,
    Enrich(&'a Cycle),
}

/// A named decision event (docs/observability.md) with a short detail.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: &'static str,
    pub detail: String,
}

/// What `decide` produces: the decision, the session change it implies, and
/// what happened on the way (for spans, metrics and decision records).
#[derive(Debug, Clone)]
pub struct Decided {
    pub decision: Decision,
    pub update: DecidedUpdate,
    pub events: Vec<Event>,
    pub canonical_input: String,
    /// The LLM's validated verdict, when it answered.
    pub verdict: Option<Verdict>,
    /// What the LLM port returned (for decision records and replay).
    pub llm_answer: Option<LlmAnswer>,
    /// The corroborating ask's answer and the ids it showed, when one ran.
    pub corroboration: Option<SecondAnswer>,
    /// What the loop-guard claim returned, if the ladder claimed it.
    pub guard: Option<GuardClaim>,
}

impl Decided {
    /// Gives an opened cycle the request it is about (shared, not copied),
    /// so `Enrich` can re-run the ladder on it.
    pub fn attach_request(&mut self, req: &std::sync::Arc<DecideRequest>) {
        if let CycleChange::Open(c) = &mut self.update.cycle {
            c.request = Some(req.clone());
        }
    }
}

/// A decision in the making: the working state of the ladder on one turn.
pub(crate) struct Draft<'a> {
    pub(crate) ctx: &'a Ctx<'a>,
    pub(crate) req: &'a DecideRequest,
    pub(crate) mode: Mode<'a>,
    steps: Vec<Step>,
    events: Vec<Event>,
    pub(crate) canonical: String,
    pub(crate) scope: Option<Scope>,
    pub(crate) class: Option<Classification>,
    pub(crate) cycle: Option<CycleDraft>,
    pub(crate) verdict: Option<Verdict>,
    pub(crate) llm_report: Option<LlmReport>,
    pub(crate) answer: Option<LlmAnswer>,
    pub(crate) second: Option<SecondAnswer>,
    pub(crate) guard: Option<GuardClaim>,
    /// The rung in progress: its name, start, and span.
    pub(crate) open: Option<(&'static str, Instant, tracing::Span)>,
    /// Candidates a gate refused to execute because the user refused them
    /// (`ContinuityState::refused`): the clarifier does not lead with them.
    refused: Vec<String>,
    /// The execute the user just refused with a reply ("not that one"),
    /// recorded with the decision's change.
    pub(crate) rejected_execute: Option<String>,
    /// The rest of two requests in order (`matching::sequence`): handed
    /// back with an execute of the first as a request follow-up.
    pub(crate) then: Option<String>,
}

/// The unresolved cycle this decision belongs to.
#[derive(Debug, Clone)]
pub(crate) struct CycleDraft {
    pub(crate) id: String,
    pub(crate) guard_key: String,
    pub(crate) fingerprint: String,
    pub(crate) lane: Lane,
    pub(crate) llm_attempted: bool,
    pub(crate) llm_calls: u32,
    pub(crate) enrichment_steps: u32,
    pub(crate) excerpts: Vec<String>,
    pub(crate) history: Vec<String>,
    pub(crate) supplied: Vec<EvidenceType>,
}

impl CycleDraft {
    /// The cycle a decision on this evidence belongs to. An `Enrich` step
    /// continues its cycle (its budgets, lane and evidence). A turn
    /// continues the session's open cycle when the guard key is the same
    /// (same input, candidates, option set and scope), else opens a new one
    /// in `lane`.
    fn new(ctx: &Ctx<'_>, mode: Mode<'_>, guard_key: String, fingerprint: String, lane: Lane) -> Self {
        match mode {
            Mode::Enrich(c) => CycleDraft {
                id: c.id.clone(),
                guard_key,
                fingerprint,
                lane: c.lane,
                llm_attempted: false,
                llm_calls: c.llm_calls,
                enrichment_steps: c.enrichment_steps,
                excerpts: c.excerpts.clone(),
                history: c.history.clone(),
                supplied: c.supplied.clone(),
            },
            Mode::Turn => {
                let open = ctx.state.cycle_keyed(&guard_key);
                CycleDraft {
                    id: open.map_or_else(|| ctx.new_cycle_id.to_string(), |c| c.id.clone()),
                    guard_key,
                    fingerprint,
                    lane: open.map_or(lane, |c| c.lane),
                    llm_attempted: open.is_some_and(|c| c.llm_attempted),
                    llm_calls: open.map_or(0, |c| c.llm_calls),
                    enrichment_steps: open.map_or(0, |c| c.enrichment_steps),
                    excerpts: Vec::new(),
                    history: Vec::new(),
                    supplied: Vec::new(),
                }
            }
        }
    }

    /// Enrichment steps allowed in this cycle's lane.
    pub(crate) fn max_steps(&self, b: &crate::policy::Budgets) -> u32 {
        match self.lane {
            Lane::Selection => b.selection_max_enrichment_steps,
            Lane::Semantic => b.semantic_steps(),
        }
    }

    /// LLM calls allowed in this cycle's lane.
    pub(crate) fn max_llm_calls(&self, b: &crate::policy::Budgets) -> u32 {
        match self.lane {
            Lane::Selection => b.selection_max_llm_calls,
            Lane::Semantic => 1 + b.semantic_steps() * b.semantic_max_llm_calls_per_step,
        }
    }
}

impl<'a> Draft<'a> {
    pub(crate) fn new(ctx: &'a Ctx<'a>, req: &'a DecideRequest, mode: Mode<'a>) -> Self {
        Draft {
            ctx,
            req,
            mode,
            steps: Vec::new(),
            events: Vec::new(),
            canonical: String::new(),
            scope: None,
            class: None,
            cycle: None,
            verdict: None,
            llm_report: None,
            answer: None,
            second: None,
            guard: None,
            open: None,
            refused: Vec::new(),
            rejected_execute: None,
            then: None,
        }
    }

    /// Refusals stick: `id` would have been executed (by the continuity
    /// resolver or an LLM pick) but the user refused it. The clarifier
    /// this run ends in shows it last, never as its suggestion, and says
    /// why (`FallbackReason::UserRefused`) unless the LLM failed for a
    /// reason of its own.
    pub(crate) fn refuse(&mut self, id: String) {
        if !self.refused.contains(&id) {
            self.event("user_refused", id.clone());
            self.refused.push(id);
        }
    }

    /// The one clarifier ordering rule of refusals: refused candidates
    /// last, in their order.
    fn refused_last(&self, order: Vec<String>) -> Vec<String> {
        if self.refused.is_empty() {
            return order;
        }
        let (refused, rest): (Vec<String>, Vec<String>) = order.into_iter().partition(|id| self.refused.contains(id));
        rest.into_iter().chain(refused).collect()
    }

    /// Opens a rung: its span starts now (closing any rung still open).
    pub(crate) fn begin(&mut self, rung: &'static str) {
        self.close_open();
        let span = tracing::info_span!(
            target: "ladder::rung",
            "rung",
            otel.name = rung,
            ladder.rung = rung,
            ladder.outcome = tracing::field::Empty,
            ladder.detail = tracing::field::Empty,
            ladder.candidate_count = tracing::field::Empty,
            ladder.scope = tracing::field::Empty,
            ladder.option_set_id = tracing::field::Empty,
            ladder.confidence_bucket = tracing::field::Empty,
            ladder.ambiguity_reason = tracing::field::Empty,
            ladder.sources_in_tie = tracing::field::Empty,
            ladder.fallback_reason = tracing::field::Empty,
            ladder.handled_by_tier = tracing::field::Empty,
            ladder.loop_cycle_id = tracing::field::Empty,
            ladder.fingerprint_before = tracing::field::Empty,
            ladder.fingerprint_after = tracing::field::Empty,
            ladder.retry_index = tracing::field::Empty,
            ladder.budget_remaining = tracing::field::Empty,
            ladder.llm.latency_ms = tracing::field::Empty,
            ladder.llm.verdict = tracing::field::Empty,
            ladder.llm.corroboration = tracing::field::Empty,
            ladder.llm.corroboration_latency_ms = tracing::field::Empty,
        );
        self.open = Some((rung, Instant::now(), span));
    }

    /// Records attributes on the open rung's span.
    pub(crate) fn record(&self, f: impl FnOnce(&tracing::Span)) {
        if let Some((_, _, span)) = &self.open {
            f(span)
        }
    }

    /// Closes the open rung with its outcome: a `Step` in the trace and the
    /// end of its span.
    pub(crate) fn step(&mut self, outcome: impl Into<String>, detail: String) {
        let Some((rung, started, span)) = self.open.take() else { return };
        let outcome = outcome.into();
        span.record("ladder.outcome", outcome.as_str());
        if !detail.is_empty() {
            span.record("ladder.detail", detail.as_str());
        }
        self.steps.push(Step { rung: rung.into(), outcome, detail, duration_us: started.elapsed().as_micros() as u64 });
    }

    pub(crate) fn close_open(&mut self) {
        if self.open.is_some() {
            self.step("", String::new());
        }
    }

    /// A decision event (docs/observability.md), on the open rung's span.
    pub(crate) fn event(&mut self, name: &'static str, detail: String) {
        match &self.open {
            Some((_, _, span)) => tracing::info!(target: "ladder::event", parent: span, detail = %detail, "{name}"),
            None => tracing::info!(target: "ladder::event", detail = %detail, "{name}"),
        }
        self.events.push(Event { name, detail });
    }

    pub(crate) fn scope_binding(&self) -> Option<ScopeRef> {
        match (self.scope, &self.req.active_scope) {
            (Some(s), Some(a)) if a.scope == s => Some(a.clone()),
            (Some(s), _) => Some(ScopeRef { scope: s, instance_id: String::new() }),
            (None, a) => a.clone(),
        }
    }

    /// Computes the fingerprint and guard key of an unresolved turn and
    /// the cycle it belongs to.
    pub(crate) fn open_cycle(&mut self, tie: &Tie<'_>) {
        let binding = self.scope_binding();
        let (excerpts, history): (&[String], &[String]) = match self.mode {
            Mode::Enrich(c) => (&c.excerpts, &c.history),
            Mode::Turn => (&[], &[]),
        };
        // Chat history is enriched evidence too: it counts in the fingerprint.
        let evidence: Vec<String> = excerpts.iter().chain(history).cloned().collect();
        let options = self.req.options.as_ref().map(|o| &o.candidates);
        let fp = pool_fingerprint(self.ctx.pool_memo, tie.pool, options, binding.as_ref(), self.req.option_set_id(), &evidence);
        let mut ids: Vec<&str> = tie.items.iter().map(|t| t.id.as_str()).collect();
        ids.sort_unstable();
        let guard_key = guard_key(&self.canonical, &ids, self.req.option_set_id(), binding.as_ref());
        let lane = if tie.reason == AmbiguityReason::NoDeterministicMatch { Lane::Semantic } else { Lane::Selection };
        self.cycle = Some(CycleDraft::new(self.ctx, self.mode, guard_key, fp, lane));
    }

    /// Whether this turn continues the session's open cycle: the same
    /// evidence as the turn that opened it (read when the cycle was drawn).
    pub(crate) fn continues_a_cycle(&self) -> bool {
        self.cycle.as_ref().is_some_and(|c| c.id != self.ctx.new_cycle_id)
    }

    /// The suggestion an earlier LLM attempt made for the same evidence.
    pub(crate) fn guard_suggestion(&self) -> Option<&str> {
        let c = self.cycle.as_ref()?;
        self.ctx.state.cycle_keyed(&c.guard_key).filter(|o| o.id == c.id).and_then(|o| o.suggested_id.as_deref())
    }

    /// Whether the cycle has an enrichment step left.
    pub(crate) fn steps_left(&self) -> bool {
        self.cycle.as_ref().is_some_and(|c| c.enrichment_steps < c.max_steps(&self.ctx.policy.budgets))
    }
}

/// The loop guard key: canonical input + sorted candidate ids +
/// option_set_id + scope, hashed so it is short and holds no user text.
pub fn guard_key(canonical: &str, sorted_ids: &[&str], option_set_id: &str, scope: Option<&ScopeRef>) -> String {
    let mut h = Sha256::new();
    for part in [canonical, &sorted_ids.join("\u{1f}"), option_set_id] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    if let Some(s) = scope {
        h.update(s.scope.as_str().as_bytes());
        h.update([0u8]);
        h.update(s.instance_id.as_bytes());
    }
    hex::encode(&h.finalize()[..16])
}
