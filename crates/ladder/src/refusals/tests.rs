//! Refusals stick to their words (the module's doc): whole sessions
//! through the ladder, an option executed, refused, then tried again.

use crate::continuity::ActionOutcome;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

fn c(id: &str, label: &str, sublabel: &str) -> Candidate {
    Candidate { sublabel: sublabel.into(), ..Candidate::new(id, label) }
}

fn screen(name: &str, candidates: Vec<Candidate>) -> OptionSet {
    OptionSet { option_set_id: name.into(), scope: Scope::Chat, candidates: candidates.into(), ..Default::default() }
}

fn said(d: &Decision) -> String {
    match d.outcome {
        Outcome::Execute => format!("execute {}", d.target_id.as_deref().unwrap_or("?")),
        Outcome::Clarify => format!("clarify {}", d.clarifier.as_ref().map(|c| c.option_ids.join(", ")).unwrap_or_default()),
        Outcome::Escape => format!("escape {}", d.escape_reason.map_or("?", EscapeReason::as_str)),
        other => format!("{other:?}"),
    }
}

fn thai() -> OptionSet {
    screen("thai", vec![c("pt", "Pad Thai", "$12"), c("ptc", "Pad Thai with Chicken", "$14"), c("gc", "Green Curry", "$13")])
}

#[test]
fn the_words_that_chose_a_refused_option_ask_over_the_others_they_fit() {
    let s = Session::new();
    assert_eq!(said(&s.say("pad thai", &thai())), "execute pt");
    assert_eq!(said(&s.say("nope", &thai())), "escape cancel");
    let d = s.say("the pad thai one", &thai());
    assert_eq!(said(&d), "clarify ptc");
    assert_eq!(d.fallback_reason, Some(FallbackReason::UserRefused));
    // A word only it shows, that did not choose it: chosen again.
    let s = Session::new();
    assert_eq!(said(&s.say("the first one", &thai())), "execute pt");
    s.record("pt", "thai", ActionOutcome::Rejected);
    assert_eq!(said(&s.say("the first one", &thai())), "clarify ptc, gc");
    assert_eq!(said(&s.say("pad thai 12", &thai())), "execute pt");
}

