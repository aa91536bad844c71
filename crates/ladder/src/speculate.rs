//! Speculation: planning a `Decide` turn before the session's state is
//! read, for a store whose read costs a round trip (docs/replicas.md: one
//! round trip for a deterministic `Decide`, two for an LLM turn).
//!
//! [`plan`] runs the ladder without the state and says how the turn
//! reaches the session:
//!
//! - [`Plan::Log`]: the run read nothing of the state and asked for no
//!   port (a unique match, an escape): the decision is the ladder's for
//!   every state, so its change is logged without a read.
//! - [`Plan::LogWithRead`]: the run read only facts about the state
//!   ([`Fact`], a tie): each [`Case`] (the decision where continuity may
//!   take the tie first, then the one made without the state) is logged
//!   as one conditional change, and the read that comes back with it tells
//!   which case applied ([`Case::applies_on`]).
//! - [`Plan::ReadClaiming`]: the run asked for a loop-guard claim (the turn
//!   is headed for the LLM): the read takes the claim, so the LLM turn
//!   costs two round trips.
//! - [`Plan::Read`]: the decision depends on the state: read, decide,
//!   write.
//!
//! Every case's decision is the ladder's wherever its facts hold, and its
//! change (on the wider facts of [`DecidedUpdate::continuing`]) leaves the
//! session as the ladder's does: the property tests in `speculate/tests.rs`
//! check both against runs of [`decide`] on the state.

use crate::ask::LlmAsk;
use crate::continuity::{self, ContinuityState, DecidedUpdate, Fact, StateView, Watch};
use crate::cost::DeadlinePassed;
use crate::decide::decide;
use crate::draft::{Ctx, Decided, Mode};
use crate::policy::LlmAnswer;
use crate::ports::{GuardClaim, Ports};
use crate::types::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a turn reaches the session's state (the module's doc).
#[derive(Debug)]
pub enum Plan {
    /// Read the session, decide on it, write the change.
    Read,
    /// Read the session taking the loop-guard claim the run without the
    /// state asked for (`key`, `cycle`); `shown`: the case where
    /// continuity takes the tie instead, logged with the claim applying
    /// only where it does not.
    ReadClaiming { key: String, cycle: String, shown: Option<Box<Case>> },
    /// The decision for every state: log its change without a read.
    Log(Box<Decided>),
    /// Cases decided on facts about the state, most specific first: log
    /// them as one conditional change with the read; the first whose
    /// (wider) facts hold applies.
    LogWithRead(Vec<Case>),
}

/// One case of a turn decided without the state: its decision, the facts
/// it holds on, and the wider facts its change holds on
/// ([`DecidedUpdate::continuing`]), which is how it is logged.
#[derive(Debug)]
pub struct Case {
    pub decided: Decided,
    pub facts: Vec<Fact>,
    pub wide: Vec<Fact>,
    /// The decision and cycle ids it was made with: decided again, it keeps
    /// them (an execution's cohort is noted under its decision id).
    pub decision_id: String,
    pub cycle_id: String,
}

impl Case {
    fn new(decided: Decided, facts: Vec<Fact>, ctx: &Ctx<'_>) -> Self {
        let wide = decided.update.continuing(&facts);
        Case { decided, facts, wide, decision_id: ctx.decision_id.to_string(), cycle_id: ctx.new_cycle_id.to_string() }
    }

    /// Whether the decision holds on `state` (as the ladder reads it).
    pub fn holds_on(&self, state: &ContinuityState) -> bool {
        self.facts.iter().all(|f| state.holds(f))
    }

    /// Whether its logged change applied to `state`.
    pub fn applies_on(&self, state: &ContinuityState) -> bool {
        self.wide.iter().all(|f| state.holds(f))
    }
}

