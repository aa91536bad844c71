//! Golden vectors: `tests/golden/fingerprints.json` pins the fingerprint of
//! a base evidence set and of variants that each change one listed field.
//! The same evidence must give the same fingerprint in every run and every
//! build; each field must change it; order and volatile fields must not.

use super::*;
use crate::types::{Candidate, Scope, ScopeRef};
use serde::Deserialize;

const GOLDEN: &str = include_str!("../../../../tests/golden/fingerprints.json");

#[derive(Deserialize)]
struct Golden {
    schema: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    /// "same" when the variant must keep the base fingerprint.
    expect: String,
    scope: Option<ScopeRef>,
    option_set_id: String,
    candidates: Vec<Candidate>,
    excerpts: Vec<String>,
    fingerprint: String,
}

fn fp(c: &Case) -> String {
    fingerprint(c.scope.as_ref(), &c.option_set_id, &c.candidates, &c.excerpts)
}

#[test]
fn golden_vectors_hold() {
    let g: Golden = serde_json::from_str(GOLDEN).unwrap();
    assert_eq!(g.schema, SCHEMA);
    let base = g.cases.iter().find(|c| c.name == "base").expect("a base case");
    let base_fp = fp(base);
    for c in &g.cases {
        let got = fp(c);
        assert_eq!(got, c.fingerprint, "case {:?} drifted from its golden value", c.name);
        match c.expect.as_str() {
            "same" => assert_eq!(got, base_fp, "case {:?} must not change the fingerprint", c.name),
            "changed" => assert_ne!(got, base_fp, "case {:?} must change the fingerprint", c.name),
            "base" => {}
            other => panic!("unknown expectation {other}"),
        }
    }
}

#[test]
fn fingerprint_is_a_sha256_of_the_canonical_json() {
    let c = [Candidate::new("a", "Links Panel D")];
    let s = ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() };
    let json = canonical_json(Some(&s), "set-1", &c, &[]);
    assert_eq!(
        json,
        r#"{"candidate_ids":["a"],"candidates":[{"badge":"","id":"a","kind":"","label":"links panel d","path":"","sublabel":""}],"excerpt_hashes":[],"option_set_id":"set-1","schema":"ladder.evidence.v1","scope":{"instance_id":"chat-1","scope":"chat"}}"#
    );
    assert_eq!(fingerprint(Some(&s), "set-1", &c, &[]), hex::encode(Sha256::digest(json.as_bytes())));
}

proptest::proptest! {
    #[test]
    fn strings_are_written_as_serde_json_writes_them(v in "(\\PC|[\\x00-\\x1f\"\\\\\\x7f])*") {
        let mut out = Vec::new();
        super::json_str(&mut out, &v).unwrap();
        proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&v).unwrap());
    }

    /// The streamed JSON is exactly what a JSON library prints for the same
    /// document with sorted keys, whatever the strings hold.
    #[test]
    fn streamed_json_equals_a_json_librarys_sorted_compact_form(
        ids in proptest::collection::vec("\\PC{0,8}", 0..6),
        label in "\\PC{0,12}",
        set in "[\"\\\\a-z]{0,6}",
        excerpt in "\\PC{0,10}",
    ) {
        let cands: Vec<Candidate> = ids.iter().map(|id| Candidate { id: id.clone(), label: label.clone(), kind: "k\"\\".into(), ..Default::default() }).collect();
        let scope = ScopeRef { scope: Scope::Widget, instance_id: "w\n1".into() };
        let text = canonical_json(Some(&scope), &set, &cands, &[excerpt]);
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        proptest::prop_assert_eq!(serde_json::to_string(&parsed).unwrap(), text);
    }
}

