//! A memo of values keyed by byte strings, least recently used out first
//! within a budget of bytes, each key verified byte for byte before its
//! value is reused (a hash alone never decides). The pool memo
//! (`intern::PoolMemo`), its interned option lists and their costs, the
//! fingerprint memo (`fingerprint::FingerprintMemo`) and the label memo's
//! two (`intern::LabelMemo`) are six of these. A screen's labels are
//! looked up and kept many at a time, under one lock (`get_many`,
//! `put_many`). A memo keyed by text may keep a key only the second time it
//! is offered (`second_sight`): what comes once is not copied in, nor
//! pushes anything out (the label memo's labels and vectors, and a pool
//! known by an option list's text).
//!
//! A list the caller shares (`PoolMemo::intern`) is known by its address
//! instead (`get_at`, `put_at`): its entries are found without reading the
//! list.

use std::any::Any;
use std::sync::{Arc, Mutex, Weak};

pub struct ByteMemo<V> {
    budget: usize,
    inner: Mutex<Inner<V>>,
    /// With `second_sight`: the keys offered lately (`offer`).
    door: Option<Doorkeeper>,
}

struct Inner<V> {
    entries: lru::LruCache<u64, Arc<Entry<V>>>,
    bytes: usize,
}

struct Entry<V> {
    key: Box<[u8]>,
    /// For an entry kept by a list's address (`put_at`), the list; its key
    /// is empty.
    at: Option<Weak<dyn Any + Send + Sync>>,
    value: V,
    /// What it counts against the budget.
    bytes: usize,
}

impl<V> std::fmt::Debug for ByteMemo<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (entries, bytes) = self.held();
        f.debug_struct("ByteMemo").field("budget", &self.budget).field("entries", &entries).field("bytes", &bytes).finish()
    }
}

impl<V> ByteMemo<V> {
    /// A memo holding at most `budget` bytes (an entry over an eighth of it
    /// is never kept).
    pub fn new(budget: usize) -> Self {
        ByteMemo { budget, inner: Mutex::new(Inner { entries: lru::LruCache::unbounded(), bytes: 0 }), door: None }
    }

    /// The same memo, keeping a key only the second time it is offered
    /// lately (`offer`, `Doorkeeper`, sized to a sixteenth of the budget
    /// at most); its budget takes the doorkeeper's bytes.
    pub fn second_sight(self) -> Self {
        let door = Doorkeeper::within(self.budget / 16);
        ByteMemo { budget: self.budget.saturating_sub(door.bytes()), door: Some(door), ..self }
    }

    /// Whether a value for the key of `hash` (its `hash_of`) is to be kept
    /// (`put_key`, `put_many`): always, or, with `second_sight`, when the
    /// key was offered lately. The caller asks before making the value.
    pub fn offer(&self, hash: u64) -> bool {
        self.door.as_ref().is_none_or(|d| d.seen_again(hash))
    }

    /// The bytes it may hold.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// How many entries it holds, and their bytes.
    pub fn held(&self) -> (usize, usize) {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        (inner.entries.len(), inner.bytes)
    }
}

impl<V: Clone> ByteMemo<V> {
    /// The value kept for a key given piece by piece (now the most
    /// recently used), and the key's hash (for `put_key` when there is
    /// none): hashed and compared with the kept key without being put
    /// together.
    pub fn get_key(&self, key: &impl Key) -> (u64, Option<V>) {
        let hash = hash_of(key);
        (hash, self.get_verified(hash, |e| e.at.is_none() && is_key(key, &e.key)))
    }

    /// Keeps `value` for a key given piece by piece, under its hash from
    /// `get_key`: the key is put together now, to be kept (not when the
    /// entry would not fit: a key of megabytes is never copied for nothing).
    pub fn put_key(&self, hash: u64, key: &impl Key, value: V, size: usize) {
        if self.fits(key_len(key) + size) {
            self.put_entry(hash, Entry { bytes: 0, key: key_of(key).into_boxed_slice(), at: None, value }, size)
        }
    }

    /// Whether an entry of `bytes` (its key and its value's size) would be
    /// kept: at most an eighth of the budget.
    pub fn fits(&self, bytes: usize) -> bool {
        bytes + std::mem::size_of::<Entry<V>>() <= self.budget / 8
    }

