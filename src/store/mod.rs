//! The session store: where each session's `ContinuityState`, its open
//! cycle and the option sets held for reuse live. This file is the port the
//! daemon uses ([`SessionStore`], [`PoolStore`], their errors and the
//! clock); the ladder never sees it (it reaches the store only through
//! `Ports`). Two backends implement it:
//!
//! - [`memory`]: this process (`sessions.backend = "memory"`, the default):
//!   sessions in a sharded LRU, purged by a background task.
//! - [`pools`]: option sets cached for reuse in this process.
//! - [`redis`]: both, and the rollout trip, shared by every replica in
//!   Redis / Valkey (`sessions.backend = "redis"`); its Lua scripts are
//!   the `.lua` files in `lua/`, loaded with `include_str!`.

pub mod memory;
pub mod packed;
pub mod pools;
pub mod redis;

pub use memory::{MemoryStore, PurgeGuard};
pub use pools::PoolCache;
pub use redis::RedisStore;

use futures::future::BoxFuture;
use ladder::continuity::{Applied, ContinuityState, Now, Ttl, Update};
use ladder::types::{Candidate, Scope};
use std::sync::Arc;
use tokio::time::Instant;

/// Why a shared-store call failed: the `kind` label of
/// `ladder_store_failures_total`, and what the caller is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum FailureKind {
    /// No answer within `sessions.redis.timeout_ms`.
    Timeout,
    /// No connection (refused, reset, broken pipe).
    Connection,
    /// Not sent: the circuit breaker is open after consecutive failures.
    CircuitOpen,
    /// The store refused a write: at `maxmemory` with `noeviction` (OOM).
    Oom,
    /// The store refused a write: a read-only replica (READONLY).
    ReadOnly,
    /// The store lost the script and could not load it again (NOSCRIPT).
    NoScript,
    /// A script failed on the store (another error of the store's).
    ScriptError,
    /// The store refused the credentials.
    Auth,
    /// The store is loading its data set, or busy with a long script.
    Busy,
    /// A value in the store that this version cannot read.
    Unreadable,
    /// A session written by too many calls at once (compare-and-set lost
    /// every attempt).
    Contended,
}

impl FailureKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The store answered, but would not take the write (or run the
    /// script): what it holds is not what the call meant to leave there.
    pub fn refused(self) -> bool {
        matches!(self, FailureKind::Oom | FailureKind::ReadOnly | FailureKind::NoScript | FailureKind::ScriptError | FailureKind::Auth)
    }

    /// The store did not answer at all: what the circuit breaker counts.
    pub fn unanswered(self) -> bool {
        matches!(self, FailureKind::Timeout | FailureKind::Connection | FailureKind::Busy)
    }

    /// What the caller is told (never the store's own message).
    pub fn for_caller(self) -> &'static str {
        match self {
            FailureKind::Timeout => "the session store did not answer in time",
            FailureKind::Connection => "the session store cannot be reached",
            FailureKind::CircuitOpen => "the session store is failing (calls to it are paused for a moment)",
            FailureKind::Oom => "the session store refused the write: it is out of memory (maxmemory, noeviction)",
            FailureKind::ReadOnly => "the session store refused the write: it is a read-only replica",
            FailureKind::NoScript => "the session store refused the write: its scripts were flushed and could not be loaded again",
            FailureKind::ScriptError => "the session store refused the write: a script failed on the store",
            FailureKind::Auth => "the session store refused the credentials",
            FailureKind::Busy => "the session store is busy (loading its data, or running a long script)",
            FailureKind::Unreadable => "the session store holds a value this version cannot read",
            FailureKind::Contended => "the session is being written by too many calls at once",
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// The store could not serve the call; `detail` is for the log only.
    #[error("session store unavailable ({}): {detail}", kind.as_str())]
    Unavailable { kind: FailureKind, detail: String },
}

impl StoreError {
    pub fn new(kind: FailureKind, detail: impl Into<String>) -> Self {
        StoreError::Unavailable { kind, detail: detail.into() }
    }

    pub fn kind(&self) -> FailureKind {
        let StoreError::Unavailable { kind, .. } = self;
        *kind
    }
}

/// An executed decision's id and cohort, remembered with the session so
/// that an outcome recorded on another replica is attributed to the cohort
/// that decided it.
pub type CohortNote<'a> = Option<(&'a str, &'a str)>;

/// A place to keep sessions: the port the daemon's one `Decide` path
/// speaks. Methods are async so a shared backend (Redis) can implement
/// them; the in-memory store answers at once.
///
/// A turn reads the session, runs the ladder on it, and writes its change
/// as a compare-and-set (`apply`): two round trips on a shared store, the
/// ladder run once (BENCHMARKS.md, "Shared state", says why not one).
pub trait SessionStore: Send + Sync + 'static {
    /// The session's state, if it exists and is not idle-expired.
    fn get<'a>(&'a self, id: &'a str, now: Now) -> BoxFuture<'a, Result<Option<Arc<ContinuityState>>, StoreError>>;
    /// Applies an update atomically, creating the session if needed.
    fn apply<'a>(&'a self, id: &'a str, update: Update, now: Now, ttl: Ttl) -> BoxFuture<'a, Result<Applied, StoreError>>;
    /// Removes the session; says whether it existed.
    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Sessions held now.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Sessions evicted to respect `sessions.max`, since start.
    fn evictions(&self) -> u64;
    /// What the requests of open cycles hold, all sessions together.
    fn cycle_held(&self) -> Held;
    /// Store calls that failed since start (a shared store's timeouts and
    /// refusals; the in-memory store never fails).
    fn failures(&self) -> u64 {
        0
    }
    /// Whether the store's last call failed.
    fn failing(&self) -> bool {
        false
    }
    /// Starts the store's background work (the in-memory store's purge of
    /// idle sessions); it stops when the guard is dropped.
    fn spawn_background(&self, _clock: Clock, _every: std::time::Duration) -> Option<PurgeGuard> {
        None
    }

    // The turn protocol: read (`get`), then a compare-and-set (`apply`).

    /// `apply`, remembering an executed decision's cohort with the session
    /// in the same write (`executed`).
    fn apply_noting<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now: Now,
        ttl: Ttl,
        _executed: CohortNote<'a>,
    ) -> BoxFuture<'a, Result<Applied, StoreError>> {
        self.apply(id, update, now, ttl)
    }

    // The rollout guardrails, shared by the replicas of a shared store.

    /// The cohort of an executed decision remembered for the session
    /// (`apply_noting`); a store that shares nothing remembers none.
    fn executed_cohort<'a>(&'a self, _session: &'a str, _decision_id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(std::future::ready(Ok(None)))
    }
    /// Reads (and, with `action`, sets or resets) the rollout trip the
    /// replicas share: the trip's JSON if one is set, and the count of
    /// resets. A store that shares nothing holds no trip.
    fn rollout<'a>(&'a self, _action: RolloutAction<'a>) -> BoxFuture<'a, Result<(Option<String>, i64), StoreError>> {
        Box::pin(std::future::ready(Ok((None, 0))))
    }
    /// Publishes this replica's guardrail windows (`json`) and answers the
    /// other replicas' (those heard from within `keep_ms`); `None` when an
    /// operator reset the rollout since `epoch`. A store that shares
    /// nothing has no other replica.
    fn share_windows<'a>(
        &'a self,
        _replica: &'a str,
        _json: &'a str,
        _epoch: i64,
        _now_ms: i64,
        _keep_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        Box::pin(std::future::ready(Ok(Some(Vec::new()))))
    }
}

