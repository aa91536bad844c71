//! The decline room end to end: a no never executes what was proposed;
//! what it names instead is read again.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn decline_with_what_is_wanted_instead_executes_that() {
    let s = Session::new();
    s.say("close", &cards());
    assert_eq!(said(&s.say("no, just freeze the card", &cards())), "execute freeze (deterministic, decline)");
}

#[test]
fn decline_escapes_declined() {
    assert_eq!(said(&Session::new().say("no", &asking(booking(), Asked::Confirmation))), "escape declined (reply, decline)");
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("none of these", &panels())), "escape declined (reply, decline)");
    let s = Session::new();
    s.say("close", &cards());
    assert_eq!(said(&s.say("nope", &cards())), "escape declined (reply, decline)");
    // Doing it oneself ends the task: no other options are wanted.
    for input in ["neither of those, I'll look for it myself", "none of these, I'll do it myself", "ninguno, lo busco yo"] {
        let s = Session::new();
        s.say("links panel", &panels());
        assert_eq!(s.say(input, &panels()).escape_reason, Some(EscapeReason::Cancel), "{input}");
    }
}

const DECLINES: &[&str] = &[
    "no",
    "nope",
    "nah",
    "not quite",
    "no thanks",
    "no thank you",
    "not really",
    "something else",
    "anything else?",
    "none of these",
    "none of those",
    "neither",
    "any other options?",
    "show me more",
    "i don't think so",
    "nope, something else",
    "no, not that",
    "no way",
    "not exactly",
    "other options please",
];

/// Decline: a refusal never executes, whatever was
/// asked or proposed (or nothing); when something was, it escapes
/// `declined` (counted).
#[test]
fn a_decline_never_executes() {
    let branches = Branches::default();
    let cases = (prop::sample::select(&Asking::ALL[..]), one_of(DECLINES), one_of(&["", "ugh ", "hmm, ", "oh "]), one_of(&["", ".", "!"]));
    check_cases(CASES * 2, file!(), &cases, |(asking, no, before, after)| {
        let (s, set, _) = asking.set_up();
        let input = format!("{before}{no}{after}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?} came to {}", asking, input, said(&d));
        if kind(&d) == Some("decline") && d.handled_by_tier == Tier::Reply {
            branches.hit("read as a decline");
            if asking.asks() {
                prop_assert_eq!(d.escape_reason, Some(EscapeReason::Declined), "{:?}: {:?} came to {}", asking, input, said(&d));
                branches.hit("declined what was asked");
            }
        }
        Ok(())
    });
    branches.expect(&[("read as a decline", CASES as usize), ("declined what was asked", CASES as usize * 3 / 4)]);
}

/// A value said before the refusal is what the refusal takes back: "push
/// it to 10... actually no, scrap today's stand-up altogether" never
/// moves the stand-up to 10:00; what follows is read again (here a
/// high-risk cancel, confirmed first).
#[test]
fn a_value_said_before_the_refusal_is_refused() {
    let standup = screen(
        "standup",
        vec![
            c("a", "Move stand-up to 9:30", "today · 8 guests"),
            c("b", "Move stand-up to 10:00", "today · 8 guests"),
            Candidate { risk: Risk::High, ..c("c", "Cancel today's stand-up", "notifies 8 guests") },
        ],
    );
    let d = Session::new().say("push it to 10... actually no, scrap today's stand-up altogether", &standup);
    assert_ne!(d.target_id.as_deref(), Some("b"), "{}", said(&d));
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
    // A value after the refusal still picks ("no, make it 9:30").
    let s = Session::new();
    let d = s.say(
        "no, make it 9:30",
        &asking(screen("one", vec![c("b", "Move stand-up to 10:00", ""), c("a", "Move stand-up to 9:30", "")]), Asked::Choice),
    );
    assert_eq!(d.target_id.as_deref(), Some("a"), "{}", said(&d));
}