    /// `get_key` of a key whose hash the caller made (`put_key` it under
    /// the same hash).
    pub fn get_hashed(&self, hash: u64, key: &impl Key) -> Option<V> {
        self.get_verified(hash, |e| e.at.is_none() && is_key(key, &e.key))
    }

    /// `get_key` of each of `keys`, each with its hash (`hash_of`, or the
    /// caller's own, as for `put_many`): the values kept (now the most
    /// recently used), under one lock.
    pub fn get_many<K: Key>(&self, keys: &[(u64, K)]) -> Vec<Option<V>> {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        keys.iter()
            .map(|(hash, key)| inner.entries.get(hash).filter(|e| e.at.is_none() && is_key(key, &e.key)).map(|e| e.value.clone()))
            .collect()
    }

    /// `put_key` of each of `items` (its hash from `hash_of`, its key, its
    /// value and its size), under one lock.
    pub fn put_many<K: Key>(&self, items: impl IntoIterator<Item = (u64, K, V, usize)>) {
        let entries: Vec<(u64, Arc<Entry<V>>)> = items
            .into_iter()
            .filter(|(_, key, _, size)| self.fits(key_len(key) + size))
            .map(|(hash, key, value, size)| {
                let key = key_of(&key).into_boxed_slice();
                let bytes = key.len() + size + std::mem::size_of::<Entry<V>>();
                (hash, Arc::new(Entry { key, at: None, value, bytes }))
            })
            .collect();
        if entries.is_empty() {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        for (hash, entry) in entries {
            inner.insert(self.budget, hash, entry);
        }
    }

    /// The value kept for `list` by `put_at` (now the most recently used).
    ///
    /// A list is known by its address: the entry holds a `Weak` of it, and
    /// while that `Weak` lives the allocation is not freed, so no other
    /// list is ever at that address; and the contents of an `Arc` never
    /// change once a `Weak` of it exists (`Arc::get_mut` refuses,
    /// `Arc::make_mut` moves them to a new allocation). A list at the kept
    /// address is therefore the very list the value was derived from. The
    /// `Weak` keeps the allocation's header, not the list's elements: a
    /// list dropped by everyone else is freed, and its entry never matches
    /// again (the least recently used go first).
    pub fn get_at<T: Any + Send + Sync>(&self, list: &Arc<T>) -> Option<V> {
        self.get_verified(address_hash(list), |e| e.at.as_ref().is_some_and(|w| std::ptr::addr_eq(w.as_ptr(), Arc::as_ptr(list))))
    }

    /// Keeps `value`, derived from `list`'s contents, for `list` (`get_at`),
    /// counted as `size` bytes besides the entry.
    pub fn put_at<T: Any + Send + Sync>(&self, list: &Arc<T>, value: V, size: usize) {
        let at: Weak<dyn Any + Send + Sync> = Arc::downgrade(list) as Weak<T>;
        self.put_entry(address_hash(list), Entry { bytes: 0, key: Box::default(), at: Some(at), value }, size)
    }

    /// The entry kept under `hash`, if `is_it` accepts it.
    fn get_verified(&self, hash: u64, is_it: impl FnOnce(&Entry<V>) -> bool) -> Option<V> {
        let found = self.inner.lock().unwrap_or_else(|p| p.into_inner()).entries.get(&hash).cloned();
        found.filter(|e| is_it(e)).map(|e| e.value.clone())
    }

    /// Keeps `entry` under `hash`, counted as `size` bytes besides its key
    /// and itself; the least recently used go while the memo is over its
    /// budget.
    fn put_entry(&self, hash: u64, mut entry: Entry<V>, size: usize) {
        if !self.fits(entry.key.len() + size) {
            return;
        }
        entry.bytes = entry.key.len() + size + std::mem::size_of::<Entry<V>>();
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).insert(self.budget, hash, Arc::new(entry));
    }
}

