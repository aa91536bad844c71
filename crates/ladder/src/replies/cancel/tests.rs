//! The cancel room end to end: an abandon, a closing with nothing
//! asked, a yes right after an execute hand the turn back, and never
//! execute (each property counts the branch it checks).

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

/// The app sends its one-option screen again after an execute;
/// a yes then acknowledges what was done, it never runs it again. An app
/// that wants it again asks (`ASKED_CONFIRMATION`).
#[test]
fn a_yes_right_after_an_execute_acknowledges_it() {
    let s = Session::new();
    assert_eq!(said(&s.say("delete all panels please", &delete())), "execute del (deterministic, -)");
    assert_eq!(said(&s.say("yes", &delete())), "escape cancel (reply, cancel)");
    assert_eq!(said(&s.say("yes", &delete())), "escape cancel (reply, cancel)");
    assert_eq!(said(&s.say("do it", &delete())), "escape cancel (reply, cancel)");
    assert_eq!(said(&s.say("yes", &asking(delete(), Asked::Confirmation))), "execute del (reply, affirm)");
    // Not right after it: a yes to a plain one-option screen is as before.
    let s = Session::new();
    s.say("open links panel d", &panels());
    assert_eq!(said(&s.say("ok", &booking())), "execute book (reply, affirm)");
}

#[test]
fn a_cancel_word_that_is_a_label_is_that_request() {
    assert_eq!(said(&Session::new().say("skip", &player())), "execute skip (deterministic, -)");
}

#[test]
fn cancel_escapes_cancel() {
    let confirm = asking(booking(), Asked::Confirmation);
    assert_eq!(said(&Session::new().say("hold on, don't", &confirm)), "escape cancel (reply, cancel)");
    assert_eq!(said(&Session::new().say("never mind, later", &confirm)), "escape cancel (reply, cancel)");
}

/// "Wait no" to a confirmation is its no: the word that holds the turn
/// ends nothing, the refusal answers what was proposed. An abandon that
/// ends the task ("no, forget it") still cancels, and "not yet" declines.
#[test]
fn a_word_that_holds_the_turn_with_a_no_declines_what_was_proposed() {
    let confirm = asking(booking(), Asked::Confirmation);
    for no in ["wait no", "hold on, no", "no no, wait", "hang on a sec, no thanks", "not yet"] {
        assert_eq!(said(&Session::new().say(no, &confirm)), "escape declined (reply, decline)", "{no}");
    }
    for ends in ["no, forget it", "wait, never mind", "no, stop"] {
        assert!(said(&Session::new().say(ends, &confirm)).starts_with("escape cancel ("), "{ends}");
    }
    // With nothing proposed there is nothing to decline.
    assert_eq!(said(&Session::new().say("wait no", &times())), "escape cancel (reply, cancel)");
}

/// Labels of one option an execute is had on, of every risk.
const EXECUTED: &[&str] = &[
    "Delete All Panels",
    "Close Account",
    "Pay $120 Now",
    "Send Message",
    "Book a table for 2",
    "Play Bohemian Rhapsody",
    "Add to cart",
    "Reorder coffee beans",
];

/// What a person says right after an execute to acknowledge it.
const AFTER_AN_EXECUTE: &[&str] =
    &["yes", "ok", "do it", "yes please", "okay", "sure", "yep do it", "go ahead", "great", "thanks", "perfect"];

