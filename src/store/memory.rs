//! The in-memory session store (`sessions.backend = "memory"`).
//!
//! [`MemoryStore`] implements the port (`super::SessionStore`): sessions
//! sharded over 16 mutexes ([`shard_of`]), each shard an LRU list (the
//! `lru` crate). One recency order serves both bounds:
//!
//! - `sessions.max` is one count for the whole store, not a share per
//!   shard: no session is evicted while `sessions.max` or fewer are held,
//!   however their ids hash. A call that creates a session adds it to the
//!   count (one atomic add: no lock beyond its own shard's); when the count
//!   is then over the bound, it evicts one session once its shard's lock
//!   is released: of the 16 shards' least recently used, the one whose
//!   last use is oldest (the least recently used of all, to the
//!   millisecond), never the session it just created. Each eviction is
//!   taken off the count before it is done, so calls racing to create
//!   sessions evict one each for the sessions over the bound, never one
//!   more (`make_room`). docs/continuity.md states this bound.
//! - Idle expiry pops the same cold ends, so it never scans all sessions.
//!
//! A call checks only its own session's idle time (a session idle past
//! the TTL is gone for it); a background task pops idle sessions from the
//! cold ends (mini-redis style: woken by a timer, stopped by a drop
//! guard), so a call touches no other session's memory (at 1,000,000
//! sessions the cold ends are not in the CPU's caches), except a call that
//! creates a session past `sessions.max`: it reads the 16 cold ends, one
//! shard's lock at a time. Locks are never held across an `.await`.
//!
//! A session's state is kept open (as the ladder works on it) while the
//! session is among the last [`OPEN_PER_SHARD`] its shard opened, and
//! packed (`super::packed`: its bytes, and the option list its open
//! cycle's request shares with other sessions) after. A call on an open
//! session costs what it did before packing; a call on a packed one
//! unpacks it (about 5 us more, BENCHMARKS.md) and it is packed again
//! once that many other sessions of its shard were opened after it. A million
//! sessions holding a clarifier fit in about 400 MiB that way
//! (docs/continuity.md), against 1.5 GiB all open.
//!
//! Time comes from `tokio::time::Instant`, so TTL tests use paused time.

use super::packed::{Packed, pack, unpack};
use super::{Clock, Held, SessionStore, StoreError};
use futures::future::BoxFuture;
use ladder::continuity::{Applied, ContinuityState, Now, Ttl, Update};
use lru::LruCache;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicIsize, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// `Held`, counted across threads.
#[derive(Default)]
struct HeldCounter {
    candidates: AtomicUsize,
    bytes: AtomicUsize,
}

impl HeldCounter {
    fn add(&self, h: Held) {
        self.candidates.fetch_add(h.candidates, Ordering::Relaxed);
        self.bytes.fetch_add(h.bytes, Ordering::Relaxed);
    }
    fn sub(&self, h: Held) {
        self.candidates.fetch_sub(h.candidates, Ordering::Relaxed);
        self.bytes.fetch_sub(h.bytes, Ordering::Relaxed);
    }
    fn get(&self) -> Held {
        Held { candidates: self.candidates.load(Ordering::Relaxed), bytes: self.bytes.load(Ordering::Relaxed) }
    }
}

struct Entry {
    /// The state: open while the session is among its shard's
    /// [`OPEN_PER_SHARD`] last opened, packed (`super::packed`) after.
    state: Form,
    last_access_ms: u64,
    /// What the state's open cycle holds (`Held::of`), kept so that an
    /// eviction or a purge need not unpack it.
    held: HeldHere,
}

/// `Held` of one session, in 8 bytes.
#[derive(Clone, Copy, Default)]
struct HeldHere {
    candidates: u32,
    bytes: u32,
}

impl HeldHere {
    fn of(s: &ContinuityState) -> Self {
        let h = Held::of(s);
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        HeldHere { candidates: n(h.candidates), bytes: n(h.bytes) }
    }
    fn held(self) -> Held {
        Held { candidates: self.candidates as usize, bytes: self.bytes as usize }
    }
}

/// A session's state as the store holds it.
enum Form {
    /// As the ladder works on it. Copy-on-write: a change copies it only
    /// while a reader still holds it.
    Open(Arc<ContinuityState>),
    /// Packed: its bytes and the option list it shares.
    Packed(Packed),
}

