//! The assistant calls: `Clarify` and `Extract`. Their rule sequences are
//! pure functions of the core (`ladder::assistant::compose`,
//! `ladder::extract::{plan, outcome, settle}`); this file only asks the
//! LLM (and the extractor agents) and passes their replies or failures in.

use super::{Daemon, Generation, call_span};
use crate::error::{ApiError, Invalid};
use crate::llm::LlmClient;
use crate::telemetry::Call;
use ladder::assistant::{self, AssistantMessage, ClarifyRequest, LlmDraft};
use ladder::extract::{self, Component, ComponentPlan, ExtractRequest, Extracted, HintAnswer, HintOutcome, Switches};
use ladder::policy::LlmAnswer;
use std::sync::Arc;
use tokio::time::Instant;
use tracing::Instrument;

impl Daemon {
    /// `Clarify`: the LLM's draft (when a provider is configured and
    /// `clarify.use_llm`), then the core's rules: the draft, or the
    /// deterministic fallback. Never an error once the request is valid.
    pub async fn clarify(&self, g: &Generation, req: ClarifyRequest, deadline: Option<Instant>) -> AssistantMessage {
        let span = call_span(Call::Clarify, &req.session_id, &req.turn_id);
        Self::redact_into(g.config.telemetry.redact_input, &span, "ladder.input", &req.query);
        let m = Self::clarify_in_span(g, req, deadline).instrument(span.clone()).await;
        span.record("ladder.source", m.source);
        span.record("ladder.language", m.language.as_str());
        // The core logs these per call at debug; a provider that keeps
        // failing would otherwise be a line per call: once per kind per
        // interval here.
        for issue in &m.validation_issues {
            let kind = issue.split(':').next().unwrap_or_default();
            match kind {
                // Noted in the answer, never a warning.
                "question_rejected" => {}
                "llm_unavailable" => {
                    crate::warn_every!("assistant draft unavailable", issue = %issue, "assistant draft unavailable; using the template")
                }
                _ => crate::warn_every!(&format!("assistant_validation_failed: {kind}"), issue = %issue, "assistant_validation_failed"),
            }
        }
        self.metrics.assistant_messages.add(1, &[opentelemetry::KeyValue::new("source", m.source)]);
        m
    }

    async fn clarify_in_span(g: &Generation, req: ClarifyRequest, deadline: Option<Instant>) -> AssistantMessage {
        let p = &g.policy;
        let reply = match g.llms.main.as_ref().filter(|_| g.config.clarify.use_llm) {
            None => LlmDraft::NotAsked,
            Some(client) => {
                let (lang, _) = assistant::resolve_language(&req, &p.assistant.region_languages, &p.default_language);
                let body = crate::llm::prompt::assistant_body(&req, &lang, client.model(), client.max_tokens());
                match client.complete(&body, deadline).await.answer {
                    LlmAnswer::Replied { content, .. } => LlmDraft::Replied(content),
                    LlmAnswer::Failed { reason, .. } | LlmAnswer::Skipped { reason } => LlmDraft::Failed(reason.as_str().to_string()),
                }
            }
        };
        assistant::compose(&req, &p.assistant, &p.default_language, reply)
    }

    /// `Extract`: the baseline, then (when switched on) hints from the
    /// built-in LLM hint and the agents, asked concurrently, each within
    /// its own budget; the core chooses one by the agent scoring tuple and
    /// applies it by the acceptance rules. Its work (text words x
    /// vocabulary words) is charged up front against
    /// `limits.match_work_max`, its loops stop at the caller's deadline,
    /// and heavy work runs off the worker threads, as for `Decide`.
    pub async fn extract(&self, g: &Generation, req: ExtractRequest, deadline: Option<Instant>) -> Result<Extracted, ApiError> {
        let span = call_span(Call::Extract, &req.session_id, &req.turn_id);
        Self::redact_into(g.config.telemetry.redact_input, &span, "ladder.input", &req.text);
        let x = self.extract_in_span(g, req, deadline).instrument(span.clone()).await?;
        span.record("ladder.decided_by_component", x.decided_by.as_str());
        self.metrics.extractions.add(1, &[opentelemetry::KeyValue::new("decided_by", x.decided_by.clone())]);
        Ok(x)
    }

    async fn extract_in_span(&self, g: &Generation, req: ExtractRequest, deadline: Option<Instant>) -> Result<Extracted, ApiError> {
        let lex = &g.policy.lexicon;
        let x = &g.config.extract;
        let switches = Switches { enabled: x.enabled, normalization: x.normalization_hint, entities: x.entity_hint };
        let work = admit_extract_work(&req, switches.any() && switches.normalization, g.config.limits.match_work_max)?;
        let stop = ladder::cost::DeadlineWatch::new(deadline.map(Instant::into_std));
        let base = self
            .drive(work, deadline, async { extract::baseline_until(&req, &req.text, "baseline", lex, extract::Slots::new(), &stop) })
            .await?;
        if !switches.any() {
            return Ok(extract::settle(&req, lex, base, Vec::new()));
        }
        // The built-in hint is component "llm"; agents come after it.
        let builtin = g.llms.hint.iter().map(|h| (x.builtin_component(), h.clone()));
        let agents = g.llms.agents.iter().map(|(a, c)| (a.component(), c.clone()));
        let components: Vec<(Component, Arc<LlmClient>)> = builtin.chain(agents).collect();
        let runs = components.into_iter().map(|(component, client)| {
            let (req, base) = (&req, &base);
            async move {
                let (normalization, entities) = match extract::plan(&component, switches, req) {
                    ComponentPlan::Skip(outcome) => return outcome,
                    ComponentPlan::Ask { normalization, entities } => (normalization, entities),
                };
                let body = crate::llm::prompt::extraction_body(req, client.model(), client.max_tokens());
                let answer = match client.complete(&body, deadline).await.answer {
                    LlmAnswer::Skipped { reason } => HintAnswer::Failed { reason: reason.as_str().to_string(), latency_ms: 0 },
                    LlmAnswer::Failed { reason, latency_ms, .. } => HintAnswer::Failed { reason: reason.as_str().to_string(), latency_ms },
                    LlmAnswer::Replied { content, latency_ms } => HintAnswer::Replied { content, latency_ms },
                };
                extract::outcome(&component.id, answer, (normalization, entities), req, base)
            }
        });
        let outcomes: Vec<HintOutcome> = futures::future::join_all(runs).await;
        self.drive(work, deadline, async { extract::settle_until(&req, lex, base, outcomes, &stop) }).await
    }
}

/// The request's extraction work, refused with RESOURCE_EXHAUSTED over
/// `limits.match_work_max` (the same limit, and unit, as `Decide`'s).
fn admit_extract_work(req: &ExtractRequest, normalization: bool, max: u64) -> Result<u64, Invalid> {
    let w = extract::work(req, normalization);
    if w.total > max {
        return Err(Invalid::TooMuchExtractWork {
            work: w.total,
            text_words: w.text_words,
            vocabulary_words: w.vocabulary_words,
            rerun: if normalization { " x 3: the baseline again on a normalized text" } else { "" },
            bytes: w.bytes,
            byte_cost: extract::BYTE_COST,
            max,
        });
    }
    Ok(w.total)
}