/// A changed value to the confirmation of one option, in a yes or
/// without one, in digits or words, in the lexicon's languages: the
/// option as proposed is refused (`declined`: the app changes it); the
/// value it shows, said in words, is the yes it is in digits. Nothing was
/// proposed on a plain screen: the change is never declined there.
#[test]
fn a_changed_value_to_a_confirmation_is_declined() {
    let table = asking(screen("table", vec![c("t", "Table for 2", "Fri 7:00 pm")]), Asked::Confirmation);
    let send = asking(screen("send", vec![high("m", "Send $80.00 to Sam Ortiz")]), Asked::Confirmation);
    for (input, set, kind) in [
        ("push it to half past eight", &table, "decline"),
        ("lieber um neun", &table, "decline"),
        ("mejor a las nueve y media", &table, "decline"),
        ("plutôt à huit heures du soir", &table, "decline"),
        ("four of us actually", &table, "decline"),
        ("sure, but at quarter to eight", &table, "affirm"),
        ("send him sixty", &send, "decline"),
        ("yes, send him sixty dollars", &send, "affirm"),
        ("ok but only 70", &send, "affirm"),
        ("yes, in the morning", &table, "affirm"),
    ] {
        assert_eq!(said(&Session::new().say(input, set)), format!("escape declined (reply, {kind})"), "{input:?}");
    }
    // A part of the day the time is in is no change; to an option that
    // shows no time, none either.
    let film = asking(screen("film", vec![c("f", "Play movie: Dune", "")]), Asked::Confirmation);
    for (input, set) in [("yes, in the evening", &table), ("yes, tonight", &film)] {
        let d = Session::new().say(input, set);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(set.candidates[0].id.as_str())), "{input:?}");
    }
    for (input, set) in [("yes, seven o'clock works", &table), ("ja, um sieben", &table), ("yep, eighty to Sam", &send)] {
        assert_eq!(said(&Session::new().say(input, set)), format!("execute {} (reply, affirm)", set.candidates[0].id), "{input:?}");
    }
    let plain = screen("table", vec![c("t", "Table for 2", "Fri 7:00 pm")]);
    let d = Session::new().say("push it to half past eight", &plain);
    assert_ne!(d.outcome, Outcome::Execute);
    assert_ne!(d.escape_reason, Some(EscapeReason::Declined), "{}", said(&d));
}

/// Hours of a twelve-hour clock, 1 to 12, in English, German and Spanish.
const HOURS: [[&str; 3]; 12] = [
    ["one", "eins", "una"],
    ["two", "zwei", "dos"],
    ["three", "drei", "tres"],
    ["four", "vier", "cuatro"],
    ["five", "fünf", "cinco"],
    ["six", "sechs", "seis"],
    ["seven", "sieben", "siete"],
    ["eight", "acht", "ocho"],
    ["nine", "neun", "nueve"],
    ["ten", "zehn", "diez"],
    ["eleven", "elf", "once"],
    ["twelve", "zwölf", "doce"],
];

/// To the app's confirmation of a table at 7:00 pm, any other time, said
/// in digits or words, in English, German or Spanish, with or without a
/// lead-in or "instead", is declined, never executed; 7 said the same
/// ways executes it (counted).
#[test]
fn a_changed_time_in_any_form_is_declined_and_the_same_one_confirms() {
    let branches = Branches::default();
    let forms = |h: usize, lang: usize| -> Vec<String> {
        let w = HOURS[h - 1][lang];
        match lang {
            0 => vec![format!("at {w}"), format!("{h} pm"), format!("{w} pm"), format!("half past {w}"), format!("{h}:30")],
            1 => vec![format!("um {w}"), format!("um {h} Uhr"), format!("Viertel nach {w}")],
            _ => vec![format!("a las {w}"), format!("a las {w} y media"), format!("a las {w} de la tarde")],
        }
    };
    let leads = one_of(&["", "make it ", "actually ", "hmm, ", "lieber ", "mejor "]);
    let cases = (1usize..=12, 0usize..3, 0usize..5, leads, one_of(&["", " instead", " please"]));
    let table = asking(screen("table", vec![c("t", "Table for 2", "Fri 7:00 pm")]), Asked::Confirmation);
    check_cases(CASES, file!(), &cases, |(h, lang, form, lead, tail)| {
        let all = forms(h, lang);
        let said_as = &all[form % all.len()];
        let input = format!("{lead}{said_as}{tail}");
        let d = Session::new().say(&input, &table);
        // 7 pm said on the hour, in any half of the day it names, is 7 pm.
        let same =
            h == 7 && !said_as.contains("half") && !said_as.contains(":30") && !said_as.contains("Viertel") && !said_as.contains("media");
        if same {
            prop_assert_ne!(d.escape_reason, Some(EscapeReason::Declined), "{:?} came to {}", input, said(&d));
            branches.hit("the time shown");
        } else {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} came to {}", input, said(&d));
            prop_assert_eq!(d.escape_reason, Some(EscapeReason::Declined), "{:?} came to {}", input, said(&d));
            branches.hit("another time");
        }
        Ok(())
    });
    branches.expect(&[("another time", CASES as usize * 3 / 4), ("the time shown", 1)]);
}

