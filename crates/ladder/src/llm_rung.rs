//! The LLM rung (spec section 5) and the policy step after it (rung 9):
//! the one place the LLM is called, for ties the rules could not settle,
//! once per evidence (the loop guard), within the cycle's budgets; and the
//! mapping of what it did to a safe decision.

use crate::ask::{AskCandidate, AskContinuity, LlmAsk, LlmContext};
use crate::clarifier::Tie;
use crate::continuity;
use crate::policy::Budgets;
use crate::policy::{GateInput, LlmAnswer, LlmMode, Verdict, auto_execute_gate, interpret};
use crate::ports::TokenCounter;
use crate::ports::{GuardClaim, Ports};
use crate::run::{Decided, Mode, Offer, Run};
use crate::types::*;

/// What the LLM rung did.
#[derive(Debug, Clone)]
pub(crate) enum LlmStep {
    NotEligible,
    Skipped(FallbackReason),
    GuardRepeat { ordering: Vec<String>, suggested_id: Option<String> },
    Failed { reason: FallbackReason, latency_ms: u32, detail: String },
    Answered { verdict: Verdict, latency_ms: u32 },
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
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, latency_ms } => {
                format!("{choice_id} at {confidence:.2} in {latency_ms} ms")
            }
            _ => String::new(),
        }
    }
}

