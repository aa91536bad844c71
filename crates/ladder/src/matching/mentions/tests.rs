use super::super::tests::{find_on, find_with, labelled, panels};
use super::*;
use crate::types::Candidate;

#[test]
fn the_longest_whole_label_is_the_one_named() {
    let phones = labelled(&["iPhone 15", "iPhone 15 Pro", "iPhone 15 Pro Max"]);
    let (_, ids) = find_on("iphone 15 pro max", &phones, &[]);
    assert_eq!(ids, ["c2:exact"]);
    let (_, ids) = find_on("show me the iphone 15 pro please", &phones, &[]);
    assert_eq!(ids, ["c1:normalized"]);
    let off = MatchParams { longest_label: false, ..MatchParams::default() };
    let (_, ids) = find_with("iphone 15 pro max", &phones, &[], off);
    assert_eq!(ids.len(), 3, "without the rule every contained label is a referent: {ids:?}");
    // Two candidates with the same label are both named.
    let (_, ids) = find_on("panel d", &labelled(&["Panel D", "Panel D"]), &[]);
    assert_eq!(ids, ["c0:exact", "c1:exact"]);
}

#[test]
fn structure_words_are_read() {
    let (m, _) = find_on("not the first one", &panels(), &[]);
    assert!(m.reading.negation && m.reading.named.is_empty());
    assert_eq!(m.reading.negated, [0]);
    let (m, ids) = find_on("the one after panel d", &panels(), &[]);
    assert_eq!((m.reading.relation, ids), (Some(Relation::After), vec!["d:badge".to_string()]));
    let (m, _) = find_on("the one before last", &panels(), &[]);
    assert_eq!(m.reading.relation, None, "a plain position relates nothing");
    let (m, _) = find_on("both", &panels(), &[]);
    assert!(m.reading.plural);
    let (m, _) = find_on("the fifth one", &panels(), &[]);
    assert!(m.reading.out_of_range);
    let (m, _) = find_on("the middle one", &panels()[..2], &[]);
    assert!(m.reading.out_of_range, "no middle in an even count");
    let (m, ids) = find_on("no 2", &panels(), &[]);
    assert_eq!((m.reading.negation, ids), (false, vec!["d:ordinal".to_string()]), "\"no 2\" is number two");
}

#[test]
fn aliases_match_like_labels() {
    let mut c = panels();
    c[0].aliases.push("all the links".into());
    let (_, ids) = find_on("all links", &c, &[]);
    assert_eq!(ids, ["p:alias"]);
}

/// The definition the fast path must agree with.
mod reference {
    pub fn eq_case_insensitive(a: &str, b: &str) -> bool {
        if a.is_ascii() && b.is_ascii() { a.eq_ignore_ascii_case(b) } else { a.to_lowercase() == b.to_lowercase() }
    }
}

proptest::proptest! {
    #[test]
    fn raw_input_equals_labels_as_eq_case_insensitive_does(raw in "\\PC{0,8}", label in "(\\PC|\u{212A}|K| ){0,8}") {
        let raw = raw.trim();
        proptest::prop_assert_eq!(RawInput::new(raw).eq_label(&label, label.is_ascii()), reference::eq_case_insensitive(raw, label.trim()));
    }

    /// Words a label contains, spelled apart in the input, name it;
    /// joined they name it too when `joined_words` is on, and only then.
    #[test]
    fn joined_words_name_a_label_only_when_allowed(words in proptest::collection::vec("[a-z]{3,6}", 2..4)) {
        let label = words.join(" ");
        let cands = vec![Candidate::new("x", label.clone()), Candidate::new("y", "zzzz qqqq")];
        let joined = words.concat();
        let (_, on) = find_with(&joined, &cands, &[], MatchParams::default());
        let (_, off) = find_with(&joined, &cands, &[], MatchParams { joined_words: false, ..MatchParams::default() });
        let lex = Lexicon::shipped();
        proptest::prop_assume!(words.iter().all(|w| !lex.filler.starts_with(w)));
        proptest::prop_assert_eq!(on, vec!["x:normalized".to_string()]);
        proptest::prop_assert!(off.is_empty());
    }
}
