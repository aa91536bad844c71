//! A memo of values keyed by byte strings, least recently used out first
//! within a budget of bytes, each key verified byte for byte before its
//! value is reused (a hash alone never decides). The pool memo
//! (`matching::PoolMemo`) and the fingerprint memo
//! (`fingerprint::FingerprintMemo`) are two of these.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

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
    /// The value kept for `key`, if any (now the most recently used).
    pub fn get(&self, key: &[u8]) -> Option<V> {
        self.get_hashed(FxBuildHasher.hash_one(key), |k| k == key)
    }

    /// The value kept under `hash` whose key `is_key` accepts: for a key
    /// hashed and compared piece by piece, never put together (see
    /// `put_hashed`).
    pub fn get_hashed(&self, hash: u64, is_key: impl FnOnce(&[u8]) -> bool) -> Option<V> {
        self.get_verified(hash, |key, _| is_key(key))
    }

    /// The value kept under `hash` that `is_it` accepts, seeing the key and
    /// the value (for a value that is its own key).
    pub fn get_verified(&self, hash: u64, is_it: impl FnOnce(&[u8], &V) -> bool) -> Option<V> {
        let found = self.inner.lock().unwrap_or_else(|p| p.into_inner()).entries.get(&hash).cloned();
        found.filter(|e| is_it(&e.key, &e.value)).map(|e| e.value.clone())
    }

    /// Keeps `value` for `key`, counted as `size` bytes besides the key and
    /// the entry; the least recently used go while the memo is over its
    /// budget.
    pub fn put(&self, key: Vec<u8>, value: V, size: usize) {
        self.put_hashed(FxBuildHasher.hash_one(&key[..]), key, value, size)
    }

    /// `put` under a hash of the caller's (what `get_hashed` is given).
    pub fn put_hashed(&self, hash: u64, key: Vec<u8>, value: V, size: usize) {
        let bytes = key.len() + size + std::mem::size_of::<Entry<V>>();
        if bytes > self.budget / 8 {
            return;
        }
        let entry = Arc::new(Entry { key: key.into_boxed_slice(), value, bytes });
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = inner.entries.put(hash, entry) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        while inner.bytes > self.budget {
            let Some((_, old)) = inner.entries.pop_lru() else { break };
            inner.bytes -= old.bytes;
        }
    }
}
