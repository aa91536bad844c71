//! The ports: the effects the ladder needs from outside, implemented by the
//! daemon's adapters (the session store, the LLM client, a tokenizer) and by
//! fakes in tests. The core calls them; it never reaches the outside itself.

use super::ask::LlmAsk;
use super::policy::LlmAnswer;
use std::future::Future;

/// The effects the ladder needs, implemented by the daemon's adapters (and
/// by fakes in tests).
pub trait Ports: Sync {
    /// Atomically records that an LLM attempt starts for `guard_key` in
    /// this session; says whether one already did in this cycle (S5).
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl Future<Output = GuardClaim> + Send;
    /// Atomically takes one LLM call of the open cycle `cycle_id` from its
    /// budget of `max` (an `Enrich` step's call): false when none is left
    /// or the session store cannot say, and then no call is made. Two
    /// `Enrich` calls racing on one cycle can never both take the last.
    fn claim_llm_call(&self, cycle_id: &str, max: u32) -> impl Future<Output = bool> + Send;
    /// Asks the LLM once, within the port's own deadline: the first ask of
    /// an attempt.
    fn arbitrate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send;
    /// The corroborating ask of the same attempt: the
    /// same pool, reordered and relabelled. It is no new attempt (no guard
    /// claim, no LLM call counted against the cycle) and gets only what is
    /// left of the first ask's budget: a port with a clock answers
    /// `Skipped { reason: Deadline }` when too little is left to ask.
    /// The default asks like `arbitrate`, for ports without a clock.
    fn corroborate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        self.arbitrate(ask)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GuardClaim {
    Claimed,
    Repeat {
        ordering: Vec<String>,
        suggested_id: Option<String>,
    },
    /// The session store could not record the claim (a shared store that
    /// is down or slow): without it S5 cannot be promised, so no LLM call
    /// (fallback reason `state_unavailable`).
    Unavailable,
}

/// Counts and cuts text in model tokens (the daemon uses a real BPE
/// tokenizer; tests may count words).
pub trait TokenCounter: Sync {
    fn count(&self, text: &str) -> usize;
    /// The longest prefix of `text` with at most `max` tokens.
    fn truncate(&self, text: &str, max: usize) -> String;
}

/// Whitespace-separated words as tokens (tests and examples).
pub struct WordCounter;

impl TokenCounter for WordCounter {
    fn count(&self, text: &str) -> usize {
        text.split_whitespace().count()
    }
    fn truncate(&self, text: &str, max: usize) -> String {
        text.split_whitespace().take(max).collect::<Vec<_>>().join(" ")
    }
}
