//! `ladderd-load`: drives `Decide` over real gRPC and reports throughput and
//! latency percentiles, next to an **echo baseline** (the same service
//! returning an empty `Decision` without any work) measured in the same
//! session with the same client, so every figure comes with its
//! `ladderd / echo` ratio. See BENCHMARKS.md for the figures and the exact
//! commands.
//!
//! ```sh
//! cargo build --release --bin ladderd --bin ladderd-load
//! target/release/ladderd-load --daemon-cpu 0 --client-cpu 1 \
//!     --pools 100,1000 --inputs exact --concurrency 1,16,64
//! ```
//!
//! What it does:
//!
//! - starts `target/release/ladderd` (or `--daemon-bin`) on a free port
//!   (`LADDER_LISTEN=127.0.0.1:0`, JSON logs, the address read from its
//!   "serving" line), or uses a running daemon (`--target`);
//! - starts the echo server (`ladderd-load echo`, a child process, pinned
//!   like the daemon) unless `--no-echo`;
//! - for every pool size x input kind x concurrency: a warm-up, then a
//!   closed-loop run (each of `--concurrency` workers sends its next call
//!   when the previous one answered), against ladderd and against the echo;
//! - `--overload`: measures the sustainable rate (closed loop at the highest
//!   concurrency), then offers `--overload-factor` (2) times that rate open
//!   loop (arrivals on a fixed schedule, latency measured from the scheduled
//!   time), and reports the share shed with RESOURCE_EXHAUSTED, the p99 of
//!   the accepted calls, and whether the daemon still reports SERVING;
//! - samples the daemon's RSS (`/proc/PID/status`, VmRSS) every
//!   `--rss-interval` and reports start / end / max;
//! - `--fake-llm`: starts an instant OpenAI-compatible provider in this
//!   process and points the daemon at it, so `unresolved` inputs go through
//!   the LLM rung;
//! - `--fresh-options`: a new option set on every call (a new
//!   `option_set_id` and new candidate ids over the same labels, as an app
//!   that shows what it showed before on a new screen); `--fresh-labels`:
//!   every label new too (`samples::FreshBodies`);
//! - `--pool-reuse`: before each ladderd run, sends every session its pool
//!   once (`options.version`), then measures calls that only refer to it
//!   (`options.by_reference`): compare with the same run without the flag.
//!
//! Every call's grpc-status is checked: non-OK statuses are counted by code
//! (unlike h2load, which only sees HTTP 200). Requests are encoded once per
//! run (protobuf fields may come in any order, so the per-call session id is
//! written in front of the pre-encoded body, and a turn_id of the call's
//! own, as a client package sends, after it): the client spends its time on
//! the wire, not on re-encoding 1,000 candidates, and the same bytes go to
//! ladderd and to the echo.
//!
//! Pinning: `--daemon-cpu 0` spawns the daemon and the echo under
//! `taskset -c 0`; `--client-cpu 1` pins this process (all its threads,
//! before the runtime starts) with `taskset -a -p -c 1`. Running the tool
//! as `taskset -c 1 ladderd-load ...` is equivalent for the client.

use clap::{Args, Parser, Subcommand, ValueEnum};
use hdrhistogram::Histogram;
use ladderd::pb;
use prost::Message;
use prost::bytes::{BufMut, Bytes};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;

// The same allocator as the daemon, so the echo baseline is not handicapped.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::Channel;
use tonic::{Code, Status};

#[derive(Debug, Parser)]
#[command(name = "ladderd-load", about = "Load generator for ladderd, with an echo baseline.", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Serve the echo baseline: the Arbiter service answering every call
    /// with an empty message, without any work, behind the daemon's own
    /// transport (its listener, HTTP/2 settings and tower stack, intake
    /// included) under the daemon's configuration (defaults and LADDER_*).
    Echo {
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: String,
        /// Behind tonic's default server instead (TCP_NODELAY and the
        /// decoding limit only): what the daemon's transport costs on its
        /// own is the difference.
        #[arg(long)]
        plain: bool,
    },
    /// Serve the instant fake OpenAI-compatible provider.
    FakeLlm {
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
enum InputKind {
    /// "Links Panel D": an exact label match (EXECUTE).
    Exact,
    /// "the second one": an ordinal (EXECUTE).
    Ordinal,
    /// "links panel": matches Links Panel D and E, no winner (CLARIFY, or
    /// the LLM rung with --fake-llm).
    Unresolved,
    /// "lnks panle": only fuzzy hits, every label scored (CLARIFY).
    Fuzzy,
    /// exact, ordinal, unresolved and fuzzy in turn.
    Mix,
}

impl InputKind {
    fn name(self) -> &'static str {
        match self {
            InputKind::Exact => "exact",
            InputKind::Ordinal => "ordinal",
            InputKind::Unresolved => "unresolved",
            InputKind::Fuzzy => "fuzzy",
            InputKind::Mix => "mix",
        }
    }
    fn texts(self) -> &'static [&'static str] {
        match self {
            InputKind::Exact => &["Links Panel D"],
            InputKind::Ordinal => &["the second one"],
            InputKind::Unresolved => &["links panel"],
            InputKind::Fuzzy => &["lnks panle"],
            InputKind::Mix => &["Links Panel D", "the second one", "links panel", "lnks panle"],
        }
    }
}