/// A refusal in a sentence of its own, then another option's whole label
/// ("no, change size", "not quite, wrong size. change it to a 10"): that
/// option, never the one refused; more words beside it are read by the
/// ladder.
#[test]
fn a_refusal_then_another_options_label_is_that_option() {
    let set = screen("order", vec![place(), c("size", "Change size", "Trail Runner 2 · size 9"), c("save", "Save for later", "")]);
    for (input, want) in
        [("no, change size", "size"), ("not quite, wrong size. change it to a 10", "size"), ("nope. save for later", "save")]
    {
        let s = Session::new();
        assert_eq!(s.say("order them", &set).outcome, Outcome::Clarify, "{input}");
        let d = s.say(input, &set);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(want)), "{input}: {}", said(&d));
    }
}

/// "Place order", RISK_HIGH, of kind "order": "order them" asks to
/// confirm it.
fn place() -> Candidate {
    let mut p = high("place", "Place order");
    p.kind = "order".into();
    p
}

const REFUSALS: &[&str] = &["no", "nope", "not quite", "no thanks", "nah"];
const EXTRAS: &[&str] = &["", " please", " to a 10", " and gift wrap it", " for tomorrow"];

/// A refusal, then another option's whole label, to ladderd's
/// confirmation of a RISK_HIGH option: never the refused option, never a
/// third one (a RISK_HIGH one only as its whole label is: said whole).
/// Over generated screens. Counted: executes of the named option.
#[test]
fn a_refusal_then_a_label_never_executes_what_was_refused() {
    let branches = Branches::default();
    let actions = ["Change size", "Save for later", "Add gift note", "Track parcel", "Apply coupon"];
    let cases =
        (0usize..5, 1usize..5, prop::sample::select(REFUSALS), prop::sample::select(EXTRAS), prop::bool::weighted(0.2), prop::bool::ANY);
    check_cases(CASES, file!(), &cases, |(a, shift, refusal, extra, risky, comma)| {
        let b = (a + shift) % 5;
        let named = if risky { high("named", actions[a]) } else { c("named", actions[a], "") };
        let set = screen("order", vec![place(), named, c("other", actions[b], "")]);
        let s = Session::new();
        if s.say("order them", &set).outcome != Outcome::Clarify {
            return Ok(());
        }
        let input = format!("{refusal}{} {}{extra}", if comma { "," } else { "." }, actions[a].to_lowercase());
        let d = s.say(&input, &set);
        prop_assert_ne!(d.target_id.as_deref().filter(|_| d.outcome == Outcome::Execute), Some("place"), "{}: {}", input, said(&d));
        prop_assert_ne!(d.target_id.as_deref().filter(|_| d.outcome == Outcome::Execute), Some("other"), "{}: {}", input, said(&d));
        if d.outcome == Outcome::Execute && !risky {
            branches.hit("the named option executes");
        }
        Ok(())
    });
    branches.expect(&[("the named option executes", CASES as usize / 4)]);
}

/// A request for other options that an option's label says ("d'autres
/// dates" with "Voir d'autres dates") asks for that option; where no
/// label says it, it declines what was proposed.
#[test]
fn other_options_an_option_offers_are_that_option() {
    let mut v710 = high("v710", "Réserver le vol de 7h10");
    v710.kind = "flight".into();
    let set = screen("vols", vec![v710, high("v945", "Réserver le vol de 9h45"), c("dates", "Voir d'autres dates", "")]);
    for (input, want) in [("regarder d'autres dates", Some("dates")), ("je préfère voir d'autres dates", Some("dates"))] {
        let d = Session::new().say(input, &asking(set.clone(), Asked::Confirmation));
        assert_eq!(d.target_id.as_deref().filter(|_| d.outcome == Outcome::Execute), want, "{input}: {}", said(&d));
    }
    let plain = screen("vols", vec![high("v710", "Réserver le vol de 7h10"), high("v945", "Réserver le vol de 9h45")]);
    let d = Session::new().say("d'autres dates", &asking(plain, Asked::Confirmation));
    assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::Declined)), "{}", said(&d));
}

