//! Caches and interning: what calls on the same options, or on the same
//! labels, share, kept out of the rules. One [`PoolMemo`] per
//! configuration generation (per lexicon and model) holds the option lists
//! calls decode (interned by their bytes, with what each costs), the
//! canonical index of recent pools (`matching::CanonPool`), the pools'
//! part of recent evidence fingerprints, and what recent labels derive
//! ([`LabelMemo`]: a new screen of labels seen before is put together from
//! them).
//!
//! The rules never see the memo. The sequence asks [`pool_index`] for the
//! pool's index, which it hands to `matching::find`, the run asks
//! [`pool_fingerprint`] for the evidence fingerprint, and the clarifier's
//! ranking by meaning asks [`pool_vectors`] for the pool's vectors: each
//! the memo's when it holds one, else made afresh (from the labels the
//! memo holds, when it holds them), and the same either way.
//! `intern/tests.rs` checks that: a memo'd index matches as one built
//! afresh, and a turn decided with the memo, its labels held or not, is
//! the turn decided without it.

mod labels;

pub use labels::{Label, LabelKey, LabelMemo};

use crate::cost::{DeadlinePassed, DeadlineWatch};
use crate::fingerprint::fingerprint;
use crate::lexicon::Lexicon;
use crate::matching::CanonPool;
use crate::memo::Piece;
use crate::scope::Pool;
use crate::types::{Candidate, ScopeRef};
use std::sync::Arc;

/// The canonical index of `pool`, for `matching::find`: the memo's when it
/// holds the same pool (`PoolMemo`), else built (and kept by the memo,
/// within its budget). `options` is the request's option list
/// (`DecideRequest::options`): the memo knows a pool that is this list
/// whole by its address (`whole_list`). Without a memo, built afresh.
pub fn pool_index(
    memo: Option<&PoolMemo>,
    pool: &Pool<'_>,
    options: Option<&Arc<Vec<Candidate>>>,
    lex: &Lexicon,
    stop: &DeadlineWatch,
) -> Result<Arc<CanonPool>, DeadlinePassed> {
    match memo {
        Some(memo) => memo.canonical(pool, whole_list(pool, options), lex, stop),
        None => Ok(Arc::new(CanonPool::build(pool, lex, stop)?)),
    }
}

/// The evidence fingerprint of an unresolved turn over `pool`
/// (`fingerprint::fingerprint`), the pool's part from the memo when it
/// hashed the same pool before: known by the list's address when `pool`
/// is `options` whole (`whole_list`), else by its signature fields.
pub fn pool_fingerprint(
    memo: Option<&PoolMemo>,
    pool: &Pool<'_>,
    options: Option<&Arc<Vec<Candidate>>>,
    scope: Option<&ScopeRef>,
    option_set_id: &str,
    evidence: &[String],
) -> String {
    match memo {
        Some(memo) => {
            // The pool's part, when the memo does not hold it: hashed with
            // the normalized fields of the labels it holds.
            let cands: Vec<&Candidate> = pool.entries.iter().map(|e| e.cand).collect();
            let state = || {
                let held = memo.labels.held(&cands);
                crate::fingerprint::pool_state(cands.iter().zip(&held).map(|(c, l)| (*c, l.as_deref().map(|l| &l.signed))))
            };
            match whole_list(pool, options) {
                Some(list) => memo.fingerprints.fingerprint_of_list_with(scope, option_set_id, list, evidence, state),
                None => memo.fingerprints.fingerprint_with(scope, option_set_id, &cands, evidence, state),
            }
        }
        None => fingerprint(scope, option_set_id, pool.entries.iter().map(|e| e.cand), evidence),
    }
}

