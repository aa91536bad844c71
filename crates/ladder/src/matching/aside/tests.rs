//! A choice, then an aside (`aside`): where the input splits, and end to
//! end through the ladder: the choice executes, with no follow-up; an
//! aside that names an option, says a value of a kind they show, asks,
//! refuses or requests never lets the choice execute alone. A property
//! tries to make an aside execute what a careful person would not.

use super::{Aside, split, split_at_reason, split_at_verdict};
use crate::matching::tests::{decides_as, executed, request};
use crate::policy::Policy;
use crate::testkit::{Fake, turn};
use crate::types::*;
use proptest::prelude::*;

fn decide(input: &str, cands: &[Candidate]) -> Decision {
    turn(&Policy::defaults(), &Fake::quiet(), &request(input, cands)).decision
}

fn levels() -> Vec<Candidate> {
    [("l2", "Level 2", "3 free"), ("l1", "Level 1", "11 free"), ("m1", "Level -1", "25 free"), ("m2", "Level -2", "40 free")]
        .iter()
        .map(|(id, l, s)| Candidate { sublabel: (*s).into(), kind: "parking_level".into(), ..Candidate::new(*id, *l) })
        .collect()
}

/// Fares with these labels, ids `f0`, `f1`, ... (the properties' screens).
fn fare_screen(labels: &[&str]) -> Vec<Candidate> {
    labels.iter().enumerate().map(|(i, l)| Candidate { kind: "fare".into(), ..Candidate::new(format!("f{i}"), *l) }).collect()
}

fn fares() -> Vec<Candidate> {
    [("std", "Standard", "£42"), ("fc", "First Class", "£89"), ("sl", "Sleeper berth", "£140")]
        .iter()
        .map(|(id, l, s)| Candidate { sublabel: (*s).into(), kind: "fare".into(), ..Candidate::new(*id, *l) })
        .collect()
}

#[test]
fn the_first_clause_ends_at_a_comma_a_stop_or_a_dash() {
    let table: &[(&str, Option<(&str, &str)>)] = &[
        ("-1 pls, closer to the exit", Some(("-1 pls", "closer to the exit"))),
        ("the +1 one. that's way cheaper", Some(("the +1 one", "that's way cheaper"))),
        ("first class — work is paying", Some(("first class", "work is paying"))),
        ("sleeper - long night ahead", Some(("sleeper", "long night ahead"))),
        ("sleeper... long night ahead", Some(("sleeper", "long night ahead"))),
        ("the 2.5 kg one", None),
        ("first class", None),
        ("first class,", None),
    ];
    for (input, want) in table {
        assert_eq!(split(input), want.map(|(first, rest)| Aside { first, rest }), "{input:?}");
    }
}

/// The choice executes beside a remark that names nothing; an aside that
/// names an option, says a value of a kind the options show, asks,
/// refuses, negates or requests does not let it.
#[test]
fn a_choice_then_a_remark_executes_the_choice() {
    for (input, cands, id) in [
        ("-1 pls, closer to the exit", levels(), "m1"),
        ("-2 please, I'm staying an hour", levels(), "m2"),
        ("first class, work is paying 😎", fares(), "fc"),
        ("sleeper berth — long night ahead", fares(), "sl"),
        ("standard. money is tight this month", fares(), "std"),
    ] {
        let d = decide(input, &cands);
        assert_eq!(executed(&d), Some(id), "{input:?}: {:?}", d.outcome);
        assert!(d.follow_up.is_none(), "{input:?}: an aside asks nothing: {:?}", d.follow_up);
    }
    for (input, cands) in [
        ("-1 pls, or level 1", levels()),
        ("-1 pls, the one with 40 free", levels()),
        ("-1 pls, is it covered?", levels()),
        ("-1 pls, no wait", levels()),
        ("first class, or the sleeper", fares()),
        ("first class, it costs £89 right", fares()),
    ] {
        let d = decide(input, &cands);
        assert_ne!(d.outcome, Outcome::Execute, "{input:?}: {:?}", d.target_id);
    }
}

