//! Writing a decision's session change, and recording what happened:
//! span attributes, metrics, the log line and the decision record.

use super::{Record, kept_turn};
use crate::config::Redaction;
use crate::daemon::{Daemon, Generation, admit};
use crate::error::ApiError;
use crate::store::StoreError;
use crate::telemetry::{self, Call, records::DecisionRecord};
use ladder::continuity::{Applied, Cycle, CycleChange, DecidedUpdate, TurnKey, Update};
use ladder::decide::Decided;
use ladder::policy::LlmAnswer;
use ladder::types::{DecideRequest, Decision, FallbackReason, Outcome};
use std::sync::Arc;

impl Daemon {
    /// Writes the decision's session change, records what happened
    /// (span attributes, metrics, decision record) and returns the decision.
    pub(super) async fn commit(
        &self,
        g: &Generation,
        session_id: &str,
        mut decided: Decided,
        rec: Record<'_>,
    ) -> Result<Decision, ApiError> {
        let mut update = self.take_update(g, &mut decided, rec.req);
        let key = if rec.call == Call::Decide { TurnKey::of(&rec.req.turn_id, &rec.req.input) } else { None };
        update.turn = kept_turn(key, &decided.decision);
        // The decision stands without its session change (a shared store
        // that does not answer): the next turn starts from the state as it
        // was, which is the safe side (a cycle not written cannot be
        // enriched; Enrich says to call Decide again).
        let (now, ttl) = (self.clock.now(), g.policy.ttl);
        // An execution's cohort goes with the session, in the same write,
        // for feedback recorded on another replica.
        let d = &decided.decision;
        let cohort = (d.outcome == Outcome::Execute && g.config.guardrails.enabled).then(|| Self::cohort(g, rec.req));
        let note = cohort.map(|c| (d.decision_id.as_str(), c));
        let written = match self.store.apply_noting(session_id, Update::Decided(update), now, ttl, note).await {
            // The same turn, applied meanwhile by a call racing this one:
            // its decision is the turn's.
            Ok(Applied::Replay(kept)) => return Ok(self.replay(*kept)),
            written => written.map(|_| ()),
        };
        self.written(session_id, written, &mut decided);
        Ok(self.finish(g, decided, rec))
    }

    /// What became of a decision's session change. Not written (the store
    /// refused it, or did not answer): the decision must not refer to state
    /// that is not there, so it degrades exactly as for an unreachable
    /// store: no cycle id (`Enrich` could not find it), and a
    /// `NEED_MORE_INFO` becomes the clarifier it carries, with
    /// `state_unavailable` (the state its next step needs is missing). An
    /// execute, an escape and a clarifier's question stand. A refusal is
    /// remembered for the session, so that `GetSession` and `Enrich` say
    /// so instead of "not found".
    pub(super) fn written(&self, session_id: &str, written: Result<(), StoreError>, decided: &mut Decided) {
        let e = match written {
            Ok(()) => {
                self.refusals.forget(session_id);
                return;
            }
            Err(e) => e,
        };
        tracing::debug!(error = %e, "decision not written to the session store");
        self.refusals.note(session_id, &e);
        let d = &mut decided.decision;
        if d.outcome == Outcome::NeedMoreInfo {
            d.outcome = Outcome::Clarify;
            d.fallback_reason = Some(FallbackReason::StateUnavailable);
            d.needed_evidence_types.clear();
        }
        let had = d.loop_cycle_id.take();
        let detail = format!("{}{}", e.kind().as_str(), had.map(|c| format!(": cycle {c} not kept")).unwrap_or_default());
        d.trace.push(ladder::types::Step { rung: "store".into(), outcome: "not_written".into(), detail: detail.clone(), duration_us: 0 });
        decided.events.push(ladder::draft::Event { name: "session_change_not_written", detail });
    }

    /// The decision's session change, moved out of it (what follows reads
    /// only the decision and events). An open cycle keeps its request for
    /// Enrich, within the memory bounds (per cycle, and for all open cycles
    /// together).
    pub(super) fn take_update(&self, g: &Generation, decided: &mut Decided, req: &Arc<DecideRequest>) -> DecidedUpdate {
        // Only a cycle the decision opens keeps the request: the others
        // need no sizing (an execute or an escape is most calls).
        if !matches!(decided.update.cycle, CycleChange::Open(_)) {
            return std::mem::take(&mut decided.update);
        }
        let size = req.candidate_count();
        let sessions = &g.config.sessions;
        let held = self.store.cycle_held();
        if size <= sessions.max_cycle_candidates
            && held.candidates + size <= sessions.cycle_candidates_budget
            && held.bytes + admit::candidate_bytes(g, req) <= sessions.cycle_bytes_budget
        {
            decided.attach_request(req);
        }
        std::mem::take(&mut decided.update)
    }

