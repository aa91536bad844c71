//! The shared store (`sessions.backend = "redis"`): sessions, loop-guard
//! claims, open cycles, option sets held for reuse, the guardrail windows
//! and the rollout trip in Redis or Valkey, so any replica can serve any
//! turn (docs/replicas.md).
//!
//! Layout. Every key of one session shares the hash tag `{<session id>}`,
//! so each script touches one Cluster slot:
//!
//! - `<prefix>{<id>}`: a hash with `v` (a version token), `st` (the
//!   `ContinuityState` as JSON, without the open cycle's request), and
//!   `rq` / `rc` (the open cycle's request, as JSON, and the cycle it
//!   belongs to; written once when the cycle opens, read only by `Enrich`),
//!   or `pq` / `pk` for a cycle opened by a logged change (the request and
//!   the cycle's guard key: a logged change may continue the session's
//!   cycle on the same evidence, whose id it does not know), until the next
//!   compare-and-set makes them `rq` / `rc`;
//! - `<prefix>{<id>}:log`: session changes appended without a
//!   compare-and-set (at most `LOG_MAX`; see Round trips below);
//! - `<prefix>{<id>}:pools`, `:poolc`, `:poolz`, `:poolv`: option sets
//!   held for reuse (set -> JSON, set -> candidate count, set -> last use,
//!   set -> the digest of its content and its version, which the put
//!   script compares so that a version names one content), bounded per
//!   session by `sessions.pool_cache_candidates`, least recently used first
//!   out;
//! - `<prefix>{<id>}:executed`: the session's last 16 executed decisions
//!   and their cohorts, so a `RecordOutcome` on another replica than the
//!   one that decided still counts for the guardrails;
//! - `<prefix>{rollout}:trip` and `:epoch`: the guardrail trip and the
//!   count of `ResetRollout`s, read by every replica once per evaluation;
//! - `<prefix>{rollout}:windows` and `:seen`: each replica's guardrail
//!   samples of the last two windows (replica -> JSON) and when it last
//!   published them; once per evaluation each replica writes its own and
//!   reads the others' in one script, replicas silent for two windows are
//!   dropped, and `ResetRollout` deletes them all.
//!
//! Session keys expire with `sessions.idle_ttl_seconds`, set by Redis on
//! each use; the windows after two guardrail windows without a publisher.
//! Time in the state is wall-clock (see `Clock::wall`).
//!
//! Atomicity. The state's rules stay in one place, the pure core
//! (`ContinuityState::apply`): an update is applied here to the state as
//! last read, and written by one Lua script that checks the version it was
//! read at (compare-and-set). When another replica wrote in between, the
//! script answers with the current state instead, and the update is applied
//! again to that: two replicas racing for one loop-guard claim therefore see
//! exactly one `GuardClaimed`. Versions are random tokens plus the log's
//! length, so a session that expired and was created again never matches
//! an old version, and neither does one a change was logged to since.
//!
//! Round trips. The daemon plans each turn before reading
//! (`ladder::speculate::plan`, because `remote` is true): the ladder first
//! runs without the session's state. When it read nothing of it, the decision's
//! change is logged with one script and no read (`log_decided`). When it
//! read only facts (no open cycle on this evidence; whether the continuity
//! context is this option set and scope), the change is logged as
//! `Update::DecidedIf` in the same script as a read (`log_with_read`):
//! applied where the facts hold, which the read tells at once. A change
//! that opens a cycle does not need the first fact: on the evidence of the
//! session's open cycle it continues that one (`DecidedUpdate::continuing`),
//! and only the decision is made again, on the state read (still one). A
//! tie continuity may take is decided twice without the state, once as if
//! the session's context were the request's options
//! (`speculate::on_shown_options`), and both changes go in one entry: the
//! first whose facts hold applies (`otherwise`), and the read tells which.
//! Where none holds, the change applies nothing and the ladder runs again
//! on the state read, written with a compare-and-set (two). A turn headed
//! for the LLM takes its loop-guard claim in the read's script the same way
//! (`read_claiming`; after the continuity case, if there is one, as its
//! `otherwise`). Every read applies the logged changes in order, with
//! the core's `apply`, as a compare-and-set at that moment would have, so
//! the rules stay in one place; the next compare-and-set folds them into
//! the state. A log of `LOG_FOLD` changes is folded by a compare-and-set
//! in the background once the call that found it so has answered
//! (`fold_later`); at `LOG_MAX` (folds failing) a turn folds it first.
//!
//! Faults. Every call is bounded by `sessions.redis.timeout_ms` and fails
//! with a `StoreError` of a `FailureKind` (no answer, a lost connection, a
//! write the store refused: OOM at `maxmemory`, READONLY on a replica,
//! NOSCRIPT after a flush, any script error); callers degrade (see
//! `daemon::turn`). Failures are counted by op and kind
//! (`ladder_store_failures_total`) and logged as a warning at most once
//! per kind per 10 s, with the count held back since the last line.
//!
//! A call whose connection turns out to be dead (the store restarted while
//! this replica was idle: a broken pipe) is sent once more on the same,
//! reconnected, connection within its timeout; the scripts that write are
//! idempotent for that (a compare-and-set that finds its own version, a
//! log entry already appended). A background task pings the connections
//! once per `sessions.redis.breaker_cooldown_ms`, so an idle replica finds
//! and replaces a dead one before a call needs it.
//!
//! A store that does not answer costs one timeout, not one per call: after
//! `sessions.redis.breaker_failures` calls in a row got no answer, the
//! circuit breaker (`crate::breaker`) opens and calls skip the store
//! (`FailureKind::CircuitOpen`, answered as for an unreachable store) until
//! the background probe, once per cool-down, finds it answering again.

use super::{
    Executed, FailureKind, Held, HeldSet, Holding, PoolStore, ReadAppended, RolloutAction, SessionStore, StoreError, content_digest,
};
use crate::breaker::Breaker;
use crate::config::RedisConfig;
use futures::future::BoxFuture;
use ladder::continuity::{Applied, ContinuityState, CycleChange, DecidedUpdate, Now, Ttl, Update};
use ladder::types::{Candidate, DecideRequest, Scope};
use lru::LruCache;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::cluster::{ClusterClientBuilder, ClusterConfig};
use redis::cluster_async::ClusterConnection;
use redis::{IntoConnectionInfo, RedisResult, Script, Value};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// Reads a session and keeps it alive (where the store takes writes):
/// `lua/read.lua` (its keys, arguments and answers are in its header).
static READ: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/read.lua")));

/// Compare-and-set of one session: `lua/write.lua`, after
/// `lua/remember_executed.lua` (its keys, arguments and answers are in its
/// header).
static WRITE: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(include_str!("lua/remember_executed.lua"), include_str!("lua/write.lua"))));

