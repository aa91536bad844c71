//! The updates a decision or an outcome applies to a session's state,
//! atomically (`ContinuityState::apply`), so a shared store can log an
//! update and apply it when the session is next read.

use super::*;

/// A change to one session's state. Serializable: a shared store may log
/// it and apply it when the session is next read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Update {
    /// An LLM attempt is about to start for `guard_key` (S5: atomic).
    ClaimGuard {
        guard_key: String,
        cycle_id: String,
    },
    Decided(DecidedUpdate),
    /// `Decided`, if every fact is true of the state it is applied to
    /// (else nothing changes: `Applied::Void`); where they are not,
    /// `otherwise` applies, if any. Daemons before the plain turn protocol
    /// logged such changes to a shared store without reading the session
    /// (a decision made without the state holds wherever the facts its run
    /// read hold); none writes one now, and a read still applies those in
    /// a store's log (`store/redis/sessions.rs`), so replicas of both kinds
    /// share a store while a deployment rolls.
    DecidedIf {
        facts: Vec<Fact>,
        update: DecidedUpdate,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        otherwise: Option<Box<Update>>,
    },
    Outcome(OutcomeUpdate),
    /// An `Enrich` call takes one enrichment step of the cycle, if its
    /// lane's budget has one left (atomic: two concurrent calls cannot both
    /// take the last step).
    BeginEnrich {
        cycle_id: String,
        max_selection_steps: u32,
        max_semantic_steps: u32,
    },
    /// An `Enrich` step's LLM call takes one call of the cycle's budget
    /// (atomic, like the step itself).
    ClaimLlmCall {
        cycle_id: String,
        max: u32,
    },
    Reset,
    /// No change: a shared store's write that folds the changes it logged
    /// into the state (expired context is cleared, as any change does).
    Fold,
}

