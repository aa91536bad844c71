//! The policy step after the LLM rung (rung 9, `Draft::settle`): what the
//! LLM did, made a safe decision, and the gates a pick must pass to
//! execute (`Draft::gates`).

use super::{Check, Corroborated, LlmStep};
use crate::clarifier::Tie;
use crate::continuity;
use crate::draft::{Decided, Draft, Offer};
use crate::policy::{Corroboration, GateInput, LlmMode, Verdict, auto_execute_gate};
use crate::types::*;

/// The gate a high-risk pick fails: it is offered for confirmation.
pub(crate) const HIGH_RISK: &str = "high_risk";

impl Draft<'_> {
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
}
