//! The affirm room end to end: a yes to what was proposed executes it,
//! and never an option that a detail, a question or a second option
//! leaves open (each property counts the branch it checks).

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn affirm_executes_what_was_proposed() {
    let s = Session::new();
    assert_eq!(said(&s.say("close", &cards())), "confirm close, freeze, details, stmt (fallback, -)");
    let d = s.say("yes, go ahead", &cards());
    assert_eq!(said(&d), "execute close (reply, affirm)");
    assert_eq!(d.decided_by, Decider::Continuity, "ladderd's own question, read from the session");
    let d = Session::new().say("sounds good", &asking(booking(), Asked::Confirmation));
    assert_eq!((said(&d), d.decided_by), ("execute book (reply, affirm)".to_string(), Decider::Deterministic));
    assert_eq!(said(&Session::new().say("yes please", &booking())), "execute book (reply, affirm)");
}

#[test]
fn affirm_with_a_changed_detail_or_to_several_options_executes_nothing() {
    // A changed detail refuses the option as proposed: the app changes it.
    let confirm = asking(booking(), Asked::Confirmation);
    assert_eq!(said(&Session::new().say("yes but for 3 people", &confirm)), "escape declined (reply, affirm)");
    assert_eq!(said(&Session::new().say("ok, at 8 instead", &confirm)), "escape declined (reply, affirm)");
    // On a plain screen of one option, nothing was proposed to refuse: it
    // is asked about again.
    assert_eq!(said(&Session::new().say("yes but for 3 people", &booking())), "clarify book (reply, affirm)");
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("yes", &panels())), "clarify d, e (reply, affirm)");
    // High risk on a plain screen: the confirmation first, then the yes.
    let s = Session::new();
    assert_eq!(said(&s.say("yes", &delete())), "confirm del (reply, affirm)");
    assert_eq!(said(&s.say("yes", &delete())), "execute del (reply, affirm)");
}

/// To the app's confirmation of a table at 7:00 pm, another
/// time said in words is a change, never a yes; the same time in words
/// is the yes it is in digits.
#[test]
fn a_changed_time_in_words_is_no_yes() {
    let confirm = asking(booking(), Asked::Confirmation);
    for input in
        ["Could you book it at nine pm instead?", "yes, at half past six", "yes but at nine", "ok, for the twelfth", "book it for eight"]
    {
        let d = Session::new().say(input, &confirm);
        assert_ne!(d.outcome, Outcome::Execute, "{input:?}: {}", said(&d));
    }
    assert_eq!(said(&Session::new().say("yes at seven pm", &confirm)), "execute book (reply, affirm)");
}

/// An amount in words is read as the number it says, never respelled as
/// a reply word ("fifty" is no slip of "fifth"): the amount the option
/// shows confirms it, another asks.
#[test]
fn an_amount_in_words_is_its_number() {
    let send = |amount: &str| asking(screen("send", vec![high("m", &format!("Send ${amount} to Maria Lopez"))]), Asked::Confirmation);
    for (input, amount) in [("yes, fifty", "50.00"), ("yes, two hundred fifty", "250.00"), ("yes, sixty dollars", "60")] {
        assert_eq!(said(&Session::new().say(input, &send(amount))), "execute m (reply, affirm)", "{input:?}");
    }
    for (input, amount) in [("yes, fifty", "60.00"), ("yes, two hundred fifty", "205.00"), ("yes, fifty dollars", "15")] {
        let d = Session::new().say(input, &send(amount));
        assert_ne!(d.outcome, Outcome::Execute, "{input:?} to ${amount}: {}", said(&d));
    }
}

const DAYS_BUT_FRIDAY: &[&str] = &["monday", "tuesday", "wednesday", "thursday", "saturday", "sunday"];