/// Why an `Enrich` call cannot run.
#[derive(Debug, Clone, PartialEq)]
pub enum EnrichRefusal {
    Unknown,
    Resolved,
    /// The cycle's request was too large to keep (memory bound).
    NotResumable,
    /// No enrichment step left; the cycle as it stands.
    BudgetExhausted(Box<Cycle>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    Done,
    GuardClaimed,
    /// The same evidence already had an LLM attempt in this cycle.
    GuardRepeat {
        ordering: Vec<String>,
        suggested_id: Option<String>,
    },
    /// The cycle, with this step counted.
    EnrichStarted(Box<Cycle>),
    EnrichRefused(EnrichRefusal),
    /// No LLM call left in the cycle's budget (or no such open cycle).
    CallRefused,
    /// A `DecidedIf` whose facts were not true: nothing changed.
    Void,
    /// A turn the session applied last (`DecidedUpdate::turn`, the same
    /// key): nothing changed; the decision it got.
    Replay(Box<Decision>),
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum CycleChange {
    #[default]
    Keep,
    Open(Box<Cycle>),
    Close,
}

/// What a decision changes in the session. Serializable: a shared store
/// may log it and apply it when the session is next read.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DecidedUpdate {
    /// A Decide call (a user turn); Enrich is not a new turn.
    pub new_turn: bool,
    /// The options shown now (option_set_id, scope), if the request had any.
    pub options_context: Option<(String, Option<ScopeRef>)>,
    pub pending: PendingClarifier,
    /// Leave the session's pending clarifier as it is (`pending` unused):
    /// a question asked while a clarification is up.
    #[serde(default)]
    pub keep_pending: bool,
    /// Set for EXECUTE and command escapes.
    pub resolved: Option<ActionEntry>,
    pub cycle: CycleChange,
    /// What the decision asks the user, if anything (docs/replies.md).
    #[serde(default, skip_serializing_if = "is_keep")]
    pub question: QuestionChange,
    /// The execute the user just refused ("not that one"), recorded as a
    /// `RecordOutcome` REJECTED is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<String>,
    /// The turn this change is, when its `Decide` carried a `turn_id`:
    /// applied, it becomes the session's `last_turn`; a change of the
    /// turn the session applied last (the same key) applies nothing
    /// (`Applied::Replay`). A new turn without one clears `last_turn`.
    /// On a change that is not a new turn, the kept decision of that turn
    /// as the daemon answered it (a turn decided again on the state read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Box<LastTurn>>,
}

fn is_keep(q: &QuestionChange) -> bool {
    *q == QuestionChange::Keep
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeUpdate {
    pub entry: ActionEntry,
    /// For a correction: the id that was wrong.
    pub also_rejected: Option<String>,
}

impl ContinuityState {
    /// Applies an update atomically (the store calls this under its lock).
    pub fn apply(&mut self, update: Update, now: Now, ttl: Ttl) -> Applied {
        // A turn applied already (a repeated `Decide`): nothing changes,
        // whatever its facts or the state's age.
        let turn = match &update {
            Update::Decided(d) | Update::DecidedIf { update: d, .. } if d.new_turn => d.turn.as_ref().map(|t| t.key),
            _ => None,
        };
        if let (Some(key), Some(last)) = (turn, &self.last_turn)
            && last.key == key
        {
            return Applied::Replay(Box::new(last.decision.clone()));
        }
        let update = match update {
            Update::DecidedIf { facts, mut update, otherwise } => {
                // Judged on the state as the ladder would have read it now.
                let stale = ContinuityState::default();
                let view = if self.is_fresh(now, ttl) { &*self } else { &stale };
                if !facts.iter().all(|f| view.holds(f)) {
                    return match otherwise {
                        Some(u) => self.apply(*u, now, ttl),
                        None => Applied::Void,
                    };
                }
                // A cycle opened on the evidence of the session's open cycle
                // continues that one, as the
                // ladder does when it reads it (`CycleDraft::new`); its
                // steps and calls stay counted below, as for any cycle
                // written again.
                if let CycleChange::Open(c) = &mut update.cycle
                    && let Some(open) = view.cycle_keyed(&c.guard_key)
                {
                    c.id.clone_from(&open.id);
                    c.lane = open.lane;
                    c.llm_attempted = open.llm_attempted;
                }
                // The decision kept for the turn names the session's cycle
                // it continues, or closes (an execute on the evidence of
                // the open cycle), as the
                // ladder's decision on the state does.
                let on_open = match &update.cycle {
                    CycleChange::Open(c) => view.cycle_keyed(&c.guard_key),
                    CycleChange::Close => facts.iter().find_map(|f| match f {
                        Fact::NoOtherSuggestion { key, .. } => view.cycle_keyed(key),
                        _ => None,
                    }),
                    CycleChange::Keep => None,
                };
                if let (Some(open), Some(kept)) = (on_open, update.turn.as_mut())
                    && kept.decision.loop_cycle_id.is_some()
                {
                    kept.decision.loop_cycle_id = Some(open.id.clone());
                }
                Update::Decided(update)
            }
            u => u,
        };
        if !self.is_fresh(now, ttl) && !matches!(update, Update::Reset) {
            // Expired context never leaks into the next turn (the last
            // turn is not context: a repeat of it is still that turn).
            *self = ContinuityState { turn_count: self.turn_count, last_turn: self.last_turn.take(), ..Default::default() };
        }
        match update {
            Update::ClaimGuard { guard_key, cycle_id } => {
                if let Some(c) = self.cycle.as_mut().filter(|c| !c.resolved && c.guard_key == guard_key) {
                    if c.llm_attempted {
                        return Applied::GuardRepeat { ordering: c.ordering.clone(), suggested_id: c.suggested_id.clone() };
                    }
                    c.llm_attempted = true;
                    return Applied::GuardClaimed;
                }
                self.cycle = Some(Cycle { llm_attempted: true, ..Cycle::new(cycle_id, guard_key) });
                self.touch(now);
                Applied::GuardClaimed
            }
            Update::Decided(d) => {
                // Only re-established context refreshes the TTL; a turn that
                // shows nothing new lets it age.
                let refresh = d.options_context.is_some() || d.resolved.is_some() || matches!(d.cycle, CycleChange::Open(_));
                if d.new_turn {
                    self.turn_count += 1;
                    self.last_turn = d.turn;
                } else if let Some(kept) = d.turn
                    && self.last_turn.as_ref().is_some_and(|l| l.key == kept.key)
                {
                    self.last_turn = Some(kept);
                }
                if let Some((set_id, scope)) = d.options_context {
                    self.active_option_set_id = Some(set_id).filter(|s| !s.is_empty());
                    self.active_scope = scope;
                }
                if !d.keep_pending {
                    self.pending_clarifier_type = d.pending;
                }
                if let Some(entry) = d.resolved {
                    self.last_resolved_action = Some(entry.clone());
                    push_front(&mut self.recent_action_trace, entry, TRACE_LEN);
                }
                match d.question {
                    QuestionChange::Keep => {}
                    QuestionChange::Ask(q) => self.question = Some(q),
                    QuestionChange::Clear => self.question = None,
                }
                if let Some(id) = d.rejected {
                    push_front(&mut self.recent_rejected_choice_ids, id, CHOICE_WINDOW);
                }
                match d.cycle {
                    CycleChange::Keep => {}
                    CycleChange::Open(mut c) => {
                        // An Enrich step commits the cycle from the snapshot
                        // it started with; steps and calls other steps of
                        // the same cycle claimed meanwhile stay counted.
                        if let Some(now) = self.cycle.as_ref().filter(|now| now.id == c.id) {
                            c.enrichment_steps = c.enrichment_steps.max(now.enrichment_steps);
                            c.llm_calls = c.llm_calls.max(now.llm_calls);
                        }
                        self.cycle = Some(*c);
                    }
                    CycleChange::Close => self.close_cycle(),
                }
                if refresh {
                    self.touch(now);
                }
                Applied::Done
            }
            Update::Outcome(mut o) => {
                let id = o.entry.target_ref.clone();
                // The app's outcome carries no label: the one the question
                // or the held request showed it with ("one more" and "not
                // that one" on the next screen act on it only where it
                // still shows that label).
                if o.entry.target_label.is_empty() {
                    o.entry.target_label = self.label_shown(&id);
                }
                match o.entry.outcome {
                    ActionOutcome::Accepted | ActionOutcome::Executed | ActionOutcome::Corrected => {
                        if !id.is_empty() {
                            self.last_accepted_choice_id = Some(id.clone());
                            push_front(&mut self.recent_accepted_choice_ids, id, CHOICE_WINDOW);
                        }
                        self.last_resolved_action = Some(o.entry.clone());
                        self.pending_clarifier_type = PendingClarifier::None;
                    }
                    ActionOutcome::Rejected => {
                        if !id.is_empty() {
                            push_front(&mut self.recent_rejected_choice_ids, id, CHOICE_WINDOW);
                        }
                        self.pending_clarifier_type = PendingClarifier::Repair;
                    }
                    _ => {}
                }
                if let Some(rejected) = o.also_rejected {
                    push_front(&mut self.recent_rejected_choice_ids, rejected, CHOICE_WINDOW);
                }
                push_front(&mut self.recent_action_trace, o.entry, TRACE_LEN);
                // Any outcome resolves the cycle and resets the loop guard,
                // and answers the question asked.
                self.close_cycle();
                self.question = None;
                self.touch(now);
                Applied::Done
            }
            Update::BeginEnrich { cycle_id, max_selection_steps, max_semantic_steps } => {
                let Some(c) = self.cycle.as_mut().filter(|c| c.id == cycle_id) else {
                    return Applied::EnrichRefused(EnrichRefusal::Unknown);
                };
                if c.resolved {
                    return Applied::EnrichRefused(EnrichRefusal::Resolved);
                }
                if c.request.is_none() {
                    return Applied::EnrichRefused(EnrichRefusal::NotResumable);
                }
                let max = match c.lane {
                    Lane::Selection => max_selection_steps,
                    Lane::Semantic => max_semantic_steps,
                };
                if c.enrichment_steps >= max {
                    return Applied::EnrichRefused(EnrichRefusal::BudgetExhausted(Box::new(c.clone())));
                }
                c.enrichment_steps += 1;
                let snapshot = Box::new(c.clone());
                self.touch(now);
                Applied::EnrichStarted(snapshot)
            }
            Update::ClaimLlmCall { cycle_id, max } => match self.cycle.as_mut().filter(|c| c.id == cycle_id && !c.resolved) {
                Some(c) if c.llm_calls < max => {
                    c.llm_calls += 1;
                    Applied::Done
                }
                _ => Applied::CallRefused,
            },
            Update::Reset => {
                *self = ContinuityState::default();
                Applied::Done
            }
            Update::Fold => Applied::Done,
            // Unwrapped into `Decided` above.
            Update::DecidedIf { .. } => Applied::Void,
        }
    }

    fn close_cycle(&mut self) {
        if let Some(c) = self.cycle.as_mut() {
            c.resolved = true;
            c.request = None;
            c.excerpts.clear();
            c.history.clear();
            c.ordering.clear();
            c.guard_key.clear();
        }
    }

    fn touch(&mut self, now: Now) {
        self.context_turn = self.turn_count.max(1);
        self.context_at_ms = now.mono_ms;
    }
}

fn push_front<T: PartialEq>(q: &mut VecDeque<T>, item: T, cap: usize) {
    if let Some(pos) = q.iter().position(|x| *x == item) {
        q.remove(pos);
    }
    q.push_front(item);
    q.truncate(cap);
}
