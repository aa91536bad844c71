//! The runs: closed and open loops, the matrix of pool sizes, inputs and
//! concurrencies against ladderd and the echo, the overload step and the
//! JSON report.

use crate::calls::{Payload, call_for, payload, prime_sessions, send};
use crate::cli::{InputKind, RunArgs};
use crate::fake_llm::start_fake_llm;
use crate::report::{RssSampler, RunResult, Tally, code_name, fmt_us, machine, print_header, print_run};
use crate::spawn::{ABORT, dead, start_targets, watchdog};
use ladderd::pb;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::process::{Child, ExitCode};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tonic::Status;
use tonic::transport::Channel;

/// When a closed-loop run stops.
#[derive(Clone)]
enum Stop {
    At(Instant),
    After(Arc<AtomicU64>, u64),
}

impl Stop {
    pub(crate) fn take(&self) -> bool {
        if ABORT.load(Ordering::Relaxed) {
            return false;
        }
        match self {
            Stop::At(t) => Instant::now() < *t,
            Stop::After(n, max) => n.fetch_add(1, Ordering::Relaxed) < *max,
        }
    }
}

/// `concurrency` workers, each with one call in flight at a time.
async fn closed_loop(channels: &[Channel], p: &Arc<Payload>, concurrency: usize, stop: Stop, timeout: Duration) -> (Tally, Duration) {
    let start = Instant::now();
    let tasks: Vec<_> = (0..concurrency)
        .map(|w| {
            let mut grpc = tonic::client::Grpc::new(channels[w % channels.len()].clone());
            let p = p.clone();
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut t = Tally::new();
                let mut i = 0u64;
                while stop.take() {
                    let call = call_for(&p, w, i, concurrency as u64);
                    i += 1;
                    let began = Instant::now();
                    let r = send(&mut grpc, call, timeout).await;
                    t.record(began.elapsed().as_micros() as u64, &r);
                }
                t
            })
        })
        .collect();
    let mut total = Tally::new();
    for t in tasks {
        total.merge(t.await.expect("a worker"));
    }
    (total, start.elapsed())
}

/// Calls arrive on a fixed schedule at `rate` per second, whatever the
/// server does; each call's latency runs from its scheduled time.
async fn open_loop(channels: &[Channel], p: &Arc<Payload>, rate: f64, duration: Duration, timeout: Duration) -> (Tally, Duration, u64) {
    const MAX_OUTSTANDING: usize = 50_000;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(u64, Result<pb::Decision, Status>)>();
    let collector = tokio::spawn(async move {
        let mut t = Tally::new();
        while let Some((us, r)) = rx.recv().await {
            t.record(us, &r);
        }
        t
    });
    let permits = Arc::new(tokio::sync::Semaphore::new(MAX_OUTSTANDING));
    let grpcs: Vec<_> = channels.iter().map(|c| tonic::client::Grpc::new(c.clone())).collect();
    let start = Instant::now();
    let mut sent = 0u64;
    let mut dropped = 0u64;
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    loop {
        tick.tick().await;
        let now = start.elapsed();
        if now >= duration || ABORT.load(Ordering::Relaxed) {
            break;
        }
        let due = (now.as_secs_f64() * rate) as u64;
        while sent < due {
            let scheduled = start + Duration::from_secs_f64(sent as f64 / rate);
            let call = call_for(p, 0, sent, 1);
            let mut grpc = grpcs[sent as usize % grpcs.len()].clone();
            sent += 1;
            let Ok(permit) = permits.clone().try_acquire_owned() else {
                dropped += 1;
                continue;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let r = send(&mut grpc, call, timeout).await;
                let _ = tx.send((scheduled.elapsed().as_micros() as u64, r));
                drop(permit);
            });
        }
    }
    let elapsed = start.elapsed();
    drop(tx);
    let tally = tokio::time::timeout(timeout + Duration::from_secs(5), collector).await.expect("every call ends").expect("collector");
    (tally, elapsed, dropped)
}

pub(crate) async fn health(channel: &Channel) -> Vec<(String, String)> {
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    let mut h = HealthClient::new(channel.clone());
    let mut out = Vec::new();
    for service in ["", "ladder.v1.Arbiter"] {
        let status = match h.check(HealthCheckRequest { service: service.into() }).await {
            Ok(r) => r.into_inner().status().as_str_name().to_string(),
            Err(s) => format!("error {}: {}", code_name(s.code()), s.message()),
        };
        out.push((service.to_string(), status));
    }
    out
}

