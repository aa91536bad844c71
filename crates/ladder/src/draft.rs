//! A decision in the making: what the ladder is given (`Ctx`, `Mode`),
//! its working state (`Draft`: the trace and spans of the rungs, the
//! unresolved cycle the decision belongs to), the constructors that turn a
//! rung's result into a `Decision` and the session change it implies, and
//! what it produces (`Decided`).

use crate::clarifier::{Tie, Wording, display_order};
use crate::classify::Classification;
use crate::continuity;
use crate::continuity::{
    ActionEntry, ActionKind, ActionOutcome, Cycle, CycleChange, DecidedUpdate, Lane, Now, PendingClarifier, QuestionChange, QuestionKind,
    StateView,
};
use crate::fingerprint::fingerprint;
use crate::intern::{PoolMemo, pool_fingerprint};
use crate::policy::{Corroboration, GateInput, LlmAnswer, LlmMode, Policy, SecondAnswer, Verdict, auto_execute_gate};
use crate::ports::{GuardClaim, TokenCounter};
use crate::refusals;
use crate::replies::{self, Answer};
use crate::scope::{self, Source};
use crate::types::*;
use sha2::{Digest, Sha256};
use std::time::Instant;

/// What the LLM rung did.
#[derive(Debug, Clone)]
pub(crate) enum LlmStep {
    NotEligible,
    Skipped(FallbackReason),
    GuardRepeat {
        ordering: Vec<String>,
        suggested_id: Option<String>,
    },
    Failed {
        reason: FallbackReason,
        latency_ms: u32,
        detail: String,
    },
    /// `check`: the corroboration of a pick that passed every other gate
    /// (`None` when none was due or `auto_execute.corroboration = "none"`).
    Answered {
        verdict: Verdict,
        latency_ms: u32,
        check: Option<Check>,
    },
}

wire_enum! {
    "snake_case",
    /// What the corroboration of a pick found (the
    /// `ladder.llm.corroboration` attribute and metric label).
    pub enum Corroborated {
        /// The check picked the same candidate: the pick may execute.
        Agreed,
        /// The check picked another candidate (the second ask's pick), or
        /// the pick is not the deterministic ranking's clear first.
        Disagreed,
        /// Too little of the budget was left to ask again.
        SkippedNoTime,
        /// The second ask brought no usable pick: an error, a timeout, an
        /// abstain, an invalid reply, or a pick below `llm.confidence_min`.
        Failed,
    }
}

/// The corroboration of one pick.
#[derive(Debug, Clone)]
pub(crate) struct Check {
    pub(crate) result: Corroborated,
    /// The candidate the check points to (a real id): the second ask's
    /// pick, or for the deterministic check the candidate that is first or
    /// too close. Shown next to the pick when they differ.
    pub(crate) other: Option<String>,
    /// The second ask's verdict (or failure); empty when none was due.
    pub(crate) verdict: String,
    pub(crate) latency_ms: u32,
    pub(crate) detail: String,
}

impl LlmStep {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            LlmStep::NotEligible => "not_eligible",
            LlmStep::Skipped(r) => r.as_str(),
            LlmStep::GuardRepeat { .. } => "loop_guard",
            LlmStep::Failed { reason, .. } => reason.as_str(),
            LlmStep::Answered { verdict, .. } => verdict.name(),
        }
    }
    pub(crate) fn detail(&self) -> String {
        match self {
            LlmStep::Failed { detail, latency_ms, .. } => format!("{detail} after {latency_ms} ms"),
            LlmStep::Answered { verdict: Verdict::Invalid { detail }, .. } => detail.clone(),
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, latency_ms, check } => {
                let mut d = format!("{choice_id} at {confidence:.2} in {latency_ms} ms");
                if let Some(c) = check {
                    d.push_str(&format!("; corroboration {}: {}", c.result.as_str(), c.detail));
                }
                d
            }
            _ => String::new(),
        }
    }
}

/// The gate a high-risk pick fails: it is offered for confirmation.
pub(crate) const HIGH_RISK: &str = "high_risk";

/// Per-request context.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub policy: &'a Policy,
    /// The session's continuity state with TTLs applied (`ContinuityState::view`),
    /// watched: whether the run read it at all is known afterwards.
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

