use super::super::tests::{find_on, labelled, panels};
use super::*;
use crate::types::Candidate;

#[test]
fn explicit_badge_wins_over_derived() {
    let mut c = vec![Candidate::new("x", "Revenue chart")];
    c[0].badge = "R".into();
    let (_, ids) = find_on("chart r", &c, &[]);
    assert_eq!(ids, ["x:badge"]);
}

#[test]
fn a_badge_after_another_word_needs_that_word_in_its_label() {
    let (_, ids) = find_on("sales d", &panels(), &[]);
    assert!(ids.is_empty(), "{ids:?}");
}

#[test]
fn a_number_a_label_contains_is_that_label_word_not_a_position() {
    let shoes = labelled(&["Running Shoe 42", "Running Shoe 43", "Running Shoe 44"]);
    let (m, ids) = find_on("44", &shoes, &[]);
    assert_eq!(ids, ["c2:badge"]);
    assert!(!m.reading.out_of_range);
    let (m, ids) = find_on("the 43", &shoes, &[]);
    assert_eq!((ids, m.reading.out_of_range), (vec!["c1:badge".to_string()], false));
}

#[test]
fn ordinal_table() {
    let lex = Lexicon::shipped();
    let table = [
        ("first", Some(1)),
        ("second one", Some(2)),
        ("3rd option", Some(3)),
        ("25th", Some(25)),
        ("21st", Some(21)),
        ("22th", None),
        ("number 4", Some(4)),
        ("option two", Some(2)),
        ("two", None),
        ("last one", Some(-1)),
        ("second to last", Some(-2)),
        ("2nd to last", Some(-2)),
        ("3rd from the end", Some(-3)),
        ("middle", Some(0)),
        ("0", None),
        ("second panel", None),
        ("12345", None),
    ];
    for (input, want) in table {
        assert_eq!(parse_ordinal(input, &lex), want, "input {input:?}");
    }
}

/// A number or ordinal that is a quantity or a date
/// never chooses a position.
#[test]
fn a_quantity_or_a_date_is_no_position() {
    let cands = labelled(&["Reserve: Sino", "Reserve: Aatxe", "Reserve: Golden Wok"]);
    for input in [
        "1 ticket",
        "i just want 1 tickets",
        "2 people",
        "on the 1st",
        "the 3rd of march",
        "march 2nd",
        "a second card",
        "actually i would like to visit on the 1st",
    ] {
        let (m, _) = find_on(input, &cands, &[]);
        assert!(!m.hits.iter().any(|h| h.kind == MatchKind::Ordinal), "{input:?}: {:?}", m.hits);
    }
    for (input, n) in [("the 2nd one", 1), ("number 2", 1), ("2", 1), ("the first one", 0), ("option 3", 2)] {
        let (m, _) = find_on(input, &cands, &[]);
        assert!(m.hits.iter().any(|h| h.kind == MatchKind::Ordinal && h.entry == n), "{input:?}: {:?}", m.hits);
    }
}

/// A turn on a chat screen of `cands` through the whole ladder: the id it
/// executes, if any.
fn executes(input: &str, cands: &[Candidate]) -> Option<String> {
    let req = super::super::tests::request(input, cands);
    let d = crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &req).decision;
    (d.outcome == crate::types::Outcome::Execute).then(|| d.target_id.unwrap_or_default())
}

#[test]
fn a_value_is_no_position() {
    for (raw, want) in [
        ("roll out 2.7", vec!["2", "7"]),
        ("open invoice 3.2", vec!["3", "2"]),
        ("pay $2.50", vec!["2", "50"]),
        ("pay 2,50 €", vec!["2", "50"]),
        ("v2 please", vec!["2"]),
        ("20 EUR", vec!["20"]),
        ("50% off", vec!["50"]),
        ("1,500 points", vec!["1", "500"]),
        ("the 2nd one", vec![]),
        ("option 2", vec![]),
        ("rev2", vec![]),
        ("2. yes", vec![]),
        ("2é", vec![]),
        ("2€", vec!["2"]),
        ("2 usdt", vec![]),
    ] {
        assert_eq!(value_digits(raw), want, "{raw:?}");
    }
    let cands = labelled(&["Roll out to EU", "Roll out to US", "Roll back"]);
    for input in ["roll out 2.7", "roll out v2", "the $2 one", "3.1", "option 2.5", "#2.1"] {
        let (m, _) = find_on(input, &cands, &[]);
        assert!(!m.hits.iter().any(|h| matches!(h.kind, MatchKind::Ordinal | MatchKind::Badge)), "{input:?}: {:?}", m.hits);
    }
}

