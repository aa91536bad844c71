//! The turn calls: `Decide`, `Enrich`, `RecordOutcome`, `GetSession`,
//! `ResetSession`, and the ladder's ports (the loop-guard claim in the
//! session store, the LLM call).

use super::{Daemon, Generation, admit, call_span, unavailable};
use crate::config::Redaction;
use crate::error::{ApiError, Invalid};
use crate::llm::LlmClient;
use crate::store::{Holding, StoreError};
use crate::telemetry::{self, Call, records::DecisionRecord};
use ladder::ask::LlmAsk;
use ladder::continuity::{
    ActionEntry, ActionKind, ActionOutcome, Applied, ContinuityState, Cycle, CycleChange, DecidedUpdate, EnrichRefusal, LastTurn, Now,
    OutcomeUpdate, TurnKey, Update,
};
use ladder::decide::{self, Ctx, Decided, Mode, StateView};
use ladder::policy::LlmAnswer;
use ladder::ports::{GuardClaim, Ports};
use ladder::speculate::{self, Case, Plan};
use ladder::types::{Candidate, DecideRequest, Decision, EvidenceType, FallbackReason, Outcome, Scope, ScopeRef};
use std::future::Future;
use std::sync::Arc;
use tokio::time::Instant;
use tracing::Instrument;

/// Matching work from which the ladder runs off the worker threads (about
/// a millisecond of matching; BENCHMARKS.md, "Hostile load").
pub const HEAVY_WORK: u64 = 50_000;

