//! The repair room end to end: "not that one" refuses the execute just
//! had, and a refused option never executes on a vague turn.

use crate::continuity::ActionOutcome;
use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn repair_the_other_one_of_two_executes_it() {
    let s = Session::new();
    assert_eq!(said(&s.say("open links panel d", &pair())), "execute d (deterministic, -)");
    let d = s.say("no, the other one", &pair());
    assert_eq!(said(&d), "execute e (reply, repair)");
}

#[test]
fn repair_of_one_of_three_asks_and_the_refused_one_never_executes_on_a_vague_turn() {
    let s = Session::new();
    s.say("open links panel d", &panels());
    let d = s.say("not that one", &panels());
    assert_eq!(said(&d), "clarify p, e (reply, repair)");
    assert_eq!(d.clarifier.as_ref().map(|c| c.kind), Some(crate::continuity::PendingClarifier::Repair));
    for vague in ["links panel", "one more", "yes"] {
        let d = s.say(vague, &panels());
        assert_ne!(d.target_id.as_deref(), Some("d"), "{vague:?}: {}", said(&d));
    }
}

/// A screen of 2 to 5 Links Panels and 0 to 2 others, in a random order.
fn a_links_screen() -> impl Strategy<Value = (usize, usize, Vec<usize>)> {
    (2usize..=5, 0usize..=2).prop_flat_map(|(k, others)| (Just(k), Just(others), order(k + others)))
}

const REFUSALS: &[&str] =
    &["not that one", "wrong one", "no, not that one", "no not that one", "that's the wrong one", "no, the other one"];

const VAGUE: &[&str] = &[
    "links panel",
    "the links panel",
    "panel",
    "the panel",
    "links",
    "one more",
    "again",
    "same again",
    "yes",
    "ok",
    "sounds good",
    "that one",
    "open it",
    "the one",
    "do it",
    "yes that one",
    "open the links panel",
    "the other one",
    "the links panel one",
];

/// Repair: an option the user refused just after it
/// executed ("not that one", "wrong one", or the app's `RecordOutcome`
/// REJECTED) never executes on a vague turn (one that does not say its
/// label or position) within the continuity TTL, on the screen re-sent
/// in any order (and as another option set). Counted: the repair read, and the first vague turn that
/// would have executed it without the refusal.
#[test]
fn a_refused_option_never_executes_on_a_vague_turn() {
    let branches = Branches::default();
    let cases = (
        a_links_screen(),
        any::<prop::sample::Index>(),
        prop::option::of(one_of(REFUSALS)),
        prop::collection::vec((one_of(VAGUE), any::<prop::sample::Index>()), 1..=3),
    );
    check_cases(CASES, file!(), &cases, |((k, others, first_order), pick, refusal, vague)| {
        let set = links_panels(k, others, &first_order);
        let letter = LETTERS[pick.index(k)];
        let refused = letter.to_lowercase();
        let n = k + others;
        let shuffled = |i: &prop::sample::Index| {
            let mut o: Vec<usize> = (0..n).collect();
            o.rotate_left(i.index(n));
            if i.index(2) == 1 {
                o.reverse();
            }
            // The app may re-send it as another option set.
            let id = if i.index(3) == 2 { "links-again" } else { "links" };
            OptionSet { option_set_id: id.into(), ..reordered(&set, &o) }
        };
        let lived = |refuse: bool| {
            let s = Session::new();
            let d = s.say(&format!("open links panel {letter}"), &set);
            assert_eq!(d.target_id.as_deref(), Some(refused.as_str()), "{}", said(&d));
            if refuse {
                match &refusal {
                    Some(phrase) => {
                        let d = s.say(phrase, &set);
                        assert_eq!(kind(&d), Some("repair"), "{phrase:?} came to {}", said(&d));
                        assert_ne!(d.target_id.as_deref(), Some(refused.as_str()));
                    }
                    None => s.record(&refused, "links", ActionOutcome::Rejected),
                }
            }
            s
        };
        let s = lived(true);
        branches.hit("refused");
        for (input, i) in &vague {
            let d = s.say(input, &shuffled(i));
            prop_assert_ne!(
                d.target_id.as_deref(),
                Some(refused.as_str()),
                "refused {} ({:?}) on {:?}: {:?} came to {}",
                refused,
                refusal,
                set.candidates.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                input,
                said(&d)
            );
        }
        // Without the refusal, the same first turn executes it sometimes:
        // the refusal is what stops it.
        let (input, i) = &vague[0];
        if lived(false).say(input, &shuffled(i)).target_id.as_deref() == Some(refused.as_str()) {
            branches.hit("would have executed it");
        }
        Ok(())
    });
    branches.expect(&[("refused", CASES as usize), ("would have executed it", CASES as usize / 16)]);
}