/// One cell of the matrix: a pool size, an input kind, its payload, and
/// the clock the run's timestamps are read from.
struct Cell<'a> {
    pool: usize,
    input: InputKind,
    p: &'a Arc<Payload>,
    epoch: Instant,
}

async fn measure_closed(target: &'static str, ch: &[Channel], a: &RunArgs, cell: &Cell<'_>, conc: usize) -> RunResult {
    let Cell { pool, input, p, epoch } = *cell;
    if !a.warmup.is_zero() {
        closed_loop(ch, p, conc, Stop::At(Instant::now() + a.warmup), a.timeout).await;
    }
    let stop = match a.requests {
        Some(n) => Stop::After(Arc::new(AtomicU64::new(0)), n),
        None => Stop::At(Instant::now() + a.duration),
    };
    let started_at = epoch.elapsed().as_secs_f64();
    let (tally, elapsed) = closed_loop(ch, p, conc, stop, a.timeout).await;
    RunResult {
        target,
        mode: "closed",
        pool,
        input,
        concurrency: conc,
        offered_rate: None,
        elapsed,
        tally,
        client_dropped: 0,
        started_at,
        ended_at: epoch.elapsed().as_secs_f64(),
    }
}

async fn measure_open(target: &'static str, ch: &[Channel], a: &RunArgs, cell: &Cell<'_>, rate: f64) -> RunResult {
    let Cell { pool, input, p, epoch } = *cell;
    let started_at = epoch.elapsed().as_secs_f64();
    let (tally, elapsed, dropped) = open_loop(ch, p, rate, a.duration, a.timeout).await;
    RunResult {
        target,
        mode: "open",
        pool,
        input,
        concurrency: 0,
        offered_rate: Some(rate),
        elapsed,
        tally,
        client_dropped: dropped,
        started_at,
        ended_at: epoch.elapsed().as_secs_f64(),
    }
}

