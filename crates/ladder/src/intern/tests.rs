//! The caches never change a match or a decision: a memo'd pool index is
//! the one built afresh, found by a pool's text or by a list's address,
//! within the memo's budget; a turn decided with the memo is the turn
//! decided without it. And an option list is interned by its bytes.

use super::*;
use crate::canon::canonicalize;
use crate::matching::{MatchParams, Matches, Query, Rules, find};
use crate::scope::{Entry, Source};
use crate::testkit;
use crate::types::DecideRequest;

fn pool(cands: &[Candidate]) -> Pool<'_> {
    Pool {
        entries: cands.iter().enumerate().map(|(position, cand)| Entry { cand, source: Source::ActiveOptions, position }).collect(),
        cue: None,
        ordinal_source: Some(Source::ActiveOptions),
        shown_len: None,
    }
}

fn panels() -> Vec<Candidate> {
    vec![Candidate::new("p", "Links Panels"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")]
}

/// `matching::find` as the sequence runs it, the pool's index from
/// `pool_index` (the memo's, when there is one).
fn find_through(
    memo: Option<&PoolMemo>,
    options: Option<&Arc<Vec<Candidate>>>,
    input: &str,
    q: &Query,
    p: &Pool<'_>,
    rules: Rules<'_>,
) -> Matches {
    let index = pool_index(memo, p, options, rules.lex, rules.stop).unwrap();
    find(input, q, p, &index, &[], rules).unwrap()
}

/// A list is interned under the bytes it was decoded from: the same
/// bytes get the list held, other bytes their own list, now held.
#[test]
fn the_same_bytes_get_the_list_held() {
    let memo = PoolMemo::new(1 << 20);
    let first = Arc::new(panels());
    assert!(Arc::ptr_eq(&memo.intern(b"panels", first.clone()), &first), "a new list is kept as it is");
    let again = Arc::new(panels());
    assert!(Arc::ptr_eq(&memo.intern(b"panels", again), &first), "the same bytes get the one held");
    let other = Arc::new(panels());
    assert!(Arc::ptr_eq(&memo.intern(b"panels!", other.clone()), &other), "other bytes keep their own");
    assert_eq!(memo.lists_held().0, 2);
    assert_eq!(memo.facts(&first).map(|(c, _)| c), Some(crate::cost::list_costs(&first)));
    assert_eq!(memo.facts(&Arc::new(panels())), None, "a list it did not intern");
}

/// A screen sent again under new ids (new lists of the same labels) is
/// found by its text once its text came twice; with the label memo off
/// (`server.label_memo_bytes = 0`) a whole list is known by its address
/// only, as before the label memo: each new list is canonicalized again.
#[test]
fn new_lists_of_the_same_labels_share_one_pool_unless_the_label_memo_is_off() {
    let lex = Lexicon::shipped();
    for (memo, off) in [(PoolMemo::new(1 << 20), false), (PoolMemo::new(1 << 20).with_labels(0), true)] {
        let mut kept = Vec::new();
        for k in 0..4 {
            let list: Arc<Vec<Candidate>> =
                Arc::new(panels().into_iter().map(|c| Candidate { id: format!("{}-{k}", c.id), ..c }).collect());
            let held = list.clone();
            let p = pool(&list);
            kept.push(pool_index(Some(&memo), &p, Some(&list), &lex, &DeadlineWatch::default()).unwrap());
            drop(held);
        }
        // By address, each; by text too from the second on (once).
        assert_eq!(memo.held().0, if off { 4 } else { 3 }, "off: {off}");
        assert_eq!(Arc::ptr_eq(&kept[2], &kept[1]), !off, "the third list found by the second's text (off: {off})");
        assert_eq!(memo.labels.held_counts().0.0, if off { 0 } else { 3 }, "the labels kept (off: {off})");
    }
}

proptest::proptest! {
    /// A pool the memo hands back is the one canonicalizing it afresh
    /// would make: the same matches with and without the memo, after
    /// another input filled it (the rules that read a held pool's
    /// vocabulary, kinds and short forms among them, read what a scan
    /// reads), and for a pool one letter away.
    #[test]
    fn the_pool_memo_never_changes_a_match(
        first in "(links|panel|open|the|second|d|e|2| ){0,5}",
        input in "(links|panel|open|the|second|one|d|e|lnks|pnl|sls|reports|report|2|Links Panel D| ){0,6}",
        labels in proptest::collection::vec(("(Links|links|panel|Panel|sales|d|D|e|2|Ünits| ){0,4}", "(|lp|x)", proptest::collection::vec("(links|panel|d| ){0,3}", 0..2), "(|report|sales_report|Panel)"), 1..12),
        changed in 0usize..12,
    ) {
        let lex = Lexicon::shipped();
        let params = MatchParams::default();
        let memo = PoolMemo::new(1 << 20);
        let cands: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, (l, b, a, k))| Candidate { badge: b.clone(), aliases: a.clone(), kind: k.clone(), ..Candidate::new(format!("c{i}"), l.clone()) })
            .collect();
        let mut other = cands.clone();
        other[changed % cands.len()].label.push('s');
        let matched = |input: &str, cands: &[Candidate], memo: Option<&PoolMemo>| {
            let q = Query::new(canonicalize(input, &lex), &lex);
            let rules = Rules { lex: &lex, params: &params, ranked: 8, stop: &DeadlineWatch::default() };
            format!("{:?}", find_through(memo, None, input, &q, &pool(cands), rules))
        };
        matched(&first, &cands, Some(&memo));
        proptest::prop_assert_eq!(memo.held().0, 1);
        proptest::prop_assert_eq!(matched(&input, &cands, Some(&memo)), matched(&input, &cands, None));
        proptest::prop_assert_eq!(matched(&input, &other, Some(&memo)), matched(&input, &other, None));
        proptest::prop_assert_eq!(memo.held().0, 2);
    }

    /// A pool's key, compared and hashed piece by piece, is the key
    /// put together: the same pool is found, any other is not.
    #[test]
    fn a_pool_key_compared_piece_by_piece_is_the_key_put_together(
        a in proptest::collection::vec(("(x|y|xy| ){0,3}", "(|b)", "(|k)", proptest::collection::vec("(x|y)", 0..2)), 0..5),
        b in proptest::collection::vec(("(x|y|xy| ){0,3}", "(|b)", "(|k)", proptest::collection::vec("(x|y)", 0..2)), 0..5),
    ) {
        let cands = |list: &[(String, String, String, Vec<String>)]| -> Vec<Candidate> {
            list.iter()
                .enumerate()
                .map(|(i, (l, b, k, a))| Candidate { badge: b.clone(), kind: k.clone(), aliases: a.clone(), ..Candidate::new(format!("c{i}"), l.clone()) })
                .collect()
        };
        let (a, b) = (cands(&a), cands(&b));
        let (pa, pb) = (pool(&a), pool(&b));
        use crate::memo::{hash_of, is_key, key_of};
        let (ka, kb) = (PoolKey(&pa), PoolKey(&pb));
        proptest::prop_assert!(is_key(&ka, &key_of(&ka)));
        proptest::prop_assert_eq!(is_key(&ka, &key_of(&kb)), key_of(&ka) == key_of(&kb));
        if key_of(&ka) == key_of(&kb) {
            proptest::prop_assert_eq!(hash_of(&ka), hash_of(&kb));
        }
        let mut longer = key_of(&ka);
        longer.push(0);
        proptest::prop_assert!(!is_key(&ka, &longer));
    }

    /// A pool that is a shared list whole is known by the list's
    /// address, and that never changes a match or a fingerprint: the
    /// same as without the memo for the list, for a list differing in
    /// any field of any candidate, and for lists made after the first
    /// is dropped (an address is never taken by another list while the
    /// memo knows it).
    #[test]
    fn a_list_known_by_its_address_is_always_the_list(
        base in proptest::collection::vec(("(a|b|c)", "(Links|links|panel|d|2| ){0,3}", "(|s)", "(|p)", proptest::collection::vec("(links|x)", 0..2), 0usize..3), 1..6),
        input in "(links|panel|open|the|second|d|lnks|2| ){0,4}",
        field in 0usize..8,
        at in 0usize..6,
    ) {
        let list: Vec<Candidate> = base
            .iter()
            .enumerate()
            .map(|(i, (id, label, sub, path, aliases, risk))| Candidate {
                sublabel: sub.clone(),
                path: path.clone(),
                aliases: aliases.clone(),
                risk: crate::types::Risk::ALL[*risk],
                ..Candidate::new(format!("{id}{i}"), label.clone())
            })
            .collect();
        let mut other = list.clone();
        let c = &mut other[at % list.len()];
        match field {
            0 => c.id.push('z'),
            1 => c.label.push('z'),
            2 => c.sublabel.push('z'),
            3 => c.badge.push('z'),
            4 => c.kind.push('z'),
            5 => c.path.push('z'),
            6 => c.aliases.push("z".into()),
            _ => c.risk = if c.risk == crate::types::Risk::High { crate::types::Risk::Normal } else { crate::types::Risk::High },
        }
        let lex = Lexicon::shipped();
        let params = MatchParams::default();
        let memo = PoolMemo::new(1 << 20);
        let q = Query::new(canonicalize(&input, &lex), &lex);
        // Matched through the memo, the list held twice (as an interned
        // list is), and without the memo; fingerprinted both ways.
        let read = |cands: Vec<Candidate>| {
            let list = Arc::new(cands);
            let held = list.clone();
            let p = pool(&list);
            proptest::prop_assert!(whole_list(&p, Some(&list)).is_some());
            let rules = Rules { lex: &lex, params: &params, ranked: 8, stop: &DeadlineWatch::default() };
            let (a, b) = (find_through(Some(&memo), Some(&list), &input, &q, &p, rules), find_through(None, None, &input, &q, &p, rules));
            proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
            let excerpts = ["an excerpt".to_string()];
            let known = memo.fingerprints.fingerprint_of_list(None, "set", &list, &excerpts);
            proptest::prop_assert_eq!(known, crate::fingerprint::fingerprint(None, "set", list.iter(), &excerpts));
            drop(held);
            Ok(())
        };
        read(list.clone())?;
        read(list.clone())?;
        read(other)?;
        read(list)?;
        // Each list was new by its address (three pools kept by address,
        // and `other` by its own when its text differs); the text of the
        // second, seen again, kept the pool by text too, which the fourth
        // (and `other`, when only its ids, paths or risks differ) found.
        let differs_in_text = matches!(field, 1 | 2 | 3 | 4 | 6);
        proptest::prop_assert_eq!(memo.held().0, if differs_in_text { 4 } else { 3 });
    }

    #[test]
    fn the_pool_memo_keeps_to_its_budget(sizes in proptest::collection::vec(1usize..60, 10..40)) {
        let lex = Lexicon::shipped();
        // An eighth of it (8 KiB) holds a pool of some fifty candidates.
        let memo = PoolMemo::new(64 << 10);
        for (k, n) in sizes.iter().enumerate() {
            let cands: Vec<Candidate> = (0..*n).map(|i| Candidate::new(format!("c{i}"), format!("label {k} {i}"))).collect();
            let q = Query::new(canonicalize("label", &lex), &lex);
            let rules = Rules { lex: &lex, params: &MatchParams::default(), ranked: 8, stop: &DeadlineWatch::default() };
            find_through(Some(&memo), None, "label", &q, &pool(&cands), rules);
            let (pools, bytes) = memo.held();
            proptest::prop_assert!(bytes <= 64 << 10, "{bytes} bytes held");
            // The newest pool is kept whenever it fits an eighth.
            if *n <= 16 {
                proptest::prop_assert!(pools >= 1, "a pool of {n} candidates was not kept");
            }
        }
    }
}

