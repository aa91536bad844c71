//! What the LLM rung costs beyond the provider, and how precisely it keeps
//! its deadline.
//!
//! `cargo bench --bench llm_rung`
//!
//! An in-process daemon (`App::build` on port 0, as the integration tests
//! do) and real tonic clients, 16 calls in flight (closed loop):
//!
//! 1. **Overhead.** `Decide("links panel")` over the apps' panels (a
//!    multi-match tie, LLM eligible), a fresh session per call so the loop
//!    guard never short-cuts, against (a) a daemon with the LLM rung off and
//!    (b) a daemon whose provider is an instant fake OpenAI-compatible
//!    server (hyper, HTTP/1.1, answers a valid pick as soon as the body is
//!    read). The rung's overhead is (b) - (a), quantile by quantile. Also
//!    shown: the provider's own time (request read to reply written,
//!    measured inside it) and a bare HTTP round trip to it with reqwest (the
//!    loopback HTTP share of the overhead). Measured with 1 call in flight
//!    (the rung's own cost) and with 16 (the goal's load: on a 2-core
//!    machine the rung's CPU time also shows up as queueing). Goal: under
//!    1 ms median and 3 ms p99 at 16.
//! 2. **Deadline precision.** The same call against a provider that accepts
//!    connections and never answers, `llm.timeout_ms = 800` (breaker off so
//!    every call waits the full budget): the Decide latency distribution.
//!    Goal: p99.9 within 800 + 20 ms.
//!
//! 3. **Isolation.** Deterministic `Decide("open links panel d")` calls,
//!    one in flight, on a daemon whose provider hangs: alone, then while 200
//!    unresolved calls are kept waiting on the provider (`llm.max_concurrency
//!    = 256` so all 200 really wait, each for `llm.timeout_ms = 2000`), on
//!    two connections of their own (100 streams each, the daemon's
//!    `server.max_streams_per_connection`). The
//!    companion of the integration test
//!    `a_hanging_provider_never_touches_deterministic_calls`: LLM traffic
//!    must not slow deterministic decisions.
//!
//! Sizes: `LLM_BENCH_CALLS` (default 10000) calls per overhead phase,
//! `LLM_BENCH_DEADLINE_CALLS` (default 1000, about 50 s) for the deadline,
//! `LLM_BENCH_CALLS / 5` deterministic calls per isolation phase.

use hdrhistogram::Histogram;
use ladderd::app::App;
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::arbiter_client::ArbiterClient;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

// The daemon's allocator (src/main.rs), so the figures are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CONCURRENCY: usize = 16;

fn env_usize(key: &str, default: usize) -> usize {
    std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("valid bounds")
}

const REPLY: &str = r#"{"id":"cmpl-bench","object":"chat.completion","model":"fake","choices":[{"index":0,"message":{"role":"assistant","content":"{\"decision\":\"select\",\"choice_id\":\"links-panel-d\",\"confidence\":0.9,\"needed_evidence_types\":[]}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}}"#;

/// The instant provider; records its own time per request (microseconds).
async fn instant_provider() -> (SocketAddr, Arc<Mutex<Histogram<u64>>>) {
    use http_body_util::{BodyExt, Full};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let own = Arc::new(Mutex::new(histogram()));
    let rec = own.clone();
    tokio::spawn(async move {
        while let Ok((sock, _)) = listener.accept().await {
            let _ = sock.set_nodelay(true);
            let rec = rec.clone();
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let rec = rec.clone();
                    async move {
                        let t = Instant::now();
                        let _ = req.into_body().collect().await;
                        let resp = hyper::Response::builder()
                            .header("content-type", "application/json")
                            .body(Full::new(hyper::body::Bytes::from_static(REPLY.as_bytes())))
                            .unwrap();
                        rec.lock().unwrap().saturating_record(t.elapsed().as_micros().max(1) as u64);
                        Ok::<_, std::convert::Infallible>(resp)
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(sock), svc).await;
            });
        }
    });
    (addr, own)
}

/// Accepts connections and never answers.
async fn hanging_provider() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = listener.accept().await {
            held.push(sock);
        }
    });
    addr
}

