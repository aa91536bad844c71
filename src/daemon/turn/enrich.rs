//! `Enrich`: the evidence a `NEED_MORE_INFO` asked for, decided on the
//! session's open cycle.

use super::ports::DaemonPorts;
use super::{Ids, Record};
use crate::daemon::{Daemon, Generation, admit, call_span, unavailable};
use crate::error::ApiError;
use crate::telemetry::Call;
use ladder::continuity::{Applied, ContinuityState, EnrichRefusal, Update};
use ladder::decide::{self, Mode};
use ladder::types::{Candidate, Decision, EvidenceType};
use std::sync::Arc;
use tokio::time::Instant;
use tracing::Instrument;

/// A validated `Enrich` request.
#[derive(Debug, Clone, PartialEq)]
pub struct EnrichInput {
    pub session_id: String,
    pub turn_id: String,
    pub loop_cycle_id: String,
    pub evidence: Vec<(EvidenceType, Vec<Candidate>, String)>,
    /// Newest first.
    pub chat_history: Vec<String>,
}

impl Daemon {
    pub async fn enrich(&self, g: &Generation, input: EnrichInput, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let span = call_span(Call::Enrich, &input.session_id, &input.turn_id);
        span.record("ladder.loop_cycle_id", input.loop_cycle_id.as_str());
        self.enrich_in_span(g, input, deadline).instrument(span).await
    }

    async fn enrich_in_span(&self, g: &Generation, input: EnrichInput, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let started = Instant::now();
        let policy = &g.policy;
        let now = self.clock.now();
        let retry = "retry the Enrich call; if it keeps failing, call Decide again with a new turn_id";
        let Some(state) = self.store.get(&input.session_id, now).await.map_err(|e| unavailable(e, retry))? else {
            return Err(self.unknown_cycle(&input, retry));
        };
        let b = &policy.budgets;
        let begin = Update::BeginEnrich {
            cycle_id: input.loop_cycle_id.clone(),
            max_selection_steps: b.selection_max_enrichment_steps,
            max_semantic_steps: b.semantic_steps(),
        };
        let applied = self.store.apply(&input.session_id, begin, now, policy.ttl).await.map_err(|e| unavailable(e, retry))?;
        let ids = Ids::new();
        let view = ContinuityState::view_shared(Some(state), now, policy.ttl);
        let ctx = self.ctx(g, (&*view).into(), &ids, now, deadline);
        let (decided, merged, cycle) = match applied {
            Applied::EnrichStarted(mut cycle) => {
                let merged = Arc::new(cycle.enrich(&input.evidence, &input.chat_history));
                let work = admit::work(g, &merged)?;
                let ports = DaemonPorts::new(self, &input.session_id, deadline, g);
                let d = self.drive(work, deadline, decide::decide(&ctx, &merged, Mode::Enrich(&cycle), &ports)).await?;
                (d, merged, cycle)
            }
            Applied::EnrichRefused(EnrichRefusal::BudgetExhausted(cycle)) => {
                let req = cycle.request.clone().unwrap_or_default();
                (decide::budget_exhausted(&ctx, &cycle), req, cycle)
            }
            Applied::EnrichRefused(EnrichRefusal::Resolved) => {
                return Err(ApiError::FailedPrecondition(format!(
                    "loop_cycle_id {:?} is already resolved; call Decide for the next turn",
                    input.loop_cycle_id
                )));
            }
            Applied::EnrichRefused(EnrichRefusal::NotResumable) => {
                return Err(ApiError::FailedPrecondition(format!(
                    "loop_cycle_id {:?} cannot be resumed: its candidates were over sessions.max_cycle_candidates, or sessions.cycle_candidates_budget was spent when it opened; call Decide again with the evidence (and a new turn_id)",
                    input.loop_cycle_id
                )));
            }
            Applied::EnrichRefused(EnrichRefusal::Unknown)
            | Applied::Done
            | Applied::GuardClaimed
            | Applied::GuardRepeat { .. }
            | Applied::CallRefused
            | Applied::Void
            | Applied::Replay(_) => {
                return Err(self.unknown_cycle(&input, retry));
            }
        };
        self.commit(g, &input.session_id, decided, Record { call: Call::Enrich, req: &merged, state: &view, cycle: Some(&cycle), started })
            .await
    }

    /// An `Enrich` on a cycle the session does not hold: `UNAVAILABLE` when
    /// the store refused this session's last write (the cycle may be the
    /// one it refused), else `FAILED_PRECONDITION`.
    pub(super) fn unknown_cycle(&self, input: &EnrichInput, retry: &str) -> ApiError {
        self.refusals.explain(&input.session_id, retry).unwrap_or_else(|| {
            ApiError::FailedPrecondition(format!(
                "unknown loop_cycle_id {:?} for session {:?}: it expired, was replaced by a newer cycle, or never existed; call Decide again with a new turn_id",
                input.loop_cycle_id, input.session_id
            ))
        })
    }
}
