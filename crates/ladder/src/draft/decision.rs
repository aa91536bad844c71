//! The constructors of a decision: a rung's result turned into a
//! `Decision` and the session change it implies (an execute, an escape, a
//! clarifier and the cycle it opens, a request for evidence), and the one
//! high-risk confirmation.

use super::*;
use crate::clarifier::display_order;

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

impl Draft<'_> {
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
        d.follow_up = self.then.take().map(|text| FollowUp { kind: FollowUpKind::Request, text });
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
