//! Startup: `App::build` binds the listeners (port 0 works, for tests) and
//! assembles the servers; `App::run_until` serves until a shutdown signal,
//! then drains.
//!
//! Two listeners: `listen`, the data port (the `ladder.v1.Arbiter` service,
//! reflection and health; loopback by default), and `admin.listen`, the
//! admin port (health and `/metrics` only, `grpc::admin`; off by default).

use crate::config::Config;
use crate::daemon::{Daemon, StartError};
use crate::files::FileError;
use crate::grpc::Arbiter;
use crate::grpc::listener::Connections;
use crate::grpc::stack::StackStats;
use crate::pb;
use crate::telemetry::{SharedReader, Telemetry};
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::net::TcpListener;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

pub struct App {
    listener: TcpListener,
    daemon: Arc<Daemon>,
    health: HealthReporter,
    health_service: tonic_health::pb::health_server::HealthServer<tonic_health::server::HealthService>,
    /// The admin listener (`admin.listen`) and the Prometheus reader it
    /// renders (none when built without telemetry).
    admin: Option<(TcpListener, Option<SharedReader>)>,
    /// Observable instruments live as long as the app.
    _gauges: Vec<Box<dyn std::any::Any + Send>>,
    /// The configuration file to reload when it changes.
    watch: Option<PathBuf>,
    /// What the tower stack counts (shed requests, deadlines passed).
    stack: Arc<StackStats>,
    /// The client connections held (`server.max_connections`).
    connections: Arc<Connections>,
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("reflection: {0}")]
    Reflection(String),
    #[error("server: {0}")]
    Serve(String),
}

impl App {
    /// The app without exporters (tests); see `build_with`.
    pub async fn build(config: Config) -> Result<App, AppError> {
        Self::build_with(config, None).await
    }

    /// Binds the gRPC listener (and the admin listener when configured).
    pub async fn build_with(config: Config, telemetry: Option<&Telemetry>) -> Result<App, AppError> {
        let addr = config.listen_addr();
        let admin_addr = config.admin_listen_addr();
        if config.admin.listen.is_none() && admin_addr.is_some() {
            tracing::warn!(
                "telemetry.metrics_listen is deprecated: read as admin.listen, which serves health as well as /metrics; rename the key"
            );
        }
        let daemon = Arc::new(Daemon::new(config)?);
        let listener = TcpListener::bind(addr).await.map_err(|source| AppError::Bind { addr, source })?;
        let admin = match admin_addr {
            Some(a) => Some((
                TcpListener::bind(a).await.map_err(|source| AppError::Bind { addr: a, source })?,
                telemetry.map(|t| t.prometheus.clone()),
            )),
            None => None,
        };
        let bound = listener.local_addr().unwrap_or(addr);
        crate::grpc::guard::warn_exposure(bound, daemon.current().admin_token.is_some());
        daemon.listen_exposed(!crate::grpc::guard::on_loopback(bound.ip()));
        let health = HealthReporter::new();
        let health_service =
            tonic_health::pb::health_server::HealthServer::new(tonic_health::server::HealthService::from_health_reporter(health.clone()));
        let stack = Arc::new(StackStats::default());
        let connections = Connections::new(daemon.current().config.server.max_connections);
        let _gauges = gauges(&daemon, &stack, telemetry);
        Ok(App { listener, daemon, health, health_service, admin, _gauges, watch: None, stack, connections })
    }

    /// Reloads `path` when its content changes (checked every
    /// `config_reload.poll_ms`; reading follows symlinks, so a Kubernetes
    /// ConfigMap's `..data` swap is seen) and on SIGHUP.
    pub fn watch_config(&mut self, path: PathBuf) {
        self.watch = Some(path);
    }

