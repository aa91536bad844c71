//! The pool's canonical index, built once per pool: every candidate's
//! label, aliases, badge and kind canonicalized into one buffer, the words
//! of each, which bytes label words start with, and (on first need) the
//! vocabulary of distinct words and who has each. Every rule reads the
//! pool through it; none re-canonicalizes. A memo may keep it for a pool
//! that comes again, and each candidate's part of it ([`CanonLabel`]) for
//! a label that comes again on another screen (`crate::intern`); matching
//! never does.
//!
//! Tests: `index/tests.rs` (the vocabulary and the cheap tests agree with
//! scanning the pool; a derived badge; a label's joined length; a pool
//! put together from its candidates' parts is the pool built whole).

use super::MatchKind;
use crate::canon::{canonicalize_into, canonicalize_words_into};
use crate::cost::{DeadlinePassed, DeadlineWatch};
use crate::lexicon::Lexicon;
use crate::scope::Pool;
use crate::types::Candidate;
use std::hash::BuildHasher;

/// A token that may be a badge: one letter or digit, or a short number.
pub(super) fn is_badge_token(t: &str) -> bool {
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.is_alphanumeric(),
        _ => is_number(t),
    }
}

/// One to three ASCII digits (a position or a short label number).
pub(super) fn is_number(t: &str) -> bool {
    (1..=3).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit())
}

/// The canonical labels, aliases, badges and words of a pool, computed once
/// per request into one buffer (every rung reads them; none
/// re-canonicalizes), or kept for a pool that comes again
/// (`intern::PoolMemo`). `find` reads the pool through it.
pub struct CanonPool {
    pub(super) text: String,
    pub(super) entries: Vec<CanonEntry>,
    /// Ranges of `text`.
    pub(super) aliases: Vec<(usize, usize)>,
    /// Ranges of `text`: each entry's label words, then its alias words.
    pub(super) words: Vec<(usize, usize)>,
    /// `text` is ASCII.
    pub(super) ascii: bool,
    /// The longest label or alias, its words joined (bytes).
    pub(super) max_joined: usize,
    /// Which first bytes (of one-letter label words) and first byte pairs
    /// (of longer ones) label words start with: a word spells a run of
    /// label words joined (`spells_joined`) only if it starts like one.
    starts: WordStarts,
    scratch: Vec<(usize, usize)>,
    /// The distinct words and who has each, built on first need
    /// (`vocab`), kept with the pool (a pool sent again has it ready).
    pub(super) vocab: std::sync::OnceLock<Vocab>,
    /// Which of the pool's kinds each entry has, made on first need
    /// (`kind_index`), kept with the pool: a screen sent again does not
    /// read every candidate's kind again.
    kinds: std::sync::OnceLock<KindIndex>,
    /// The entries' vectors when the clarifier ranks by meaning, made on
    /// first need (`vectors`), kept with the pool; the memo counts them
    /// (`PoolMemo::counting_vectors`).
    vectors: std::sync::OnceLock<crate::meaning::PoolVectors>,
}

/// The pool's distinct label and alias words, each with the entries that
/// have it: one lookup per input word instead of a scan of every word of
/// the pool, and each distinct word compared once by the typo rung.
/// Building it costs several scans of the pool (a hash table insert per
/// word against a length test per word), so the typo rung builds it for
/// a pool of at most `VOCAB_SMALL_POOL` words (a fraction of a
/// millisecond at worst, and pools repeat their words), or for
/// `VOCAB_NEAR_WORDS` words to look for; otherwise it scans.
pub(super) struct Vocab {
    /// Each distinct word's range in the pool's `text` (first seen first),
    /// and the range of `owners` that lists its entries, ascending.
    pub(super) words: Vec<((usize, usize), (u32, u32))>,
    pub(super) owners: Vec<u32>,
    /// Indices into `words`, hashed by the word's text.
    pub(super) table: hashbrown::HashTable<u32>,
}

/// A pool's distinct kinds, as typed: `first[k]` is the first entry
/// with kind `k`, `of[e]` entry `e`'s kind.
pub(super) struct KindIndex {
    pub(super) of: Vec<u32>,
    pub(super) first: Vec<u32>,
}

