//! Pool reuse in this process: option sets cached per session, so a client sends a large
//! pool once and refers to it afterwards by `option_set_id` and version.
//! Bounded by the candidates held (`sessions.pool_cache_candidates`) and
//! their bytes (`sessions.pool_cache_bytes`, `Candidate::approx_bytes`),
//! least recently used first out.
//! `ResetSession` drops a session's sets too (an index by session makes
//! that a lookup, not a scan of the cache). A version names one content:
//! the same version with other content is refused, not held.

use super::{HeldSet, Holding, PoolStore, StoreError};
use futures::future::BoxFuture;
use ladder::types::{Candidate, Scope};
use lru::LruCache;
use std::sync::{Arc, Mutex};

impl PoolStore for PoolCache {
    fn get<'a>(&'a self, session: &'a str, set: &'a str, version: &'a str) -> BoxFuture<'a, Result<Option<HeldSet>, StoreError>> {
        Box::pin(std::future::ready(Ok(PoolCache::get(self, session, set, version))))
    }
    fn put<'a>(
        &'a self,
        session: &'a str,
        set: &'a str,
        version: &'a str,
        scope: Scope,
        candidates: Arc<Vec<Candidate>>,
    ) -> BoxFuture<'a, Result<Holding, StoreError>> {
        Box::pin(std::future::ready(Ok(PoolCache::put(self, session, set, version, scope, candidates))))
    }
    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<usize, StoreError>> {
        Box::pin(std::future::ready(Ok(PoolCache::remove_session(self, session))))
    }
    fn held(&self) -> usize {
        PoolCache::held(self)
    }
}

#[derive(Debug)]
struct Entry {
    version: String,
    scope: Scope,
    candidates: Arc<Vec<Candidate>>,
    bytes: usize,
}

#[derive(Debug)]
struct Inner {
    lru: LruCache<(Box<str>, Box<str>), Entry>,
    held: usize,
    held_bytes: usize,
    /// The set ids held per session (for `remove_session`).
    by_session: rustc_hash::FxHashMap<Box<str>, Vec<Box<str>>>,
}

impl Inner {
    /// Forgets `set` in the session index.
    fn unindex(&mut self, session: &str, set: &str) {
        if let Some(v) = self.by_session.get_mut(session) {
            v.retain(|s| &**s != set);
            if v.is_empty() {
                self.by_session.remove(session);
            }
        }
    }
}

#[derive(Debug)]
pub struct PoolCache {
    inner: Mutex<Inner>,
    max_candidates: usize,
    max_bytes: usize,
}

