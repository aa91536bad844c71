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

/// Spec section 4c: a number or ordinal that is a quantity or a date
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
