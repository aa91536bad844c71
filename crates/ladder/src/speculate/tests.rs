//! Speculation against the ladder: a decision made without the state, on
//! facts about it, is the ladder's wherever they hold; a change logged on
//! wider facts leaves the session as the ladder's; a loop-guard claim taken
//! with the read decides as a claim taken when the ladder asks.

use super::*;
use crate::continuity::{ActionOutcome, Applied, CycleChange, Now, PendingClarifier, Update};
use crate::decide::decide;
use crate::policy::{LlmAnswer, LlmMode, Policy};
use crate::ports::WordCounter;
use crate::testkit::*;
use futures::executor::block_on;
use proptest::prelude::*;
use std::future::Future;
use std::sync::Mutex;

/// `speculate::without_state` for `r`, with the ids `turn_on` uses: the
/// decision and the facts it holds on, if any.
fn made_without_state(policy: &Policy, fake: &Fake, r: &DecideRequest) -> Option<(Decided, Vec<Fact>)> {
    match stateless(policy, fake, r) {
        Stateless::Decided { decided, facts, .. } => Some((*decided, facts)),
        Stateless::Depends { .. } => None,
    }
}

fn stateless(policy: &Policy, fake: &Fake, r: &DecideRequest) -> Stateless {
    let empty = ContinuityState::default();
    block_on(super::without_state(&same_ids(policy, &empty, fake.now), r)).expect("no deadline")
}

/// Decides `r` on the fake session's state, with the ids of `without_state`.
fn turn_on(policy: &Policy, fake: &Fake, r: &DecideRequest) -> Decided {
    let view = fake.state.lock().unwrap().view(fake.now, fake.ttl);
    block_on(decide(&same_ids(policy, &view, fake.now), r, Mode::Turn, fake)).expect("no deadline")
}

/// A context with the same decision and cycle ids for every run, so runs
/// with and without the state can be compared.
fn same_ids<'a>(policy: &'a Policy, state: &'a ContinuityState, now: Now) -> Ctx<'a> {
    Ctx {
        policy,
        state: state.into(),
        now,
        decision_id: "dec-w",
        new_cycle_id: "cycle-w",
        tokens: &WordCounter,
        auto_execute_tripped: false,
        deadline: None,
        pool_memo: None,
    }
}

/// Whether `d`, decided without the state on `facts`, applies to the fake
/// session as it is (`Update::DecidedIf`).
fn applies(fake: &Fake, d: &Decided, facts: &[Fact]) -> bool {
    let mut state = fake.state.lock().unwrap().clone();
    let update = Update::DecidedIf { facts: facts.to_vec(), update: d.update.clone(), otherwise: None };
    state.apply(update, fake.now, fake.ttl) != Applied::Void
}

