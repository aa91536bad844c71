//! The position room end to end: a position counts in the order the
//! question listed, never on a reshuffled screen.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

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

/// "final" after ladderd's "which one?" over three files, the screen now
/// two of them: whatever place the question gave the final one, the word
/// and the screen's reading name the same file, which executes. Where
/// both files say it, both are asked.
#[test]
fn a_position_word_that_one_reading_alone_shows_executes_it() {
    let three = screen(
        "three",
        vec![c("v2", "Q3_budget_v2.xlsx", ""), c("fin", "Q3_budget_FINAL.xlsx", ""), c("notes", "Q3_budget_notes.docx", "")],
    );
    let two = screen("two", vec![c("v2", "Q3_budget_v2.xlsx", ""), c("fin", "Q3_budget_FINAL.xlsx", "")]);
    let s = Session::new();
    assert_eq!(s.say("q3 budget", &three).outcome, Outcome::Clarify);
    assert_eq!(said(&s.say("final", &two)), "execute fin (reply, position)");
    let both = screen("both", vec![c("v2", "Q3 budget v2 final.xlsx", ""), c("fin", "Q3_budget_FINAL.xlsx", "")]);
    let s = Session::new();
    s.say("q3 budget", &three);
    let d = s.say("final", &both);
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
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

/// The same place said one way and shown another: an ordinal in another
/// form ("el primero" with "Primer plato", "the second" with "2nd
/// floor"), or a number a code starts with ("room 3" with "Room 3B").
const PLACES_SHOWN_OTHERWISE: &[(&str, &str, i32)] = &[
    ("el primero", "Primer {name}", 1),
    ("la primera", "{name} primer turno", 1),
    ("el tercero", "Tercer {name}", 3),
    ("the second one", "2nd {name}", 2),
    ("the first", "{name} 1st", 1),
    ("3", "Room 3B {name}", 3),
    ("room 2", "Room 2A {name}", 2),
    ("2", "{name} 2C", 2),
];

/// A place said one way that a label shows another way (an ordinal in
/// another form, a code that starts with the number) names two options:
/// the one at that place and the one that shows it, and the place alone
/// never executes (a code may be read as the code it starts), on a plain
/// screen, on the app's "which one?" and on ladderd's. Over
/// generated screens of 3 to 5 options, one of them showing the place,
/// never the one at it. Counted: both readings offered.
#[test]
fn a_place_a_label_shows_another_way_never_executes() {
    let branches = Branches::default();
    let cases = (prop::sample::select(PLACES_SHOWN_OTHERWISE), (3usize..=5).prop_flat_map(|n| (Just(n), 0..n)), 0u8..3);
    check_cases(CASES, file!(), &cases, |((input, shown, n), (len, k), setting)| {
        let at = (n - 1) as usize;
        let marked = if k == at { (at + 1) % len } else { k };
        let options: Vec<Candidate> = (0..len)
            .map(|k| {
                let name = REPORT_NAMES[k];
                // Every label says "room", so ladderd's "which one?" over
                // "room" lists them all.
                let label = if k == marked { format!("{} room", shown.replace("{name}", name)) } else { format!("{name} room") };
                Candidate::new(format!("r{k}"), label)
            })
            .collect();
        let s = Session::new();
        let set = screen("rooms", options);
        let set = match setting {
            0 => set,
            1 => asking(set, Asked::Choice),
            _ => {
                let d = s.say("room", &set);
                if d.outcome != Outcome::Clarify {
                    return Ok(());
                }
                set
            }
        };
        let d = s.say(input, &set);
        // A number a code shows may be read as that code ("room 2" for
        // "Room 2A", as "8a" is the 8A shown); never as the place alone.
        let code = input.bytes().any(|b| b.is_ascii_digit());
        let read_as_the_code = code && d.target_id == Some(format!("r{marked}"));
        prop_assert!(
            d.outcome != Outcome::Execute || read_as_the_code,
            "{:?} over {:?} ({}): {}",
            input,
            set.candidates,
            setting,
            said(&d)
        );
        let offered = d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default();
        if offered.contains(&format!("r{at}")) && offered.contains(&format!("r{marked}")) {
            branches.hit("both offered");
        }
        Ok(())
    });
    branches.expect(&[("both offered", CASES as usize / 2)]);
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

/// An ordinal word the next word goes on with as an option's sublabel
/// does ("send it to second street" with "Home · 12 Second Street") is
/// those words, not a place in the list: over generated screens of 3 to 5
/// addresses, one of whose sublabels says the ordinal and its street
/// word, the option at the ordinal's place is never executed unless it is
/// that one. Counted: the same ordinal alone ("the second one")
/// executes its place.
#[test]
fn an_ordinal_an_option_shows_with_the_next_word_is_no_place() {
    const STREETS: &[&str] = &["Street", "Avenue", "Road", "Floor", "Row", "Lane"];
    const NAMES: &[&str] = &["Home", "Office", "Gym", "Mom", "Studio"];
    let branches = Branches::default();
    let cases = (
        prop::sample::select(&POSITION_WORDS[..3]),
        (3usize..=5).prop_flat_map(|n| (Just(n), 0..n)),
        prop::sample::select(STREETS),
        one_of(&["send it to {w} {s}", "{w} {s}", "the {w} {s} one", "ship to {w} {s} please"]),
        any::<bool>(),
    );
    check_cases(CASES, file!(), &cases, |((w, n), (len, holder), street, input, asked)| {
        let at = (n - 1) as usize;
        let options: Vec<Candidate> = (0..len)
            .map(|k| {
                let sublabel = if k == holder {
                    format!("12 {} {street}, Apt 4", w[..1].to_uppercase() + &w[1..])
                } else {
                    format!("{} Main {street}", 100 + k)
                };
                Candidate { sublabel, ..Candidate::new(format!("a{k}"), NAMES[k]) }
            })
            .collect();
        let set = screen("addresses", options);
        let set = if asked { asking(set, Asked::Choice) } else { set };
        let input = input.replace("{w}", w).replace("{s}", &street.to_lowercase());
        let d = Session::new().say(&input, &set);
        let place = format!("a{at}");
        if at != holder {
            prop_assert_ne!(d.target_id.as_deref(), Some(place.as_str()), "{:?} over {:?}: {}", input, set.candidates, said(&d));
        }
        if Session::new().say(&format!("the {w} one"), &set).target_id.as_deref() == Some(place.as_str()) {
            branches.hit("the ordinal alone: its place");
        }
        Ok(())
    });
    branches.expect(&[("the ordinal alone: its place", CASES as usize / 2)]);
}