/// "I meant" in the lexicon's languages, after an execute: "nee, falsch –
/// Wohnzimmer meinte ich", "Nee, falsch, ich wollte die Funghi" take the
/// one they name instead.
#[test]
fn i_meant_in_other_languages_corrects_the_execute() {
    let lights = screen("licht", vec![c("a", "Licht Küche", ""), c("b", "Licht Wohnzimmer", ""), c("c", "Licht Schlafzimmer", "")]);
    let s = Session::new();
    assert_eq!(said(&s.say("Küche an", &lights)), "execute a (deterministic, -)");
    let d = s.say("nee, falsch – Wohnzimmer meinte ich", &lights);
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("b")), "{}", said(&d));
}

/// A no to the one option proposed, then only its label's words and
/// words of leaving it out ("no, skip the alignment", "no, don't add the
/// alignment", "nein, ohne Politur"), refuses it again: `declined`. A
/// word its label does not show (a sublabel's, a value, another option's
/// word) is a change, never this refusal.
#[test]
fn a_no_that_names_what_was_proposed_declines_it() {
    let extra = |label: &str, sub: &str| {
        asking(screen("extra", vec![Candidate { sublabel: sub.into(), ..Candidate::new("x", label) }]), Asked::Confirmation)
    };
    let alignment = extra("Add wheel alignment", "£45");
    let polish = extra("Politur hinzufügen", "15 €");
    for (input, set) in [
        ("no, skip the alignment", &alignment),
        ("no, don't add the alignment", &alignment),
        ("no thanks, leave the alignment off", &alignment),
        ("nein, ohne Politur", &polish),
    ] {
        assert_eq!(said(&Session::new().say(input, set)), "escape declined (reply, decline)", "{input}");
    }
    let film = extra("Play movie: Sunset", "no subtitles");
    for (input, set) in [("no, play it with subtitles", &film), ("no, the alignment for £30", &alignment)] {
        let d = Session::new().say(input, set);
        assert_ne!(d.escape_reason, Some(EscapeReason::Declined), "{input}: {}", said(&d));
        assert_ne!(d.outcome, Outcome::Execute, "{input}: {}", said(&d));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(128)))]

    /// Over a confirmation of one generated option beside others on
    /// screen, a no then words never executes the option proposed; it
    /// declines only when every word after the no is the proposed label's
    /// or one of leaving out.
    #[test]
    fn a_no_with_the_proposed_words_never_executes_it(
        label in prop::sample::subsequence(vec!["wheel", "alignment", "polish", "wax", "interior", "valet"], 1..=3),
        said_words in prop::sample::subsequence(vec!["wheel", "alignment", "polish", "wax", "interior", "valet", "skip", "tyres", "4"], 1..=3),
    ) {
        let label = label.join(" ");
        let set = asking(screen("x", vec![Candidate::new("p", format!("Add {label}"))]), Asked::Confirmation);
        let input = format!("no, {}", said_words.join(" "));
        let d = Session::new().say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} to {:?}", input, label);
        let own = |w: &&str| label.split(' ').any(|l| l == *w) || *w == "skip";
        if d.escape_reason == Some(EscapeReason::Declined) && said_words.iter().any(|w| label.split(' ').any(|l| l == *w)) {
            prop_assert!(said_words.iter().all(own), "{:?} declined {:?}", input, label);
        }
    }
}

/// A no that asks for another value ("nee, lieber halb vier" to 15:00)
/// declines the option as proposed and refuses nothing: the app proposes
/// it changed under the same id, and a yes to that executes it.
#[test]
fn a_no_that_changes_a_value_refuses_nothing() {
    let cut = |time: &str| {
        asking(
            screen(
                "cut",
                vec![Candidate { sublabel: "bei Jana".into(), ..Candidate::new("a", format!("Haarschnitt · Di 14.05., {time}")) }],
            ),
            Asked::Confirmation,
        )
    };
    for (no, yes) in [("nee, lieber halb vier", "halb vier, ja passt"), ("no, make it 3:30 instead", "yes")] {
        let s = Session::new();
        assert_eq!(s.say(no, &cut("15:00")).escape_reason, Some(EscapeReason::Declined), "{no}");
        assert_eq!(said(&s.say(yes, &cut("15:30"))), "execute a (reply, affirm)", "{no} then {yes}");
    }
}