#[test]
fn a_unique_label_pick_is_decided_without_the_state_and_a_tie_on_facts_about_it() {
    let p = Policy::defaults();
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    let (picked, facts) = made_without_state(&p, &fake, &req("open links panel d")).expect("a unique label needs one fact");
    // Whatever the state, but a refusal of it (refusals stick to their
    // words): one fact.
    assert_eq!(facts, [Fact::Refusal { id: "links-panel-d".into(), is: None }]);
    assert!(applies(&fake, &picked, &facts), "a new session refused nothing");
    assert_eq!(untimed(&picked.decision), untimed(&turn_on(&p, &fake, &req("open links panel d")).decision));
    assert_eq!((picked.decision.outcome, picked.decision.target_id.as_deref()), (Outcome::Execute, Some("links-panel-d")));
    assert!(matches!(picked.update.cycle, CycleChange::Close));
    // A tie opens a new cycle, unless the session has one on the same
    // evidence: a fact about the state.
    let (asked, facts) = made_without_state(&p, &fake, &req("links panel")).expect("decided on facts");
    assert_eq!(asked.decision.outcome, Outcome::Clarify);
    assert!(facts.iter().any(|f| matches!(f, Fact::NoCycle(_))), "{facts:?}");
    assert!(applies(&fake, &asked, &facts), "a new session has no cycle");
    turn(&p, &fake, &req("links panel"));
    assert!(!applies(&fake, &asked, &facts), "now it has: decide with the state");
    // Another tie on the options the session was just shown: continuity
    // could not resolve it whatever the session (no unique label winner),
    // so it reads nothing of the continuity context; a detail answer reads
    // what the session's question makes of its words (nothing here: both
    // offered options show them), and applies.
    let (again, facts) = made_without_state(&p, &fake, &req("open links panel")).expect("decided on facts");
    assert_eq!(again.decision.outcome, Outcome::Clarify);
    assert!(fake.state.lock().unwrap().active_set_is(req("x").option_set_id()), "the session's option set is this one");
    assert!(facts.iter().all(|f| matches!(f, Fact::NoCycle(_) | Fact::Detail { is: None, .. })), "{facts:?}");
    assert!(applies(&fake, &again, &facts));
    assert_eq!(untimed(&again.decision), untimed(&turn_on(&p, &fake, &req("open links panel")).decision));
    // A question leaves the session's pending clarifier as it is, without
    // reading it.
    let (question, facts) = made_without_state(&p, &fake, &req("what is a links panel?")).expect("whatever the state");
    assert_eq!((question.decision.outcome, facts.len()), (Outcome::Escape, 0));
    assert!(question.update.keep_pending);
    let pending = fake.state.lock().unwrap().pending_clarifier_type;
    assert_eq!(pending, PendingClarifier::SelectionDisambiguation, "the tie's clarifier is up");
    fake.state.lock().unwrap().apply(Update::Decided(question.update), fake.now, fake.ttl);
    assert_eq!(fake.state.lock().unwrap().pending_clarifier_type, pending, "and stays up");
}

#[test]
fn a_tie_the_session_can_resolve_is_decided_without_it_only_where_it_cannot() {
    // A cross-source tie: continuity resolves it once the options were
    // shown (the same option set is the session's), so the decision made
    // without the state holds only where that set is not.
    let mut r = req("open links panel d");
    r.widget_items = vec![Candidate::new("w-links-d", "Links Panel D")];
    let p = Policy::defaults();
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    let (asked, facts) = made_without_state(&p, &fake, &r).expect("decided on facts");
    assert_eq!(asked.decision.outcome, Outcome::Clarify);
    assert!(facts.contains(&Fact::ActiveSet { set: r.option_set_id().to_string(), is: false }), "{facts:?}");
    assert!(applies(&fake, &asked, &facts));
    turn(&p, &fake, &r);
    assert_eq!(turn_on(&p, &fake, &r).decision.decided_by, Decider::Continuity);
    assert!(!applies(&fake, &asked, &facts), "the session's option set is this one now");
    // That case is decided without the state too, as if the session's
    // context were these options: on facts that hold once another turn
    // has shown them.
    let empty = ContinuityState::default();
    let (shown, facts) = block_on(on_shown_options(&same_ids(&p, &empty, fake.now), &r)).unwrap().expect("continuity takes it");
    assert!(facts.contains(&Fact::ActiveSet { set: r.option_set_id().to_string(), is: true }), "{facts:?}");
    let other = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    turn(&p, &other, &req("links panel"));
    let view = other.state.lock().unwrap().view(other.now, other.ttl);
    assert!(facts.iter().all(|f| view.holds(f)), "{facts:?}");
    let resolved = turn_on(&p, &other, &r);
    assert_eq!(resolved.decision.decided_by, Decider::Continuity);
    assert_eq!((untimed(&shown.decision), &shown.update), (untimed(&resolved.decision), &resolved.update));
    // Logged as one entry, the first case whose facts hold applies.
    let (asked, asked_facts) = made_without_state(&p, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).unwrap();
    let inner = Update::DecidedIf { facts: asked_facts, update: asked.update.clone(), otherwise: None };
    let entry = Update::DecidedIf { facts, update: shown.update.clone(), otherwise: Some(Box::new(inner)) };
    for (session, update) in [(other.state.lock().unwrap().clone(), &shown.update), (ContinuityState::default(), &asked.update)] {
        let (mut logged, mut decided) = (session.clone(), session);
        assert_eq!(logged.apply(entry.clone(), other.now, other.ttl), Applied::Done);
        decided.apply(Update::Decided(update.clone()), other.now, other.ttl);
        assert_eq!(logged, decided);
    }
}

