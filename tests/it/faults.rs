//! Operational faults (docs/faults.md): the shared store killed,
//! hung, restarted, full or read-only; the decision log on a full disk;
//! the configuration file deleted or unreadable.

use crate::helpers::session_request as req;
use crate::helpers::*;
use crate::redis_server::RedisServer;
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::Outcome as O;
use std::time::{Duration, Instant};
use tonic::Code;

/// After the store restarts (empty) while the daemon is idle, its first
/// calls work: a session read, and a tie whose cycle is then enriched.
#[tokio::test]
async fn the_first_calls_after_a_store_restart_on_an_idle_daemon_succeed() {
    let mut redis = RedisServer::start();
    let mut c = on_redis(Config::default(), &redis);
    c.sessions.redis.timeout_ms = 200;
    let d = TestDaemon::start(c).await;
    let mut client = d.client.clone();
    // Every connection of the pool is in use before the restart.
    for i in 0..4 {
        client.decide(req(&format!("warm-{i}"), "links panel")).await.unwrap();
    }
    // Restarted (empty) while the daemon is idle; asked at once, before
    // anything in the background could notice.
    redis.restart();
    let t = Instant::now();
    let s = client.get_session(pb::GetSessionRequest { session_id: "warm-0".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::NotFound, "the store answers (empty): {}", s.message());
    let tie = client.decide(req("after", "links panel")).await.unwrap().into_inner();
    assert_eq!(tie.outcome(), O::Clarify);
    assert!(!tie.loop_cycle_id.is_empty());
    let again = client.get_session(pb::GetSessionRequest { session_id: "after".into() }).await.unwrap().into_inner();
    assert_eq!(again.loop_cycle_id, tie.loop_cycle_id);
    println!("first calls after the restart took {:?}", t.elapsed());
}

/// An idle replica finds its connections dead after a store restart and
/// replaces them in the background (a ping per connection once per
/// `sessions.redis.breaker_cooldown_ms`), before any call needs them.
#[tokio::test]
async fn an_idle_replica_reconnects_to_a_restarted_store_before_a_call_needs_it() {
    let mut redis = RedisServer::start();
    let mut c = on_redis(Config::default(), &redis);
    c.sessions.redis.pool_size = 2;
    c.sessions.redis.breaker_cooldown_ms = 300;
    c.guardrails.evaluate_every_seconds = 3_600;
    let d = TestDaemon::start(c).await;
    for i in 0..4 {
        d.client.clone().decide(req(&format!("warm-{i}"), "links panel")).await.unwrap();
    }
    redis.restart();
    // No call from here on: only the background check can reconnect.
    let clients = || async { redis.cmd::<String>(&["CLIENT", "LIST"]).await.lines().count() };
    let until = Instant::now() + Duration::from_secs(10);
    // Our own CLIENT LIST connection is one of them.
    while clients().await < 1 + 2 {
        assert!(Instant::now() < until, "the idle replica never reconnected");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(d);
}

/// A free loopback address for the daemon's admin (metrics) endpoint.
fn free_addr() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().to_string()
}

/// The Prometheus text of the daemon's admin endpoint.
async fn metrics(admin: &str) -> String {
    reqwest::get(format!("http://{admin}/metrics")).await.unwrap().text().await.unwrap()
}

/// The sum of every series of `name` whose labels hold `labels`.
fn sum(text: &str, name: &str, labels: &str) -> f64 {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && l.contains(labels))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// One Decide of the load: when it started (since the test's start), how
/// long it took, and whether it was answered.
#[derive(Debug, Clone, Copy)]
struct Sample {
    at: Duration,
    took: Duration,
    ok: bool,
}

/// The p99 of the samples that started within `[from, to)`, and how many.
fn p99(samples: &[Sample], from: Duration, to: Duration) -> (Duration, usize) {
    let mut took: Vec<Duration> = samples.iter().filter(|s| s.at >= from && s.at < to).map(|s| s.took).collect();
    took.sort();
    let n = took.len();
    (took.get((n * 99 / 100).min(n.saturating_sub(1))).copied().unwrap_or_default(), n)
}

/// The sum of every series of `name` whose labels hold each of `labels`.
fn sum_all(text: &str, name: &str, labels: &[&str]) -> f64 {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && labels.iter().all(|want| l.contains(want)))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// The daemon's counters a store outage is told by.
#[derive(Debug, Clone, Copy)]
struct Counts {
    /// Decisions made (`ladder_decisions_total`).
    decisions: f64,
    /// Store calls the open breaker skipped (`kind="circuit_open"`).
    skipped: f64,
    /// Store calls that went out and got no answer (`kind="timeout"` or
    /// `"connection"`), the background probe's pings left out.
    unanswered: f64,
    /// The background probe's pings that got no answer.
    probes: f64,
    /// Decisions within 10 ms as the daemon measures them, and all
    /// (`ladder_decision_duration_milliseconds`): printed, not asserted.
    within_10ms: f64,
    timed: f64,
}

impl Counts {
    async fn of(admin: &str) -> Counts {
        let t = metrics(admin).await;
        let failures = |labels: &[&str]| sum_all(&t, "ladder_store_failures_total", labels);
        let no_answer = |op: &str| failures(&["kind=\"timeout\"", op]) + failures(&["kind=\"connection\"", op]);
        let probes = no_answer("op=\"ping\"");
        Counts {
            decisions: sum_all(&t, "ladder_decisions_total", &[]),
            skipped: failures(&["kind=\"circuit_open\""]),
            unanswered: no_answer("") - probes,
            probes,
            within_10ms: sum_all(&t, "ladder_decision_duration_milliseconds_bucket", &["le=\"10\""]),
            timed: sum_all(&t, "ladder_decision_duration_milliseconds_count", &[]),
        }
    }

    /// What each counter rose by since `before`.
    fn since(self, before: Counts) -> Counts {
        Counts {
            decisions: self.decisions - before.decisions,
            skipped: self.skipped - before.skipped,
            unanswered: self.unanswered - before.unanswered,
            probes: self.probes - before.probes,
            within_10ms: self.within_10ms - before.within_10ms,
            timed: self.timed - before.timed,
        }
    }
}

/// Polls the daemon's counters until `done` holds of what they rose by
/// since `from`; fails naming `what` after a generous deadline (a slow
/// machine only makes the wait longer).
async fn counted(admin: &str, from: Counts, what: &str, done: impl Fn(&Counts) -> bool) -> Counts {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let now = Counts::of(admin).await;
        if done(&now.since(from)) {
            return now;
        }
        assert!(Instant::now() < until, "{what}: {:?} since {from:?}", now.since(from));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A store that is killed, or hangs, costs one timeout, not one per call.
/// Under a steady load (four clients calling Decide in a loop, on a daemon
/// of its own process: deterministic executes and ties, each on a session
/// of its own), once the breaker opened the calls are answered without
/// reaching the store: over a window of at least 400 decisions, each one
/// skipped the store (`kind="circuit_open"` rises with them), and the
/// store calls that went out and got no answer are at most the few in
/// flight when the breaker opened (one per client, and a background fold
/// each may have started) plus the background probe's pings, one per
/// cool-down. No call fails, and when the store is back the probe finds
/// it: the calls that need the state are served again.
///
/// Counted, not timed: a loaded machine makes calls slower, and never
/// sends one the breaker skips. How fast they were (the daemon's share of
/// decisions within 10 ms, the client's p99, how long the store took to be
/// found again) is printed (`-- --nocapture`); without the breaker every
/// call waits for the store (0 of 117 decisions within 10 ms, client p99
/// 110 ms, when this test timed it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_outage_costs_one_timeout_not_one_per_call() {
    let _alone = exclusive().await;
    let mut redis = RedisServer::start();
    let admin = free_addr();
    let url = redis.url();
    let cooldown = Duration::from_millis(1_000);
    let (child, addr, _) = spawn_binary(&[
        ("LADDER_SESSIONS__BACKEND", "redis"),
        ("LADDER_SESSIONS__REDIS__URL", &url),
        ("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "50"),
        ("LADDER_SESSIONS__REDIS__BREAKER_FAILURES", "3"),
        ("LADDER_SESSIONS__REDIS__BREAKER_COOLDOWN_MS", &cooldown.as_millis().to_string()),
        ("LADDER_TELEMETRY__METRICS_LISTEN", &admin),
        ("LADDER_GUARDRAILS__EVALUATE_EVERY_SECONDS", "3600"),
    ])
    .await;
    let channel = connect(addr.parse().unwrap()).await;
    let start = Instant::now();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let samples = std::sync::Arc::new(std::sync::Mutex::new(Vec::<Sample>::new()));
    let clients = 4;
    let mut load = Vec::new();
    for k in 0..clients {
        let mut c = pb::arbiter_client::ArbiterClient::new(channel.clone());
        let (stop, samples) = (stop.clone(), samples.clone());
        load.push(tokio::spawn(async move {
            let mut i = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                i += 1;
                let input = if i.is_multiple_of(2) { "open links panel d" } else { "links panel" };
                let t = Instant::now();
                let r = c.decide(req(&format!("load-{k}-{i}"), input)).await;
                samples.lock().unwrap().push(Sample { at: t - start, took: t.elapsed(), ok: r.is_ok() });
                // A steady pace (about 200 calls a second in all), not a wait.
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }));
    }
    let mut probe = pb::arbiter_client::ArbiterClient::new(channel.clone());
    // Whether calls that need the store are served (the breaker closed and
    // the store answering): GetSession answers, found or not.
    let mut served = async || {
        let r = probe.get_session(pb::GetSessionRequest { session_id: "nobody".into() }).await;
        !matches!(r, Err(s) if s.code() == Code::Unavailable)
    };
    // The store serves (a loaded machine can miss the 50 ms store timeout
    // at first, and the breaker then opens for a while), and the load runs
    // on it.
    let ready = Instant::now();
    while !served().await {
        assert!(ready.elapsed() < Duration::from_secs(30), "the store serves before the faults");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let at = Counts::of(&admin).await;
    counted(&admin, at, "the load runs on the store", |c| c.decisions >= 100.0).await;
    let in_flight = f64::from(2 * clients);
    for fault in ["hang", "kill"] {
        let before = Counts::of(&admin).await;
        match fault {
            "hang" => redis.pause(),
            _ => redis.kill(),
        }
        // The breaker opens after three calls got no answer: from then on
        // calls skip the store (counted as circuit_open).
        let opened = counted(&admin, before, &format!("{fault}: the breaker opens"), |c| c.skipped >= 1.0).await;
        let (from, began) = (start.elapsed(), Instant::now());
        let ended = counted(&admin, opened, &format!("{fault}: the load goes on without the store"), |c| c.decisions >= 400.0).await;
        let (to, window) = (start.elapsed(), began.elapsed());
        let w = ended.since(opened);
        match fault {
            "hang" => redis.resume(),
            _ => redis.restart(),
        }
        let back = Instant::now();
        while !served().await {
            assert!(back.elapsed() < Duration::from_secs(30), "{fault}: the store is never found again");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let recovered = back.elapsed();
        let (client_p99, n) = p99(&samples.lock().unwrap(), from, to);
        println!(
            "{fault}: {w:?} in {window:?}; {:.1}% of the decisions within 10 ms, client p99 {client_p99:?} of {n} calls; found again in {recovered:?}",
            100.0 * w.within_10ms / w.timed.max(1.0)
        );
        assert!(w.unanswered <= in_flight, "{fault}: calls went to a store the breaker skips: {w:?}");
        assert!(w.skipped >= w.decisions - in_flight, "{fault}: a decision that did not skip the store: {w:?}");
        let probes = (window.as_secs_f64() / cooldown.as_secs_f64()).ceil() + 1.0;
        assert!(w.probes <= probes, "{fault}: more than one probe per cool-down in {window:?}: {w:?}");
        // The load runs on the store again before the next fault.
        let at = Counts::of(&admin).await;
        counted(&admin, at, &format!("{fault}: the load runs on the store again"), |c| c.decisions >= 100.0).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for l in load {
        l.await.unwrap();
    }
    drop(child);
    let samples = samples.lock().unwrap();
    assert!(samples.iter().all(|s| s.ok), "no call failed: {:?}", samples.iter().find(|s| !s.ok));
}

/// On a store that answers reads and refuses writes
/// (`fault` puts it in that state, `heal` takes it out): no decision
/// refers to state the store did not take. Deterministic decisions go on;
/// a tie is a clarifier without a cycle id; what would have been a
/// NEED_MORE_INFO is a clarifier with STATE_UNAVAILABLE; Enrich, GetSession
/// and RecordOutcome say UNAVAILABLE, naming the refusal (`why`), instead
/// of "not found"; state written before the fault is still read.
async fn no_decision_refers_to_state_the_store_refused(redis: &RedisServer, fault: &[&[&str]], heal: &[&[&str]], why: &str) {
    let mut c = on_redis(Config::default(), redis);
    c.guardrails.evaluate_every_seconds = 3_600;
    let d = TestDaemon::start(c).await;
    let mut client = d.client.clone();
    // Before the fault: a cycle Enrich will continue, and a session.
    let open = client.decide(scope_request("before")).await.unwrap().into_inner();
    assert_eq!(open.outcome(), O::NeedMoreInfo);
    for cmd in fault {
        let _: String = redis.cmd(cmd).await;
    }

    let exec = client.decide(req("during", "open links panel d")).await.unwrap().into_inner();
    assert_eq!((exec.outcome(), exec.target_id.as_str()), (O::Execute, "links-panel-d"), "deterministic decisions go on");
    let tie = client.decide(req("during", "links panel")).await.unwrap().into_inner();
    assert_eq!(tie.outcome(), O::Clarify);
    assert_eq!(tie.loop_cycle_id, "", "no cycle the store did not keep: {tie:?}");
    assert!(tie.trace.iter().any(|s| s.rung == "store" && s.outcome == "not_written"), "{:?}", tie.trace);
    let scoped = client.decide(scope_request("during")).await.unwrap().into_inner();
    assert_eq!(
        (scoped.outcome(), scoped.fallback_reason(), scoped.loop_cycle_id.as_str()),
        (O::Clarify, pb::FallbackReason::StateUnavailable, ""),
        "no NEED_MORE_INFO Enrich could not continue: {scoped:?}"
    );
    assert!(scoped.needed_evidence_types.is_empty());

    // The calls that need the state say why they cannot have it.
    let s = client.get_session(pb::GetSessionRequest { session_id: "during".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::Unavailable, "{}", s.message());
    assert!(s.message().contains(why), "{}", s.message());
    let e = client.enrich(chat_evidence("during", "some-cycle")).await.unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "{}", e.message());
    assert!(e.message().contains(why), "{}", e.message());
    let e = client.enrich(chat_evidence("before", &open.loop_cycle_id)).await.unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "Enrich takes a step: a write: {}", e.message());
    assert!(e.message().contains(why), "{}", e.message());
    let o = client
        .record_outcome(pb::RecordOutcomeRequest {
            session_id: "during".into(),
            decision_id: exec.decision_id.clone(),
            kind: pb::OutcomeKind::Executed as i32,
            choice_id: "links-panel-d".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(o.code(), Code::Unavailable, "{}", o.message());
    // What was written before is still read.
    let before = client.get_session(pb::GetSessionRequest { session_id: "before".into() }).await.unwrap().into_inner();
    assert_eq!(before.loop_cycle_id, open.loop_cycle_id);

    // Healed: cycles are kept and continued again.
    for cmd in heal {
        let _: String = redis.cmd(cmd).await;
    }
    let open = client.decide(scope_request("after")).await.unwrap().into_inner();
    assert_eq!(open.outcome(), O::NeedMoreInfo);
    let r = client.enrich(chat_evidence("after", &open.loop_cycle_id)).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str()), (O::Execute, "chat-d"));
    let tie = client.decide(req("during", "links panel")).await.unwrap().into_inner();
    assert!(!tie.loop_cycle_id.is_empty());
    client.get_session(pb::GetSessionRequest { session_id: "during".into() }).await.expect("written now");
}

/// At `maxmemory` with `noeviction`, Redis answers reads and refuses
/// writes (OOM).
#[tokio::test]
async fn a_store_at_maxmemory_with_noeviction_never_hands_out_state_it_refused() {
    let redis = RedisServer::start();
    no_decision_refers_to_state_the_store_refused(
        &redis,
        &[&["CONFIG", "SET", "maxmemory-policy", "noeviction"], &["CONFIG", "SET", "maxmemory", "1"]],
        &[&["CONFIG", "SET", "maxmemory", "0"]],
        "out of memory",
    )
    .await;
}

/// A replica (here of a primary that is not there) serves reads and
/// refuses writes (READONLY).
#[tokio::test]
async fn a_store_switched_to_a_read_only_replica_never_hands_out_state_it_refused() {
    let redis = RedisServer::start();
    let nowhere = crate::redis_server::free_port().to_string();
    no_decision_refers_to_state_the_store_refused(
        &redis,
        &[&["REPLICAOF", "127.0.0.1", &nowhere]],
        &[&["REPLICAOF", "NO", "ONE"]],
        "read-only replica",
    )
    .await;
}

/// The real binary with `envs`, its stderr lines kept: (child, address,
/// the lines so far).
async fn spawn_logging(envs: &[(&str, &str)]) -> (tokio::process::Child, String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let (child, addr, log, mut lines) = spawn_binary_logged(envs).await;
    let kept = std::sync::Arc::new(std::sync::Mutex::new(log.iter().map(|v| v.to_string()).collect::<Vec<_>>()));
    let sink = kept.clone();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            sink.lock().unwrap().push(line);
        }
    });
    (child, addr, kept)
}

/// A store that refuses every write (OOM) under a flood
/// of 1,200 calls logs its failure once per kind per interval (10 s), not
/// once per call (it was 1,179 lines of "failing" and as many of
/// "answering again" in 2.3 s), while every failure is counted by op and
/// kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_on_a_failing_store_logs_each_kind_of_failure_once_per_interval_and_counts_every_one() {
    let _alone = exclusive().await;
    let redis = RedisServer::start();
    let admin = free_addr();
    let url = redis.url();
    let (child, addr, logs) = spawn_logging(&[
        ("LADDER_SESSIONS__BACKEND", "redis"),
        ("LADDER_SESSIONS__REDIS__URL", &url),
        ("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "2000"),
        ("LADDER_TELEMETRY__METRICS_LISTEN", &admin),
        ("LADDER_GUARDRAILS__EVALUATE_EVERY_SECONDS", "3600"),
    ])
    .await;
    let _: String = redis.cmd(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]).await;
    let _: String = redis.cmd(&["CONFIG", "SET", "maxmemory", "1"]).await;
    let channel = connect(addr.parse().unwrap()).await;
    let started = Instant::now();
    let mut flood = Vec::new();
    for k in 0..8 {
        let mut c = pb::arbiter_client::ArbiterClient::new(channel.clone());
        flood.push(tokio::spawn(async move {
            for i in 0..150 {
                let input = if i % 3 == 0 { "open links panel d" } else { "links panel" };
                c.decide(req(&format!("flood-{k}-{i}"), input)).await.expect("answered");
            }
        }));
    }
    for f in flood {
        f.await.unwrap();
    }
    let took = started.elapsed();
    let text = metrics(&admin).await;
    drop(child);
    let logs = logs.lock().unwrap().clone();
    let count = |what: &str| logs.iter().filter(|l| l.contains(what)).count();
    let failing = count("session store failing");
    let again = count("session store answering again");
    let warnings = count("\"level\":\"WARN\"");
    println!("{took:?}: {failing} failing, {again} answering again, {warnings} warnings in all");
    // At most one line per kind (here oom) per interval begun.
    let intervals = 1 + took.as_secs() as usize / 10;
    let kinds = logs.iter().filter(|l| l.contains("session store failing")).filter_map(|l| {
        let v: serde_json::Value = serde_json::from_str(l).ok()?;
        v["fields"]["kind"].as_str().map(str::to_string)
    });
    let kinds: std::collections::BTreeSet<String> = kinds.collect();
    assert_eq!(kinds, ["oom".to_string()].into(), "{logs:#?}");
    assert!((1..=intervals).contains(&failing), "{logs:#?}");
    assert!(again <= intervals, "{logs:#?}");
    assert!(warnings <= 3 * intervals, "{logs:#?}");
    // Every refused write is counted (each call wrote at least once), by
    // op and kind: every turn reads the session, then writes its change
    // (a clarifier its question, an execute its resolved action).
    let oom = sum(&text, "ladder_store_failures_total", "kind=\"oom\"");
    assert!(oom >= 1_200.0, "{oom} refusals counted:\n{text}");
    let series = text.lines().find(|l| l.starts_with("ladder_store_failures_total{") && l.contains("op=\"write\""));
    assert!(series.is_some_and(|l| l.contains("kind=\"oom\"")), "write:\n{text}");
}

