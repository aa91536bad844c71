//! Typos and similarity: the pool's words within the edit bound of an
//! input word (`CanonPool::near_words`), and the fuzzy rung that ranks the
//! pool by the whole input's similarity when nothing is named
//! (`CanonPool::fuzzy`: `rapidfuzz`, the query preprocessed once). Cheap
//! bounds (length, the bag distance: `BagBound`) rule out most words and
//! labels before a distance is computed; they never drop one within reach.
//!
//! Tests: `typo/tests.rs`.

use super::index::CanonPool;
use super::{Hit, MatchKind};
use crate::cost::DeadlineWatch;
use crate::lexicon::Lexicon;
use rapidfuzz::distance::levenshtein::{Args, BatchComparator};
use rustc_hash::FxHashMap;

/// A pool word near an input word: the word, its edit distance, and the
/// candidates (pool order) that have it.
pub(super) type NearWord = (String, usize, Vec<usize>);

/// Whether the input word `t` is itself a word: one the lexicon knows (an
/// action, a state, a verb of selection or an everyday verb, a generic
/// noun) or a word of some option. A typo correction never turns one real
/// word into another ("reactivate" is not "activate", "unblock" is not
/// "block"): only a word that is none of these is read as a slip
/// (`may_be_slip`).
pub(super) fn known_word(t: &str, canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) -> bool {
    lexicon_word(t, lex) || canon.any_word(t, stop)
}

/// Whether the lexicon knows `t` as a word of its own (`known_word`
/// without the options' words: for a word no option has).
pub(super) fn lexicon_word(t: &str, lex: &Lexicon) -> bool {
    lex.actions.contains(t)
        || lex.states.contains(t)
        || lex.generic_nouns.contains(t)
        || lex.selection_verbs.is_phrase(&[t])
        || lex.everyday_verbs.is_phrase(&[t])
}

/// The same word in another number or as its past participle ("order"
/// and "orders", "box" and "boxes", "block" and "blocked", "freeze" and
/// "freezed"): not another word.
pub(super) fn same_word(t: &str, w: &str) -> bool {
    let form = |a: &str, b: &str| ["s", "es", "d", "ed"].iter().any(|end| a.strip_suffix(end) == Some(b));
    t == w || form(t, w) || form(w, t)
}

/// Whether the input word `t` may be read as a slip of the pool word `w`
/// it is within the edit bound of: `t` is no word of its own
/// (`known_word`: `known`), or `w` is only `t` in another number.
pub(super) fn may_be_slip(t: &str, w: &str, known: bool) -> bool {
    !known || same_word(t, w)
}

/// Whether a word is within the edit bound of `t`, and how far: the cheap
/// tests first (length, letters), then the distance.
struct NearTest {
    cmp: rapidfuzz::distance::osa::BatchComparator<char>,
    len: usize,
    /// Letters a word has more of than `t` each need an edit: a cheap bound
    /// that rules out most words before the distance is computed.
    bag: Option<BagBound>,
    bound: usize,
    /// The pool is ASCII: a word's length is its byte count.
    ascii_pool: bool,
}

impl NearTest {
    fn new(t: &str, bound: usize, ascii_pool: bool) -> Self {
        let bag = t.is_ascii().then(|| BagBound::new(t.as_bytes()));
        NearTest { cmp: rapidfuzz::distance::osa::BatchComparator::new(t.chars()), len: t.chars().count(), bag, bound, ascii_pool }
    }

    #[inline(always)]
    fn distance(&self, w: &str) -> Option<usize> {
        let ascii = self.ascii_pool || w.is_ascii();
        let wl = if ascii { w.len() } else { w.chars().count() };
        if wl.abs_diff(self.len) > self.bound || wl < 2 {
            return None;
        }
        if let Some(bag) = &self.bag
            && ascii
            && bag.extra(w.as_bytes()) > self.bound
        {
            return None;
        }
        self.cmp.distance_with_args(w.chars(), &rapidfuzz::distance::osa::Args::default().score_cutoff(self.bound))
    }
}