/// A detail the proposed option does not show, or one that differs from
/// what it shows (booking shows 2, Friday, 7:00 pm; the others no value;
/// "at 2" is left out: booking shows 2, the party).
fn changed_detail() -> impl Strategy<Value = String> {
    prop_oneof![
        (3u32..=12).prop_map(|n| format!("for {n} people")),
        (3u32..=12).prop_map(|n| format!("but for {n}")),
        (3u32..=9).prop_map(|n| format!("make it {n}")),
        (1u32..=11).prop_filter("not the time shown", |h| *h != 7).prop_map(|h| format!("at {h} pm")),
        (1u32..=11).prop_map(|h| format!("at {h}:30 pm")),
        prop::sample::select(vec![1u32, 3, 4, 5, 6, 8, 9, 10, 11]).prop_map(|h| format!("at {h}")),
        (1u32..=11).prop_map(|h| format!("at {h} instead")),
        one_of(DAYS_BUT_FRIDAY).prop_map(|d| format!("on {d}")),
        one_of(DAYS_BUT_FRIDAY).prop_map(|d| format!("{d} instead")),
        (3u32..=6).prop_map(|n| format!("{n} tickets")),
    ]
}

/// "Sorry, yes - 8 is fine" to ladderd's confirmation of the 8 pm table,
/// after the user had asked for 9: the apology corrects nothing, and 8 is
/// what the option shows. "Sorry, make it 9" still changes it.
#[test]
fn an_apology_before_a_yes_to_the_value_shown_is_a_yes() {
    let eight = screen("eight", vec![c("t8", "Table for 2", "Saturday 8:00 pm")]);
    let s = Session::new();
    assert_eq!(said(&s.say("yes but at 9", &asking(eight.clone(), Asked::Confirmation))), "escape declined (reply, affirm)");
    assert_eq!(said(&s.say("sorry, yes - 8 is fine", &eight)), "execute t8 (reply, affirm)");
    let s = Session::new();
    s.say("yes but at 9", &asking(eight.clone(), Asked::Confirmation));
    assert_ne!(s.say("sorry, make it 9", &eight).outcome, Outcome::Execute);
}

/// Affirm: a yes with a changed detail ("yes but for 3
/// people", "ok, at 8 instead", "sure, on saturday") never executes,
/// whoever proposed the option; the same yes alone does (counted).
#[test]
fn a_yes_that_changes_a_detail_never_executes() {
    let branches = Branches::default();
    let cases = (prop::sample::select(&PROPOSING[..]), one_of(YESES), one_of(&[" ", ", ", " but ", ". ", " - "]), changed_detail());
    check_cases(CASES, file!(), &cases, |(asking, yes, join, detail)| {
        let (s, set, proposed) = asking.set_up();
        let input = format!("{yes}{join}{detail}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?} came to {}", asking, input, said(&d));
        branches.hit("changed detail");
        // The same yes alone executes what was proposed: the branch above
        // is a yes the rung reads.
        let (s, set, _) = asking.set_up();
        let bare = s.say(&yes, &set);
        if bare.outcome == Outcome::Execute {
            prop_assert_eq!(bare.target_id.as_deref(), proposed, "{:?}: {:?}", asking, yes);
            branches.hit("the yes alone executes");
        }
        Ok(())
    });
    branches.expect(&[("changed detail", CASES as usize), ("the yes alone executes", CASES as usize * 3 / 4)]);
}

/// Number words of the generated replies (the values below).
const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// Ordinal words of days.
const DAY_WORDS: &[&str] = &["first", "second", "third", "fourth", "fifth", "sixth", "twelfth", "twentieth", "twenty-first", "thirtieth"];

/// A value said in words that the proposed option does not show, or that
/// differs from what it shows (booking shows 2, Friday, 7:00 pm): a time,
/// a date, an amount, a count, in the lexicon's languages.
fn changed_detail_in_words() -> impl Strategy<Value = String> {
    let hour = |not: u32| prop::sample::select((1..=11u32).filter(move |h| *h != not && *h != 2).collect::<Vec<_>>());
    prop_oneof![
        hour(7).prop_map(|h| format!("at {} pm", NUMBER_WORDS[h as usize])),
        hour(7).prop_map(|h| format!("at {}", NUMBER_WORDS[h as usize])),
        hour(7).prop_map(|h| format!("for {} o'clock", NUMBER_WORDS[h as usize])),
        (1..=12usize).prop_map(|h| format!("at half past {}", NUMBER_WORDS[h])),
        (1..=12usize).prop_map(|h| format!("at quarter to {}", NUMBER_WORDS[h])),
        hour(7).prop_map(|h| format!("at {} thirty pm", NUMBER_WORDS[h as usize])),
        (3..=12usize).prop_map(|n| format!("for {} people", NUMBER_WORDS[n])),
        (3..=9usize).prop_map(|n| format!("{} tickets", NUMBER_WORDS[n])),
        one_of(DAY_WORDS).prop_map(|d| format!("on the {d}")),
        one_of(DAY_WORDS).prop_map(|d| format!("for the {d}")),
        (5..=20usize).prop_map(|n| format!("for {} dollars", NUMBER_WORDS[n])),
        one_of(&["a las nueve", "para tres personas", "à huit heures", "pour trois personnes", "um neun Uhr", "für drei Personen"]),
    ]
}