    /// Records what happened (span attributes, metrics, decision record)
    /// once the decision's change is written, and returns the decision.
    pub(super) fn finish(&self, g: &Generation, decided: Decided, rec: Record<'_>) -> Decision {
        let elapsed_ms = rec.started.elapsed().as_secs_f64() * 1000.0;
        self.observe(&decided, elapsed_ms);
        self.feed_guardrails(g, &decided.decision, rec.call, rec.req, elapsed_ms);
        if let Some(log) = &self.records {
            log.write(&self.record(g.config.telemetry.redact_input, &decided, rec));
        }
        decided.decision
    }

    /// Span attributes, metrics and the log line of one decision.
    fn observe(&self, decided: &Decided, elapsed_ms: f64) {
        let d = &decided.decision;
        let span = tracing::Span::current();
        span.record("ladder.decision_id", d.decision_id.as_str());
        span.record("ladder.outcome", d.outcome.as_str());
        span.record("ladder.decided_by", d.decided_by.as_str());
        span.record("ladder.handled_by_tier", d.handled_by_tier.as_str());
        span.record("ladder.config_revision", d.config_revision.as_str());
        if let Some(b) = d.confidence {
            span.record("ladder.confidence_bucket", b.as_str());
        }
        if let Some(r) = d.ambiguity_reason {
            span.record("ladder.ambiguity_reason", r.as_str());
        }
        if let Some(r) = d.fallback_reason {
            span.record("ladder.fallback_reason", r.as_str());
        }
        if let Some(t) = &d.target_id {
            span.record("ladder.target_id", t.as_str());
        }
        if let Some(c) = &d.loop_cycle_id {
            span.record("ladder.loop_cycle_id", c.as_str());
        }
        if let Some(f) = &d.evidence_fingerprint {
            span.record("ladder.evidence_fingerprint", f.as_str());
        }
        span.record("ladder.llm.called", d.llm.called);
        span.record("ladder.llm.guard_hit", d.llm.guard_hit);

        let m = &self.metrics;
        // Static values: no allocation per attribute.
        let kv = |k: &'static str, v: &'static str| opentelemetry::KeyValue::new(k, v);
        m.decisions
            .add(1, &[kv("outcome", d.outcome.as_str()), kv("decided_by", d.decided_by.as_str()), kv("tier", d.handled_by_tier.as_str())]);
        if let Some(r) = d.ambiguity_reason {
            m.ambiguity.add(1, &[kv("reason", r.as_str())]);
        }
        if let Some(r) = d.fallback_reason {
            m.fallbacks.add(1, &[kv("reason", r.as_str())]);
        }
        if d.clarifier.as_ref().is_some_and(|c| !c.option_ids.is_empty())
            && let Some(rank) = d.trace.iter().find(|s| s.rung == "rank")
        {
            let ranking = match rank.outcome.as_str() {
                "meaning" => "meaning",
                "tie-meaning" => "tie-meaning",
                _ => "words",
            };
            m.clarifier_rankings.add(1, &[kv("ranking", ranking)]);
        }
        m.decision_duration.record(elapsed_ms, &[kv("outcome", d.outcome.as_str())]);
        if d.llm.called {
            m.llm_calls.add(1, &[kv("kind", "arbitration"), opentelemetry::KeyValue::new("result", d.llm.verdict.clone())]);
            m.llm_latency.record(f64::from(d.llm.latency_ms), &[kv("kind", "arbitration")]);
        }
        // The corroborating ask is a provider call of its own kind,
        // and every check is counted by result ("disagreed" is a wrong
        // execute corroboration prevented, or a right one it cost).
        if decided.corroboration.as_ref().is_some_and(|s| !matches!(s.answer, LlmAnswer::Skipped { .. })) {
            m.llm_calls.add(1, &[kv("kind", "corroboration"), opentelemetry::KeyValue::new("result", d.llm.corroboration_verdict.clone())]);
            m.llm_latency.record(f64::from(d.llm.corroboration_latency_ms), &[kv("kind", "corroboration")]);
        }
        if !d.llm.corroboration.is_empty() {
            span.record("ladder.llm.corroboration", d.llm.corroboration.as_str());
            m.llm_corroborations.add(
                1,
                &[
                    opentelemetry::KeyValue::new("result", d.llm.corroboration.clone()),
                    opentelemetry::KeyValue::new("method", d.llm.corroboration_method.clone()),
                ],
            );
        }
        if d.llm.guard_hit {
            m.loop_guard_hits.add(1, &[]);
        }
        if decided.events.iter().any(|e| e.name == "continuity_enrichment_retry_called") {
            m.enrichment_retries.add(1, &[]);
        }
        // A provider that keeps failing fails every call: its warning is
        // written once per reason per interval (the counts are metrics).
        for e in &decided.events {
            match e.name {
                "llm_arbitration_failed_fallback_clarifier" => {
                    let reason = e.detail.split(':').next().unwrap_or_default();
                    crate::warn_every!(&format!("llm failed: {reason}"), fallback_reason = reason, detail = %e.detail, "llm failed; clarifying");
                }
                "llm_arbitration_abstained" if e.detail.starts_with("invalid") => {
                    crate::warn_every!("llm reply rejected", detail = %e.detail, "llm reply rejected; treating as abstain");
                }
                _ => {}
            }
        }
        // Per-decision detail is for debugging: at 5k decisions/s a line each
        // would cost more than the decision (metrics, spans and decision
        // records carry it for operators).
        tracing::debug!(
            decision_id = %d.decision_id,
            outcome = d.outcome.as_str(),
            tier = d.handled_by_tier.as_str(),
            decided_by = d.decided_by.as_str(),
            reason = d.ambiguity_reason.map_or("", |r| r.as_str()),
            fallback = d.fallback_reason.map_or("", |r| r.as_str()),
            elapsed_ms,
            "decided"
        );
    }

