use super::super::tests::{find_on, panels, pool, request};
use super::super::{MatchParams, Query, Rules, find};
use super::*;
use crate::canon::canonicalize;
use crate::lexicon::Lexicon;
use crate::types::Candidate;

#[test]
fn fuzzy_ranks_entries_only_when_nothing_stronger_matched() {
    let (m, _) = find_on("xqzv wrtp", &panels(), &[]);
    assert_eq!(m.fuzzy.as_ref().map(Vec::len), Some(3));
    let (m, _) = find_on("links panel d", &panels(), &[]);
    assert!(m.fuzzy.is_none());
}

proptest::proptest! {
    /// The fuzzy rung skips similarities it cannot use; its hits and
    /// ranking must be those of scoring every entry in full.
    #[test]
    fn fuzzy_ranking_equals_scoring_every_entry(
        input in "(lnks|panle|sles|reprot|dd|ee|qq|2o24| ){1,6}",
        labels in proptest::collection::vec(("(links|panel|sales|report|dashboard|d|e|q|2024| ){0,5}", proptest::collection::vec("(links|panel|sales|rep|d| ){0,3}", 0..2)), 0..40),
        ranked in 0usize..8,
        min in 0.0f32..1.0,
    ) {
        let lex = Lexicon::shipped();
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, (l, a))| Candidate { aliases: a.clone(), ..Candidate::new(format!("c{i}"), l.clone()) }).collect();
        let q = Query::new(canonicalize(&input, &lex), &lex);
        let p = pool(&cands);
        let params = MatchParams { fuzzy_min_similarity: min, ..MatchParams::default() };
        let index = CanonPool::build(&p, &lex, &DeadlineWatch::default()).unwrap();
        let m = find(&input, &q, &p, &index, &[], Rules { lex: &lex, params: &params, ranked, stop: &DeadlineWatch::default() }).unwrap();
        proptest::prop_assume!(m.fuzzy.is_some());

        let sim = |s: &str| rapidfuzz::distance::levenshtein::normalized_similarity(q.core.chars(), canonicalize(s, &lex).chars()) as f32;
        let scores: Vec<f32> = cands.iter().map(|c| c.aliases.iter().fold(sim(&c.label), |acc, a| acc.max(sim(a)))).collect();
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b)));
        let want_hits: Vec<(usize, f32)> = order.iter().filter(|i| scores[**i] >= min).map(|i| (*i, scores[*i])).collect();
        let got_hits: Vec<(usize, f32)> = m.hits.iter().filter(|h| h.kind == MatchKind::Fuzzy).map(|h| (h.entry, h.score)).collect();
        proptest::prop_assert_eq!(got_hits, want_hits);
        order.truncate(ranked);
        proptest::prop_assert_eq!(m.fuzzy.unwrap(), order);
    }

    /// The cheap filters of `near_words` never drop a word within
    /// the bound.
    #[test]
    fn near_words_are_every_word_within_the_bound(t in "[a-z]{2,8}", labels in proptest::collection::vec("[a-z]{1,9}( [a-z]{1,9}){0,2}", 1..20), bound in 0usize..3) {
        let lex = Lexicon::shipped();
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.clone())).collect();
        let mut canon = CanonPool::with_capacity(&pool(&cands));
        for c in &cands {
            canon.push(c, &lex);
        }
        let scanned = canon.near_words(&t, bound, &DeadlineWatch::default());
        let mut got: Vec<String> = scanned.iter().map(|(w, _, _)| w.clone()).collect();
        got.sort();
        let mut want: Vec<String> = canon.words.iter().map(|&(s, e)| canon.text[s..e].to_string())
            .filter(|w| w.len() >= 2 && rapidfuzz::distance::osa::distance(t.chars(), w.chars()) <= bound).collect();
        want.sort();
        want.dedup();
        proptest::prop_assert_eq!(got, want);
        // With the pool's word index: the same words, distances and
        // owners, in the same order.
        canon.vocab(&DeadlineWatch::default()).unwrap();
        proptest::prop_assert_eq!(canon.near_words(&t, bound, &DeadlineWatch::default()), scanned);
    }

    #[test]
    fn the_bag_bound_never_exceeds_the_edit_distance(a in "[a-c ]{0,10}", b in "[a-c ]{0,40}") {
        let d = rapidfuzz::distance::osa::distance(a.bytes(), b.bytes());
        proptest::prop_assert!(BagBound::new(a.as_bytes()).extra(b.as_bytes()) <= d);
    }

    #[test]
    fn the_bag_bound_is_never_below_the_similarity(a in "[ -~]{0,20}", b in "[ -~]{0,30}") {
        let sim = rapidfuzz::distance::levenshtein::normalized_similarity(a.bytes(), b.bytes());
        proptest::prop_assert!(BagBound::new(a.as_bytes()).upper(b.as_bytes()) >= sim);
    }
}