/// Affirm: a value said in words is a value like its digits,
/// and one that differs from what the option shows is a change, never a
/// yes ("Could you book it at nine pm instead?" to a confirmation of 7:00
/// pm; "yes, at half past six", "ok, for the twelfth", "sure, for twenty
/// dollars"), whoever proposed the option and however the yes and the
/// value are joined. Counted: the same yes with the value the option shows,
/// in words ("at seven pm", "two people" for its "for 2"), executes it.
#[test]
fn a_value_in_words_that_differs_never_confirms() {
    let branches = Branches::default();
    let cases = (
        prop::sample::select(&PROPOSING[..]),
        one_of(YESES),
        one_of(&[" ", ", ", " but ", ". ", " - "]),
        changed_detail_in_words(),
        one_of(&["", " instead"]),
        one_of(&["at seven pm", "two people", "two people at seven"]),
    );
    check_cases(CASES, file!(), &cases, |(asking, yes, join, detail, tail, shown)| {
        let (s, set, _) = asking.set_up();
        let input = format!("{yes}{join}{detail}{tail}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?} came to {}", asking, input, said(&d));
        branches.hit("changed in words");
        if matches!(asking, Asking::AppConfirmation | Asking::PlainOne) {
            let (s, set, proposed) = asking.set_up();
            let same = s.say(&format!("{yes}{join}{shown}"), &set);
            if same.outcome == Outcome::Execute {
                prop_assert_eq!(same.target_id.as_deref(), proposed);
                branches.hit("the value it shows, in words, executes");
            }
        }
        Ok(())
    });
    branches.expect(&[("changed in words", CASES as usize), ("the value it shows, in words, executes", CASES as usize / 4)]);
}

/// Affirm: a yes to "which one?" over several options
/// (ladderd's, on the screen re-sent in any order, or the app's) never
/// executes, whatever came first; it is asked again (counted).
#[test]
fn a_yes_to_which_one_over_several_never_executes() {
    let branches = Branches::default();
    let cases = (prop::sample::select(&CHOOSING[..]), one_of(YESES), order(3));
    check_cases(CASES, file!(), &cases, |(asking, yes, order)| {
        let (s, set, _) = asking.set_up();
        let set = if matches!(asking, Asking::AppChoice) { set } else { reordered(&set, &order) };
        let d = s.say(&yes, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} on {:?}: {:?} came to {}", asking, order, yes, said(&d));
        if kind(&d) == Some("affirm") {
            prop_assert_eq!(d.outcome, Outcome::Clarify, "{}", said(&d));
            branches.hit("asked again");
        }
        Ok(())
    });
    branches.expect(&[("asked again", CASES as usize * 3 / 4)]);
}

const HIGH_RISK: &[&str] =
    &["Delete All Panels", "Close Account", "Pay $120 Now", "Send Message", "Cancel Subscription", "Transfer Funds", "Wipe Device"];