/// A number with a decimal point, a version or a
/// currency is a value, never a position, and a value two options share
/// tells nothing apart. Over generated screens of 2 to 60 options whose
/// labels say no number, and inputs that hold such a number (alone, after
/// a verb, with a list noun), nothing executes; the same inputs without
/// the value's mark ("the 2nd one") do execute the option at that place
/// (counted, so the property is not vacuous). And two options that show
/// the same value are never told apart by it.
#[test]
fn a_decimal_a_version_or_a_price_never_chooses_a_position() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    const WORDS: &[&str] = &["alpha", "bravo", "delta", "echo", "kilo", "lima", "oscar", "romeo", "sierra", "tango"];
    let strategy = (
        2usize..=60,
        1u32..=9,
        0u32..=99,
        prop::sample::select(vec!["{n}.{m}", "v{n}", "v{n}.{m}", "${n}", "${n}.{m}", "{n}.{m} €", "{n} eur", "{n}%"]),
        prop::sample::select(vec!["", "open ", "pick ", "the "]),
        prop::sample::select(vec!["", " one", " please"]),
    );
    let (tried, plain) = (Cell::new(0), Cell::new(0));
    let mut runner = TestRunner::new(Config { cases: crate::testkit::cases(128), ..Config::default() });
    runner
        .run(&strategy, |(len, n, m, form, lead, tail)| {
            let labels: Vec<String> =
                (0..len).map(|k| format!("{} {}", WORDS[k % WORDS.len()], WORDS[(k / WORDS.len()) % WORDS.len()])).collect();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(k, l)| Candidate::new(format!("c{k}"), l.as_str())).collect();
            let value = form.replace("{n}", &n.to_string()).replace("{m}", &m.to_string());
            let input = format!("{lead}{value}{tail}");
            tried.set(tried.get() + 1);
            prop_assert_eq!(executes(&input, &cands), None, "{:?} chose a position of {}", input, len);
            if (n as usize) <= len && executes(&format!("{lead}{}{tail}", ordinal_word(n)), &cands) == Some(format!("c{}", n - 1)) {
                plain.set(plain.get() + 1);
            }
            // A value two options show tells them apart by nothing.
            let shared = vec![
                Candidate::new("a", format!("Pay {value} now")),
                Candidate::new("b", format!("Pay {value} later")),
                Candidate::new("c", "Settings"),
            ];
            prop_assert_eq!(executes(&format!("pay {value}"), &shared), None, "pay {:?}", value);
            Ok(())
        })
        .unwrap();
    assert!(plain.get() * 3 >= tried.get(), "the plain position executed {} of {}", plain.get(), tried.get());
}

fn ordinal_word(n: u32) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// An ordinal that opens a label ("21st Century
/// Breakdown") and names another option's place ("the 21st one") is read
/// both ways: both are offered, neither executes. Said whole, the label
/// executes; where the ordinal's place is the label's own, it executes.
#[test]
fn an_ordinal_that_opens_a_label_is_read_both_ways() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let strategy = (22usize..=40, 0usize..20, prop::sample::select(vec!["the 21st one", "play the 21st one", "21st", "the 21st"]));
    let mut runner = TestRunner::new(Config { cases: crate::testkit::cases(64), ..Config::default() });
    runner
        .run(&strategy, |(len, at, input)| {
            let mut cands: Vec<Candidate> = (0..len).map(|k| Candidate::new(format!("c{k}"), format!("Album {}", k + 1))).collect();
            cands[at] = Candidate::new(format!("c{at}"), "21st Century Breakdown");
            let req = super::super::tests::request(input, &cands);
            let d = crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &req).decision;
            prop_assert_eq!(d.outcome, crate::types::Outcome::Clarify, "{:?} with the label at {}", input, at + 1);
            let offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
            prop_assert!(offered.contains(&format!("c{at}")) && offered.contains(&"c20".to_string()), "{:?} offered {:?}", input, offered);
            prop_assert_eq!(executes("21st century breakdown", &cands), Some(format!("c{at}")));
            Ok(())
        })
        .unwrap();
    let mut cands: Vec<Candidate> = (0..25).map(|k| Candidate::new(format!("c{k}"), format!("Album {}", k + 1))).collect();
    cands[20] = Candidate::new("c20", "21st Century Breakdown");
    assert_eq!(executes("the 21st one", &cands).as_deref(), Some("c20"));
}
