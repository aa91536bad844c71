//! `RecordOutcome`, `GetSession` and `ResetSession`: the session as the
//! client sees it.

use crate::daemon::{Daemon, Generation, unavailable};
use crate::error::ApiError;
use ladder::continuity::{ActionEntry, ActionKind, ActionOutcome, ContinuityState, OutcomeUpdate, Update};
use ladder::types::ScopeRef;

/// A validated `RecordOutcome` request.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeInput {
    pub session_id: String,
    pub decision_id: String,
    /// `Accepted`, `Executed`, `Rejected` or `Corrected`.
    pub kind: ActionOutcome,
    pub choice_id: String,
    pub scope: Option<ScopeRef>,
    pub option_set_id: String,
}

impl Daemon {
    pub async fn record_outcome(&self, g: &Generation, o: OutcomeInput) -> Result<(ContinuityState, bool), ApiError> {
        let now = self.clock.now();
        let retry = "retry RecordOutcome";
        let Some(state) = self.store.get(&o.session_id, now).await.map_err(|e| unavailable(e, retry))? else {
            return Err(self.refusals.explain(&o.session_id, retry).unwrap_or_else(|| not_found(&o.session_id)));
        };
        let last = state.last_resolved_action.as_ref();
        let target = if o.choice_id.is_empty() { last.map(|a| a.target_ref.clone()).unwrap_or_default() } else { o.choice_id.clone() };
        let also_rejected =
            (o.kind == ActionOutcome::Corrected).then(|| last.map(|a| a.target_ref.clone())).flatten().filter(|t| *t != target);
        let entry = ActionEntry {
            kind: ActionKind::Outcome,
            target_ref: target,
            source_scope: o.scope.as_ref().map(|s| s.scope).or(state.active_scope.as_ref().map(|s| s.scope)).unwrap_or_default(),
            option_set_id: if o.option_set_id.is_empty() {
                state.active_option_set_id.clone().unwrap_or_default()
            } else {
                o.option_set_id.clone()
            },
            timestamp_ms: now.wall_ms,
            outcome: o.kind,
            target_label: String::new(),
            chosen_by: 0,
        };
        self.store
            .apply(&o.session_id, Update::Outcome(OutcomeUpdate { entry, also_rejected }), now, g.policy.ttl)
            .await
            .map_err(|e| unavailable(e, retry))?;
        self.refusals.forget(&o.session_id);
        self.feed_outcome(g, &o.session_id, &o.decision_id, o.kind, now).await;
        self.session(g, &o.session_id).await
    }

    /// The session and whether its continuity context is fresh.
    pub async fn session(&self, g: &Generation, id: &str) -> Result<(ContinuityState, bool), ApiError> {
        let now = self.clock.now();
        match self.store.get(id, now).await.map_err(|e| unavailable(e, "retry"))? {
            Some(s) => {
                let fresh = s.is_fresh(now, g.policy.ttl);
                Ok((ContinuityState::clone(&s), fresh))
            }
            None => Err(self.refusals.explain(id, "retry").unwrap_or_else(|| not_found(id))),
        }
    }

    /// Clears the session's continuity state and the option sets held for
    /// it (pool reuse); says whether the session existed.
    pub async fn reset_session(&self, id: &str) -> Result<bool, ApiError> {
        let retry = "retry ResetSession";
        self.pools.remove_session(id).await.map_err(|e| unavailable(e, retry))?;
        self.store.remove(id).await.map_err(|e| unavailable(e, retry))
    }
}

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("session {id:?} not found (expired or never seen)"))
}