/// The vectors of `pool`'s entries (`meaning::Meaning::pool_vectors`), each
/// the label memo's when it holds the candidate's text (`LabelMemo`),
/// else embedded (the misses together) and kept. Without a memo, all
/// embedded.
pub fn pool_vectors(memo: Option<&PoolMemo>, m: &crate::meaning::Meaning, pool: &Pool<'_>) -> crate::meaning::PoolVectors {
    match memo.filter(|memo| !memo.labels.is_off()) {
        Some(memo) => {
            let cands: Vec<&Candidate> = pool.entries.iter().map(|e| e.cand).collect();
            let rows = memo.labels.vectors(&cands, |missing| m.vectors_of(missing.iter().copied(), true));
            crate::meaning::PoolVectors::new(m.model.dim(), rows)
        }
        None => m.pool_vectors(pool),
    }
}

/// Canonical pools of recent requests, reused when a request sends the same
/// options again (the same screen on the next turn, or many users on the
/// same screen), or the same labels in a new option set: canonicalizing a
/// pool is most of what matching costs on a clear input. A pool that is an
/// option list the caller shares (`intern`) whole is known by the list's
/// address (`ByteMemo::get_at`), without reading it; any other pool, and a
/// list not known by its address, by the text its canonical form and
/// vectors are made from (each candidate's label, badge, kind, sublabel
/// and aliases, in the pool's order; not its id), verified byte for byte on
/// a hit. Either way a reused pool is the one `CanonPool::build` would
/// make. Bounded by a byte budget (least recently used out first; a
/// pool larger than an eighth of it is never kept). One memo per lexicon:
/// the daemon makes one per configuration generation.
///
/// A pool it does not hold is put together from its labels' parts
/// (`LabelMemo`, a budget of its own), canonicalizing only the labels it
/// has not seen.
#[derive(Debug)]
pub struct PoolMemo {
    pools: crate::memo::ByteMemo<Arc<CanonPool>>,
    /// The pools' part of recent evidence fingerprints (a quarter of the
    /// budget again): a pool that comes again is hashed once.
    pub fingerprints: crate::fingerprint::FingerprintMemo,
    /// Option lists by the bytes they were decoded from (the same budget
    /// again, so a list of a thousand candidates is kept): the calls on
    /// the same options share one list (`intern`).
    lists: crate::memo::ByteMemo<Arc<Vec<Candidate>>>,
    /// What each interned list costs (`facts`), known by its address.
    facts: crate::memo::ByteMemo<ListFacts>,
    /// The floats of one entry's vector when the clarifier ranks by
    /// meaning (0: it does not): a pool's vectors are kept with it and
    /// counted against the budget (`counting_vectors`).
    vector_dim: usize,
    /// What recent labels derive, for pools it does not hold.
    pub labels: LabelMemo,
}

#[derive(Clone)]
struct ListFacts {
    costs: crate::cost::ListCosts,
    bytes: usize,
}

impl PoolMemo {
    /// A memo holding at most `budget` bytes of canonical pools, and as
    /// many of labels (`with_labels` to size those).
    pub fn new(budget: usize) -> Self {
        PoolMemo {
            pools: crate::memo::ByteMemo::new(budget).second_sight(),
            fingerprints: crate::fingerprint::FingerprintMemo::new(budget / 4),
            lists: crate::memo::ByteMemo::new(budget),
            facts: crate::memo::ByteMemo::new(budget / 16),
            vector_dim: 0,
            labels: LabelMemo::new(budget),
        }
    }

    /// The same memo, its label memo holding at most `budget` bytes (0:
    /// none is kept).
    pub fn with_labels(self, budget: usize) -> Self {
        PoolMemo { labels: LabelMemo::new(budget), ..self }
    }

    /// The same memo, counting each pool's vectors of `dim` floats per
    /// entry (the clarifier's ranking by meaning) against its budget.
    pub fn counting_vectors(self, dim: usize) -> Self {
        PoolMemo { vector_dim: dim, ..self }
    }

