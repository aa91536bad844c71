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

/// A place to keep sessions. Methods are async so a shared backend (Redis)
/// can implement them; the in-memory store answers at once.
pub trait SessionStore: Send + Sync + 'static {
    /// The session's state, if it exists and is not idle-expired. Shared,
    /// not copied: a reader never pays for the state's size.
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

/// Where option sets are held for reuse: this process ([`PoolCache`]) or
/// the shared store ([`RedisStore`]). Async, like the session
/// store, so a network backend fits.
pub trait PoolStore: Send + Sync + 'static {
    /// The set, if it is held for this session under `version`.
    fn get<'a>(&'a self, session: &'a str, set: &'a str, version: &'a str) -> BoxFuture<'a, Result<Option<HeldSet>, StoreError>>;
    /// Holds a set (replacing an older version of it).
    fn put<'a>(
        &'a self,
        session: &'a str,
        set: &'a str,
        version: &'a str,
        scope: Scope,
        candidates: Arc<Vec<Candidate>>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Drops every set held for the session; returns how many.
    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<usize, StoreError>>;
    /// Candidates held in this process.
    fn held(&self) -> usize;
}
