//! The repeat room end to end: "one more" repeats the last execute as it
//! was, and nothing else.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn a_repetition_repeats_the_last_execute() {
    let s = Session::new();
    assert_eq!(said(&s.say("play song 2", &player())), "execute song2 (deterministic, -)");
    let d = s.say("one more", &player());
    assert_eq!((said(&d), d.decided_by), ("execute song2 (reply, repeat)".to_string(), Decider::Continuity));
}

#[test]
fn a_repetition_with_nothing_executed_executes_nothing() {
    let d = Session::new().say("one more", &player());
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
}

const SONGS: [&str; 5] = ["Yellow", "Clocks", "Fix You", "Viva la Vida", "Song 2"];

const AGAIN: &[&str] = &["one more", "again", "another one", "one more please", "same again", "play it again", "do it again", "once more"];

/// Repeat: "one more", "again" executes only the last
/// execute, on a screen that still shows it (the same option set, or the
/// same label): never another option, never the same id showing another
/// label on another screen, never with a value added ("one more for 3
/// people"), never with nothing executed. Counted: repeats, and screens
/// where the id shows another label.
#[test]
fn a_repetition_executes_only_the_last_execute_as_it_was() {
    let branches = Branches::default();
    let cases = (
        (2usize..=5).prop_flat_map(|n| (Just(n), order(n))),
        any::<prop::sample::Index>(),
        prop::bool::weighted(0.8),
        0u8..5,
        one_of(AGAIN),
        one_of(&["", "", "", "", "", " for 3 people", " at 8 pm", " on saturday"]),
    );
    check_cases(CASES, file!(), &cases, |((n, order), pick, executed, next, again, value)| {
        let songs: Vec<Candidate> = (0..n).map(|i| Candidate::new(format!("s{i}"), SONGS[i])).collect();
        let set = screen("player", songs.clone());
        let k = pick.index(n);
        let s = Session::new();
        let had = if executed {
            let d = s.say(&format!("play {}", SONGS[k]), &set);
            prop_assert_eq!(d.target_id.clone(), Some(format!("s{k}")), "{}", said(&d));
            Some(k)
        } else {
            let d = s.say("hello", &set);
            prop_assert_ne!(d.outcome, Outcome::Execute);
            None
        };
        // The screen of the repetition: the same, reordered, another set
        // of the same options, the same ids showing other labels, or one
        // without the option.
        let (screen2, same_label) = match next {
            0 => (set.clone(), true),
            1 => (reordered(&set, &order), true),
            2 => (OptionSet { option_set_id: "player-2".into(), ..reordered(&set, &order) }, true),
            3 => {
                let shifted: Vec<Candidate> = (0..n).map(|i| Candidate::new(format!("s{i}"), SONGS[(i + 1) % n])).collect();
                (screen("player-3", shifted), false)
            }
            _ => {
                let fewer: Vec<Candidate> =
                    songs.iter().filter(|c| Some(c.id.as_str()) != had.map(|k| format!("s{k}")).as_deref()).cloned().collect();
                (screen("player-4", fewer), false)
            }
        };
        let input = format!("{again}{value}");
        let d = s.say(&input, &screen2);
        let why = format!("had {had:?} on {next}: {input:?} came to {}", said(&d));
        if d.outcome == Outcome::Execute {
            prop_assert!(had.is_some(), "{}", why);
            prop_assert_eq!(d.target_id.clone(), had.map(|k| format!("s{k}")), "{}", why);
            prop_assert!(same_label, "{}", why);
            prop_assert!(value.is_empty(), "{}", why);
            branches.hit("repeats");
        } else if had.is_some() && next == 3 {
            branches.hit("the id shows another label");
        }
        Ok(())
    });
    branches.expect(&[("repeats", CASES as usize / 8), ("the id shows another label", CASES as usize / 20)]);
}

/// "Do it again" asks for the last execute again: on a screen that no
/// longer shows it, it is no yes to the one option shown.
#[test]
fn do_it_again_is_no_yes_to_another_option() {
    let s = Session::new();
    let set = screen("player", vec![Candidate::new("s0", "Yellow"), Candidate::new("s1", "Clocks")]);
    assert_eq!(said(&s.say("play yellow", &set)), "execute s0 (deterministic, -)");
    let d = s.say("do it again", &screen("player-4", vec![Candidate::new("s1", "Clocks")]));
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
}