impl CanonPool {
    /// The distinct words of the pool within `bound` edits of `t`
    /// (optimal string alignment: a swap of two letters is one edit), each
    /// with its distance and the candidates (pool order) that have it.
    pub(super) fn near_words(&self, t: &str, bound: usize, stop: &DeadlineWatch) -> Vec<NearWord> {
        let near = NearTest::new(t, bound, self.ascii);
        let mut out: Vec<NearWord> = Vec::new();
        if let Some(vocab) = self.vocab.get() {
            // Each distinct word once.
            for &((s, e), (first, end)) in &vocab.words {
                if stop.passed() {
                    break;
                }
                let w = &self.text[s..e];
                if let Some(d) = near.distance(w) {
                    out.push((w.to_string(), d, vocab.owners[first as usize..end as usize].iter().map(|&o| o as usize).collect()));
                }
            }
            return out;
        }
        // Where each word already found is in `out`.
        let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
        for (idx, entry) in self.entries.iter().enumerate() {
            if stop.passed() {
                break;
            }
            for &(s, e) in &self.words[entry.all_words.0..entry.all_words.1] {
                let w = &self.text[s..e];
                if let Some(&at) = seen.get(w) {
                    let owners = &mut out[at].2;
                    if owners.last() != Some(&idx) {
                        owners.push(idx);
                    }
                } else if let Some(d) = near.distance(w) {
                    seen.insert(w, out.len());
                    out.push((w.to_string(), d, vec![idx]));
                }
            }
        }
        out
    }

    /// The fuzzy rung: every entry's best similarity (of its label and
    /// aliases) to the input; the hits at least `min`, and the `ranked` most
    /// similar entries.
    pub(super) fn fuzzy(&self, core: &str, ranked: usize, min: f32, stop: &DeadlineWatch) -> (Vec<Hit>, Vec<usize>) {
        // Levenshtein over characters; over bytes when everything is ASCII
        // (the same distances, without decoding UTF-8 for every label).
        let mut best = FuzzyBest::new(ranked, min);
        if core.is_ascii() && self.ascii {
            let cmp = BatchComparator::new(core.bytes());
            let bag = BagBound::new(core.as_bytes());
            self.similarity(
                &mut best,
                stop,
                |s| bag.upper(s.as_bytes()),
                |s, cutoff| cmp.normalized_similarity_with_args(s.bytes(), &Args::default().score_cutoff(cutoff)),
            );
        } else {
            let cmp = BatchComparator::new(core.chars());
            self.similarity(
                &mut best,
                stop,
                |_| 1.0,
                |s, cutoff| cmp.normalized_similarity_with_args(s.chars(), &Args::default().score_cutoff(cutoff)),
            );
        }
        (best.hits, best.ranked.into_iter().map(|(_, idx)| idx).collect())
    }

    /// Feeds each entry's best similarity (of its label and aliases) to
    /// `best`, asking `sim` only for similarities `best` can still use:
    /// `upper(text)` is a cheap bound of `sim` that rules out most of a large
    /// pool, and `sim(text, cutoff)` is `None` below `cutoff` (rapidfuzz then
    /// skips texts whose length alone rules them out).
    fn similarity(&self, best: &mut FuzzyBest, stop: &DeadlineWatch, upper: impl Fn(&str) -> f64, sim: impl Fn(&str, f64) -> Option<f64>) {
        let sim = |text: &str, cutoff: f64| if upper(text) < cutoff { None } else { sim(text, cutoff) };
        for idx in 0..self.entries.len() {
            if stop.passed() {
                break;
            }
            let cutoff = best.cutoff();
            let score = self.aliases(idx).fold(sim(self.label(idx), cutoff), |acc, a| match (acc, sim(a, cutoff)) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            });
            if let Some(score) = score {
                best.offer(idx, score as f32);
            }
        }
    }
}

