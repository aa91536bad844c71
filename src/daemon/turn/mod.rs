//! The turn calls: `Decide`, `Enrich`, `RecordOutcome`, `GetSession`,
//! `ResetSession`, and the ladder's ports (the loop-guard claim in the
//! session store, the LLM call). One file per job:
//!
//! - `decide`: a `Decide` from its admission to the ladder on the state
//!   read, and a repeated turn answered as it was;
//! - `commit`: writing a decision's session change, and recording what
//!   happened (span, metrics, decision record);
//! - `enrich`: `Enrich`;
//! - `session`: `RecordOutcome`, `GetSession`, `ResetSession`;
//! - `ports`: the ladder's view of the outside world for one call;
//! - this file: what they share (the turn, its ids, running the ladder
//!   off the worker threads when it is heavy).

mod commit;
mod decide;
mod enrich;
mod ports;
mod session;

pub use decide::TurnCounters;
pub use enrich::EnrichInput;
pub use session::OutcomeInput;

use super::{Daemon, Generation};
use crate::error::ApiError;
use crate::telemetry::Call;
use ladder::continuity::{ContinuityState, Cycle, LastTurn, Now, TurnKey};
use ladder::decide::{Ctx, DeadlinePassed, StateView};
use ladder::types::{DecideRequest, Decision};
use std::future::Future;
use std::sync::Arc;
use tokio::time::Instant;

/// Matching work from which the ladder runs off the worker threads (about
/// a millisecond of matching; BENCHMARKS.md, "Hostile load").
pub const HEAVY_WORK: u64 = 50_000;

fn overrun() -> ApiError {
    ApiError::DeadlineExceeded("the deadline passed while the ladder ran".into())
}

impl Daemon {
    /// Runs the ladder (or an extraction): inline when its matching work is
    /// light, else off the runtime's worker threads (`block_in_place`, at
    /// most `heavy_permits` at once, waiting for one within the deadline),
    /// so heavy calls cannot starve the others, health checks included.
    ///
    /// The ladder's future is large (it holds every rung's state across
    /// the LLM's await), and every level of a call moves the future it
    /// awaits into its own: held by value, it would be copied whole at
    /// each level. It is moved to the heap once, here, so the futures
    /// above stay small (`tests::a_decide_future_is_a_few_kilobytes`).
    pub(super) fn drive<'a, T: 'a>(
        &'a self,
        work: u64,
        deadline: Option<Instant>,
        ladder: impl Future<Output = Result<T, DeadlinePassed>> + 'a,
    ) -> impl Future<Output = Result<T, ApiError>> + 'a {
        let mut ladder = Box::pin(ladder);
        async move {
            let multi_thread = tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread;
            let result = if work >= HEAVY_WORK && multi_thread {
                let permit = match deadline {
                    Some(at) => tokio::time::timeout_at(at, self.heavy.acquire()).await.map_err(|_| overrun())?,
                    None => self.heavy.acquire().await,
                };
                let _permit = permit.map_err(|_| ApiError::Internal("the heavy-call semaphore is closed".into()))?;
                tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(ladder.as_mut()))
            } else {
                ladder.await
            };
            result.map_err(|_| overrun())
        }
    }

    fn ctx<'a>(&'a self, g: &'a Generation, state: StateView<'a>, ids: &'a Ids, now: Now, deadline: Option<Instant>) -> Ctx<'a> {
        Ctx {
            policy: &g.policy,
            state,
            now,
            decision_id: &ids.decision,
            new_cycle_id: &ids.cycle,
            tokens: &*self.tokens,
            auto_execute_tripped: self.tripped(),
            deadline: deadline.map(Instant::into_std),
            pool_memo: Some(&g.pool_memo),
        }
    }
}

/// A `Decide` call, once its request is admitted.
struct Turn {
    req: Arc<DecideRequest>,
    ids: Ids,
    work: u64,
    pool_version: Option<String>,
    now: Now,
    deadline: Option<Instant>,
    started: Instant,
    /// The turn's key, when it has a `turn_id`.
    key: Option<TurnKey>,
}

/// What `commit` needs to write a decision record.
struct Record<'a> {
    call: Call,
    req: &'a Arc<DecideRequest>,
    state: &'a ContinuityState,
    cycle: Option<&'a Cycle>,
    started: Instant,
}

/// The turn as the session keeps it (`ContinuityState::last_turn`): its
/// key and its decision without the trace; `None` without a `turn_id`.
fn kept_turn(key: Option<TurnKey>, d: &Decision) -> Option<Box<LastTurn>> {
    let key = key?;
    // Named field by field, the trace left out (a field added to
    // `Decision` does not compile here until it is kept or left out).
    let Decision {
        decision_id,
        outcome,
        target_id,
        decided_by,
        confidence,
        ambiguity_reason,
        fallback_reason,
        escape_reason,
        handled_by_tier,
        clarifier,
        needed_evidence_types,
        llm,
        loop_cycle_id,
        evidence_fingerprint,
        trace: _,
        config_revision,
        pool_version,
        follow_up,
        about,
    } = d;
    let decision = Decision {
        decision_id: decision_id.clone(),
        outcome: *outcome,
        target_id: target_id.clone(),
        decided_by: *decided_by,
        confidence: *confidence,
        ambiguity_reason: *ambiguity_reason,
        fallback_reason: *fallback_reason,
        escape_reason: *escape_reason,
        handled_by_tier: *handled_by_tier,
        clarifier: clarifier.clone(),
        needed_evidence_types: needed_evidence_types.clone(),
        llm: llm.clone(),
        loop_cycle_id: loop_cycle_id.clone(),
        evidence_fingerprint: evidence_fingerprint.clone(),
        trace: Vec::new(),
        config_revision: config_revision.clone(),
        pool_version: pool_version.clone(),
        follow_up: follow_up.clone(),
        about: about.clone(),
    };
    Some(Box::new(LastTurn { key, decision }))
}

#[derive(Clone)]
struct Ids {
    decision: String,
    cycle: String,
}

impl Ids {
    fn new() -> Self {
        // The cycle's id is made from the decision's: a session keeping the
        // decision (a turn for a repeated Decide) packs one as a mark.
        let decision = uuid::Uuid::new_v4();
        Ids { decision: decision.to_string(), cycle: crate::store::packed::cycle_id_of(decision).to_string() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call's future stays small: every level of a call moves the future
    /// it awaits into its own, so a large one would be copied whole several
    /// times a call. The ladder's future (`drive`) and the store's are
    /// boxed to keep it so.
    #[tokio::test]
    async fn a_decide_future_is_a_few_kilobytes() {
        let daemon = Daemon::new(crate::config::Config::default()).unwrap();
        let g = daemon.current();
        let decide = daemon.decide(&g, DecideRequest::default(), None);
        let size = std::mem::size_of_val(&decide);
        assert!(size < 6 * 1024, "a Decide future is {size} bytes");
    }
}