/// The policy for `w` and a session after `history`: with the LLM off,
/// ties stay deterministic (clarifiers decided on facts); `repeat` ends
/// the history with `w` itself (the session's cycle is then the turn's).
fn lived_before(mut history: Vec<(World, Option<ActionOutcome>)>, w: &World, llm_off: bool, repeat: bool) -> (Policy, Fake) {
    let mut p = policy_for(w);
    if llm_off {
        p.llm_mode = LlmMode::Off;
    }
    if repeat {
        history.push((w.clone(), None));
    }
    let fake = lived(&p, &w.answer, &history);
    (p, fake)
}

/// The soundness of the one-round-trip `Decide` on a shared store: a
/// decision made without reading the session (and without a port) is
/// exactly the decision, and the session change, that the ladder makes
/// with whatever state earlier turns and outcomes left, wherever the facts
/// it read hold; where they do not, its change applies nothing. Both
/// branches are counted.
#[test]
fn a_decision_made_without_reading_the_state_is_the_same_wherever_its_facts_hold() {
    let branches = Branches::default();
    let worlds = (history_strategy(), prop_oneof![world(), shown_world()], any::<bool>(), any::<bool>());
    check_cases(512, file!(), &worlds, |(history, w, llm_off, repeat)| {
        let (p, fake) = lived_before(history, &w, llm_off, repeat);
        let Some((stateless, facts)) = made_without_state(&p, &fake, &w.req) else {
            branches.hit("depends on the state");
            return Ok(());
        };
        let before = fake.state.lock().unwrap().clone();
        if applies(&fake, &stateless, &facts) {
            branches.hit("facts hold");
            let calls = fake.calls();
            let with_state = turn_on(&p, &fake, &w.req);
            prop_assert_eq!(fake.calls(), calls, "no LLM call either way");
            prop_assert_eq!(untimed(&stateless.decision), untimed(&with_state.decision));
            prop_assert_eq!(&stateless.update, &with_state.update);
        } else {
            branches.hit("facts fail");
            let mut state = before.clone();
            let update = Update::DecidedIf { facts, update: stateless.update.clone(), otherwise: None };
            prop_assert_eq!(state.apply(update, fake.now, fake.ttl), Applied::Void);
            prop_assert_eq!(state, before, "a void change changes nothing");
        }
        Ok(())
    });
    branches.expect(&[("facts hold", MIN_HOLD), ("facts fail", MIN_FAIL)]);
}

/// The one-round-trip `Decide` where the state decides the answer but not
/// the change: a change made without the state, logged on its widened
/// facts (`DecidedUpdate::continuing`), leaves the session exactly as the
/// ladder's change with the state does wherever it applies (continuing
/// the session's cycle on the same evidence), and the ladder then needs no
/// LLM; where it does not apply, nothing changes. Both branches are
/// counted, and among the changes that apply, those whose decision is not
/// the one made without the state (the session's cycle continued).
#[test]
fn a_change_made_without_the_state_continues_a_cycle_as_the_ladder_does() {
    let branches = Branches::default();
    let worlds =
        (history_strategy(), prop_oneof![world(), shown_world()], any::<bool>(), any::<bool>(), 0u8..6, any::<prop::sample::Index>());
    check_cases(512, file!(), &worlds, |(history, w, llm_off, repeat, touch, pick)| {
        let (p, fake) = lived_before(history, &w, llm_off, repeat);
        // What else the session's open cycle may hold: the LLM's part in it
        // (1-3: under another configuration, or on another replica's
        // turn), Enrich steps taken (4, 5).
        if touch == 1 {
            suggest_in_open_cycle(&fake, &w.req, pick);
        }
        if let Some(c) = fake.state.lock().unwrap().cycle.as_mut().filter(|c| !c.resolved) {
            match touch {
                2 => c.llm_attempted = true,
                3 => c.llm_calls = 1,
                // Enrich steps taken (4: one; 5: every one there is).
                4 => c.enrichment_steps = 1,
                5 => c.enrichment_steps = 10,
                _ => {}
            }
        }
        match made_without_state(&p, &fake, &w.req) {
            Some((stateless, facts)) => {
                let decision_holds = applies(&fake, &stateless, &facts);
                let branch = wider_change_is_the_ladders(&p, &fake, &w.req, &stateless, &facts)?;
                branches.hit(match (branch, decision_holds) {
                    (Wider::Void, _) => "change void",
                    (Wider::Applied, true) => "change applied",
                    (Wider::Applied, false) => "change applied, decided again",
                });
            }
            None => branches.hit("depends on the state"),
        }
        Ok(())
    });
    branches.expect(&[("change void", MIN_FAIL), ("change applied", MIN_HOLD), ("change applied, decided again", MIN_AGAIN)]);
}

