//! Test helpers: the real daemon on port 0, real tonic clients, and fake
//! LLM providers at the HTTP edge.

use ladderd::app::App;
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::arbiter_client::ArbiterClient;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::io::AsyncBufReadExt;
use tokio::sync::oneshot;
use tonic::transport::Channel;

/// Tests that keep both cores busy (floods of heavy calls) or measure
/// latency against a bound take this for their whole run, so that no two
/// of them run at once: the test binary runs two tests at a time on a
/// two-core machine, and two floods together leave each half of what it
/// measures.
pub async fn exclusive() -> tokio::sync::MutexGuard<'static, ()> {
    static LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    LOCK.lock().await
}

/// Where a test daemon keeps its sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Memory,
    /// `sessions.backend = "redis"` on Redis 7.
    Redis,
    /// `sessions.backend = "redis"` on Valkey 8.
    Valkey,
}

/// `config` on the `redis` backend, against `server`.
pub fn on_redis(mut config: Config, server: &crate::redis_server::RedisServer) -> Config {
    config.sessions.backend = ladderd::config::SessionBackend::Redis;
    config.sessions.redis.url = Some(ladderd::config::Secret(server.url()));
    // Generous: a loaded test machine must not turn a slow answer into a
    // store fault (the fault tests set their own).
    config.sessions.redis.timeout_ms = 2_000;
    config
}

/// A daemon running in this process until dropped.
pub struct TestDaemon {
    pub addr: SocketAddr,
    /// The admin listener's address, when the config has `admin.listen`.
    pub admin: Option<SocketAddr>,
    /// The daemon itself, for what tests do in process (reloads).
    pub daemon: std::sync::Arc<ladderd::daemon::Daemon>,
    pub client: ArbiterClient<Channel>,
    pub channel: Channel,
    stop: Option<oneshot::Sender<()>>,
    /// The Redis server of a daemon started with `on`, alive as long as it.
    pub redis: Option<std::sync::Arc<crate::redis_server::RedisServer>>,
}

