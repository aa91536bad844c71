//! Replies end to end (docs/replies.md): whole turns
//! through the ladder, a first that makes something asked (ladderd's
//! confirmation or "which one?", an execute, or the app's screen with
//! `asked` set) and then the reply. For each kind of reply, one example
//! that executes and one that does not, and a property that tries to make
//! it execute what a person would not; each property counts the branch it
//! checks, so it cannot pass without checking.

use crate::continuity::ActionOutcome;
use crate::policy::Policy;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

// ------------------------------------------------------------- harness --

fn c(id: &str, label: &str, sublabel: &str) -> Candidate {
    Candidate { sublabel: sublabel.into(), ..Candidate::new(id, label) }
}

fn high(id: &str, label: &str) -> Candidate {
    Candidate { risk: Risk::High, ..Candidate::new(id, label) }
}

fn screen(name: &str, candidates: Vec<Candidate>) -> OptionSet {
    OptionSet { option_set_id: name.into(), scope: Scope::Chat, candidates: candidates.into(), ..Default::default() }
}

fn asking(mut set: OptionSet, asked: Asked) -> OptionSet {
    set.asked = asked;
    set
}

fn booking() -> OptionSet {
    screen("booking", vec![c("book", "Book a table for 2", "Friday 7:00 pm")])
}

fn times() -> OptionSet {
    screen(
        "times",
        vec![
            c("t6", "Table for 2", "Friday 6:00 pm"),
            c("t7", "Table for 2", "Friday 7:00 pm"),
            c("t8", "Table for 2", "Saturday 8:00 pm"),
        ],
    )
}

fn shirts() -> OptionSet {
    screen(
        "shirts",
        vec![c("black", "Linen Shirt", "Black, $40"), c("white", "Linen Shirt", "White, $35"), c("blue", "Linen Shirt", "Blue, $45")],
    )
}

fn mugs() -> OptionSet {
    screen("mugs", vec![c("mb", "Mug", "Black, $12"), c("mw", "Mug", "White, $12"), c("mr", "Mug", "Red, $15")])
}

fn cards() -> OptionSet {
    screen(
        "cards",
        vec![
            Candidate::new("freeze", "Freeze Card"),
            Candidate::new("details", "Card Details"),
            high("close", "Close Account"),
            Candidate::new("stmt", "Statements"),
        ],
    )
}

fn delete() -> OptionSet {
    screen("delete", vec![high("del", "Delete All Panels")])
}