/// The other cases a shared store logs with a tie continuity may take: the
/// decision made as if the session's context were the request's options
/// (in its scope, or another) is the ladder's, change and all, wherever
/// its facts hold, with no LLM call; and its change, on wider facts,
/// leaves the session as the ladder's. Counted: the cases found, those
/// whose facts hold, and their changes applied.
#[test]
fn a_decision_on_the_shown_options_is_the_ladders_wherever_its_facts_hold() {
    let branches = Branches::default();
    let worlds = (
        history_strategy(),
        prop_oneof![world(), shown_world()],
        any::<bool>(),
        any::<bool>(),
        prop::option::of(any::<prop::sample::Index>()),
    );
    check_cases(512, file!(), &worlds, |(history, w, llm_off, repeat, suggest)| {
        let (p, fake) = lived_before(history, &w, llm_off, repeat);
        // An LLM suggestion in the session's open cycle (it may block
        // continuity: the loop guard).
        if let Some(pick) = suggest {
            suggest_in_open_cycle(&fake, &w.req, pick);
        }
        let empty = ContinuityState::default();
        let ctx = same_ids(&p, &empty, fake.now);
        let shown = block_on(on_shown_options(&ctx, &w.req)).expect("no deadline");
        if let Some((d, _)) = &shown {
            branches.hit("continuity takes the shown options");
            prop_assert_eq!(d.decision.decided_by, Decider::Continuity);
        }
        // The third case: these options, in another scope.
        let elsewhere = block_on(on_options_in_another_scope(&ctx, &w.req)).expect("no deadline");
        for (shown, facts) in shown.into_iter().chain(elsewhere) {
            let before = fake.state.lock().unwrap().clone();
            let view = before.view(fake.now, fake.ttl);
            if facts.iter().all(|f| view.holds(f)) {
                branches.hit("a case's facts hold");
                let calls = fake.calls();
                let with_state = turn_on(&p, &fake, &w.req);
                prop_assert_eq!(fake.calls(), calls, "no LLM call");
                prop_assert_eq!(untimed(&shown.decision), untimed(&with_state.decision));
                prop_assert_eq!(&shown.update, &with_state.update);
            }
            // Its change holds on wider facts (the session's cycle on this
            // evidence closed as the ladder closes it).
            if wider_change_is_the_ladders(&p, &fake, &w.req, &shown, &facts)? == Wider::Applied {
                branches.hit("a case's change applied");
            }
        }
        Ok(())
    });
    branches.expect(&[
        ("continuity takes the shown options", MIN_HOLD),
        ("a case's facts hold", MIN_HOLD),
        ("a case's change applied", MIN_HOLD),
    ]);
}

/// The fewest cases of 512 in which a property's main branch must run, its
/// refusing branch, and the rarer one where a change applies but its
/// decision is made again (each at about a third of what runs now).
const MIN_HOLD: usize = 40;
const MIN_FAIL: usize = 20;
const MIN_AGAIN: usize = 30;

/// What became of a change logged on its wider facts.
#[derive(Debug, PartialEq)]
enum Wider {
    Void,
    Applied,
}