#[derive(Debug, Clone, Args)]
struct RunArgs {
    /// A running daemon (host:port). Without it the tool starts --daemon-bin.
    #[arg(long)]
    target: Option<String>,
    /// The daemon binary to start.
    #[arg(long, default_value = "target/release/ladderd")]
    daemon_bin: PathBuf,
    /// Extra environment for the started daemon (repeatable), e.g.
    /// LADDER_SERVER__MAX_CONCURRENT_REQUESTS=16.
    #[arg(long = "daemon-env", value_name = "KEY=VALUE")]
    daemon_env: Vec<String>,
    /// PID of a daemon given with --target, for RSS sampling.
    #[arg(long)]
    daemon_pid: Option<u32>,
    /// CPUs for the started daemon and echo (taskset -c syntax: "0", "0-1").
    #[arg(long)]
    daemon_cpu: Option<String>,
    /// CPUs for this process (the client), set with taskset before the
    /// runtime starts.
    #[arg(long)]
    client_cpu: Option<String>,
    /// A running echo server (host:port). Without it the tool starts one.
    #[arg(long)]
    echo_target: Option<String>,
    /// Skip the echo baseline.
    #[arg(long)]
    no_echo: bool,
    /// The echo behind tonic's default server instead of the daemon's
    /// transport (listener, HTTP/2 settings, tower stack with the intake):
    /// the difference is what that transport costs on its own.
    #[arg(long)]
    echo_plain: bool,
    /// Concurrent calls in flight (closed loop), one run per value.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64")]
    concurrency: Vec<usize>,
    /// Candidates per request, one run per value.
    #[arg(long, value_delimiter = ',', default_value = "100")]
    pools: Vec<usize>,
    /// Input kinds, one run per value.
    #[arg(long, value_delimiter = ',', value_enum, default_value = "exact")]
    inputs: Vec<InputKind>,
    /// Measured time per run ("10s", "300s", "5m", "500ms").
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    duration: Duration,
    /// Calls per run instead of --duration.
    #[arg(long)]
    requests: Option<u64>,
    /// Unmeasured calls before each run, same settings.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    warmup: Duration,
    /// HTTP/2 connections the workers share (round robin).
    #[arg(long, default_value_t = 1)]
    connections: usize,
    /// Distinct session ids, used in turn (0: a new session per call).
    #[arg(long, default_value_t = 1000)]
    sessions: u64,
    /// Deadline of every call (grpc-timeout).
    #[arg(long, default_value = "1500ms", value_parser = parse_duration)]
    timeout: Duration,
    /// Start an instant fake OpenAI-compatible provider here and point the
    /// started daemon at it (unresolved inputs then call the LLM rung; each
    /// such call carries a fresh option_set_id so the loop guard does not
    /// stop repeats).
    #[arg(long)]
    fake_llm: bool,
    /// Every call carries a new option set: a new option_set_id and new
    /// candidate ids over the same labels, as when the app shows the
    /// products, rooms or actions it showed before on a new screen (each
    /// tie is then new evidence; with a shared store, decided on facts
    /// about the session in one round trip).
    #[arg(long)]
    fresh_options: bool,
    /// As --fresh-options, and every label new too: each ends with a number
    /// no earlier call had.
    #[arg(long, conflicts_with = "fresh_options")]
    fresh_labels: bool,
    /// Pool reuse: send each session's pool once with `options.version`
    /// before the run, then measure calls that refer to it by reference
    /// (no candidates on the wire). Needs --sessions > 0, and --sessions x
    /// the pool within the daemon's `sessions.pool_cache_candidates`.
    #[arg(long)]
    pool_reuse: bool,
    /// After the closed-loop runs: offer --overload-factor x the sustainable
    /// rate open loop and report shedding (per pool and input).
    #[arg(long)]
    overload: bool,
    #[arg(long, default_value_t = 2.0)]
    overload_factor: f64,
    /// Offer this many calls per second open loop instead of the closed
    /// loop (one run per pool and input).
    #[arg(long)]
    rate: Option<f64>,
    /// RSS sampling period of the daemon process.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    rss_interval: Duration,
    /// Write the results as JSON to this file ("-": stdout).
    #[arg(long)]
    json: Option<PathBuf>,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).map_or((s, "s"), |i| (&s[..i], &s[i..]));
    let n: f64 = num.parse().map_err(|_| format!("not a duration: {s:?} (e.g. 10s, 500ms, 5m)"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" | "" => n,
        "m" | "min" => n * 60.0,
        _ => return Err(format!("unknown unit in {s:?} (ms, s, m)")),
    };
    Ok(Duration::from_secs_f64(secs))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(cpus) = cli.run.client_cpu.as_deref().filter(|_| cli.command.is_none()) {
        // Pin before the runtime exists: every thread it starts inherits it,
        // and tokio sizes its worker pool from this affinity.
        let ok = Command::new("taskset")
            .args(["-a", "-p", "-c", cpus, &std::process::id().to_string()])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("ladderd-load: taskset -a -p -c {cpus} failed (is util-linux installed?)");
            return ExitCode::FAILURE;
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    match cli.command {
        Some(Cmd::Echo { listen, plain }) => rt.block_on(serve_echo(&listen, plain)),
        Some(Cmd::FakeLlm { listen }) => rt.block_on(async {
            let addr = start_fake_llm(&listen).await;
            eprintln!("serving {addr}");
            std::future::pending::<ExitCode>().await
        }),
        None => rt.block_on(run(cli.run)),
    }
}

// ------------------------------------------------------------- the echo --

struct Echo;

#[tonic::async_trait]
impl pb::arbiter_server::Arbiter for Echo {
    async fn decide(&self, _: tonic::Request<pb::DecideRequest>) -> Result<tonic::Response<pb::Decision>, Status> {
        Ok(tonic::Response::new(pb::Decision::default()))
    }
    async fn enrich(&self, _: tonic::Request<pb::EnrichRequest>) -> Result<tonic::Response<pb::Decision>, Status> {
        Ok(tonic::Response::new(pb::Decision::default()))
    }
    async fn clarify(&self, _: tonic::Request<pb::ClarifyRequest>) -> Result<tonic::Response<pb::ClarifyResponse>, Status> {
        Ok(tonic::Response::new(pb::ClarifyResponse::default()))
    }
    async fn extract(&self, _: tonic::Request<pb::ExtractRequest>) -> Result<tonic::Response<pb::ExtractResponse>, Status> {
        Ok(tonic::Response::new(pb::ExtractResponse::default()))
    }
    async fn record_outcome(
        &self,
        _: tonic::Request<pb::RecordOutcomeRequest>,
    ) -> Result<tonic::Response<pb::RecordOutcomeResponse>, Status> {
        Ok(tonic::Response::new(pb::RecordOutcomeResponse::default()))
    }
    async fn get_session(&self, _: tonic::Request<pb::GetSessionRequest>) -> Result<tonic::Response<pb::SessionState>, Status> {
        Ok(tonic::Response::new(pb::SessionState::default()))
    }
    async fn reset_session(&self, _: tonic::Request<pb::ResetSessionRequest>) -> Result<tonic::Response<pb::ResetSessionResponse>, Status> {
        Ok(tonic::Response::new(pb::ResetSessionResponse::default()))
    }
    async fn get_rollout(&self, _: tonic::Request<pb::GetRolloutRequest>) -> Result<tonic::Response<pb::RolloutState>, Status> {
        Ok(tonic::Response::new(pb::RolloutState::default()))
    }
    async fn reset_rollout(&self, _: tonic::Request<pb::ResetRolloutRequest>) -> Result<tonic::Response<pb::RolloutState>, Status> {
        Ok(tonic::Response::new(pb::RolloutState::default()))
    }
}

/// The echo server: the daemon's transport (`ladderd::grpc::serve`: its
/// listener, HTTP/2 settings and tower stack, the intake's whole-body read,
/// wire scan and memory budget included; the same decoding limits) under
/// the daemon's configuration, so that it differs from the daemon by the
/// work behind the handler only. `plain`: tonic's default server instead
/// (TCP_NODELAY and the decoding limit), for what the transport costs on
/// its own.
async fn serve_echo(listen: &str, plain: bool) -> ExitCode {
    use tokio_stream::StreamExt;
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ladderd-load echo: cannot listen on {listen}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().expect("a bound address");
    let config = match ladderd::config::load(None) {
        Ok(c) => c,
        Err(e) => {
            eprint!("ladderd-load echo: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = config.server.clone();
    let svc = pb::arbiter_server::ArbiterServer::new(Echo)
        .max_decoding_message_size(server.max_message_bytes)
        .max_encoding_message_size(server.max_message_bytes.max(4 * 1024 * 1024));
    eprintln!("serving {addr}");
    let served = if plain {
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener).map(|c| {
            c.and_then(|s| {
                s.set_nodelay(true)?;
                Ok(s)
            })
        });
        tonic::transport::Server::builder().add_service(svc).serve_with_incoming(incoming).await
    } else {
        // The daemon's log subscriber (and exporters, when configured): the
        // stack's request spans cost what they cost in the daemon.
        let _telemetry = ladderd::telemetry::init(&config.telemetry);
        let daemon = match ladderd::daemon::Daemon::new(config) {
            Ok(d) => std::sync::Arc::new(d),
            Err(e) => {
                eprintln!("ladderd-load echo: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (_, health) = tonic_health::server::health_reporter();
        let routes = tonic::service::Routes::new(health).add_service(svc);
        let connections = ladderd::grpc::listener::Connections::new(server.max_connections);
        let stats = std::sync::Arc::new(ladderd::grpc::stack::StackStats::default());
        ladderd::grpc::serve(listener, connections, &server, stats, daemon, routes, std::future::pending()).await
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ladderd-load echo: {e}");
            ExitCode::FAILURE
        }
    }
}

// ----------------------------------------------------- the fake provider --

/// The reply of the instant provider: a confident pick inside the tie of
/// "links panel" (Links Panel D / E).
const FAKE_REPLY: &str = r#"{"id":"cmpl-load","object":"chat.completion","model":"fake","choices":[{"index":0,"message":{"role":"assistant","content":"{\"decision\":\"select\",\"choice_id\":\"links-panel-d\",\"confidence\":0.9,\"needed_evidence_types\":[]}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}}"#;

/// An OpenAI-compatible provider answering every POST at once with
/// `FAKE_REPLY` (HTTP/1.1 with keep-alive, like a real one behind reqwest).
async fn start_fake_llm(listen: &str) -> SocketAddr {
    use http_body_util::{BodyExt, Full};
    use hyper::service::service_fn;
    let listener = tokio::net::TcpListener::bind(listen).await.expect("the fake provider binds");
    let addr = listener.local_addr().expect("a bound address");
    tokio::spawn(async move {
        while let Ok((sock, _)) = listener.accept().await {
            let _ = sock.set_nodelay(true);
            tokio::spawn(async move {
                let svc = service_fn(|req: hyper::Request<hyper::body::Incoming>| async move {
                    let _ = req.into_body().collect().await;
                    let resp = hyper::Response::builder()
                        .header("content-type", "application/json")
                        .body(Full::new(hyper::body::Bytes::from_static(FAKE_REPLY.as_bytes())))
                        .expect("a valid response");
                    Ok::<_, std::convert::Infallible>(resp)
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(sock), svc).await;
            });
        }
    });
    addr
}

// --------------------------------------------------------------- servers --

/// A server under test: started by the tool (then stopped at the end) or
/// given by address.
struct Server {
    name: &'static str,
    addr: String,
    pid: Option<u32>,
    child: Option<Child>,
    /// The last lines the child wrote on stderr (a panic message, ...).
    tail: Arc<Mutex<std::collections::VecDeque<String>>>,
}

impl Server {
    fn alive(&mut self) -> bool {
        match &mut self.child {
            Some(c) => matches!(c.try_wait(), Ok(None)),
            None => true,
        }
    }
    /// How the child ended and what it said last.
    fn obituary(&mut self) -> String {
        let status = self.child.as_mut().and_then(|c| c.try_wait().ok().flatten()).map_or("?".to_string(), |s| s.to_string());
        let tail: Vec<String> = self.tail.lock().expect("tail").iter().cloned().collect();
        format!("{} exited ({status}); its last stderr lines:\n{}", self.name, tail.join(""))
    }
    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = Command::new("kill").args(["-TERM", &c.id().to_string()]).status();
            let t = Instant::now();
            while t.elapsed() < Duration::from_secs(5) {
                if matches!(c.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn pinned(cpus: Option<&str>, program: &std::path::Path) -> Command {
    match cpus {
        Some(c) => {
            let mut cmd = Command::new("taskset");
            cmd.arg("-c").arg(c).arg(program);
            cmd
        }
        None => Command::new(program),
    }
}

/// Starts `cmd` with stderr piped, waits for its "serving" line (the
/// daemon's JSON log or the echo's plain line), then keeps draining stderr
/// in a thread so the child never blocks on a full pipe.
fn spawn_server(name: &'static str, mut cmd: Command) -> Result<Server, String> {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot start {name} ({cmd:?}): {e}"))?;
    let pid = child.id();
    let stderr = child.stderr.take().expect("piped stderr");
    let mut reader = BufReader::new(stderr);
    let started = Instant::now();
    let mut line = String::new();
    let mut seen = Vec::new();
    let addr = loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => {
                let _ = child.kill();
                return Err(format!("{name} exited before serving; its stderr:\n{}", seen.join("")));
            }
            Ok(_) => {}
        }
        if let Some(a) = serving_addr(&line) {
            break a;
        }
        seen.push(line.clone());
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            return Err(format!("{name} did not report serving within 30 s"));
        }
    };
    let tail = Arc::new(Mutex::new(std::collections::VecDeque::new()));
    let keep = tail.clone();
    std::thread::spawn(move || {
        let mut line = String::new();
        loop {
            line.clear();
            if !matches!(reader.read_line(&mut line), Ok(n) if n > 0) {
                break;
            }
            let mut t = keep.lock().expect("tail");
            if t.len() == 30 {
                t.pop_front();
            }
            t.push_back(line.clone());
        }
    });
    Ok(Server { name, addr, pid: Some(pid), child: Some(child), tail })
}

fn serving_addr(line: &str) -> Option<String> {
    if let Some(rest) = line.trim().strip_prefix("serving ") {
        return Some(rest.trim().to_string());
    }
    let v: Value = serde_json::from_str(line.trim()).ok()?;
    let f = &v["fields"];
    (f["message"] == "serving").then(|| f["addr"].as_str().map(str::to_string)).flatten()
}

async fn connect(addr: &str, n: usize) -> Result<Vec<Channel>, String> {
    let mut out = Vec::new();
    for _ in 0..n.max(1) {
        let ep = Channel::from_shared(format!("http://{addr}")).map_err(|e| e.to_string())?.tcp_nodelay(true);
        let mut last = String::new();
        let mut ch = None;
        for _ in 0..100 {
            match ep.connect().await {
                Ok(c) => {
                    ch = Some(c);
                    break;
                }
                Err(e) => last = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        out.push(ch.ok_or_else(|| format!("cannot connect to {addr}: {last}"))?);
    }
    Ok(out)
}

// -------------------------------------------------------------- payloads --

/// The pre-encoded requests of one run (without `session_id`, which each
/// call writes in front).
struct Payload {
    bodies: Vec<Bytes>,
    /// With `--pool-reuse`: the call that puts the pool in a session's
    /// cache (candidates and a version); `bodies` then only refer to it.
    prime: Option<Bytes>,
    /// Distinct session ids used in turn; 0 for a new one per call.
    sessions: u64,
    /// Append a fresh `options.option_set_id` to each call (a new loop-guard
    /// key, so an unresolved input reaches the LLM every time).
    fresh_option_set: bool,
    /// With --fresh-options or --fresh-labels: each call's body is made
    /// anew from these (one per input text), instead of `bodies`.
    fresh: Vec<ladderd_load::samples::FreshBodies>,
    bytes: usize,
}

fn payload(
    pool_size: usize,
    input: InputKind,
    sessions: u64,
    fake_llm: bool,
    fresh: Option<ladderd_load::samples::Fresh>,
    pool_reuse: bool,
) -> Payload {
    let candidates = ladderd_load::samples::pool(pool_size);
    let encode = |text: &str, options: pb::OptionSet| {
        let req = pb::DecideRequest {
            turn_id: "turn-1".into(),
            input: text.into(),
            active_scope: Some(pb::ScopeRef { scope: pb::Scope::Chat as i32, instance_id: "chat-1".into() }),
            options: Some(options),
            ..Default::default()
        };
        Bytes::from(req.encode_to_vec())
    };
    let full = pb::OptionSet {
        option_set_id: "set-1".into(),
        scope: pb::Scope::Chat as i32,
        candidates,
        version: if pool_reuse { "v1".into() } else { String::new() },
        ..Default::default()
    };
    let options = if pool_reuse {
        pb::OptionSet { option_set_id: "set-1".into(), version: "v1".into(), by_reference: true, ..Default::default() }
    } else {
        full.clone()
    };
    let bodies: Vec<Bytes> = input.texts().iter().map(|text| encode(text, options.clone())).collect();
    let prime = pool_reuse.then(|| encode(input.texts()[0], full));
    let fresh: Vec<_> = fresh
        .map_or_else(Vec::new, |f| input.texts().iter().map(|text| ladderd_load::samples::FreshBodies::new(pool_size, text, f)).collect());
    let bytes = fresh.iter().map(|f| f.len()).chain(bodies.iter().map(Bytes::len)).max().unwrap_or(0);
    let unresolved = matches!(input, InputKind::Unresolved | InputKind::Mix);
    Payload { bodies, prime, sessions, fresh_option_set: fake_llm && unresolved && fresh.is_empty(), fresh, bytes }
}

/// `--pool-reuse`: puts the pool in the cache of every session the run
/// uses (16 calls in flight).
async fn prime_sessions(ch: &[Channel], p: &Payload, timeout: Duration) -> Result<(), String> {
    let Some(prime) = &p.prime else { return Ok(()) };
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks: tokio::task::JoinSet<Result<(), String>> = tokio::task::JoinSet::new();
    for w in 0..16 {
        let (mut grpc, next, prime, sessions) =
            (tonic::client::Grpc::new(ch[w % ch.len()].clone()), next.clone(), prime.clone(), p.sessions);
        tasks.spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= sessions {
                    return Ok(());
                }
                let call = Call { session_id: format!("load-{n}"), option_set_id: None, body: prime.clone(), turn: 0 };
                send(&mut grpc, call, timeout).await.map_err(|s| format!("priming session load-{n}: {:?}: {}", s.code(), s.message()))?;
            }
        });
    }
    while let Some(r) = tasks.join_next().await {
        r.map_err(|e| format!("priming task: {e}"))??;
    }
    Ok(())
}

/// One call on the wire: a session id (field 1) and the rest of the
/// request, already encoded, then its own turn_id; optionally a later `options` (field 5) whose
/// option_set_id overrides the first (protobuf merges repeated embedded
/// messages; the last scalar wins).
struct Call {
    session_id: String,
    option_set_id: Option<String>,
    body: Bytes,
    /// A turn_id of the call's own (field 2, after the body's: the last
    /// wins), as a client package gives each Decide; 0 for the body's.
    turn: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct RawCodec;

struct RawEncoder;
struct DecisionDecoder;

impl Codec for RawCodec {
    type Encode = Call;
    type Decode = pb::Decision;
    type Encoder = RawEncoder;
    type Decoder = DecisionDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> DecisionDecoder {
        DecisionDecoder
    }
}

impl Encoder for RawEncoder {
    type Item = Call;
    type Error = Status;
    fn encode(&mut self, call: Call, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        prost::encoding::string::encode(1, &call.session_id, dst);
        dst.put_slice(&call.body);
        if call.turn != 0 {
            prost::encoding::string::encode(2, &format!("load-turn-{}", call.turn), dst);
        }
        if let Some(id) = call.option_set_id {
            let set = pb::OptionSet { option_set_id: id, scope: pb::Scope::Chat as i32, candidates: Vec::new(), ..Default::default() };
            prost::encoding::message::encode(5, &set, dst);
        }
        Ok(())
    }
}

impl Decoder for DecisionDecoder {
    type Item = pb::Decision;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<pb::Decision>, Status> {
        pb::Decision::decode(src).map(Some).map_err(|e| Status::internal(format!("undecodable Decision: {e}")))
    }
}

/// A new session id for every call, across runs.
static UNIQUE: AtomicU64 = AtomicU64::new(0);

/// Set when a started server died: every run stops at once.
static ABORT: AtomicBool = AtomicBool::new(false);

/// Whether a process is gone (exited, or a zombie not yet reaped).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next()).is_none_or(|c| c == 'Z' || c == 'X'),
        Err(_) => true,
    }
}

/// Watches the started servers; sets `ABORT` when one dies.
fn watchdog(pids: Vec<u32>) {
    std::thread::spawn(move || {
        while !ABORT.load(Ordering::Relaxed) {
            if pids.iter().any(|p| gone(*p)) {
                ABORT.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
}

fn call_for(p: &Payload, worker: usize, i: u64, stride: u64) -> Call {
    let n = worker as u64 + i * stride;
    let session_id =
        if p.sessions == 0 { format!("load-u{}", UNIQUE.fetch_add(1, Ordering::Relaxed)) } else { format!("load-{}", n % p.sessions) };
    let option_set_id = p.fresh_option_set.then(|| format!("set-{}", UNIQUE.fetch_add(1, Ordering::Relaxed)));
    let turn = UNIQUE.fetch_add(1, Ordering::Relaxed) + 1;
    let body = match &p.fresh[..] {
        [] => p.bodies[(n % p.bodies.len() as u64) as usize].clone(),
        fresh => Bytes::from(fresh[(n % fresh.len() as u64) as usize].body(UNIQUE.fetch_add(1, Ordering::Relaxed))),
    };
    Call { session_id, option_set_id, body, turn }
}

const DECIDE: &str = "/ladder.v1.Arbiter/Decide";

async fn send(grpc: &mut tonic::client::Grpc<Channel>, call: Call, timeout: Duration) -> Result<pb::Decision, Status> {
    grpc.ready().await.map_err(|e| Status::unavailable(format!("not ready: {e}")))?;
    let mut req = tonic::Request::new(call);
    req.set_timeout(timeout);
    grpc.unary(req, http::uri::PathAndQuery::from_static(DECIDE), RawCodec).await.map(tonic::Response::into_inner)
}

// ------------------------------------------------------------ recording --

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 120_000_000, 3).expect("valid histogram bounds")
}

/// What one worker (or one run) saw.
struct Tally {
    /// Latency of OK calls, microseconds.
    ok: Histogram<u64>,
    errors: BTreeMap<String, u64>,
    /// Last error message per code (shown once).
    messages: BTreeMap<String, String>,
    outcomes: BTreeMap<String, u64>,
}

impl Tally {
    fn new() -> Self {
        Tally { ok: histogram(), errors: BTreeMap::new(), messages: BTreeMap::new(), outcomes: BTreeMap::new() }
    }
    fn record(&mut self, us: u64, r: &Result<pb::Decision, Status>) {
        match r {
            Ok(d) => {
                self.ok.saturating_record(us.max(1));
                // EXECUTE, CLARIFY/LLM_DISABLED, CLARIFY/llm:select, ...
                let mut key = d.outcome().as_str_name().trim_start_matches("OUTCOME_").to_string();
                if d.fallback_reason != 0 {
                    key = format!("{key}/{}", d.fallback_reason().as_str_name().trim_start_matches("FALLBACK_REASON_"));
                }
                if let Some(l) = d.llm.as_ref().filter(|l| l.called) {
                    key = format!("{key}/llm:{}", l.verdict);
                }
                *self.outcomes.entry(key).or_default() += 1;
            }
            Err(s) => {
                let code = code_name(s.code());
                *self.errors.entry(code.clone()).or_default() += 1;
                self.messages.insert(code, s.message().chars().take(160).collect());
            }
        }
    }
    fn merge(&mut self, other: Tally) {
        self.ok.add(&other.ok).expect("same histogram bounds");
        for (k, v) in other.errors {
            *self.errors.entry(k).or_default() += v;
        }
        self.messages.extend(other.messages);
        for (k, v) in other.outcomes {
            *self.outcomes.entry(k).or_default() += v;
        }
    }
}

fn code_name(c: Code) -> String {
    match c {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
    .to_string()
}

/// One measured run.
struct RunResult {
    target: &'static str,
    mode: &'static str,
    pool: usize,
    input: InputKind,
    concurrency: usize,
    /// Offered rate (open loop).
    offered_rate: Option<f64>,
    elapsed: Duration,
    tally: Tally,
    /// Open loop: calls not sent because the client's own bound was full.
    client_dropped: u64,
    started_at: f64,
    ended_at: f64,
}

impl RunResult {
    fn ok(&self) -> u64 {
        self.tally.ok.len()
    }
    fn total(&self) -> u64 {
        self.ok() + self.tally.errors.values().sum::<u64>()
    }
    fn throughput(&self) -> f64 {
        self.ok() as f64 / self.elapsed.as_secs_f64()
    }
    fn q(&self, q: f64) -> u64 {
        if self.ok() == 0 { 0 } else { self.tally.ok.value_at_quantile(q) }
    }
    fn json(&self) -> Value {
        json!({
            "target": self.target,
            "mode": self.mode,
            "pool": self.pool,
            "input": self.input.name(),
            "concurrency": self.concurrency,
            "offered_rate": self.offered_rate,
            "seconds": self.elapsed.as_secs_f64(),
            "calls": self.total(),
            "ok": self.ok(),
            "errors": self.tally.errors,
            "error_messages": self.tally.messages,
            "outcomes": self.tally.outcomes,
            "client_dropped": self.client_dropped,
            "throughput": self.throughput(),
            "latency_us": {
                "p50": self.q(0.5), "p90": self.q(0.9), "p99": self.q(0.99), "p999": self.q(0.999),
                "max": self.tally.ok.max(), "mean": self.tally.ok.mean(),
            },
        })
    }
}

/// When a closed-loop run stops.
#[derive(Clone)]
enum Stop {
    At(Instant),
    After(Arc<AtomicU64>, u64),
}

impl Stop {
    fn take(&self) -> bool {
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

// ------------------------------------------------------------------ RSS --

/// Samples a process's VmRSS (kB) every `every` in a thread.
struct RssSampler {
    samples: Arc<Mutex<Vec<(f64, u64)>>>,
    stop: Arc<AtomicBool>,
}

fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

impl RssSampler {
    fn start(pid: u32, every: Duration, epoch: Instant) -> Self {
        let samples = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (samples.clone(), stop.clone());
        std::thread::spawn(move || {
            while !st.load(Ordering::Relaxed) {
                match rss_kb(pid) {
                    Some(kb) => s.lock().expect("samples").push((epoch.elapsed().as_secs_f64(), kb)),
                    None => break,
                }
                std::thread::sleep(every);
            }
        });
        RssSampler { samples, stop }
    }
    fn window(&self, from: f64, to: f64) -> Option<(u64, u64, u64)> {
        let s = self.samples.lock().expect("samples");
        let w: Vec<u64> = s.iter().filter(|(t, _)| *t >= from && *t <= to).map(|(_, kb)| *kb).collect();
        Some((*w.first()?, *w.last()?, *w.iter().max()?))
    }
}

impl Drop for RssSampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

// ------------------------------------------------------------------ run --

fn fmt_us(us: u64) -> String {
    if us >= 10_000 { format!("{:.1}ms", us as f64 / 1000.0) } else { format!("{:.3}ms", us as f64 / 1000.0) }
}

fn print_header() {
    println!(
        "{:<8} {:<6} {:>5} {:<10} {:>5} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  errors / outcomes",
        "target", "mode", "pool", "input", "conc", "calls/s", "p50", "p90", "p99", "p99.9", "max", "ok"
    );
}

fn print_run(r: &RunResult) {
    let errors: Vec<String> = r.tally.errors.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let outcomes: Vec<String> = r.tally.outcomes.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!(
        "{:<8} {:<6} {:>5} {:<10} {:>5} {:>10.0} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  {}{}",
        r.target,
        r.mode,
        r.pool,
        r.input.name(),
        if r.mode == "open" { "-".to_string() } else { r.concurrency.to_string() },
        r.throughput(),
        fmt_us(r.q(0.5)),
        fmt_us(r.q(0.9)),
        fmt_us(r.q(0.99)),
        fmt_us(r.q(0.999)),
        fmt_us(r.tally.ok.max()),
        r.ok(),
        if errors.is_empty() { String::new() } else { format!("[{}] ", errors.join(" ")) },
        outcomes.join(" "),
    );
    for (code, msg) in &r.tally.messages {
        println!("         {code}: {msg}");
    }
}

fn machine() -> Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())))
        .unwrap_or_default();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default().trim().to_string();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    json!({"cpu": cpu, "cpus_online": num_cpus_online(), "client_threads": cores, "kernel": kernel})
}

fn num_cpus_online() -> usize {
    std::fs::read_to_string("/sys/devices/system/cpu/online")
        .ok()
        .map(|s| {
            s.trim()
                .split(',')
                .map(|r| match r.split_once('-') {
                    Some((a, b)) => b.parse::<usize>().unwrap_or(0) + 1 - a.parse::<usize>().unwrap_or(0),
                    None => 1,
                })
                .sum()
        })
        .unwrap_or(0)
}

async fn health(channel: &Channel) -> Vec<(String, String)> {
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

struct Targets {
    daemon: Server,
    daemon_ch: Vec<Channel>,
    echo: Option<(Server, Vec<Channel>)>,
}

async fn start_targets(a: &RunArgs, fake_llm: Option<SocketAddr>) -> Result<Targets, String> {
    // With only the client pinned, children would inherit its CPUs: give
    // them every CPU unless --daemon-cpu says otherwise.
    let all = format!("0-{}", num_cpus_online().max(1) - 1);
    let server_cpus = a.daemon_cpu.clone().or_else(|| a.client_cpu.as_ref().map(|_| all.clone()));
    let daemon = match &a.target {
        Some(addr) => Server { name: "ladderd", addr: addr.clone(), pid: a.daemon_pid, child: None, tail: Default::default() },
        None => {
            let mut cmd = pinned(server_cpus.as_deref(), &a.daemon_bin);
            cmd.env("LADDER_LISTEN", "127.0.0.1:0").env("LADDER_TELEMETRY__LOG_FORMAT", "json");
            if let Some(addr) = fake_llm {
                cmd.env("LADDER_LLM__BASE_URL", format!("http://{addr}/v1")).env("LADDER_LLM__MODEL", "fake");
            }
            for kv in &a.daemon_env {
                let (k, v) = kv.split_once('=').ok_or_else(|| format!("--daemon-env {kv:?}: expected KEY=VALUE"))?;
                cmd.env(k, v);
            }
            spawn_server("ladderd", cmd)?
        }
    };
    let daemon_ch = connect(&daemon.addr, a.connections).await?;
    let echo = if a.no_echo {
        None
    } else {
        let server = match &a.echo_target {
            Some(addr) => Server { name: "echo", addr: addr.clone(), pid: None, child: None, tail: Default::default() },
            None => {
                let exe = std::env::current_exe().map_err(|e| e.to_string())?;
                let mut cmd = pinned(server_cpus.as_deref(), &exe);
                cmd.args(["echo", "--listen", "127.0.0.1:0"]);
                if a.echo_plain {
                    cmd.arg("--plain");
                }
                // The daemon's configuration from the environment, for the
                // echo's transport too.
                for kv in &a.daemon_env {
                    if let Some((k, v)) = kv.split_once('=') {
                        cmd.env(k, v);
                    }
                }
                spawn_server("echo", cmd)?
            }
        };
        let ch = connect(&server.addr, a.connections).await?;
        Some((server, ch))
    };
    Ok(Targets { daemon, daemon_ch, echo })
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

/// The error for a server that died during the runs.
fn dead(t: &mut Targets) -> String {
    let mut out = Vec::new();
    if !t.daemon.alive() {
        out.push(t.daemon.obituary());
    }
    if let Some((e, _)) = t.echo.as_mut().filter(|(e, _)| e.child.is_some())
        && !e.alive()
    {
        out.push(e.obituary());
    }
    if out.is_empty() { "a server died during the run".into() } else { out.join("\n") }
}

async fn run(a: RunArgs) -> ExitCode {
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