/// Appends a decision's session change to the session's log without reading the
/// session (a decision that did not depend on it): `lua/append.lua`, after
/// `lua/remember_executed.lua` (its keys, arguments and answers are in its
/// header).
static APPEND: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(include_str!("lua/remember_executed.lua"), include_str!("lua/append.lua"))));

/// Holds an option set: `lua/pool_put.lua` (its keys, arguments and answers are
/// in its header).
static POOL_PUT: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/pool_put.lua")));

/// Finds an option set and marks it used: `lua/pool_get.lua` (its keys,
/// arguments and answers are in its header).
static POOL_GET: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/pool_get.lua")));

/// Reads a session and appends a change to its log, in one step:
/// `lua/read_append.lua`, after `lua/remember_executed.lua` (its keys,
/// arguments and answers are in its header).
static READ_APPEND: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(include_str!("lua/remember_executed.lua"), include_str!("lua/read_append.lua"))));

/// Removes a session's state (hash, executed list, log); answers 1 if it
/// existed: `lua/remove.lua` (its keys, arguments and answers are in its
/// header).
static REMOVE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/remove.lua")));

/// Drops a session's option sets; answers how many there were:
/// `lua/pool_remove.lua` (its keys, arguments and answers are in its header).
static POOL_REMOVE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/pool_remove.lua")));

/// The rollout trip: `lua/rollout.lua` (its keys, arguments and answers are in
/// its header).
static ROLLOUT: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/rollout.lua")));

/// The replicas' guardrail windows: `lua/windows.lua` (its keys, arguments and
/// answers are in its header).
static WINDOWS: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/windows.lua")));

/// The executed decisions remembered for a session, newest first:
/// `lua/executed_list.lua` (its keys, arguments and answers are in its header).
static EXECUTED_LIST: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("lua/executed_list.lua")));

/// Versions read recently, so the write that follows a read in the same
/// call (Decide: read, decide, write) needs no second read.
const SEEN: usize = 4096;
/// Changes logged per session at most: past it, the next turn folds the
/// log in before answering (a second round trip). Reached only when the
/// background folds from `LOG_FOLD` on keep failing.
pub const LOG_MAX: usize = 64;

/// The log's length from which a write folds it in, after answering the
/// call that found it so (`fold_later`); `LOG_MAX` is reached only when
/// those folds keep failing.
pub const LOG_FOLD: usize = 16;
/// Writes that lost a race are retried on the state that won, this often.
const MAX_ATTEMPTS: usize = 8;

/// Whether the store is answering, for metrics and the log.
#[derive(Debug)]
pub struct StoreHealth {
    failures: AtomicU64,
    failing: AtomicBool,
    /// `ladder_store_failures_total{op,kind}`.
    counter: opentelemetry::metrics::Counter<u64>,
}

impl Default for StoreHealth {
    fn default() -> Self {
        let counter = opentelemetry::global::meter("ladderd")
            .u64_counter("ladder.store.failures")
            .with_description("Shared-store calls that failed, by op and kind (timeout, connection, circuit_open, oom, readonly, noscript, script_error, ...)")
            .build();
        StoreHealth { failures: AtomicU64::new(0), failing: AtomicBool::new(false), counter }
    }
}

impl StoreHealth {
    /// Store calls that failed (timed out, refused, or errored) since start;
    /// calls the open circuit breaker skipped are not store calls.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Whether the last store call failed (or the breaker skips calls).
    pub fn failing(&self) -> bool {
        self.failing.load(Ordering::Relaxed)
    }

    fn ok(&self) {
        if self.failing.swap(false, Ordering::Relaxed) {
            crate::info_every!("session store answering again", "session store answering again");
        }
    }

    fn failed(&self, op: &'static str, e: &StoreError) {
        let kind = e.kind();
        self.counter.add(1, &[opentelemetry::KeyValue::new("op", op), opentelemetry::KeyValue::new("kind", kind.as_str())]);
        self.failing.store(true, Ordering::Relaxed);
        if kind == FailureKind::CircuitOpen {
            // Counted; the breaker logged when it opened.
            return;
        }
        let failures = self.failures.fetch_add(1, Ordering::Relaxed) + 1;
        crate::warn_every!(
            &format!("session store failing: {}", kind.as_str()),
            op,
            kind = kind.as_str(),
            error = %e,
            failures,
            "session store failing: continuity, loop-guard claims and Enrich degrade to the safe side until it answers"
        );
    }
}

/// The kind of a store error (the `kind` label, and what the caller is told).
fn classify(e: &redis::RedisError) -> FailureKind {
    if e.is_timeout() {
        return FailureKind::Timeout;
    }
    let text = e.to_string();
    match e.code() {
        Some("OOM") => FailureKind::Oom,
        Some("READONLY") => FailureKind::ReadOnly,
        Some("NOSCRIPT") => FailureKind::NoScript,
        Some("NOAUTH" | "WRONGPASS" | "NOPERM") => FailureKind::Auth,
        Some("LOADING" | "BUSY" | "MASTERDOWN" | "TRYAGAIN" | "CLUSTERDOWN") => FailureKind::Busy,
        // A script's command refused inside it: named in the message.
        Some(_) if text.contains("OOM command not allowed") => FailureKind::Oom,
        Some(_) if text.contains("READONLY") => FailureKind::ReadOnly,
        Some(_) => FailureKind::ScriptError,
        None if e.kind() == redis::ErrorKind::AuthenticationFailed => FailureKind::Auth,
        None if e.is_io_error() || e.is_connection_dropped() || e.is_connection_refusal() => FailureKind::Connection,
        None => FailureKind::ScriptError,
    }
}

fn wall_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// Which connection a call goes on.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// One of the standalone pool's (a retry stays on it).
    Manager(usize),
    Cluster,
}

/// What a call sends: a script, or a plain command (the probe's PING).
enum What<'a> {
    Script(&'a redis::ScriptInvocation<'a>),
    Command(&'a redis::Cmd),
}

impl What<'_> {
    async fn send<C: redis::aio::ConnectionLike + Send>(&self, c: &mut C) -> RedisResult<Value> {
        match self {
            What::Script(inv) => inv.invoke_async(c).await,
            What::Command(cmd) => cmd.query_async(c).await,
        }
    }
}

impl<'a> From<&'a redis::Cmd> for What<'a> {
    fn from(c: &'a redis::Cmd) -> Self {
        What::Command(c)
    }
}

impl<'a> From<&'a redis::ScriptInvocation<'a>> for What<'a> {
    fn from(i: &'a redis::ScriptInvocation<'a>) -> Self {
        What::Script(i)
    }
}

/// The connections: to one server (round robin over `pool_size`
/// multiplexed connections), or to a Cluster (routed by slot).
enum Conns {
    Standalone(Vec<ConnectionManager>),
    Cluster(ClusterConnection),
}

/// session -> (version, log length, state) as last read or written here.
type Seen = LruCache<Box<str>, (Box<str>, usize, Arc<ContinuityState>)>;