/// A change made without the state, logged on its wider facts
/// (`DecidedUpdate::continuing`): where it applies to the fake session, it
/// leaves it exactly as the ladder's change with the state does, and the
/// ladder then, on the state as read, asks for no port and decides as it
/// does with the fake's (what the daemon does: `speculate::decide_again`); where
/// it does not apply, nothing changes.
fn wider_change_is_the_ladders(p: &Policy, fake: &Fake, r: &DecideRequest, made: &Decided, facts: &[Fact]) -> Result<Wider, TestCaseError> {
    let before = fake.state.lock().unwrap().clone();
    let mut logged = before.clone();
    let update = Update::DecidedIf { facts: made.update.continuing(facts), update: made.update.clone(), otherwise: None };
    if logged.apply(update, fake.now, fake.ttl) == Applied::Void {
        prop_assert_eq!(logged, before, "a void change changes nothing");
        return Ok(Wider::Void);
    }
    let view = before.view(fake.now, fake.ttl);
    let (with_state, asked) = block_on(decide_again(&same_ids(p, &view, fake.now), r)).expect("no deadline");
    prop_assert!(!asked, "no loop-guard claim, no LLM");
    prop_assert_eq!(untimed(&with_state.decision), untimed(&turn_on(p, fake, r).decision));
    let mut decided = before;
    decided.apply(Update::Decided(with_state.update), fake.now, fake.ttl);
    prop_assert_eq!(logged, decided);
    Ok(Wider::Applied)
}

/// An LLM suggestion, one of `r`'s options picked by `pick`, in the fake
/// session's open cycle (if any).
fn suggest_in_open_cycle(fake: &Fake, r: &DecideRequest, pick: prop::sample::Index) {
    if let Some(c) = fake.state.lock().unwrap().cycle.as_mut().filter(|c| !c.resolved) {
        let options = r.option_candidates();
        c.suggested_id = (!options.is_empty()).then(|| options[pick.index(options.len())].id.clone());
    }
}

#[test]
fn the_same_tie_again_continues_its_cycle_without_the_state() {
    let mut p = Policy::defaults();
    p.llm_mode = LlmMode::Off;
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    let first = turn(&p, &fake, &req("links panel"));
    let (again, facts) = made_without_state(&p, &fake, &req("links panel")).expect("decided on facts");
    assert!(!applies(&fake, &again, &facts), "the session has this cycle: the decision is not the ladder's");
    let wide = again.update.continuing(&facts);
    assert!(!wide.iter().any(|f| matches!(f, Fact::NoCycle(_))), "{wide:?}");
    // Its change is, and continues the session's cycle.
    let with_state = turn_on(&p, &fake, &req("links panel"));
    assert_eq!(with_state.decision.loop_cycle_id, first.decision.loop_cycle_id);
    let mut logged = fake.state.lock().unwrap().clone();
    assert_eq!(logged.apply(Update::DecidedIf { facts: wide, update: again.update, otherwise: None }, fake.now, fake.ttl), Applied::Done);
    let mut decided = fake.state.lock().unwrap().clone();
    decided.apply(Update::Decided(with_state.update), fake.now, fake.ttl);
    assert_eq!(logged, decided);
    assert_eq!(logged.open_cycle().map(|c| c.id.clone()), first.decision.loop_cycle_id);
}

/// The claim a shared store makes in the same round trip as its read
/// (`Stateless::Depends { claim }`), answered from the state it appended
/// to; any other claim goes to the session as usual.
struct Preclaimed<'a> {
    fake: &'a Fake,
    pre: Mutex<Option<(String, GuardClaim)>>,
    claims: Mutex<Vec<String>>,
}

impl Ports for Preclaimed<'_> {
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl Future<Output = GuardClaim> + Send {
        self.claims.lock().unwrap().push(guard_key.to_string());
        let pre = self.pre.lock().unwrap().take_if(|(k, _)| k == guard_key).map(|(_, c)| c);
        let usual = pre.is_none().then(|| self.fake.claim_guard(guard_key, cycle_id));
        async move {
            match (pre, usual) {
                (Some(c), _) => c,
                (None, Some(f)) => f.await,
                (None, None) => GuardClaim::Unavailable,
            }
        }
    }
    fn claim_llm_call(&self, cycle_id: &str, max: u32) -> impl Future<Output = bool> + Send {
        self.fake.claim_llm_call(cycle_id, max)
    }
    fn arbitrate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        self.fake.arbitrate(ask)
    }
    fn corroborate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        self.fake.corroborate(ask)
    }
}