/// Affirm after an execute: "yes", "ok", "do it" right after
/// an execute, with nothing asked since, never propose nor execute the
/// option just executed: over generated screens (the option alone, or
/// among others; high risk or not; chosen by its label, or by a yes to
/// its confirmation), the app sends the screen again (the same option set,
/// or another with the same option alone) and the user acknowledges up
/// to three times. Counted: the acknowledgements read, and the app's
/// `ASKED_CONFIRMATION` afterwards that executes it.
#[test]
fn a_yes_after_an_execute_never_proposes_or_runs_it_again() {
    let branches = Branches::default();
    let cases = (one_of(EXECUTED), any::<bool>(), any::<bool>(), 0u8..3, prop::collection::vec(one_of(AFTER_AN_EXECUTE), 1..=3));
    check_cases(CASES, file!(), &cases, |(label, risky, among_others, again, yeses)| {
        let s = Session::new();
        let option = if risky { high("x", &label) } else { Candidate::new("x", &label) };
        let others = [Candidate::new("o1", "Links Panel D"), Candidate::new("o2", "Team Settings")];
        let first = if among_others {
            screen("first", vec![others[0].clone(), option.clone(), others[1].clone()])
        } else {
            screen("first", vec![option.clone()])
        };
        // Chosen by its label, or (alone) by a yes to its confirmation.
        let d = if among_others || !risky {
            s.say(&format!("{label} please"), &first)
        } else {
            s.say("yes", &first);
            s.say("yes", &first)
        };
        prop_assert!(said(&d).starts_with("execute x "), "{:?}: {}", label, said(&d));
        let shown = match again {
            0 => first.clone(),
            1 => screen("again", vec![option.clone()]),
            _ => screen("first", vec![option.clone()]),
        };
        for yes in &yeses {
            let d = s.say(yes, &shown);
            let proposes = d.clarifier.as_ref().is_some_and(|c| {
                c.option_ids == ["x"]
                    || (c.kind == crate::continuity::PendingClarifier::Confirmation
                        && c.option_ids.first().map(String::as_str) == Some("x"))
            });
            prop_assert!(
                d.outcome != Outcome::Execute && !proposes,
                "{:?} then {:?} on {:?}: {}",
                label,
                yes,
                shown.option_set_id,
                said(&d)
            );
            if kind(&d) == Some("cancel") {
                branches.hit("acknowledged");
            }
        }
        // The app asks to do it again: the yes to that is a yes.
        let d = s.say("yes", &asking(screen("again", vec![option]), Asked::Confirmation));
        prop_assert_eq!(said(&d), "execute x (reply, affirm)");
        branches.hit("asked again by the app");
        Ok(())
    });
    branches.expect(&[("acknowledged", CASES as usize / 2), ("asked again by the app", CASES as usize)]);
}

const CANCELS: &[&str] = &[
    "forget it",
    "never mind",
    "nevermind",
    "hold on, don't",
    "never mind, later",
    "nvm",
    "scratch that",
    "i changed my mind",
    "leave it",
    "not now",
    "maybe later",
    "hold off",
    "forget about it",
    "ugh never mind",
    "ok never mind",
    "no, stop",
    "nah, forget it",
    "wait, don't do it",
];

/// Cancel: an abandon never executes, whatever was asked
/// (or nothing): it escapes `cancel` (read as a reply or at the
/// exclusions; those the reply rung read are counted).
#[test]
fn a_cancel_never_executes() {
    let branches = Branches::default();
    let cases = (prop::sample::select(&Asking::ALL[..]), one_of(CANCELS), one_of(&["", ".", "!"]));
    check_cases(CASES, file!(), &cases, |(asking, cancel, after)| {
        let (s, set, _) = asking.set_up();
        let input = format!("{cancel}{after}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?} came to {}", asking, input, said(&d));
        prop_assert_eq!(d.escape_reason, Some(EscapeReason::Cancel), "{:?}: {:?} came to {}", asking, input, said(&d));
        if d.handled_by_tier == Tier::Reply {
            branches.hit("read as a reply");
        }
        Ok(())
    });
    branches.expect(&[("read as a reply", CASES as usize / 3)]);
}

