use super::*;
use crate::policy::{LlmAnswer, Policy};
use crate::testkit::{Fake, req, turn};
use crate::types::{Candidate, Decision, FallbackReason};

/// The concepts [`crate::testkit::Concepts`] knows here.
const CONCEPTS: &[&[&str]] = &[
    &["transfer", "move", "send", "wire", "money"],
    &["balance", "much", "left"],
    &["card", "lost", "stolen", "arrive", "arrives"],
    &["pin", "code"],
    &["bill", "pay", "due"],
    &["pool", "spa", "swim", "heated"],
];

fn meaning() -> Policy {
    crate::testkit::with_concepts(CONCEPTS)
}

fn screen(input: &str) -> DecideRequest {
    let mut r = req(input);
    let labels = [
        ("pin", "Pin change"),
        ("bill", "Pay bill"),
        ("card", "Report lost card"),
        ("bal", "Balance"),
        ("xfer", "Transfer"),
        ("pool", "Pool & spa hours"),
    ];
    r.options.as_mut().unwrap().candidates = labels.iter().map(|(id, l)| Candidate::new(*id, *l)).collect::<Vec<_>>().into();
    r
}

fn decide(p: &Policy, r: &DecideRequest) -> Decision {
    turn(p, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), r).decision
}

fn about_step(d: &Decision) -> (String, String) {
    let s = d.trace.iter().find(|s| s.rung == "about").expect("an about step");
    (s.outcome.clone(), s.detail.clone())
}

#[test]
fn a_question_says_which_option_it_is_about() {
    let d = decide(&meaning(), &screen("is the pool heated at night?"));
    assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)));
    assert_eq!(d.about, ["pool"]);
    let (ranking, detail) = about_step(&d);
    assert_eq!(ranking, "words");
    assert!(detail.starts_with("pool:"), "ids and scores: {detail}");
    assert!(!detail.contains("heated"), "no user text in the trace: {detail}");
}

#[test]
fn a_question_in_other_words_is_about_the_options_closest_in_meaning() {
    // No label word: meaning alone says what it is about.
    let d = decide(&meaning(), &screen("what happens when it was stolen?"));
    assert_eq!(d.outcome, Outcome::Escape);
    assert_eq!(d.about, ["card"]);
    assert_eq!(about_step(&d).0, "meaning");
}

#[test]
fn what_the_words_name_leads_and_meaning_follows() {
    // "Balance" is named; the transfer concept is what the rest means.
    let d = decide(&meaning(), &screen("what is my balance after I wire money?"));
    assert_eq!(d.about.first().map(String::as_str), Some("bal"), "{:?}", d.about);
    assert!(d.about.contains(&"xfer".to_string()), "{:?}", d.about);
}

#[test]
fn a_question_about_nothing_on_the_screen_is_about_nothing() {
    let d = decide(&meaning(), &screen("what's the weather like tomorrow?"));
    assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)));
    assert!(d.about.is_empty(), "{:?}", d.about);
    assert_eq!(about_step(&d), ("none".to_string(), String::new()));
}

#[test]
fn without_a_model_only_what_the_words_name() {
    let words = Policy::defaults();
    assert_eq!(decide(&words, &screen("is the pool heated at night?")).about, ["pool"]);
    assert!(decide(&words, &screen("what happens when it was stolen?")).about.is_empty());
}

#[test]
fn at_most_three_the_words_first_then_meaning() {
    // Four options' concepts, the transfer one the strongest; "pin" and
    // "bill" are label words.
    let d = decide(&meaning(), &screen("can I wire money, send money, pay a bill, change a pin code or swim?"));
    assert_eq!(d.outcome, Outcome::Escape);
    assert_eq!(d.about.len(), MAX, "{:?}", d.about);
    let mut named = d.about[..2].to_vec();
    named.sort();
    assert_eq!(named, ["bill", "pin"]);
    assert_eq!(d.about[2], "xfer");
}

#[test]
fn only_a_question_is_about_anything() {
    for input in ["pay bill", "the pool one", "how about", "cancel", "wire the funds"] {
        let d = decide(&meaning(), &screen(input));
        assert!(d.escape_reason != Some(EscapeReason::QuestionIntent) || input == "how about", "{input}: {d:?}");
        if d.escape_reason != Some(EscapeReason::QuestionIntent) {
            assert!(d.about.is_empty(), "{input}: {:?} {:?}", d.outcome, d.about);
            assert!(d.trace.iter().all(|s| s.rung != "about"), "{input}");
        }
    }
}

#[test]
fn a_position_in_a_question_counts_in_the_whole_list() {
    // The words are read over the options that share one with the
    // question; a position is read over the screen as shown.
    for p in [meaning(), Policy::defaults()] {
        let d = decide(&p, &screen("what is the second option?"));
        assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)));
        assert_eq!(d.about.first().map(String::as_str), Some("bill"), "{:?}", d.about);
    }
}

#[test]
fn a_label_word_the_question_shares_names_its_options_among_the_others() {
    // "card" and "lost" are one option's words among six: read over the
    // options that have them, the same option the whole screen names.
    for p in [meaning(), Policy::defaults()] {
        let d = decide(&p, &screen("what do I do about a lost card?"));
        assert_eq!(d.about.first().map(String::as_str), Some("card"), "{:?}", d.about);
    }
}