/// A clarifier's options: the ranked ids, the suggestion shown first, and
/// the question.
pub(crate) struct Offer {
    pub(crate) order: Vec<String>,
    pub(crate) suggested: Option<String>,
    pub(crate) question: Wording,
    /// What the clarifier asks for (the session's pending clarifier).
    pub(crate) kind: PendingClarifier,
}

impl Offer {
    /// The tie's ranking and question, with no suggestion; a high-risk
    /// candidate the input names in full is offered for confirmation.
    pub(crate) fn of(tie: &Tie<'_>) -> Self {
        let mut order = tie.ids();
        order.truncate(tie.offered());
        let offer = Offer { order, suggested: None, question: tie.question(), kind: PendingClarifier::SelectionDisambiguation };
        match tie.class.confirm {
            Some(e) => offer.confirming(tie.pool.entries[e].cand.id.clone()),
            None => offer,
        }
    }

    /// A clarifier over exactly these options, in this order.
    pub(crate) fn among(order: Vec<String>) -> Self {
        Offer { order, suggested: None, question: Wording::Selection, kind: PendingClarifier::SelectionDisambiguation }
    }

    /// A question after a repair ("not that one"): the session awaits it
    /// (`pending_clarifier = repair`).
    pub(crate) fn repairing(self) -> Self {
        Offer { kind: PendingClarifier::Repair, ..self }
    }

    pub(crate) fn suggesting(self, id: Option<String>) -> Self {
        Offer { suggested: id, ..self }
    }

