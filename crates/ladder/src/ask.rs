//! What the LLM is shown: the bounded pool of the tie, a compact continuity
//! context limited to ids of that pool, and enriched context packed within
//! the token budgets. Nothing else ever reaches a prompt.

use super::policy::Budgets;
use super::ports::TokenCounter;
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

/// Packs enriched context for the prompt: chat history first (newest
/// first, at most `chat_history_max_turns` turns and
/// `chat_history_max_tokens` tokens), then excerpts (each at most
/// `snapshot_excerpt_max_tokens`), all within `blended_context_max_tokens`.
/// An entry that does not fit is cut (it ends with " …"), and what no
/// longer fits at all is counted in `omitted`: nothing is dropped silently.
pub fn pack_context(history: &[String], excerpts: &[String], b: &Budgets, tokens: &dyn TokenCounter) -> LlmContext {
    let mut out = LlmContext::default();
    let mut blended = b.blended_context_max_tokens;
    let mut history_left = b.chat_history_max_tokens.min(blended);
    for (i, turn) in history.iter().enumerate() {
        if i >= b.chat_history_max_turns || history_left == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(turn, history_left, tokens);
        out.truncated += usize::from(cut);
        history_left -= used;
        blended -= used;
        out.chat_history.push(text);
    }
    for e in excerpts {
        if blended == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(e, b.snapshot_excerpt_max_tokens.min(blended), tokens);
        out.truncated += usize::from(cut);
        blended -= used;
        out.excerpts.push(text);
    }
    out
}

/// `text` within `max` tokens: (text, tokens used, whether it was cut).
fn fit(text: &str, max: usize, tokens: &dyn TokenCounter) -> (String, usize, bool) {
    let n = tokens.count(text);
    if n <= max { (text.to_string(), n, false) } else { (format!("{} …", tokens.truncate(text, max)), max, true) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::WordCounter;

    #[test]
    fn context_is_packed_within_every_budget_and_cut_visibly() {
        let b = Budgets {
            chat_history_max_turns: 2,
            chat_history_max_tokens: 5,
            snapshot_excerpt_max_tokens: 3,
            blended_context_max_tokens: 9,
            ..Budgets::default()
        };
        let history = ["one two three", "four five six", "seven", "eight"].map(String::from);
        let excerpts = ["a b c d e", "f g", "h i"].map(String::from);
        let c = pack_context(&history, &excerpts, &b, &WordCounter);
        assert_eq!(c.chat_history, ["one two three", "four five …"], "2 turns, 5 tokens");
        assert_eq!(c.excerpts, ["a b c …", "f …"], "3 per excerpt, 9 in all");
        assert_eq!((c.truncated, c.omitted), (3, 3));
        let total: usize = c.chat_history.iter().chain(&c.excerpts).map(|s| WordCounter.count(s.trim_end_matches(" …"))).sum();
        assert!(total <= b.blended_context_max_tokens);
    }
}