/// Affirm and risk: a yes executes a high-risk option
/// (marked `RISK_HIGH`, or of a kind the deployment lists) on a plain
/// screen of it only right after ladderd asked about it alone (a
/// clarifier of kind `confirmation`, the option first, or one that
/// offered only it), whatever the
/// session had before: nothing, an execute, ladderd's "which one?" or a
/// clarifier of another screen, or a turn on this screen that is no
/// reply ("hello"). The user says yes up to three times. Counted: yeses
/// after a confirmation that execute it.
#[test]
fn a_yes_executes_a_high_risk_option_only_after_its_confirmation() {
    let branches = Branches::default();
    let cases = (one_of(HIGH_RISK), any::<bool>(), 0u8..5, prop::collection::vec(one_of(YESES), 1..=3));
    check_cases(CASES, file!(), &cases, |(label, marked, before, yeses)| {
        let mut s = Session::new();
        s.policy.to_mut().matching.high_risk_kinds = vec!["payment".into()];
        let option = if marked { high("risky", &label) } else { Candidate { kind: "payment".into(), ..Candidate::new("risky", &label) } };
        let set = screen("risky-set", vec![option]);
        let mut previous = match before {
            1 => Some(s.say("open links panel d", &panels())),
            2 => Some(s.say("links panel", &panels())),
            3 => Some(s.say("yes but for 3 people", &asking(booking(), Asked::Confirmation))),
            4 => Some(s.say("hello", &set)),
            _ => None,
        };
        for yes in &yeses {
            let d = s.say(yes, &set);
            if d.outcome == Outcome::Execute {
                // Ladderd asked about it alone: a confirmation of it, or a
                // clarifier that offered only it (a yes-or-no question).
                let confirmed = previous.as_ref().and_then(|p| p.clarifier.as_ref()).is_some_and(|c| {
                    (c.kind == crate::continuity::PendingClarifier::Confirmation
                        && c.option_ids.first().map(String::as_str) == Some("risky"))
                        || c.option_ids == ["risky"]
                });
                prop_assert!(
                    confirmed,
                    "{:?} after {} then {:?}: {:?} came to {} right after {}",
                    label,
                    before,
                    yeses,
                    yes,
                    said(&d),
                    previous.as_ref().map_or("nothing".into(), said)
                );
                branches.hit("executes after its confirmation");
            }
            previous = Some(d);
        }
        Ok(())
    });
    branches.expect(&[("executes after its confirmation", CASES as usize / 4)]);
}

/// Ladderd's clarifier that offered one high-risk option alone (after
/// "hello" on its screen) is a yes-or-no question about it: a
/// yes confirms it. A question of another screen leaves this one plain:
/// the confirmation comes first there.
#[test]
fn a_yes_to_ladderds_clarifier_of_one_high_risk_option_confirms_it_and_a_stale_question_leaves_the_screen_plain() {
    let s = Session::new();
    let first = s.say("hello", &delete());
    assert_eq!(said(&first), "clarify del (fallback, -)");
    let d = s.say("yes", &delete());
    assert_eq!(said(&d), "execute del (reply, affirm)");
    let s = Session::new();
    s.say("links panel", &panels());
    let d = s.say("yes", &delete());
    assert_eq!(said(&d), "confirm del (reply, affirm)");
}

/// A yes with a time ("yes at 2 pm", "yes at 4") changes the time: it
/// executes nothing, and never reads the hour as a position on the screen
/// (after ladderd's confirmation of Close Account, "yes at 4" executed
/// Statements, the fourth option; on the app's confirmation of a table
/// at 7:00 pm for 2, "yes at 2 pm" executed it).
#[test]
fn a_yes_with_another_time_executes_nothing() {
    let s = Session::new();
    s.say("close", &cards());
    let d = s.say("yes at 4", &cards());
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
    for input in ["yes at 2 pm", "ok 2 pm", "yes at 1"] {
        let d = Session::new().say(input, &asking(booking(), Asked::Confirmation));
        assert_ne!(d.outcome, Outcome::Execute, "{input:?}: {}", said(&d));
    }
}

/// A yes in a sentence of its own stands whatever request or question of
/// its own follows (handed back as the follow-up), not a request for
/// others or one that takes it back.
#[test]
fn a_yes_in_a_sentence_of_its_own_stands() {
    for reply in [
        "Perfect. Can you find me a cab there?",
        "Sounds good. I want to buy tickets.",
        "Sounds good. When am I free that day?",
        "Sounds good. What is their phone number?",
    ] {
        let d = Session::new().say(reply, &booking());
        assert_eq!(said(&d), "execute book (reply, affirm)", "{reply:?}");
        // Buying tickets is the next step of the yes itself, no turn of
        // its own.
        assert_eq!(d.follow_up.is_some(), !reply.contains("buy tickets"), "{reply:?}: {:?}", d.follow_up);
    }
    for reply in ["Great, can you find some other events?", "Not interested. Search for some other hotels."] {
        assert_ne!(Session::new().say(reply, &booking()).outcome, Outcome::Execute, "{reply:?}");
    }
}