#[test]
fn a_verdict_on_the_choice_starts_after_one_word_at_least() {
    let lex = &Policy::defaults().lexicon;
    let table: &[(&str, Option<(&str, &str)>)] = &[
        ("the sleeper is fine", Some(("the sleeper", ""))),
        ("pickup's easier", Some(("pickup", ""))),
        ("the flexi works for me, thanks", Some(("the flexi", "thanks"))),
        ("la poltrona va benissimo", Some(("la poltrona", ""))),
        ("die normale passt", Some(("die normale", ""))),
        ("is fine", None),
        ("first class", None),
    ];
    for (input, want) in table {
        assert_eq!(split_at_verdict(input, lex), want.map(|(first, rest)| Aside { first, rest }), "{input:?}");
    }
}

/// A verdict on what the input names ("standard is fine", "sleeper
/// would be great", "die erste Klasse ist gut") leaves the choice as if
/// said alone; a choice of two, a negation or a question is no verdict's.
#[test]
fn a_choice_then_a_verdict_executes_the_choice() {
    for (input, id) in [
        ("standard is fine", "std"),
        ("the sleeper berth would be great", "sl"),
        ("first class works for me, cheers", "fc"),
        ("sleeper's easier", "sl"),
        ("standard me va bien", "std"),
    ] {
        let d = decide(input, &fares());
        assert_eq!(executed(&d), Some(id), "{input:?}: {:?}", d.outcome);
        assert!(d.follow_up.is_none(), "{input:?}: {:?}", d.follow_up);
    }
    for input in ["standard or first class is fine", "not standard, is fine", "first class is fine?", "standard is fine but not today"] {
        let d = decide(input, &fares());
        assert_ne!(d.outcome, Outcome::Execute, "{input:?}: {:?}", d.target_id);
    }
}

/// A request after the choice is no remark: it is handed back
/// (`follow_up`), as a choice that also asks for more is.
#[test]
fn a_request_after_the_choice_is_handed_back() {
    let d = decide("standard, and book a taxi", &fares());
    assert_eq!(executed(&d), Some("std"));
    assert_eq!(d.follow_up.map(|f| (f.kind, f.text)), Some((FollowUpKind::Request, "and book a taxi".to_string())));
}