    /// What a canonical pool costs the budget: its own heap bytes, and its
    /// vectors when they may be made.
    fn pool_bytes(&self, canon: &CanonPool) -> usize {
        canon.heap_bytes() + crate::meaning::PoolVectors::bytes_for(canon.len(), self.vector_dim)
    }

    /// An interned list's part of the request's costs
    /// (`cost::list_costs`) and its bytes (`Candidate::approx_bytes`),
    /// counted when it was interned: a call on options that come again does
    /// not count them again. `None` for a list the memo did not intern.
    pub fn facts(&self, list: &Arc<Vec<Candidate>>) -> Option<(crate::cost::ListCosts, usize)> {
        self.facts.get_at(list).map(|f| (f.costs, f.bytes))
    }

    /// The list the memo holds for `wire` (`intern`), if any, and the
    /// hash of `wire` (for `keep` when there is none).
    pub fn interned(&self, wire: &[u8]) -> (u64, Option<Arc<Vec<Candidate>>>) {
        // Bytes over what the memo keeps are not even hashed (a list of
        // megabytes, sent on every call, would be read for nothing).
        if !self.lists.fits(wire.len()) {
            return (0, None);
        }
        self.lists.get_key(&crate::memo::Bytes(wire))
    }

    /// Holds `list` for `wire`, under its hash from `interned`, with what
    /// it costs (`facts`).
    pub fn keep(&self, hash: u64, wire: &[u8], list: &Arc<Vec<Candidate>>) {
        let bytes = list.iter().map(Candidate::approx_bytes).sum::<usize>();
        self.lists.put_key(hash, &crate::memo::Bytes(wire), list.clone(), bytes);
        self.facts.put_at(list, ListFacts { costs: crate::cost::list_costs(list), bytes }, 0);
    }

    /// The list the memo holds for `wire`, else `list`, now held under it
    /// (`interned`, then `keep`). `wire` is what the caller decoded `list`
    /// from (its protobuf bytes), so equal bytes make an equal list: the
    /// caller vouches for that. A call on options that come again (the
    /// same screen on the next turn, or many users on it) then gets the one
    /// shared list, which the memo knows by its address (`canonical`, the
    /// fingerprints); the list it decoded is freed at once, while its
    /// memory is still in the cache, and an open cycle keeps the shared
    /// list, not a copy of its own.
    pub fn intern(&self, wire: &[u8], list: Arc<Vec<Candidate>>) -> Arc<Vec<Candidate>> {
        let (hash, held) = self.interned(wire);
        held.unwrap_or_else(|| {
            self.keep(hash, wire, &list);
            list
        })
    }

    /// How many option lists `intern` holds, and their bytes (the lists
    /// and the bytes they are known by).
    pub fn lists_held(&self) -> (usize, usize) {
        self.lists.held()
    }

    /// How many pools it holds, and their bytes.
    pub fn held(&self) -> (usize, usize) {
        self.pools.held()
    }