/// The fuzzy rung's results, built entry by entry in pool order: every hit
/// (similarity at least `min`) and the `len` most similar entries (pool
/// order for equal similarity). Ranking all entries and keeping the first
/// `len` gives the same list; this only needs exact similarities down to
/// `cutoff`.
struct FuzzyBest {
    len: usize,
    min: f32,
    hits: Vec<Hit>,
    /// (similarity, entry), most similar first, pool order for ties.
    ranked: Vec<(f32, usize)>,
}

impl FuzzyBest {
    fn new(len: usize, min: f32) -> Self {
        FuzzyBest { len, min, hits: Vec::new(), ranked: Vec::with_capacity(len + 1) }
    }

    /// The least similarity an entry offered next could still need to be
    /// known exactly, lowered by far more than f32 rounding (similarities
    /// are compared as f32) so nothing at the boundary is lost.
    fn cutoff(&self) -> f64 {
        let floor = match self.ranked.last() {
            Some(&(kth, _)) if self.ranked.len() == self.len => kth.min(self.min),
            _ if self.len == 0 => self.min,
            _ => return 0.0,
        };
        (f64::from(floor) - 1e-6).max(0.0)
    }

    /// Entries are offered once each, in pool order.
    fn offer(&mut self, entry: usize, score: f32) {
        if score >= self.min {
            self.hits.push(Hit { entry, kind: MatchKind::Fuzzy, score });
        }
        // After every entry at least as similar (they came earlier).
        let at = self.ranked.partition_point(|&(s, _)| s >= score);
        if at < self.len {
            self.ranked.insert(at, (score, entry));
            self.ranked.truncate(self.len);
        }
    }
}

/// An upper bound of the normalized Levenshtein similarity of ASCII text to
/// the query, from the bag distance (characters one side has more of than
/// the other; each needs an edit): one pass of counting, several times
/// cheaper than the distance itself, and in large pools most labels share
/// too few letters with a typo-only input to need it.
struct BagBound {
    counts: [u8; 128],
    len: usize,
}

impl BagBound {
    fn new(query: &[u8]) -> Self {
        let mut counts = [0u8; 128];
        for &b in query {
            let c = &mut counts[usize::from(b & 0x7f)];
            *c = c.saturating_add(1);
        }
        BagBound { counts, len: query.len() }
    }

    /// Letters of `text` the query has fewer of: each needs an edit (a
    /// lower bound of any edit distance).
    fn extra(&self, text: &[u8]) -> usize {
        if text.len() <= 24 {
            // A word: count each letter's earlier occurrences instead of
            // copying the 128 counters (most calls are for short words).
            let mut extra = 0usize;
            for (i, &b) in text.iter().enumerate() {
                let seen = text[..i].iter().filter(|&&x| x & 0x7f == b & 0x7f).count();
                extra += usize::from(seen >= usize::from(self.counts[usize::from(b & 0x7f)]));
            }
            return extra.max(self.len.saturating_sub(text.len() - extra));
        }
        let extra = self.unmatched(text);
        extra.max(self.len.saturating_sub(text.len() - extra))
    }

    /// Letters of `text` left over once each is matched with one of the
    /// query's.
    fn unmatched(&self, text: &[u8]) -> usize {
        let mut left = self.counts;
        let mut extra = 0usize;
        for &b in text {
            let c = &mut left[usize::from(b & 0x7f)];
            let has = u8::from(*c > 0);
            *c -= has;
            extra += usize::from(1 - has);
        }
        extra
    }

    /// `1 - bag_distance / max(len)`, computed as rapidfuzz computes the
    /// similarity from the distance, so it is never below the similarity.
    fn upper(&self, text: &[u8]) -> f64 {
        let extra = self.unmatched(text);
        let shared = text.len() - extra;
        let bound = extra.max(self.len - shared);
        let max = self.len.max(text.len());
        if max == 0 { 1.0 } else { 1.0 - bound as f64 / max as f64 }
    }
}

#[cfg(test)]
mod tests;