/// One turn decided both ways on two copies of a session (`usual`: the
/// ladder claims the loop guard when it asks; `early`: the claim
/// `speculate::without_state` found is applied first, as a shared store does
/// with its read). `None` when the turn needs no early claim.
fn both_ways(p: &Policy, usual: &Fake, early: &Fake, r: &DecideRequest) -> Option<BothWays> {
    let Stateless::Depends { claim: Some((key, cycle)), .. } = stateless(p, early, r) else { return None };
    let asked = Preclaimed { fake: usual, pre: Mutex::new(None), claims: Mutex::new(Vec::new()) };
    let view = usual.state.lock().unwrap().view(usual.now, usual.ttl);
    let ctx = same_ids(p, &view, usual.now);
    let a = block_on(decide(&ctx, r, Mode::Turn, &asked)).unwrap();
    usual.state.lock().unwrap().apply(Update::Decided(a.update.clone()), usual.now, usual.ttl);

    let unclaimed = early.state.lock().unwrap().clone();
    let before = unclaimed.view(early.now, early.ttl);
    let applied = early.state.lock().unwrap().apply(Update::ClaimGuard { guard_key: key.clone(), cycle_id: cycle }, early.now, early.ttl);
    let claim = match applied {
        Applied::GuardRepeat { ordering, suggested_id } => GuardClaim::Repeat { ordering, suggested_id },
        _ => GuardClaim::Claimed,
    };
    let pre = Preclaimed { fake: early, pre: Mutex::new(Some((key.clone(), claim))), claims: Mutex::new(Vec::new()) };
    let ctx = Ctx { state: (&before).into(), ..ctx };
    let b = block_on(decide(&ctx, r, Mode::Turn, &pre)).unwrap();
    // A claim the ladder did not ask for is dropped (`RedisStore::unclaim`).
    if pre.pre.lock().unwrap().is_some() {
        *early.state.lock().unwrap() = unclaimed;
    }
    early.state.lock().unwrap().apply(Update::Decided(b.update.clone()), early.now, early.ttl);
    Some(BothWays { usual: a, early: b, asked: asked.claims.into_inner().unwrap(), key })
}

struct BothWays {
    usual: Decided,
    early: Decided,
    /// The guard keys the usual run claimed.
    asked: Vec<String>,
    /// The key claimed early.
    key: String,
}

#[test]
fn a_claim_made_with_the_read_is_undone_when_continuity_takes_the_turn() {
    // The second turn of a cross-source tie is resolved by continuity:
    // without the state it looks headed for the LLM, so a shared store
    // claims the guard with its read; the ladder then never asks, and the
    // turn's change (the cycle resolved) leaves no trace of the claim.
    let mut r = req("open links panel d");
    r.widget_items = vec![Candidate::new("w-links-d", "Links Panel D")];
    let p = live();
    let (usual, early) = (Fake::replying(NEED), Fake::replying(NEED));
    turn(&p, &usual, &r);
    turn(&p, &early, &r);
    let both = both_ways(&p, &usual, &early, &r).expect("headed for the LLM without the state");
    assert!(both.asked.is_empty(), "with the state the ladder never claims");
    assert_eq!(both.early.decision.decided_by, Decider::Continuity);
    assert_eq!(untimed(&both.usual.decision), untimed(&both.early.decision));
    assert_eq!(*usual.state.lock().unwrap(), *early.state.lock().unwrap());
}