struct Inner {
    conns: Conns,
    next: AtomicUsize,
    prefix: String,
    timeout: Duration,
    idle_ms: u64,
    pool_max_candidates: usize,
    /// session -> (version, state) as last read or written here.
    seen: Mutex<Seen>,
    /// Sessions whose log a background write is folding in.
    folding: Mutex<std::collections::HashSet<Box<str>>>,
    health: Arc<StoreHealth>,
    /// Skips the store after consecutive calls got no answer.
    breaker: Breaker,
}

/// The Redis / Valkey store. Cheap to clone.
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

/// The state as read: its version (the hash's token and how many logged
/// changes followed it), and the state with those changes applied (with the
/// open cycle's request when it was asked for).
struct Read {
    version: String,
    logged: usize,
    state: ContinuityState,
}

/// A session change logged without a read (`RedisStore::log_decided`,
/// `RedisStore::read_claiming`), applied (`ContinuityState::apply`) in
/// order whenever the session is read.
#[derive(serde::Serialize, serde::Deserialize)]
struct Logged {
    update: Update,
    mono_ms: u64,
    wall_ms: i64,
    ttl: Ttl,
    /// Tells this entry from an equal one: an entry sent again after a lost
    /// connection is found and not appended twice (absent in older logs).
    #[serde(default, skip_serializing_if = "is_zero")]
    nonce: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Logged {
    fn new(update: Update, now: Now, ttl: Ttl) -> Self {
        Logged { update, mono_ms: now.mono_ms, wall_ms: now.wall_ms, ttl, nonce: uuid::Uuid::new_v4().as_u64_pair().0 }
    }
}

/// JSON for the store (a value of ours: encoding fails only on a bug,
/// reported like a store failure).
fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(value).map_err(|e| StoreError::new(FailureKind::Unreadable, format!("encode: {e}")))
}