    /// A confirmation of the high-risk candidate `id` (docs/deciding.md#risk):
    /// listed first and suggested, with the confirmation question.
    pub(crate) fn confirming(mut self, id: String) -> Self {
        self.order.retain(|o| *o != id);
        self.order.insert(0, id.clone());
        Offer { suggested: Some(id), question: Wording::Confirmation, kind: PendingClarifier::Confirmation, ..self }
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

    /// A clarifier over `offer`, and why there was no better answer.
    pub(crate) fn clarify(mut self, offer: Offer, fallback: Option<FallbackReason>, tier: Tier, by: Decider, report: LlmReport) -> Decided {
        let p = self.ctx.policy;
        let mut d = Decision::new(Outcome::Clarify, tier);
        d.decided_by = by;
        d.fallback_reason = match fallback {
            None | Some(FallbackReason::LlmDisabled) if !self.refused.is_empty() => Some(FallbackReason::UserRefused),
            other => other,
        };
        let suggested = offer.suggested.filter(|s| !self.refused.contains(s));
        // A confirmation leads with what it asks about; refused, it asks
        // which instead.
        let kind = match offer.kind {
            PendingClarifier::Confirmation if suggested.is_none() => PendingClarifier::SelectionDisambiguation,
            k => k,
        };
        let order = self.refused_last(offer.order);
        d.clarifier = Some(Clarifier {
            question: p.templates.question(offer.question, &self.req.language, &p.default_language),
            option_ids: display_order(order, suggested.as_deref(), p.clarifier_max_options),
            suggested_id: suggested,
            kind,
        });
        self.llm_report = Some(report);
        self.unresolved(d, kind)
    }

    /// Policy and fallback (rung 9): turns what the LLM rung did into a
    /// safe decision. Every failure is the deterministic fallback over the
    /// tie; a valid pick reorders it, and executes only through every
    /// auto-execute gate (S2, S3). `resolved` is what the continuity
    /// resolver made of the tie.
    pub(crate) fn settle(mut self, llm: LlmStep, tie: &Tie<'_>, resolved: continuity::Resolution) -> Decided {
        let p = self.ctx.policy;
        let offer = Offer::of(tie);
        let mut report = LlmReport::default();
        let shadow = p.llm_mode == LlmMode::Shadow;
        let (latency, called) = match &llm {
            LlmStep::Answered { latency_ms, .. } | LlmStep::Failed { latency_ms, .. } => (*latency_ms, true),
            _ => (0, false),
        };
        report.called = called;
        report.latency_ms = latency;
        report.verdict = llm.name().to_string();
        report.shadow = shadow && called;

        match llm {
            LlmStep::NotEligible => self.fallback(offer, None, report),
            LlmStep::Skipped(r) => self.fallback(offer, Some(r), report),
            LlmStep::GuardRepeat { ordering: prev, suggested_id } => {
                report.guard_hit = true;
                report.suggested_id = suggested_id.clone();
                // Reuse the previous order while it still names this tie.
                let order = if !prev.is_empty() && prev.iter().all(|id| offer.order.contains(id)) { prev } else { offer.order };
                let offer = Offer { order, suggested: suggested_id, question: offer.question, kind: offer.kind };
                self.fallback(offer, Some(FallbackReason::LoopGuard), report)
            }
            LlmStep::Failed { reason: r, detail, .. } => {
                self.event("llm_arbitration_failed_fallback_clarifier", format!("{}: {detail}", r.as_str()));
                tracing::debug!(fallback_reason = r.as_str(), detail = %detail, "llm failed; clarifying");
                self.fallback(offer, Some(r), report)
            }
            LlmStep::Answered { .. } if shadow => {
                if let Some(Verdict::Select { choice_id, confidence }) = &self.verdict {
                    report.suggested_id = Some(choice_id.clone());
                    report.confidence = *confidence;
                }
                self.event("llm_shadow_verdict", report.verdict.clone());
                self.fallback(offer, Some(FallbackReason::LlmDisabled), report)
            }
            LlmStep::Answered { verdict: Verdict::Invalid { detail }, .. } => {
                self.event("llm_arbitration_abstained", format!("invalid: {detail}"));
                self.fallback(offer, Some(FallbackReason::Abstain), report)
            }
            LlmStep::Answered { verdict: Verdict::Abstain { confidence }, .. } => {
                report.confidence = confidence;
                self.event("llm_arbitration_abstained", String::new());
                self.fallback(offer, Some(FallbackReason::Abstain), report)
            }
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, check, .. } => {
                report.suggested_id = Some(choice_id.clone());
                report.confidence = confidence;
                self.event("llm_select", format!("{choice_id} at {confidence:.2}"));
                if confidence < p.llm_confidence_min {
                    return self.fallback(offer, Some(FallbackReason::LowConfidence), report);
                }
                let i = match self.gates(tie, &choice_id, confidence) {
                    Ok(i) => i,
                    Err(HIGH_RISK) => {
                        self.event("llm_select_high_risk", choice_id.clone());
                        return self.clarify(offer.confirming(choice_id), None, Tier::Llm, Decider::Llm, report);
                    }
                    Err(continuity::REFUSED) => {
                        self.refuse(choice_id);
                        return self.clarify(offer, Some(FallbackReason::UserRefused), Tier::Llm, Decider::Llm, report);
                    }
                    Err(why) => {
                        tracing::debug!(gate = why, "auto-execute gate failed; clarifying");
                        return self.clarify(offer.suggesting(Some(choice_id)), None, Tier::Llm, Decider::Llm, report);
                    }
                };
                let how = p.auto_execute.corroboration;
                // Every pick through the gates was checked unless the
                // configuration says "none"; a missing check fails closed.
                let check = match check {
                    Some(c) => c,
                    None if how == Corroboration::None => {
                        self.llm_report = Some(report);
                        let e = tie.pool.entries[i];
                        return self.execute(e.cand.id.clone(), e.source, Decider::Llm, Tier::Llm);
                    }
                    None => Check {
                        result: Corroborated::Failed,
                        other: None,
                        verdict: String::new(),
                        latency_ms: 0,
                        detail: "not checked".into(),
                    },
                };
                report.corroboration = check.result.as_str().to_string();
                report.corroboration_method = how.as_str().to_string();
                report.corroborating_id = check.other.clone();
                report.corroboration_verdict = check.verdict.clone();
                report.corroboration_latency_ms = check.latency_ms;
                if check.result == Corroborated::Agreed {
                    self.llm_report = Some(report);
                    let e = tie.pool.entries[i];
                    return self.execute(e.cand.id.clone(), e.source, Decider::Llm, Tier::Llm);
                }
                // Not corroborated: a clarifier with both picks first.
                tracing::info!(corroboration = check.result.as_str(), detail = %check.detail, "llm pick not corroborated; clarifying");
                let mut offer = offer;
                if let Some(other) = check.other.filter(|o| *o != choice_id) {
                    offer.order.retain(|id| *id != other);
                    offer.order.insert(0, other);
                }
                self.clarify(offer.suggesting(Some(choice_id)), Some(FallbackReason::NotCorroborated), Tier::Llm, Decider::Llm, report)
            }
            LlmStep::Answered { verdict: Verdict::NeedMoreInfo { types, confidence, .. }, .. } => {
                report.confidence = confidence;
                self.event("llm_need_more_info", types.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(","));
                // The veto: the continuity resolver's answer (the
                // continuity rung's, before the loop guard's say).
                match resolved {
                    Ok(i) if tie.pool.entries[i].cand.is_high_risk(&p.matching.high_risk_kinds) => {
                        let id = tie.pool.entries[i].cand.id.clone();
                        self.event("need_more_info_veto_blocked_reason", "high_risk".into());
                        self.fallback(offer.confirming(id), None, report)
                    }
                    Ok(i) => {
                        let e = tie.pool.entries[i];
                        self.event("need_more_info_veto_applied", e.cand.id.clone());
                        self.llm_report = Some(report);
                        self.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity)
                    }
                    Err(why) => {
                        if why == continuity::REFUSED
                            && let Some(i) = continuity::label_winner(tie)
                        {
                            self.refuse(tie.pool.entries[i].cand.id.clone());
                        }
                        self.event("need_more_info_veto_blocked_reason", why.to_string());
                        if types.is_empty() {
                            self.fallback(offer, Some(FallbackReason::Abstain), report)
                        } else if !self.steps_left() {
                            self.event("continuity_enrichment_budget_exhausted", "no enrichment step left".into());
                            self.fallback(offer, Some(FallbackReason::BudgetExhausted), report)
                        } else {
                            self.need_more_info(offer.order, types, report)
                        }
                    }
                }
            }
        }
    }

    /// Every gate a pick must pass to execute: at least
    /// `llm.confidence_min`, every auto-execute gate, and
    /// (S1) a pool entry to execute, never a command. The entry, or the
    /// first gate that fails.
    pub(crate) fn gates(&self, tie: &Tie<'_>, choice_id: &str, confidence: f32) -> Result<usize, &'static str> {
        let p = self.ctx.policy;
        if confidence < p.llm_confidence_min {
            return Err("low_confidence");
        }
        // Refusals stick: never executed, never suggested (before any gate,
        // so that no second ask is spent on it either).
        if self.ctx.state.refused(choice_id) {
            return Err(continuity::REFUSED);
        }
        let entry = tie
            .items
            .iter()
            .find(|t| t.id == choice_id)
            .and_then(|t| t.entry)
            .filter(|i| tie.pool.entries.get(*i).is_some())
            .ok_or("not_a_pool_entry")?;
        // An LLM pick never executes a high-risk candidate, whatever the
        // gates say: it is offered for confirmation, auto-execute on or
        // off.
        if tie.pool.entries[entry].cand.is_high_risk(&p.matching.high_risk_kinds) {
            return Err(HIGH_RISK);
        }
        let gate = auto_execute_gate(
            p,
            GateInput {
                confidence,
                reason: tie.reason,
                guard_repeat: false,
                question_intent: false,
                force_clarify_only: self.req.force_clarify_only,
                tripped: self.ctx.auto_execute_tripped,
            },
        );
        if let Some(why) = gate {
            return Err(why);
        }
        Ok(entry)
    }

    /// The deterministic fallback: a clarifier decided by the rules, with
    /// the reason the LLM did not settle it (if it was asked).
    pub(crate) fn fallback(self, offer: Offer, reason: Option<FallbackReason>, report: LlmReport) -> Decided {
        self.clarify(offer, reason, Tier::Fallback, Decider::Deterministic, report)
    }

    /// The one high-risk confirmation step: a high-risk option the turn
    /// reached without the user's own words for it (a position never asked
    /// about, the continuity resolver, "the other one") is offered for
    /// confirmation, never executed.
    pub(crate) fn confirm_high_risk(mut self, offer: Offer, id: String, detail: String) -> Decided {
        self.step("high_risk", detail);
        self.begin("fallback");
        self.fallback(offer.confirming(id), None, LlmReport::default())
    }

    pub(crate) fn need_more_info(mut self, order: Vec<String>, types: Vec<EvidenceType>, report: LlmReport) -> Decided {
        let p = self.ctx.policy;
        let mut d = Decision::new(Outcome::NeedMoreInfo, Tier::Llm);
        d.decided_by = Decider::Llm;
        d.needed_evidence_types = types;
        let order = self.refused_last(order);
        d.clarifier = Some(Clarifier {
            question: p.templates.question(Wording::NeedMoreInfo, &self.req.language, &p.default_language),
            option_ids: display_order(order, None, p.clarifier_max_options),
            suggested_id: None,
            kind: PendingClarifier::SelectionDisambiguation,
        });
        self.llm_report = Some(report);
        self.unresolved(d, PendingClarifier::SelectionDisambiguation)
    }

    /// An explicit scope with nothing in it: ask the app for that scope's
    /// candidates (an enrichment cycle), never execute.
    pub(crate) fn need_scope(mut self, scope: Scope, needed: EvidenceType) -> Decided {
        self.scope = Some(scope);
        let binding = self.scope_binding();
        let fp = fingerprint(binding.as_ref(), self.req.option_set_id(), std::iter::empty(), &[]);
        let guard_key = guard_key(&self.canonical, &[], self.req.option_set_id(), binding.as_ref());
        self.cycle = Some(CycleDraft::new(self.ctx, self.mode, guard_key, fp, Lane::Selection));
        let steps_left = self.steps_left();
        let p = self.ctx.policy;
        let mut d = Decision::new(if steps_left { Outcome::NeedMoreInfo } else { Outcome::Clarify }, Tier::Scope);
        d.decided_by = Decider::Deterministic;
        d.ambiguity_reason = Some(AmbiguityReason::NoCandidate);
        d.confidence = Some(Bucket::LowConfidenceClarifierOnly);
        if steps_left {
            d.needed_evidence_types = vec![needed];
        } else {
            d.fallback_reason = Some(FallbackReason::BudgetExhausted);
        }
        d.clarifier = Some(Clarifier {
            question: p.templates.question(Wording::Scope(scope), &self.req.language, &p.default_language),
            option_ids: Vec::new(),
            suggested_id: None,
            kind: PendingClarifier::ScopeDisambiguation,
        });
        self.unresolved(d, PendingClarifier::ScopeDisambiguation)
    }

    pub(crate) fn unresolved(mut self, mut d: Decision, pending: PendingClarifier) -> Decided {
        if let Some(c) = &self.class {
            d.confidence = Some(c.bucket);
            d.ambiguity_reason = c.reason;
        }
        let order = d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default();
        let suggested = d.clarifier.as_ref().and_then(|c| c.suggested_id.clone());
        let cycle = self.cycle.take().map(|c| {
            d.loop_cycle_id = Some(c.id.clone());
            d.evidence_fingerprint = Some(c.fingerprint.clone());
            Cycle {
                id: c.id,
                guard_key: c.guard_key,
                llm_attempted: c.llm_attempted,
                ordering: order,
                suggested_id: suggested.or_else(|| self.llm_report.as_ref().and_then(|r| r.suggested_id.clone())),
                lane: c.lane,
                fingerprint: c.fingerprint,
                enrichment_steps: c.enrichment_steps,
                llm_calls: c.llm_calls,
                // Attached by the caller, who owns the request (no copy).
                request: None,
                excerpts: c.excerpts,
                history: c.history,
                supplied: c.supplied,
                resolved: false,
            }
        });
        let change = cycle.map_or(CycleChange::Keep, |c| CycleChange::Open(Box::new(c)));
        self.done(d, pending, None, change)
    }

    /// The label of the request's candidate `id` (empty when none).
    fn label_of(&self, id: &str) -> String {
        let r = self.req;
        r.option_candidates()
            .iter()
            .chain(&r.recoverable_chat_options)
            .chain(&r.widget_items)
            .find(|c| c.id == id)
            .map_or_else(String::new, |c| c.label.clone())
    }

    pub(crate) fn execute(mut self, id: String, source: Source, by: Decider, tier: Tier) -> Decided {
        let mut d = Decision::new(Outcome::Execute, tier);
        d.decided_by = by;
        d.target_id = Some(id.clone());
        if let Some(c) = &self.class {
            d.confidence = Some(c.bucket);
            d.ambiguity_reason = c.reason;
        }
        let target_label = self.label_of(&id);
        let entry = ActionEntry {
            kind: ActionKind::Execute,
            target_ref: id,
            source_scope: match source {
                Source::ActiveOptions => self.req.options.as_ref().map_or(Scope::Chat, |o| if o.is_chat() { Scope::Chat } else { o.scope }),
                Source::RecoverableChat => Scope::Chat,
                Source::Widget => self.req.active_scope.as_ref().map_or(Scope::Widget, |s| s.scope),
            },
            option_set_id: self.req.option_set_id().to_string(),
            timestamp_ms: self.ctx.now.wall_ms,
            outcome: ActionOutcome::Decided,
            target_label,
            chosen_by: crate::refusals::word_mask(&self.canonical),
        };
        match (self.cycle.take(), self.mode) {
            (Some(c), _) => {
                d.loop_cycle_id = Some(c.id);
                d.evidence_fingerprint = Some(c.fingerprint);
            }
            // An Enrich step resolved before the cycle was re-opened.
            (None, Mode::Enrich(c)) => d.loop_cycle_id = Some(c.id.clone()),
            (None, Mode::Turn) => {}
        }
        self.done(d, PendingClarifier::None, Some(entry), CycleChange::Close)
    }

    pub(crate) fn escape(mut self, reason: EscapeReason, target: Option<String>, tier: Tier) -> Decided {
        let mut d = Decision::new(Outcome::Escape, tier);
        d.decided_by = Decider::Deterministic;
        d.escape_reason = Some(reason);
        d.target_id = target.clone();
        // An escape hands the turn back: no confidence bucket (the
        // classifier's, high for a command said whole, would read as
        // "execute" in records, spans and on the wire).
        let resolved = target.map(|t| ActionEntry {
            kind: ActionKind::Command,
            target_ref: t,
            source_scope: self.req.active_scope.as_ref().map_or(Scope::Unspecified, |s| s.scope),
            option_set_id: self.req.option_set_id().to_string(),
            timestamp_ms: self.ctx.now.wall_ms,
            outcome: ActionOutcome::Escaped,
            target_label: String::new(),
            chosen_by: 0,
        });
        // A question leaves the clarification up (and the session's pending
        // clarifier as it is: no need to read it); anything else ends the
        // cycle.
        let question = reason == EscapeReason::QuestionIntent;
        let change = if question { CycleChange::Keep } else { CycleChange::Close };
        self.cycle = None;
        let mut decided = self.done(d, PendingClarifier::None, resolved, change);
        decided.update.keep_pending = question;
        if question {
            decided.update.question = QuestionChange::Keep;
        }
        decided
    }

    pub(crate) fn done(mut self, mut d: Decision, pending: PendingClarifier, resolved: Option<ActionEntry>, cycle: CycleChange) -> Decided {
        // A rung still open made this decision (the fallback rung).
        if self.open.is_some() {
            let fallback = d.fallback_reason.map_or("", |r| r.as_str());
            let tier = d.handled_by_tier.as_str();
            self.record(|s| {
                s.record("ladder.fallback_reason", fallback);
                s.record("ladder.handled_by_tier", tier);
            });
            self.step(d.outcome.as_str(), fallback.to_string());
        }
        d.decision_id = self.ctx.decision_id.to_string();
        d.config_revision = self.ctx.policy.revision.clone();
        if let Some(r) = self.llm_report {
            d.llm = r;
        }
        d.trace = self.steps;
        let options_context = self
            .req
            .options
            .as_ref()
            .filter(|o| !o.candidates.is_empty())
            .map(|o| (o.option_set_id.clone(), self.req.active_scope.clone()));
        // A clarifier asks its options (a confirmation, or "which one?"),
        // which the next turn may answer; any other decision leaves none.
        let question = match &d.clarifier {
            Some(c) if !c.option_ids.is_empty() && matches!(d.outcome, Outcome::Clarify | Outcome::NeedMoreInfo) => {
                let kind = if c.kind == PendingClarifier::Confirmation { QuestionKind::Confirmation } else { QuestionKind::Choice };
                let cands = || self.req.option_candidates().iter().chain(&self.req.recoverable_chat_options).chain(&self.req.widget_items);
                // Each offered option looked up once, for what it showed and its label.
                let (shown, labels) = c
                    .option_ids
                    .iter()
                    .map(|id| {
                        cands()
                            .find(|cand| cand.id == *id)
                            .map_or_else(Default::default, |c| (crate::replies::shown_text(c), c.label.clone()))
                    })
                    .unzip();
                let (offered, proposed) = (c.option_ids.clone(), c.suggested_id.clone());
                QuestionChange::Ask(crate::continuity::PendingQuestion { kind, offered, proposed, shown, labels })
            }
            _ => QuestionChange::Clear,
        };
        let update = DecidedUpdate {
            new_turn: matches!(self.mode, Mode::Turn),
            options_context,
            pending,
            keep_pending: false,
            resolved,
            cycle,
            question,
            rejected: self.rejected_execute.take(),
            // The daemon keeps the turn with its answer (it knows the
            // request's `turn_id` and the decision as answered).
            turn: None,
        };
        Decided {
            decision: d,
            update,
            events: self.events,
            canonical_input: self.canonical,
            verdict: self.verdict,
            llm_answer: self.answer,
            corroboration: self.second,
            guard: self.guard,
        }
    }
}