fn panels() -> OptionSet {
    screen("panels", vec![Candidate::new("p", "Links Panels"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")])
}

fn pair() -> OptionSet {
    screen("pair", vec![Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")])
}

fn player() -> OptionSet {
    screen("player", vec![Candidate::new("skip", "Skip"), Candidate::new("dsmn", "Don't Stop Me Now"), Candidate::new("song2", "Song 2")])
}

/// The same screen, its options in another order.
fn reordered(set: &OptionSet, order: &[usize]) -> OptionSet {
    let candidates: Vec<Candidate> = order.iter().map(|k| set.candidates[*k].clone()).collect();
    OptionSet { candidates: candidates.into(), ..set.clone() }
}

fn on(input: &str, set: &OptionSet) -> DecideRequest {
    DecideRequest {
        session_id: "s".into(),
        turn_id: "t".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat".into() }),
        options: Some(set.clone()),
        ..Default::default()
    }
}

/// What a decision came to, in the docs' words (docs/replies.md):
/// `execute ID`, `clarify IDS`, `confirm ID`, `escape REASON`, then the
/// rung that decided and the reply kind its trace shows.
fn said(d: &Decision) -> String {
    let what = match d.outcome {
        Outcome::Execute => format!("execute {}", d.target_id.as_deref().unwrap_or("?")),
        Outcome::Clarify => {
            let c = d.clarifier.as_ref();
            let ids = c.map(|c| c.option_ids.join(", ")).unwrap_or_default();
            if c.is_some_and(|c| c.kind == crate::continuity::PendingClarifier::Confirmation) {
                format!("confirm {ids}")
            } else {
                format!("clarify {ids}")
            }
        }
        Outcome::Escape => format!("escape {}", d.escape_reason.map_or("?", EscapeReason::as_str)),
        other => format!("{other:?}"),
    };
    format!("{what} ({}, {})", d.handled_by_tier.as_str(), kind(d).unwrap_or("-"))
}

/// The reply kind the trace shows: the last reply step that read a reply.
fn kind(d: &Decision) -> Option<&str> {
    d.trace.iter().rev().find(|s| s.rung == "reply" && s.outcome != "pass").map(|s| s.outcome.as_str())
}

/// A random order of a screen of `n` options.
fn order(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<usize>>()).prop_shuffle()
}

fn one_of(all: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(all).prop_map(String::from)
}

/// What was asked before a reply, set up by a first turn (or by the
/// app's screen): the session after it, the screen the reply is said on,
/// and the option proposed (one a yes would answer), if any.
#[derive(Debug, Clone, Copy)]
enum Asking {
    /// The app's `ASKED_CONFIRMATION` of its one candidate (booking).
    AppConfirmation,
    /// ladderd's confirmation: `close` on cards (Close Account is high risk).
    LadderConfirmation,
    /// A plain screen of one option, nothing asked (booking).
    PlainOne,
    /// ladderd's "which one?" (`links panel`: d, e), the app's screen then
    /// narrowed to the one option e.
    LadderNarrowed,
    /// ladderd's "which one?" over several (`links panel` on panels: d, e).
    LadderChoice,
    /// ladderd's "which one?" over every option (`table for 2` on times).
    LadderChoiceAll,
    /// The app's `ASKED_CHOICE` (shirts).
    AppChoice,
    /// Nothing asked: an execute just had (`open links panel d`).
    AfterExecute,
    /// Nothing asked: a plain screen of several options (panels).
    PlainSeveral,
}

const PROPOSING: [Asking; 4] = [Asking::AppConfirmation, Asking::LadderConfirmation, Asking::PlainOne, Asking::LadderNarrowed];
const CHOOSING: [Asking; 3] = [Asking::LadderChoice, Asking::LadderChoiceAll, Asking::AppChoice];

impl Asking {
    const ALL: [Asking; 9] = [
        Asking::AppConfirmation,
        Asking::LadderConfirmation,
        Asking::PlainOne,
        Asking::LadderNarrowed,
        Asking::LadderChoice,
        Asking::LadderChoiceAll,
        Asking::AppChoice,
        Asking::AfterExecute,
        Asking::PlainSeveral,
    ];

    /// The session after the first turn, the reply's screen, and the
    /// option proposed. Panics when the first turn does not ask what the
    /// setting needs (the examples below pin each).
    fn set_up(self) -> (Session, OptionSet, Option<&'static str>) {
        let s = Session::new();
        let first = |input: &str, set: &OptionSet, expect: &str| {
            let d = s.say(input, set);
            assert!(said(&d).starts_with(expect), "{self:?}: {input:?} came to {}", said(&d));
        };
        match self {
            Asking::AppConfirmation => (s, asking(booking(), Asked::Confirmation), Some("book")),
            Asking::LadderConfirmation => {
                first("close", &cards(), "confirm close");
                (s, cards(), Some("close"))
            }
            Asking::PlainOne => (s, booking(), Some("book")),
            Asking::LadderNarrowed => {
                first("links panel", &panels(), "clarify d, e");
                (s, screen("panel-e", vec![Candidate::new("e", "Links Panel E")]), Some("e"))
            }
            Asking::LadderChoice => {
                first("links panel", &panels(), "clarify d, e");
                (s, panels(), None)
            }
            Asking::LadderChoiceAll => {
                first("table for 2", &times(), "clarify t6, t7, t8");
                (s, times(), None)
            }
            Asking::AppChoice => (s, asking(shirts(), Asked::Choice), None),
            Asking::AfterExecute => {
                first("open links panel d", &panels(), "execute d");
                (s, panels(), None)
            }
            Asking::PlainSeveral => (s, panels(), None),
        }
    }

    /// Whether the reply's turn answers something asked or proposed.
    fn asks(self) -> bool {
        !matches!(self, Asking::AfterExecute | Asking::PlainSeveral)
    }
}

// ------------------------------------------------------------ examples --
//
// One reply of each kind that executes and one that does not (the rows of
// docs/replies.md, here through `decide` in unit tests).

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
    let confirm = asking(booking(), Asked::Confirmation);
    assert_eq!(said(&Session::new().say("yes but for 3 people", &confirm)), "clarify book (reply, affirm)");
    assert_eq!(said(&Session::new().say("ok, at 8 instead", &confirm)), "clarify book (reply, affirm)");
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("yes", &panels())), "clarify d, e (reply, affirm)");
    // High risk on a plain screen: the confirmation first, then the yes.
    let s = Session::new();
    assert_eq!(said(&s.say("yes", &delete())), "confirm del (reply, affirm)");
    assert_eq!(said(&s.say("yes", &delete())), "execute del (reply, affirm)");
}

/// The app sends its one-option screen again after an execute; a yes
/// then acknowledges what was done, it never runs it again. An app that
/// wants it again asks (`ASKED_CONFIRMATION`).
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

/// "final" is a position and a word of two labels: both
/// readings are asked, on the app's "which one?" as on a plain screen.
#[test]
fn a_position_word_two_labels_say_is_asked() {
    let files = screen(
        "files",
        vec![Candidate::new("rf", "report_final.pdf"), Candidate::new("rf3", "report_final_v3.pdf"), Candidate::new("nt", "notes.txt")],
    );
    let d = Session::new().say("the final one", &asking(files.clone(), Asked::Choice));
    assert_eq!(said(&d), "clarify nt, rf, rf3 (reply, position)");
    assert_eq!(said(&Session::new().say("the final one", &files)), "clarify nt, rf, rf3 (fallback, -)");
    assert_eq!(said(&Session::new().say("the last one", &asking(files, Asked::Choice))), "execute nt (reply, position)");
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

#[test]
fn a_position_counts_in_the_order_the_question_listed() {
    let s = Session::new();
    assert_eq!(said(&s.say("links panel", &panels())), "clarify d, e (fallback, -)");
    // The screen narrowed to the question's options, in its order.
    let d = s.say("the second one", &pair());
    assert_eq!((said(&d), d.decided_by), ("execute e (reply, position)".to_string(), Decider::Continuity));
    // The screen re-sent in another order: its second option is p, the
    // question's e: the user may mean either.
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("the second one", &reordered(&panels(), &[2, 0, 1]))), "clarify e, p (reply, position)");
}

/// Ladderd's confirmation listed Close Account first and
/// Card Details third; the app re-sends the screen as it was (Close
/// Account third): "the third one" is asked between the two.
#[test]
fn a_position_the_question_and_the_screen_read_apart_is_asked() {
    let s = Session::new();
    let d = s.say("close", &cards());
    assert_eq!(d.clarifier.map(|c| c.option_ids), Some(vec!["close".into(), "freeze".into(), "details".into(), "stmt".into()]));
    assert_eq!(said(&s.say("the third one", &cards())), "clarify details, close (reply, position)");
}