/// A yes with the option's own verb, to ladderd's question about that
/// option ("yes cancel it" to its confirmation of "Cancel gym
/// membership"), is a yes; the same verb alone is asked.
#[test]
fn a_yes_with_the_options_own_verb_is_a_yes() {
    let gym = screen("gym", vec![high("cg", "Cancel gym membership"), c("pg", "Pause gym membership", "")]);
    for reply in ["yes cancel it", "yes, cancel", "yep cancel that", "sure, cancel it"] {
        let s = Session::new();
        assert_eq!(said(&s.say("cancel my membership", &gym)), "confirm cg, pg (fallback, -)");
        assert_eq!(said(&s.say(reply, &gym)), "execute cg (reply, affirm)", "{reply:?}");
    }
    let s = Session::new();
    assert_eq!(said(&s.say("cancel my membership", &gym)), "confirm cg, pg (fallback, -)");
    assert_eq!(said(&s.say("cancel", &gym)), "clarify cg (reply, cancel)");
    // Another verb is no yes to it.
    let s = Session::new();
    s.say("cancel my membership", &gym);
    assert_ne!(s.say("yes stop it", &gym).outcome, Outcome::Execute);
}

/// "Ok. Show my bookings" to a confirmation, where the turn offers "My
/// bookings" as a command: the acknowledgement opens the command, it
/// accepts nothing. Without the command, or with words that are no
/// command, the reply reads as before.
#[test]
fn an_acknowledgement_before_a_command_is_that_command() {
    let ask = |input: &str, commands: Vec<Candidate>| {
        let req = DecideRequest {
            session_id: "s".into(),
            input: input.into(),
            active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat".into() }),
            options: Some(asking(screen("yoga", vec![c("a", "Book yoga class", "Thu 18:00 · Studio 2")]), Asked::Confirmation)),
            commands,
            ..Default::default()
        };
        crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &req).decision
    };
    let bookings = || vec![Candidate::new("my_bookings", "My bookings")];
    for input in ["ok. show my bookings", "ok, my bookings"] {
        let d = ask(input, bookings());
        assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::Command)), "{input:?}: {}", said(&d));
    }
    // A yes word the match rung does not count as phrasing: never the
    // option, though not the command either.
    assert_ne!(ask("sure. my bookings", bookings()).outcome, Outcome::Execute);
    assert_eq!(said(&ask("ok, book it", bookings())), "execute a (reply, affirm)");
    assert_eq!(said(&ask("yes", bookings())), "execute a (reply, affirm)");
}

/// An acknowledgement alone, then a question about something more ("ok
/// cool. do u guys also do tyre rotation?"), to a confirmation too, asks
/// before it accepts: never executed. A yes that accepts with the same
/// question after it executes, the question handed back.
#[test]
fn an_acknowledgement_then_a_question_about_more_is_that_question() {
    let confirm = asking(screen("oil", vec![c("oil", "Oil change · Sat 9:00 am", "QuickLube, Dover Rd")]), Asked::Confirmation);
    for input in ["ok cool. do u guys also do tyre rotation?", "alright. do you fix flat tires too?"] {
        let d = Session::new().say(input, &confirm);
        assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)), "{input}: {}", said(&d));
    }
    let d = Session::new().say("yes please. do you also do tyre rotation?", &confirm);
    assert_eq!(d.target_id.as_deref(), Some("oil"), "{}", said(&d));
    // A weekday in the plural is a day as its name is: another day than
    // the option's asks about a change, never accepts it.
    for input in ["ok cool, do you do sundays tho?", "ok, are you open on fridays?"] {
        assert_ne!(Session::new().say(input, &confirm).outcome, Outcome::Execute, "{input}");
    }
}