struct Daemon {
    client: ArbiterClient<Channel>,
    addr: std::net::SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

/// A client on a connection of its own to `addr`.
async fn connect(addr: std::net::SocketAddr) -> ArbiterClient<Channel> {
    loop {
        if let Ok(c) = Channel::from_shared(format!("http://{addr}")).unwrap().connect().await {
            return ArbiterClient::new(c);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn daemon(mut config: Config) -> Daemon {
    config.listen = "127.0.0.1:0".into();
    config.validate().expect("a valid config");
    let app = App::build(config).await.expect("the app builds");
    let addr = app.local_addr();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        app.run_until(async {
            let _ = rx.await;
        })
        .await
        .expect("serves")
    });
    Daemon { client: connect(addr).await, addr, _stop: tx }
}

/// A daemon whose provider never answers; breaker off, so every
/// unresolved call waits its whole `timeout_ms`.
async fn hanging_daemon(timeout_ms: u64, max_concurrency: usize) -> Daemon {
    let hang = hanging_provider().await;
    let mut c = llm_config(&format!("http://{hang}/v1"));
    c.llm.timeout_ms = timeout_ms;
    c.llm.breaker_failures = 0;
    c.llm.max_concurrency = max_concurrency;
    daemon(c).await
}

fn llm_config(base_url: &str) -> Config {
    let mut c = Config::default();
    c.llm.base_url = Some(base_url.into());
    c.llm.model = Some("fake".into());
    c
}

/// `Decide("links panel")` over the apps' regression set: a tie.
fn request(session_id: String) -> pb::DecideRequest {
    ladderd_load::samples::panels_request(&session_id, "links panel")
}

struct Phase {
    latency: Histogram<u64>,
    /// "outcome/fallback_reason/llm verdict" -> count; errors by code.
    kinds: BTreeMap<String, u64>,
}

/// `calls` Decide calls, `concurrency` in flight, fresh sessions.
async fn phase(name: &str, client: &ArbiterClient<Channel>, calls: usize, concurrency: usize) -> Phase {
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let mut c = client.clone();
            let next = next.clone();
            let name = name.to_string();
            tokio::spawn(async move {
                let mut h = histogram();
                let mut kinds = BTreeMap::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= calls {
                        break;
                    }
                    let mut req = tonic::Request::new(request(format!("{name}-{i}")));
                    req.set_timeout(Duration::from_millis(1_500));
                    let t = Instant::now();
                    let r = c.decide(req).await;
                    let us = t.elapsed().as_micros() as u64;
                    let kind = match r {
                        Ok(d) => {
                            h.saturating_record(us.max(1));
                            let d = d.into_inner();
                            format!(
                                "{}/{}/{}",
                                d.outcome().as_str_name(),
                                d.fallback_reason().as_str_name(),
                                d.llm.map(|l| l.verdict).unwrap_or_default()
                            )
                        }
                        Err(s) => format!("error {:?}", s.code()),
                    };
                    *kinds.entry(kind).or_insert(0u64) += 1;
                }
                (h, kinds)
            })
        })
        .collect();
    let mut out = Phase { latency: histogram(), kinds: BTreeMap::new() };
    for w in workers {
        let (h, k) = w.await.unwrap();
        out.latency.add(&h).unwrap();
        for (key, n) in k {
            *out.kinds.entry(key).or_default() += n;
        }
    }
    out
}

/// `calls` deterministic Decide calls, one in flight.
async fn deterministic(client: &ArbiterClient<Channel>, calls: usize, tag: &str) -> Histogram<u64> {
    let mut c = client.clone();
    let mut h = histogram();
    for i in 0..calls {
        let mut r = request(format!("det-{tag}-{i}"));
        r.input = "open links panel d".into();
        let mut req = tonic::Request::new(r);
        req.set_timeout(Duration::from_millis(1_500));
        let t = Instant::now();
        let d = c.decide(req).await.expect("a deterministic call succeeds").into_inner();
        h.saturating_record(t.elapsed().as_micros().max(1) as u64);
        assert_eq!((d.outcome(), d.target_id.as_str()), (pb::Outcome::Execute, "links-panel-d"));
    }
    h
}

/// Keeps `n` unresolved calls waiting on the provider until `stop`; returns
/// how many calls ended (each a clarifier after the LLM timeout).
async fn keep_waiting(
    client: &ArbiterClient<Channel>,
    n: usize,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Vec<tokio::task::JoinHandle<u64>> {
    (0..n)
        .map(|w| {
            let mut c = client.clone();
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut done = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let mut req = tonic::Request::new(request(format!("hog-{w}-{done}")));
                    req.set_timeout(Duration::from_millis(5_000));
                    let d = c.decide(req).await.expect("an unresolved call gets an answer").into_inner();
                    assert_eq!(d.outcome(), pb::Outcome::Clarify);
                    done += 1;
                }
                done
            })
        })
        .collect()
}

fn ms(us: u64) -> String {
    format!("{:.3} ms", us as f64 / 1000.0)
}

fn show(name: &str, h: &Histogram<u64>) {
    println!(
        "  {name:<34} n={:<6} p50 {:>10}  p90 {:>10}  p99 {:>10}  p99.9 {:>10}  max {:>10}  mean {:.3} ms",
        h.len(),
        ms(h.value_at_quantile(0.5)),
        ms(h.value_at_quantile(0.9)),
        ms(h.value_at_quantile(0.99)),
        ms(h.value_at_quantile(0.999)),
        ms(h.max()),
        h.mean() / 1000.0
    );
}