pub(crate) async fn run(a: RunArgs) -> ExitCode {
    match run_inner(a).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ladderd-load: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run_inner(a: RunArgs) -> Result<ExitCode, String> {
    if a.pool_reuse && (a.sessions == 0 || a.fake_llm) {
        return Err(
            "--pool-reuse needs --sessions > 0 (each session holds its pool) and no --fake-llm (fresh option sets are never cached)".into(),
        );
    }
    let fresh = match (a.fresh_options, a.fresh_labels) {
        (_, true) => Some(ladderd_load::samples::Fresh::Labels),
        (true, _) => Some(ladderd_load::samples::Fresh::Options),
        _ => None,
    };
    if fresh.is_some() && a.pool_reuse {
        return Err("--pool-reuse refers to a pool sent once: not with --fresh-options or --fresh-labels".into());
    }
    let epoch = Instant::now();
    let fake = if a.fake_llm { Some(start_fake_llm("127.0.0.1:0").await) } else { None };
    if fake.is_some() && a.target.is_some() {
        eprintln!("note: --fake-llm with --target: point the running daemon at the provider yourself (LADDER_LLM__BASE_URL)");
    }
    let mut t = start_targets(&a, fake).await?;
    if let Some(f) = fake {
        println!("fake LLM provider: http://{f}/v1");
    }
    let rss = t.daemon.pid.map(|pid| RssSampler::start(pid, a.rss_interval, epoch));
    watchdog(t.daemon.child.iter().chain(t.echo.iter().filter_map(|(e, _)| e.child.as_ref())).map(Child::id).collect());
    let m = machine();
    println!(
        "ladderd {} (pid {}){}; client threads {}; {}; kernel {}",
        t.daemon.addr,
        t.daemon.pid.map_or("?".into(), |p| p.to_string()),
        t.echo.as_ref().map_or(String::new(), |(e, _)| format!("; echo {}", e.addr)),
        m["client_threads"],
        m["cpu"].as_str().unwrap_or(""),
        m["kernel"].as_str().unwrap_or(""),
    );
    println!(
        "runs: {} measured{} each, warm-up {:?}, {} connection(s), deadline {:?}, sessions {}{}{}",
        a.requests.map_or(format!("{:?}", a.duration), |n| format!("{n} calls")),
        if a.rate.is_some() { " (open loop)" } else { "" },
        a.warmup,
        a.connections,
        a.timeout,
        if a.sessions == 0 { "new per call".into() } else { a.sessions.to_string() },
        if a.pool_reuse { ", pools by reference (sent once per session)" } else { "" },
        match fresh {
            Some(ladderd_load::samples::Fresh::Options) => ", a new option set on every call",
            Some(ladderd_load::samples::Fresh::Labels) => ", a new option set of new labels on every call",
            None => "",
        }
    );
    print_header();

    let mut results: Vec<RunResult> = Vec::new();
    let mut ratios: Vec<Value> = Vec::new();
    let mut echo_cache: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut payload_bytes = BTreeMap::new();
    for &pool_size in &a.pools {
        for &input in &a.inputs {
            let p = Arc::new(payload(pool_size, input, a.sessions, fake.is_some(), fresh, a.pool_reuse));
            payload_bytes.insert(pool_size, p.bytes);
            let cell = Cell { pool: pool_size, input, p: &p, epoch };
            if let Some(rate) = a.rate {
                prime_sessions(&t.daemon_ch, &p, a.timeout).await?;
                let r = measure_open("ladderd", &t.daemon_ch, &a, &cell, rate).await;
                print_run(&r);
                results.push(r);
                continue;
            }
            for &conc in &a.concurrency {
                prime_sessions(&t.daemon_ch, &p, a.timeout).await?;
                let r = measure_closed("ladderd", &t.daemon_ch, &a, &cell, conc).await;
                print_run(&r);
                let d = results.len();
                results.push(r);
                if ABORT.load(Ordering::Relaxed) || !t.daemon.alive() {
                    return Err(dead(&mut t));
                }
                // The echo does the same work whatever the input text: one
                // echo run per pool size and concurrency.
                if let Some((_, ech)) = &t.echo {
                    let e = match echo_cache.get(&(pool_size, conc)) {
                        Some(i) => *i,
                        None => {
                            let r = measure_closed("echo", ech, &a, &cell, conc).await;
                            print_run(&r);
                            results.push(r);
                            echo_cache.insert((pool_size, conc), results.len() - 1);
                            results.len() - 1
                        }
                    };
                    let (dr, er) = (&results[d], &results[e]);
                    let tput = dr.throughput() / er.throughput().max(f64::MIN_POSITIVE);
                    let p99 = dr.q(0.99) as f64 / er.q(0.99).max(1) as f64;
                    println!(
                        "ratio    ladderd/echo pool {pool_size} {} conc {conc}: throughput {:.0}% of echo, p99 {:.2}x echo",
                        input.name(),
                        tput * 100.0,
                        p99
                    );
                    ratios.push(json!({"pool": pool_size, "input": input.name(), "concurrency": conc,
                        "throughput_ratio": tput, "p99_ratio": p99,
                        "ladderd_throughput": dr.throughput(), "echo_throughput": er.throughput(),
                        "ladderd_p99_us": dr.q(0.99), "echo_p99_us": er.q(0.99)}));
                }
            }
        }
    }

    let mut overload = Vec::new();
    if a.overload {
        let conc = a.concurrency.iter().copied().max().unwrap_or(64);
        for &pool_size in &a.pools {
            for &input in &a.inputs {
                let p = Arc::new(payload(pool_size, input, a.sessions, fake.is_some(), fresh, a.pool_reuse));
                let cell = Cell { pool: pool_size, input, p: &p, epoch };
                prime_sessions(&t.daemon_ch, &p, a.timeout).await?;
                let sustained = match results.iter().find(|r| {
                    r.target == "ladderd" && r.mode == "closed" && r.pool == pool_size && r.input == input && r.concurrency == conc
                }) {
                    Some(r) => r.throughput(),
                    None => {
                        let r = measure_closed("ladderd", &t.daemon_ch, &a, &cell, conc).await;
                        print_run(&r);
                        let x = r.throughput();
                        results.push(r);
                        x
                    }
                };
                let rate = sustained * a.overload_factor;
                println!(
                    "overload pool {pool_size} {}: sustainable {sustained:.0}/s (closed loop, conc {conc}); offering {rate:.0}/s open loop",
                    input.name()
                );
                let r = measure_open("ladderd", &t.daemon_ch, &a, &cell, rate).await;
                print_run(&r);
                let shed = r.tally.errors.get("RESOURCE_EXHAUSTED").copied().unwrap_or(0);
                let answered = r.total();
                let alive = t.daemon.alive();
                // Let the backlog drain before asking for health.
                tokio::time::sleep(Duration::from_millis(500)).await;
                let h = health(&t.daemon_ch[0]).await;
                let after = measure_closed(
                    "ladderd",
                    &t.daemon_ch,
                    &RunArgs { warmup: Duration::ZERO, requests: Some(200), ..a.clone() },
                    &cell,
                    1,
                )
                .await;
                let serving = h.iter().all(|(_, s)| s == "SERVING");
                println!(
                    "overload result: {:.1}% shed with RESOURCE_EXHAUSTED ({shed} of {answered} answered, {} not sent by the client), accepted {:.0}/s with p99 {} (max {}); daemon alive: {alive}; health {}; {} of 200 calls OK right after",
                    100.0 * shed as f64 / answered.max(1) as f64,
                    r.client_dropped,
                    r.throughput(),
                    fmt_us(r.q(0.99)),
                    fmt_us(r.tally.ok.max()),
                    h.iter().map(|(s, v)| format!("{:?}={v}", s)).collect::<Vec<_>>().join(" "),
                    after.ok()
                );
                overload.push(json!({
                    "pool": pool_size, "input": input.name(), "sustainable_rate": sustained, "offered_rate": rate,
                    "answered": answered, "shed": shed, "shed_share": shed as f64 / answered.max(1) as f64,
                    "accepted_throughput": r.throughput(), "accepted_p99_us": r.q(0.99), "accepted_max_us": r.tally.ok.max(),
                    "daemon_alive": alive, "health": h.iter().map(|(s, v)| json!({"service": s, "status": v})).collect::<Vec<_>>(),
                    "ok_after": after.ok(), "run": r.json(),
                }));
                results.push(r);
                if !alive || !serving {
                    return Err("the daemon did not survive the overload".into());
                }
            }
        }
    }

    let mut rss_json = Value::Null;
    if let Some(s) = &rss {
        let end = epoch.elapsed().as_secs_f64();
        if let Some((first, last, max)) = s.window(0.0, end) {
            println!("daemon RSS: start {} MiB, end {} MiB, max {} MiB", first / 1024, last / 1024, max / 1024);
        }
        let per_run: Vec<Value> = results
            .iter()
            .filter(|r| r.target == "ladderd")
            .filter_map(|r| {
                let (f, l, m) = s.window(r.started_at, r.ended_at)?;
                Some(json!({"pool": r.pool, "input": r.input.name(), "mode": r.mode, "concurrency": r.concurrency,
                    "start_kb": f, "end_kb": l, "max_kb": m}))
            })
            .collect();
        for r in results.iter().filter(|r| r.target == "ladderd" && r.ended_at - r.started_at >= 60.0) {
            if let Some((f, l, m)) = s.window(r.started_at, r.ended_at) {
                // Steady state: from the end of the first minute.
                let steady = s.window(r.started_at + 60.0, r.ended_at);
                println!(
                    "daemon RSS during the {:.0} s run (pool {} {} conc {}): start {} kB, end {} kB, max {} kB{}",
                    r.ended_at - r.started_at,
                    r.pool,
                    r.input.name(),
                    r.concurrency,
                    f,
                    l,
                    m,
                    steady.map_or(String::new(), |(sf, sl, sm)| format!("; after the first minute: {sf} -> {sl} kB (max {sm})"))
                );
            }
        }
        let samples = s.samples.lock().expect("samples").clone();
        rss_json = json!({"interval_s": a.rss_interval.as_secs_f64(), "runs": per_run,
            "samples": samples.iter().map(|(t, kb)| json!([t, kb])).collect::<Vec<_>>()});
    }

    if let Some(path) = &a.json {
        let doc = json!({
            "machine": m,
            "settings": {
                "duration_s": a.duration.as_secs_f64(), "requests": a.requests, "warmup_s": a.warmup.as_secs_f64(),
                "connections": a.connections, "sessions": a.sessions, "pool_reuse": a.pool_reuse, "timeout_ms": a.timeout.as_millis() as u64,
                "daemon_cpu": a.daemon_cpu, "client_cpu": a.client_cpu, "fake_llm": a.fake_llm,
                "daemon_env": a.daemon_env, "payload_bytes": payload_bytes,
            },
            "runs": results.iter().map(RunResult::json).collect::<Vec<_>>(),
            "ratios": ratios,
            "overload": overload,
            "rss": rss_json,
        });
        let text = serde_json::to_string_pretty(&doc).expect("serializable");
        if path.as_os_str() == "-" {
            println!("{text}");
        } else {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    drop(rss);
    // Read before the servers are stopped: the watchdog sees a stopped
    // server as gone too.
    if ABORT.load(Ordering::Relaxed) {
        return Err(dead(&mut t));
    }
    if let Some((mut e, _)) = t.echo.take() {
        e.stop();
    }
    t.daemon.stop();
    Ok(ExitCode::SUCCESS)
}