proptest::proptest! {
    /// The memo's fingerprint is the fingerprint: for a pool seen the first
    /// time, for the same pool again with other excerpts and option set, and
    /// for a pool that differs from a kept one in any one signature field.
    #[test]
    fn the_memo_never_changes_a_fingerprint(
        pool in proptest::collection::vec(("[a-c]{1,2}", "[a-c ]{0,4}", "[a-c]{0,2}", "[a-c]{0,2}", "[a-c]{0,2}", "[a-c]{0,2}"), 1..8),
        field in 0usize..6,
        at in 0usize..8,
        excerpts in proptest::collection::vec("[a-z]{0,3}", 0..3),
    ) {
        let cands: Vec<Candidate> = pool.iter().map(|(id, label, badge, kind, path, sublabel)| Candidate {
            id: id.clone(), label: label.clone(), badge: badge.clone(), kind: kind.clone(), path: path.clone(), sublabel: sublabel.clone(), ..Default::default()
        }).collect();
        let mut other = cands.clone();
        let c = &mut other[at % cands.len()];
        [&mut c.id, &mut c.badge, &mut c.kind, &mut c.label, &mut c.path, &mut c.sublabel][field].push('z');
        let scope = ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() };
        let memo = FingerprintMemo::new(1 << 20);
        fn refs(c: &[Candidate]) -> Vec<&Candidate> {
            c.iter().collect()
        }
        for (set, ex) in [("s1", &[][..]), ("s2", &excerpts[..]), ("s1", &excerpts[..])] {
            proptest::prop_assert_eq!(memo.fingerprint(Some(&scope), set, &refs(&cands), ex), fingerprint(Some(&scope), set, &cands, ex));
            proptest::prop_assert_eq!(memo.fingerprint(Some(&scope), set, &refs(&other), ex), fingerprint(Some(&scope), set, &other, ex));
        }
        proptest::prop_assert_eq!(memo.held().0, 2);
    }
}

/// The memo keeps to its budget: the oldest pools go first, and a pool
/// over an eighth of it is never kept.
#[test]
fn the_memo_keeps_to_its_budget() {
    let memo = FingerprintMemo::new(16 << 10);
    let pool =
        |n: usize, tag: usize| -> Vec<Candidate> { (0..n).map(|i| Candidate::new(format!("c{tag}-{i}"), "links panel d")).collect() };
    for tag in 0..40 {
        let cands = pool(20, tag);
        let refs: Vec<&Candidate> = cands.iter().collect();
        assert_eq!(memo.fingerprint(None, "s", &refs, &[]), fingerprint(None, "s", &cands, &[]));
        let (states, bytes) = memo.held();
        assert!(bytes <= 16 << 10, "{bytes} bytes held");
        assert!(states >= 1, "a pool under an eighth of the budget is kept");
    }
    assert!(memo.held().0 < 40, "the oldest pools were evicted");
    let big = pool(200, 99);
    let refs: Vec<&Candidate> = big.iter().collect();
    let before = memo.held();
    assert_eq!(memo.fingerprint(None, "s", &refs, &[]), fingerprint(None, "s", &big, &[]));
    assert_eq!(memo.held(), before, "a pool over an eighth of the budget is not kept");
}

proptest::proptest! {
    /// A candidate's normalized fields made apart (`Signed`, what the label
    /// memo keeps) write the same document as those made in place: the
    /// same fingerprint, for any text (quotes, backslashes, control
    /// characters, accents), some candidates with them and some without.
    #[test]
    fn normalized_fields_made_apart_give_the_same_fingerprint(
        cands in proptest::collection::vec(("[a-c]{1,2}", "\\PC{0,12}", "(|\"|\\\\|\u{1}|é|Q2)", "\\PC{0,6}", "(|k)"), 0..6),
        given in proptest::collection::vec(proptest::bool::ANY, 6),
    ) {
        let cands: Vec<Candidate> = cands
            .into_iter()
            .map(|(id, label, badge, sublabel, kind)| Candidate { badge, sublabel, kind, ..Candidate::new(id, label) })
            .collect();
        let signed: Vec<Signed> = cands.iter().map(Signed::of).collect();
        let with = pool_state(cands.iter().zip(&signed).zip(&given).map(|((c, s), g)| (c, g.then_some(s))));
        let want = fingerprint(None, "set", &cands, &[]);
        proptest::prop_assert_eq!(finish(&with, None, "set", &[]), want);
    }
}
