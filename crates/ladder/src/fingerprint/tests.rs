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
