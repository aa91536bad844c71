//! What the LLM is shown, as data: the bounded pool of the tie, a compact
//! continuity context limited to ids of that pool, and enriched context
//! packed within the token budgets (`llm_rung::pack_context`). Nothing else
//! ever reaches a prompt.

use super::types::{AmbiguityReason, EvidenceType};
use crate::question::{PendingQuestion, QuestionKind};

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
    /// What was asked, when the turn may be a reply to it (docs/replies.md).
    pub asked: Option<AskQuestion>,
}

/// What was asked (ladderd's clarifier or confirmation, or the app's
/// `ASKED_CONFIRMATION` / `ASKED_CHOICE` screen), as the prompt shows it:
/// ids of the pool only, each list at most the pool's length.
#[derive(Debug, Clone, PartialEq)]
pub struct AskQuestion {
    pub kind: QuestionKind,
    /// The offered ids of the pool, in the order the question showed them.
    pub offered: Vec<String>,
    /// The id proposed (a confirmation's, a clarifier's suggestion, the
    /// one option a question offered), when it is in the pool.
    pub proposed: Option<String>,
    /// The ids of the pool the user refused, newest first.
    pub refused: Vec<String>,
}

impl AskQuestion {
    /// What `q` asked, limited to `candidates` (the pool the prompt
    /// shows) and at most `cap` ids a list. An offered id counts only
    /// with the label the question showed it with, when it kept one (an
    /// id of another screen may name something else). `refused`: the ids
    /// the user refused, newest first. `None` when the question offered
    /// nothing of this pool: it asked about other options.
    pub fn of(q: &PendingQuestion, candidates: &[AskCandidate], refused: &[&str], cap: usize) -> Option<Self> {
        let shown = |id: &str| {
            let label = q.label_of(id);
            candidates.iter().any(|c| c.id == id && (label.is_empty() || c.label == label))
        };
        let mut offered: Vec<String> = Vec::new();
        for id in q.offered.iter().filter(|id| shown(id)) {
            if offered.len() < cap && !offered.contains(id) {
                offered.push(id.clone());
            }
        }
        if offered.is_empty() {
            return None;
        }
        let proposed = q.proposed.as_deref().or_else(|| q.proposal()).filter(|id| shown(id)).map(str::to_string);
        let mut out: Vec<String> = Vec::new();
        for id in refused.iter().filter(|id| candidates.iter().any(|c| c.id == **id)) {
            if out.len() < cap && !out.iter().any(|o| o == id) {
                out.push(id.to_string());
            }
        }
        Some(AskQuestion { kind: q.kind, offered, proposed, refused: out })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(ids: &[&str]) -> Vec<AskCandidate> {
        ids.iter()
            .map(|id| AskCandidate { id: id.to_string(), label: format!("Label {id}"), kind: String::new(), hint: String::new() })
            .collect()
    }

    fn question(kind: QuestionKind, offered: &[&str], proposed: Option<&str>) -> PendingQuestion {
        PendingQuestion {
            kind,
            offered: offered.iter().map(|s| s.to_string()).collect(),
            proposed: proposed.map(str::to_string),
            shown: Vec::new(),
            labels: offered.iter().map(|id| format!("Label {id}")).collect(),
        }
    }

    #[test]
    fn what_was_asked_shows_ids_of_this_pool_only_in_the_order_shown() {
        let cands = pool(&["a", "b", "c", "d"]);
        // Offered c, x (another screen's), a; b proposed is no offered id
        // of this question but is of the pool.
        let q = question(QuestionKind::Choice, &["c", "x", "a"], Some("c"));
        let refused = ["y", "b", "b", "a"];
        let asked = AskQuestion::of(&q, &cands, &refused, 10).unwrap();
        assert_eq!(asked.kind, QuestionKind::Choice);
        assert_eq!(asked.offered, ["c", "a"], "display order, foreign id left out");
        assert_eq!(asked.proposed.as_deref(), Some("c"));
        assert_eq!(asked.refused, ["b", "a"], "newest first, once, foreign id left out");
        // Deterministic: the same every time.
        assert_eq!(AskQuestion::of(&q, &cands, &refused, 10), Some(asked));
    }

    #[test]
    fn an_id_shown_with_another_label_is_another_screens_option() {
        let cands = pool(&["a", "b"]);
        let mut q = question(QuestionKind::Confirmation, &["a", "b"], Some("a"));
        q.labels[0] = "Something Else".into();
        let asked = AskQuestion::of(&q, &cands, &[], 10).unwrap();
        assert_eq!(asked.offered, ["b"]);
        assert_eq!(asked.proposed, None, "the proposed 'a' was another option");
        assert!(asked.refused.is_empty());
    }

    #[test]
    fn a_lone_offered_option_is_the_proposal_and_lists_are_capped() {
        let cands = pool(&["a", "b", "c"]);
        let asked = AskQuestion::of(&question(QuestionKind::Choice, &["b"], None), &cands, &[], 10).unwrap();
        assert_eq!((asked.offered.as_slice(), asked.proposed.as_deref()), (&["b".to_string()][..], Some("b")));
        let asked = AskQuestion::of(&question(QuestionKind::Choice, &["c", "b", "a"], None), &cands, &["a", "b", "c"], 2).unwrap();
        assert_eq!(
            (asked.offered, asked.proposed, asked.refused),
            (vec!["c".to_string(), "b".into()], None, vec!["a".to_string(), "b".into()])
        );
    }

    #[test]
    fn nothing_when_the_question_offered_nothing_of_this_pool() {
        let cands = pool(&["a", "b"]);
        assert_eq!(AskQuestion::of(&question(QuestionKind::Choice, &["x", "y"], Some("x")), &cands, &["a"], 10), None);
        assert_eq!(AskQuestion::of(&question(QuestionKind::Choice, &[], None), &cands, &[], 10), None);
    }
}