/// On a real full device: the decision log is a symlink
/// to `/dev/full` (every write fails with ENOSPC). Every decision's record
/// is counted as lost (`no_space`), logged once, and the daemon keeps
/// deciding and SERVING; when the path names a writable file again, the
/// records resume there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decision_records_on_a_full_disk_are_counted_as_lost_and_resume_when_it_has_room() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("decisions.jsonl");
    std::os::unix::fs::symlink("/dev/full", &path).unwrap();
    let admin = free_addr();
    let (child, addr, logs) =
        spawn_logging(&[("LADDER_TELEMETRY__DECISION_LOG__PATH", path.to_str().unwrap()), ("LADDER_TELEMETRY__METRICS_LISTEN", &admin)])
            .await;
    let mut c = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    let dropped = |t: &str, reason: &str| sum(t, "ladder_decision_records_dropped_total", &format!("reason=\"{reason}\""));
    for i in 0..200 {
        let input = if i % 2 == 0 { "open links panel d" } else { "links panel" };
        c.decide(req(&format!("full-{i}"), input)).await.unwrap();
    }
    let until = Instant::now() + Duration::from_secs(10);
    while dropped(&metrics(&admin).await, "no_space") < 200.0 {
        assert!(Instant::now() < until, "{}", metrics(&admin).await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let text = metrics(&admin).await;
    assert_eq!(dropped(&text, "no_space"), 200.0, "exactly the decisions not written:\n{text}");
    assert_eq!(sum(&text, "ladder_decision_records_dropped_total", ""), 200.0, "no other reason:\n{text}");
    let mut h = tonic_health::pb::health_client::HealthClient::new(connect(addr.parse().unwrap()).await);
    let status = h.check(tonic_health::pb::HealthCheckRequest { service: String::new() }).await.unwrap().into_inner();
    assert_eq!(status.status(), tonic_health::pb::health_check_response::ServingStatus::Serving);

    // Room again: the path is a file now (replaced atomically).
    let fresh = dir.path().join("fresh");
    std::fs::write(&fresh, "").unwrap();
    std::fs::rename(&fresh, &path).unwrap();
    // The writer tries the file again once a second: decisions until one's
    // record is in it (those before are lost, and counted), 10 s at most.
    let lines = || std::fs::read_to_string(&path).unwrap().lines().count();
    let until = Instant::now() + Duration::from_secs(10);
    let mut waited = 0;
    while lines() == 0 {
        assert!(Instant::now() < until, "no record written within 10 s of the disk having room");
        c.decide(req(&format!("wait-{waited}"), "open links panel d")).await.unwrap();
        waited += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Each waiting decision's record written or counted as lost.
    let (first, lost) = loop {
        let (n, l) = (lines(), dropped(&metrics(&admin).await, "no_space"));
        if n as f64 + l == 200.0 + waited as f64 {
            break (n, l);
        }
        assert!(Instant::now() < until, "{n} written and {l} lost of {waited} waiting decisions and the 200 before");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    for i in 0..50 {
        c.decide(req(&format!("room-{i}"), "open links panel d")).await.unwrap();
    }
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let written = lines() - first;
        if written == 50 {
            break;
        }
        assert!(Instant::now() < until, "{written} of 50 records written after the disk had room");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(dropped(&metrics(&admin).await, "no_space"), lost, "none lost once there was room");
    drop(child);
    let lines = logs.lock().unwrap().clone();
    let lost = lines.iter().filter(|l| l.contains("decision records lost")).count();
    assert_eq!(lost, 1, "one line for 200 losses: {lines:#?}");
    assert!(lines.iter().any(|l| l.contains("decision records written again")), "{lines:#?}");
}

/// The configuration file deleted, made unreadable, or
/// emptied under a running daemon: each is said once in the log (and again
/// on SIGHUP while it lasts), counted in `ladder_config_reloads_total` by
/// result, and shown by GetRollout's `last_reload_error`, while the running
/// configuration stays; a file put back (atomically) applies as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_unreadable_or_emptied_config_file_is_said_counted_and_shown_and_the_running_config_stays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ladderd.toml");
    // Written atomically, as the docs tell operators to: a new file, then
    // a rename over the old one.
    let replace = |toml: &str| {
        let tmp = dir.path().join("ladderd.toml.new");
        std::fs::write(&tmp, toml).unwrap();
        std::fs::rename(&tmp, &file).unwrap();
    };
    replace("[config_reload]\npoll_ms = 100\n[clarifier]\nmax_options = 4\n");
    let admin = free_addr();
    let (child, addr, logs) =
        spawn_logging(&[("LADDER_CONFIG", file.to_str().unwrap()), ("LADDER_TELEMETRY__METRICS_LISTEN", &admin)]).await;
    let channel = connect(addr.parse().unwrap()).await;
    let mut c = pb::arbiter_client::ArbiterClient::new(channel.clone());
    let rollout = |mut c: pb::arbiter_client::ArbiterClient<tonic::transport::Channel>| async move {
        c.get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner()
    };
    let revision = rollout(c.clone()).await.config_revision;
    let reloads = |t: &str, result: &str| sum(t, "ladder_config_reloads_total", &format!("result=\"{result}\""));
    let until_failures = |n: u64| {
        let c = pb::arbiter_client::ArbiterClient::new(channel.clone());
        async move {
            let end = Instant::now() + Duration::from_secs(20);
            loop {
                let r = rollout(c.clone()).await;
                if r.config_reload_failures >= n {
                    return r;
                }
                assert!(Instant::now() < end, "{r:?}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };

    // Deleted.
    std::fs::remove_file(&file).unwrap();
    let r = until_failures(1).await;
    assert!(r.last_reload_error.contains("ladderd.toml") && r.last_reload_error.contains("No such file"), "{}", r.last_reload_error);
    assert_eq!(r.config_revision, revision, "the running configuration stays");
    // Still missing ten polls later: said once, counted once.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(rollout(c.clone()).await.config_reload_failures, 1);
    assert_eq!(reloads(&metrics(&admin).await, "missing"), 1.0);
    let d = c.decide(req("cfg", "links panel")).await.unwrap().into_inner();
    assert_eq!((d.config_revision.as_str(), d.clarifier.unwrap().option_ids.len()), (revision.as_str(), 2), "served as before");
    // SIGHUP asks again: said again.
    assert!(std::process::Command::new("kill").args(["-HUP", &child.id().unwrap().to_string()]).status().unwrap().success());
    until_failures(2).await;
    assert_eq!(reloads(&metrics(&admin).await, "missing"), 2.0);

    // Put back as it was: read again and applied, so
    // GetRollout no longer says the file is missing.
    replace("[config_reload]\npoll_ms = 100\n[clarifier]\nmax_options = 4\n");
    let end = Instant::now() + Duration::from_secs(20);
    while rollout(c.clone()).await.config_reloads < 1 {
        assert!(Instant::now() < end, "never read again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let r = rollout(c.clone()).await;
    assert_eq!((r.last_reload_error.as_str(), r.config_reload_failures), ("", 2), "{r:?}");
    assert_eq!(r.config_revision, revision, "the same configuration");
    std::fs::remove_file(&file).unwrap();
    until_failures(3).await;

    // Unreadable (a directory where the file was).
    std::fs::create_dir(&file).unwrap();
    let r = until_failures(4).await;
    assert!(r.last_reload_error.contains("directory"), "{}", r.last_reload_error);
    assert_eq!(reloads(&metrics(&admin).await, "unreadable"), 1.0);
    std::fs::remove_dir(&file).unwrap();

    // Emptied (truncated to be written again): refused, not "every default".
    std::fs::write(&file, "").unwrap();
    let r = until_failures(5).await;
    assert!(r.last_reload_error.contains("empty"), "{}", r.last_reload_error);
    assert_eq!(r.config_revision, revision);
    assert_eq!(reloads(&metrics(&admin).await, "refused"), 1.0);

    // Put back, changed: applied, and the refusal is no longer shown.
    replace("[config_reload]\npoll_ms = 100\n[clarifier]\nmax_options = 1\n");
    let end = Instant::now() + Duration::from_secs(20);
    while rollout(c.clone()).await.config_reloads < 2 {
        assert!(Instant::now() < end, "never reloaded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(rollout(c.clone()).await.last_reload_error, "");
    let d = c.decide(req("cfg", "links panel")).await.unwrap().into_inner();
    assert_ne!(d.config_revision, revision);
    assert_eq!(d.clarifier.unwrap().option_ids.len(), 1, "the new configuration decides");
    drop(child);
    let lines = logs.lock().unwrap().clone();
    let said = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    assert_eq!(said("configuration file missing"), 3, "once, once for SIGHUP, once when it went again: {lines:#?}");
    assert_eq!(said("configuration file unreadable"), 1, "{lines:#?}");
    assert_eq!(said("the file is empty"), 1, "{lines:#?}");
}

/// Whether calls that need the store are served: GetSession answers, found
/// or not (`UNAVAILABLE` is a call answered as for an unreachable store),
/// and the message when it is not.
async fn store_served(client: &mut pb::arbiter_client::ArbiterClient<tonic::transport::Channel>) -> Result<(), String> {
    match client.get_session(pb::GetSessionRequest { session_id: "nobody".into() }).await {
        Err(s) if s.code() == Code::Unavailable => Err(s.message().to_string()),
        _ => Ok(()),
    }
}

/// An idle daemon (no calls; only the background ping,
/// once per `breaker_cooldown_ms`, reaches the store) through an outage
/// of the store long enough for three pings to go unanswered (2 s or more
/// with the defaults): its breaker is open when the store comes back, so
/// the first calls after are answered as for an unreachable store, until
/// the next probe finds it, within one cool-down; then they are served.
/// Defaults throughout, but for the guardrails' evaluation (its store
/// calls would count with the pings).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_long_outage_an_idle_daemons_first_calls_are_degraded_for_up_to_one_cool_down() {
    let mut redis = RedisServer::start();
    let url = redis.url();
    let (child, addr, logs) = spawn_logging(&[
        ("LADDER_SESSIONS__BACKEND", "redis"),
        ("LADDER_SESSIONS__REDIS__URL", &url),
        ("LADDER_GUARDRAILS__EVALUATE_EVERY_SECONDS", "3600"),
    ])
    .await;
    let cooldown = Duration::from_millis(Config::default().sessions.redis.breaker_cooldown_ms);
    let mut client = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    for i in 0..4 {
        client.decide(req(&format!("warm-{i}"), "links panel")).await.unwrap();
    }
    assert_eq!(store_served(&mut client).await, Ok(()));
    let opened = || logs.lock().unwrap().iter().any(|l| l.contains("circuit breaker open"));
    let down = Instant::now();
    redis.kill();
    while !opened() {
        assert!(down.elapsed() < Duration::from_secs(10), "the pings never opened the breaker");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let outage = down.elapsed();
    redis.restart();
    let back = Instant::now();
    let restart_took = back.duration_since(down) - outage;
    let first = store_served(&mut client).await;
    let mut degraded = u32::from(first.is_err());
    while store_served(&mut client).await.is_err() {
        degraded += 1;
        assert!(back.elapsed() < Duration::from_secs(5), "never served again");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let recovered = back.elapsed();
    println!(
        "breaker open {outage:?} into the outage; store back {restart_took:?} later; served {recovered:?} after, {degraded} calls degraded"
    );
    // The next probe goes out one cool-down after the breaker opened: a
    // call made well before then meets the breaker still open.
    if restart_took < cooldown / 2 {
        let why = first.expect_err("the first call after the store is back meets the open breaker");
        assert!(why.contains("paused for a moment"), "{why}");
    }
    assert!(outage >= Duration::from_secs(2), "three pings a cool-down apart: {outage:?}");
    assert!(recovered < cooldown + Duration::from_millis(500), "served again within one cool-down: {recovered:?}");
    drop(child);
}