impl<V> Inner<V> {
    /// Keeps `entry` under `hash`; the least recently used go while over
    /// `budget`.
    fn insert(&mut self, budget: usize, hash: u64, entry: Arc<Entry<V>>) {
        let bytes = entry.bytes;
        if let Some(old) = self.entries.put(hash, entry) {
            self.bytes -= old.bytes;
        }
        self.bytes += bytes;
        while self.bytes > budget {
            let Some((_, old)) = self.entries.pop_lru() else { break };
            self.bytes -= old.bytes;
        }
    }
}

/// The hash an entry kept for `list`'s address is kept under.
fn address_hash<T>(list: &Arc<T>) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write_usize(Arc::as_ptr(list) as *const () as usize);
    h.finish()
}

/// A key that is bytes, whole (an option list's protobuf encoding).
pub struct Bytes<'a>(pub &'a [u8]);

impl Key for Bytes<'_> {
    fn pieces(&self, mut f: impl FnMut(Piece<'_>) -> bool) -> bool {
        f(Piece::Text(self.0))
    }
}

/// A piece of a key: a length (four bytes, little-endian) or text.
#[derive(Clone, Copy)]
pub enum Piece<'a> {
    Len(u32),
    Text(&'a [u8]),
}

/// A key given as pieces, in order (each text after its length, so no two
/// keys read the same): a memo hashes it and compares it with a kept key
/// piece by piece, and puts it together only to keep it. A key read from
/// a request's fields (every candidate's label, say) is not copied on a
/// call that finds its value.
pub trait Key {
    /// Hands `f` the pieces until it refuses one; whether it took them all.
    fn pieces(&self, f: impl FnMut(Piece<'_>) -> bool) -> bool;
}

/// The length of the key put together.
fn key_len(key: &impl Key) -> usize {
    let mut bytes = 0;
    key.pieces(|piece| {
        bytes += match piece {
            Piece::Len(_) => 4,
            Piece::Text(t) => t.len(),
        };
        true
    });
    bytes
}

/// The key put together.
pub(crate) fn key_of(key: &impl Key) -> Vec<u8> {
    let mut out = Vec::with_capacity(key_len(key));
    key.pieces(|piece| {
        match piece {
            Piece::Len(n) => out.extend_from_slice(&n.to_le_bytes()),
            Piece::Text(t) => out.extend_from_slice(t),
        }
        true
    });
    out
}

pub(crate) fn hash_of(key: &impl Key) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    key.pieces(|piece| {
        match piece {
            Piece::Len(n) => h.write_u32(n),
            Piece::Text(t) => h.write(t),
        }
        true
    });
    h.finish()
}

/// Whether `kept` is `key` put together.
pub(crate) fn is_key(key: &impl Key, kept: &[u8]) -> bool {
    let mut rest = kept;
    key.pieces(|piece| {
        let (same, len) = match piece {
            Piece::Len(n) => (rest.first_chunk::<4>().is_some_and(|b| u32::from_le_bytes(*b) == n), 4),
            Piece::Text(t) => (rest.get(..t.len()).is_some_and(|head| head == t), t.len()),
        };
        rest = if same { &rest[len..] } else { &[] };
        same
    }) && rest.is_empty()
}

/// Which keys were seen lately, by their hashes: a memo that keeps a key
/// only the second time it is offered (`ByteMemo::offer`) keeps nothing of
/// what comes once (a screen of new labels, a flood of made-up ones), and
/// pays for it two bit tests instead of an entry made and pushed out
/// again. Two bits per hash (a Bloom filter) of a power of two between
/// 4,096 and 524,288 bits (64 KiB); cleared after a count of first
/// sightings of an eighth of its bits, so "lately" is the last sixty
/// thousand or so keys offered at the largest, and at most a quarter of
/// the bits are set (a key never seen is taken for seen less than one time
/// in sixteen: kept early, never wrongly, since the memo compares keys).
pub struct Doorkeeper {
    bits: Box<[std::sync::atomic::AtomicU64]>,
    log2_bits: u32,
    firsts: std::sync::atomic::AtomicUsize,
}

impl Doorkeeper {
    const MIN_LOG2_BITS: u32 = 12;
    const MAX_LOG2_BITS: u32 = 19;