/// Slots told apart by their weekday, one of them high risk in some
/// screens.
fn slots(high_risk: Option<usize>) -> OptionSet {
    let mut cands = vec![c("mon", "Haircut", "Mon 10:00"), c("tue", "Haircut", "Tue 10:00"), c("wed", "Haircut", "Wed 10:00")];
    if let Some(k) = high_risk {
        cands[k].risk = Risk::High;
    }
    screen("slots", cands)
}

/// A correction that names what was meant: after an execute, "ugh, not
/// that - the tuesday one", "wrong one, I meant tuesday" refuse it and
/// execute the one other option that shows what they name (counted). They
/// never execute the option refused, a day no option shows, two days
/// named, nor a `RISK_HIGH` option (confirmed first).
#[test]
fn a_correction_that_names_what_was_meant_executes_it_alone() {
    const DAYS: &[&str] = &["monday", "tuesday", "wednesday", "friday"];
    const IDS: &[&str] = &["mon", "tue", "wed"];
    const FORMS: &[&str] = &["ugh, not that - the {d} one", "wrong one, I meant {d}", "not that one, the {d} one", "no not that, {d}"];
    let cases = (0usize..3, 0usize..4, prop::sample::select(FORMS), any::<bool>(), prop_oneof![Just(None), (0usize..3).prop_map(Some)]);
    let branches = Branches::default();
    check_cases(256, file!(), &cases, |(had, meant, form, two, high)| {
        let day = if two { format!("{} or {}", DAYS[meant], DAYS[(meant + 1) % 3]) } else { DAYS[meant].to_string() };
        let input = form.replace("{d}", &day);
        let s = Session::new();
        let set = slots(high);
        let first = s.say(DAYS[had], &set);
        if first.outcome != Outcome::Execute {
            return Ok(());
        }
        s.record(IDS[had], "slots", crate::continuity::ActionOutcome::Executed);
        let d = s.say(&input, &set);
        prop_assert_ne!(d.target_id.as_deref().filter(|_| d.outcome == Outcome::Execute), Some(IDS[had]), "{:?}: {:?}", input, d);
        if two || meant == had || meant == 3 || high == Some(meant) {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?}", input, d);
            branches.hit("nothing meant alone: no execute");
        } else {
            prop_assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(IDS[meant])), "{:?}", input);
            branches.hit("the one meant: executes");
        }
        Ok(())
    });
    branches.expect(&[("nothing meant alone: no execute", 60), ("the one meant: executes", 25)]);
}

/// The app shows what the execute became ("Pause" after "Play"): "wrong
/// one, I meant the rock one" refuses the execute and names what was
/// meant, which executes when the words name one option alone; words that
/// name several, or none, leave the turn to the ladder.
#[test]
fn a_repair_names_what_was_meant_where_the_screen_shows_what_the_execute_became() {
    let radio = |first: (&str, &str)| {
        screen(
            "radio",
            vec![
                Candidate::new(first.0, first.1),
                Candidate::new("rock", "Play Rock Radio"),
                Candidate::new("news", "Play Morning News"),
                high("clear", "Clear Radio History"),
            ],
        )
    };
    let s = Session::new();
    assert_eq!(said(&s.say("play jazz radio", &radio(("play_jazz", "Play Jazz Radio")))), "execute play_jazz (deterministic, -)");
    let after = radio(("pause_jazz", "Pause Jazz Radio"));
    assert_eq!(said(&s.say("wrong one, I meant the rock one", &after)), "execute rock (reply, repair)");
    let again = |input: &str| {
        let s = Session::new();
        s.say("play jazz radio", &radio(("play_jazz", "Play Jazz Radio")));
        s.say(input, &after)
    };
    // A high-risk option named so is confirmed first.
    assert_eq!(said(&again("wrong one, the history")), "confirm clear (reply, repair)");
    // Words three options share name none of them alone.
    assert_ne!(again("not that, the radio one").outcome, Outcome::Execute);
}

/// "Wrong one" in the lexicon's other languages ("não, errei", "me
/// equivoqué", "ho sbagliato", "verkeerde", "falsch", "mauvais"), then
/// what was meant: the one meant executes, never the one
/// refused.
#[test]
fn a_correction_in_other_languages_names_what_was_meant() {
    let forms = [
        "não, errei, é o de terça-feira",
        "não, errei, a de terça",
        "uy no, me equivoqué, el del martes",
        "ho sbagliato, quello di martedì",
        "nee, de verkeerde, die van dinsdag",
        "falsch, den am Dienstag",
        "mauvais, celui de mardi",
    ];
    for input in forms {
        let s = Session::new();
        let set = slots(None);
        assert_eq!(s.say("monday", &set).outcome, Outcome::Execute);
        s.record("mon", "slots", crate::continuity::ActionOutcome::Executed);
        let d = s.say(input, &set);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("tue")), "{input:?}: {}", said(&d));
    }
}
