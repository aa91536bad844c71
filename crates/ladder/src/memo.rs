//! A memo of values keyed by byte strings, least recently used out first
//! within a budget of bytes, each key verified byte for byte before its
//! value is reused (a hash alone never decides). The pool memo
//! (`intern::PoolMemo`), its interned option lists and their costs, and
//! the fingerprint memo (`fingerprint::FingerprintMemo`) are four of these.
//!
//! A list the caller shares (`PoolMemo::intern`) is known by its address
//! instead (`get_at`, `put_at`): its entries are found without reading the
//! list.

use std::any::Any;
use std::sync::{Arc, Mutex, Weak};

pub struct ByteMemo<V> {
    budget: usize,
    inner: Mutex<Inner<V>>,
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
        ByteMemo { budget, inner: Mutex::new(Inner { entries: lru::LruCache::unbounded(), bytes: 0 }) }
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
        let bytes = entry.bytes;
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = inner.entries.put(hash, Arc::new(entry)) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        while inner.bytes > self.budget {
            let Some((_, old)) = inner.entries.pop_lru() else { break };
            inner.bytes -= old.bytes;
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
