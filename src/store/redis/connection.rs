//! The connections to Redis / Valkey, and what every call goes through:
//! its budget, its failures counted, the circuit breaker and its probe.
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

use super::{Inner, RedisStore};
use crate::store::{FailureKind, StoreError};
use redis::aio::ConnectionManager;
use redis::cluster_async::ClusterConnection;
use redis::{RedisResult, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::time::Instant;

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

    pub(super) fn failed(&self, op: &'static str, e: &StoreError) {
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
pub(super) enum Conns {
    Standalone(Vec<ConnectionManager>),
    Cluster(ClusterConnection),
}

impl RedisStore {
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
    /// Runs one script within the call budget, counting failures.
    pub(super) async fn script(&self, op: &'static str, inv: redis::ScriptInvocation<'_>) -> Result<Value, StoreError> {
        self.run_within(op, inv, self.inner.timeout).await
    }

    /// Runs one script within `timeout`, counting failures. Skipped at
    /// once while the circuit breaker is open.
    pub(super) async fn run_within(
        &self,
        op: &'static str,
        inv: redis::ScriptInvocation<'_>,
        timeout: Duration,
    ) -> Result<Value, StoreError> {
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
}

/// The background check of `RedisStore::probe`, for as long as the store
/// lives: four times per cool-down, and at the moment the open breaker's
/// cool-down ends (its probe goes out then, once per cool-down).
pub(super) async fn probe_loop(inner: std::sync::Weak<Inner>, cooldown: Duration) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{RedisConfig, Secret};
    use crate::store::SessionStore;
    use ladder::continuity::{Now, Ttl, Update};

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
}