#[test]
fn a_refusal_on_the_screen_holds_for_a_yes_a_comparison_and_a_value() {
    let booking = screen("booking", vec![c("book", "Book a table for 2", "Friday 7:00 pm")]);
    for yes in ["yes", "sounds good", "ok", "perfect, book it"] {
        let s = Session::new();
        s.record("book", "booking", ActionOutcome::Rejected);
        assert_eq!(said(&s.say(yes, &booking)), "escape declined", "{yes:?}");
    }
    let shirts = screen(
        "shirts",
        vec![c("black", "Linen Shirt", "Black, $40"), c("white", "Linen Shirt", "White, $35"), c("blue", "Linen Shirt", "Blue, $45")],
    );
    let s = Session::new();
    s.record("white", "shirts", ActionOutcome::Rejected);
    assert_eq!(said(&s.say("the cheapest", &shirts)), "clarify black, blue");
    let times = screen(
        "times",
        vec![
            c("t6", "Table for 2", "Friday 6:00 pm"),
            c("t7", "Table for 2", "Friday 7:00 pm"),
            c("t8", "Table for 2", "Saturday 8:00 pm"),
        ],
    );
    let s = Session::new();
    s.record("t7", "times", ActionOutcome::Rejected);
    assert_eq!(said(&s.say("no, make it 7pm", &times)), "clarify t6, t8");
    // After "not that one", the app re-sending only that option: an "ok"
    // is no yes to it.
    let pair = screen("pair", vec![Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")]);
    let s = Session::new();
    assert_eq!(said(&s.say("open links panel d", &pair)), "execute d");
    assert_eq!(said(&s.say("not that one", &pair)), "clarify e");
    assert_eq!(said(&s.say("ok", &screen("pair", vec![Candidate::new("d", "Links Panel D")]))), "escape declined");
}

#[test]
fn a_refusal_lasts_the_continuity_ttl() {
    let s = Session::new();
    assert_eq!(said(&s.say("pad thai", &thai())), "execute pt");
    s.record("pt", "thai", ActionOutcome::Rejected);
    assert_eq!(said(&s.say("pad thai", &thai())), "clarify ptc");
    let mut state = s.fake.state.lock().unwrap().clone();
    state.context_at_ms = 0;
    *s.fake.state.lock().unwrap() = state;
    let mut later = s.fake.now;
    later.mono_ms += s.fake.ttl.millis() + 1;
    let s2 = Session { policy: s.policy.clone(), fake: crate::testkit::Fake { now: later, ..crate::testkit::Fake::quiet() } };
    *s2.fake.state.lock().unwrap() = s.fake.state.lock().unwrap().clone();
    assert_eq!(said(&s2.say("pad thai", &thai())), "execute pt");
}

const DISHES: &[(&str, &str)] = &[
    ("Pad Thai", "Red, $12"),
    ("Pad Thai with Chicken", "Blue, $14"),
    ("Green Curry", "Green, $13"),
    ("Green Curry with Rice", "Yellow, $15"),
    ("Spring Rolls", "Purple, $6"),
    ("Mango Sticky Rice", "Orange, $8"),
];

/// How the refused option was chosen.
#[derive(Debug, Clone, Copy)]
enum Chosen {
    Label,
    Position,
    Value,
}

/// How it was refused.
#[derive(Debug, Clone, Copy)]
enum Refused {
    Repair,
    Decline,
    Rejected,
}

/// A refused option (by a repair, a decline or
/// `OUTCOME_KIND_REJECTED`) is never executed again within the
/// continuity TTL by the words that chose it (its label, its position, a
/// value it shows), a yes, a comparison or a position, from the session or
/// from the screen (the same screen, or the app's re-sent screen of it
/// alone); a word only it shows that did not choose it re-chooses it
/// (counted).
#[test]
fn a_refused_option_is_never_executed_again_by_what_chose_it() {
    let branches = Branches::default();
    let refused = prop::sample::select(vec![Refused::Repair, Refused::Decline, Refused::Rejected]);
    let chosen = prop::sample::select(vec![Chosen::Label, Chosen::Position, Chosen::Value]);
    let cases = (
        Just(()).prop_perturb(|_, mut rng| {
            let n = 3 + (rng.next_u32() as usize % 4);
            let mut order: Vec<usize> = (0..DISHES.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.next_u32() as usize % (i + 1));
            }
            order.truncate(n);
            let x = rng.next_u32() as usize % n;
            (order, x)
        }),
        chosen,
        refused,
        0usize..9,
        any::<bool>(),
    );
    check_cases(384, file!(), &cases, |((order, x), chosen, refused, reply, alone)| {
        let cands: Vec<Candidate> = order.iter().map(|k| c(&format!("d{k}"), DISHES[*k].0, DISHES[*k].1)).collect();
        let set = screen("menu", cands.clone());
        let target = cands[x].id.clone();
        let s = Session::new();
        let ordinal = ["first", "second", "third", "fourth", "fifth", "sixth"];
        let price = DISHES[order[x]].1.split(", ").nth(1).unwrap().to_string();
        let first = match chosen {
            Chosen::Label => cands[x].label.to_lowercase(),
            Chosen::Position => format!("the {} one", ordinal[x]),
            Chosen::Value => format!("the {price} one"),
        };
        let d = s.say(&first, &set);
        if d.target_id.as_deref() != Some(target.as_str()) {
            return Ok(()); // the label alone is asked ("pad thai" beside its longer twin is not)
        }
        match refused {
            Refused::Repair => {
                s.say("not that one", &set);
            }
            Refused::Decline => {
                s.say("nope", &set);
            }
            Refused::Rejected => s.record(&target, "menu", ActionOutcome::Rejected),
        }
        let again = if alone { screen("menu", vec![cands[x].clone()]) } else { set.clone() };
        let (input, branch) = match reply {
            0 => (first.clone(), "the same words"),
            1 => ("yes".to_string(), "a yes"),
            2 => ("sounds good".to_string(), "a yes"),
            3 => ("ok".to_string(), "a yes"),
            4 => ("the cheapest".to_string(), "a comparison"),
            5 => ("the most expensive one".to_string(), "a comparison"),
            6 => (format!("the {} one", ordinal[if alone { 0 } else { x }]), "a position"),
            7 if matches!(chosen, Chosen::Label) => (format!("the {} one", cands[x].label.to_lowercase()), "the label"),
            8 if matches!(chosen, Chosen::Value) => (format!("no, make it the {price} one"), "a value"),
            _ => (first.clone(), "the same words"),
        };
        let d = s.say(&input, &again);
        prop_assert!(
            d.outcome != Outcome::Execute || d.target_id.as_deref() != Some(target.as_str()),
            "{:?} chosen by {:?}, refused by {:?}, then {:?} on {:?}: {}",
            target,
            first,
            refused,
            input,
            again.candidates.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            said(&d)
        );
        branches.hit(branch);
        // A word only it shows that did not choose it (its colour).
        if matches!(chosen, Chosen::Position) {
            let colour = DISHES[order[x]].1.split(',').next().unwrap().to_lowercase();
            let s2 = Session::new();
            s2.say(&first, &set);
            s2.record(&target, "menu", ActionOutcome::Rejected);
            if s2.say(&format!("the {colour} one"), &set).target_id.as_deref() == Some(target.as_str()) {
                branches.hit("re-chosen by new words");
            }
        }
        Ok(())
    });
    branches.expect(&[
        ("the same words", 10),
        ("a yes", 20),
        ("a comparison", 10),
        ("a position", 10),
        ("the label", 10),
        ("a value", 4),
        ("re-chosen by new words", 20),
    ]);
}