fn overrun() -> ApiError {
    ApiError::DeadlineExceeded("the deadline passed while the ladder ran".into())
}

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
    pub async fn decide(&self, g: &Generation, req: DecideRequest, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let span = call_span(Call::Decide, &req.session_id, &req.turn_id);
        Self::redact_into(g.config.telemetry.redact_input, &span, "ladder.input", &req.input);
        self.decide_in_span(g, req, deadline).instrument(span).await
    }

    /// One `Decide`, whatever the store:
    ///
    /// 1. admit it: the held option set it refers to, its matching work;
    /// 2. plan how the turn reaches the session: a store whose reads cost a
    ///    round trip plans before reading (`ladder::speculate`: most turns
    ///    then cost one round trip), one whose reads are free is read first
    ///    (`Plan::Read`);
    /// 3. follow the plan: the one store call it needs, and the ladder on
    ///    the state where the plan leaves the decision to it;
    /// 4. commit: write the change, record what happened, answer.
    async fn decide_in_span(&self, g: &Generation, mut req: DecideRequest, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let started = Instant::now();
        let now = self.clock.now();
        let pool_version = self.resolve_pool(&mut req).await?;
        // Shared with the cycle it may open (for Enrich), never copied.
        let req = Arc::new(req);
        let work = admit::work(g, &req)?;
        let key = TurnKey::of(&req.turn_id, &req.input);
        let turn = Turn { req, ids: Ids::new(), work, pool_version, now, deadline, started, preclaimed: None, key };
        let plan = if self.store.remote() {
            let (empty, other) = (ContinuityState::default(), Ids::new());
            let ctx = self.ctx(g, (&empty).into(), &turn.ids, now, deadline);
            self.drive(work, deadline, speculate::plan(&ctx, (&other.decision, &other.cycle), &turn.req)).await?
        } else {
            Plan::Read
        };
        // Boxed: following a plan is a large future, which every call
        // would otherwise carry by value (see `drive`).
        Box::pin(self.follow(g, turn, plan)).await
    }

    /// Follows a turn's plan to the session (`ladder::speculate::Plan`):
    /// the store call it needs, then the ladder on the state where the plan
    /// leaves the decision to it. A store that does not answer: the ladder
    /// decides without the session's state. The deterministic rungs decide
    /// as before; the continuity rung has nothing to resolve with, and the
    /// LLM rung cannot claim the loop guard, so it is skipped
    /// (`state_unavailable`).
    async fn follow(&self, g: &Generation, mut turn: Turn, plan: Plan) -> Result<Decision, ApiError> {
        let (now, ttl) = (turn.now, g.policy.ttl);
        let req = turn.req.clone();
        let empty = ContinuityState::default();
        let rec = Record { call: Call::Decide, req: &req, state: &empty, cycle: None, started: turn.started, read: false };
        // A turn with a `turn_id` is read with its write, whatever the
        // plan: a repeat of the session's last turn must be told from a new
        // one (still one round trip).
        let plan = match plan {
            Plan::Log(decided) if turn.key.is_some() => {
                let (decision_id, cycle_id) = (decided.decision.decision_id.clone(), turn.ids.cycle.clone());
                Plan::LogWithRead(vec![Case { decided: *decided, facts: Vec::new(), wide: Vec::new(), decision_id, cycle_id }])
            }
            plan => plan,
        };
        let stored = match plan {
            Plan::Read => {
                let stored = self.read_or_none(&req.session_id, now).await;
                if let Some(d) = self.replayed(&turn, stored.as_deref()) {
                    return Ok(d);
                }
                stored
            }
            // Whatever the state: logged without a read.
            Plan::Log(mut decided) => {
                decided.decision.pool_version.clone_from(&turn.pool_version);
                return self.commit(g, &req.session_id, *decided, rec).await;
            }
            Plan::LogWithRead(cases) => match self.log_cases(g, &turn, cases).await? {
                Ok(decision) => return Ok(decision),
                Err(stored) => stored,
            },
            // Headed for the LLM: the loop guard is claimed with the read;
            // where continuity may take the tie instead, that case is
            // logged with it, the claim applying only where it does not.
            Plan::ReadClaiming { key, cycle, shown } => {
                let (read, shown) = match shown {
                    Some(mut case) => {
                        case.decided.decision.pool_version.clone_from(&turn.pool_version);
                        let claim = Update::ClaimGuard { guard_key: key.clone(), cycle_id: cycle };
                        let executed = self.executed_note(g, &case.decided, &req);
                        let mut update = std::mem::take(&mut case.decided.update);
                        update.turn = kept_turn(turn.key, &case.decided.decision);
                        let entry = speculate::logged(case.wide.clone(), update, Some(claim));
                        let note = executed.as_ref().map(|(d, c)| (d.as_str(), c.as_str()));
                        (self.store.log_with_read(&req.session_id, entry, note, now, ttl).await, Some(case))
                    }
                    None => (self.store.read_claiming(&req.session_id, &key, &cycle, now, ttl).await, None),
                };
                match read {
                    Ok((stored, applied)) => {
                        if let Some(d) = self.replayed(&turn, stored.as_deref()) {
                            // A claim taken with the read is given back.
                            if let Some((Applied::GuardClaimed | Applied::GuardRepeat { .. }, after)) = &applied {
                                self.store.unclaim(&req.session_id, stored.clone(), after);
                            }
                            return Ok(d);
                        }
                        if let (Some(case), Some((Applied::Done, after))) = (shown, &applied) {
                            let view = ContinuityState::view_shared(stored.clone(), now, ttl);
                            if case.applies_on(&view) {
                                self.store.fold_if_long(&req.session_id, now, ttl);
                                let decided = self.case_decision(g, &turn, *case, &view).await?;
                                self.keep_as_answered(g, &turn, after, &decided.decision).await;
                                return Ok(self.finish(g, decided, Record { state: &view, read: true, ..rec }));
                            }
                        }
                        turn.preclaimed = applied.map(|(a, after)| Preclaimed { key, claim: guard_claim(a), remembered: Some(after) });
                        stored
                    }
                    Err(e) => {
                        tracing::debug!(error = %e, "deciding without the session state or a guard claim");
                        turn.preclaimed = Some(Preclaimed { key, claim: GuardClaim::Unavailable, remembered: None });
                        None
                    }
                }
            }
        };
        self.decide_on(g, turn, stored).await
    }

    /// Logs a tie's cases with the read (`Plan::LogWithRead`), one
    /// conditional change: the first case whose (wider) facts hold on the
    /// session applies, and its decision is the turn's (`Ok`). `Err`: no
    /// case was logged (none held, or the log was full), decide on the
    /// state read. A store that does not answer: the decision on no state
    /// (the last case) stands, what deciding with an unanswered read
    /// gives, and its change is written if the store answers now.
    async fn log_cases(
        &self,
        g: &Generation,
        turn: &Turn,
        mut cases: Vec<Case>,
    ) -> Result<Result<Decision, Option<Arc<ContinuityState>>>, ApiError> {
        let (req, ttl) = (&turn.req, g.policy.ttl);
        let at = self.clock.now();
        for case in &mut cases {
            case.decided.decision.pool_version.clone_from(&turn.pool_version);
        }
        let executed = cases.iter().find_map(|c| self.executed_note(g, &c.decided, req));
        let (mut entry, mut main_update) = (None, None);
        for case in cases.iter_mut().rev() {
            let mut update = self.take_update(g, &mut case.decided, req);
            update.turn = kept_turn(turn.key, &case.decided.decision);
            // The last case's, written on its own if the store does not
            // answer.
            main_update.get_or_insert_with(|| update.clone());
            entry = Some(speculate::logged(case.wide.clone(), update, entry));
        }
        let note = executed.as_ref().map(|(d, c)| (d.as_str(), c.as_str()));
        let empty = ContinuityState::default();
        let rec = Record { call: Call::Decide, req, state: &empty, cycle: None, started: turn.started, read: false };
        let logged = self.store.log_with_read(&req.session_id, entry.unwrap_or(Update::Fold), note, at, ttl).await;
        if let Ok((stored, _)) = &logged
            && let Some(d) = self.replayed(turn, stored.as_deref())
        {
            return Ok(Ok(d));
        }
        match logged {
            Ok((stored, Some((Applied::Done, after)))) => {
                // The turn's change is in the store's log.
                self.refusals.forget(&req.session_id);
                let before = ContinuityState::view_shared(stored.clone(), at, ttl);
                match cases.into_iter().find(|c| c.applies_on(&before)) {
                    Some(case) => {
                        self.store.fold_if_long(&req.session_id, at, ttl);
                        let decided = self.case_decision(g, turn, case, &before).await?;
                        self.keep_as_answered(g, turn, &after, &decided.decision).await;
                        Ok(Ok(self.finish(g, decided, Record { state: &before, read: true, ..rec })))
                    }
                    // Never: a change applied, so its case holds.
                    None => Ok(Err(stored)),
                }
            }
            Ok((stored, _)) => Ok(Err(stored)),
            Err(e) => {
                tracing::debug!(error = %e, "deciding without the session state");
                let written = match main_update {
                    Some(update) => self.store.apply_noting(&req.session_id, Update::Decided(update), turn.now, ttl, None).await,
                    None => Err(e),
                };
                let written = match written {
                    Ok(Applied::Replay(d)) => return Ok(Ok(self.replay(*d))),
                    w => w.map(|_| ()),
                };
                match cases.pop() {
                    Some(mut main) => {
                        self.written(&req.session_id, written, &mut main.decided);
                        Ok(Ok(self.finish(g, main.decided, rec)))
                    }
                    None => Ok(Err(None)),
                }
            }
        }
    }

    /// The decision of a case once its change applied to the session read
    /// (`state`): the one made without the state where its own facts hold;
    /// else (the session's cycle on this evidence, continued or closed by
    /// the change as the ladder does) made again on the state with no
    /// port, under the case's ids, with nothing more to write.
    async fn case_decision(&self, g: &Generation, turn: &Turn, case: Case, state: &ContinuityState) -> Result<Decided, ApiError> {
        if case.holds_on(state) {
            return Ok(case.decided);
        }
        let ids = Ids { decision: case.decision_id, cycle: case.cycle_id };
        let ctx = self.ctx(g, state.into(), &ids, turn.now, turn.deadline);
        let (mut again, asked) = self.drive(turn.work, turn.deadline, speculate::decide_again(&ctx, &turn.req)).await?;
        if asked {
            // Never (a property of the core); were it to, the port was
            // refused: a safe clarifier.
            tracing::warn!("a turn whose change was logged without the state asked for a loop-guard claim or the LLM");
        }
        again.decision.pool_version.clone_from(&turn.pool_version);
        Ok(again)
    }

    /// The decision of the session's last turn when this `Decide` repeats
    /// it (its `turn_id` and input: a client retrying after a lost
    /// answer), answered as it was and applying nothing again
    /// (docs/calling.md). The last `turn_id` with another input is a new
    /// turn, counted.
    fn replayed(&self, turn: &Turn, stored: Option<&ContinuityState>) -> Option<Decision> {
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
    fn replay(&self, kept: Decision) -> Decision {
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

    /// A turn's decision once its change was logged is kept with the
    /// session as the change carried it; when the turn was decided again
    /// on the state read (`case_decision`) to another answer, the answer
    /// is kept instead (one more write, for that rare turn only).
    async fn keep_as_answered(&self, g: &Generation, turn: &Turn, after: &ContinuityState, answered: &Decision) {
        let Some(kept) = kept_turn(turn.key, answered) else { return };
        if after.last_turn.as_ref().is_some_and(|l| *l == kept) {
            return;
        }
        let update = DecidedUpdate { keep_pending: true, turn: Some(kept), ..Default::default() };
        if let Err(e) = self.store.apply(&turn.req.session_id, Update::Decided(update), self.clock.now(), g.policy.ttl).await {
            tracing::debug!(error = %e, "a turn's decision as answered not kept");
        }
    }

    /// An execution's decision id and cohort, remembered with the session
    /// for feedback recorded on another replica (when guardrails are on).
    fn executed_note(&self, g: &Generation, decided: &Decided, req: &Arc<DecideRequest>) -> Option<(String, String)> {
        let d = &decided.decision;
        (d.outcome == Outcome::Execute && g.config.guardrails.enabled).then(|| (d.decision_id.clone(), Self::cohort(g, req).to_string()))
    }

    /// The session's state, `None` when there is none or the store does not
    /// answer (the ladder then decides without it).
    async fn read_or_none(&self, session_id: &str, now: Now) -> Option<Arc<ContinuityState>> {
        self.store.get(session_id, now).await.unwrap_or_else(|e| {
            tracing::debug!(error = %e, "deciding without the session state");
            None
        })
    }

    /// Runs the ladder on the session's state as read (`None`: none, or the
    /// store did not answer) and commits the decision.
    async fn decide_on(&self, g: &Generation, turn: Turn, stored: Option<Arc<ContinuityState>>) -> Result<Decision, ApiError> {
        let Turn { req, ids, work, pool_version, now, deadline, started, preclaimed, key: _ } = turn;
        // The state as read, for a claim taken with the read to be undone.
        let before = preclaimed.as_ref().map(|_| stored.clone());
        let state = ContinuityState::view_shared(stored, now, g.policy.ttl);
        let mut ports = DaemonPorts::new(self, &req.session_id, deadline, g);
        let remembered = preclaimed.as_ref().and_then(|p| p.remembered.clone());
        ports.preclaimed = std::sync::Mutex::new(preclaimed.map(|p| (p.key, p.claim)));
        let ctx = self.ctx(g, (&*state).into(), &ids, now, deadline);
        let mut decided = self.drive(work, deadline, decide::decide(&ctx, &req, Mode::Turn, &ports)).await?;
        decided.decision.pool_version = pool_version;
        // A claim taken with the read that the ladder never asked for (the
        // state decided the turn without the LLM) is dropped, so the
        // session is left as if it had not been taken.
        let unused = ports.preclaimed.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let (Some(_), Some(after), Some(before)) = (unused, &remembered, before) {
            self.store.unclaim(&req.session_id, before, after);
        }
        // Without a decision log to write it to, the state as read is let go
        // before the change is applied: the in-memory store changes a state
        // nobody else holds in place, and copied this one whole on every
        // turn (`Arc::make_mut`).
        let kept = self.records.is_some().then_some(state);
        let state = kept.as_deref().unwrap_or(&NO_STATE);
        self.commit(g, &req.session_id, decided, Record { call: Call::Decide, req: &req, state, cycle: None, started, read: true }).await
    }

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
        ladder: impl Future<Output = Result<T, decide::DeadlinePassed>> + 'a,
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
        self.commit(
            g,
            &input.session_id,
            decided,
            Record { call: Call::Enrich, req: &merged, state: &view, cycle: Some(&cycle), started, read: true },
        )
        .await
    }

    /// Writes the decision's session change, records what happened
    /// (span attributes, metrics, decision record) and returns the decision.
    async fn commit(&self, g: &Generation, session_id: &str, mut decided: Decided, rec: Record<'_>) -> Result<Decision, ApiError> {
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
        let written = if rec.read {
            match self.store.apply_noting(session_id, Update::Decided(update), now, ttl, note).await {
                // The same turn, applied meanwhile by a call racing this
                // one: its decision is the turn's.
                Ok(Applied::Replay(kept)) => return Ok(self.replay(*kept)),
                written => written.map(|_| ()),
            }
        } else {
            self.store.log_decided(session_id, update, now, ttl, note).await
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
    fn written(&self, session_id: &str, written: Result<(), StoreError>, decided: &mut Decided) {
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
    fn take_update(&self, g: &Generation, decided: &mut Decided, req: &Arc<DecideRequest>) -> DecidedUpdate {
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
    fn finish(&self, g: &Generation, decided: Decided, rec: Record<'_>) -> Decision {
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
            let ranking = if rank.outcome == "meaning" { "meaning" } else { "words" };
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

/// A `Decide` call, once its request is admitted.
struct Turn {
    req: Arc<DecideRequest>,
    ids: Ids,
    work: u64,
    pool_version: Option<String>,
    now: Now,
    deadline: Option<Instant>,
    started: Instant,
    /// The loop-guard claim taken with the read.
    preclaimed: Option<Preclaimed>,
    /// The turn's key, when it has a `turn_id`.
    key: Option<TurnKey>,
}

/// A loop-guard claim taken with the session's read (`read_claiming`).
struct Preclaimed {
    key: String,
    claim: GuardClaim,
    /// The state the store remembered after the claim (`None`: the store
    /// did not answer, nothing was claimed).
    remembered: Option<Arc<ContinuityState>>,
}

/// What `commit` needs to write a decision record.
struct Record<'a> {
    call: Call,
    req: &'a Arc<DecideRequest>,
    state: &'a ContinuityState,
    cycle: Option<&'a Cycle>,
    started: Instant,
    /// The ladder ran on the session as read (false: it decided without
    /// reading it, `speculate::Plan::Log`).
    read: bool,
}

impl Daemon {
    /// An `Enrich` on a cycle the session does not hold: `UNAVAILABLE` when
    /// the store refused this session's last write (the cycle may be the
    /// one it refused), else `FAILED_PRECONDITION`.
    fn unknown_cycle(&self, input: &EnrichInput, retry: &str) -> ApiError {
        self.refusals.explain(&input.session_id, retry).unwrap_or_else(|| {
            ApiError::FailedPrecondition(format!(
                "unknown loop_cycle_id {:?} for session {:?}: it expired, was replaced by a newer cycle, or never existed; call Decide again with a new turn_id",
                input.loop_cycle_id, input.session_id
            ))
        })
    }
}

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("session {id:?} not found (expired or never seen)"))
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
    };
    Some(Box::new(LastTurn { key, decision }))
}

/// What a loop-guard claim's update did, as the ladder's port says it.
fn guard_claim(applied: Applied) -> GuardClaim {
    match applied {
        Applied::GuardRepeat { ordering, suggested_id } => GuardClaim::Repeat { ordering, suggested_id },
        _ => GuardClaim::Claimed,
    }
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

/// The ladder's view of the outside world for one call.
struct DaemonPorts<'a> {
    daemon: &'a Daemon,
    session_id: &'a str,
    llm: Option<Arc<LlmClient>>,
    deadline: Option<Instant>,
    g: &'a Generation,
    /// When this call's first ask started and how long it took: the
    /// corroborating ask of the same attempt gets only what is left of its
    /// budget.
    first_ask: std::sync::Mutex<Option<(Instant, std::time::Duration)>>,
    /// A claim already taken with the session's read (`read_claiming`),
    /// answered to the ladder's claim of the same guard key.
    preclaimed: std::sync::Mutex<Option<(String, GuardClaim)>>,
}

impl<'a> DaemonPorts<'a> {
    fn new(daemon: &'a Daemon, session_id: &'a str, deadline: Option<Instant>, g: &'a Generation) -> Self {
        DaemonPorts {
            daemon,
            session_id,
            llm: g.llms.main.clone(),
            deadline,
            g,
            first_ask: std::sync::Mutex::new(None),
            preclaimed: std::sync::Mutex::new(None),
        }
    }
}

impl Ports for DaemonPorts<'_> {
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl Future<Output = GuardClaim> + Send {
        let update = Update::ClaimGuard { guard_key: guard_key.to_string(), cycle_id: cycle_id.to_string() };
        let preclaimed = super::lock(&self.preclaimed).take_if(|(key, _)| key == guard_key).map(|(_, claim)| claim);
        async move {
            if let Some(claim) = preclaimed {
                return claim;
            }
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
                    *super::lock(&self.first_ask) = Some((started, started.elapsed()));
                    answer
                }
            }
        }
    }

    fn corroborate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        let llm = self.llm.clone();
        let deadline = self.deadline;
        let first = *super::lock(&self.first_ask);
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
