//! What the LLM is shown, as data: the bounded pool of the tie, a compact
//! continuity context limited to ids of that pool, and enriched context
//! packed within the token budgets (`llm_rung::pack_context`). Nothing else
//! ever reaches a prompt.

use super::types::{AmbiguityReason, EvidenceType};

/// What the LLM is shown: the bounded pool and nothing else.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmAsk {
    pub canonical_input: String,
    pub reason: AmbiguityReason,
    pub candidates: Vec<AskCandidate>,
    pub continuity: AskContinuity,
    /// Enriched context, packed within the token budgets.
    pub context: LlmContext,
    pub allowed_evidence: Vec<EvidenceType>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AskCandidate {
    pub id: String,
    pub label: String,
    pub kind: String,
    /// Disambiguators: sublabel, path, badge.
    pub hint: String,
}

/// Chat history and excerpts from `Enrich`, within the token budgets.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LlmContext {
    /// Newest first.
    pub chat_history: Vec<String>,
    pub excerpts: Vec<String>,
    /// Entries cut to fit a budget (each cut one ends with " …").
    pub truncated: usize,
    /// Entries left out because a budget was spent (counted, never silent).
    pub omitted: usize,
}

impl LlmContext {
    pub fn is_empty(&self) -> bool {
        self.chat_history.is_empty() && self.excerpts.is_empty()
    }
}

/// A compact, bounded view of continuity, limited to ids of the pool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AskContinuity {
    pub last_accepted_choice_id: Option<String>,
    pub recently_rejected: Vec<String>,
    pub pending_clarifier: &'static str,
}