proptest::proptest! {
    /// The caches never change a decision: a turn decided with the memo
    /// (its pool new to the memo, then held, known by its text; its
    /// option list interned, so known by its address, new, then held) is
    /// the turn decided without it, over random pools, inputs and LLM
    /// replies.
    #[test]
    fn the_memo_never_changes_a_decision(w in testkit::world()) {
        let p = testkit::policy_for(&w);
        let decided = |req: &DecideRequest, memo: Option<&PoolMemo>| {
            testkit::untimed(&testkit::turn_with(&p, &testkit::Fake::new(w.answer.clone()), req, memo).decision)
        };
        // A list only this request holds: the memo knows its pool by text.
        let mut own = w.req.clone();
        if let Some(set) = own.options.as_mut() {
            set.candidates = Arc::new(set.candidates.to_vec());
        }
        let want = decided(&own, None);
        let memo = PoolMemo::new(1 << 20);
        proptest::prop_assert_eq!(&decided(&own, Some(&memo)), &want, "a pool new to the memo");
        proptest::prop_assert_eq!(&decided(&own, Some(&memo)), &want, "a pool the memo holds");
        let mut interned = own.clone();
        if let Some(set) = interned.options.as_mut() {
            set.candidates = memo.intern(b"the options' bytes", Arc::new(set.candidates.to_vec()));
        }
        proptest::prop_assert_eq!(&decided(&interned, Some(&memo)), &want, "a list new to the memo, known by its address");
        proptest::prop_assert_eq!(&decided(&interned, Some(&memo)), &want, "a list the memo holds, known by its address");
    }
}