/// The reply words of Portuguese, Italian and Dutch: a yes executes what
/// was proposed ("pode": go ahead), a no declines it, a closing ends the
/// task; a negation never executes.
#[test]
fn yes_and_no_in_portuguese_italian_and_dutch() {
    let confirm = asking(booking(), Asked::Confirmation);
    for yes in ["sim, pode ser", "sì, va bene", "ja graag", "pode"] {
        assert_eq!(said(&Session::new().say(yes, &confirm)), "execute book (reply, affirm)", "{yes}");
    }
    // "Pode" is "go ahead" to a confirmation, with the option's own verb
    // too ("pode pagar" to "Pagar fatura"); never a question it opens.
    let pay =
        asking(screen("pay", vec![Candidate { risk: Risk::High, ..c("p", "Pagar fatura do cartão", "R$ 1.240,50") }]), Asked::Confirmation);
    assert_eq!(said(&Session::new().say("pode pagar", &pay)), "execute p (reply, affirm)");
    assert_ne!(Session::new().say("pode me mostrar o extrato antes?", &pay).outcome, Outcome::Execute);
    for no in ["não, obrigado", "no grazie", "nee dank je"] {
        assert_eq!(Session::new().say(no, &confirm).escape_reason, Some(EscapeReason::Declined), "{no}");
    }
    let three = screen("three", vec![c("a", "Red", ""), c("b", "Blue", ""), c("g", "Green", "")]);
    for not in ["não o primeiro", "non il primo", "niet de eerste"] {
        assert_ne!(Session::new().say(not, &three).outcome, Outcome::Execute, "{not}");
    }
    for first in ["o primeiro", "il primo", "de eerste"] {
        assert_eq!(Session::new().say(first, &three).target_id.as_deref(), Some("a"), "{first}");
    }
}

/// "Right, show me the price list first" to the app's confirmation of a
/// booking, with a "Price list" command: the command, asked for before the
/// yes; the "right" accepts nothing and "first" is no place in the list.
#[test]
fn a_command_said_before_the_yes_is_that_command() {
    let mut req = on("", &asking(booking(), Asked::Confirmation));
    req.commands = vec![Candidate::new("prices", "Price list")];
    let fake = crate::testkit::Fake::quiet();
    for input in ["right, show me the price list first", "right, first show me the price list", "ok, the price list first"] {
        req.input = input.into();
        let d = crate::testkit::turn(crate::testkit::policy(), &fake, &req).decision;
        assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::Command)), "{input}: {}", said(&d));
    }
    req.input = "right, book it".into();
    assert_eq!(said(&crate::testkit::turn(crate::testkit::policy(), &fake, &req).decision), "execute book (reply, affirm)");
}

/// A request that opens with its verb and says a yes phrase inside it
/// ("send this one to my sister", "book this one for friday"), with
/// nothing proposed: no yes, the request read whole. A yes that names
/// what it accepts ("Dumbo is nice") is still one.
#[test]
fn a_yes_phrase_inside_a_request_is_part_of_the_request() {
    let photos = screen(
        "photos",
        vec![c("album", "Add to album", ""), c("share", "Share link", ""), c("rotate", "Rotate 90°", ""), high("del", "Delete forever")],
    );
    assert_eq!(said(&Session::new().say("send this one to my sister", &photos)), "execute share (deterministic, -)");
    assert_eq!(said(&Session::new().say("send this one to the bin", &photos)).split(' ').next(), Some("clarify"));
    let films = screen("films", vec![c("dumbo", "Dumbo", ""), c("gloria", "Gloria Bell", "")]);
    assert_eq!(said(&Session::new().say("Dumbo is nice.", &films)), "execute dumbo (deterministic, affirm)");
}

/// A yes with a question word in it ("why not", "sure why not") asks
/// nothing: to the app's confirmation, it executes; "why?" asks.
#[test]
fn why_not_is_a_yes() {
    let confirm = asking(booking(), Asked::Confirmation);
    assert_eq!(said(&Session::new().say("why not", &confirm)), "execute book (reply, affirm)");
    assert_eq!(said(&Session::new().say("why not?", &confirm)), "execute book (reply, affirm)");
    assert_eq!(said(&Session::new().say("why?", &confirm)).split(' ').take(2).collect::<Vec<_>>(), ["escape", "question_intent"]);
}