#[test]
fn a_position_outside_the_question_is_asked_again() {
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("the third one", &panels())), "clarify d, e (reply, position)");
}

#[test]
fn a_detail_only_one_offered_option_shows_picks_it() {
    let s = Session::new();
    s.say("table for 2", &times());
    assert_eq!(said(&s.say("the saturday one", &times())), "execute t8 (reply, detail)");
    assert_eq!(said(&Session::new().say("black", &asking(shirts(), Asked::Choice))), "execute black (reply, detail)");
}

#[test]
fn a_detail_two_offered_options_show_is_asked_again() {
    let s = Session::new();
    s.say("table for 2", &times());
    let d = s.say("the friday one", &times());
    assert_eq!(d.outcome, Outcome::Clarify, "{}", said(&d));
}

#[test]
fn a_comparison_with_one_extreme_picks_it() {
    assert_eq!(said(&Session::new().say("the cheaper one", &asking(shirts(), Asked::Choice))), "execute white (reply, comparison)");
    let s = Session::new();
    s.say("table for 2", &times());
    assert_eq!(said(&s.say("the earliest", &times())), "execute t6 (reply, comparison)");
}

/// `n` shirts, each at its own price, the cheapest listed last.
fn many_shirts(n: usize) -> OptionSet {
    screen("many", (0..n).map(|i| c(&format!("s{i}"), &format!("Shirt {}", 100 + i), &format!("${}", 90 - i))).collect())
}

#[test]
fn a_comparison_on_a_plain_screen_reads_a_short_one_only() {
    // Nothing asked: a short screen is read as a list ...
    let short = many_shirts(super::SCREEN_READ);
    let last = format!("s{}", super::SCREEN_READ - 1);
    assert_eq!(said(&Session::new().say("the cheapest one", &short)), format!("execute {last} (reply, comparison)"));
    // ... a longer one is the ladder's to read: no comparison executes.
    let long = many_shirts(super::SCREEN_READ + 1);
    let d = Session::new().say("the cheapest one", &long);
    assert_ne!(kind(&d), Some("comparison"), "{}", said(&d));
    assert!(!said(&d).starts_with("execute"), "{}", said(&d));
    // Asked "which one?" over the long screen, the comparison answers it.
    let last = format!("s{}", super::SCREEN_READ);
    assert_eq!(said(&Session::new().say("the cheapest one", &asking(long, Asked::Choice))), format!("execute {last} (reply, comparison)"));
}

#[test]
fn a_comparison_with_a_tie_is_asked_again() {
    // Black and White are both $12.
    assert_eq!(said(&Session::new().say("the cheapest", &asking(mugs(), Asked::Choice))), "clarify mb, mw (reply, comparison)");
}

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

/// Every setting the properties start from asks what it says.
#[test]
fn every_setting_asks_what_it_says() {
    for asking in Asking::ALL {
        let (_, set, proposed) = asking.set_up();
        assert!(proposed.is_none_or(|id| set.candidates.iter().any(|c| c.id == id)), "{asking:?}");
    }
}

// ---------------------------------------------------------- properties --
//
// One per kind, each trying to make the reply execute what a person would
// not. Each counts the branch it checks (`Branches`): a property whose
// branch never ran fails.

const CASES: u32 = 256;

