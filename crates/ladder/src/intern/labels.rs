//! The label memo: what the ladder derives from one candidate's text, kept
//! for a label that comes again on another screen. Apps rarely send the
//! same option list twice, but often the same labels (the same products,
//! rooms, actions, under new ids and in new option sets): a new screen
//! then costs what its new labels cost.
//!
//! A candidate's text is its label, sublabel, badge, kind and aliases
//! ([`LabelKey`]); what is derived from it depends on that text alone
//! (and on the lexicon and the model, which a configuration generation
//! fixes): its part of the canonical pool (`matching::CanonLabel`), its
//! fields the evidence fingerprint normalizes (`fingerprint::Signed`) and,
//! when the clarifier ranks by meaning, its vector. Ids, paths and risks
//! are never part of it: they are read from the request on every call.
//! Shared by every option set and every session of the generation, bounded
//! by a byte budget (least recently used out first), each entry's text
//! compared byte for byte before it is reused. A label is kept the second
//! time it is seen lately (`ByteMemo::second_sight`): a screen of labels
//! never seen before, or a flood of made-up ones, costs two bit tests per
//! label and pushes nothing out.

use crate::cost::DeadlineWatch;
use crate::fingerprint::Signed;
use crate::lexicon::Lexicon;
use crate::matching::CanonLabel;
use crate::meaning::Row;
use crate::memo::{ByteMemo, Key, Piece, hash_of};
use crate::types::Candidate;
use std::sync::Arc;

/// What the ladder derives from one candidate's text, but its vector.
pub struct Label {
    pub canon: CanonLabel,
    pub signed: Signed,
}

impl Label {
    pub fn of(c: &Candidate, lex: &Lexicon) -> Self {
        Label { canon: CanonLabel::of(c, lex), signed: Signed::of(c) }
    }

    /// What it counts against the budget besides its key.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Label>() + self.canon.heap_bytes() + self.signed.heap_bytes()
    }
}

/// A candidate's text as a memo key: its alias count, then its label,
/// sublabel, badge, kind and aliases, each after its length.
#[derive(Clone, Copy)]
pub struct LabelKey<'c>(pub &'c Candidate);

impl LabelKey<'_> {
    /// The hash `c`'s text is kept under (`LabelMemo::labels` takes it
    /// with each key).
    pub fn hash(c: &Candidate) -> u64 {
        hash_of(&LabelKey(c))
    }
}

impl Key for LabelKey<'_> {
    fn pieces(&self, mut f: impl FnMut(Piece<'_>) -> bool) -> bool {
        let c = self.0;
        f(Piece::Len(c.aliases.len() as u32))
            && [&c.label, &c.sublabel, &c.badge, &c.kind]
                .into_iter()
                .chain(&c.aliases)
                .all(|s| f(Piece::Len(s.len() as u32)) && (s.is_empty() || f(Piece::Text(s.as_bytes()))))
    }
}

/// The labels of recent screens (`Label`) and their vectors, each memo
/// within its share of one budget: a quarter for the labels, the rest for
/// the vectors (the model's floats, 1 KiB each with the shipped model).
/// With the load tool's three-word labels a label takes about 390 bytes
/// and a vector 1,120, keys included: the default 8 MiB
/// (`server.label_memo_bytes`) holds some 5,000 of each
/// (`ladderd::daemon::tests::the_label_memo_holds_what_performance_md_says_a_label_takes`).
#[derive(Debug)]
pub struct LabelMemo {
    labels: ByteMemo<Arc<Label>>,
    vectors: ByteMemo<Arc<[f32]>>,
}

impl LabelMemo {
    /// A memo of at most `budget` bytes in all, what it knows of the
    /// labels seen lately included (0: it keeps nothing, and nothing is
    /// made for it).
    pub fn new(budget: usize) -> Self {
        if budget == 0 {
            return LabelMemo { labels: ByteMemo::new(0), vectors: ByteMemo::new(0) };
        }
        LabelMemo { labels: ByteMemo::new(budget / 4).second_sight(), vectors: ByteMemo::new(budget - budget / 4).second_sight() }
    }

    /// Whether it keeps nothing (a budget of 0).
    pub fn is_off(&self) -> bool {
        self.labels.budget() == 0 && self.vectors.budget() == 0
    }

    /// The label of each of `cands`, in order: the memo's when it holds
    /// the same text, else made now and kept when it was seen lately;
    /// `None` for a label seen for the first time (its candidate is
    /// canonicalized in place). `None` in all when `stop` passed first.
    /// `keys`: each candidate's `LabelKey` and its hash (`hash_of`).
    pub fn labels<'c>(&self, keys: &[(u64, LabelKey<'c>)], lex: &Lexicon, stop: &DeadlineWatch) -> Option<Vec<Option<Arc<Label>>>> {
        let mut found = self.labels.get_many(keys);
        let mut made = Vec::new();
        for (slot, (hash, key)) in found.iter_mut().zip(keys) {
            if slot.is_none() && self.labels.offer(*hash) {
                if stop.passed() {
                    return None;
                }
                let label = Arc::new(Label::of(key.0, lex));
                made.push((*hash, *key, label.clone(), label.bytes()));
                *slot = Some(label);
            }
        }
        self.labels.put_many(made);
        Some(found)
    }

    /// The labels of `cands` the memo holds, in order (`None` for the
    /// others): nothing is made or kept.
    pub fn held<'c>(&self, cands: &[&'c Candidate]) -> Vec<Option<Arc<Label>>> {
        if self.is_off() {
            return vec![None; cands.len()];
        }
        let keys: Vec<(u64, LabelKey<'c>)> = cands.iter().map(|c| (hash_of(&LabelKey(c)), LabelKey(c))).collect();
        self.labels.get_many(&keys)
    }

    /// The vector of each of `cands`, in order: the memo's when it holds
    /// the same text, else made by `embed` (given the candidates it has
    /// none for, it returns their vectors in order), and kept (a copy of
    /// its own) when it was made lately.
    pub fn vectors<'c>(&self, cands: &[&'c Candidate], embed: impl FnOnce(&[&'c Candidate]) -> Vec<Row>) -> Vec<Row> {
        let keys: Vec<(u64, LabelKey<'c>)> = cands.iter().map(|c| (hash_of(&LabelKey(c)), LabelKey(c))).collect();
        let mut found: Vec<Option<Row>> = self.vectors.get_many(&keys).into_iter().map(|v| v.map(Row::own)).collect();
        let missing: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_none()).collect();
        if !missing.is_empty() {
            let made = embed(&missing.iter().map(|&i| cands[i]).collect::<Vec<_>>());
            assert_eq!(made.len(), missing.len(), "a vector for each text");
            let mut kept = Vec::with_capacity(made.len());
            for (&i, v) in missing.iter().zip(made) {
                if self.vectors.offer(keys[i].0) {
                    let own = v.to_own();
                    let bytes = std::mem::size_of_val::<[f32]>(&own);
                    kept.push((keys[i].0, keys[i].1, own, bytes));
                }
                found[i] = Some(v);
            }
            self.vectors.put_many(kept);
        }
        found.into_iter().flatten().collect()
    }

    /// How many labels it holds and their bytes, then the same of vectors.
    pub fn held_counts(&self) -> ((usize, usize), (usize, usize)) {
        (self.labels.held(), self.vectors.held())
    }
}
