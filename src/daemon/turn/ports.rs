//! The ladder's ports for one call (`ladder::ports::Ports`): the
//! loop-guard and LLM-call claims in the session store, the LLM's asks.

use crate::daemon::{Daemon, Generation};
use crate::llm::LlmClient;
use ladder::ask::LlmAsk;
use ladder::continuity::{Applied, Update};
use ladder::policy::LlmAnswer;
use ladder::ports::{GuardClaim, Ports};
use ladder::types::FallbackReason;
use std::future::Future;
use std::sync::Arc;
use tokio::time::Instant;

/// What a loop-guard claim's update did, as the ladder's port says it.
fn guard_claim(applied: Applied) -> GuardClaim {
    match applied {
        Applied::GuardRepeat { ordering, suggested_id } => GuardClaim::Repeat { ordering, suggested_id },
        _ => GuardClaim::Claimed,
    }
}

/// The ladder's view of the outside world for one call.
pub(super) struct DaemonPorts<'a> {
    daemon: &'a Daemon,
    session_id: &'a str,
    llm: Option<Arc<LlmClient>>,
    deadline: Option<Instant>,
    g: &'a Generation,
    /// When this call's first ask started and how long it took: the
    /// corroborating ask of the same attempt gets only what is left of its
    /// budget.
    first_ask: std::sync::Mutex<Option<(Instant, std::time::Duration)>>,
}

impl<'a> DaemonPorts<'a> {
    pub(super) fn new(daemon: &'a Daemon, session_id: &'a str, deadline: Option<Instant>, g: &'a Generation) -> Self {
        DaemonPorts { daemon, session_id, llm: g.llms.main.clone(), deadline, g, first_ask: std::sync::Mutex::new(None) }
    }
}

impl Ports for DaemonPorts<'_> {
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl Future<Output = GuardClaim> + Send {
        let update = Update::ClaimGuard { guard_key: guard_key.to_string(), cycle_id: cycle_id.to_string() };
        async move {
            match self.daemon.store.apply(self.session_id, update, self.daemon.clock.now(), self.g.policy.ttl).await {
                Ok(applied) => guard_claim(applied),
                // Without the guard S5 cannot be promised: do not call.
                Err(e) => {
                    tracing::debug!(error = %e, "loop guard unavailable; skipping the llm");
                    GuardClaim::Unavailable
                }
            }
        }
    }

    fn claim_llm_call(&self, cycle_id: &str, max: u32) -> impl Future<Output = bool> + Send {
        let update = Update::ClaimLlmCall { cycle_id: cycle_id.to_string(), max };
        async move {
            match self.daemon.store.apply(self.session_id, update, self.daemon.clock.now(), self.g.policy.ttl).await {
                Ok(Applied::Done) => true,
                Ok(_) => false,
                // Without the claim the budget cannot be promised: no call.
                Err(e) => {
                    // The store's failure is counted and warned about where it
                    // happened (once per kind per interval).
                    tracing::debug!(error = %e, "session store unavailable; skipping the enrich step's llm call");
                    false
                }
            }
        }
    }

    fn arbitrate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        let llm = self.llm.clone();
        let deadline = self.deadline;
        let ask = ask.clone();
        async move {
            match llm {
                None => LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled },
                Some(c) => {
                    let started = Instant::now();
                    let answer = c.arbitrate(&ask, deadline).await.answer;
                    *crate::daemon::lock(&self.first_ask) = Some((started, started.elapsed()));
                    answer
                }
            }
        }
    }

    fn corroborate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        let llm = self.llm.clone();
        let deadline = self.deadline;
        let first = *crate::daemon::lock(&self.first_ask);
        let ask = ask.clone();
        async move {
            match (llm, first) {
                (None, _) => LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled },
                // No first ask to share a budget with: nothing is left.
                (Some(_), None) => LlmAnswer::Skipped { reason: FallbackReason::Deadline },
                (Some(c), Some((started, took))) => c.corroborate(&ask, deadline, started, took).await.answer,
            }
        }
    }
}
