use super::super::tests::pool;
use super::*;
use crate::canon::canonicalize;

/// The definition the fast path must agree with.
mod reference {
    use crate::text::words;

    pub fn derived_badge(label: &str) -> Option<&str> {
        let words: Vec<&str> = words(label).collect();
        (words.len() >= 2).then(|| words[words.len() - 1]).filter(|w| super::is_badge_token(w))
    }
}

proptest::proptest! {
    #[test]
    fn a_derived_badge_is_the_last_word_of_a_longer_label(label in "(links|panel|d|dd|e|1|12|1234| ){0,20}") {
        let lex = Lexicon::shipped();
        let cands = vec![Candidate::new("x", label.clone())];
        let mut canon = CanonPool::with_capacity(&pool(&cands));
        canon.push(&cands[0], &lex);
        let canonical = canonicalize(&label, &lex);
        proptest::prop_assert_eq!(canon.badge_of(0), reference::derived_badge(&canonical));
    }

    /// The cheap test lets every word through that some entry spells,
    /// and the vocabulary's shortlist finds every entry that spells it.
    #[test]
    fn a_word_an_entry_spells_passes_the_cheap_test_and_the_shortlist(t in "(ab|a|b|cd|c|1|12|x|abc|z){1,4}", labels in proptest::collection::vec(proptest::collection::vec("(ab|a|b|cd|c|1|12|x|abc)", 1..4), 1..10)) {
        let lex = Lexicon::shipped();
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.join(" "))).collect();
        let canon = CanonPool::build(&pool(&cands), &lex, &DeadlineWatch::default()).unwrap();
        let spelling: Vec<usize> = (0..cands.len()).filter(|idx| canon.spells_joined(*idx, &t)).collect();
        if !spelling.is_empty() {
            proptest::prop_assert!(canon.may_spell_joined(&t));
        }
        proptest::prop_assert_eq!(&canon.spelling_joined(&t, &DeadlineWatch::default()), &spelling);
        canon.vocab(&DeadlineWatch::default()).unwrap();
        proptest::prop_assert_eq!(canon.spelling_joined(&t, &DeadlineWatch::default()), spelling);
    }

    /// Every word's owners from the vocabulary are the entries a scan
    /// of the pool finds, and a word no entry has has none.
    #[test]
    fn the_vocabulary_lists_every_owner_of_a_word(labels in proptest::collection::vec("[a-c]{1,2}( [a-c]{1,2}){0,3}", 1..30), t in "[a-c]{1,2}") {
        let lex = Lexicon::shipped();
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.clone())).collect();
        let canon = CanonPool::build(&pool(&cands), &lex, &DeadlineWatch::default()).unwrap();
        let scanned = canon.owners_of_words(&[t.as_str()], &DeadlineWatch::default()).unwrap();
        let vocab = canon.vocab(&DeadlineWatch::default()).unwrap();
        let looked_up: Vec<usize> = vocab.owners_of(&canon.text, &t).unwrap_or_default().iter().map(|&o| o as usize).collect();
        proptest::prop_assert_eq!(&looked_up, &scanned[0]);
        proptest::prop_assert_eq!(canon.owners_of_words(&[t.as_str()], &DeadlineWatch::default()).unwrap(), scanned);
        proptest::prop_assert_eq!(canon.any_word(&t, &DeadlineWatch::default()), !looked_up.is_empty());
    }

    /// A label's joined length kept with the pool is its canonical
    /// form's bytes less its spaces (what `label_mentions` compares).
    #[test]
    fn a_label_joined_length_is_its_bytes_less_its_spaces(label in "(Links|  |Ünits|-|d|2|'s|ﬁ| |\\.){0,8}") {
        let lex = Lexicon::shipped();
        let cands = [Candidate::new("c", label)];
        let canon = CanonPool::build(&pool(&cands), &lex, &DeadlineWatch::default()).unwrap();
        let form = canon.label(0);
        proptest::prop_assert_eq!(canon.entries[0].label_joined as usize, form.len() - form.bytes().filter(|b| *b == b' ').count());
    }
}

proptest::proptest! {
    /// A pool put together from its candidates' parts, each canonicalized
    /// on its own (`CanonLabel`: what a memo keeps for a label that comes
    /// again), is the pool canonicalized whole, field by field.
    #[test]
    fn a_pool_of_labels_canonicalized_one_by_one_is_the_pool_built_whole(
        cands in proptest::collection::vec(
            ("(Links|links|Panel|Ünits|D|2|Q-2|w4| ){0,4}", "(|lp|X|2)", "(|panel|light_fixture)", proptest::collection::vec("(links|Ödön|panel|d| ){0,3}", 0..3)),
            0..8,
        ),
        parted in proptest::collection::vec(proptest::bool::ANY, 8),
    ) {
        let lex = Lexicon::shipped();
        let cands: Vec<Candidate> = cands
            .into_iter()
            .enumerate()
            .map(|(i, (label, badge, kind, aliases))| Candidate { badge, kind, aliases, ..Candidate::new(format!("c{i}"), label) })
            .collect();
        let p = pool(&cands);
        let whole = CanonPool::build(&p, &lex, &DeadlineWatch::default()).unwrap();
        let mut k = 0;
        let put_together = CanonPool::assemble(&p, &DeadlineWatch::default(), |canon, c| {
            // Some candidates canonicalized in place, as a pool of labels
            // the memo holds in part is put together.
            k += 1;
            if parted[k - 1] { canon.push_label(&CanonLabel::of(c, &lex)) } else { canon.push(c, &lex) }
        })
        .unwrap();
        proptest::prop_assert_eq!(&put_together.text, &whole.text);
        proptest::prop_assert_eq!(&put_together.entries, &whole.entries);
        proptest::prop_assert_eq!(&put_together.aliases, &whole.aliases);
        proptest::prop_assert_eq!(&put_together.words, &whole.words);
        proptest::prop_assert_eq!(put_together.ascii, whole.ascii);
        proptest::prop_assert_eq!(put_together.max_joined, whole.max_joined);
        proptest::prop_assert_eq!(&put_together.starts, &whole.starts);
    }
}
