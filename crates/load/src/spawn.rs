//! The servers under test: started as child processes (pinned, their
//! "serving" line read, their stderr kept) or given by address; the
//! watchdog that stops every run when one dies.

use crate::cli::RunArgs;
use crate::report::num_cpus_online;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// A server under test: started by the tool (then stopped at the end) or
/// given by address.
pub(crate) struct Server {
    pub(crate) name: &'static str,
    pub(crate) addr: String,
    pub(crate) pid: Option<u32>,
    pub(crate) child: Option<Child>,
    /// The last lines the child wrote on stderr (a panic message, ...).
    pub(crate) tail: Arc<Mutex<std::collections::VecDeque<String>>>,
}

impl Server {
    pub(crate) fn alive(&mut self) -> bool {
        match &mut self.child {
            Some(c) => matches!(c.try_wait(), Ok(None)),
            None => true,
        }
    }
    /// How the child ended and what it said last.
    pub(crate) fn obituary(&mut self) -> String {
        let status = self.child.as_mut().and_then(|c| c.try_wait().ok().flatten()).map_or("?".to_string(), |s| s.to_string());
        let tail: Vec<String> = self.tail.lock().expect("tail").iter().cloned().collect();
        format!("{} exited ({status}); its last stderr lines:\n{}", self.name, tail.join(""))
    }
    pub(crate) fn stop(&mut self) {
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

pub(crate) fn pinned(cpus: Option<&str>, program: &std::path::Path) -> Command {
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

/// Set when a started server died: every run stops at once.
pub(crate) static ABORT: AtomicBool = AtomicBool::new(false);

/// Whether a process is gone (exited, or a zombie not yet reaped).
pub(crate) fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next()).is_none_or(|c| c == 'Z' || c == 'X'),
        Err(_) => true,
    }
}

/// Watches the started servers; sets `ABORT` when one dies.
pub(crate) fn watchdog(pids: Vec<u32>) {
    std::thread::spawn(move || {
        while !ABORT.load(Ordering::Relaxed) {
            if pids.iter().any(|p| gone(*p)) {
                ABORT.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
}

pub(crate) struct Targets {
    pub(crate) daemon: Server,
    pub(crate) daemon_ch: Vec<Channel>,
    pub(crate) echo: Option<(Server, Vec<Channel>)>,
}

pub(crate) async fn start_targets(a: &RunArgs, fake_llm: Option<SocketAddr>) -> Result<Targets, String> {
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

/// The error for a server that died during the runs.
pub(crate) fn dead(t: &mut Targets) -> String {
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