impl Entry {
    fn new(state: Arc<ContinuityState>, now_ms: u64) -> Self {
        let held = HeldHere::of(&state);
        Entry { state: Form::Open(state), last_access_ms: now_ms, held }
    }

    /// The state, opened if it was packed (then it joins `opened`, the
    /// shard's opened sessions). Bytes that do not read back are never
    /// written (`packed::tests`); if some were, the session starts afresh
    /// rather than the call failing.
    fn open(&mut self, id: &str, opened: &mut Opened) -> &mut Arc<ContinuityState> {
        if let Form::Packed(p) = &self.state {
            let state = unpack(p, id).unwrap_or_else(|e| {
                tracing::error!(error = %e, "a session's state starts afresh");
                ContinuityState::default()
            });
            self.state = Form::Open(Arc::new(state));
            opened.push(id);
        }
        match &mut self.state {
            Form::Open(state) => state,
            Form::Packed(_) => unreachable!("opened above"),
        }
    }
}

/// How many sessions of a shard are kept open (16 shards: 4,096 in
/// all): the ones last opened. A session opened earlier is packed when
/// one more is opened, so a session in use costs no packing, and the
/// memory the open ones take is bounded whatever the sessions held.
pub const OPEN_PER_SHARD: usize = 256;

/// The ids of a shard's open sessions, oldest opened first.
#[derive(Default)]
struct Opened {
    ids: std::collections::VecDeque<Box<str>>,
}

impl Opened {
    fn push(&mut self, id: &str) {
        self.ids.push_back(id.into());
    }
}

struct Shard {
    lru: LruCache<Box<str>, Entry>,
    opened: Opened,
}

impl Shard {
    /// Packs the sessions opened longest ago while more than `open` are
    /// open. An id whose session went (evicted, expired, removed) or was
    /// packed already costs a look-up.
    fn pack_over(&mut self, open: usize) {
        while self.opened.ids.len() > open {
            let Some(id) = self.opened.ids.pop_front() else { return };
            if let Some(e) = self.lru.peek_mut(&id)
                && let Form::Open(state) = &e.state
            {
                e.state = Form::Packed(pack(state, &id));
            }
        }
    }
}

impl Shard {
    /// The shard's least recently used session other than `spared` (the
    /// one the evicting call just created): its key, unless it is the
    /// cold end itself (the common case, popped without a lookup), and its
    /// last use.
    fn coldest_but(&self, spared: &str) -> Option<(Option<&str>, u64)> {
        let mut from_cold = self.lru.iter().rev();
        match from_cold.next() {
            Some((k, e)) if **k != *spared => Some((None, e.last_access_ms)),
            Some(_) => from_cold.next().map(|(k, e)| (Some(&**k), e.last_access_ms)),
            None => None,
        }
    }

    /// Drops sessions idle past the TTL, from the cold end. Returns how
    /// many went and what their cycles held.
    fn purge(&mut self, now_ms: u64, idle_ms: u64) -> (usize, Held) {
        let (mut n, mut held) = (0, Held::default());
        while let Some((_, e)) = self.lru.peek_lru() {
            if now_ms.saturating_sub(e.last_access_ms) <= idle_ms {
                break;
            }
            if let Some((_, e)) = self.lru.pop_lru() {
                let h = e.held.held();
                held.candidates += h.candidates;
                held.bytes += h.bytes;
            }
            n += 1;
        }
        (n, held)
    }
}

struct Inner {
    shards: Box<[Mutex<Shard>]>,
    /// `sessions.max`.
    max: isize,
    idle_ms: u64,
    /// Sessions held, less the evictions decided and not yet done
    /// (`make_room`). Signed: those can take it below the sessions held
    /// for a moment, and a removal then below zero.
    len: AtomicIsize,
    evictions: AtomicU64,
    /// What open cycles' requests hold (`Held::of`).
    cycle_held: HeldCounter,
    /// Sessions of a shard kept open ([`OPEN_PER_SHARD`]).
    open_per_shard: usize,
}

/// The in-memory session store.
#[derive(Clone)]
pub struct MemoryStore {
    inner: Arc<Inner>,
}

/// How many shards (mutexes) the sessions are spread over.
pub const SHARDS: usize = 16;