/// A high-risk choice beside a remark is confirmed, never executed.
#[test]
fn a_high_risk_choice_with_a_remark_is_confirmed() {
    let mut cands = fares();
    cands[1].risk = Risk::High;
    let d = decide("first class, work is paying", &cands);
    assert_ne!(d.outcome, Outcome::Execute, "{:?}", d.target_id);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(256)))]

    /// Over generated fare screens, "<choice>, <remark>" executes the
    /// choice, with no follow-up, when the remark names nothing; a remark
    /// that names another option, takes the choice back or requests never
    /// lets any option execute, and a question is handed back with it.
    #[test]
    fn an_aside_never_executes_what_a_careful_person_would_not(
        labels in prop::sample::subsequence(vec!["Standard", "First Class", "Sleeper berth", "Flexi", "Saver", "Business"], 3..=5),
        pick in 0usize..5,
        other in 0usize..5,
        remark in prop::sample::select(vec!["long night ahead", "work is paying", "my back hurts", "tbh", "lol", "it's a long trip"]),
        spoiler in 0usize..6,
    ) {
        let (pick, other) = (pick % labels.len(), other % labels.len());
        prop_assume!(pick != other);
        let cands = fare_screen(&labels);
        let choice = labels[pick].to_lowercase();
        let said = format!("{choice}, {remark}");
        let d = decide(&said, &cands);
        let id = format!("f{pick}");
        prop_assert_eq!(executed(&d), Some(id.as_str()), "{:?} over {:?}", said, labels);
        prop_assert!(d.follow_up.is_none());
        let o = labels[other].to_lowercase();
        let tried = match spoiler {
            0 => format!("{choice}, {remark}, or {o}"),
            1 => format!("{choice}, {o} maybe"),
            2 => format!("{choice}, {remark}?"),
            3 => format!("{choice}, {o} is nice too"),
            4 => format!("{choice}, no wait, {remark}"),
            _ => format!("{choice}, and {o} for my son"),
        };
        let d = decide(&tried, &cands);
        // A verdict on the choice ("is fine", "works for me", "va bene")
        // executes what the choice said alone executes, and nothing when
        // it names another option too.
        let verdict = ["is fine", "works for me", "would be great", "va bene", "ist gut", "me va bien"][spoiler];
        let alone = decide(&choice, &cands);
        let judged = decide(&format!("{choice} {verdict}"), &cands);
        prop_assert_eq!(executed(&judged), executed(&alone), "{:?} {:?} over {:?}", choice, verdict, labels);
        let both = decide(&format!("{choice} or {o} {verdict}"), &cands);
        prop_assert_ne!(both.outcome, Outcome::Execute, "{:?} or {:?} {:?}: {:?}", choice, o, verdict, both.target_id);
        if spoiler == 2 {
            // A question after the choice: executed only with it handed
            // back (a choice that also asks), never as a remark dropped.
            if d.outcome == Outcome::Execute {
                prop_assert_eq!(d.target_id.as_deref(), Some(id.as_str()));
                prop_assert_eq!(d.follow_up.map(|f| f.kind), Some(FollowUpKind::Question), "{:?}", tried);
            }
        } else {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} executed {:?}", tried, labels, d.target_id);
        }
    }
}

/// Texting's run-on: a word that opens a reason ends the choice where no
/// comma does ("+2 pls its freezing in here", "XL cuz theres 5 of us"),
/// after one word at least; a reason that names an option or negates
/// leaves the turn asked.
#[test]
fn a_reason_with_no_comma_ends_the_choice() {
    let lex = crate::testkit::lexicon();
    assert_eq!(split_at_reason("+2 pls its freezing in here", lex), Some(Aside { first: "+2 pls", rest: "its freezing in here" }));
    assert_eq!(split_at_reason("XL cuz theres 5 of us", lex), Some(Aside { first: "XL", rest: "cuz theres 5 of us" }));
    assert_eq!(split_at_reason("its the XL", lex), None);
    assert_eq!(split_at_reason("sleeper berth", lex), None);
    for (input, want) in [
        ("sleeper berth cuz its a long night", Some("sl")),
        ("standard bc money is tight", Some("std")),
        ("standard weil ich sparen muss", Some("std")),
        ("standard because first class is full", None),
        ("standard because it isnt worth it", None),
        ("standard its cheaper than first class", None),
    ] {
        assert_eq!(executed(&decide(input, &fares())), want, "{input:?}");
    }
}

/// Over generated fare screens, "<choice> <reason word> <remark>" with no
/// comma executes what "<choice>, <remark>" does, and only the choice;
/// a reason that names another option never executes anything. Counted:
/// the choice executes.
#[test]
fn a_reason_with_no_comma_reads_as_one_with_a_comma() {
    use crate::testkit::{Branches, check_cases};
    let branches = Branches::default();
    let cases = (
        prop::sample::subsequence(vec!["Standard", "First Class", "Sleeper berth", "Flexi", "Saver", "Business"], 3..=5),
        0usize..5,
        1usize..5,
        prop::sample::select(vec!["cuz", "bc", "because", "its", "im", "weil"]),
        prop::sample::select(vec!["long night ahead", "work is paying", "my back hurts", "a long trip"]),
    );
    check_cases(crate::testkit::cases(128), file!(), &cases, |(labels, pick, step, opener, remark)| {
        let (pick, other) = (pick % labels.len(), (pick + step) % labels.len());
        let cands = fare_screen(&labels);
        let choice = labels[pick].to_lowercase();
        let run_on = decide(&format!("{choice} {opener} {remark}"), &cands);
        let comma = decide(&format!("{choice}, {opener} {remark}"), &cands);
        prop_assert_eq!(executed(&run_on), executed(&comma), "{:?} {:?} {:?} over {:?}", choice, opener, remark, labels);
        if let Some(got) = executed(&run_on) {
            prop_assert_eq!(got, format!("f{pick}"), "{:?} over {:?}", choice, labels);
            branches.hit("the choice executes");
        }
        if pick != other {
            let o = labels[other].to_lowercase();
            let spoiled = decide(&format!("{choice} {opener} {o} is nice"), &cands);
            prop_assert_ne!(spoiled.outcome, Outcome::Execute, "{:?} {:?} {:?} over {:?}", choice, opener, o, labels);
        }
        Ok(())
    });
    branches.expect(&[("the choice executes", 64)]);
}