proptest::proptest! {
    /// A label the memo holds from other screens (under other ids, in
    /// another order) gives the turn it would give without the memo: what
    /// the label memo keeps for it (its canonical part, the fingerprint's
    /// fields, its vector) is what a miss makes. Over random worlds whose
    /// candidates have random sublabels, badges, kinds and aliases,
    /// ranked by words or by meaning: each turn decided without the memo,
    /// with its labels new to the memo (misses), and with them held
    /// (hits).
    #[test]
    fn a_label_seen_on_another_screen_never_changes_a_decision(
        w in testkit::world(),
        dress in proptest::collection::vec(
            ("(|to the left|Q2)", "(|xy|7)", "(|panel|light_fixture)", proptest::collection::vec("(links|Ödön|sales report)", 0..2)),
            1..8,
        ),
        meaning in proptest::option::of(0u64..3),
    ) {
        let p = match meaning {
            Some(seed) => testkit::with_meaning(testkit::policy_for(&w), seed),
            None => testkit::policy_for(&w),
        };
        let mut k = 0;
        let mut dressed = |c: &Candidate| {
            let (sublabel, badge, kind, aliases) = dress[k % dress.len()].clone();
            k += 1;
            Candidate { sublabel, badge, kind, aliases, ..c.clone() }
        };
        let mut req = w.req.clone();
        if let Some(set) = req.options.as_mut() {
            set.candidates = Arc::new(set.candidates.iter().map(&mut dressed).collect());
        }
        req.widget_items = req.widget_items.iter().map(&mut dressed).collect();
        req.recoverable_chat_options = req.recoverable_chat_options.iter().map(&mut dressed).collect();
        let decided = |req: &DecideRequest, memo: Option<&PoolMemo>| {
            testkit::untimed(&testkit::turn_with(&p, &testkit::Fake::new(w.answer.clone()), req, memo).decision)
        };
        let want = decided(&req, None);
        proptest::prop_assert_eq!(&decided(&req, Some(&PoolMemo::new(1 << 20))), &want, "labels new to the memo");

        // The same labels on another screen: other ids, the lists turned
        // around, another option set.
        let mut other = req.clone();
        let seen = |list: &[Candidate]| -> Vec<Candidate> {
            list.iter().rev().map(|c| Candidate { id: format!("seen-{}", c.id), ..c.clone() }).collect()
        };
        if let Some(set) = other.options.as_mut() {
            set.candidates = Arc::new(seen(&set.candidates));
            set.option_set_id = "another-set".into();
        }
        other.widget_items = seen(&other.widget_items);
        other.recoverable_chat_options = seen(&other.recoverable_chat_options);
        let memo = PoolMemo::new(1 << 20);
        let all: Vec<&Candidate> = req.option_candidates().iter().chain(&req.widget_items).chain(&req.recoverable_chat_options).collect();
        let keys: Vec<(u64, LabelKey<'_>)> = all.iter().map(|c| (crate::memo::hash_of(&LabelKey(c)), LabelKey(c))).collect();
        // Seen twice lately, so kept: through the other screen's turns,
        // and each label (and its vector) asked for twice outright, in
        // case those turns did not read every list.
        for _ in 0..2 {
            decided(&other, Some(&memo));
            memo.labels.labels(&keys, &p.lexicon, &DeadlineWatch::default());
            if let Some(m) = &p.meaning {
                memo.labels.vectors(&all, |missing| m.vectors_of(missing.iter().copied(), true));
            }
        }
        proptest::prop_assert!(memo.labels.held(&all).iter().all(Option::is_some), "every label held");
        proptest::prop_assert_eq!(&decided(&req, Some(&memo)), &want, "labels the memo holds");
    }
}