/// What `SessionStore::rollout` does besides reading.
#[derive(Debug, Clone, Copy)]
pub enum RolloutAction<'a> {
    Read,
    /// Sets the trip unless one is set already.
    Trip(&'a str),
    /// Clears the trip and counts a reset (every replica starts its
    /// windows afresh when it sees the count change).
    Reset,
}

/// What open cycles' requests hold: candidates, and their bytes
/// (`Candidate::approx_bytes`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    pub candidates: usize,
    pub bytes: usize,
}

impl Held {
    pub fn of(s: &ContinuityState) -> Held {
        Held { candidates: s.held_candidates(), bytes: s.held_bytes() }
    }
}

/// The clock of one daemon. By default the TTL clock (`Now::mono_ms`) is
/// tokio's monotonic clock, so tests can pause it; with a shared store it is
/// the wall clock (`Clock::wall`), because state written by one replica is
/// judged by another, and one process's monotonic clock means nothing to
/// the others.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    epoch: Instant,
    wall: bool,
}

impl Default for Clock {
    fn default() -> Self {
        Clock { epoch: Instant::now(), wall: false }
    }
}

impl Clock {
    /// Whether it reads the wall clock (a shared store's).
    pub fn is_wall(&self) -> bool {
        self.wall
    }

    /// TTLs measured in wall-clock milliseconds since the Unix epoch.
    pub fn wall() -> Self {
        Clock { epoch: Instant::now(), wall: true }
    }

    pub fn now(&self) -> Now {
        let wall_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
        let mono_ms = if self.wall { wall_ms.max(0) as u64 } else { self.epoch.elapsed().as_millis() as u64 };
        Now { mono_ms, wall_ms }
    }
}

/// A held option set: its scope and candidates.
pub type HeldSet = (Scope, Arc<Vec<Candidate>>);

/// What [`PoolStore::put`] came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holding {
    /// Held under its version: new, in place of another version of the
    /// set, or the same content again (which only marks it used).
    Held,
    /// Not held: over what a session's sets may hold. No error: the
    /// decision does not need it, and a later reference asks for a resend.
    TooLarge,
    /// Refused: this version of the set is held with other content, which
    /// stays as it was. A version names one content: the same version with
    /// other content is a client's bug or an attack, and the user's screen
    /// shows the held content either way.
    OtherContent,
}

