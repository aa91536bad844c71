//! What the benches that run `ladder::decide::decide` directly share
//! (`#[path = "support/mod.rs"] mod support;`): ports that do nothing and
//! the context of a default daemon.

use ladder::ask::LlmAsk;
use ladder::continuity::{ContinuityState, Now};
use ladder::decide::Ctx;
use ladder::intern::PoolMemo;
use ladder::policy::{LlmAnswer, Policy};
use ladder::ports::{GuardClaim, Ports, WordCounter};
use ladder::types::FallbackReason;
use std::future::Future;

/// The ladder's ports doing nothing: the guard is always claimed and the
/// LLM is off.
pub struct NoPorts;

impl Ports for NoPorts {
    fn claim_guard(&self, _: &str, _: &str) -> impl Future<Output = GuardClaim> + Send {
        std::future::ready(GuardClaim::Claimed)
    }
    fn claim_llm_call(&self, _: &str, _: u32) -> impl Future<Output = bool> + Send {
        std::future::ready(true)
    }
    fn arbitrate(&self, _: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        std::future::ready(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled })
    }
}

/// The context a default daemon runs `decide` with: the session state
/// `state`, no deadline, the pool memo `memo` (`None`: each call
/// canonicalizes its pool).
pub fn ctx<'a>(policy: &'a Policy, state: &'a ContinuityState, now: Now, memo: Option<&'a PoolMemo>) -> Ctx<'a> {
    Ctx {
        policy,
        state: state.into(),
        now,
        decision_id: "dec-1",
        new_cycle_id: "cycle-1",
        tokens: &WordCounter,
        auto_execute_tripped: false,
        deadline: None,
        pool_memo: memo,
    }
}