/// The shard a session id's session is kept in (below [`SHARDS`]): an
/// unkeyed hash of the id, so ids can be made to share a shard. That costs
/// them only contention on its lock: the bound and the eviction order are
/// the whole store's.
pub fn shard_of(id: &str) -> usize {
    use std::hash::{BuildHasher, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    h.write(id.as_bytes());
    (h.finish() as usize) % SHARDS
}

impl MemoryStore {
    /// A store holding at most `max` sessions, each dropped after `idle` without use.
    pub fn new(max: usize, idle: Duration) -> Self {
        Self::keeping_open(max, idle, OPEN_PER_SHARD)
    }

    /// [`MemoryStore::new`], keeping `open` sessions of each shard open
    /// (0: every session packed as soon as its call is done, as each one
    /// is in a store holding many: tests that compare the two).
    pub(crate) fn keeping_open(max: usize, idle: Duration, open: usize) -> Self {
        MemoryStore {
            inner: Arc::new(Inner {
                shards: (0..SHARDS).map(|_| Mutex::new(Shard { lru: LruCache::unbounded(), opened: Opened::default() })).collect(),
                max: max.clamp(1, isize::MAX as usize) as isize,
                idle_ms: idle.as_millis() as u64,
                len: AtomicIsize::new(0),
                evictions: AtomicU64::new(0),
                cycle_held: HeldCounter::default(),
                open_per_shard: open,
            }),
        }
    }

    fn shard(&self, id: &str) -> &Mutex<Shard> {
        &self.inner.shards[shard_of(id)]
    }

    fn lock<'a>(&self, m: &'a Mutex<Shard>) -> std::sync::MutexGuard<'a, Shard> {
        // A panic while holding the lock cannot leave a shard half-written
        // (every mutation is a single LRU operation), so poisoning is benign.
        m.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on `id`'s shard.
    fn with<R>(&self, id: &str, f: impl FnOnce(&mut Shard) -> R) -> R {
        f(&mut self.lock(self.shard(id)))
    }

    /// Whether a session last used then is idle past the TTL (gone for a
    /// call that finds it: only its own session; other idle sessions go in
    /// the background purge).
    fn idle(&self, e: &Entry, now: Now) -> bool {
        now.mono_ms.saturating_sub(e.last_access_ms) > self.inner.idle_ms
    }

    /// Drops `id`, found idle past the TTL (the rare path: a second lookup).
    fn drop_idle(&self, s: &mut Shard, id: &str) {
        if let Some(e) = s.lru.pop(id) {
            self.inner.len.fetch_sub(1, Ordering::Relaxed);
            self.inner.cycle_held.sub(e.held.held());
        }
    }

    /// Evicts while more sessions are counted than `sessions.max`, after
    /// `created` was added (its shard's lock released: no call holds two
    /// shards' locks). Each eviction is taken off the count before it is
    /// done, so that calls racing here evict one session each for the
    /// sessions over the bound, never one more; one that finds nothing to
    /// evict gives its place back.
    fn make_room(&self, created: &str) {
        let (len, max) = (&self.inner.len, self.inner.max);
        let mut counted = len.load(Ordering::Relaxed);
        while counted > max {
            if let Err(now) = len.compare_exchange_weak(counted, counted - 1, Ordering::Relaxed, Ordering::Relaxed) {
                counted = now;
                continue;
            }
            if !self.evict_coldest(created) {
                len.fetch_add(1, Ordering::Relaxed);
                return;
            }
            self.inner.evictions.fetch_add(1, Ordering::Relaxed);
            counted = len.load(Ordering::Relaxed);
        }
    }

    /// Evicts the session whose last use is oldest among the shards' least
    /// recently used, sparing `created`; says whether it found one. Each
    /// shard is locked in turn, one at a time, to read its cold end, then
    /// the chosen one again to pop it (if a call touched it in between,
    /// that shard's least recently used session now goes: its last use is
    /// still among the oldest).
    fn evict_coldest(&self, created: &str) -> bool {
        // A few tries: racing calls may take the chosen session between
        // the two locks.
        for _ in 0..SHARDS {
            let mut coldest: Option<(usize, u64)> = None;
            for (i, m) in self.inner.shards.iter().enumerate() {
                if let Some((_, at)) = self.lock(m).coldest_but(created)
                    && coldest.is_none_or(|(_, oldest)| at < oldest)
                {
                    coldest = Some((i, at));
                }
            }
            let Some((i, _)) = coldest else { return false };
            let mut s = self.lock(&self.inner.shards[i]);
            let popped = match s.coldest_but(created) {
                Some((None, _)) => s.lru.pop_lru().map(|(_, e)| e),
                Some((Some(key), _)) => {
                    let key: Box<str> = key.into();
                    s.lru.pop(&key)
                }
                None => None,
            };
            if let Some(e) = popped {
                self.inner.cycle_held.sub(e.held.held());
                return true;
            }
        }
        false
    }

    /// Applies `update` to `id` under its shard's lock, creating the
    /// session if needed.
    fn update(&self, id: &str, update: Update, now: Now, ttl: Ttl) -> Applied {
        let (applied, over) = self.with(id, |s| {
            let held = &self.inner.cycle_held;
            match s.lru.get_mut(id) {
                Some(e) if !self.idle(e, now) => {
                    e.last_access_ms = now.mono_ms;
                    let before = e.held.held();
                    let state = e.open(id, &mut s.opened);
                    let applied = Arc::make_mut(state).apply(update, now, ttl);
                    e.held = HeldHere::of(state);
                    held.add(e.held.held());
                    held.sub(before);
                    s.pack_over(self.inner.open_per_shard);
                    return (applied, false);
                }
                // Idle past the TTL: it starts afresh.
                Some(_) => self.drop_idle(s, id),
                None => {}
            }
            let mut state = ContinuityState::default();
            let applied = state.apply(update, now, ttl);
            let entry = Entry::new(Arc::new(state), now.mono_ms);
            held.add(entry.held.held());
            s.lru.push(id.into(), entry);
            s.opened.push(id);
            s.pack_over(self.inner.open_per_shard);
            let counted = self.inner.len.fetch_add(1, Ordering::Relaxed) + 1;
            (applied, counted > self.inner.max)
        });
        if over {
            self.make_room(id);
        }
        applied
    }

    /// Purges idle sessions in every shard; returns how many went.
    pub fn purge_idle(&self, now: Now) -> usize {
        let mut total = 0;
        for m in self.inner.shards.iter() {
            let (n, held) = self.lock(m).purge(now.mono_ms, self.inner.idle_ms);
            total += n;
            self.inner.cycle_held.sub(held);
        }
        self.inner.len.fetch_sub(total as isize, Ordering::Relaxed);
        total
    }

    /// Starts the background purge; it stops when the guard is dropped.
    pub fn spawn_purger(&self, clock: Clock, every: Duration) -> PurgeGuard {
        let store = self.clone();
        let stop = Arc::new(tokio::sync::Notify::new());
        let stopped = stop.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        let n = store.purge_idle(clock.now());
                        if n > 0 {
                            tracing::debug!(purged = n, "idle sessions purged");
                        }
                    }
                    _ = stopped.notified() => break,
                }
            }
        });
        PurgeGuard { stop }
    }
}