/// A word of repetition that an option shows ("plus" is French "more",
/// and "Standard Plus" a fare) is that option's word: "standard plus"
/// never executes "Standard" as a repetition or as a label with a
/// conjunction after it.
#[test]
fn a_word_of_repetition_an_option_shows_is_that_options() {
    let fares = screen(
        "fares",
        vec![Candidate::new("std", "Standard"), Candidate::new("plus", "Standard Plus · +€30"), Candidate::new("first", "First")],
    );
    for input in ["standard plus", "standard plus please"] {
        let d = Session::new().say(input, &fares);
        assert!(d.outcome != Outcome::Execute || d.target_id.as_deref() == Some("plus"), "{input}: {}", said(&d));
    }
}

#[test]
fn the_same_for_another_thing_is_the_execute_with_that_part_replaced() {
    let s = Session::new();
    let living = screen(
        "living",
        vec![c("lr_30", "Living room · Dim to 30%", ""), c("lr_off", "Living room · Off", ""), c("bed_off", "Bedroom · Off", "")],
    );
    assert_eq!(said(&s.say("dim the living room to 30%", &living)), "execute lr_30 (deterministic, -)");
    let bedroom = screen(
        "bedroom",
        vec![c("bed_30", "Bedroom · Dim to 30%", ""), c("bed_off", "Bedroom · Off", ""), c("lr_off", "Living room · Off", "")],
    );
    assert_eq!(said(&s.say("do the same in the bedroom", &bedroom)), "execute bed_30 (reply, repeat)");
}

const ROOMS: [&str; 4] = ["Kitchen", "Bedroom", "Hallway", "Office"];
const ACTIONS: [&str; 4] = ["Dim to 30%", "Turn off", "Turn on", "Night light"];
const THE_SAME: &[&str] = &["do the same in the {r}", "same for the {r}", "the same in the {r} please", "same again for the {r}"];

/// "The same for X": after an execute the screen no longer shows, the
/// reply executes only the option whose label is the executed one with
/// its part replaced by what the reply says, and nothing else said: never
/// an option with another action (a word nobody said), never where two
/// options fit or none does, and a RISK_HIGH one is confirmed first.
/// Over generated screens of rooms and actions. Counted: executes, and
/// screens without the fitting option.
#[test]
fn the_same_for_another_thing_executes_only_the_label_with_that_part_replaced() {
    let branches = Branches::default();
    let cases = (
        0usize..4,
        0usize..4,
        1usize..4,
        prop::collection::vec((0usize..4, 0usize..4), 1..5),
        prop::bool::ANY,
        prop::bool::weighted(0.2),
        one_of(THE_SAME),
    );
    check_cases(CASES, file!(), &cases, |(room, action, shift, others, fitting_shown, risky, input)| {
        let other = (room + shift) % 4;
        let s = Session::new();
        let first = screen("first", vec![c("had", &format!("{} · {}", ROOMS[room], ACTIONS[action]), "")]);
        let d = s.say(&format!("{} {}", ROOMS[room].to_lowercase(), ACTIONS[action].to_lowercase()), &first);
        if d.outcome != Outcome::Execute {
            return Ok(());
        }
        let mut cands: Vec<Candidate> = others
            .iter()
            .enumerate()
            .filter(|(_, (r, a))| !(*r == other && *a == action))
            .map(|(k, (r, a))| c(&format!("o{k}"), &format!("{} · {}", ROOMS[*r], ACTIONS[*a]), ""))
            .collect();
        if fitting_shown {
            let label = format!("{} · {}", ROOMS[other], ACTIONS[action]);
            cands.push(if risky { high("fit", &label) } else { c("fit", &label, "") });
        }
        let set = screen("second", cands);
        let input = input.replace("{r}", &ROOMS[other].to_lowercase());
        let d = s.say(&input, &set);
        if d.outcome == Outcome::Execute {
            prop_assert_eq!(d.target_id.as_deref(), Some("fit"), "{:?} over {:?}: {}", input, set.candidates, said(&d));
            prop_assert!(!risky, "a RISK_HIGH option executed: {}", said(&d));
            branches.hit("executes the fitting option");
        }
        if !fitting_shown {
            branches.hit("nothing fits");
        }
        Ok(())
    });
    branches.expect(&[("executes the fitting option", CASES as usize / 4), ("nothing fits", CASES as usize / 4)]);
}