impl PoolCache {
    pub fn new(max_candidates: usize, max_bytes: usize) -> Self {
        PoolCache {
            inner: Mutex::new(Inner { lru: LruCache::unbounded(), held: 0, held_bytes: 0, by_session: Default::default() }),
            max_candidates,
            max_bytes,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Caches a set (in place of another version of it), unless this
    /// version of it is held with other content (`PoolStore::put`). The
    /// held content is here, so it is compared as it is rather than by
    /// digest: nothing to compute when the version is new, and under the
    /// lock, so of two calls racing with different contents one is held.
    pub fn put(&self, session: &str, set: &str, version: &str, scope: Scope, candidates: Arc<Vec<Candidate>>) -> Holding {
        let n = candidates.len();
        let bytes: usize = candidates.iter().map(Candidate::approx_bytes).sum();
        let key: (Box<str>, Box<str>) = (session.into(), set.into());
        let mut g = self.lock();
        // Before the budget: a version names one content whatever its size.
        if let Some(held) = g.lru.get(&key)
            && held.version == version
        {
            let same = held.scope == scope && (Arc::ptr_eq(&held.candidates, &candidates) || held.candidates == candidates);
            return if same { Holding::Held } else { Holding::OtherContent };
        }
        if n > self.max_candidates || bytes > self.max_bytes {
            return Holding::TooLarge;
        }
        let entry = Entry { version: version.to_string(), scope, candidates, bytes };
        match g.lru.put(key, entry) {
            Some(old) => {
                g.held -= old.candidates.len();
                g.held_bytes -= old.bytes;
            }
            None => g.by_session.entry(session.into()).or_default().push(set.into()),
        }
        g.held += n;
        g.held_bytes += bytes;
        while g.held > self.max_candidates || g.held_bytes > self.max_bytes {
            match g.lru.pop_lru() {
                Some(((s, set), e)) => {
                    g.held -= e.candidates.len();
                    g.held_bytes -= e.bytes;
                    g.unindex(&s, &set);
                }
                None => break,
            }
        }
        Holding::Held
    }

    /// Drops every set held for `session`; returns how many.
    pub fn remove_session(&self, session: &str) -> usize {
        let mut g = self.lock();
        let Some(sets) = g.by_session.remove(session) else { return 0 };
        for set in &sets {
            if let Some(e) = g.lru.pop(&(session.into(), set.clone())) {
                g.held -= e.candidates.len();
                g.held_bytes -= e.bytes;
            }
        }
        sets.len()
    }

    /// The cached set, if it is held under `version`.
    pub fn get(&self, session: &str, set: &str, version: &str) -> Option<(Scope, Arc<Vec<Candidate>>)> {
        let mut g = self.lock();
        let e = g.lru.get(&(session.into(), set.into()))?;
        (e.version == version).then(|| (e.scope, e.candidates.clone()))
    }

    /// Candidates held now.
    pub fn held(&self) -> usize {
        self.lock().held
    }

    /// Their bytes (`Candidate::approx_bytes`).
    pub fn held_bytes(&self) -> usize {
        self.lock().held_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cands(n: usize) -> Arc<Vec<Candidate>> {
        Arc::new((0..n).map(|i| Candidate::new(format!("c{i}"), format!("Label {i}"))).collect())
    }

    #[test]
    fn sets_are_found_by_session_set_and_version() {
        let c = PoolCache::new(100, usize::MAX);
        c.put("s1", "set", "v1", Scope::Chat, cands(3));
        assert_eq!(c.get("s1", "set", "v1").unwrap().1.len(), 3);
        assert!(c.get("s1", "set", "v2").is_none(), "another version");
        assert!(c.get("s2", "set", "v1").is_none(), "another session");
        c.put("s1", "set", "v2", Scope::Chat, cands(5));
        assert!(c.get("s1", "set", "v1").is_none(), "replaced");
        assert_eq!(c.held(), 5);
    }

    #[test]
    fn a_held_version_sent_with_other_content_is_refused_and_stays_as_it_was() {
        let c = PoolCache::new(100, usize::MAX);
        let held = cands(3);
        assert_eq!(c.put("s1", "set", "v1", Scope::Chat, held.clone()), Holding::Held);
        let mut swapped = (*held).clone();
        swapped[1] = Candidate::new("action-delete-account", "Label 1");
        for (what, scope, other) in [
            ("a candidate swapped", Scope::Chat, Arc::new(swapped)),
            ("another scope", Scope::Widget, held.clone()),
            ("fewer candidates", Scope::Chat, cands(2)),
            ("too many to hold", Scope::Chat, cands(101)),
        ] {
            assert_eq!(c.put("s1", "set", "v1", scope, other), Holding::OtherContent, "{what}");
            assert_eq!(c.get("s1", "set", "v1"), Some((Scope::Chat, held.clone())), "{what}: the held set is unchanged");
        }
        // The same content again, in a copy of its own, is no conflict.
        assert_eq!(c.put("s1", "set", "v1", Scope::Chat, cands(3)), Holding::Held);
        assert_eq!(c.held(), 3);
        // A new version takes its place; another session or set holds its own.
        assert_eq!(c.put("s1", "set", "v2", Scope::Chat, cands(2)), Holding::Held);
        assert_eq!(c.put("s2", "set", "v2", Scope::Chat, cands(4)), Holding::Held);
        assert_eq!(c.put("s1", "other", "v2", Scope::Chat, cands(5)), Holding::Held);
        assert_eq!(c.get("s1", "set", "v2").unwrap().1.len(), 2);
        assert_eq!(c.put("s1", "set", "v3", Scope::Chat, cands(101)), Holding::TooLarge, "a new version over the budget");
    }

    #[test]
    fn a_version_no_longer_held_takes_other_content() {
        let c = PoolCache::new(6, usize::MAX);
        c.put("a", "set", "v1", Scope::Chat, cands(4));
        c.put("b", "set", "v1", Scope::Chat, cands(4));
        assert!(c.get("a", "set", "v1").is_none(), "evicted");
        assert_eq!(c.put("a", "set", "v1", Scope::Chat, cands(2)), Holding::Held);
        assert_eq!(c.get("a", "set", "v1").unwrap().1.len(), 2);
        c.remove_session("a");
        assert_eq!(c.put("a", "set", "v1", Scope::Widget, cands(1)), Holding::Held, "dropped by ResetSession");
    }

    #[test]
    fn the_cache_is_bounded_by_bytes_too() {
        // Four candidates with long labels weigh what 400 short ones do.
        let big = |n: usize| Arc::new((0..n).map(|i| Candidate::new(format!("c{i}"), "x".repeat(500))).collect::<Vec<_>>());
        let one = big(1)[0].approx_bytes();
        assert!(one > 500 && one < 800, "{one}");
        let c = PoolCache::new(1_000_000, 10 * one);
        c.put("a", "set", "v", Scope::Chat, big(4));
        c.put("b", "set", "v", Scope::Chat, big(4));
        c.put("c", "set", "v", Scope::Chat, big(4));
        assert!(c.get("a", "set", "v").is_none(), "the oldest went to stay within the bytes");
        assert_eq!((c.held(), c.held_bytes()), (8, 8 * one));
        c.put("d", "set", "v", Scope::Chat, big(11));
        assert!(c.get("d", "set", "v").is_none(), "a set over the whole budget is not held");
        assert!(c.remove_session("b") == 1 && c.held_bytes() == 4 * one);
    }

    #[test]
    fn the_cache_is_bounded_by_candidates_least_recently_used_first() {
        let c = PoolCache::new(10, usize::MAX);
        c.put("a", "set", "v", Scope::Chat, cands(4));
        c.put("b", "set", "v", Scope::Chat, cands(4));
        c.get("a", "set", "v");
        c.put("c", "set", "v", Scope::Chat, cands(4));
        assert!(c.get("b", "set", "v").is_none(), "least recently used went");
        assert!(c.get("a", "set", "v").is_some() && c.get("c", "set", "v").is_some());
        assert!(c.held() <= 10);
        c.put("d", "set", "v", Scope::Chat, cands(11));
        assert!(c.get("d", "set", "v").is_none(), "larger than the whole cache: not held");
    }

    #[test]
    fn removing_a_session_drops_its_sets_only() {
        let c = PoolCache::new(100, usize::MAX);
        c.put("a", "one", "v", Scope::Chat, cands(2));
        c.put("a", "two", "v", Scope::Widget, cands(3));
        c.put("a", "two", "v2", Scope::Widget, cands(4));
        c.put("b", "one", "v", Scope::Chat, cands(5));
        assert_eq!(c.remove_session("a"), 2);
        assert!(c.get("a", "one", "v").is_none() && c.get("a", "two", "v2").is_none());
        assert_eq!(c.get("b", "one", "v").unwrap().1.len(), 5);
        assert_eq!(c.held(), 5);
        assert_eq!(c.remove_session("a"), 0, "nothing left");
    }

    #[test]
    fn evicted_sets_leave_the_session_index() {
        let c = PoolCache::new(6, usize::MAX);
        c.put("a", "one", "v", Scope::Chat, cands(4));
        c.put("b", "one", "v", Scope::Chat, cands(4));
        assert!(c.get("a", "one", "v").is_none(), "evicted");
        assert_eq!(c.remove_session("a"), 0, "the index forgot it");
        assert_eq!(c.remove_session("b"), 1);
        assert_eq!(c.held(), 0);
        assert!(c.lock().by_session.is_empty());
    }
}