/// The soundness of the two-round-trip LLM turn on a shared store: the
/// loop guard claimed with the read, before the ladder saw the state,
/// gives the same decision, the same LLM calls and the same session as
/// claiming when the ladder asks (or not at all, when the state takes the
/// turn elsewhere: the turn's own change then undoes the claim). Counted:
/// the turns that claim early.
#[test]
fn claiming_the_guard_with_the_read_decides_and_leaves_the_session_as_claiming_when_asked() {
    let branches = Branches::default();
    check_cases(512, file!(), &(history_strategy(), world()), |(history, w)| {
        let p = policy_for(&w);
        let usual = lived(&p, &w.answer, &history);
        let early = lived(&p, &w.answer, &history);
        prop_assert_eq!(&*usual.state.lock().unwrap(), &*early.state.lock().unwrap());
        let Some(both) = both_ways(&p, &usual, &early, &w.req) else {
            branches.hit("no early claim");
            return Ok(());
        };
        branches.hit("claimed with the read");
        prop_assert!(both.asked.iter().all(|k| *k == both.key), "the state never changes the guard key");
        prop_assert_eq!(untimed(&both.usual.decision), untimed(&both.early.decision));
        prop_assert_eq!(usual.calls(), early.calls());
        prop_assert_eq!(&*usual.state.lock().unwrap(), &*early.state.lock().unwrap());
        Ok(())
    });
    branches.expect(&[("claimed with the read", MIN_HOLD)]);
}

// ------------------------------------------------------------ the plan --

fn plan_of(p: &Policy, r: &DecideRequest) -> Plan {
    let empty = ContinuityState::default();
    block_on(plan(&same_ids(p, &empty, Now::default()), ("dec-other", "cycle-other"), r)).expect("no deadline")
}

#[test]
fn a_turn_is_planned_by_what_its_run_without_the_state_read() {
    let mut off = Policy::defaults();
    off.llm_mode = LlmMode::Off;
    // A unique label: whatever the state but a refusal of it, logged with
    // the read on that one fact.
    let Plan::LogWithRead(cases) = plan_of(&off, &req("open links panel d")) else { panic!("a unique label is logged with the read") };
    assert_eq!(cases.len(), 1);
    assert_eq!(cases[0].decided.decision.target_id.as_deref(), Some("links-panel-d"));
    assert_eq!(cases[0].facts, [Fact::Refusal { id: "links-panel-d".into(), is: None }]);
    // A question: the same.
    assert!(matches!(plan_of(&off, &req("what is a links panel?")), Plan::Log(_)));
    // A tie: decided on a fact (no open cycle on this evidence), one case.
    let Plan::LogWithRead(cases) = plan_of(&off, &req("links panel")) else { panic!("a tie is logged with the read") };
    assert_eq!(cases.len(), 1);
    assert!(cases[0].facts.iter().any(|f| matches!(f, Fact::NoCycle(_))), "{:?}", cases[0].facts);
    assert_eq!((cases[0].decision_id.as_str(), cases[0].cycle_id.as_str()), ("dec-w", "cycle-w"));
    // A tie continuity may take (a widget item shares the label): the case
    // where the session's context is these options comes first, under the
    // other ids, then the same set in another scope, then the tie.
    let mut cross = req("open links panel d");
    cross.widget_items = vec![Candidate::new("w-links-d", "Links Panel D")];
    let Plan::LogWithRead(cases) = plan_of(&off, &cross) else { panic!("a cross-source tie is logged with the read") };
    assert_eq!(cases.len(), 3, "{cases:?}");
    assert_eq!(cases[0].decided.decision.decided_by, Decider::Continuity);
    assert_eq!(cases[0].decision_id, "dec-other");
    assert_eq!(cases[2].decided.decision.outcome, Outcome::Clarify);
    // The same tie with the LLM on: headed for it, the claim goes with the
    // read, and so does the case continuity takes.
    let Plan::ReadClaiming { key, shown, .. } = plan_of(&live(), &cross) else { panic!("an LLM turn claims with the read") };
    assert!(!key.is_empty());
    assert_eq!(shown.map(|c| c.decided.decision.decided_by), Some(Decider::Continuity));
    // A plain tie with the LLM on: the claim, nothing else to log.
    assert!(matches!(plan_of(&live(), &req("links panel")), Plan::ReadClaiming { shown: None, .. }));
}