/// An `Enrich` call with no enrichment step left: the cycle's clarifier
/// again, with `budget_exhausted`.
pub fn budget_exhausted(ctx: &Ctx<'_>, cycle: &Cycle) -> Decided {
    let language = cycle.request.as_deref().map_or("", |r| r.language.as_str());
    let mut d = Decision::new(Outcome::Clarify, Tier::Fallback);
    d.decision_id = ctx.decision_id.to_string();
    d.config_revision = ctx.policy.revision.clone();
    d.decided_by = Decider::Deterministic;
    d.fallback_reason = Some(FallbackReason::BudgetExhausted);
    d.loop_cycle_id = Some(cycle.id.clone());
    d.evidence_fingerprint = Some(cycle.fingerprint.clone());
    d.clarifier = Some(Clarifier {
        question: ctx.policy.templates.question(Wording::Selection, language, &ctx.policy.default_language),
        option_ids: cycle.ordering.clone(),
        suggested_id: cycle.suggested_id.clone(),
        kind: PendingClarifier::SelectionDisambiguation,
    });
    d.trace.push(Step { rung: "fallback".into(), outcome: "clarify".into(), detail: "budget_exhausted".into(), duration_us: 0 });
    Decided {
        decision: d,
        update: DecidedUpdate {
            new_turn: false,
            options_context: None,
            pending: PendingClarifier::SelectionDisambiguation,
            keep_pending: false,
            resolved: None,
            cycle: CycleChange::Keep,
            ..Default::default()
        },
        events: vec![Event { name: "continuity_enrichment_budget_exhausted", detail: format!("{} steps", cycle.enrichment_steps) }],
        canonical_input: String::new(),
        verdict: None,
        llm_answer: None,
        corroboration: None,
        guard: None,
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

/// Refusals stick (`refusals`): `run` makes the execute of `entry`,
/// unless the user refused it within the TTL and this turn's words do not
/// re-choose it; then the options `fits` (the other entries the words fit,
/// else the rest of the screen) are asked, or the refusal stands.
pub(crate) fn unless_refused<'a>(
    mut draft: Draft<'a>,
    pool: &scope::Pool<'_>,
    entry: usize,
    fits: &[usize],
    run: impl FnOnce(Draft<'a>) -> Decided,
) -> Decided {
    let lex = &draft.ctx.policy.lexicon;
    let id = pool.entries[entry].cand.id.clone();
    match refusals::check(&draft.ctx.state, pool, lex, &draft.canonical, entry, fits) {
        refusals::Verdict::Free => run(draft),
        refusals::Verdict::Ask(entries) => {
            let ids: Vec<String> = entries.iter().map(|e| pool.entries[*e].cand.id.clone()).collect();
            draft.refuse(id.clone());
            draft.step("refused", format!("{id} was refused: {}", ids.join(",")));
            draft.begin("fallback");
            draft.fallback(Offer::among(ids), None, LlmReport::default())
        }
        refusals::Verdict::Stands => {
            draft.step("refused", format!("{id} was refused"));
            draft.escape(EscapeReason::Declined, None, Tier::Reply)
        }
    }
}

/// The decision a reply came to (step 3b, or a detail answer at 7b).
/// An execute carries what it did not consume of the turn (`follow_up`).
pub(crate) fn reply_decision(draft: Draft<'_>, pool: &scope::Pool<'_>, answer: Answer, follow_up: Option<FollowUp>) -> Decided {
    let entry = match &answer {
        Answer::Execute { entry, .. } | Answer::Confirm { entry, .. } => Some(*entry),
        _ => None,
    };
    match entry {
        Some(entry) => unless_refused(draft, pool, entry, &[], |draft| reply_decision_free(draft, pool, answer, follow_up)),
        None => reply_decision_free(draft, pool, answer, follow_up),
    }
}

fn reply_decision_free(mut draft: Draft<'_>, pool: &scope::Pool<'_>, answer: Answer, follow_up: Option<FollowUp>) -> Decided {
    let id = |i: usize| pool.entries[i].cand.id.clone();
    match answer {
        Answer::Execute { entry, kind, by } => {
            let e = pool.entries[entry];
            // A reply to ladderd's own question is read from the session.
            let decider = if by == replies::By::Ladder { Decider::Continuity } else { Decider::Deterministic };
            draft.event("reply_read", format!("{}: {}", kind.as_str(), e.cand.id));
            draft.step(kind.as_str(), e.cand.id.clone());
            // An answer read deterministically is a confident execute,
            // whatever the screen's own match left (a detail read where
            // the screen tied).
            let mut decided = draft.execute(e.cand.id.clone(), e.source, decider, Tier::Reply);
            decided.decision.confidence = Some(Bucket::HighConfidenceExecute);
            decided.decision.ambiguity_reason = None;
            decided.decision.follow_up = follow_up;
            decided
        }
        Answer::Confirm { entry, kind } => {
            draft.step(kind.as_str(), format!("{} is high risk: confirm it", id(entry)));
            draft.begin("fallback");
            draft.clarify(
                Offer::among(vec![id(entry)]).confirming(id(entry)),
                None,
                Tier::Reply,
                Decider::Deterministic,
                LlmReport::default(),
            )
        }
        Answer::Ask { entries, kind } => {
            // What the user refused is not asked about again, while
            // anything else is (`refusals`).
            let asked: Vec<String> = entries.into_iter().map(id).collect();
            let (refused, ids): (Vec<String>, Vec<String>) = asked.iter().cloned().partition(|e| draft.ctx.state.refusal(e).is_some());
            let ids = if ids.is_empty() { asked } else { ids };
            refused.into_iter().filter(|r| !ids.contains(r)).for_each(|r| draft.refuse(r));
            draft.step(kind.as_str(), ids.join(","));
            draft.begin("fallback");
            let offer = Offer::among(ids);
            let offer = if kind == replies::ReplyKind::Repair { offer.repairing() } else { offer };
            draft.clarify(offer, None, Tier::Reply, Decider::Deterministic, LlmReport::default())
        }
        Answer::Escape { reason, kind } => {
            draft.step(kind.as_str(), reason.as_str().to_string());
            draft.escape(reason, None, Tier::Reply)
        }
        // Read again by the ladder (step 3b), never here.
        Answer::Pass | Answer::Again { .. } => {
            draft.step("pass", String::new());
            draft.begin("fallback");
            draft.clarify(Offer::among(Vec::new()), None, Tier::Reply, Decider::Deterministic, LlmReport::default())
        }
    }
}