/// A cancel word alone ("cancel", "stop it", "cancel
/// that") while some option's label opens with it may abandon the
/// conversation as much as ask for that option: those options are asked,
/// never executed and never escaped; with no such option it is a cancel.
/// Over generated screens of 2 to 8 options, the words the lexicon holds
/// both as an abandon and as an action, with what may come around them.
#[test]
fn a_cancel_word_alone_never_executes_an_option_it_opens() {
    let lex = crate::testkit::lexicon();
    let mut verbs: Vec<String> = lex.actions.iter().filter(|w| w.is_ascii() && lex.abandons.is_phrase(&[w.as_str()])).cloned().collect();
    verbs.sort();
    assert!(verbs.len() >= 3, "{verbs:?}");
    const OBJECTS: &[&str] = &["subscription", "recording", "booking", "dentist appointment", "order", "upload", "timer", "membership"];
    let branches = Branches::default();
    let cases = (
        prop::sample::select(verbs),
        prop::collection::vec((prop::sample::select(OBJECTS), any::<bool>()), 2..=8),
        prop::sample::select(vec!["{v}", "{v} it", "{v} that", "please {v}", "{v} please", "{V}!", "ok {v}"]),
        any::<bool>(),
    );
    check_cases(CASES, file!(), &cases, |(verb, items, form, risky)| {
        let cands: Vec<Candidate> = items
            .iter()
            .enumerate()
            .map(|(i, (object, opens))| {
                let label = if *opens { format!("{} {object}", capitalized(&verb)) } else { format!("Show {object}") };
                Candidate { risk: if risky { Risk::High } else { Risk::Unspecified }, ..Candidate::new(format!("o{i}"), label) }
            })
            .collect();
        let opening: Vec<String> = cands.iter().filter(|c| c.label.starts_with(&capitalized(&verb))).map(|c| c.id.clone()).collect();
        let input = form.replace("{v}", &verb).replace("{V}", &capitalized(&verb));
        let d = Session::new().say(&input, &screen("s", cands));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {}", input, said(&d));
        if opening.is_empty() {
            if input != format!("ok {verb}") {
                prop_assert_eq!(d.escape_reason, Some(EscapeReason::Cancel), "{:?}: {}", input, said(&d));
                branches.hit("no option opens with it: a cancel");
            }
        } else {
            prop_assert_eq!(d.outcome, Outcome::Clarify, "{:?}: {}", input, said(&d));
            let mut offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
            offered.sort();
            let mut want = opening.clone();
            want.sort();
            want.truncate(offered.len().max(1));
            prop_assert!(want.iter().all(|w| offered.contains(w)), "{:?}: offered {:?}, opening {:?}", input, offered, opening);
            branches.hit("asked among the options it opens");
        }
        Ok(())
    });
    branches.expect(&[("no option opens with it: a cancel", 5), ("asked among the options it opens", 50)]);
}

/// Words of reaction and closings people end a task with.
const REACTIONS: &[&str] = &["awesome", "great", "perfect", "cool", "nice", "ok", "sweet", ""];
const CLOSINGS: &[&str] = &[
    "thank you!!",
    "thanks",
    "thx, all done",
    "thanks bye",
    "thank you so much",
    "ty",
    "cheers",
    "that's everything",
    "all set",
    "nothing more, thanks",
    "thanks, have a great day",
    "merci beaucoup, bonne journée",
    "danke, schönen Tag noch",
    "gracias, hasta luego",
    "grazie, buona serata",
    "bedankt, fijne dag",
    "thats it thx",
    "that's all then",
    "grax!!",
    "merci, c'est tout pour moi",
];

/// A closing with nothing pending: "awesome thank you!!", "cool thx,
/// all done", "great thanks bye" with the app's next screen shown (after
/// an execute, nothing asked) hands the turn back (`cancel`), never
/// executes. A closing that also asks for something ("great thanks, add
/// a tip", "thanks. open links panel d") is never taken
/// for the end of the task, nor executes what it does not name; with one
/// option proposed it is a yes to it (counted).
#[test]
fn a_closing_with_nothing_pending_cancels_and_never_executes() {
    let tails = prop::sample::select(vec!["", ", add a tip", ". add links panel e", ". open links panel d"]);
    let cases = (prop::sample::select(REACTIONS), prop::sample::select(CLOSINGS), tails, any::<bool>());
    let branches = Branches::default();
    check_cases(192, file!(), &cases, |(reaction, closing, tail, executed_first)| {
        let input = format!("{reaction} {closing}{tail}").trim().to_string();
        let s = Session::new();
        if executed_first {
            s.say("open links panels", &panels());
        }
        let next = screen(
            "next",
            vec![Candidate::new("tip", "Add a tip"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")],
        );
        let d = s.say(&input, &next);
        if tail.is_empty() {
            prop_assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::Cancel)), "{:?}: {:?}", input, d);
            branches.hit("a closing alone: cancel");
        } else {
            prop_assert_ne!(d.escape_reason, Some(EscapeReason::Cancel), "{:?}: the request is dropped: {:?}", input, d);
            if d.outcome == Outcome::Execute {
                // Only what the tail names.
                let named = if tail.contains("tip") {
                    "tip"
                } else if tail.contains("panel e") {
                    "e"
                } else {
                    "d"
                };
                prop_assert_eq!(d.target_id.as_deref(), Some(named), "{:?}: {:?}", input, d);
            }
            branches.hit("a closing with more: never the end");
        }
        // With one option proposed, the closing alone is a yes to it.
        if tail.is_empty() && said(&Session::new().say(&input, &booking())) == "execute book (reply, affirm)" {
            branches.hit("one option proposed: the yes");
        }
        Ok(())
    });
    branches.expect(&[("a closing alone: cancel", 25), ("a closing with more: never the end", 100), ("one option proposed: the yes", 25)]);
}

