//! What a ladder run reads of the session's state (`StateView`), noted
//! as facts (`Fact`) a shared store can check again on another state
//! (docs/replicas.md).

use super::*;

/// What a ladder run read of the session's state, as a fact that can be
/// checked again on another state (`ContinuityState::holds`).
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

/// The session state a run reads, noting what it read (`StateView::watched`).
/// A run that read nothing decided the same for every state the session
/// could be in; one that read only facts (`Fact`) decided the same for
/// every state where they hold. A shared store can then write its change
/// without reading the session first (one round trip, docs/replicas.md).
#[derive(Clone, Copy)]
pub struct StateView<'a> {
    state: &'a ContinuityState,
    watch: Option<&'a Watch>,
}

/// What a watched run read of the state.
#[derive(Debug, Default)]
pub struct Watch {
    /// Read beyond the facts (any field, through `Deref`).
    whole: AtomicBool,
    facts: Mutex<Vec<Fact>>,
}

impl Watch {
    /// The facts read, or `None` when the run read more than facts.
    pub fn facts(self) -> Option<Vec<Fact>> {
        let facts = self.facts.into_inner().unwrap_or_else(|p| p.into_inner());
        (!self.whole.into_inner()).then_some(facts)
    }

    /// Whether the run read the continuity context's option set (the
    /// continuity resolver had a tie it may take: `speculate::on_shown_options`).
    pub fn read_active_set(&self) -> bool {
        self.facts.lock().unwrap_or_else(|p| p.into_inner()).iter().any(|f| matches!(f, Fact::ActiveSet { .. }))
    }

    fn note(&self, fact: Fact) {
        let mut facts = self.facts.lock().unwrap_or_else(|p| p.into_inner());
        if !facts.contains(&fact) {
            facts.push(fact);
        }
    }
}

impl<'a> StateView<'a> {
    /// The state, what is read of it noted in `watch`.
    pub fn watched(state: &'a ContinuityState, watch: &'a Watch) -> Self {
        StateView { state, watch: Some(watch) }
    }

    /// `ContinuityState::cycle_keyed`, noted as a fact when there is none.
    pub fn cycle_keyed(&self, guard_key: &str) -> Option<&'a Cycle> {
        let cycle = self.state.cycle_keyed(guard_key);
        if let Some(w) = self.watch {
            match cycle {
                None => w.note(Fact::NoCycle(guard_key.to_string())),
                Some(_) => w.whole.store(true, Ordering::Relaxed),
            }
        }
        cycle
    }

    /// `ContinuityState::active_set_is`, noted as a fact.
    pub fn active_set_is(&self, set: &str) -> bool {
        let is = self.state.active_set_is(set);
        if let Some(w) = self.watch {
            w.note(Fact::ActiveSet { set: set.to_string(), is });
        }
        is
    }

    /// `ContinuityState::active_scope_is`, noted as a fact.
    pub fn active_scope_is(&self, scope: &Option<ScopeRef>) -> bool {
        let is = self.state.active_scope_is(scope);
        if let Some(w) = self.watch {
            w.note(Fact::ActiveScope { scope: scope.clone(), is });
        }
        is
    }

    /// `ContinuityState::question`, noted as a fact.
    pub fn question(&self) -> Option<&'a PendingQuestion> {
        let q = self.state.question.as_ref();
        if let Some(w) = self.watch {
            w.note(Fact::Asked(q.cloned()));
        }
        q
    }

    /// The option of the session's question a detail answer picks
    /// (`PendingQuestion::detail`), noted as a fact.
    pub fn question_detail(&self, words: &[String], values: &[crate::values::Value]) -> Option<String> {
        let is = self.state.question.as_ref().and_then(|q| q.detail(words, values)).map(str::to_string);
        if let Some(w) = self.watch {
            w.note(Fact::Detail { words: words.to_vec(), values: values.to_vec(), is: is.clone() });
        }
        is
    }

    /// `ContinuityState::last_execute`, noted as a fact.
    pub fn last_execute(&self) -> Option<Executed> {
        let is = self.state.last_execute();
        if let Some(w) = self.watch {
            w.note(Fact::LastExecute(is.clone()));
        }
        is
    }

    /// `ContinuityState::rejected`, noted as a fact.
    pub fn rejected(&self, id: &str) -> bool {
        let is = self.state.rejected(id);
        if let Some(w) = self.watch {
            w.note(Fact::Rejected { id: id.to_string(), is });
        }
        is
    }

    /// `ContinuityState::refusal`, noted as a fact.
    pub fn refusal(&self, id: &str) -> Option<u64> {
        let is = self.state.refusal(id);
        if let Some(w) = self.watch {
            w.note(Fact::Refusal { id: id.to_string(), is });
        }
        is
    }

    /// `ContinuityState::refused`, noted as a fact.
    pub fn refused(&self, id: &str) -> bool {
        let is = self.state.refused(id);
        if let Some(w) = self.watch {
            w.note(Fact::Refused { id: id.to_string(), is });
        }
        is
    }
}

impl<'a> From<&'a ContinuityState> for StateView<'a> {
    fn from(state: &'a ContinuityState) -> Self {
        StateView { state, watch: None }
    }
}

impl std::ops::Deref for StateView<'_> {
    type Target = ContinuityState;

    /// Any other read: the whole state.
    fn deref(&self) -> &ContinuityState {
        if let Some(w) = self.watch {
            w.whole.store(true, Ordering::Relaxed);
        }
        self.state
    }
}
