//! Ranking by meaning (docs/meaning.md): which options an unresolved turn's
//! clarifier offers, and in what order, when the words leave slots open.
//!
//! A sentence-embedding model (the [`Embedder`] port; the daemon ships a
//! static one, docs/meaning.md) turns the input and each candidate's text
//! (label, sublabel, aliases, kind) into unit vectors; their dot product
//! is the similarity. The ranking uses it only after every rule has
//! spoken: `clarifier::rank` reorders and fills the tie with it, and the
//! LLM rung is shown the tie in that order.
//!
//! **S8: meaning never decides.** Nothing here is evidence for an execute,
//! a continuity resolution, an auto-execute or a corroboration: the
//! similarities reach only the clarifier's options, their order, and the
//! LLM's list. Whether a turn executes, clarifies or escapes, and what it
//! executes, is the same with the model on and off (`decide/tests.rs` and
//! `tests/it/quality.rs` check it, by property and on every corpus).

use crate::scope::Pool;
use crate::types::Candidate;
use std::sync::Arc;

/// A sentence-embedding model: the unit vector of a text.
pub trait Embedder: Send + Sync {
    /// How many floats a vector has.
    fn dim(&self) -> usize;
    /// Writes the unit vector of `text` into `out` (`dim()` floats); false
    /// (and `out` zero) when the model reads nothing in it (no token it
    /// knows).
    fn embed(&self, text: &str, out: &mut [f32]) -> bool;

    /// `embed` of each of `texts`, into the rows of `out` (`dim()` floats
    /// each, in order): the same vectors, which a model may make faster
    /// together (a new screen's labels).
    fn embed_many(&self, texts: &[&str], out: &mut [f32]) {
        let dim = self.dim();
        for (text, row) in texts.iter().zip(out.chunks_mut(dim)) {
            self.embed(text, row);
        }
    }

    /// `embed_many` of candidates' texts where the label memo is on: the
    /// same vectors, which a model may make sooner by keeping what it
    /// reads in them across calls and sessions (the daemon's keeps their
    /// words' token ids). Never called with a request's text, nor with
    /// the label memo off (`server.label_memo_bytes = 0`), so that what
    /// one session's screen leaves behind is bounded by that setting
    /// (docs/security.md).
    fn embed_labels(&self, texts: &[&str], out: &mut [f32]) {
        self.embed_many(texts, out)
    }
}

/// The model the clarifier ranks with, and the languages it reads.
#[derive(Clone)]
pub struct Meaning {
    pub model: Arc<dyn Embedder>,
    /// What it is, for the trace and the docs (`static-minilm-wordnet-256`).
    pub name: String,
    /// The request languages it reads (primary subtags, `en`); a request
    /// in another language keeps the word ranking. A request with no
    /// language is read.
    pub languages: Vec<String>,
}

impl std::fmt::Debug for Meaning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meaning").field("name", &self.name).field("dim", &self.model.dim()).field("languages", &self.languages).finish()
    }
}

impl Meaning {
    /// Whether it reads a request in `language` (a BCP 47 tag, or empty).
    pub fn reads(&self, language: &str) -> bool {
        let primary = language.split(['-', '_']).next().unwrap_or("");
        primary.is_empty() || self.languages.iter().any(|l| l.eq_ignore_ascii_case(primary))
    }

    /// The vectors of `pool`'s entries, in pool order.
    pub fn pool_vectors(&self, pool: &Pool<'_>) -> PoolVectors {
        PoolVectors { dim: self.model.dim(), rows: self.vectors_of(pool.entries.iter().map(|e| e.cand), false) }
    }

    /// The vector of each of `cands` (`candidate_text`), in order: made
    /// together (`Embedder::embed_many`, or `Embedder::embed_labels` when
    /// `memo` says the label memo is on), each a [`Row`] of one allocation
    /// they share.
    pub fn vectors_of<'c>(&self, cands: impl Iterator<Item = &'c Candidate>, memo: bool) -> Vec<Row> {
        let dim = self.model.dim();
        let texts: Vec<String> = cands
            .map(|c| {
                let mut text = String::new();
                candidate_text(c, &mut text);
                text
            })
            .collect();
        // One allocation for all: a vector of its own for each would be
        // an allocation and a copy a label (a fifth of a new screen's
        // ranking, BENCHMARKS.md).
        let mut floats: Arc<[f32]> = std::iter::repeat_n(0.0, dim * texts.len()).collect();
        if dim > 0 {
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            // Not yet shared: written in place.
            let flat = Arc::make_mut(&mut floats);
            // Sixteen at a time, so that a model's working memory stays
            // small (`ByWord` keeps each text's token rows).
            for (some, flat) in texts.chunks(16).zip(flat.chunks_mut(dim * 16)) {
                if memo {
                    self.model.embed_labels(some, flat);
                } else {
                    self.model.embed_many(some, flat);
                }
            }
        }
        (0..texts.len()).map(|i| Row { floats: floats.clone(), at: i * dim, dim }).collect()
    }

    /// The similarity of `input` to each entry of `vectors` (in pool
    /// order), or `None` when the model reads nothing in the input.
    pub fn similarities(&self, input: &str, vectors: &PoolVectors) -> Option<Vec<f32>> {
        let mut v = vec![0.0; vectors.dim];
        if vectors.dim != self.model.dim() || !self.model.embed(input, &mut v) {
            return None;
        }
        Some(dot::dots(&vectors.rows, &v))
    }
}