    /// The largest that takes at most `bytes` (the smallest, 512 bytes,
    /// when none does).
    pub fn within(bytes: usize) -> Self {
        let fit = (bytes.max(1) * 8).ilog2().clamp(Self::MIN_LOG2_BITS, Self::MAX_LOG2_BITS);
        Doorkeeper {
            bits: (0..(1usize << fit) / 64).map(|_| std::sync::atomic::AtomicU64::new(0)).collect(),
            log2_bits: fit,
            firsts: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Whether `hash` was seen lately; it is now.
    pub fn seen_again(&self, hash: u64) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let bits = 1usize << self.log2_bits;
        // Two bits from the hash mixed once more (Fibonacci hashing).
        let mixed = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut seen = true;
        for bit in [(mixed >> (64 - self.log2_bits)) as usize, (mixed as usize) & (bits - 1)] {
            let (word, mask) = (&self.bits[bit / 64], 1u64 << (bit % 64));
            // A load and a store, not a locked read-modify-write: a bit
            // another thread set meanwhile may be lost, which only makes
            // its key wait for one more sighting.
            let old = word.load(Relaxed);
            if old & mask == 0 {
                seen = false;
                word.store(old | mask, Relaxed);
            }
        }
        if !seen && self.firsts.fetch_add(1, Relaxed) + 1 >= bits / 8 {
            self.firsts.store(0, Relaxed);
            self.bits.iter().for_each(|w| w.store(0, Relaxed));
        }
        seen
    }

    /// What it takes in memory.
    pub fn bytes(&self) -> usize {
        (1usize << self.log2_bits) / 8
    }
}

impl std::fmt::Debug for Doorkeeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Doorkeeper").field("bits", &(1usize << self.log2_bits)).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte string as a memo key.
    struct Bytes<'a>(&'a [u8]);

    impl Key for Bytes<'_> {
        fn pieces(&self, mut f: impl FnMut(Piece<'_>) -> bool) -> bool {
            f(Piece::Text(self.0))
        }
    }

    #[test]
    fn a_memo_of_second_sight_keeps_a_key_only_the_second_time_it_is_offered() {
        let memo: ByteMemo<u32> = ByteMemo::new(64 << 10).second_sight();
        for k in 0u32..500 {
            let key = k.to_le_bytes();
            let hash = hash_of(&Bytes(&key));
            // A Bloom filter may take a new key for one seen: rarely.
            if memo.offer(hash) {
                continue;
            }
            assert!(memo.offer(hash), "{k}: offered again, to be kept");
        }
        let firsts = (500u32..1_000).filter(|k| !memo.offer(hash_of(&Bytes(&k.to_le_bytes())))).count();
        assert!(firsts > 450, "{firsts} of 500 new keys taken for new");
    }

    #[test]
    fn the_doorkeeper_takes_at_most_a_sixteenth_of_a_memos_budget() {
        for (budget, door) in [(8 << 10, 512), (64 << 10, 4 << 10), (1 << 20, 64 << 10), (64 << 20, 64 << 10)] {
            let memo: ByteMemo<u32> = ByteMemo::new(budget).second_sight();
            assert_eq!(memo.budget(), budget - door, "a budget of {budget}");
        }
        // Below 8 KiB, the smallest: what is left to hold is less.
        assert_eq!(ByteMemo::<u32>::new(1_000).second_sight().budget(), 488);
    }

    #[test]
    fn many_keys_put_at_once_are_found_at_once_and_one_by_one() {
        let memo: ByteMemo<u32> = ByteMemo::new(1 << 20);
        let keys: Vec<[u8; 4]> = (0u32..50).map(u32::to_le_bytes).collect();
        let hashed: Vec<(u64, Bytes<'_>)> = keys.iter().map(|k| (hash_of(&Bytes(k)), Bytes(k))).collect();
        memo.put_many(hashed.iter().take(25).enumerate().map(|(i, (h, k))| (*h, Bytes(k.0), i as u32, 4)));
        let found = memo.get_many(&hashed);
        assert_eq!(found.iter().flatten().count(), 25);
        assert!(found.iter().take(25).enumerate().all(|(i, v)| *v == Some(i as u32)));
        assert_eq!(memo.get_hashed(hashed[3].0, &hashed[3].1), Some(3));
        assert_eq!(memo.get_hashed(hashed[30].0, &hashed[30].1), None);
    }
}