/// Plain yeses, each of which alone executes what was proposed.
const YESES: &[&str] = &[
    "yes",
    "yep",
    "yeah",
    "sure",
    "ok",
    "okay",
    "sounds good",
    "perfect",
    "yes please",
    "that works",
    "go ahead",
    "great",
    "sure, go ahead",
    "yep do it",
    "that's the one",
    "absolutely",
    "oui",
    "ja",
    "sí",
];

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
/// in words ("at seven pm"), executes it.
#[test]
fn a_value_in_words_that_differs_never_confirms() {
    let branches = Branches::default();
    let cases = (
        prop::sample::select(&PROPOSING[..]),
        one_of(YESES),
        one_of(&[" ", ", ", " but ", ". ", " - "]),
        changed_detail_in_words(),
        one_of(&["", " instead"]),
    );
    check_cases(CASES, file!(), &cases, |(asking, yes, join, detail, tail)| {
        let (s, set, _) = asking.set_up();
        let input = format!("{yes}{join}{detail}{tail}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?} came to {}", asking, input, said(&d));
        branches.hit("changed in words");
        if matches!(asking, Asking::AppConfirmation | Asking::PlainOne) {
            let (s, set, proposed) = asking.set_up();
            let same = s.say(&format!("{yes}{join}at seven pm"), &set);
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

/// Words of a position that are words of labels too.
const POSITION_WORDS: &[(&str, i32)] =
    &[("first", 1), ("second", 2), ("third", 3), ("last", -1), ("final", -1), ("top", 1), ("bottom", -1), ("middle", 0)];

const REPORT_NAMES: &[&str] = &["Budget", "Roadmap", "Minutes", "Agenda", "Invoice", "Forecast", "Summary"];

/// Position words: where the word of a position ("final" of
/// "the final one") is also a word of a label anywhere in it
/// ("report_final.pdf", "Budget report (final)"), the position and the
/// word name two options, and neither executes: on a plain screen, on the
/// app's "which one?" (`ASKED_CHOICE`) and on ladderd's. Over generated
/// screens of 3 to 5 reports, one or two of them holding the word, never
/// the one at the place the position names. Counted: both readings
/// offered, and the same position on the screen without the word, which
/// executes the option at that place.
#[test]
fn a_position_word_that_is_also_a_label_word_never_executes() {
    let branches = Branches::default();
    let cases = (
        prop::sample::select(POSITION_WORDS),
        (3usize..=5).prop_flat_map(|n| (Just(n), 0..n, prop::option::of(0..n))),
        one_of(&["{name} report {w}", "report_{w}_{name}.pdf", "{name} report ({w})", "{w} {name} report"]),
        one_of(&["the {w} one", "{w} one", "the {w}", "{w}", "the {w} report"]),
        0u8..3,
    );
    check_cases(CASES, file!(), &cases, |((w, n), (len, a, b), form, input, setting)| {
        let len = if n == 0 && len % 2 == 0 { len + 1 } else { len };
        let at = match n {
            0 => len / 2,
            n if n > 0 => (n - 1) as usize,
            n => len - n.unsigned_abs() as usize,
        };
        // The labels that hold the word: never the one at that place.
        let marked: Vec<usize> = [Some(a), b].into_iter().flatten().map(|k| if k % len == at { (at + 1) % len } else { k % len }).collect();
        let label = |k: usize, with: bool| {
            let name = REPORT_NAMES[k];
            if with { form.replace("{w}", w).replace("{name}", name) } else { format!("{name} report") }
        };
        let options = |with: bool| -> Vec<Candidate> {
            (0..len).map(|k| Candidate::new(format!("r{k}"), label(k, with && marked.contains(&k)))).collect()
        };
        let input = input.replace("{w}", w);
        let s = Session::new();
        let set = screen("reports", options(true));
        let set = match setting {
            0 => set,
            1 => asking(set, Asked::Choice),
            _ => {
                let d = s.say("report", &set);
                prop_assert_eq!(d.outcome, Outcome::Clarify, "{}", said(&d));
                set
            }
        };
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} ({}): {}", input, set.candidates, setting, said(&d));
        let offered = d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default();
        if offered.contains(&format!("r{at}")) && marked.iter().any(|k| offered.contains(&format!("r{k}"))) {
            branches.hit("both offered");
        }
        // Without the word in any label, the position executes its place.
        if input != w && !input.ends_with("report") {
            let s = Session::new();
            let plain = screen("plain", options(false));
            let plain = if setting == 1 { asking(plain, Asked::Choice) } else { plain };
            let d = s.say(&input, &plain);
            if d.target_id == Some(format!("r{at}")) {
                branches.hit("the position alone executes");
            }
        }
        Ok(())
    });
    branches.expect(&[("both offered", CASES as usize / 2), ("the position alone executes", CASES as usize / 4)]);
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

const LETTERS: &[&str] = &["D", "E", "F", "G", "H", "K"];

/// A screen of `k` "Links Panel X" options, and `others` options that
/// share no word with them, in the order `order`.
fn links_panels(k: usize, others: usize, order: &[usize]) -> OptionSet {
    const OTHERS: [&str; 3] = ["Sales Report", "Team Settings", "Statements"];
    let all: Vec<Candidate> = (0..k)
        .map(|i| Candidate::new(LETTERS[i].to_lowercase(), format!("Links Panel {}", LETTERS[i])))
        .chain((0..others).map(|i| Candidate::new(format!("other-{i}"), OTHERS[i])))
        .collect();
    let set = screen("links", all);
    reordered(&set, order)
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

/// A position said as people say it, and the 1-based place it names in
/// a list of `len` (None: out of range).
#[derive(Debug, Clone)]
enum Said {
    Nth(usize, u8),
    Last,
    SecondToLast,
}

impl Said {
    fn text(&self) -> String {
        const WORDS: [&str; 7] = ["", "first", "second", "third", "fourth", "fifth", "sixth"];
        const SUFFIX: [&str; 7] = ["", "st", "nd", "rd", "th", "th", "th"];
        match self {
            Said::Nth(j, 0) => format!("the {} one", WORDS[*j]),
            Said::Nth(j, 1) => WORDS[*j].to_string(),
            Said::Nth(j, 2) => format!("number {j}"),
            Said::Nth(j, 3) => format!("option {j}"),
            Said::Nth(j, 4) => format!("#{j}"),
            Said::Nth(j, _) => format!("the {j}{} one", SUFFIX[*j]),
            Said::Last => "the last one".into(),
            Said::SecondToLast => "second to last".into(),
        }
    }

    fn place(&self, len: usize) -> Option<usize> {
        match self {
            Said::Nth(j, _) => (*j <= len).then_some(*j),
            Said::Last => Some(len),
            Said::SecondToLast => (len >= 2).then(|| len - 1),
        }
    }
}

fn a_position() -> impl Strategy<Value = Said> {
    prop_oneof![4 => (1usize..=6, 0u8..6).prop_map(|(j, f)| Said::Nth(j, f)), 1 => Just(Said::Last), 1 => Just(Said::SecondToLast)]
}

/// Runs a position over ladderd's "which one?" (`links panel`), the
/// screen re-sent in the order `again`; checks it picks the option the
/// question and the screen both put at that place (the question's, when
/// the screen is shorter), asks when they put two options there, and
/// executes nothing out of the question's range.
fn a_position_after_which_one(set: &OptionSet, again: &[usize], position: &Said, branches: &Branches) -> Result<(), TestCaseError> {
    let s = Session::new();
    let first = s.say("links panel", set);
    prop_assert_eq!(first.outcome, Outcome::Clarify, "{}", said(&first));
    let question = first.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default();
    prop_assert!(question.len() >= 2, "{}", said(&first));
    let resent = reordered(set, again);
    let input = position.text();
    let d = s.say(&input, &resent);
    let on_screen: Vec<&str> = resent.candidates.iter().map(|c| c.id.as_str()).collect();
    let why = format!("question {question:?}, screen {on_screen:?}: {input:?} came to {}", said(&d));
    let by_screen = position.place(on_screen.len()).map(|k| on_screen[k - 1]);
    match position.place(question.len()) {
        Some(j) if by_screen.is_none_or(|s| s == question[j - 1]) => {
            prop_assert_eq!(d.outcome, Outcome::Execute, "{}", why);
            prop_assert_eq!(d.target_id.as_deref(), Some(question[j - 1].as_str()), "{}", why);
            branches.hit("executes the question's");
        }
        Some(j) => {
            prop_assert_eq!(d.outcome, Outcome::Clarify, "{}", why);
            let offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
            prop_assert!(offered.contains(&question[j - 1]) && by_screen.is_some_and(|s| offered.iter().any(|o| o == s)), "{}", why);
            branches.hit("the screen's is another: asked");
        }
        None => {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{}", why);
            branches.hit("out of range");
        }
    }
    Ok(())
}

/// Position: after ladderd's "which one?" over some of
/// the options shown, a position counts in the order the question listed
/// them, and is asked where the screen the app re-sends (random
/// permutations) puts another option at that place; out of the question's
/// range it executes nothing.
#[test]
fn a_position_counts_on_the_questions_list_never_on_a_reshuffled_screen() {
    let branches = Branches::default();
    let cases = (2usize..=4, 1usize..=3, a_position())
        .prop_flat_map(|(k, others, p)| (Just(k), Just(others), order(k + others), order(k + others), Just(p)));
    check_cases(CASES, file!(), &cases, |(k, others, first, again, position)| {
        let set = links_panels(k, others, &first);
        a_position_after_which_one(&set, &again, &position, &branches)
    });
    branches.expect(&[
        ("executes the question's", CASES as usize / 8),
        ("the screen's is another: asked", CASES as usize / 6),
        ("out of range", 8),
    ]);
}

/// The same, where the question offered every option and the app
/// re-sends exactly those in another order.
#[test]
fn a_position_counts_on_the_questions_list_when_the_screen_is_its_options_reshuffled() {
    let branches = Branches::default();
    let cases = (2usize..=5, a_position()).prop_flat_map(|(k, p)| (Just(k), order(k), order(k), Just(p)));
    check_cases(CASES, file!(), &cases, |(k, first, again, position)| {
        let set = links_panels(k, 0, &first);
        a_position_after_which_one(&set, &again, &position, &branches)
    });
    branches.expect(&[
        ("executes the question's", CASES as usize / 8),
        ("the screen's is another: asked", CASES as usize / 6),
        ("out of range", 8),
    ]);
}

/// What a comparison compares: the label the options share, how a value
/// is shown (by option), and the phrases that ask for the least or most.
#[derive(Debug, Clone, Copy)]
enum Dimension {
    Price,
    Clock,
    Duration,
}

impl Dimension {
    fn label(self) -> &'static str {
        match self {
            Dimension::Price => "Linen Shirt",
            Dimension::Clock => "Table for 2",
            Dimension::Duration => "Route",
        }
    }

    /// The sublabel of option `i` showing value `v` (a unit of 0 to 11).
    fn shown(self, i: usize, v: u32) -> String {
        const NAMES: [&str; 5] = ["Black", "White", "Blue", "Red", "Green"];
        match self {
            Dimension::Price => format!("{}, ${}", NAMES[i], 10 + 5 * v),
            Dimension::Clock => format!("{} room, Friday {}:{} pm", NAMES[i], 5 + v / 2, if v.is_multiple_of(2) { "00" } else { "30" }),
            Dimension::Duration => format!("{} road, {} min", NAMES[i], 10 + 5 * v),
        }
    }

    fn phrases(self, most: bool) -> &'static [&'static str] {
        match (self, most) {
            (Dimension::Price, false) => {
                &["the cheaper one", "the cheapest", "cheapest one please", "the least expensive one", "the lowest price"]
            }
            (Dimension::Price, true) => &["the most expensive", "the pricier one", "the priciest"],
            (Dimension::Clock, false) => &["the earliest", "the earliest one", "the earlier one", "the soonest"],
            (Dimension::Clock, true) => &["the latest one", "the latest"],
            (Dimension::Duration, false) => &["the shortest", "the quickest one", "the shorter one"],
            (Dimension::Duration, true) => &["the longest", "the longer one"],
        }
    }
}

/// A comparison over options with a tie at the extreme: the dimension,
/// most or least, the values (index = option), the options tied, the
/// phrase, who asked, and the order the screen comes in.
#[derive(Debug, Clone)]
struct Tied {
    dim: Dimension,
    most: bool,
    values: Vec<u32>,
    tied: Vec<usize>,
    phrase: String,
    asked_by: u8,
    order: Vec<usize>,
}

fn a_tie() -> impl Strategy<Value = Tied> {
    let dims = prop::sample::select(vec![Dimension::Price, Dimension::Clock, Dimension::Duration]);
    (dims, any::<bool>(), 2usize..=5, 0u8..3, any::<prop::sample::Index>())
        .prop_flat_map(|(dim, most, n, asked_by, phrase)| {
            let phrases = dim.phrases(most);
            let phrase = phrases[phrase.index(phrases.len())].to_string();
            // At least two options hold the extreme (1..=10, so one more
            // extreme stays in range); the rest are less extreme.
            (Just((dim, most, n, asked_by, phrase)), 2..=n, 1u32..=10, prop::collection::vec(1u32..=10, n), order(n))
        })
        .prop_map(|((dim, most, n, asked_by, phrase), ties, extreme, offsets, order)| {
            let values: Vec<u32> = (0..n)
                .map(|i| match (i < ties, most) {
                    (true, _) => extreme,
                    (false, true) => extreme.saturating_sub(offsets[i]).min(extreme - 1),
                    (false, false) => (extreme + offsets[i]).min(11).max(extreme + 1),
                })
                .collect();
            Tied { dim, most, values, tied: (0..ties).collect(), phrase, asked_by, order }
        })
}

impl Tied {
    fn set(&self, values: &[u32]) -> OptionSet {
        let all: Vec<Candidate> =
            values.iter().enumerate().map(|(i, v)| c(&format!("o{i}"), self.dim.label(), &self.dim.shown(i, *v))).collect();
        reordered(&screen("compared", all), &self.order)
    }

    /// The reply's decision over `values`: on the app's `ASKED_CHOICE`,
    /// after ladderd's "which one?" over them all, or on a plain screen.
    fn reply(&self, values: &[u32]) -> Decision {
        let set = self.set(values);
        let s = Session::new();
        match self.asked_by {
            0 => s.say(&self.phrase, &asking(set, Asked::Choice)),
            1 => {
                let first = s.say(self.dim.label(), &set);
                assert_eq!(first.clarifier.as_ref().map_or(0, |c| c.option_ids.len()), values.len(), "{}", said(&first));
                s.say(&self.phrase, &set)
            }
            _ => s.say(&self.phrase, &set),
        }
    }
}

/// Comparison: "the cheapest", "the earliest", "the
/// longest" over options two or more of which hold the extreme never
/// executes (asked again), on the app's "which one?", after ladderd's, or
/// on a plain screen; with the tie broken (one of them more extreme) it
/// picks that one. Both counted.
#[test]
fn a_comparison_over_a_tie_never_executes() {
    let branches = Branches::default();
    check_cases(CASES, file!(), &a_tie(), |t| {
        let d = t.reply(&t.values);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} came to {}", t, said(&d));
        if kind(&d) == Some("comparison") {
            branches.hit("asked again");
        }
        // The tie broken: the first tied option more extreme.
        let mut broken = t.values.clone();
        let winner = t.tied[0];
        broken[winner] = if t.most { broken[winner] + 1 } else { broken[winner] - 1 };
        let d = t.reply(&broken);
        if d.outcome == Outcome::Execute {
            prop_assert_eq!(d.target_id.clone(), Some(format!("o{winner}")), "{:?} broken {:?}: {}", t, broken, said(&d));
            branches.hit("the one extreme executes");
        }
        Ok(())
    });
    branches.expect(&[("asked again", CASES as usize * 3 / 4), ("the one extreme executes", CASES as usize * 3 / 4)]);
}

const DAYS: [&str; 3] = ["Friday", "Saturday", "Sunday"];

/// Detail: a day or an hour (or both) said of options
/// that show "Friday 7:00 pm" and the like picks an option only when it
/// is the one option that shows all it says; two or none showing it, it
/// executes nothing. After ladderd's "which one?", on the app's, or with
/// nothing asked ("the saturday one"). Counted: picks, and details two
/// or more options show.
#[test]
fn a_detail_picks_only_the_one_option_that_shows_it() {
    let branches = Branches::default();
    let options = prop::collection::vec((0usize..3, 5u32..=9), 2..=4);
    let said_of = (prop::option::of(0usize..3), prop::option::of(5u32..=9), 0u8..4)
        .prop_filter("says something", |(d, h, _)| d.is_some() || h.is_some());
    let cases = (options, said_of, 0u8..3);
    check_cases(CASES * 2, file!(), &cases, |(options, (day, hour, form), asked_by)| {
        let all: Vec<Candidate> =
            options.iter().enumerate().map(|(i, (d, h))| c(&format!("o{i}"), "Table for 2", &format!("{} {h}:00 pm", DAYS[*d]))).collect();
        let set = screen("tables", all);
        let day_word = day.map(|d| DAYS[d].to_lowercase());
        let input = match (&day_word, hour, form) {
            (Some(d), None, 0 | 1) => format!("the {d} one"),
            (Some(d), None, _) => d.clone(),
            (None, Some(h), 0) => format!("the {h}"),
            (None, Some(h), 1) => format!("the {h} pm one"),
            (None, Some(h), _) => format!("the one at {h} pm"),
            (Some(d), Some(h), 0 | 1) => format!("{d} at {h}"),
            (Some(d), Some(h), _) => format!("the {d} {h} pm one"),
            (None, None, _) => unreachable!(),
        };
        let fits: Vec<usize> =
            (0..options.len()).filter(|i| day.is_none_or(|d| options[*i].0 == d) && hour.is_none_or(|h| options[*i].1 == h)).collect();
        let s = Session::new();
        let d = match asked_by {
            0 => s.say(&input, &asking(set, Asked::Choice)),
            1 => {
                let first = s.say("table for 2", &set);
                prop_assert_eq!(first.clarifier.as_ref().map_or(0, |c| c.option_ids.len()), options.len(), "{}", said(&first));
                s.say(&input, &set)
            }
            _ => s.say(&input, &set),
        };
        let why = format!("{options:?} ({asked_by}): {input:?} came to {}", said(&d));
        match fits[..] {
            [one] => {
                if d.outcome == Outcome::Execute {
                    prop_assert_eq!(d.target_id.clone(), Some(format!("o{one}")), "{}", why);
                    branches.hit("picks the one");
                }
            }
            _ => {
                prop_assert_ne!(d.outcome, Outcome::Execute, "{}", why);
                if fits.len() > 1 {
                    branches.hit("two or more show it");
                }
            }
        }
        Ok(())
    });
    branches.expect(&[("picks the one", CASES as usize / 4), ("two or more show it", CASES as usize / 8)]);
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

// ------------------------------------------- what the properties found --
//
// The smallest inputs on which the properties above found the product
// executing what a person would not, each as an
// example: they fail until the product is fixed.

/// A bare hour is no weekday: "the 6" over Friday and Sunday tables at
/// 5:00 pm names neither (it picked Sunday, the sixth day counted from
/// Monday at 0); "saturday at 5" names no table at Saturday 6:00 pm.
#[test]
fn a_bare_hour_is_no_weekday() {
    let tables = |a: &str, b: &str| screen("tables", vec![c("o0", "Table for 2", a), c("o1", "Table for 2", b)]);
    for (set, input) in [
        (tables("Friday 5:00 pm", "Sunday 5:00 pm"), "the 6"),
        (tables("Friday 6:00 pm", "Saturday 6:00 pm"), "the 5"),
        (tables("Friday 5:00 pm", "Saturday 6:00 pm"), "saturday at 5"),
    ] {
        let d = Session::new().say(input, &asking(set.clone(), Asked::Choice));
        assert_ne!(d.outcome, Outcome::Execute, "the app's question, {input:?}: {}", said(&d));
        let s = Session::new();
        s.say("table for 2", &set);
        let d = s.say(input, &set);
        assert_ne!(d.outcome, Outcome::Execute, "ladderd's question, {input:?}: {}", said(&d));
    }
}

/// "The 1st one", "the 3rd one" answer ladderd's "which one?" in its
/// order like "the first one" does: never the re-sent screen's first
/// alone (an option the question never listed: both are asked), and out
/// of its range nothing.
#[test]
fn a_numbered_ordinal_counts_in_the_questions_order() {
    let s = Session::new();
    assert_eq!(said(&s.say("links panel", &panels())), "clarify d, e (fallback, -)");
    let d = s.say("the 1st one", &reordered(&panels(), &[2, 0, 1]));
    assert_eq!(said(&d), "clarify d, e (reply, position)");
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("the 1st one", &pair())), "execute d (reply, position)");
    let s = Session::new();
    s.say("links panel", &panels());
    let d = s.say("the 3rd one", &reordered(&panels(), &[2, 0, 1]));
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
}

/// The app re-sends exactly the options the question offered, in another
/// order: where the two orders put one option at that place it executes,
/// where two, both are asked.
#[test]
fn a_position_counts_in_the_questions_order_on_its_options_reshuffled() {
    let s = Session::new();
    assert_eq!(said(&s.say("table for 2", &times())), "clarify t6, t7, t8 (fallback, -)");
    let d = s.say("the second one", &reordered(&times(), &[2, 0, 1]));
    assert_eq!(said(&d), "clarify t7, t6 (reply, position)");
    let s = Session::new();
    s.say("table for 2", &times());
    assert_eq!(said(&s.say("the second one", &reordered(&times(), &[2, 1, 0]))), "execute t7 (reply, position)");
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

/// Answers to "which one?" and yeses in every language of
/// the lexicon (ordinals with gender, case and the Hebrew article joined
/// on; a detail; an affirmation), and a refusal.
#[test]
fn replies_in_every_lexicon_language() {
    let lamps = screen("lamps", vec![c("wz", "Lampe", "Wohnzimmer"), c("sz", "Lampe", "Schlafzimmer"), c("kue", "Lampe", "Küche")]);
    let citas = screen("citas", vec![c("a", "Cita médico", "lunes"), c("b", "Cita dentista", "martes"), c("c", "Cita banco", "miércoles")]);
    let reunions = screen("reunions", vec![c("a", "Réunion équipe", ""), c("b", "Réunion client", ""), c("c", "Réunion budget", "")]);
    let meetings = screen("meetings", vec![c("a", "פגישה עם דני", ""), c("b", "פגישה עם רותי", ""), c("c", "פגישה עם יוסי", "")]);
    let cases: &[(&str, &OptionSet, &str, &str)] = &[
        ("lampe", &lamps, "die im Wohnzimmer", "execute wz"),
        ("lampe", &lamps, "die zweite", "execute sz"),
        ("cita", &citas, "la segunda", "execute b"),
        ("cita", &citas, "la última", "execute c"),
        ("réunion", &reunions, "la deuxième", "execute b"),
        ("réunion", &reunions, "non", "escape declined"),
        ("פגישה", &meetings, "הראשונה", "execute a"),
        ("פגישה", &meetings, "האחרונה", "execute c"),
    ];
    for (first, set, reply, expect) in cases {
        let s = Session::new();
        let asked = s.say(first, set);
        assert_eq!(asked.outcome, Outcome::Clarify, "{first:?}: {}", said(&asked));
        let got = said(&s.say(reply, set));
        assert!(got.starts_with(expect), "{reply:?} after {first:?}: {got}");
    }
    // A yes to a confirmation of one option, in each language.
    let one = screen("one", vec![c("r", "Réunion client", "mardi")]);
    for yes in ["oui celle-là", "oui, vas-y", "sí, esa", "ja, genau", "כן בבקשה"] {
        assert_eq!(said(&Session::new().say(yes, &asking(one.clone(), Asked::Confirmation))), "execute r (reply, affirm)", "{yes:?}");
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

// Words of labels and replies alike: reply phrases ("not now", "go
// ahead", "never mind"), and words that are none.
const LABEL_WORDS: &[&str] = &[
    "yes", "no", "not", "now", "ok", "sure", "skip", "cancel", "stop", "that", "one", "the", "links", "panel", "go", "ahead", "forget",
    "it", "never", "mind", "thanks", "later",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whether a label or an alias says the reply is the same read through
    /// the pool's vocabulary (only the entries that have the reply's first
    /// word or a word that starts a reply phrase) as by a walk of every
    /// form of the pool.
    #[test]
    fn a_label_says_it_the_same_with_or_without_the_pools_vocabulary(
        labels in prop::collection::vec((prop::collection::vec(one_of(LABEL_WORDS), 1..4), prop::collection::vec(one_of(LABEL_WORDS), 0..3)), 1..8),
        words in prop::collection::vec(one_of(LABEL_WORDS), 1..5),
    ) {
        static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::defaults);
        let lex = &POLICY.lexicon;
        let candidates: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, (label, alias))| Candidate {
                aliases: if alias.is_empty() { Vec::new() } else { vec![alias.join(" ")] },
                ..Candidate::new(format!("c{i}"), label.join(" "))
            })
            .collect();
        let req = on(&words.join(" "), &screen("s", candidates));
        let crate::scope::Resolved::Pool(pool) = crate::scope::resolve(&req, None, false) else { panic!("a chat pool") };
        let stop = crate::cost::Deadline::default();
        let walked = crate::matching::CanonPool::build(&pool, lex, &stop).unwrap();
        let indexed = crate::matching::CanonPool::build(&pool, lex, &stop).unwrap();
        indexed.build_vocab(&stop).unwrap();
        let canonical = crate::canon::canonicalize(&req.input, lex);
        let state = crate::continuity::ContinuityState::default();
        let view: crate::continuity::StateView<'_> = (&state).into();
        let says = |canon| super::Context::new(&req, &view, &pool, canon, lex, &[], &canonical).a_label_says_it();
        prop_assert_eq!(says(&walked), says(&indexed), "{:?} over {:?}", canonical, labels);
    }
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

fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
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

/// What came before a position, in `a_position_on_a_long_screen_counts_where_the_user_was_shown_it`.
#[derive(Debug, Clone, Copy)]
enum Before {
    Nothing,
    /// A question of the user's own ("what is this?"): nothing asked.
    AQuestion,
    /// An execute of this option, by its label.
    Executed(usize),
    /// A "which one?" over the options sharing a word.
    Asked,
}

/// On generated screens of 2 to 60 options, after
/// any earlier turn, a position executes the option at that place in the
/// order the user was shown it (the question's, or the screen's when
/// nothing was asked; "and the 9th one" after an execute still counts on
/// the screen as sent), and nothing where the question's order and the
/// re-sent screen's disagree there, or out of range.
#[test]
fn a_position_on_a_long_screen_counts_where_the_user_was_shown_it() {
    const A: &[&str] = &["amber", "birch", "cedar", "delta", "ember", "fable", "grove", "harbor", "island", "juniper"];
    const B: &[&str] = &["lamp", "desk", "chair", "shelf", "table", "couch"];
    let branches = Branches::default();
    let forms = vec!["the {k} one", "number {n}", "#{n}", "and the {k} one", "{k}"];
    let cases = (2usize..=60).prop_flat_map(move |n| {
        let before = prop_oneof![
            1 => Just(Before::Nothing),
            1 => Just(Before::AQuestion),
            2 => (0..n).prop_map(Before::Executed),
            1 => Just(Before::Asked),
        ];
        (Just(n), before, 1..=n + 2, prop::sample::select(forms.clone()))
    });
    check_cases(CASES, file!(), &cases, |(n, before, k, form)| {
        let cands: Vec<Candidate> =
            (0..n).map(|i| c(&format!("o{i}"), &format!("{} {}", capitalized(A[i % A.len()]), B[i / A.len()]), "")).collect();
        let set = screen("grid", cands);
        let s = Session::new();
        let ordinal = match k % 10 {
            1 if k % 100 != 11 => "st",
            2 if k % 100 != 12 => "nd",
            3 if k % 100 != 13 => "rd",
            _ => "th",
        };
        let input = form.replace("{k}", &format!("{k}{ordinal}")).replace("{n}", &k.to_string());
        let screen_k = (k <= n).then(|| format!("o{}", k - 1));
        let want: Option<String> = match before {
            Before::Nothing => screen_k,
            Before::AQuestion => {
                s.say("what is this?", &set);
                screen_k
            }
            Before::Executed(j) if j < n => {
                let first = s.say(&set.candidates[j].label.to_lowercase(), &set);
                prop_assert_eq!(first.target_id.clone(), Some(format!("o{j}")), "{}", said(&first));
                if input.starts_with("and ") { screen_k.filter(|t| *t != format!("o{j}")) } else { screen_k }
            }
            Before::Executed(_) => screen_k,
            Before::Asked => {
                let first = s.say(B[0], &set);
                let question = first.clarifier.map(|c| c.option_ids).unwrap_or_default();
                match (question.get(k - 1), &screen_k) {
                    _ if question.len() < 2 => screen_k,
                    (Some(q), Some(on)) if q != on => None,
                    (Some(q), _) => Some(q.clone()),
                    (None, _) => None,
                }
            }
        };
        let d = s.say(&input, &set);
        let why = format!("{before:?} on {n} options: {input:?} came to {}", said(&d));
        match want {
            Some(t) => {
                prop_assert_eq!(d.target_id.as_deref(), Some(t.as_str()), "{}", why);
                branches.hit("executes the place shown");
            }
            None => {
                prop_assert_ne!(d.outcome, Outcome::Execute, "{}", why);
                branches.hit("executes nothing");
            }
        }
        if matches!(before, Before::Executed(j) if j < n && input.starts_with("and ") && k <= n && k - 1 != j) {
            branches.hit("after an execute, on the screen as sent");
        }
        Ok(())
    });
    branches.expect(&[("executes the place shown", 60), ("executes nothing", 30), ("after an execute, on the screen as sent", 5)]);
}