impl TestDaemon {
    pub async fn start(mut config: Config) -> TestDaemon {
        config.listen = "127.0.0.1:0".into();
        config.validate().expect("test config is valid");
        let app = App::build(config).await.expect("app builds");
        let addr = app.local_addr();
        let admin = app.admin_addr();
        let daemon = app.daemon();
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            app.run_until(async {
                let _ = rx.await;
            })
            .await
            .expect("server runs");
        });
        let channel = connect(addr).await;
        TestDaemon { addr, admin, daemon, client: ArbiterClient::new(channel.clone()), channel, stop: Some(tx), redis: None }
    }

    /// A daemon on `backend` (with a Redis server of its own for `Redis`).
    pub async fn on(backend: Backend, config: Config) -> TestDaemon {
        match backend {
            Backend::Memory => Self::start(config).await,
            Backend::Redis | Backend::Valkey => {
                let kind =
                    if backend == Backend::Valkey { crate::redis_server::Server::Valkey } else { crate::redis_server::Server::Redis };
                let server = std::sync::Arc::new(crate::redis_server::RedisServer::start_on(kind, &[]));
                let mut d = Self::start(on_redis(config, &server)).await;
                d.redis = Some(server);
                d
            }
        }
    }

    pub async fn default() -> TestDaemon {
        Self::start(Config::default()).await
    }

    /// Starts the shutdown (health NOT_SERVING, drain).
    pub fn shutdown(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

impl Drop for TestDaemon {
    fn drop(&mut self) {
        self.shutdown();
    }
}

pub async fn connect(addr: SocketAddr) -> Channel {
    for _ in 0..100 {
        if let Ok(ch) = Channel::from_shared(format!("http://{addr}")).unwrap().connect().await {
            return ch;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("cannot connect to {addr}");
}

pub use ladderd_load::samples::cand;

/// The apps' standard option set: Links Panels, Links Panel D, Links Panel E.
/// The panels request (`panels_request`) on a session of its own.
pub fn session_request(session: &str, input: &str) -> pb::DecideRequest {
    let mut r = panels_request(input);
    r.session_id = session.into();
    r
}

/// A request whose "from chat" cue names an empty scope: it asks for the
/// chat's recoverable options (NEED_MORE_INFO, a cycle).
pub fn scope_request(session: &str) -> pb::DecideRequest {
    pb::DecideRequest {
        session_id: session.into(),
        input: "open panel d from chat".into(),
        widget_items: vec![cand("w-1", "Panel D")],
        ..Default::default()
    }
}

/// The chat's recoverable options an app supplies for `scope_request`.
pub fn chat_options() -> pb::EvidenceBlock {
    pb::EvidenceBlock {
        r#type: "chat_recoverable_options".into(),
        candidates: vec![cand("chat-d", "Links Panel D"), cand("chat-e", "Links Panel E")],
        excerpt: String::new(),
    }
}

/// `Enrich` of `cycle` with `chat_options`.
pub fn chat_evidence(session: &str, cycle: &str) -> pb::EnrichRequest {
    pb::EnrichRequest { session_id: session.into(), loop_cycle_id: cycle.into(), evidence: vec![chat_options()], ..Default::default() }
}

/// Runs each named `async fn(Backend)` on every session backend:
/// `memory::NAME`, `redis::NAME` and `valkey::NAME` (the redis backend on
/// Valkey).
macro_rules! on_every_backend {
    ($($name:ident),* $(,)?) => {
        mod memory {
            $(#[tokio::test]
            async fn $name() {
                super::$name(crate::helpers::Backend::Memory).await
            })*
        }
        mod redis {
            $(#[tokio::test]
            async fn $name() {
                super::$name(crate::helpers::Backend::Redis).await
            })*
        }
        mod valkey {
            $(#[tokio::test]
            async fn $name() {
                super::$name(crate::helpers::Backend::Valkey).await
            })*
        }
    };
}
pub(crate) use on_every_backend;

pub fn panels_request(input: &str) -> pb::DecideRequest {
    pb::DecideRequest { turn_id: next_turn_id(), ..ladderd_load::samples::panels_request("session-1", input) }
}

/// A turn_id of its own, as the client packages give each `Decide` call
/// (a request sent again with it is that turn repeated).
pub fn next_turn_id() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("turn-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A TCP server that accepts connections and never answers: a provider
/// that hangs.
pub async fn hanging_provider() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::Relaxed);
            held.push(sock);
        }
    });
    (format!("http://{addr}/v1"), accepted)
}

/// Waits until `done` holds, checking every 10 ms, for at most `limit`;
/// fails saying `what` never happened. What a test waits for, it polls:
/// a fixed sleep is too short on a loaded machine and too long elsewhere.
pub async fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let end = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < end, "{what} (waited {limit:?})");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A config with the LLM rung pointed at `base_url`.
pub fn with_llm(base_url: &str, timeout_ms: u64) -> Config {
    let mut c = Config::default();
    c.llm.base_url = Some(base_url.into());
    c.llm.model = Some("test-model".into());
    c.llm.timeout_ms = timeout_ms;
    c
}

/// Runs the real binary; returns it and the address it serves on.
pub async fn spawn_binary(envs: &[(&str, &str)]) -> (tokio::process::Child, String, Instant) {
    spawn_command(tokio::process::Command::new(env!("CARGO_BIN_EXE_ladderd")), envs).await
}

/// Runs the real binary allowed to open at most `files` files (`ulimit -n`).
pub async fn spawn_binary_with_fd_limit(files: u32, envs: &[(&str, &str)]) -> (tokio::process::Child, String, Instant) {
    let mut command = tokio::process::Command::new("/bin/sh");
    command.args(["-c", &format!("ulimit -n {files} && exec \"$0\""), env!("CARGO_BIN_EXE_ladderd")]);
    spawn_command(command, envs).await
}

async fn spawn_command(command: tokio::process::Command, envs: &[(&str, &str)]) -> (tokio::process::Child, String, Instant) {
    let started = Instant::now();
    let (child, addr, _, mut lines) = start_logged(command, envs).await;
    // Keep draining stderr so the child never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr, started)
}

/// The rest of a binary's log, a line at a time.
pub type LogLines = tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStderr>>;