impl RedisStore {
    /// Builds the clients (connecting lazily: a store that is down at start
    /// does not stop the daemon from serving). Needs a tokio runtime.
    pub fn new(cfg: &RedisConfig, idle: Duration, pool_max_candidates: usize) -> Result<Self, String> {
        let url = match (&cfg.url, &cfg.url_file) {
            (Some(u), _) => u.0.clone(),
            (None, Some(f)) => {
                std::fs::read_to_string(f).map_err(|e| format!("sessions.redis.url_file: {}: {e}", f.display()))?.trim().to_string()
            }
            (None, None) => return Err("sessions.redis.url: required".into()),
        };
        let mut info = url.as_str().into_connection_info().map_err(|e| format!("sessions.redis.url: {:?}", e.kind()))?;
        if let Some(path) = &cfg.password_file {
            let pw = std::fs::read_to_string(path).map_err(|e| format!("sessions.redis.password_file: {}: {e}", path.display()))?;
            let settings = info.redis_settings().clone().set_password(pw.trim_end_matches(['\r', '\n']));
            info = info.set_redis_settings(settings);
        }
        let timeout = Duration::from_millis(cfg.timeout_ms);
        // Connecting may take longer than one call's budget (TLS); the calls
        // themselves are bounded by `timeout` either way.
        let connect_timeout = timeout.max(Duration::from_millis(1000));
        let conns = if cfg.cluster {
            let client = ClusterClientBuilder::new(vec![info]).build().map_err(|e| format!("sessions.redis.url: {e}"))?;
            let config = ClusterConfig::new().set_connection_timeout(connect_timeout).set_response_timeout(timeout);
            // Connects (and discovers the slots) in the background.
            Conns::Cluster(client.get_pending_async_connection_with_config(config))
        } else {
            let client = redis::Client::open(info).map_err(|e| format!("sessions.redis.url: {:?}", e.kind()))?;
            let manager_config = ConnectionManagerConfig::new()
                .set_connection_timeout(Some(connect_timeout))
                .set_response_timeout(Some(timeout))
                .set_min_delay(Duration::from_millis(50))
                // Short: a store back after an outage is reached within a
                // probe interval, not after a long backoff.
                .set_max_delay(Duration::from_millis(250));
            let managers = (0..cfg.pool_size.max(1))
                .map(|_| ConnectionManager::new_lazy_with_config(client.clone(), manager_config.clone()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("sessions.redis: {e}"))?;
            Conns::Standalone(managers)
        };
        let cooldown = Duration::from_millis(cfg.breaker_cooldown_ms);
        let store = RedisStore {
            inner: Arc::new(Inner {
                conns,
                next: AtomicUsize::new(0),
                prefix: cfg.key_prefix.clone(),
                timeout,
                idle_ms: idle.as_millis().max(1) as u64,
                pool_max_candidates,
                seen: Mutex::new(LruCache::new(NonZeroUsize::new(SEEN).expect("non-zero"))),
                folding: Mutex::new(std::collections::HashSet::new()),
                health: Arc::new(StoreHealth::default()),
                breaker: Breaker::new("session store", cfg.breaker_failures, cooldown),
            }),
        };
        tokio::spawn(probe_loop(Arc::downgrade(&store.inner), cooldown));
        Ok(store)
    }

    /// Whether calls skip the store now (the circuit breaker is open, or
    /// waiting for its probe).
    pub fn breaker_open(&self) -> bool {
        self.inner.breaker.is_tripped()
    }

    /// One round of the background check: the probe the open breaker
    /// waits for (once its cool-down is over), or, while it is closed, a
    /// ping of every connection once per cool-down so that a dead one (the
    /// store restarted while this replica was idle) is replaced before a
    /// call needs it. Returns when it pinged.
    async fn probe(&self, last_ping: &mut Instant) -> bool {
        let tripped = self.inner.breaker.is_tripped();
        if !tripped && last_ping.elapsed() < self.inner.breaker.cooldown() {
            return false;
        }
        // Open: `None` until the cool-down is over (one probe per interval).
        let Some(admission) = self.inner.breaker.allow() else { return false };
        *last_ping = Instant::now();
        match self.ping().await {
            Ok(()) => {
                admission.record(true);
                self.inner.health.ok();
            }
            Err(e) => {
                admission.record(!e.kind().unanswered());
                self.inner.health.failed("ping", &e);
            }
        }
        true
    }

    /// PING on every connection (each within the call timeout, sent once
    /// more on a dead connection): `Ok` when any answered.
    async fn ping(&self) -> Result<(), StoreError> {
        let ping = redis::cmd("PING");
        let results = match &self.inner.conns {
            Conns::Standalone(managers) => {
                futures::future::join_all((0..managers.len()).map(|i| self.call("ping", Target::Manager(i), &ping))).await
            }
            Conns::Cluster(_) => vec![self.call("ping", Target::Cluster, &ping).await],
        };
        let mut first = None;
        for r in results {
            match r {
                Ok(_) => return Ok(()),
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    pub fn health(&self) -> Arc<StoreHealth> {
        self.inner.health.clone()
    }

    /// The connection for the next call (round robin over the pool).
    fn target(&self) -> Target {
        match &self.inner.conns {
            Conns::Standalone(managers) => Target::Manager(self.inner.next.fetch_add(1, Ordering::Relaxed) % managers.len()),
            Conns::Cluster(_) => Target::Cluster,
        }
    }

    async fn invoke(&self, target: Target, what: &What<'_>) -> RedisResult<Value> {
        match (&self.inner.conns, target) {
            (Conns::Standalone(managers), Target::Manager(i)) => what.send(&mut managers[i % managers.len()].clone()).await,
            (Conns::Standalone(managers), Target::Cluster) => what.send(&mut managers[0].clone()).await,
            (Conns::Cluster(c), _) => what.send(&mut c.clone()).await,
        }
    }

    fn key(&self, id: &str) -> String {
        format!("{}{{{id}}}", self.inner.prefix)
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.inner.seen.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs one script within the call budget, counting failures.
    async fn script(&self, op: &'static str, inv: redis::ScriptInvocation<'_>) -> Result<Value, StoreError> {
        self.run_within(op, inv, self.inner.timeout).await
    }

    /// Runs one script within `timeout`, counting failures. Skipped at
    /// once while the circuit breaker is open.
    async fn run_within(&self, op: &'static str, inv: redis::ScriptInvocation<'_>, timeout: Duration) -> Result<Value, StoreError> {
        let Some(admission) = self.inner.breaker.allow_closed() else {
            let e = StoreError::new(FailureKind::CircuitOpen, format!("{op}: skipped, the circuit breaker is open"));
            self.inner.health.failed(op, &e);
            return Err(e);
        };
        match self.call_within(op, self.target(), &What::Script(&inv), timeout).await {
            Ok(v) => {
                admission.record(true);
                self.inner.health.ok();
                Ok(v)
            }
            Err(e) => {
                // A refusal is an answer: only silence opens the breaker.
                admission.record(!e.kind().unanswered());
                self.inner.health.failed(op, &e);
                Err(e)
            }
        }
    }

    /// `call_within` the call timeout.
    async fn call<'a>(&self, op: &'static str, target: Target, what: impl Into<What<'a>>) -> Result<Value, StoreError> {
        self.call_within(op, target, &what.into(), self.inner.timeout).await
    }

    /// Sends `what` on `target` within `timeout`; a connection found dead
    /// (a broken pipe: the store restarted since this connection was last
    /// used) is reconnected by its manager, and the call sent once more on
    /// it within what is left of the timeout.
    async fn call_within(&self, op: &'static str, target: Target, what: &What<'_>, timeout: Duration) -> Result<Value, StoreError> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut again = true;
        loop {
            let e = match tokio::time::timeout_at(deadline, self.invoke(target, what)).await {
                Ok(Ok(v)) => return Ok(v),
                Ok(Err(e)) => e,
                Err(_) => return Err(StoreError::new(FailureKind::Timeout, format!("{op}: no answer within {} ms", timeout.as_millis()))),
            };
            let kind = classify(&e);
            if kind == FailureKind::Connection && std::mem::take(&mut again) && tokio::time::Instant::now() < deadline {
                tracing::debug!(op, error = %e, "store connection lost; sending the call once more on a new one");
                continue;
            }
            return Err(StoreError::new(kind, format!("{op}: {e}")));
        }
    }

    /// Reads a session (with its open cycle's request when `with_request`).
    async fn read(&self, id: &str, with_request: bool) -> Result<Option<Read>, StoreError> {
        let key = self.key(id);
        let mut inv = READ.prepare_invoke();
        inv.key(&key).key(format!("{key}:log")).arg(self.inner.idle_ms).arg(if with_request { "1" } else { "0" });
        let fields = bulk_list(self.script("read", inv).await?);
        parse_state(id, &fields, with_request)
    }

    /// Applies `update` with compare-and-set, retrying on the state that
    /// won a race. Returns the result and the state written.
    async fn cas(&self, id: &str, update: Update, now: Now, ttl: Ttl, executed: String) -> Result<Applied, StoreError> {
        // Enrich needs the open cycle's request, which reads leave behind.
        let with_request = matches!(update, Update::BeginEnrich { .. });
        let cached = if with_request { None } else { self.seen().get(id).cloned() };
        let base: Option<Read> = match cached {
            Some((version, logged, state)) => Some(Read { version: version.into(), logged, state: ContinuityState::clone(&state) }),
            None => self.read(id, with_request).await?,
        };
        self.cas_from(id, update, now, ttl, executed, base).await
    }

    /// `cas` from the session as read (`base`, `None` when absent).
    async fn cas_from(
        &self,
        id: &str,
        update: Update,
        now: Now,
        ttl: Ttl,
        executed: String,
        mut base: Option<Read>,
    ) -> Result<Applied, StoreError> {
        let key = self.key(id);
        let executed_key = format!("{key}:executed");
        let with_request = matches!(update, Update::BeginEnrich { .. });
        let opens = matches!(&update, Update::Decided(d) if matches!(d.cycle, CycleChange::Open(_)));
        for _ in 0..MAX_ATTEMPTS {
            let expected = base.as_ref().map_or(String::new(), |b| b.version.clone());
            let logged = base.as_ref().map_or(0, |b| b.logged);
            let loaded_request = base.as_ref().and_then(|b| b.state.cycle.as_ref()).and_then(|c| c.request.clone());
            let mut state = base.map(|b| b.state).unwrap_or_default();
            let applied = state.apply(update.clone(), now, ttl);
            // A turn the session applied last: nothing to write.
            if matches!(applied, Applied::Replay(_)) {
                return Ok(applied);
            }
            let version = uuid::Uuid::new_v4().simple().to_string();
            let open = state.open_cycle();
            let (mode, request, cycle_id) = match open {
                Some(c) => match &c.request {
                    Some(r) if !loaded_request.as_ref().is_some_and(|l| Arc::ptr_eq(l, r)) => ("set", to_json(&**r)?, c.id.clone()),
                    // Opened without a request (too large to keep): Enrich
                    // must refuse it, whatever an older cycle left.
                    None if opens => ("del", Vec::new(), c.id.clone()),
                    _ => ("keep", Vec::new(), c.id.clone()),
                },
                None => ("del", Vec::new(), String::new()),
            };
            let guard_key = open.map_or("", |c| c.guard_key.as_str());
            let st = encode_state(&state)?;
            let mut inv = WRITE.prepare_invoke();
            inv.key(&key)
                .key(&executed_key)
                .key(format!("{key}:log"))
                .arg(&expected)
                .arg(&version)
                .arg(&st)
                .arg(mode)
                .arg(request)
                .arg(&cycle_id)
                .arg(self.inner.idle_ms)
                .arg(if with_request { "1" } else { "0" })
                .arg(&executed)
                .arg(logged)
                .arg(guard_key);
            let reply = bulk_list(self.script("write", inv).await?);
            if matches!(reply.first(), Some(Some(b)) if b == b"1") {
                self.remember(id, version, state);
                return Ok(applied);
            }
            // Lost a race: apply again to the state that won.
            base = parse_state(id, &reply[1..], with_request)?;
        }
        let e = StoreError::new(FailureKind::Contended, format!("session {id:?} is being written by too many calls at once"));
        self.inner.health.failed("write", &e);
        Err(e)
    }

    fn remember(&self, id: &str, version: String, mut state: ContinuityState) {
        // Cached without the cycle's request: reads never carry it either.
        if let Some(c) = state.cycle.as_mut() {
            c.request = None;
        }
        self.seen().put(id.into(), (version.into(), 0, Arc::new(state)));
    }

    /// Writes a decision's session change without reading the session: for
    /// a decision the state did not decide (`speculate::without_state`), so one
    /// round trip. The change is appended to the session's log and applied,
    /// in order, by whoever reads the session next (`ContinuityState::apply`,
    /// as a compare-and-set would have applied it now). A full log
    /// (`LOG_MAX`) is folded into the state with this change by a
    /// compare-and-set instead. An execution's cohort is remembered as in
    /// `apply_noting`.
    async fn append_decided(
        &self,
        id: &str,
        update: DecidedUpdate,
        now: Now,
        ttl: Ttl,
        executed: Option<(&str, &str)>,
    ) -> Result<(), StoreError> {
        let note = executed.map(|(d, c)| format!("{d}|{c}")).unwrap_or_default();
        let close = match update.cycle {
            CycleChange::Keep => "",
            CycleChange::Close => "close",
            // A cycle's request is written with it: read and compare-and-set.
            CycleChange::Open(_) => return self.cas(id, Update::Decided(update), now, ttl, note).await.map(|_| ()),
        };
        let key = self.key(id);
        let entry = Logged::new(Update::Decided(update), now, ttl);
        let json = to_json(&entry)?;
        let mut inv = APPEND.prepare_invoke();
        inv.key(&key)
            .key(format!("{key}:executed"))
            .key(format!("{key}:log"))
            .arg(json)
            .arg(self.inner.idle_ms)
            .arg(&note)
            .arg(close)
            .arg(LOG_MAX)
            .arg(LOG_FOLD);
        let reply = bulk_list(self.script("append", inv).await?);
        // Whatever this replica held of the session is behind it now.
        self.seen().pop(id);
        match reply.first() {
            Some(Some(b)) if b == b"1" => Ok(()),
            // Appended: fold the log in after answering.
            Some(Some(b)) if b == b"2" => {
                let read = parse_state(id, &reply[1..], false)?;
                self.remember_read(id, read);
                self.fold_later(id, now, ttl);
                Ok(())
            }
            // Full (folds behind): fold with this change now.
            _ => {
                let base = parse_state(id, &reply[1..], false)?;
                self.cas_from(id, entry.update, now, ttl, note, base).await.map(|_| ())
            }
        }
    }

    /// Reads a session and claims the loop guard for `guard_key` in the
    /// same round trip (an LLM turn whose claim `speculate::without_state`
    /// found: two round trips with the decision's write). The claim is
    /// appended to the session's log; replicas racing on one cycle append
    /// in some order, and applying the log in that order gives exactly one
    /// of them `GuardClaimed`. Returns the state before the claim, and what
    /// the claim did with the state remembered after it for the write that
    /// follows (`None` when the log was full: no claim was taken, claim
    /// with `apply` as usual).
    async fn append_claim(&self, id: &str, guard_key: &str, cycle_id: &str, now: Now, ttl: Ttl) -> Result<ReadAppended, StoreError> {
        let claim = Update::ClaimGuard { guard_key: guard_key.to_string(), cycle_id: cycle_id.to_string() };
        self.read_appending(id, claim, None, String::new(), now, ttl).await
    }

    /// Logs a decision's change made without the session's state
    /// (`speculate::without_state`), reading the session in the same
    /// round trip: `entry` is an `Update::DecidedIf` (its facts widened by
    /// `DecidedUpdate::continuing`, with the other case as `otherwise` when
    /// there is one), applied when the log is applied; the state before it
    /// comes back, so the caller tells at once which case applied.
    /// `executed`: the decision id and cohort of an execution among the
    /// cases, remembered as `apply_noting` does (under its own decision id:
    /// if that case does not apply, nothing ever refers to it). Returns the
    /// session as read before the entry, and what the entry did (`None`:
    /// the log was full, nothing was appended: decide on the state read and
    /// write with `apply_noting`, which then needs no read).
    async fn append_with_read(
        &self,
        id: &str,
        mut entry: Update,
        executed: Option<(&str, &str)>,
        now: Now,
        ttl: Ttl,
    ) -> Result<ReadAppended, StoreError> {
        // A cycle's request goes in its own field, not in the log.
        let pending = match take_request(&mut entry) {
            Some((r, key)) => Some((to_json(&*r)?, key)),
            None => None,
        };
        let note = executed.map(|(d, c)| format!("{d}|{c}")).unwrap_or_default();
        self.read_appending(id, entry, pending, note, now, ttl).await
    }

    /// Reads a session and appends `update` to its log in one script
    /// (`READ_APPEND`). Returns the state before the update and what it did
    /// (`None` when the log was full and nothing was appended); remembers
    /// the state after it for the write that follows (also returned).
    async fn read_appending(
        &self,
        id: &str,
        update: Update,
        pending: Option<(Vec<u8>, String)>,
        executed: String,
        now: Now,
        ttl: Ttl,
    ) -> Result<ReadAppended, StoreError> {
        let entry = Logged::new(update, now, ttl);
        let json = to_json(&entry)?;
        let key = self.key(id);
        let (request, cycle) = pending.unwrap_or_default();
        let mut inv = READ_APPEND.prepare_invoke();
        inv.key(&key)
            .key(format!("{key}:log"))
            .key(format!("{key}:executed"))
            .arg(json)
            .arg(self.inner.idle_ms)
            .arg(LOG_MAX)
            .arg(request)
            .arg(cycle)
            .arg(executed);
        let mut reply = bulk_list(self.script("read_append", inv).await?);
        let appended = matches!(reply.first(), Some(Some(b)) if b == b"1");
        if !appended {
            let read = parse_state(id, &reply[1..], false)?;
            return Ok((self.remember_read(id, read), None));
        }
        // The update is the log's last entry: the state before it is the rest.
        reply.pop();
        let before = parse_state(id, &reply[1..], false)?;
        let (version, logged) = before.as_ref().map_or((String::new(), 0), |b| (b.version.clone(), b.logged));
        let mut after = before.as_ref().map(|b| b.state.clone()).unwrap_or_default();
        let applied = after.apply(entry.update, now, ttl);
        let after = Arc::new(after);
        self.seen().put(id.into(), (version.into(), logged + 1, after.clone()));
        Ok((before.map(|b| Arc::new(b.state)), Some((applied, after))))
    }

    /// Keeps a session as read for the write that follows; returns it.
    /// The loop-guard claim `read_claiming` logged was not used: the
    /// ladder, on the state it read, decided without the LLM. The next
    /// compare-and-set then writes over `before`, the state before the
    /// claim, which drops the claim with the log it folds, as if it had
    /// never been taken (unless another call logged after it: it then
    /// stays, a claim no LLM call followed, which only guards). `after` is
    /// the state `read_claiming` remembered: when another call on this
    /// replica has read or written the session since, its state stands.
    fn drop_claim(&self, id: &str, before: Option<Arc<ContinuityState>>, after: &Arc<ContinuityState>) {
        let mut seen = self.seen();
        if let Some(entry) = seen.get_mut(id).filter(|e| Arc::ptr_eq(&e.2, after)) {
            entry.2 = before.unwrap_or_default();
        }
    }

    /// Folds the session's log into its state with a compare-and-set from
    /// the state this replica remembers, in the background: the call that
    /// found the log long has answered without waiting (one round trip);
    /// at most one such write per session at a time, each bounded like
    /// any store call.
    pub fn fold_later(&self, id: &str, now: Now, ttl: Ttl) {
        if !self.inner.folding.lock().unwrap_or_else(|p| p.into_inner()).insert(id.into()) {
            return;
        }
        let store = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            if let Err(e) = store.cas(&id, Update::Fold, now, ttl, String::new()).await {
                tracing::debug!(error = %e, "session log not folded");
            }
            store.inner.folding.lock().unwrap_or_else(|p| p.into_inner()).remove(id.as_str());
        });
    }

    /// `fold_later` when the log this replica last read of the session
    /// has `LOG_FOLD` entries or more.
    fn fold_long_log(&self, id: &str, now: Now, ttl: Ttl) {
        let long = self.seen().peek(id).is_some_and(|e| e.1 >= LOG_FOLD);
        if long {
            self.fold_later(id, now, ttl);
        }
    }

    fn remember_read(&self, id: &str, read: Option<Read>) -> Option<Arc<ContinuityState>> {
        match read {
            Some(r) => {
                let state = Arc::new(r.state);
                self.seen().put(id.into(), (r.version.into(), r.logged, state.clone()));
                Some(state)
            }
            None => {
                self.seen().pop(id);
                None
            }
        }
    }

    fn pool_keys(&self, session: &str) -> [String; 4] {
        let k = self.key(session);
        [format!("{k}:pools"), format!("{k}:poolc"), format!("{k}:poolz"), format!("{k}:poolv")]
    }

    /// `SessionStore::apply`, also remembering an executed decision's
    /// cohort with the session (in the same script), so an outcome recorded
    /// on another replica can be attributed. The last 16 per session are
    /// kept, expiring with the session.
    async fn cas_noting(
        &self,
        id: &str,
        update: Update,
        now: Now,
        ttl: Ttl,
        executed: Option<(&str, &str)>,
    ) -> Result<Applied, StoreError> {
        self.cas(id, update, now, ttl, executed.map(|(d, c)| format!("{d}|{c}")).unwrap_or_default()).await
    }

    /// The cohort of an executed decision remembered for the session.
    async fn cohort_of(&self, session: &str, decision_id: &str) -> Result<Option<String>, StoreError> {
        let mut inv = EXECUTED_LIST.prepare_invoke();
        inv.key(format!("{}:executed", self.key(session)));
        let items = bulk_list(self.script("executed_cohort", inv).await?);
        Ok(items.into_iter().flatten().find_map(|b| {
            let s = String::from_utf8_lossy(&b).into_owned();
            let (id, cohort) = s.split_once('|')?;
            (id == decision_id).then(|| cohort.to_string())
        }))
    }

    /// Reads (and, with `action`, sets or resets) the shared rollout trip.
    /// Returns the trip's JSON if one is set, and the reset epoch.
    async fn rollout_call(&self, action: RolloutAction<'_>) -> Result<(Option<String>, i64), StoreError> {
        let mut inv = ROLLOUT.prepare_invoke();
        inv.key(self.rollout_key("trip")).key(self.rollout_key("epoch")).key(self.rollout_key("windows")).key(self.rollout_key("seen"));
        match action {
            RolloutAction::Read => inv.arg("read"),
            RolloutAction::Trip(json) => inv.arg("trip").arg(json),
            RolloutAction::Reset => inv.arg("reset"),
        };
        let v = self.script("rollout", inv).await?;
        let Value::Array(items) = v else { return Err(StoreError::new(FailureKind::ScriptError, "rollout: unexpected reply")) };
        let trip = match items.first() {
            Some(Value::BulkString(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        };
        let epoch = match items.get(1) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        };
        Ok((trip, epoch))
    }

    /// The key `<prefix>{rollout}:<name>`: every rollout key shares one hash
    /// tag, so each script touches one Cluster slot.
    fn rollout_key(&self, name: &str) -> String {
        format!("{}{{rollout}}:{name}", self.inner.prefix)
    }

    /// Publishes this replica's guardrail windows (`json`) and answers the
    /// other replicas' (those heard from within `keep_ms`); `None` when an
    /// operator reset the rollout since `epoch` (nothing was published).
    async fn publish_windows(
        &self,
        replica: &str,
        json: &str,
        epoch: i64,
        now_ms: i64,
        keep_ms: u64,
    ) -> Result<Option<Vec<String>>, StoreError> {
        let mut inv = WINDOWS.prepare_invoke();
        inv.key(self.rollout_key("epoch"))
            .key(self.rollout_key("windows"))
            .key(self.rollout_key("seen"))
            .arg(replica)
            .arg(json)
            .arg(epoch)
            .arg(now_ms)
            .arg(keep_ms.max(1));
        // Off every request's path, once per evaluation, and bigger than a
        // session: a second, whatever `timeout_ms`.
        match self.run_within("share_windows", inv, self.inner.timeout.max(Duration::from_secs(1))).await? {
            Value::Nil | Value::Boolean(false) => Ok(None),
            v => Ok(Some(bulk_list(v).into_iter().flatten().map(|b| String::from_utf8_lossy(&b).into_owned()).collect())),
        }
    }
}

fn encode_state(state: &ContinuityState) -> Result<Vec<u8>, StoreError> {
    // The request lives in its own field (`rq`), written once per cycle.
    let mut s = state.clone();
    if let Some(c) = s.cycle.as_mut() {
        c.request = None;
    }
    to_json(&s)
}

/// Takes the request of the cycle a logged change opens out of it (with
/// that cycle's guard key), out of every case it has: the cases of one
/// turn are about one request, kept once, outside the log.
fn take_request(entry: &mut Update) -> Option<(Arc<DecideRequest>, String)> {
    let (update, otherwise) = match entry {
        Update::Decided(d) => (d, None),
        Update::DecidedIf { update, otherwise, .. } => (update, otherwise.as_deref_mut()),
        _ => return None,
    };
    let here = match &mut update.cycle {
        CycleChange::Open(c) => c.request.take().map(|r| (r, c.guard_key.clone())),
        _ => None,
    };
    let further = otherwise.and_then(take_request);
    here.or(further)
}

/// `[v, st, rq, rc, pq, pk, log...]` as read (the requests only when asked
/// for): the state with the logged changes applied in order, with the open
/// cycle's request (written with the cycle, `rq`, or logged with it, `pq`);
/// `None` when there is neither state nor log.
fn parse_state(id: &str, fields: &[Option<Vec<u8>>], with_request: bool) -> Result<Option<Read>, StoreError> {
    let log = fields.get(6..).unwrap_or_default();
    let (version, mut state) = match (fields.first(), fields.get(1)) {
        (Some(Some(v)), Some(Some(st))) => {
            (String::from_utf8_lossy(v).into_owned(), serde_json::from_slice(st).map_err(|e| corrupt(id, "st", e))?)
        }
        _ if log.is_empty() => return Ok(None),
        _ => (String::new(), ContinuityState::default()),
    };
    for entry in log.iter().flatten() {
        let e: Logged = serde_json::from_slice(entry).map_err(|e| corrupt(id, "log", e))?;
        state.apply(e.update, Now { mono_ms: e.mono_ms, wall_ms: e.wall_ms }, e.ttl);
    }
    if with_request && let Some(c) = state.cycle.as_mut() {
        // `rq` belongs to a cycle by its id, `pq` by its evidence.
        let owns = |owner: usize, mine: &str| matches!(fields.get(owner), Some(Some(o)) if !mine.is_empty() && o == mine.as_bytes());
        let found = [(2, owns(3, &c.id), "rq"), (4, owns(5, &c.guard_key), "pq")].into_iter().find(|f| f.1);
        if let Some((rq, _, name)) = found
            && let Some(Some(rq)) = fields.get(rq)
        {
            let req: DecideRequest = serde_json::from_slice(rq).map_err(|e| corrupt(id, name, e))?;
            c.request = Some(Arc::new(req));
        }
    }
    Ok(Some(Read { version, logged: log.len(), state }))
}

fn corrupt(id: &str, field: &str, e: serde_json::Error) -> StoreError {
    // A value another version of ladderd wrote, or someone else's key.
    crate::warn_every!("unreadable session in the store", session = %id, field, error = %e, "unreadable session in the store");
    StoreError::new(FailureKind::Unreadable, format!("session {id:?}: unreadable {field}: {e}"))
}

/// A script's array reply as optional byte strings (integers as digits).
fn bulk_list(v: Value) -> Vec<Option<Vec<u8>>> {
    let one = |v: Value| match v {
        Value::BulkString(b) => Some(b),
        Value::SimpleString(s) => Some(s.into_bytes()),
        Value::Int(n) => Some(n.to_string().into_bytes()),
        Value::Okay => Some(b"OK".to_vec()),
        _ => None,
    };
    match v {
        Value::Array(items) => items.into_iter().map(one).collect(),
        other => vec![one(other)],
    }
}

/// The background check of `RedisStore::probe`, for as long as the store
/// lives: four times per cool-down, and at the moment the open breaker's
/// cool-down ends (its probe goes out then, once per cool-down).
async fn probe_loop(inner: std::sync::Weak<Inner>, cooldown: Duration) {
    let tick = (cooldown / 4).max(Duration::from_millis(25));
    let mut last_ping = Instant::now();
    let mut wait = tick;
    loop {
        tokio::time::sleep(wait).await;
        let Some(inner) = inner.upgrade() else { return };
        let store = RedisStore { inner };
        store.probe(&mut last_ping).await;
        wait = store.inner.breaker.next_probe_in().map_or(tick, |due| due.clamp(Duration::from_millis(1), tick));
    }
}

impl SessionStore for RedisStore {
    fn get<'a>(&'a self, id: &'a str, _now: Now) -> BoxFuture<'a, Result<Option<Arc<ContinuityState>>, StoreError>> {
        Box::pin(async move {
            let read = self.read(id, false).await?;
            Ok(self.remember_read(id, read))
        })
    }

    fn apply<'a>(&'a self, id: &'a str, update: Update, now: Now, ttl: Ttl) -> BoxFuture<'a, Result<Applied, StoreError>> {
        Box::pin(self.cas(id, update, now, ttl, String::new()))
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            self.seen().pop(id);
            let mut inv = REMOVE.prepare_invoke();
            let key = self.key(id);
            inv.key(&key).key(format!("{key}:executed")).key(format!("{key}:log"));
            Ok(matches!(self.script("remove", inv).await?, Value::Int(n) if n > 0))
        })
    }