/// A typo correction never turns one real word into another: a word the
/// lexicon knows as an action or a state ("reactivate", "unblock") that is
/// within the edit bound of an option's word ("activate", "block") never
/// executes that option, alone or with the option's other word; a slip of
/// the option's word that is no word executes it (counted: the typo rule
/// is alive on the same screens).
#[test]
fn a_known_word_is_never_read_as_a_typo_of_another() {
    use crate::policy::Policy;
    use crate::testkit::{Fake, turn};
    use crate::types::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let lex = Lexicon::shipped();
    let params = MatchParams::default();
    // Every pair of lexicon words one is within the other's bound of,
    // that are not one word in two forms.
    let mut known: Vec<&String> = lex.actions.iter().chain(lex.states.iter()).filter(|w| w.is_ascii() && !w.contains(' ')).collect();
    known.sort();
    known.dedup();
    let mut pairs: Vec<(String, String)> = Vec::new();
    for t in &known {
        if lex.selection_verbs.is_phrase(&[t.as_str()]) || lex.everyday_verbs.is_phrase(&[t.as_str()]) || lex.generic_nouns.contains(*t) {
            continue; // phrasing or a noun that describes: read otherwise
        }
        for w in &known {
            let d = rapidfuzz::distance::osa::distance(t.chars(), w.chars());
            if t != w && d <= params.edit_bound(t.chars().count()) && !same_word(t, w) && w.chars().count() > 4 {
                pairs.push(((*t).clone(), (*w).clone()));
            }
        }
    }
    pairs.extend([("reactivate".to_string(), "activate".to_string()), ("unblock".to_string(), "block".to_string())]);
    assert!(pairs.len() >= 10, "{pairs:?}");
    let executes = |input: &str, cands: &[Candidate]| {
        let d = turn(&Policy::defaults(), &Fake::quiet(), &request(input, cands)).decision;
        (d.outcome == Outcome::Execute).then(|| d.target_id.unwrap_or_default())
    };
    let strategy = (
        prop::sample::select(pairs),
        prop::sample::select(vec!["card", "laptop", "passport", "invoice", "subscription"]),
        prop::sample::select(vec!["{t}", "{t} {o}", "{t} my {o}", "please {t} the {o}"]),
        any::<prop::sample::Index>(),
    );
    let (tried, slips) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    let mut runner = TestRunner::new(Config { cases: 128, ..Config::default() });
    runner
        .run(&strategy, |((t, w), object, form, at)| {
            let cands = vec![
                Candidate::new("x", format!("{w} {object}")),
                Candidate::new("y", "weather summary"),
                Candidate::new("z", "jazz coffee"),
            ];
            let input = form.replace("{t}", &t).replace("{o}", object);
            tried.set(tried.get() + 1);
            prop_assert_ne!(executes(&input, &cands), Some("x".to_string()), "{:?} read as {:?}", input, w);
            // A slip of the option's word that is no word: two letters
            // swapped inside it.
            let mut b: Vec<char> = w.chars().collect();
            let i = 1 + at.index(b.len() - 2);
            b.swap(i - 1, i);
            let slip: String = b.into_iter().collect();
            if !known_word(
                &slip,
                &CanonPool::build(&pool(&cands), &lex, &DeadlineWatch::default()).unwrap(),
                &lex,
                &DeadlineWatch::default(),
            ) && executes(&format!("{slip} {object}"), &cands).as_deref() == Some("x")
            {
                slips.set(slips.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    assert!(slips.get() * 2 >= tried.get(), "a slip executed {} of {}", slips.get(), tried.get());
}