/// What a candidate means, as one text: its label, sublabel, aliases and
/// kind (a kind's underscores read as spaces).
pub fn candidate_text(c: &Candidate, out: &mut String) {
    out.clear();
    let kind = c.kind.replace('_', " ");
    for part in [c.label.as_str(), c.sublabel.as_str()].into_iter().chain(c.aliases.iter().map(String::as_str)).chain([kind.as_str()]) {
        if part.trim().is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str(". ");
        }
        out.push_str(part);
    }
}

/// The unit vectors of a pool's entries, row `i` for entry `i` (a zero row
/// for an entry the model reads nothing in). Kept with the pool's
/// canonical index (`matching::CanonPool::vectors`), so a screen sent
/// again is embedded once; a row may be a memo's, kept for a label that
/// comes again on another screen (`intern::LabelMemo`).
#[derive(Debug, Clone)]
pub struct PoolVectors {
    dim: usize,
    rows: Vec<Row>,
}

impl PoolVectors {
    /// The vectors of a pool's entries, `rows[i]` for entry `i`, each of
    /// `dim` floats.
    pub fn new(dim: usize, rows: Vec<Row>) -> Self {
        debug_assert!(rows.iter().all(|r| r.as_ref().len() == dim));
        PoolVectors { dim, rows }
    }

    /// Heap bytes of the vectors of `entries` entries of `dim` floats.
    pub fn bytes_for(entries: usize, dim: usize) -> usize {
        entries * dim * std::mem::size_of::<f32>()
    }
}

/// Two pools' vectors are equal when each row holds the same floats,
/// wherever they are kept.
impl PartialEq for PoolVectors {
    fn eq(&self, other: &Self) -> bool {
        self.dim == other.dim
            && self.rows.len() == other.rows.len()
            && self.rows.iter().zip(&other.rows).all(|(a, b)| a.as_ref() == b.as_ref())
    }
}

/// One vector: `dim` floats from `at` of an allocation it may share with
/// the other vectors made with it (`Meaning::vectors_of`), or a vector of
/// its own (a memo's, [`Row::own`]).
#[derive(Clone)]
pub struct Row {
    floats: Arc<[f32]>,
    at: usize,
    dim: usize,
}

impl Row {
    /// A vector of its own.
    pub fn own(floats: Arc<[f32]>) -> Self {
        let dim = floats.len();
        Row { floats, at: 0, dim }
    }

    /// The vector as one of its own, to be kept apart from the others
    /// made with it (a copy where it shares its allocation).
    pub fn to_own(&self) -> Arc<[f32]> {
        if self.at == 0 && self.floats.len() == self.dim { self.floats.clone() } else { Arc::from(self.as_ref()) }
    }
}

/// Its own floats, not the allocation's.
impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_ref()).finish()
    }
}

impl AsRef<[f32]> for Row {
    fn as_ref(&self) -> &[f32] {
        self.floats.get(self.at..self.at + self.dim).unwrap_or_default()
    }
}

wire_enum! { "kebab-case",
    /// How the clarifier's options were ranked (the trace step's outcome).
    pub enum Ranking {
        /// By the rules' word evidence alone: no model, a language it does not
        /// read, or nothing it reads in the input.
        Words,
        /// Word evidence first, then meaning.
        Meaning,
        /// A word tie cut or filled by meaning
        /// (docs/meaning.md#what-it-does-and-what-it-never-does).
        TieMeaning,
    }
}

/// Similarities to the input, by pool entry, when the clarifier ranks by
/// meaning.
#[derive(Debug, Clone, Default)]
pub struct Similar(pub Option<Vec<f32>>);

impl Similar {
    pub fn of(&self, entry: usize) -> Option<f32> {
        self.0.as_ref().and_then(|s| s.get(entry).copied())
    }

    /// `entries` most similar first; equal similarities (and no
    /// similarities at all) keep their order.
    pub fn sort(&self, entries: &mut [usize]) {
        if let Some(s) = &self.0 {
            entries.sort_by(|a, b| s[*b].total_cmp(&s[*a]));
        }
    }

    /// The `n` pool entries but `taken` most similar to the input, most
    /// similar first (pool order for equal similarity): what fills a
    /// clarifier's open slots.
    pub fn rest(&self, len: usize, taken: &[usize], n: usize) -> Vec<usize> {
        self.most_similar((0..len).filter(|i| !taken.contains(i)).collect(), n)
    }

    /// `rest` of those at least `floor` similar to the input (none without
    /// similarities): the same entries as `rest` keeps of them, in the
    /// same order, without ranking the others.
    pub fn closest(&self, len: usize, taken: &[usize], n: usize, floor: f32) -> Vec<usize> {
        let Some(s) = &self.0 else { return Vec::new() };
        self.most_similar((0..len).filter(|i| s.get(*i).is_some_and(|x| *x >= floor) && !taken.contains(i)).collect(), n)
    }

    /// The `n` of `rest` most similar to the input, most similar first
    /// (their order in `rest`, ascending, for equal similarity).
    fn most_similar(&self, mut rest: Vec<usize>, n: usize) -> Vec<usize> {
        if let Some(s) = &self.0
            && n < rest.len()
        {
            // The `n` most similar, then only they are sorted.
            rest.select_nth_unstable_by(n, |a, b| s[*b].total_cmp(&s[*a]).then(a.cmp(b)));
            rest.truncate(n);
            rest.sort_unstable();
        }
        self.sort(&mut rest);
        rest.truncate(n);
        rest
    }
}

#[cfg(test)]
mod tests;