/// A bare HTTP round trip to the provider, as reqwest makes it.
async fn bare_http(addr: SocketAddr, calls: usize, concurrency: usize) -> Histogram<u64> {
    let http = reqwest::Client::builder().tcp_nodelay(true).build().unwrap();
    let url = format!("http://{addr}/v1/chat/completions");
    let body = serde_json::json!({"model": "fake", "messages": [{"role": "system", "content": "x".repeat(1200)}, {"role": "user", "content": "{\"user_input\":\"links panel\"}"}]});
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (http, url, body, next) = (http.clone(), url.clone(), body.clone(), next.clone());
            tokio::spawn(async move {
                let mut h = histogram();
                while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < calls {
                    let t = Instant::now();
                    let r = http.post(&url).json(&body).send().await.unwrap();
                    let _ = r.bytes().await.unwrap();
                    h.saturating_record(t.elapsed().as_micros().max(1) as u64);
                }
                h
            })
        })
        .collect();
    let mut out = histogram();
    for w in workers {
        out.add(w.await.unwrap()).unwrap();
    }
    out
}

fn main() {
    let calls = env_usize("LLM_BENCH_CALLS", 10_000);
    let deadline_calls = env_usize("LLM_BENCH_DEADLINE_CALLS", 1_000);
    // `cargo test --benches` runs this target without `--bench`: keep it short.
    let full = std::env::args().any(|a| a == "--bench");
    let (calls, deadline_calls) = if full { (calls, deadline_calls) } else { (200, 32) };
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let (addr, own) = instant_provider().await;
        let off = daemon(Config::default()).await;
        let on = daemon(llm_config(&format!("http://{addr}/v1"))).await;
        // Warm-up: connections, the tokenizer, the allocator.
        phase("warm-off", &off.client, 1_000.min(calls), CONCURRENCY).await;
        phase("warm-on", &on.client, 1_000.min(calls), CONCURRENCY).await;
        // One call in flight shows the rung's own cost; 16 in flight on
        // this machine adds the queueing its CPU time causes.
        for (concurrency, n) in [(1, calls / 5), (CONCURRENCY, calls)] {
            println!("LLM rung overhead: Decide(\"links panel\") x {n}, {concurrency} in flight, a fresh session per call");
            own.lock().unwrap().reset();
            let bare = bare_http(addr, n, concurrency).await;
            own.lock().unwrap().reset();
            let a = phase(&format!("off-{concurrency}"), &off.client, n, concurrency).await;
            let b = phase(&format!("on-{concurrency}"), &on.client, n, concurrency).await;
            show("LLM off (deterministic clarifier)", &a.latency);
            show("LLM on, instant provider", &b.latency);
            show("provider's own time (inside it)", &own.lock().unwrap());
            show("bare HTTP round trip (reqwest)", &bare);
            for (q, name) in [(0.5, "p50"), (0.9, "p90"), (0.99, "p99"), (0.999, "p99.9")] {
                let d = b.latency.value_at_quantile(q) as i64 - a.latency.value_at_quantile(q) as i64;
                println!("  overhead of the rung at {name:<5}: {:.3} ms", d as f64 / 1000.0);
            }
            println!("  overhead of the rung, mean:   {:.3} ms", (b.latency.mean() - a.latency.mean()) / 1000.0);
            println!("  outcomes off: {:?}", a.kinds);
            println!("  outcomes on:  {:?}", b.kinds);
        }
        drop((off, on));

        println!();
        println!("Deadline precision: a provider that never answers, llm.timeout_ms = 800, x {deadline_calls}, {CONCURRENCY} in flight");
        let d = hanging_daemon(800, 64).await;
        let p = phase("hang", &d.client, deadline_calls, CONCURRENCY).await;
        show("Decide against a hanging provider", &p.latency);
        let over = p.latency.iter_recorded().filter(|v| v.value_iterated_to() > 820_000).map(|v| v.count_at_value()).sum::<u64>();
        println!(
            "  over 820 ms: {over} of {}; p99.9 - 800 ms = {:.1} ms; outcomes {:?}",
            p.latency.len(),
            (p.latency.value_at_quantile(0.999) as f64 - 800_000.0) / 1000.0,
            p.kinds
        );
        drop(d);

        println!();
        let n = (calls / 5).max(50);
        println!("Isolation: deterministic Decide x {n}, 1 in flight, provider hanging, llm.timeout_ms = 2000");
        let d = hanging_daemon(2_000, 256).await;
        deterministic(&d.client, n.min(500), "warm").await;
        let alone = deterministic(&d.client, n, "alone").await;
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        // Two connections of 100 waiting calls each (the daemon's
        // `server.max_streams_per_connection`), the deterministic calls on
        // a third: as an app's pool of connections would spread them.
        let mut hogs = Vec::new();
        for _ in 0..2 {
            hogs.extend(keep_waiting(&connect(d.addr).await, 100, stop.clone()).await);
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let busy = deterministic(&d.client, n, "busy").await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut ended = 0;
        for h in hogs {
            ended += h.await.unwrap();
        }
        show("alone", &alone);
        show("with 200 LLM calls waiting", &busy);
        println!(
            "  p99 with / alone: {:.2}x; unresolved calls that ended meanwhile (each after 2 s): {ended}",
            busy.value_at_quantile(0.99) as f64 / alone.value_at_quantile(0.99) as f64
        );
    });
}