impl Run<'_> {
    /// The one LLM call site (spec section 5): checks the budgets and the
    /// evidence, claims the loop guard (S5), asks once, validates the reply.
    pub(crate) async fn llm_rung<P: Ports>(&mut self, ports: &P, tie: &Tie<'_>) -> LlmStep {
        let p = self.ctx.policy;
        if p.llm_mode == LlmMode::Off {
            return LlmStep::Skipped(FallbackReason::LlmDisabled);
        }
        let Some(cycle) = self.cycle.clone() else { return LlmStep::Skipped(FallbackReason::LlmDisabled) };
        match self.mode {
            Mode::Enrich(prev) => {
                let (before, after) = (prev.fingerprint.clone(), cycle.fingerprint.clone());
                self.record(|s| {
                    s.record("ladder.fingerprint_before", before.as_str());
                    s.record("ladder.fingerprint_after", after.as_str());
                });
                if prev.fingerprint == cycle.fingerprint {
                    self.event("continuity_enrichment_fingerprint_unchanged", cycle.fingerprint.clone());
                    return LlmStep::Skipped(FallbackReason::NoNewEvidence);
                }
                if cycle.llm_calls >= cycle.max_llm_calls(&p.budgets) {
                    self.event("continuity_enrichment_budget_exhausted", format!("{} llm calls", cycle.llm_calls));
                    return LlmStep::Skipped(FallbackReason::BudgetExhausted);
                }
                self.event("continuity_enrichment_retry_called", format!("retry {}", cycle.llm_calls));
            }
            Mode::Turn => {
                if cycle.llm_calls >= cycle.max_llm_calls(&p.budgets) {
                    self.event("continuity_enrichment_budget_exhausted", format!("{} llm calls", cycle.llm_calls));
                    return LlmStep::Skipped(FallbackReason::BudgetExhausted);
                }
                let claim = ports.claim_guard(&cycle.guard_key, &cycle.id).await;
                self.guard = Some(claim.clone());
                match claim {
                    GuardClaim::Claimed => {}
                    GuardClaim::Repeat { ordering, suggested_id } => return LlmStep::GuardRepeat { ordering, suggested_id },
                    GuardClaim::Unavailable => return LlmStep::Skipped(FallbackReason::StateUnavailable),
                }
            }
        }
        let ask = self.ask(tie);
        let max_calls = cycle.max_llm_calls(&p.budgets);
        if let Some(c) = self.cycle.as_mut() {
            c.llm_attempted = true;
            c.llm_calls += 1;
        }
        let (retry, left) = (cycle.llm_calls, max_calls.saturating_sub(cycle.llm_calls + 1));
        let cycle_id = cycle.id.clone();
        self.record(|s| {
            s.record("ladder.retry_index", retry);
            s.record("ladder.budget_remaining", left);
            s.record("ladder.loop_cycle_id", cycle_id.as_str());
        });
        self.event("llm_arbitration_called", format!("{} candidates", ask.candidates.len()));
        let span = self.open.as_ref().map_or_else(tracing::Span::current, |(_, _, s)| s.clone());
        let answer = tracing::Instrument::instrument(ports.arbitrate(&ask), span.clone()).await;
        self.answer = Some(answer.clone());
        let latency = match &answer {
            LlmAnswer::Replied { latency_ms, .. } | LlmAnswer::Failed { latency_ms, .. } => *latency_ms,
            LlmAnswer::Skipped { reason: _ } => 0,
        };
        span.record("ladder.llm.latency_ms", latency);
        match answer {
            LlmAnswer::Skipped { reason: r } => LlmStep::Skipped(r),
            LlmAnswer::Failed { reason, latency_ms, detail } => LlmStep::Failed { reason, latency_ms, detail },
            LlmAnswer::Replied { content, latency_ms } => {
                let ids: Vec<&str> = ask.candidates.iter().map(|c| c.id.as_str()).collect();
                let verdict = interpret(&content, &ids, p.budgets.needed_evidence_types_max);
                if let Verdict::Invalid { detail } = &verdict {
                    tracing::warn!(detail = %detail, "llm reply rejected; treating as abstain");
                }
                if let Verdict::NeedMoreInfo { dropped, .. } = &verdict
                    && !dropped.is_empty()
                {
                    tracing::warn!(dropped = ?dropped, "needed_evidence_types outside the allowlist or over the cap dropped");
                }
                self.verdict = Some(verdict.clone());
                span.record("ladder.llm.verdict", verdict.name());
                LlmStep::Answered { verdict, latency_ms }
            }
        }
    }

    /// What the LLM is shown: the tie (at most `llm.max_candidates`), the
    /// continuity context limited to its ids, the enriched context.
    fn ask(&self, tie: &Tie<'_>) -> LlmAsk {
        let p = self.ctx.policy;
        let candidates: Vec<AskCandidate> = tie
            .items
            .iter()
            .take(p.llm_max_candidates)
            .map(|t| AskCandidate { id: t.id.clone(), label: t.label.clone(), kind: t.kind.clone(), hint: t.hint.clone() })
            .collect();
        let in_pool = |id: &String| candidates.iter().any(|c| &c.id == id);
        let st = self.ctx.state;
        let continuity = AskContinuity {
            last_accepted_choice_id: st.last_accepted_choice_id.clone().filter(in_pool),
            recently_rejected: st.recent_rejected_choice_ids.iter().filter(|id| in_pool(id)).cloned().collect(),
            pending_clarifier: st.pending_clarifier_type.as_str(),
        };
        let context = self.cycle.as_ref().map(|c| pack_context(&c.history, &c.excerpts, &p.budgets, self.ctx.tokens)).unwrap_or_default();
        LlmAsk {
            canonical_input: self.canonical.clone(),
            reason: tie.reason,
            candidates,
            continuity,
            context,
            allowed_evidence: EvidenceType::ALL.to_vec(),
        }
    }

    /// Policy and fallback (rung 9): turns what the LLM rung did into a
    /// safe decision. Every failure is the deterministic fallback over the
    /// tie; a valid pick reorders it, and executes only through every
    /// auto-execute gate (S2, S3).
    pub(crate) fn settle(mut self, llm: LlmStep, tie: &Tie<'_>) -> Decided {
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
                let offer = Offer { order, suggested: suggested_id, question: offer.question };
                self.fallback(offer, Some(FallbackReason::LoopGuard), report)
            }
            LlmStep::Failed { reason: r, detail, .. } => {
                self.event("llm_arbitration_failed_fallback_clarifier", format!("{}: {detail}", r.as_str()));
                tracing::warn!(fallback_reason = r.as_str(), detail = %detail, "llm failed; clarifying");
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
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, .. } => {
                report.suggested_id = Some(choice_id.clone());
                report.confidence = confidence;
                self.event("llm_select", format!("{choice_id} at {confidence:.2}"));
                if confidence < p.llm_confidence_min {
                    return self.fallback(offer, Some(FallbackReason::LowConfidence), report);
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
                // S1: only a pool entry can be executed, never a command.
                let entry =
                    tie.items.iter().find(|t| t.id == choice_id).and_then(|t| t.entry).filter(|i| tie.pool.entries.get(*i).is_some());
                match (gate, entry) {
                    (None, Some(i)) => {
                        self.llm_report = Some(report);
                        let e = tie.pool.entries[i];
                        self.execute(e.cand.id.clone(), e.source, Decider::Llm, Tier::Llm)
                    }
                    (why, _) => {
                        tracing::debug!(gate = why.unwrap_or("not_a_pool_entry"), "auto-execute gate failed; clarifying");
                        self.clarify(offer.suggesting(Some(choice_id)), None, Tier::Llm, Decider::Llm, report)
                    }
                }
            }
            LlmStep::Answered { verdict: Verdict::NeedMoreInfo { types, confidence, .. }, .. } => {
                report.confidence = confidence;
                self.event("llm_need_more_info", types.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(","));
                // The veto: the continuity resolver runs once.
                match continuity::resolve(self.ctx.state, self.req, tie, None) {
                    Ok(i) => {
                        let e = tie.pool.entries[i];
                        self.event("need_more_info_veto_applied", e.cand.id.clone());
                        self.llm_report = Some(report);
                        self.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity)
                    }
                    Err(why) => {
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
}

/// Packs enriched context for the prompt: chat history first (newest
/// first, at most `chat_history_max_turns` turns and
/// `chat_history_max_tokens` tokens), then excerpts (each at most
/// `snapshot_excerpt_max_tokens`), all within `blended_context_max_tokens`.
/// An entry that does not fit is cut (it ends with " …"), and what no
/// longer fits at all is counted in `omitted`: nothing is dropped silently.
pub fn pack_context(history: &[String], excerpts: &[String], b: &Budgets, tokens: &dyn TokenCounter) -> LlmContext {
    let mut out = LlmContext::default();
    let mut blended = b.blended_context_max_tokens;
    let mut history_left = b.chat_history_max_tokens.min(blended);
    for (i, turn) in history.iter().enumerate() {
        if i >= b.chat_history_max_turns || history_left == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(turn, history_left, tokens);
        out.truncated += usize::from(cut);
        history_left -= used;
        blended -= used;
        out.chat_history.push(text);
    }
    for e in excerpts {
        if blended == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(e, b.snapshot_excerpt_max_tokens.min(blended), tokens);
        out.truncated += usize::from(cut);
        blended -= used;
        out.excerpts.push(text);
    }
    out
}

/// `text` within `max` tokens: (text, tokens used, whether it was cut).
fn fit(text: &str, max: usize, tokens: &dyn TokenCounter) -> (String, usize, bool) {
    let n = tokens.count(text);
    if n <= max { (text.to_string(), n, false) } else { (format!("{} …", tokens.truncate(text, max)), max, true) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::WordCounter;

    #[test]
    fn context_is_packed_within_every_budget_and_cut_visibly() {
        let b = Budgets {
            chat_history_max_turns: 2,
            chat_history_max_tokens: 5,
            snapshot_excerpt_max_tokens: 3,
            blended_context_max_tokens: 9,
            ..Budgets::default()
        };
        let history = ["one two three", "four five six", "seven", "eight"].map(String::from);
        let excerpts = ["a b c d e", "f g", "h i"].map(String::from);
        let c = pack_context(&history, &excerpts, &b, &WordCounter);
        assert_eq!(c.chat_history, ["one two three", "four five …"], "2 turns, 5 tokens");
        assert_eq!(c.excerpts, ["a b c …", "f …"], "3 per excerpt, 9 in all");
        assert_eq!((c.truncated, c.omitted), (3, 3));
        let total: usize = c.chat_history.iter().chain(&c.excerpts).map(|s| WordCounter.count(s.trim_end_matches(" …"))).sum();
        assert!(total <= b.blended_context_max_tokens);
    }
}