    /// One decision record: what the ladder saw (request, session state,
    /// LLM answer, guard claim) and what it decided, with user text redacted
    /// as configured (the input, its canonical form, enrichment excerpts
    /// and history, the LLM's replies, the follow-up's text). With
    /// `redact_input = "off"` it replays exactly.
    fn record(&self, mode: Redaction, decided: &Decided, rec: Record<'_>) -> DecisionRecord {
        let text = |s: &str| telemetry::redact(mode, s).unwrap_or_default();
        let mut request = DecideRequest::clone(rec.req);
        request.input = text(&request.input);
        let strip = |c: &Cycle| {
            let mut c = c.clone();
            c.request = None;
            c.excerpts = c.excerpts.iter().map(|e| text(e)).collect();
            c.history = c.history.iter().map(|e| text(e)).collect();
            c
        };
        let mut state = rec.state.clone();
        state.cycle = state.cycle.as_ref().map(strip);
        // The session's last turn is not what this one was decided on (and
        // its decision may carry the user's words: a follow-up).
        state.last_turn = None;
        let redact_answer = |a: LlmAnswer| match (a, mode) {
            (LlmAnswer::Replied { content, latency_ms }, m) if m != Redaction::Off => {
                LlmAnswer::Replied { content: telemetry::redact(m, &content).unwrap_or_default(), latency_ms }
            }
            (a, _) => a,
        };
        let llm_answer = decided.llm_answer.clone().map(redact_answer);
        let corroboration =
            decided.corroboration.clone().map(|s| ladder::policy::SecondAnswer { answer: redact_answer(s.answer), shown: s.shown });
        // The rest of the user's turn, redacted as the input is (the
        // caller got it whole); its kind and length stay.
        let mut decision = decided.decision.clone();
        let follow_up_chars = decision.follow_up.as_mut().map(|f| {
            let chars = f.text.chars().count();
            f.text = text(&f.text);
            chars
        });
        DecisionRecord {
            schema: telemetry::records::RECORD_SCHEMA.into(),
            ts_ms: self.clock.now().wall_ms,
            call: rec.call,
            redaction: mode,
            canonical_input: text(&decided.canonical_input),
            request,
            state,
            cycle: rec.cycle.map(strip),
            guard: decided.guard.clone(),
            llm_answer,
            corroboration,
            events: decided.events.iter().map(|e| (e.name.to_string(), e.detail.clone())).collect(),
            decision,
            follow_up_chars,
        }
    }
}