/// Stops the purge task when dropped.
pub struct PurgeGuard {
    stop: Arc<tokio::sync::Notify>,
}

impl Drop for PurgeGuard {
    fn drop(&mut self) {
        self.stop.notify_one();
    }
}

impl SessionStore for MemoryStore {
    fn get<'a>(&'a self, id: &'a str, now: Now) -> BoxFuture<'a, Result<Option<Arc<ContinuityState>>, StoreError>> {
        let r = self.with(id, |s| {
            match s.lru.get_mut(id) {
                Some(e) if !self.idle(e, now) => {
                    e.last_access_ms = now.mono_ms;
                    let state = e.open(id, &mut s.opened).clone();
                    s.pack_over(self.inner.open_per_shard);
                    return Some(state);
                }
                Some(_) => {}
                None => return None,
            }
            self.drop_idle(s, id);
            None
        });
        Box::pin(std::future::ready(Ok(r)))
    }

    fn apply<'a>(&'a self, id: &'a str, update: Update, now: Now, ttl: Ttl) -> BoxFuture<'a, Result<Applied, StoreError>> {
        let applied = self.update(id, update, now, ttl);
        Box::pin(std::future::ready(Ok(applied)))
    }

    fn spawn_background(&self, clock: Clock, every: Duration) -> Option<PurgeGuard> {
        Some(self.spawn_purger(clock, every))
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        let removed = self.lock(self.shard(id)).lru.pop(id);
        let existed = removed.is_some();
        if let Some(e) = removed {
            self.inner.len.fetch_sub(1, Ordering::Relaxed);
            self.inner.cycle_held.sub(e.held.held());
        }
        Box::pin(std::future::ready(Ok(existed)))
    }