/// Runs the real binary with JSON logs; returns it, the address it serves
/// on, its log lines up to the "serving" line, and the rest of its log
/// (read it, or the child blocks once the pipe is full).
pub async fn spawn_binary_logged(envs: &[(&str, &str)]) -> (tokio::process::Child, String, Vec<serde_json::Value>, LogLines) {
    start_logged(tokio::process::Command::new(env!("CARGO_BIN_EXE_ladderd")), envs).await
}

async fn start_logged(
    mut command: tokio::process::Command,
    envs: &[(&str, &str)],
) -> (tokio::process::Child, String, Vec<serde_json::Value>, LogLines) {
    let mut child = command
        .env_clear()
        .env("LADDER_LISTEN", "127.0.0.1:0")
        .env("LADDER_TELEMETRY__LOG_FORMAT", "json")
        .envs(envs.iter().copied())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut log = Vec::new();
    let addr = loop {
        let line =
            tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await.expect("log line").unwrap().expect("serving line");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        log.push(v.clone());
        if v["fields"]["message"] == "serving" {
            break v["fields"]["addr"].as_str().unwrap().to_string();
        }
    };
    (child, addr, log, lines)
}

pub fn sigterm(child: &tokio::process::Child) {
    let pid = child.id().unwrap().to_string();
    assert!(std::process::Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
}

/// A codec that sends the bytes it is given as the request message and
/// hands back the answer's bytes: a client that can send anything.
#[derive(Clone, Copy, Default)]
pub struct RawCodec;

impl tonic::codec::Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawCodec;
    type Decoder = RawCodec;
    fn encoder(&mut self) -> Self::Encoder {
        RawCodec
    }
    fn decoder(&mut self) -> Self::Decoder {
        RawCodec
    }
}

impl tonic::codec::Encoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn encode(&mut self, item: Vec<u8>, dst: &mut tonic::codec::EncodeBuf<'_>) -> Result<(), tonic::Status> {
        bytes::BufMut::put_slice(dst, &item);
        Ok(())
    }
}

impl tonic::codec::Decoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn decode(&mut self, src: &mut tonic::codec::DecodeBuf<'_>) -> Result<Option<Vec<u8>>, tonic::Status> {
        use bytes::Buf;
        Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
    }
}

/// Sends `body` as the request message of `path` ("/ladder.v1.Arbiter/Decide").
pub async fn raw_call(channel: &Channel, path: &'static str, body: Vec<u8>) -> Result<Vec<u8>, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel.clone());
    grpc.ready().await.map_err(|e| tonic::Status::unavailable(e.to_string()))?;
    grpc.unary(tonic::Request::new(body), http::uri::PathAndQuery::from_static(path), RawCodec).await.map(tonic::Response::into_inner)
}

/// An OpenAI chat completion whose message is `content`.
pub fn completion(content: &str) -> serde_json::Value {
    serde_json::json!({
        "id": "cmpl-1", "object": "chat.completion", "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 20}
    })
}

/// The LLM's reply picking `id`.
pub fn select(id: &str, confidence: f64) -> String {
    serde_json::json!({"decision": "select", "choice_id": id, "confidence": confidence, "needed_evidence_types": []}).to_string()
}

/// A raw HTTP/2 connection (h2), with the stream window it grants.
pub async fn h2_client(addr: SocketAddr, window: Option<u32>) -> h2::client::SendRequest<bytes::Bytes> {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut b = h2::client::Builder::new();
    if let Some(w) = window {
        b.initial_window_size(w);
    }
    let (send, conn) = b.handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
    send
}