    /// The canonical pool of `pool`: the memo's when it holds the same
    /// text, else built (and kept, within the budget). `whole` is the list
    /// `pool` is, whole and in order, when someone else holds it too (an
    /// interned list, or one a session keeps): known by its address.
    fn canonical(
        &self,
        pool: &Pool<'_>,
        whole: Option<&Arc<Vec<Candidate>>>,
        lex: &Lexicon,
        stop: &DeadlineWatch,
    ) -> Result<Arc<CanonPool>, DeadlinePassed> {
        let ready = |canon: Arc<CanonPool>| {
            // A pool that comes again is worth its vocabulary (built once,
            // on its first reuse): every later call looks words up.
            canon.build_vocab(stop)?;
            Ok(canon)
        };
        if let Some(list) = whole
            && let Some(canon) = self.pools.get_at(list)
        {
            return ready(canon);
        }
        // A list not seen before may be a screen seen before under new
        // ids (a new option set of the same labels): known by its text,
        // unless the label memo is off (`server.label_memo_bytes = 0`: a
        // whole list is then known by its address only, and a caller
        // cannot learn by timing whether a screen's labels were shown
        // lately under other ids). Its labels' hashes make its hash, and
        // find them in the label memo when it is new.
        let by_text = whole.is_none() || !self.labels.is_off();
        let key = PoolKey(pool);
        let hashes: Vec<u64> = match by_text {
            true => pool.entries.iter().map(|e| LabelKey::hash(e.cand)).collect(),
            false => Vec::new(),
        };
        let hash = PoolKey::hash(&hashes);
        if by_text && let Some(canon) = self.pools.get_hashed(hash, &key) {
            return ready(canon);
        }
        let canon = Arc::new(self.build(pool, &hashes, lex, stop)?);
        let bytes = self.pool_bytes(&canon);
        match whole {
            // A list is known by its address from now on; by its text too
            // once its labels came lately in another list (the same
            // screen, new ids): a screen of new labels is not copied in.
            Some(list) => {
                self.pools.put_at(list, canon.clone(), bytes);
                if by_text && self.pools.offer(hash) {
                    self.pools.put_key(hash, &key, canon.clone(), bytes);
                }
            }
            None => self.pools.put_key(hash, &key, canon.clone(), bytes),
        }
        Ok(canon)
    }

    /// The canonical pool of `pool`, put together from its labels' parts
    /// (`LabelMemo::labels`: those it holds or now keeps), the others
    /// canonicalized in place: the pool `CanonPool::build` makes.
    fn build(&self, pool: &Pool<'_>, hashes: &[u64], lex: &Lexicon, stop: &DeadlineWatch) -> Result<CanonPool, DeadlinePassed> {
        if self.labels.is_off() {
            return CanonPool::build(pool, lex, stop);
        }
        let keys: Vec<(u64, LabelKey<'_>)> = hashes.iter().zip(&pool.entries).map(|(h, e)| (*h, LabelKey(e.cand))).collect();
        let labels = self.labels.labels(&keys, lex, stop).ok_or(DeadlinePassed)?;
        let mut next = labels.iter();
        CanonPool::assemble(pool, stop, |canon, c| match next.next() {
            Some(Some(l)) => canon.push_label(&l.canon),
            _ => canon.push(c, lex),
        })
    }
}

/// `list` when `pool` is it, whole and in order, and someone else holds it
/// too (an interned list, or one a session keeps): a pool the memo may know
/// by the list's address. A list only this request holds is new on every
/// call; it is read field by field instead.
pub fn whole_list<'a>(pool: &Pool<'_>, list: Option<&'a Arc<Vec<Candidate>>>) -> Option<&'a Arc<Vec<Candidate>>> {
    list.filter(|l| Arc::strong_count(l) > 1 && pool.is_whole(l))
}

/// What a pool's canonical form and its vectors are made from, piece by
/// piece: each entry's text (`LabelKey`: its label, sublabel, badge, kind
/// and aliases; never its id). A pool that comes again, under the same ids
/// or new ones, is hashed and compared with the key kept without being
/// put together (`memo::Key`). Its hash is made of its labels' (`hash`),
/// which find them in the label memo too.
struct PoolKey<'a, 'p>(&'a Pool<'p>);

impl PoolKey<'_, '_> {
    /// The hash of a pool whose entries' `LabelKey`s hash to `labels`.
    fn hash(labels: &[u64]) -> u64 {
        use std::hash::Hasher;
        let mut h = rustc_hash::FxHasher::default();
        h.write_usize(labels.len());
        labels.iter().for_each(|l| h.write_u64(*l));
        h.finish()
    }
}

impl crate::memo::Key for PoolKey<'_, '_> {
    fn pieces(&self, mut f: impl FnMut(Piece<'_>) -> bool) -> bool {
        self.0.entries.iter().all(|e| LabelKey(e.cand).pieces(&mut f))
    }
}

#[cfg(test)]
mod tests;
