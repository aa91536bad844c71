//! Following a turn's plan (`ladder::speculate::Plan`) to a store whose
//! reads cost a round trip: the change logged without a read, or with the
//! read in one script, the loop-guard claim taken with the read, and the
//! decision of the case that applied.

use super::ports::guard_claim;
use super::{Ids, Preclaimed, Record, Turn, kept_turn};
use crate::daemon::{Daemon, Generation};
use crate::error::ApiError;
use crate::telemetry::Call;
use ladder::continuity::{Applied, ContinuityState, DecidedUpdate, Update};
use ladder::decide::Decided;
use ladder::ports::GuardClaim;
use ladder::speculate::{self, Case, Plan};
use ladder::types::{DecideRequest, Decision, Outcome};
use std::sync::Arc;

impl Daemon {
    /// Follows a turn's plan to the session (`ladder::speculate::Plan`):
    /// the store call it needs, then the ladder on the state where the plan
    /// leaves the decision to it. A store that does not answer: the ladder
    /// decides without the session's state. The deterministic rungs decide
    /// as before; the continuity rung has nothing to resolve with, and the
    /// LLM rung cannot claim the loop guard, so it is skipped
    /// (`state_unavailable`).
    pub(super) async fn follow(&self, g: &Generation, mut turn: Turn, plan: Plan) -> Result<Decision, ApiError> {
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
}