/// A closing that opens the reply, then a request of its own, with
/// nothing proposed or asked ("that's everything, check out", "thanks!
/// oh wait, also add a side of fries"): the request is read alone and
/// executes what it names; an abandon after the closing still cancels,
/// and a request that names two options is asked.
#[test]
fn a_closing_then_a_request_reads_the_request_alone() {
    let cart = screen(
        "cart",
        vec![c("checkout", "Go to checkout", "3 items · $27.40"), c("fries", "Add fries", "$3.50"), c("drink", "Add a drink", "")],
    );
    for (input, want) in [
        ("that's everything, check out", "checkout"),
        ("thanks! oh wait, also add a side of fries", "fries"),
        ("merci beaucoup. add a drink", "drink"),
    ] {
        let d = Session::new().say(input, &cart);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(want)), "{input}: {}", said(&d));
    }
    assert_eq!(Session::new().say("thanks! oh wait, never mind", &cart).escape_reason, Some(EscapeReason::Cancel));
    assert_eq!(Session::new().say("thanks! add a drink and fries", &cart).outcome, Outcome::Clarify);
}

/// Words that only hold the turn before a position ("wait no, second",
/// "hold on, the 2nd one") leave the position standing: the choice is
/// read, the turn is not lost. An abandon that ends the task still
/// cancels.
#[test]
fn a_position_after_words_that_hold_the_turn_is_the_choice() {
    let choice = asking(times(), Asked::Choice);
    for t in ["wait no, second", "hold on, the second one", "no wait, 2nd", "hold on a sec, the second"] {
        assert_eq!(said(&Session::new().say(t, &choice)), "execute t7 (reply, position)", "{t}");
    }
    assert!(said(&Session::new().say("no, forget it, the second", &choice)).starts_with("escape cancel ("));
    assert!(said(&Session::new().say("wait, never mind", &choice)).starts_with("escape cancel ("));
}

/// "No wait XL", "hang on the comfort one": words that only hold the turn
/// before a choice, with no comma, are no cancel of it: the choice is read
/// again. An abandon word that ends the task still cancels ("no wait,
/// forget it"), and so does "stop the XL".
#[test]
fn words_that_hold_the_turn_before_a_choice_cancel_nothing() {
    let rides = screen("rides", vec![c("std", "Standard", ""), c("comfort", "Comfort", ""), c("xl", "XL", "")]);
    assert_eq!(said(&Session::new().say("no wait XL", &rides)), "execute xl (deterministic, cancel)");
    assert_eq!(said(&Session::new().say("no wait the comfort one", &rides)), "execute comfort (deterministic, cancel)");
    assert_eq!(said(&Session::new().say("no wait", &rides)), "escape cancel (reply, cancel)");
    assert_eq!(said(&Session::new().say("wait no, forget it", &rides)), "escape cancel (reply, cancel)");
    assert_eq!(said(&Session::new().say("stop the XL", &rides)), "escape cancel (reply, cancel)");
    assert_ne!(Session::new().say("no wait not XL", &rides).outcome, Outcome::Execute);
}

/// Over generated screens, "<hold words> <option's label>" executes what
/// the label alone executes, or nothing; with an abandon word that ends
/// the task among them, it never executes.
#[test]
fn a_choice_after_words_that_hold_the_turn_is_the_choice_alone() {
    let branches = Branches::default();
    let labels = ["Standard", "Comfort", "XL", "Green", "Pet friendly"];
    let cases = (0usize..5, prop::sample::select(vec!["no wait", "wait", "hold on", "hang on", "no no wait"]), any::<bool>());
    check_cases(crate::testkit::cases(64), file!(), &cases, |(k, hold, abandon)| {
        let set = screen("rides", labels.iter().enumerate().map(|(i, l)| c(&format!("r{i}"), l, "")).collect());
        let label = labels[k].to_lowercase();
        let input = if abandon { format!("{hold} forget it {label}") } else { format!("{hold} {label}") };
        let d = Session::new().say(&input, &set);
        if abandon {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}", input);
        } else {
            let alone = Session::new().say(&label, &set);
            if d.outcome == Outcome::Execute {
                prop_assert_eq!(&d.target_id, &alone.target_id, "{:?}", input);
                branches.hit("the choice executes");
            }
        }
        Ok(())
    });
    branches.expect(&[("the choice executes", 16)]);
}