/// Plans a `Decide` turn without the session's state (the module's doc).
/// `ctx` carries the turn's decision and cycle ids; `other` is a second
/// pair for the case where continuity takes the tie (only one case is ever
/// answered, but an execution's cohort is noted under its own id before
/// the store says which). `ctx.state` is not used.
pub async fn plan(ctx: &Ctx<'_>, other: (&str, &str), req: &DecideRequest) -> Result<Plan, DeadlinePassed> {
    let shown_ctx = Ctx { decision_id: other.0, new_cycle_id: other.1, ..*ctx };
    match without_state(ctx, req).await? {
        Stateless::Decided { decided, facts, continuity } => {
            let opens = matches!(decided.update.cycle, continuity::CycleChange::Open(_));
            // Whatever the state: logged without a read.
            if facts.is_empty() && !opens {
                return Ok(Plan::Log(decided));
            }
            // An execution on facts is read first: its cohort would be
            // noted before it is known to stand. All but one whose only
            // fact is that the user did not refuse its option (every
            // execution reads that, `refusals`): that fact fails only for
            // a refused option, which is then decided again on the read,
            // under the same decision id and the request's same cohort.
            let unrefused = facts.iter().all(|f| matches!(f, Fact::Refusal { is: None, .. }));
            if decided.decision.outcome == Outcome::Execute && !unrefused {
                return Ok(Plan::Read);
            }
            // Where the session's context is these options, continuity may
            // take the tie instead, or, in another scope, ask otherwise:
            // those cases first.
            let mut cases = Vec::new();
            if continuity {
                cases.extend(on_shown_options(&shown_ctx, req).await?.map(|(d, f)| Case::new(d, f, &shown_ctx)));
                cases.extend(on_options_in_another_scope(ctx, req).await?.map(|(d, f)| Case::new(d, f, ctx)));
            }
            cases.push(Case::new(*decided, facts, ctx));
            Ok(Plan::LogWithRead(cases))
        }
        Stateless::Depends { claim: Some((key, cycle)), continuity } => {
            let shown = match continuity {
                true => on_shown_options(&shown_ctx, req).await?.map(|(d, f)| Box::new(Case::new(d, f, &shown_ctx))),
                false => None,
            };
            Ok(Plan::ReadClaiming { key, cycle, shown })
        }
        Stateless::Depends { claim: None, .. } => Ok(Plan::Read),
    }
}

/// Decides a case again on the session as read (`ctx.state`), with no
/// port: for a case whose change applied but whose own facts do not hold
/// (the session's cycle on this evidence, continued or closed by the
/// change as the ladder does), where only the decision is still to be
/// made. Also says whether the run asked for a port (a loop-guard claim,
/// the LLM), which such a turn never does
/// (`a_change_made_without_the_state_continues_a_cycle_as_the_ladder_does`);
/// if it did, it was refused, and the decision is the clarifier a store
/// that does not answer gives (`state_unavailable`).
pub async fn decide_again(ctx: &Ctx<'_>, req: &DecideRequest) -> Result<(Decided, bool), DeadlinePassed> {
    let ports = Detached::default();
    let decided = decide(ctx, req, Mode::Turn, &ports).await?;
    let asked = ports.asked();
    Ok((decided, asked))
}

/// What a run without the state found.
#[derive(Debug)]
pub(crate) enum Stateless {
    /// The decision, wherever `facts` hold (no facts: whatever the state).
    /// `continuity`: the continuity resolver read whether the session's
    /// context is this option set; where it is, continuity may decide
    /// otherwise (`on_shown_options`).
    Decided { decided: Box<Decided>, facts: Vec<Fact>, continuity: bool },
    /// The decision depends on the state. `claim`: the loop-guard claim
    /// (guard key, cycle id) the run asked for without it: the turn is
    /// likely headed for the LLM, and the same claim with the state will
    /// have the same key (the key is the evidence, not the state).
    Depends { claim: Option<(String, String)>, continuity: bool },
}

/// Runs the ladder for a `Decide` turn without the session's state:
/// `Stateless::Decided` when the run needed no port and read of the state
/// only facts, a decision (and change) that is the ladder's for every
/// state where the facts hold, as
/// `a_decision_made_without_reading_the_state_is_the_same_wherever_its_facts_hold`
/// checks.
pub(crate) async fn without_state(ctx: &Ctx<'_>, req: &DecideRequest) -> Result<Stateless, DeadlinePassed> {
    let empty = ContinuityState::default();
    let watch = Watch::default();
    let ctx = Ctx { state: StateView::watched(&empty, &watch), ..*ctx };
    let ports = Detached::default();
    let decided = decide(&ctx, req, Mode::Turn, &ports).await?;
    let used = ports.used.load(Ordering::Relaxed);
    let claim = ports.claim.into_inner().unwrap_or_else(|p| p.into_inner());
    let continuity = watch.read_active_set();
    match watch.facts() {
        Some(facts) if !used && claim.is_none() => Ok(Stateless::Decided { decided: Box::new(decided), facts, continuity }),
        _ => Ok(Stateless::Depends { claim, continuity }),
    }
}

