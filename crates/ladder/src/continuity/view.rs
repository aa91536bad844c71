//! What a ladder run reads of the session's state (`StateView`), and the
//! facts (`Fact`) a change logged by an older daemon was conditioned on
//! (`Update::DecidedIf`, read back from a shared store's log).

use super::*;

/// A fact about the session's state, checked on the state a logged change
/// is applied to (`ContinuityState::holds`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Fact {
    /// No open cycle has this guard key.
    NoCycle(String),
    /// No open cycle with this guard key whose LLM suggestion is another
    /// option than `winner` (which would block continuity: the loop guard).
    NoOtherSuggestion { key: String, winner: String },
    /// Whether the continuity context's option set is `set`.
    ActiveSet { set: String, is: bool },
    /// Whether the continuity context's scope is `scope`.
    ActiveScope { scope: Option<ScopeRef>, is: bool },
    /// Whether `id` is refused (`ContinuityState::refused`).
    Refused { id: String, is: bool },
    /// Whether the user rejected `id` (`recent_rejected_choice_ids`).
    Rejected { id: String, is: bool },
    /// The refusal of `id` and the words that chose it
    /// (`ContinuityState::refusal`).
    Refusal { id: String, is: Option<u64> },
    /// The question the session holds (`ContinuityState::question`).
    Asked(Option<PendingQuestion>),
    /// The session's newest execute (`ContinuityState::last_execute`).
    LastExecute(Option<Executed>),
    /// What the session's question makes of a detail answer
    /// (`PendingQuestion::detail`): the option these words and values pick.
    Detail { words: Vec<String>, values: Vec<crate::values::Value>, is: Option<String> },
}

/// The session state a run reads, through the accessors the rungs use.
#[derive(Clone, Copy)]
pub struct StateView<'a> {
    state: &'a ContinuityState,
}

impl<'a> StateView<'a> {
    /// `ContinuityState::cycle_keyed`.
    pub fn cycle_keyed(&self, guard_key: &str) -> Option<&'a Cycle> {
        self.state.cycle_keyed(guard_key)
    }

    /// `ContinuityState::active_set_is`.
    pub fn active_set_is(&self, set: &str) -> bool {
        self.state.active_set_is(set)
    }

    /// `ContinuityState::active_scope_is`.
    pub fn active_scope_is(&self, scope: &Option<ScopeRef>) -> bool {
        self.state.active_scope_is(scope)
    }

    /// `ContinuityState::question`.
    pub fn question(&self) -> Option<&'a PendingQuestion> {
        self.state.question.as_ref()
    }

    /// The option of the session's question a detail answer picks
    /// (`PendingQuestion::detail`).
    pub fn question_detail(&self, words: &[String], values: &[crate::values::Value]) -> Option<String> {
        self.state.question.as_ref().and_then(|q| q.detail(words, values)).map(str::to_string)
    }

    /// `ContinuityState::last_execute`.
    pub fn last_execute(&self) -> Option<Executed> {
        self.state.last_execute()
    }

    /// `ContinuityState::rejected`.
    pub fn rejected(&self, id: &str) -> bool {
        self.state.rejected(id)
    }

    /// `ContinuityState::refusal`.
    pub fn refusal(&self, id: &str) -> Option<u64> {
        self.state.refusal(id)
    }

    /// `ContinuityState::refused`.
    pub fn refused(&self, id: &str) -> bool {
        self.state.refused(id)
    }
}

impl<'a> From<&'a ContinuityState> for StateView<'a> {
    fn from(state: &'a ContinuityState) -> Self {
        StateView { state }
    }
}

impl std::ops::Deref for StateView<'_> {
    type Target = ContinuityState;

    fn deref(&self) -> &ContinuityState {
        self.state
    }
}
