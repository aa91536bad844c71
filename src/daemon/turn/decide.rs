//! A `Decide`, from its admission to the ladder on the session's state
//! as read: the held option set it refers to, and a repeat of the
//! session's last turn answered as it was.

use super::ports::DaemonPorts;
use super::{Ids, Record, Turn};
use crate::daemon::{Daemon, Generation, admit, call_span, unavailable};
use crate::error::{ApiError, Invalid};
use crate::store::Holding;
use crate::telemetry::Call;
use ladder::continuity::{ContinuityState, Now, TurnKey};
use ladder::decide::{self, Mode};
use ladder::types::{DecideRequest, Decision, Scope};
use std::sync::Arc;
use tokio::time::Instant;
use tracing::Instrument;

/// The state a record is given when nothing will write it.
static NO_STATE: std::sync::LazyLock<ContinuityState> = std::sync::LazyLock::new(ContinuityState::default);

/// What repeated turns came to: `ladder_turn_replays_total` (a `Decide`
/// with the session's last `turn_id` and input, answered with that turn's
/// decision, nothing applied) and `ladder_turn_id_reused_total` (the last
/// `turn_id` with another input: applied as a new turn).
#[derive(Debug)]
pub struct TurnCounters {
    replays: opentelemetry::metrics::Counter<u64>,
    reused: opentelemetry::metrics::Counter<u64>,
}

impl Default for TurnCounters {
    fn default() -> Self {
        let meter = opentelemetry::global::meter("ladderd");
        let replays = meter
            .u64_counter("ladder.turn.replays")
            .with_description("Decide calls with the session's last turn_id and input: that turn's decision again, nothing applied")
            .build();
        let reused = meter
            .u64_counter("ladder.turn_id.reused")
            .with_description("Decide calls with the session's last turn_id and another input: applied as a new turn")
            .build();
        // Both series from the start at 0, for a dashboard's rate().
        replays.add(0, &[]);
        reused.add(0, &[]);
        TurnCounters { replays, reused }
    }
}

impl Daemon {
    pub async fn decide(&self, g: &Generation, req: DecideRequest, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let span = call_span(Call::Decide, &req.session_id, &req.turn_id);
        Self::redact_into(g.config.telemetry.redact_input, &span, "ladder.input", &req.input);
        self.decide_in_span(g, req, deadline).instrument(span).await
    }

    /// One `Decide`, whatever the store:
    ///
    /// 1. admit it: the held option set it refers to, its matching work;
    /// 2. read the session's state (a repeat of its last turn is answered
    ///    as it was);
    /// 3. run the ladder on the state as read;
    /// 4. commit: write the change (a compare-and-set on a shared store),
    ///    record what happened, answer.
    async fn decide_in_span(&self, g: &Generation, mut req: DecideRequest, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let started = Instant::now();
        let now = self.clock.now();
        let pool_version = self.resolve_pool(&mut req).await?;
        // Shared with the cycle it may open (for Enrich), never copied.
        let req = Arc::new(req);
        let work = admit::work(g, &req)?;
        let key = TurnKey::of(&req.turn_id, &req.input);
        let turn = Turn { req, ids: Ids::new(), work, pool_version, now, deadline, started, key };
        let stored = self.read_or_none(&turn.req.session_id, now).await;
        if let Some(d) = self.replayed(&turn, stored.as_deref()) {
            return Ok(d);
        }
        // Boxed: the ladder on the state is a large future, which every
        // call would otherwise carry by value (see `drive`).
        Box::pin(self.decide_on(g, turn, stored)).await
    }

    /// The decision of the session's last turn when this `Decide` repeats
    /// it (its `turn_id` and input: a client retrying after a lost
    /// answer), answered as it was and applying nothing again
    /// (docs/calling.md). The last `turn_id` with another input is a new
    /// turn, counted.
    pub(super) fn replayed(&self, turn: &Turn, stored: Option<&ContinuityState>) -> Option<Decision> {
        let (key, last) = (turn.key?, stored?.last_turn.as_deref()?);
        if last.key == key {
            return Some(self.replay(last.decision.clone()));
        }
        if last.key.turn == key.turn {
            self.turns.reused.add(1, &[]);
            tracing::debug!("a turn_id reused with another input: a new turn");
        }
        None
    }