/// The ladder without the state, as if the session's continuity context
/// were the request's own options (their option set and scope): the other
/// decision of a tie the continuity resolver may take. `Some` when
/// continuity resolves it on facts only, with no port: that decision is the
/// ladder's for every state where those facts hold
/// (`a_decision_on_the_shown_options_is_the_ladders_wherever_its_facts_hold`).
pub(crate) async fn on_shown_options(ctx: &Ctx<'_>, req: &DecideRequest) -> Result<Option<(Decided, Vec<Fact>)>, DeadlinePassed> {
    let decided = as_shown(ctx, req, req.active_scope.clone()).await?;
    Ok(decided.filter(|(d, _)| d.decision.decided_by == Decider::Continuity))
}

/// The third case of such a tie: the session's context is the request's
/// option set, but in another scope (continuity does not take it). `Some`
/// when decided on facts only, with no port (the same property test).
pub(crate) async fn on_options_in_another_scope(
    ctx: &Ctx<'_>,
    req: &DecideRequest,
) -> Result<Option<(Decided, Vec<Fact>)>, DeadlinePassed> {
    // Any scope other than the request's: the run reads only whether it is.
    let other = match &req.active_scope {
        None => Some(ScopeRef { scope: Scope::Chat, instance_id: String::new() }),
        Some(_) => None,
    };
    as_shown(ctx, req, other).await
}

/// The ladder run without the state, as if the session's context were the
/// request's option set in `scope`: the decision and its facts, when it
/// read only facts and needed no port.
async fn as_shown(ctx: &Ctx<'_>, req: &DecideRequest, scope: Option<ScopeRef>) -> Result<Option<(Decided, Vec<Fact>)>, DeadlinePassed> {
    let shown = ContinuityState {
        active_option_set_id: Some(req.option_set_id().to_string()).filter(|s| !s.is_empty()),
        active_scope: scope,
        ..Default::default()
    };
    let watch = Watch::default();
    let ctx = Ctx { state: StateView::watched(&shown, &watch), ..*ctx };
    let ports = Detached::default();
    let decided = decide(&ctx, req, Mode::Turn, &ports).await?;
    let asked = ports.asked();
    Ok(watch.facts().filter(|_| !asked).map(|facts| (decided, facts)))
}

/// Ports that refuse every effect and note what was asked for.
#[derive(Default)]
struct Detached {
    used: AtomicBool,
    claim: std::sync::Mutex<Option<(String, String)>>,
}

impl Detached {
    /// Whether the run asked for any effect.
    fn asked(self) -> bool {
        self.used.load(Ordering::Relaxed) || self.claim.into_inner().unwrap_or_else(|p| p.into_inner()).is_some()
    }
}

impl Ports for Detached {
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl std::future::Future<Output = GuardClaim> + Send {
        *self.claim.lock().unwrap_or_else(|p| p.into_inner()) = Some((guard_key.to_string(), cycle_id.to_string()));
        std::future::ready(GuardClaim::Unavailable)
    }
    fn claim_llm_call(&self, _: &str, _: u32) -> impl std::future::Future<Output = bool> + Send {
        self.used.store(true, Ordering::Relaxed);
        std::future::ready(false)
    }
    fn arbitrate(&self, _: &LlmAsk) -> impl std::future::Future<Output = LlmAnswer> + Send {
        self.used.store(true, Ordering::Relaxed);
        std::future::ready(LlmAnswer::Skipped { reason: FallbackReason::StateUnavailable })
    }
}

/// The change a case logs (`Update::DecidedIf` on its wider facts), with
/// `otherwise` for the cases after it.
pub fn logged(wide: Vec<Fact>, update: DecidedUpdate, otherwise: Option<continuity::Update>) -> continuity::Update {
    continuity::Update::DecidedIf { facts: wide, update, otherwise: otherwise.map(Box::new) }
}

#[cfg(test)]
mod tests;