/// A remark after a choice that says another option is too much rules
/// that option out, and the choice executes ("den IC 2 bitte, der ICE
/// ist mir zu teuer", "medium graag, de L viel te groot"); one that says
/// it of the option chosen, names it, asks for both ("the L too") or
/// negates, never lets the choice execute alone.
#[test]
fn a_remark_that_rules_another_option_out_keeps_the_choice() {
    let trains = fare_screen(&["ICE 578", "ICE 1024", "IC 2"]);
    let sizes = fare_screen(&["Maat S", "Maat M", "Maat L"]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("den IC 2 bitte, der ICE ist mir echt zu teuer", &trains, Some("f2")),
        ("IC 2, the ICE is too expensive", &trains, Some("f2")),
        ("medium graag, de L viel vorige keer veel te groot", &sizes, Some("f1")),
        ("medium please, the L is too big", &sizes, Some("f1")),
        ("medium please, the M is too big", &sizes, None),
        ("medium please, the L too", &sizes, None),
        ("medium, and the L too", &sizes, None),
        ("medium, the L is not too big", &sizes, None),
        ("medium, is the L too big?", &sizes, None),
    ];
    decides_as(table);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// Over generated screens of named fares: "<one>, the <other> is too
    /// <word>" executes the one or nothing; said of the one chosen, with
    /// "too" ending the remark, or negated, it never executes.
    #[test]
    fn a_remark_of_excess_never_executes_what_it_rules_out(
        names in prop::collection::btree_set("[bcdfgklmnprst][aeiou][bcdfgklmnprst][aeiou]", 3),
        pick in 0usize..3,
        other in 0usize..3,
        too in prop::sample::select(vec!["too expensive", "too far", "zu teuer", "te groot", "trop cher"]),
        spoiler in 0usize..4,
    ) {
        let names: Vec<String> = names.into_iter().collect();
        let labels: Vec<String> = names.iter().map(|n| format!("{n} fare")).collect();
        let screen = fare_screen(&labels.iter().map(String::as_str).collect::<Vec<_>>());
        let said = format!("{} please, the {} is {too}", names[pick], names[other]);
        let d = decide(&said, &screen);
        let chosen = format!("f{pick}");
        if pick == other {
            prop_assert_eq!(executed(&d), None, "{:?} executed though the remark rules out the choice", said);
        } else {
            prop_assert!(executed(&d).is_none() || executed(&d) == Some(chosen.as_str()), "{:?} executed {:?}", said, d.target_id);
        }
        let tried = match spoiler {
            0 => format!("{} please, the {} too", names[pick], names[other]),
            1 => format!("{} please, the {} is not {too}", names[pick], names[other]),
            2 => format!("{} please, is the {} {too}?", names[pick], names[other]),
            _ => format!("{} please, and the {} {too}", names[pick], names[other]),
        };
        let d = decide(&tried, &screen);
        prop_assert!(pick == other && spoiler == 0 || executed(&d).is_none(), "{:?} executed {:?}", tried, d.target_id);
    }
}