    /// A repeated turn's answer: its decision as kept, its trace one step
    /// saying so. Not a decision of its own: counted as a replay, with no
    /// decision record and no guardrail sample (the first call had them).
    pub(super) fn replay(&self, kept: Decision) -> Decision {
        self.turns.replays.add(1, &[]);
        let span = tracing::Span::current();
        span.record("ladder.decision_id", kept.decision_id.as_str());
        span.record("ladder.outcome", kept.outcome.as_str());
        let mut d = kept;
        d.trace = vec![ladder::types::Step {
            rung: "replay".into(),
            outcome: "same_turn".into(),
            detail: "the session's last turn_id and input: that turn's decision, nothing applied again".into(),
            duration_us: 0,
        }];
        d
    }

    /// The session's state, `None` when there is none or the store does not
    /// answer (the ladder then decides without it).
    pub(super) async fn read_or_none(&self, session_id: &str, now: Now) -> Option<Arc<ContinuityState>> {
        self.store.get(session_id, now).await.unwrap_or_else(|e| {
            tracing::debug!(error = %e, "deciding without the session state");
            None
        })
    }

    /// Runs the ladder on the session's state as read (`None`: none, or the
    /// store did not answer) and commits the decision.
    pub(super) async fn decide_on(&self, g: &Generation, turn: Turn, stored: Option<Arc<ContinuityState>>) -> Result<Decision, ApiError> {
        let Turn { req, ids, work, pool_version, now, deadline, started, key: _ } = turn;
        let state = ContinuityState::view_shared(stored, now, g.policy.ttl);
        let ports = DaemonPorts::new(self, &req.session_id, deadline, g);
        let ctx = self.ctx(g, (&*state).into(), &ids, now, deadline);
        let mut decided = self.drive(work, deadline, decide::decide(&ctx, &req, Mode::Turn, &ports)).await?;
        decided.decision.pool_version = pool_version;
        // Without a decision log to write it to, the state as read is let go
        // before the change is applied: the in-memory store changes a state
        // nobody else holds in place, and copied this one whole on every
        // turn (`Arc::make_mut`).
        let kept = self.records.is_some().then_some(state);
        let state = kept.as_deref().unwrap_or(&NO_STATE);
        self.commit(g, &req.session_id, decided, Record { call: Call::Decide, req: &req, state, cycle: None, started }).await
    }

    /// Pool reuse: fills a referenced option set from the cache, or caches
    /// a versioned one. Returns the version it is held under.
    async fn resolve_pool(&self, req: &mut DecideRequest) -> Result<Option<String>, ApiError> {
        let session = &req.session_id;
        let Some(o) = req.options.as_mut() else { return Ok(None) };
        if o.version.is_empty() {
            return Ok(None);
        }
        if o.by_reference {
            let held = self
                .pools
                .get(session, &o.option_set_id, &o.version)
                .await
                .map_err(|e| unavailable(e, "retry, or resend the option set with its candidates (by_reference false)"))?;
            let Some((scope, cands)) = held else {
                return Err(ApiError::FailedPrecondition(format!(
                    "options: option set {:?} version {:?} is not held for this session (evicted, or never sent); resend it with its candidates",
                    o.option_set_id, o.version
                )));
            };
            o.candidates = cands;
            if o.scope == Scope::Unspecified {
                o.scope = scope;
            }
            admit::confirms_one(o)?;
            let version = o.version.clone();
            // The held set's ids were unique when it was sent; only the
            // other lists can collide with it now.
            if let Some(dup) = req.duplicate_id() {
                return Err(Invalid::Duplicate { field: format!("{}[{}].id", dup.field, dup.index), id: dup.id.to_string() }.into());
            }
            return Ok(Some(version));
        }
        // Not held is no error: the decision does not need it, and a later
        // reference to it asks the client to resend. Held with other
        // content is: the user's screen shows the held content.
        if !o.candidates.is_empty() {
            match self.pools.put(session, &o.option_set_id, &o.version, o.scope, o.candidates.clone()).await {
                Ok(Holding::OtherContent) => {
                    return Err(ApiError::FailedPrecondition(format!(
                        "options: version {:?} of option set {:?} is held with other content: send a new version",
                        o.version, o.option_set_id
                    )));
                }
                Ok(Holding::Held | Holding::TooLarge) => {}
                Err(e) => tracing::debug!(error = %e, "option set not held for reuse"),
            }
        }
        Ok(Some(o.version.clone()))
    }
}