pub fn grpc_post(addr: SocketAddr, path: &str) -> http::Request<()> {
    http::Request::post(format!("http://{addr}{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap()
}

/// `message` with its gRPC header.
pub fn framed(message: &impl prost::Message) -> bytes::Bytes {
    framed_bytes(&message.encode_to_vec())
}

/// Protobuf bytes with their gRPC header.
pub fn framed_bytes(m: &[u8]) -> bytes::Bytes {
    let mut v = vec![0];
    v.extend_from_slice(&(m.len() as u32).to_be_bytes());
    v.extend_from_slice(m);
    v.into()
}

/// The grpc-status of an answer (headers of a trailers-only answer).
pub fn grpc_status(headers: &http::HeaderMap) -> Option<(i32, String)> {
    let code = headers.get("grpc-status")?.to_str().ok()?.parse().ok()?;
    let msg = headers.get("grpc-message").and_then(|m| m.to_str().ok()).unwrap_or("").replace("%20", " ");
    Some((code, msg))
}

/// One unary call over a raw HTTP/2 connection: its grpc-status and
/// message, from the headers of a trailers-only answer or the trailers
/// after the body.
pub async fn h2_call(send: &h2::client::SendRequest<bytes::Bytes>, addr: SocketAddr, path: &str, message: bytes::Bytes) -> (i32, String) {
    let mut ready = send.clone().ready().await.expect("the connection is open");
    let (response, mut body) = ready.send_request(grpc_post(addr, path), false).expect("a stream");
    body.send_data(message, true).expect("the request body is sent");
    let response = response.await.expect("an answer");
    if let Some(status) = grpc_status(response.headers()) {
        return status;
    }
    let mut answer = response.into_body();
    while let Some(chunk) = answer.data().await {
        let chunk = chunk.expect("the answer's body");
        let _ = answer.flow_control().release_capacity(chunk.len());
    }
    let trailers = answer.trailers().await.expect("trailers").expect("a grpc-status");
    grpc_status(&trailers).expect("a grpc-status")
}

/// A TCP proxy in front of a daemon that loses one answer: while armed,
/// the first response it sees (an HTTP/2 HEADERS frame from the daemon on
/// a stream: the daemon has read the request and answered it) is not
/// passed on, and both connections are cut, as a network that fails after
/// the request arrived. Every other byte goes through unchanged.
pub struct CuttingProxy {
    pub addr: SocketAddr,
    armed: Arc<std::sync::atomic::AtomicBool>,
    /// Answers lost so far.
    pub cuts: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl CuttingProxy {
    pub async fn start(upstream: SocketAddr) -> CuttingProxy {
        use std::sync::atomic::AtomicBool;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (armed, cuts) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
        let (armed2, cuts2) = (armed.clone(), cuts.clone());
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (armed, cuts) = (armed2.clone(), cuts2.clone());
                tokio::spawn(async move {
                    let Ok(server) = tokio::net::TcpStream::connect(upstream).await else { return };
                    let (mut client_read, mut client_write) = client.into_split();
                    let (mut server_read, mut server_write) = server.into_split();
                    let up = tokio::spawn(async move { tokio::io::copy(&mut client_read, &mut server_write).await });
                    let _ = Self::down(&mut server_read, &mut client_write, &armed, &cuts).await;
                    up.abort();
                });
            }
        });
        CuttingProxy { addr, armed, cuts, task }
    }

    /// Loses the next answer.
    pub fn cut_next_answer(&self) {
        self.armed.store(true, Ordering::SeqCst);
    }

    /// Passes the daemon's frames on, one at a time; returns once a frame
    /// is lost (both halves then drop: the connection is cut) or either
    /// side closes.
    async fn down(
        from: &mut tokio::net::tcp::OwnedReadHalf,
        to: &mut tokio::net::tcp::OwnedWriteHalf,
        armed: &std::sync::atomic::AtomicBool,
        cuts: &AtomicUsize,
    ) -> std::io::Result<()> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        loop {
            let mut head = [0u8; 9];
            from.read_exact(&mut head).await?;
            let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
            let (kind, stream) = (head[3], u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff);
            let mut payload = vec![0u8; len];
            from.read_exact(&mut payload).await?;
            // HEADERS (type 1) on a stream: an answer.
            if kind == 1 && stream != 0 && armed.swap(false, Ordering::SeqCst) {
                cuts.fetch_add(1, Ordering::SeqCst);
                return Ok(());
            }
            to.write_all(&head).await?;
            to.write_all(&payload).await?;
        }
    }
}

impl Drop for CuttingProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Whether `f` comes true within 20 s, asked every 50 ms: a reload polled
/// every 100 ms, or a key a store expires after 1 s, lands within a few
/// hundred ms on an idle machine; the rest is room for a loaded CI run
/// (the whole suite runs in parallel on 2 cores).
pub async fn eventually<F: std::future::Future<Output = bool>>(mut f: impl FnMut() -> F) -> bool {
    for _ in 0..400 {
        if f().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}