/// A digest of an option set's content: its scope and its candidates in
/// order, every field. What the shared store compares to tell the same
/// content from other content under one version without holding a second
/// copy of it; SHA-256, so that no client can make other content pass
/// for the held one. Every field is counted in before its bytes, so no
/// two contents share an encoding ("ab" then "" is not "a" then "b").
pub fn content_digest(scope: Scope, candidates: &[Candidate]) -> String {
    use sha2::{Digest, Sha256};
    fn field(h: &mut Sha256, s: &str) {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    }
    let mut h = Sha256::new();
    field(&mut h, scope.as_str());
    h.update((candidates.len() as u64).to_le_bytes());
    for c in candidates {
        // Named field by field: a field added to `Candidate` does not
        // compile here until it is part of the digest.
        let Candidate { id, label, sublabel, badge, kind, path, aliases, risk } = c;
        for s in [id, label, sublabel, badge, kind, path] {
            field(&mut h, s);
        }
        h.update((aliases.len() as u64).to_le_bytes());
        for a in aliases {
            field(&mut h, a);
        }
        field(&mut h, risk.as_str());
    }
    hex::encode(h.finalize())
}

/// Where option sets are held for reuse: this process ([`PoolCache`]) or
/// the shared store ([`RedisStore`]). Async, like the session
/// store, so a network backend fits.
pub trait PoolStore: Send + Sync + 'static {
    /// The set, if it is held for this session under `version`.
    fn get<'a>(&'a self, session: &'a str, set: &'a str, version: &'a str) -> BoxFuture<'a, Result<Option<HeldSet>, StoreError>>;
    /// Holds a set under `version`, in place of another version of it;
    /// unless this version of the set is held with other content (scope
    /// and candidates, in order, every field): then the held set stays as
    /// it was and the answer is [`Holding::OtherContent`], also when the
    /// set sent is too large to hold. The comparison and the holding are
    /// one step: of calls on any replicas racing to hold one version with
    /// different contents, exactly one content is held and the calls with
    /// the others are refused; calls with the same content are all held.
    fn put<'a>(
        &'a self,
        session: &'a str,
        set: &'a str,
        version: &'a str,
        scope: Scope,
        candidates: Arc<Vec<Candidate>>,
    ) -> BoxFuture<'a, Result<Holding, StoreError>>;
    /// Drops every set held for the session; returns how many.
    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<usize, StoreError>>;
    /// Candidates held in this process.
    fn held(&self) -> usize;
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladder::types::Risk;

    /// Every field of a candidate, so that a change to any one shows.
    fn full() -> Candidate {
        Candidate {
            id: "sales-report".into(),
            label: "Sales report".into(),
            sublabel: "Q3".into(),
            badge: "new".into(),
            kind: "report".into(),
            path: "/reports/sales".into(),
            aliases: vec!["revenue".into(), "sales".into()],
            risk: Risk::Normal,
        }
    }

    #[test]
    fn the_content_digest_tells_contents_apart_exactly_as_equality_does() {
        let one = |f: fn(&mut Candidate)| {
            let mut c = full();
            f(&mut c);
            (Scope::Chat, vec![c, Candidate::new("other", "Other")])
        };
        let contents = [
            one(|_| {}),
            (Scope::Widget, one(|_| {}).1),
            one(|c| c.id = "action-delete-account".into()),
            one(|c| c.label = "Sales reports".into()),
            one(|c| c.sublabel.clear()),
            one(|c| c.badge = "old".into()),
            one(|c| c.kind.clear()),
            one(|c| c.path = "/reports".into()),
            one(|c| c.aliases.reverse()),
            one(|c| c.aliases = vec!["revenue sales".into()]),
            one(|c| c.aliases.push(String::new())),
            one(|c| c.risk = Risk::High),
            one(|c| c.risk = Risk::Unspecified),
            // The same bytes split at another field boundary.
            one(|c| (c.label, c.sublabel) = ("Sales reportQ".into(), "3".into())),
            one(|c| (c.kind, c.path) = (String::new(), "report/reports/sales".into())),
            // The same candidates in another order, or fewer of them.
            (Scope::Chat, one(|_| {}).1.into_iter().rev().collect()),
            (Scope::Chat, one(|_| {}).1[..1].to_vec()),
            (Scope::Chat, Vec::new()),
        ];
        for (i, a) in contents.iter().enumerate() {
            for (j, b) in contents.iter().enumerate() {
                let same = content_digest(a.0, &a.1) == content_digest(b.0, &b.1);
                assert_eq!(same, a == b, "{i} and {j}");
            }
            // A copy is the same content.
            assert_eq!(content_digest(a.0, &a.1.clone()), content_digest(a.0, &a.1), "{i}");
        }
        assert_eq!(content_digest(Scope::Chat, &[]).len(), 64, "SHA-256, in hex");
    }
}