    /// The admin listener's address (health and `/metrics`), when one is
    /// served.
    pub fn admin_addr(&self) -> Option<SocketAddr> {
        self.admin.as_ref().and_then(|(l, _)| l.local_addr().ok())
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn daemon(&self) -> Arc<Daemon> {
        self.daemon.clone()
    }

    /// Serves until `shutdown` completes; then reports NOT_SERVING, stops
    /// accepting, and lets in-flight calls finish within
    /// `server.drain_grace_ms`.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), AppError> {
        let App { listener, daemon, health, health_service, admin, _gauges, watch, stack: stats, connections } = self;
        let mut background = tokio::task::JoinSet::new();
        if let Some(path) = watch {
            // What the file holds now, read before the port is said to
            // serve: a change made once it serves is one the watcher sees.
            let last = read_config(&path).await.ok().map(|b| digest(&b));
            background.spawn(watch_config(daemon.clone(), path, last));
        }
        background.spawn(evaluate_guardrails(daemon.clone()));
        let generation = daemon.current();
        let cfg = &generation.config;
        let grace = Duration::from_millis(cfg.server.drain_grace_ms);
        let reflection = |v1: bool| {
            tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
                .with_service_name("ladder.v1.Arbiter")
                .with_service_name("grpc.health.v1.Health")
                .with_service_name(if v1 { "grpc.reflection.v1.ServerReflection" } else { "grpc.reflection.v1alpha.ServerReflection" })
        };
        let reflection_v1 = reflection(true).build_v1().map_err(|e| AppError::Reflection(e.to_string()))?;
        let reflection_v1alpha = reflection(false).build_v1alpha().map_err(|e| AppError::Reflection(e.to_string()))?;
        let arbiter = pb::arbiter_server::ArbiterServer::new(Arbiter::new(daemon.clone()))
            .max_decoding_message_size(cfg.server.max_message_bytes)
            .max_encoding_message_size(cfg.server.max_message_bytes.max(4 * 1024 * 1024));

        // Idle sessions of shards nobody touches are purged in the background.
        let _purger = daemon.spawn_background();

        health.set_serving::<pb::arbiter_server::ArbiterServer<Arbiter>>().await;
        health.set_service_status("", ServingStatus::Serving).await;
        // After the statuses are set: a probe never sees the reporter's defaults.
        let (admin_stop, admin_server) = match admin {
            Some((l, metrics)) => {
                let addr = l.local_addr().map_err(|e| AppError::Serve(e.to_string()))?;
                let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
                let server = crate::grpc::admin::serve(l, health_service.clone(), metrics, async {
                    let _ = stop_rx.await;
                });
                let task = tokio::spawn(async move {
                    if let Err(e) = server.await {
                        tracing::error!(error = %e, "admin listener failed");
                    }
                });
                tracing::info!(addr = %addr, "serving admin (health, /metrics)");
                (Some(stop_tx), Some(task))
            }
            None => (None, None),
        };
        tracing::info!(addr = %listener.local_addr().map_err(|e| AppError::Serve(e.to_string()))?, revision = %cfg.revision(), "serving");

        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let routes =
            tonic::service::Routes::new(health_service).add_service(reflection_v1).add_service(reflection_v1alpha).add_service(arbiter);
        let server = crate::grpc::serve(listener, connections, &cfg.server, stats, daemon.clone(), routes, async {
            let _ = stop_rx.await;
        });
        tokio::pin!(server);
        tokio::select! {
            r = &mut server => return r.map_err(|e| AppError::Serve(e.to_string())),
            _ = shutdown => {}
        }
        // Health first, so probes and clients stop sending; then stop
        // accepting and let in-flight calls finish within the grace period.
        health.set_not_serving::<pb::arbiter_server::ArbiterServer<Arbiter>>().await;
        health.set_service_status("", ServingStatus::NotServing).await;
        tracing::info!("shutting down: health NOT_SERVING, no new connections, draining the calls in flight");
        let _ = stop_tx.send(());
        let draining = std::time::Instant::now();
        let result = match tokio::time::timeout(grace, server).await {
            Ok(r) => {
                // What happened, not what was allowed: most drains take
                // milliseconds of the grace period.
                tracing::info!(drained_ms = draining.elapsed().as_millis() as u64, "drained: every call in flight answered");
                r.map_err(|e| AppError::Serve(e.to_string()))
            }
            Err(_) => {
                tracing::warn!(
                    grace_ms = grace.as_millis() as u64,
                    "drain grace period over (server.drain_grace_ms); abandoning the calls still in flight"
                );
                Ok(())
            }
        };
        // The admin listener answered NOT_SERVING through the drain; it
        // stops last (a health Watch never ends: not waited for long).
        if let (Some(stop), Some(mut task)) = (admin_stop, admin_server) {
            let _ = stop.send(());
            if tokio::time::timeout(Duration::from_millis(250), &mut task).await.is_err() {
                task.abort();
            }
        }
        background.abort_all();
        let records = daemon.clone();
        let _ = tokio::task::spawn_blocking(move || records.close_records(Duration::from_secs(1))).await;
        result
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// The config watcher: a changed file is loaded and validated like at
/// start; a valid one applies to the next request, an invalid one is
/// refused (logged, counted, reported by GetRollout) and the running
/// configuration stays. So does a file that is missing or unreadable (said
/// once when it happens, and again on each SIGHUP while it lasts; once it
/// is back it is read like a changed file, whatever it holds), and an
/// empty one (a file truncated to be written again: replace the file
/// atomically instead, write then rename). A file read in the middle of
/// being written is applied only once two reads a moment apart agree. The
/// file is read as at start (`files::CONFIG`: a regular file of at most
/// 1 MiB, within 5 s; a FIFO or a device put in its place is unreadable,
/// a read that stalls timed out) off the watcher's task, and the
/// configuration it holds is built off it too, within `RELOAD_DEADLINE`:
/// one that takes longer is counted as timed out and the watcher goes on
/// (`reload_file`). `last`: the digest of the file as it was when the
/// daemon began to serve.
async fn watch_config(daemon: Arc<Daemon>, path: PathBuf, mut last: Option<[u8; 32]>) {
    use crate::daemon::ReloadFault;
    let poll = Duration::from_millis(daemon.current().config.config_reload.poll_ms);
    #[cfg(unix)]
    let mut hup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
    // The fault being reported now (said once; SIGHUP says it again).
    let mut fault: Option<String> = None;
    loop {
        #[cfg(unix)]
        let mut forced = tokio::select! {
            _ = tokio::time::sleep(poll), if !poll.is_zero() => false,
            Some(_) = async { match hup.as_mut() { Some(h) => h.recv().await, None => std::future::pending().await } } => true,
        };
        #[cfg(not(unix))]
        let mut forced = {
            tokio::time::sleep(if poll.is_zero() { Duration::from_secs(3600) } else { poll }).await;
            false
        };
        let bytes = match read_settled(&path).await {
            Ok(b) => b,
            Err(e) => {
                let kind = match e {
                    _ if e.is_missing() => ReloadFault::Missing,
                    FileError::TimedOut(_) | FileError::Stalled(_) => ReloadFault::TimedOut,
                    _ => ReloadFault::Unreadable,
                };
                let why = format!("config: {}: {e}", path.display());
                if forced || fault.as_deref() != Some(why.as_str()) {
                    daemon.reload_failed(kind, &why);
                    fault = Some(why);
                }
                continue;
            }
        };
        if fault.take().is_some() {
            tracing::info!(path = %path.display(), "configuration file readable again");
            // Read like a changed file even if it is the one that went: the
            // fault shown by GetRollout gives way to what the file is now.
            forced = true;
        }
        let d = digest(&bytes);
        if !forced && last == Some(d) {
            continue;
        }
        last = Some(d);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            daemon.reload_refused(&format!(
                "config: {}: the file is empty (truncated to be written again?); keeping the running configuration: replace the file atomically (write a new file, then rename it over this one)",
                path.display()
            ));
            continue;
        }
        reload_file(&daemon, &path, bytes, RELOAD_DEADLINE).await;
    }
}

/// How long loading and building a changed configuration may take: its
/// model file alone may take 10 s (`files::MODEL`).
pub const RELOAD_DEADLINE: Duration = Duration::from_secs(30);

/// Loads the configuration in `bytes` (the file at `path`, as the watcher
/// read it) and builds its generation on a blocking thread, then applies
/// it; refused, it is logged, counted and shown by `GetRollout`. Not built
/// within `deadline` (a file it names that does not answer), the same as
/// `timed_out`, and the watcher goes on: what the build makes later is
/// dropped, never applied.
async fn reload_file(daemon: &Arc<Daemon>, path: &std::path::Path, bytes: Vec<u8>, deadline: Duration) {
    let (d, p) = (daemon.clone(), path.to_path_buf());
    reload_within(daemon, path, deadline, move || {
        let text = String::from_utf8(bytes).map_err(|_| format!("config: {}: {}", p.display(), FileError::NotText))?;
        let config = crate::config::parse(&p, &text).map_err(|e| e.to_string())?;
        d.prepare(config).map_err(|e| e.to_string())
    })
    .await
}

/// Runs `build` (a configuration's generation made and checked: it
/// blocks) on a blocking thread, and applies what it makes within
/// `deadline`; what it makes later is dropped.
async fn reload_within(
    daemon: &Arc<Daemon>,
    path: &std::path::Path,
    deadline: Duration,
    build: impl FnOnce() -> Result<crate::daemon::Prepared, String> + Send + 'static,
) {
    let build = tokio::task::spawn_blocking(build);
    match tokio::time::timeout(deadline, build).await {
        Ok(Ok(Ok(prepared))) => {
            daemon.apply(prepared);
        }
        Ok(Ok(Err(why))) => daemon.reload_refused(why.trim_end()),
        Ok(Err(e)) => daemon.reload_refused(&format!("config: {}: building it failed: {e}", path.display())),
        Err(_) => daemon.reload_failed(
            crate::daemon::ReloadFault::TimedOut,
            &format!(
                "config: {}: not loaded within {} s (a file it names does not answer?); keeping the running configuration",
                path.display(),
                deadline.as_secs_f64()
            ),
        ),
    }
}

/// The file's content once it stays the same for a moment (read twice,
/// 50 ms apart; again while it changes, for up to a second): a file being
/// written in place is not read half-way. During a ConfigMap swap the path
/// can be missing for an instant: one more read after the pause decides.
/// A read that timed out (or was not tried: `files::MAX_STALLED`) is not
/// tried again: the next poll will.
async fn read_settled(path: &std::path::Path) -> Result<Vec<u8>, FileError> {
    let pause = Duration::from_millis(50);
    let mut first = read_config(path).await;
    for _ in 0..20 {
        if matches!(first, Err(FileError::TimedOut(_) | FileError::Stalled(_))) {
            return first;
        }
        tokio::time::sleep(pause).await;
        let again = read_config(path).await;
        match (&first, &again) {
            (Ok(a), Ok(b)) if a == b => return again,
            (Err(_), Err(_)) => return again,
            _ => first = again,
        }
    }
    first
}

/// The configuration file's bytes, read as at start (`files::CONFIG`), on
/// a blocking thread: the watcher's task waits for it, never on the file.
async fn read_config(path: &std::path::Path) -> Result<Vec<u8>, FileError> {
    let p = path.to_path_buf();
    tokio::task::spawn_blocking(move || crate::files::read(&p, &crate::files::CONFIG))
        .await
        .unwrap_or_else(|e| Err(FileError::Io(std::io::Error::other(e.to_string()))))
}

/// Evaluates the rollout guardrails on a timer.
async fn evaluate_guardrails(daemon: Arc<Daemon>) {
    loop {
        let every = Duration::from_secs(daemon.current().config.guardrails.evaluate_every_seconds.max(1));
        tokio::time::sleep(every).await;
        if daemon.current().config.guardrails.enabled {
            // With a shared store, judged on every replica's windows.
            daemon.share_windows().await;
            daemon.check_guardrails();
        }
        // A trip, or a reset, on any replica reaches this one (shared store).
        daemon.sync_rollout().await;
    }
}

/// Gauges and counters read from the daemon's own counters at collection.
fn gauges(daemon: &Arc<Daemon>, stack: &Arc<StackStats>, telemetry: Option<&Telemetry>) -> Vec<Box<dyn std::any::Any + Send>> {
    let meter = opentelemetry::global::meter("ladderd");
    let mut out: Vec<Box<dyn std::any::Any + Send>> = Vec::new();
    let d = daemon.clone();
    out.push(Box::new(
        meter
            .u64_observable_gauge("ladder.sessions")
            .with_description("Sessions held")
            .with_callback(move |o| o.observe(d.store().len() as u64, &[]))
            .build(),
    ));
    let shed = stack.clone();
    out.push(Box::new(
        meter
            .u64_observable_counter("ladder.requests.shed")
            .with_description("Requests refused at the concurrency limit")
            .with_callback(move |o| o.observe(shed.shed.load(Ordering::Relaxed), &[]))
            .build(),
    ));
    let deadlines = stack.clone();
    out.push(Box::new(
        meter
            .u64_observable_counter("ladder.requests.deadline_exceeded")
            .with_description("Requests past their deadline")
            .with_callback(move |o| o.observe(deadlines.deadline_exceeded.load(Ordering::Relaxed), &[]))
            .build(),
    ));
    // Every call's series from the start at 0: a panic is rare, and an
    // alert on its rate needs the series before the first one.
    let stack = stack.clone();
    out.push(Box::new(
        meter
            .u64_observable_counter("ladder.panics")
            .with_description("Calls that panicked, answered INTERNAL, by call (grpc::stack, the service boundary)")
            .with_callback(move |o| {
                for (i, (_, call)) in crate::grpc::stack::CALLS.iter().enumerate() {
                    o.observe(stack.panics[i].load(Ordering::Relaxed), &[opentelemetry::KeyValue::new("call", *call)]);
                }
            })
            .build(),
    ));
    let d = daemon.clone();
    out.push(Box::new(
        meter
            .u64_observable_gauge("ladder.auto_execute.tripped")
            .with_description("1 while the guardrails keep auto-execute off")
            .with_callback(move |o| o.observe(u64::from(d.tripped()), &[]))
            .build(),
    ));
    let d = daemon.clone();
    out.push(Box::new(
        meter
            .u64_observable_counter("ladder.sessions.evicted")
            .with_description("Sessions evicted at sessions.max")
            .with_callback(move |o| o.observe(d.store().evictions(), &[]))
            .build(),
    ));
    let d = daemon.clone();
    out.push(Box::new(
        meter
            .u64_observable_counter("ladder.sessions.store_failures")
            .with_description("Session store calls that failed or timed out (sessions.backend = redis)")
            .with_callback(move |o| o.observe(d.store().failures(), &[]))
            .build(),
    ));
    let d = daemon.clone();
    out.push(Box::new(
        meter
            .u64_observable_gauge("ladder.sessions.store_failing")
            .with_description("1 while the session store's last call failed: continuity, loop-guard claims and Enrich degrade")
            .with_callback(move |o| o.observe(u64::from(d.store().failing()), &[]))
            .build(),
    ));
    if let Some(t) = telemetry {
        let spans = t.spans.clone();
        out.push(Box::new(
            meter
                .u64_observable_counter("ladder.telemetry.spans.dropped")
                .with_description("Spans dropped because the export queue was full")
                .with_callback(move |o| o.observe(spans.dropped.load(Ordering::Relaxed), &[]))
                .build(),
        ));
    }
    if let Some(stats) = daemon.record_stats() {
        out.push(Box::new(
            meter
                .u64_observable_counter("ladder.decision_records.dropped")
                .with_description("Decision records lost, by reason (queue_full, no_space, read_only, missing, io_error, closed)")
                .with_callback(move |o| {
                    for &r in crate::telemetry::records::DropReason::ALL {
                        o.observe(stats.dropped_for(r), &[opentelemetry::KeyValue::new("reason", r.as_str())]);
                    }
                })
                .build(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reload whose build never answers (every file it reads has a
    /// deadline of its own; this is the watcher's backstop for what they
    /// miss) is given up at its deadline, counted and shown, and the next
    /// reload applies; what the stuck build makes later is dropped.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_reload_past_its_deadline_is_given_up_and_the_next_one_applies() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ladderd.toml");
        std::fs::write(&file, "[clarifier]\nmax_options = 3\n").unwrap();
        let daemon = Arc::new(Daemon::new(Config::default()).unwrap());
        let revision = daemon.current().policy.revision.clone();
        let (release, stuck_until) = std::sync::mpsc::channel::<()>();
        let (finished, done) = std::sync::mpsc::channel::<()>();
        let built = daemon.prepare(crate::config::load(Some(&file)).unwrap()).map_err(|e| e.to_string());
        let stuck = reload_within(&daemon, &file, Duration::from_millis(200), move || {
            let _ = stuck_until.recv();
            let _ = finished.send(());
            built
        });
        tokio::time::timeout(Duration::from_secs(60), stuck).await.expect("given up at its deadline");
        let g = daemon.current();
        let r = daemon.rollout(&g);
        assert_eq!((r.config_reloads, r.config_reload_failures), (0, 1));
        assert!(r.last_reload_error.contains("not loaded within 0.2 s"), "{}", r.last_reload_error);
        assert_eq!(g.policy.revision, revision, "the running configuration stays");

        std::fs::write(&file, "[clarifier]\nmax_options = 4\n").unwrap();
        reload_file(&daemon, &file, std::fs::read(&file).unwrap(), Duration::from_secs(60)).await;
        let g = daemon.current();
        let r = daemon.rollout(&g);
        assert_eq!((r.config_reloads, r.config_reload_failures, r.last_reload_error.as_str()), (1, 1, ""));
        assert_eq!(g.config.clarifier.max_options, 4);
        // The given-up build ends; what it made (max_options 3) is never
        // applied.
        drop(release);
        tokio::task::spawn_blocking(move || done.recv_timeout(Duration::from_secs(60))).await.unwrap().expect("the build ended");
        assert_eq!(daemon.current().config.clarifier.max_options, 4);
    }
}