impl KindIndex {
    /// What it may hold on the heap for a pool of `entries` entries
    /// (each its own kind at most).
    fn max_bytes(entries: usize) -> usize {
        2 * entries * std::mem::size_of::<u32>()
    }
}

pub(super) const VOCAB_SMALL_POOL: usize = 20_000;
pub(super) const VOCAB_NEAR_WORDS: usize = 8;

impl Vocab {
    /// What a vocabulary of a pool of `words` words may hold on the heap
    /// (every word distinct): a range pair and an owner a word, and the
    /// table's buckets (a power of two at least 8/7 of its capacity, so up
    /// to 2.3 a word) with a control byte each. The memo counts it whether
    /// or not it was built, so a pool's size never changes once it is kept.
    fn max_bytes(words: usize) -> usize {
        words * (std::mem::size_of::<((usize, usize), (u32, u32))>() + std::mem::size_of::<u32>() + 3 * (std::mem::size_of::<u32>() + 1))
    }

    /// `None` when `stop` passed before it was done.
    fn build(canon: &CanonPool, stop: &DeadlineWatch) -> Option<Vocab> {
        let text = canon.text.as_str();
        let hash = |w: &str| rustc_hash::FxBuildHasher.hash_one(w);
        let mut words: Vec<((usize, usize), (u32, u32))> = Vec::with_capacity(canon.words.len());
        let mut table = hashbrown::HashTable::with_capacity(canon.words.len());
        // Each word occurrence as (distinct word, entry), in pool order.
        let mut seen: Vec<(u32, u32)> = Vec::with_capacity(canon.words.len());
        for (idx, entry) in canon.entries.iter().enumerate() {
            if stop.passed() {
                return None;
            }
            for &(s, e) in &canon.words[entry.all_words.0..entry.all_words.1] {
                let w = &text[s..e];
                let h = hash(w);
                let id = match table.find(h, |&i: &u32| {
                    let (s, e) = words[i as usize].0;
                    &text[s..e] == w
                }) {
                    Some(&i) => i,
                    None => {
                        let i = words.len() as u32;
                        words.push(((s, e), (0, 0)));
                        table.insert_unique(h, i, |&i: &u32| {
                            let (s, e) = words[i as usize].0;
                            hash(&text[s..e])
                        });
                        i
                    }
                };
                seen.push((id, idx as u32));
            }
        }
        // Each word's owners in one run of `owners`: counted, then filled
        // in pool order (an entry that has a word twice is listed once).
        let mut start = vec![0u32; words.len() + 1];
        for &(w, _) in &seen {
            start[w as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill: Vec<u32> = start[..words.len()].to_vec();
        let mut owners = vec![0u32; seen.len()];
        for &(w, idx) in &seen {
            let (first, at) = (start[w as usize], &mut fill[w as usize]);
            if *at == first || owners[*at as usize - 1] != idx {
                owners[*at as usize] = idx;
                *at += 1;
            }
        }
        for (w, word) in words.iter_mut().enumerate() {
            word.1 = (start[w], fill[w]);
        }
        Some(Vocab { words, owners, table })
    }

    /// The entries (ascending) that have the word `t`.
    pub(super) fn owners_of(&self, text: &str, t: &str) -> Option<&[u32]> {
        let h = rustc_hash::FxBuildHasher.hash_one(t);
        let &i = self.table.find(h, |&i: &u32| {
            let (s, e) = self.words[i as usize].0;
            &text[s..e] == t
        })?;
        let (first, end) = self.words[i as usize].1;
        Some(&self.owners[first as usize..end as usize])
    }
}

/// Bit sets of the first byte of one-byte words and of the first two bytes
/// of longer words (hashed into 4,096 bits: a shared bit only costs a
/// scan, never a miss).
#[derive(Debug, PartialEq)]
struct WordStarts {
    one: [u64; 4],
    two: [u64; 64],
}

impl WordStarts {
    fn pair(a: u8, b: u8) -> usize {
        (usize::from(a) << 5 ^ usize::from(b)) & 4095
    }

    fn add(&mut self, w: &[u8]) {
        match *w {
            [] => {}
            [a] => self.one[usize::from(a) >> 6] |= 1 << (a & 63),
            [a, b, ..] => {
                let k = Self::pair(a, b);
                self.two[k >> 6] |= 1 << (k & 63);
            }
        }
    }

    /// Whether some word of the set may be a proper prefix of `t`.
    fn may_prefix(&self, t: &[u8]) -> bool {
        let one = |a: u8| self.one[usize::from(a) >> 6] & (1 << (a & 63)) != 0;
        let two = |a: u8, b: u8| {
            let k = Self::pair(a, b);
            self.two[k >> 6] & (1 << (k & 63)) != 0
        };
        match *t {
            [a, b, ..] => one(a) || two(a, b),
            _ => false,
        }
    }
}

/// One candidate's part of a canonical pool: what `CanonPool::push` adds
/// for it (its canonical label, aliases, badge and kind, their words), in
/// a buffer of its own. It depends on the candidate's text and the lexicon
/// only, so a memo keeps it for a label that comes again on another
/// screen, under new ids (`intern::LabelMemo`), and a pool is put
/// together from the parts (`CanonPool::push_label`) as it would be built.
pub struct CanonLabel {
    text: Box<str>,
    /// Ranges of `text`, of `aliases` and of `words`, as in a pool of this
    /// one candidate.
    entry: CanonEntry,
    aliases: Box<[(usize, usize)]>,
    words: Box<[(usize, usize)]>,
    ascii: bool,
    /// The longest label or alias, its words joined.
    joined: usize,
}

impl CanonLabel {
    /// The part of `c` (canonicalized with `lex`).
    pub fn of(c: &Candidate, lex: &Lexicon) -> Self {
        let mut one = CanonPool::sized(c.label.len(), 1);
        one.push(c, lex);
        CanonLabel {
            text: one.text.into_boxed_str(),
            entry: one.entries.pop().expect("the one candidate"),
            aliases: one.aliases.into_boxed_slice(),
            words: one.words.into_boxed_slice(),
            ascii: one.ascii,
            joined: one.max_joined,
        }
    }

    /// What it holds on the heap (bytes), for a memo's budget.
    pub fn heap_bytes(&self) -> usize {
        self.text.len() + (self.aliases.len() + self.words.len()) * std::mem::size_of::<(usize, usize)>()
    }
}

#[derive(Debug, PartialEq)]
pub(super) struct CanonEntry {
    /// Range of `text`.
    pub(super) label: (usize, usize),
    /// Range of `CanonPool::aliases`.
    pub(super) aliases: (usize, usize),
    /// The candidate's explicit badge, canonical (a range of `text`), when
    /// it has one.
    pub(super) badge: Option<(usize, usize)>,
    /// The candidate's raw label is ASCII.
    pub(super) label_ascii: bool,
    /// The canonical label's length with its words joined (no spaces).
    pub(super) label_joined: u32,
    /// The candidate's kind, canonical (a range of `text`), when it has one.
    pub(super) kind: Option<(usize, usize)>,
    /// Ranges of `CanonPool::words`: the label's words, and all its words
    /// (label and aliases).
    pub(super) label_words: (usize, usize),
    pub(super) all_words: (usize, usize),
}

impl CanonPool {
    /// Room for the pool's labels (canonical text is seldom longer).
    pub(super) fn with_capacity(pool: &Pool<'_>) -> Self {
        Self::sized(pool.entries.iter().map(|e| e.cand.label.len()).sum(), pool.entries.len())
    }

    /// An empty pool with room for `bytes` of canonical text and `n`
    /// candidates (a pool's, or one label's part: `CanonLabel::of`).
    fn sized(bytes: usize, n: usize) -> Self {
        CanonPool {
            text: String::with_capacity(bytes),
            entries: Vec::with_capacity(n),
            aliases: Vec::new(),
            words: Vec::with_capacity(n * 4),
            ascii: true,
            max_joined: 0,
            starts: WordStarts { one: [0; 4], two: [0; 64] },
            scratch: Vec::with_capacity(8),
            vocab: std::sync::OnceLock::new(),
            kinds: std::sync::OnceLock::new(),
            vectors: std::sync::OnceLock::new(),
        }
    }

    /// The canonical pool of `pool`, or `DeadlinePassed`.
    pub fn build(pool: &Pool<'_>, lex: &Lexicon, stop: &DeadlineWatch) -> Result<Self, DeadlinePassed> {
        Self::assemble(pool, stop, |canon, c| canon.push(c, lex))
    }

    /// The canonical pool of `pool`, each candidate added by `add`: either
    /// canonicalized (`push`) or its part copied (`push_label`), which
    /// makes the same pool (`CanonLabel`). `DeadlinePassed` when `stop`
    /// passed first.
    pub fn assemble(pool: &Pool<'_>, stop: &DeadlineWatch, mut add: impl FnMut(&mut Self, &Candidate)) -> Result<Self, DeadlinePassed> {
        let mut canon = CanonPool::with_capacity(pool);
        for e in &pool.entries {
            if stop.passed() {
                return Err(DeadlinePassed);
            }
            add(&mut canon, e.cand);
        }
        canon.scratch = Vec::new();
        Ok(canon)
    }

    /// Adds a candidate whose part was canonicalized before
    /// (`CanonLabel::of`): the same as `push` of that candidate.
    pub fn push_label(&mut self, l: &CanonLabel) {
        let at = self.text.len();
        let shift = |(s, e): (usize, usize)| (s + at, e + at);
        self.text.push_str(&l.text);
        let first_alias = self.aliases.len();
        self.aliases.extend(l.aliases.iter().map(|&r| shift(r)));
        let first_word = self.words.len();
        self.words.extend(l.words.iter().map(|&r| shift(r)));
        let e = &l.entry;
        for &(s, e) in &l.words[e.label_words.0..e.label_words.1] {
            self.starts.add(&l.text.as_bytes()[s..e]);
        }
        self.ascii &= l.ascii;
        self.max_joined = self.max_joined.max(l.joined);
        self.entries.push(CanonEntry {
            label: shift(e.label),
            aliases: (first_alias + e.aliases.0, first_alias + e.aliases.1),
            badge: e.badge.map(shift),
            label_ascii: e.label_ascii,
            label_joined: e.label_joined,
            kind: e.kind.map(shift),
            label_words: (first_word + e.label_words.0, first_word + e.label_words.1),
            all_words: (first_word + e.all_words.0, first_word + e.all_words.1),
        });
    }

    /// What the pool holds on the heap (bytes), for the memo's budget.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + self.entries.capacity() * std::mem::size_of::<CanonEntry>()
            + (self.aliases.capacity() + self.words.capacity()) * std::mem::size_of::<(usize, usize)>()
            + Vocab::max_bytes(self.words.len())
            + KindIndex::max_bytes(self.entries.len())
    }

    /// The pool's distinct kinds as typed, and each entry's among them
    /// (`pool` is the pool this was built from, in order).
    pub(super) fn kind_index(&self, pool: &Pool<'_>) -> &KindIndex {
        self.kinds.get_or_init(|| {
            let mut first: Vec<u32> = Vec::new();
            let of = pool
                .entries
                .iter()
                .enumerate()
                .map(|(idx, e)| {
                    let raw = e.cand.kind.as_str();
                    match first.iter().position(|&f| pool.entries[f as usize].cand.kind == raw) {
                        Some(k) => k as u32,
                        None => {
                            first.push(idx as u32);
                            (first.len() - 1) as u32
                        }
                    }
                })
                .collect();
            KindIndex { of, first }
        })
    }

    /// The entries' vectors (`meaning::Meaning::pool_vectors`), made by
    /// `make` on the first call: a pool that comes again is embedded once.
    pub fn vectors(&self, make: impl FnOnce() -> crate::meaning::PoolVectors) -> &crate::meaning::PoolVectors {
        self.vectors.get_or_init(make)
    }

    /// How many entries it has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Builds the pool's vocabulary now, if it was not: what a pool that
    /// comes again is worth (every later call looks words up).
    /// `DeadlinePassed` when `stop` passed first.
    pub fn build_vocab(&self, stop: &DeadlineWatch) -> Result<(), DeadlinePassed> {
        self.vocab(stop).map(|_| ()).ok_or(DeadlinePassed)
    }

    /// The pool's vocabulary, built now if it was not (`None` when `stop`
    /// passed first).
    pub(super) fn vocab(&self, stop: &DeadlineWatch) -> Option<&Vocab> {
        if let Some(v) = self.vocab.get() {
            return Some(v);
        }
        let built = Vocab::build(self, stop)?;
        Some(self.vocab.get_or_init(|| built))
    }

    /// Canonicalizes the next candidate of the pool.
    pub fn push(&mut self, c: &Candidate, lex: &Lexicon) {
        let start = self.text.len();
        let label_ascii = canonicalize_words_into(&c.label, lex, &mut self.text, &mut self.scratch);
        // Canonical text of ASCII text is ASCII; of other text it may be.
        let mut ascii = label_ascii || self.text[start..].is_ascii();
        let label = (start, self.text.len());
        let first_word = self.words.len();
        for &(s, e) in &self.scratch {
            self.starts.add(&self.text.as_bytes()[s..e]);
        }
        self.words.extend_from_slice(&self.scratch);
        let label_words = (first_word, self.words.len());
        let label_joined = self.scratch.iter().map(|(s, e)| e - s).sum::<usize>();
        let mut joined = label_joined;
        let first_alias = self.aliases.len();
        for a in &c.aliases {
            let s = self.text.len();
            ascii &= canonicalize_words_into(a, lex, &mut self.text, &mut self.scratch) || self.text[s..].is_ascii();
            self.aliases.push((s, self.text.len()));
            self.words.extend_from_slice(&self.scratch);
            joined = joined.max(self.scratch.iter().map(|(s, e)| e - s).sum());
        }
        let badge = (!c.badge.trim().is_empty()).then(|| {
            let s = self.text.len();
            ascii &= canonicalize_into(&c.badge, lex, &mut self.text) || self.text[s..].is_ascii();
            (s, self.text.len())
        });
        let kind = (!c.kind.trim().is_empty()).then(|| {
            let s = self.text.len();
            ascii &= canonicalize_into(&c.kind, lex, &mut self.text) || self.text[s..].is_ascii();
            (s, self.text.len())
        });
        self.ascii &= ascii;
        self.max_joined = self.max_joined.max(joined);
        self.entries.push(CanonEntry {
            label,
            aliases: (first_alias, self.aliases.len()),
            badge,
            label_ascii,
            label_joined: u32::try_from(label_joined).unwrap_or(u32::MAX),
            kind,
            label_words,
            all_words: (first_word, self.words.len()),
        });
    }

    pub(super) fn label(&self, idx: usize) -> &str {
        let (s, e) = self.entries[idx].label;
        &self.text[s..e]
    }

    pub(super) fn aliases(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        let (first, end) = self.entries[idx].aliases;
        self.aliases[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    /// The label and the aliases, with the kind a whole match of each is.
    pub(crate) fn forms(&self, idx: usize) -> impl Iterator<Item = (&str, MatchKind)> {
        std::iter::once((self.label(idx), MatchKind::Normalized)).chain(self.aliases(idx).map(|a| (a, MatchKind::Alias)))
    }

    /// Every label and alias of the pool, in no particular order: for a
    /// question of the whole pool ("does any form say this?"), a walk of
    /// two flat lists rather than of each entry's forms.
    pub(crate) fn every_form(&self) -> impl Iterator<Item = &str> {
        let at = |&(s, e): &(usize, usize)| &self.text[s..e];
        self.entries.iter().map(move |entry| at(&entry.label)).chain(self.aliases.iter().map(at))
    }

    fn words_in(&self, (first, end): (usize, usize)) -> impl Iterator<Item = &str> + Clone {
        self.words[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    pub(crate) fn label_words_of(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        self.words_in(self.entries[idx].label_words)
    }

    /// The words of the entry's aliases.
    pub(crate) fn alias_words_of(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        self.words_in((self.entries[idx].label_words.1, self.entries[idx].all_words.1))
    }

    /// The other entries with a label or alias word that `t` only begins
    /// ("sam" begins "samantha", "apple" begins "apples"), that holds `t`
    /// as the last part of a joined word ("ball" in "football": the part
    /// before it of three letters or more, so "ring" is not in "spring"),
    /// or whose word `t` is the plural of ("lights" with "Hallway Light"):
    /// `t` of three letters or more, the rest of the word starting with a
    /// letter.
    pub(super) fn extending(&self, t: &str, except: usize, stop: &DeadlineWatch) -> Vec<usize> {
        if t.chars().count() < 3 || !t.chars().all(char::is_alphabetic) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for idx in 0..self.entries.len() {
            if stop.passed() {
                break;
            }
            // "sam" begins "samantha"; "ball" ends "football"; "lights" is
            // the plural of "light".
            let extends = |w: &str| {
                (w.len() > t.len() && w.starts_with(t) && w[t.len()..].starts_with(char::is_alphabetic))
                    || (w.len() >= t.len() + 3
                        && w.ends_with(t)
                        && w[..w.len() - t.len()].chars().count() >= 3
                        && w[..w.len() - t.len()].chars().all(char::is_alphabetic))
                    || (w.len() >= 3 && (t.strip_suffix('s') == Some(w) || t.strip_suffix("es") == Some(w)))
            };
            if idx != except && self.all_words(idx).any(extends) {
                out.push(idx);
            }
        }
        out
    }

    /// The canonical kind of one entry of each distinct kind the pool
    /// has (`pool`: the pool this was built from), in pool order; two raw
    /// kinds may read alike.
    pub(crate) fn distinct_kinds<'s>(&'s self, pool: &Pool<'_>) -> impl Iterator<Item = &'s str> {
        self.kind_index(pool).first.iter().filter_map(|&f| self.kind_text(f as usize))
    }

    /// The candidate's kind, canonical, if it has one.
    pub(crate) fn kind_text(&self, idx: usize) -> Option<&str> {
        self.entries[idx].kind.map(|(s, e)| &self.text[s..e])
    }

    /// Whether `t` is the candidate's kind, or its plural ("panels").
    pub(super) fn kind_is(&self, idx: usize, t: &str) -> bool {
        self.entries[idx].kind.is_some_and(|(s, e)| {
            let k = &self.text[s..e];
            super::same_or_plural(k, t)
        })
    }

    /// Whether some label holds these words one after another (a scan of
    /// the pool, `false` once `stop` has passed, as `any_word`).
    pub(super) fn has_run(&self, run: &[&str], stop: &DeadlineWatch) -> bool {
        !run.is_empty()
            && !stop.passed_now()
            && self.entries.iter().any(|entry| {
                let (first, end) = entry.label_words;
                self.words[first..end].windows(run.len()).any(|w| w.iter().zip(run).all(|(&(s, e), r)| &self.text[s..e] == *r))
            })
    }

    /// Whether some entry has both words (`a` and `b`) in its label (a
    /// scan of the pool, `false` once `stop` has passed, as `any_word`).
    pub(super) fn any_entry_has_both(&self, a: &str, b: &str, stop: &DeadlineWatch) -> bool {
        !stop.passed_now()
            && (0..self.entries.len()).any(|idx| self.label_words_of(idx).any(|w| w == a) && self.label_words_of(idx).any(|w| w == b))
    }

    /// Whether the labels say `b` only beside `a`: some entry has both,
    /// and every entry with `b` has `a` too ("century" of "21st Century
    /// Breakdown"; not "report" among reports, one of which says "first").
    pub(super) fn only_with(&self, a: &str, b: &str, stop: &DeadlineWatch) -> bool {
        let mut any = false;
        for idx in 0..self.entries.len() {
            if self.label_words_of(idx).any(|w| w == b) {
                if !self.label_words_of(idx).any(|w| w == a) {
                    return false;
                }
                any = true;
            }
        }
        any && !stop.passed_now()
    }

    /// The entries (ascending) that have any of `words` among their label
    /// and alias words, from the vocabulary; `None` when it is not built
    /// (the caller reads every entry).
    pub(crate) fn entries_with_any<'w>(&self, words: impl IntoIterator<Item = &'w str>) -> Option<Vec<usize>> {
        let vocab = self.vocab.get()?;
        let mut out: Vec<usize> = Vec::new();
        for w in words {
            out.extend(vocab.owners_of(&self.text, w).unwrap_or_default().iter().map(|&o| o as usize));
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Whether any label or alias has the word `t`: a lookup once the
    /// vocabulary is built, else a scan of every word of the pool, so the
    /// callers' loops over the input's words are bounded by `stop` here
    /// (once it has passed the answer is `false`, and `find` returns
    /// `DeadlinePassed` before anything reads it).
    pub(super) fn any_word(&self, t: &str, stop: &DeadlineWatch) -> bool {
        if let Some(v) = self.vocab.get() {
            return v.owners_of(&self.text, t).is_some();
        }
        !stop.passed_now() && self.words.iter().any(|&(s, e)| e - s == t.len() && &self.text[s..e] == t)
    }

    /// The candidate's badge: its explicit badge, else the last word of a
    /// label of two words or more when it is a letter or a short number.
    pub(super) fn badge_of(&self, idx: usize) -> Option<&str> {
        if let Some((s, e)) = self.entries[idx].badge {
            return Some(&self.text[s..e]);
        }
        let (first, end) = self.entries[idx].label_words;
        (end - first >= 2).then(|| self.words_in((end - 1, end)).next()).flatten().filter(|w| is_badge_token(w))
    }

    /// The pool's distinct label and alias words, each with the entries
    /// (ascending) that have it, when the vocabulary is built (`None`
    /// otherwise: `all_words` of each entry says the same, repeated).
    pub(super) fn distinct_words(&self) -> Option<impl Iterator<Item = (&str, &[u32])>> {
        let v = self.vocab.get()?;
        Some(v.words.iter().map(|&((s, e), (first, end))| (&self.text[s..e], &v.owners[first as usize..end as usize])))
    }

    /// The candidate's words: its label's, then its aliases'.
    pub(super) fn all_words(&self, idx: usize) -> impl Iterator<Item = &str> {
        let (first, end) = self.entries[idx].all_words;
        self.words[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    /// Whether two or three consecutive label words spell `t` together
    /// ("w4" is "W-4", "linkspanel" is "Links Panel").
    /// Whether some entry's label words, two or more joined, may spell
    /// `t` (a cheap test that every `spells_joined` hit passes).
    pub(super) fn may_spell_joined(&self, t: &str) -> bool {
        self.starts.may_prefix(t.as_bytes())
    }

    /// The entries (ascending) that have each of `words`: a lookup each
    /// when the vocabulary is built, or built now for a long input
    /// (building it costs about one pass over the pool's words), else one
    /// pass over the pool's words. `None` when `stop` passed.
    pub(super) fn owners_of_words(&self, words: &[&str], stop: &DeadlineWatch) -> Option<Vec<Vec<usize>>> {
        let vocab = match self.vocab.get() {
            Some(v) => Some(v),
            None if words.len() > 8 => Some(self.vocab(stop)?),
            None => None,
        };
        if let Some(vocab) = vocab {
            let owners = |t: &&str| vocab.owners_of(&self.text, t).unwrap_or_default().iter().map(|&o| o as usize).collect();
            return Some(words.iter().map(owners).collect());
        }
        let mut exact: Vec<Vec<usize>> = vec![Vec::new(); words.len()];
        for idx in 0..self.entries.len() {
            if stop.passed() {
                return None;
            }
            for w in self.all_words(idx) {
                for (k, t) in words.iter().enumerate() {
                    if w.len() == t.len() && w == *t && exact[k].last() != Some(&idx) {
                        exact[k].push(idx);
                    }
                }
            }
        }
        Some(exact)
    }

    /// The entries (ascending) whose label words, two or more joined,
    /// spell `t`: with the pool's word index, only those with a word that
    /// begins `t` are tried.
    pub(super) fn spelling_joined(&self, t: &str, stop: &DeadlineWatch) -> Vec<usize> {
        let Some(vocab) = self.vocab.get() else {
            return (0..self.entries.len()).take_while(|_| !stop.passed()).filter(|idx| self.spells_joined(*idx, t)).collect();
        };
        let mut tried: Vec<usize> =
            t.char_indices().skip(1).filter_map(|(at, _)| vocab.owners_of(&self.text, &t[..at])).flatten().map(|&o| o as usize).collect();
        tried.sort_unstable();
        tried.dedup();
        tried.retain(|&idx| self.spells_joined(idx, t));
        tried
    }

    pub(super) fn spells_joined(&self, idx: usize, t: &str) -> bool {
        let word = |i: usize| {
            let (s, e) = self.words[i];
            &self.text[s..e]
        };
        let (first, end) = self.entries[idx].label_words;
        (first..end).any(|i| {
            // Words from i on, while they are a prefix of what is left of t.
            let mut rest = t;
            let mut n = 0;
            for j in i..end.min(i + 3) {
                let w = word(j);
                let Some(r) = rest.strip_prefix(w) else { return false };
                rest = r;
                n += 1;
                if rest.is_empty() {
                    return n >= 2;
                }
            }
            false
        })
    }
}

#[cfg(test)]
mod tests;
