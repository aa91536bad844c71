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
//!   compare-and-set (at most `LOG_MAX`; see Round trips in `sessions`);
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
//! One file per job:
//!
//! - `sessions`: a session's state, read, written with a compare-and-set
//!   or logged (Atomicity and Round trips are told there);
//! - `pools`: the option sets held for reuse (`PoolStore`);
//! - `executed`: the executed decisions remembered with a session, for
//!   feedback recorded on another replica;
//! - `rollout`: the rollout trip and the replicas' guardrail windows;
//! - `connection`: the connections, each call's budget, failures counted,
//!   the circuit breaker and its probe (Faults are told there);
//! - this file: the store itself, its keys, and `SessionStore` (which
//!   file answers each call).

mod connection;
mod executed;
mod pools;
mod rollout;
mod sessions;

pub use connection::StoreHealth;

use super::{CohortNote, FailureKind, Held, RolloutAction, SessionStore, StoreError};
use crate::breaker::Breaker;
use crate::config::RedisConfig;
use connection::{Conns, probe_loop};
use futures::future::BoxFuture;
use ladder::continuity::{Applied, ContinuityState, Now, Ttl, Update};
use lru::LruCache;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::cluster::{ClusterClientBuilder, ClusterConfig};
use redis::{IntoConnectionInfo, Value};
use sessions::REMOVE;
use std::num::NonZeroUsize;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Versions read recently, so the write that follows a read in the same
/// call (Decide: read, decide, write) needs no second read.
const SEEN: usize = 4096;

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
    health: Arc<StoreHealth>,
    /// Skips the store after consecutive calls got no answer.
    breaker: Breaker,
}

/// The Redis / Valkey store. Cheap to clone.
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
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
                health: Arc::new(StoreHealth::default()),
                breaker: Breaker::new("session store", cfg.breaker_failures, cooldown),
            }),
        };
        tokio::spawn(probe_loop(Arc::downgrade(&store.inner), cooldown));
        Ok(store)
    }

    fn key(&self, id: &str) -> String {
        format!("{}{{{id}}}", self.inner.prefix)
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.inner.seen.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn wall_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
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

impl SessionStore for RedisStore {
    fn get<'a>(&'a self, id: &'a str, _now: Now) -> BoxFuture<'a, Result<Option<Arc<ContinuityState>>, StoreError>> {
        Box::pin(async move {
            let read = self.read(id).await?;
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

    fn apply_noting<'a>(
        &'a self,
        id: &'a str,
        update: Update,
        now: Now,
        ttl: Ttl,
        executed: CohortNote<'a>,
    ) -> BoxFuture<'a, Result<Applied, StoreError>> {
        Box::pin(self.cas_noting(id, update, now, ttl, executed))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

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