    /// Sessions live in the shared store; this replica holds none.
    fn len(&self) -> usize {
        0
    }

    fn evictions(&self) -> u64 {
        0
    }

    /// Open cycles' requests live in the shared store, not in this process.
    fn cycle_held(&self) -> Held {
        Held::default()
    }

    fn failures(&self) -> u64 {
        self.inner.health.failures()
    }

    fn failing(&self) -> bool {
        self.inner.health.failing()
    }

    fn spawn_background(&self, _clock: super::Clock, _every: Duration) -> Option<super::PurgeGuard> {
        None
    }

    fn remote(&self) -> bool {
        true
    }

    fn apply_noting<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now: Now,
        ttl: Ttl,
        executed: Executed<'a>,
    ) -> BoxFuture<'a, Result<Applied, StoreError>> {
        Box::pin(self.cas_noting(id, update, now, ttl, executed))
    }

    fn log_decided<'a>(
        &'a self,
        id: &'a str,
        update: DecidedUpdate,
        now: Now,
        ttl: Ttl,
        executed: Executed<'a>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.append_decided(id, update, now, ttl, executed))
    }

    fn log_with_read<'a>(
        &'a self,
        id: &'a str,
        entry: Update,
        executed: Executed<'a>,
        now: Now,
        ttl: Ttl,
    ) -> BoxFuture<'a, Result<ReadAppended, StoreError>> {
        Box::pin(self.append_with_read(id, entry, executed, now, ttl))
    }

    fn read_claiming<'a>(
        &'a self,
        id: &'a str,
        guard_key: &'a str,
        cycle_id: &'a str,
        now: Now,
        ttl: Ttl,
    ) -> BoxFuture<'a, Result<ReadAppended, StoreError>> {
        Box::pin(self.append_claim(id, guard_key, cycle_id, now, ttl))
    }

    fn unclaim(&self, id: &str, before: Option<Arc<ContinuityState>>, after: &Arc<ContinuityState>) {
        self.drop_claim(id, before, after);
    }

    fn fold_if_long(&self, id: &str, now: Now, ttl: Ttl) {
        self.fold_long_log(id, now, ttl);
    }

    fn executed_cohort<'a>(&'a self, session: &'a str, decision_id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(self.cohort_of(session, decision_id))
    }

    fn rollout<'a>(&'a self, action: RolloutAction<'a>) -> BoxFuture<'a, Result<(Option<String>, i64), StoreError>> {
        Box::pin(self.rollout_call(action))
    }

    fn share_windows<'a>(
        &'a self,
        replica: &'a str,
        json: &'a str,
        epoch: i64,
        now_ms: i64,
        keep_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Vec<String>>, StoreError>> {
        Box::pin(self.publish_windows(replica, json, epoch, now_ms, keep_ms))
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSet {
    version: String,
    scope: Scope,
    candidates: Arc<Vec<Candidate>>,
}

impl PoolStore for RedisStore {
    fn get<'a>(&'a self, session: &'a str, set: &'a str, version: &'a str) -> BoxFuture<'a, Result<Option<HeldSet>, StoreError>> {
        Box::pin(async move {
            let keys = self.pool_keys(session);
            let mut inv = POOL_GET.prepare_invoke();
            inv.key(&keys[0]).key(&keys[1]).key(&keys[2]).key(&keys[3]).arg(set).arg(wall_ms()).arg(self.inner.idle_ms);
            let Value::BulkString(blob) = self.script("pool_get", inv).await? else { return Ok(None) };
            let held: StoredSet = serde_json::from_slice(&blob).map_err(|e| corrupt(session, "pools", e))?;
            Ok((held.version == version).then_some((held.scope, held.candidates)))
        })
    }

    fn put<'a>(
        &'a self,
        session: &'a str,
        set: &'a str,
        version: &'a str,
        scope: Scope,
        candidates: Arc<Vec<Candidate>>,
    ) -> BoxFuture<'a, Result<Holding, StoreError>> {
        Box::pin(async move {
            let n = candidates.len();
            // Compared in the script, so that of replicas racing to hold
            // one version with different contents exactly one wins.
            let digest = content_digest(scope, &candidates);
            // Too large to hold, the set is still compared with the version
            // held (a version names one content whatever its size); its
            // JSON is not sent.
            let blob = if n > self.inner.pool_max_candidates {
                Vec::new()
            } else {
                to_json(&StoredSet { version: version.to_string(), scope, candidates })?
            };
            let keys = self.pool_keys(session);
            let mut inv = POOL_PUT.prepare_invoke();
            inv.key(&keys[0])
                .key(&keys[1])
                .key(&keys[2])
                .key(&keys[3])
                .arg(set)
                .arg(blob)
                .arg(n)
                .arg(wall_ms())
                .arg(self.inner.idle_ms)
                .arg(self.inner.pool_max_candidates)
                .arg(version)
                .arg(digest);
            Ok(match self.script("pool_put", inv).await? {
                Value::Int(-1) => Holding::OtherContent,
                Value::Int(-2) => Holding::TooLarge,
                _ => Holding::Held,
            })
        })
    }

    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<usize, StoreError>> {
        Box::pin(async move {
            let keys = self.pool_keys(session);
            let mut inv = POOL_REMOVE.prepare_invoke();
            inv.key(&keys[0]).key(&keys[1]).key(&keys[2]).key(&keys[3]);
            match self.script("pool_remove", inv).await? {
                Value::Int(n) => Ok(n.max(0) as usize),
                _ => Ok(0),
            }
        })
    }

    /// Held in the shared store, not in this process.
    fn held(&self) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

    #[tokio::test]
    async fn a_store_that_is_down_answers_unavailable_within_its_timeout_then_is_skipped() {
        // Port 1 refuses connections; the manager would retry connecting
        // for seconds, but every call is cut at 50 ms.
        let cfg = RedisConfig { url: Some(Secret("redis://127.0.0.1:1/".into())), timeout_ms: 50, ..Default::default() };
        let s = RedisStore::new(&cfg, Duration::from_secs(60), 100).unwrap();
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let e = SessionStore::get(&s, "x", Now::default()).await.unwrap_err();
            assert!(matches!(e.kind(), FailureKind::Connection | FailureKind::Timeout), "{e}");
            // One call of 50 ms; 1 s is far above that on a loaded machine
            // and far below the manager's own retries.
            assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
        }
        assert!(s.health().failing());
        assert_eq!(s.health().failures(), 3);
        // Three calls without an answer open the breaker: the next ones do
        // not go out at all.
        assert!(s.breaker_open());
        for _ in 0..100 {
            let e = s.apply("x", Update::Reset, Now::default(), Ttl::default()).await.unwrap_err();
            assert_eq!(e.kind(), FailureKind::CircuitOpen);
        }
        assert_eq!(s.health().failures(), 3, "skipped calls are not store calls");
    }

    #[test]
    fn a_logged_turn_keeps_its_request_out_of_the_log_in_every_case() {
        use ladder::continuity::{Cycle, Fact};
        let request = Arc::new(DecideRequest { input: "links panel".into(), ..Default::default() });
        let opens = |id: &str| DecidedUpdate {
            cycle: CycleChange::Open(Box::new(Cycle { request: Some(request.clone()), ..Cycle::new(id, "k") })),
            ..Default::default()
        };
        let inner = Update::DecidedIf { facts: vec![Fact::NoCycle("k".into())], update: opens("c1"), otherwise: None };
        let mut entry = Update::DecidedIf { facts: vec![], update: opens("c2"), otherwise: Some(Box::new(inner)) };
        let (taken, key) = take_request(&mut entry).expect("a request");
        assert_eq!((taken.input.as_str(), key.as_str()), ("links panel", "k"));
        let json = String::from_utf8(serde_json::to_vec(&entry).unwrap()).unwrap();
        assert!(!json.contains("links panel"), "{json}");
        assert!(take_request(&mut entry).is_none());
    }

    #[test]
    fn a_password_file_is_read_and_a_missing_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let pw = dir.path().join("pw");
        std::fs::write(&pw, "s3cret\n").unwrap();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let _g = rt.enter();
        let ok = RedisConfig { url: Some(Secret("redis://cache:6379".into())), password_file: Some(pw), ..Default::default() };
        assert!(RedisStore::new(&ok, Duration::from_secs(1), 1).is_ok());
        let missing = RedisConfig { password_file: Some(dir.path().join("none")), ..ok };
        let err = RedisStore::new(&missing, Duration::from_secs(1), 1).err().unwrap();
        assert!(err.starts_with("sessions.redis.password_file:"), "{err}");
    }
}