    fn len(&self) -> usize {
        self.inner.len.load(Ordering::Relaxed).max(0) as usize
    }

    fn evictions(&self) -> u64 {
        self.inner.evictions.load(Ordering::Relaxed)
    }

    fn cycle_held(&self) -> Held {
        self.inner.cycle_held.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladder::continuity::{CycleChange, DecidedUpdate};

    const TTL: Ttl = Ttl { ttl_turns: 3, ttl_seconds: 600 };

    fn touch() -> Update {
        Update::Decided(DecidedUpdate { new_turn: true, options_context: Some(("set".into(), None)), ..Default::default() })
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_expire_with_time() {
        let clock = Clock::default();
        let store = MemoryStore::new(100, Duration::from_secs(60));
        store.apply("a", touch(), clock.now(), TTL).await.unwrap();
        tokio::time::advance(Duration::from_secs(59)).await;
        assert!(store.get("a", clock.now()).await.unwrap().is_some(), "a read keeps it alive");
        tokio::time::advance(Duration::from_secs(59)).await;
        assert!(store.get("a", clock.now()).await.unwrap().is_some());
        tokio::time::advance(Duration::from_secs(61)).await;
        assert!(store.get("a", clock.now()).await.unwrap().is_none());
        assert_eq!(store.len(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_expires_only_its_own_session() {
        let clock = Clock::default();
        let store = MemoryStore::new(100, Duration::from_secs(60));
        store.apply("old", open_cycle(4), clock.now(), TTL).await.unwrap();
        store.apply("other", touch(), clock.now(), TTL).await.unwrap();
        tokio::time::advance(Duration::from_secs(61)).await;
        // "old" is idle past the TTL: a write starts it afresh.
        store.apply("old", touch(), clock.now(), TTL).await.unwrap();
        let fresh = store.get("old", clock.now()).await.unwrap().expect("recreated");
        assert!(fresh.cycle.is_none(), "the idle session's cycle is gone");
        assert_eq!(store.cycle_held().candidates, 0, "its request is given back");
        // "other" is idle too, but nobody asked for it: the purge takes it.
        assert_eq!(store.len(), 2);
        assert_eq!(store.purge_idle(clock.now()), 1);
        assert!(store.get("other", clock.now()).await.unwrap().is_none());
        assert_eq!(store.len(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn the_purger_reclaims_idle_sessions_nobody_touches() {
        let clock = Clock::default();
        let store = MemoryStore::new(1000, Duration::from_secs(10));
        for i in 0..50 {
            store.apply(&format!("s{i}"), touch(), clock.now(), TTL).await.unwrap();
        }
        let guard = store.spawn_purger(clock, Duration::from_secs(5));
        tokio::time::sleep(Duration::from_secs(16)).await;
        assert_eq!(store.len(), 0);
        drop(guard);
    }

    /// The clock of the tests that order sessions by their last use: one
    /// call a millisecond.
    fn at(ms: u64) -> Now {
        Now { mono_ms: ms, wall_ms: 1_700_000_000_000 + ms as i64 }
    }

    async fn held(store: &MemoryStore, id: &str, now: Now) -> bool {
        store.get(id, now).await.unwrap().is_some()
    }

    #[tokio::test]
    async fn the_least_recently_used_session_is_evicted_at_the_bound() {
        let store = MemoryStore::new(16, Duration::from_secs(600));
        for i in 0..200 {
            store.apply(&format!("s{i}"), touch(), at(i), TTL).await.unwrap();
            assert_eq!(store.len(), (i as usize + 1).min(16));
        }
        assert_eq!(store.evictions(), 184);
        // The newest 16 are held, whichever shards they are in.
        for i in 0..200 {
            assert_eq!(held(&store, &format!("s{i}"), at(1_000)).await, i >= 184, "s{i}");
        }
    }

    /// Ids that land in `shard`, `n` of them, named after `prefix`.
    fn ids_in(shard: usize, prefix: &str, n: usize) -> Vec<String> {
        (0..).map(|i| format!("{prefix}-{i}")).filter(|id| shard_of(id) == shard).take(n).collect()
    }

    /// `sessions.max` is the whole store's: 1,000 sessions whose ids
    /// almost all hash to one shard are held, none evicted (a bound split
    /// per shard would have evicted all but a sixteenth of them). One more
    /// evicts one, the least recently used of all, whichever shard it is
    /// in: not the one created, nor one its shard used less recently.
    #[tokio::test]
    async fn sessions_max_sessions_are_held_however_their_ids_hash() {
        let max = 1_000;
        let store = MemoryStore::new(max, Duration::from_secs(600));
        // 990 in shard 0; 10 spread over shards 1 to 5, two each.
        let mut ids = ids_in(0, "crowded", 990);
        ids.extend((1..=5).flat_map(|shard| ids_in(shard, "sparse", 2)));
        assert!(ids.len() == max && ids.iter().filter(|id| shard_of(id) == 0).count() == 990);
        // Used in this order: the sparse ones first, so the least recently
        // used of all are not in the shard that is over its sixteenth.
        ids.rotate_right(10);
        let mut ms = 0;
        for id in &ids {
            ms += 1;
            store.apply(id, touch(), at(ms), TTL).await.unwrap();
        }
        assert_eq!((store.len(), store.evictions()), (max, 0), "none evicted at sessions.max");
        for id in &ids {
            ms += 1;
            assert!(held(&store, id, at(ms)).await, "{id} held");
        }
        // The reads kept the order: ids[0] (shard 1) is the least recently
        // used. A new session in the crowded shard evicts it, not the
        // crowded shard's own least recently used.
        assert_eq!(shard_of(&ids[0]), 1);
        let new = ids_in(0, "crowded", 991).remove(990);
        ms += 1;
        store.apply(&new, touch(), at(ms), TTL).await.unwrap();
        assert_eq!((store.len(), store.evictions()), (max, 1));
        ms += 1;
        assert!(!held(&store, &ids[0], at(ms)).await, "the least recently used is evicted");
        assert!(held(&store, &new, at(ms)).await);
        // A session used again is no longer the least recently used:
        // ids[1] is read now, so ids[2] goes next.
        ms += 1;
        assert!(held(&store, &ids[1], at(ms)).await);
        ms += 1;
        let lone = ids_in(9, "lone", 1).remove(0);
        store.apply(&lone, touch(), at(ms), TTL).await.unwrap();
        assert_eq!((store.len(), store.evictions()), (max, 2));
        // A new session alone in its shard evicts another shard's, never
        // itself.
        ms += 1;
        assert!(held(&store, &lone, at(ms)).await, "the new session is spared");
        assert!(held(&store, &ids[1], at(ms)).await);
        assert!(!held(&store, &ids[2], at(ms)).await);
        for id in &ids[3..] {
            ms += 1;
            assert!(held(&store, id, at(ms)).await, "{id} held");
        }
    }

    /// Calls creating sessions at once, on several threads: each session
    /// over the bound is evicted once, and no more, whatever the timing.
    #[test]
    fn racing_calls_evict_exactly_the_sessions_over_the_bound() {
        let max = 500;
        let store = MemoryStore::new(max, Duration::from_secs(600));
        let per_thread = 2_000;
        std::thread::scope(|scope| {
            for t in 0..4 {
                let store = &store;
                scope.spawn(move || {
                    for i in 0..per_thread {
                        futures::executor::block_on(store.apply(&format!("t{t}-{i}"), open_cycle(1), at(i as u64), TTL)).unwrap();
                    }
                });
            }
        });
        let created = 4 * per_thread;
        assert_eq!((store.len(), store.evictions() as usize), (max, created - max));
        let mut found = 0;
        for t in 0..4 {
            for i in 0..per_thread {
                found += usize::from(futures::executor::block_on(held(&store, &format!("t{t}-{i}"), at(per_thread as u64))));
            }
        }
        assert_eq!(found, max, "the count is the sessions held");
        assert_eq!(store.cycle_held().candidates, max, "and what the evicted held is given back");
    }

    fn open_cycle(candidates: usize) -> Update {
        let req = ladder::types::DecideRequest {
            widget_items: (0..candidates).map(|i| ladder::types::Candidate { id: format!("c{i}"), ..Default::default() }).collect(),
            ..Default::default()
        };
        let cycle = ladder::continuity::Cycle { request: Some(Arc::new(req)), ..ladder::continuity::Cycle::new("cyc", "g") };
        Update::Decided(DecidedUpdate { new_turn: true, cycle: CycleChange::Open(Box::new(cycle)), ..Default::default() })
    }

    /// How many of shard `i`'s sessions are open and how many packed.
    fn forms(store: &MemoryStore, i: usize) -> (usize, usize) {
        let s = store.lock(&store.inner.shards[i]);
        let open = s.lru.iter().filter(|(_, e)| matches!(e.state, Form::Open(_))).count();
        (open, s.lru.len() - open)
    }

    #[tokio::test]
    async fn sessions_opened_past_the_bound_are_packed_and_read_back_as_they_were() {
        let store = MemoryStore::new(10_000, Duration::from_secs(600));
        let ids = ids_in(3, "packed", OPEN_PER_SHARD + 40);
        // Each session's state as a store that never packs would hold it.
        let mut expected = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            let mut state = ContinuityState::default();
            for u in [touch(), open_cycle(i % 5)] {
                state.apply(u.clone(), at(i as u64), TTL);
                store.apply(id, u, at(i as u64), TTL).await.unwrap();
            }
            expected.push(state);
        }
        assert_eq!(forms(&store, 3), (OPEN_PER_SHARD, 40), "the first 40 opened are packed");
        let held = store.cycle_held();
        assert_eq!(held.candidates, (0..ids.len()).map(|i| i % 5).sum::<usize>(), "packing keeps what the cycles hold");
        // The packed ones read back as they were; reading opens them, and
        // as many of those opened longest ago are packed in their place.
        for (id, state) in ids.iter().zip(&expected).take(40) {
            let read = store.get(id, at(1_000)).await.unwrap().expect("held");
            assert_eq!(*read, *state, "{id}");
        }
        assert_eq!(forms(&store, 3), (OPEN_PER_SHARD, 40));
        for (id, state) in ids.iter().zip(&expected) {
            assert_eq!(*store.get(id, at(1_001)).await.unwrap().expect("held"), *state, "{id}");
        }
        assert_eq!(store.cycle_held(), held);
        // A change to a packed session applies to the state it packed.
        let first = &ids[0];
        assert_eq!(forms(&store, 3).1, 40);
        store.apply(first, close_cycle(), at(2_000), TTL).await.unwrap();
        let mut state = expected[0].clone();
        state.apply(close_cycle(), at(2_000), TTL);
        assert_eq!(*store.get(first, at(2_001)).await.unwrap().unwrap(), state);
    }

    fn close_cycle() -> Update {
        Update::Decided(DecidedUpdate { new_turn: true, cycle: CycleChange::Close, ..Default::default() })
    }

    #[tokio::test(start_paused = true)]
    async fn held_cycle_candidates_are_counted_in_and_out() {
        let clock = Clock::default();
        let store = MemoryStore::new(16, Duration::from_secs(60));
        store.apply("a", open_cycle(7), clock.now(), TTL).await.unwrap();
        store.apply("b", open_cycle(5), clock.now(), TTL).await.unwrap();
        assert_eq!(store.cycle_held().candidates, 12);
        // A new cycle replaces the old one's request.
        store.apply("a", open_cycle(3), clock.now(), TTL).await.unwrap();
        assert_eq!(store.cycle_held().candidates, 8);
        // Closing, removing and idle expiry each give the candidates back.
        store.apply("a", close_cycle(), clock.now(), TTL).await.unwrap();
        assert_eq!(store.cycle_held().candidates, 5);
        store.apply("a", open_cycle(4), clock.now(), TTL).await.unwrap();
        assert!(store.remove("a").await.unwrap());
        assert_eq!(store.cycle_held().candidates, 5);
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(store.purge_idle(clock.now()), 1);
        assert_eq!(store.cycle_held().candidates, 0);
    }

    #[tokio::test]
    async fn evicted_sessions_give_back_their_cycle_candidates() {
        let clock = Clock::default();
        let store = MemoryStore::new(16, Duration::from_secs(600));
        for i in 0..200 {
            store.apply(&format!("s{i}"), open_cycle(2), clock.now(), TTL).await.unwrap();
        }
        assert_eq!(store.cycle_held().candidates, 2 * store.len());
    }

    #[tokio::test]
    async fn remove_says_whether_it_existed() {
        let clock = Clock::default();
        let store = MemoryStore::new(10, Duration::from_secs(60));
        store.apply("a", touch(), clock.now(), TTL).await.unwrap();
        assert!(store.remove("a").await.unwrap());
        assert!(!store.remove("a").await.unwrap());
        assert_eq!(store.len(), 0);
    }
}
