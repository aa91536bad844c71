//! What the runs saw: the tallies and run results, the daemon's RSS
//! samples, the printed table and the machine's description.

use crate::cli::InputKind;
use hdrhistogram::Histogram;
use ladderd::pb;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::{Code, Status};

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 120_000_000, 3).expect("valid histogram bounds")
}

/// What one worker (or one run) saw.
pub(crate) struct Tally {
    /// Latency of OK calls, microseconds.
    pub(crate) ok: Histogram<u64>,
    pub(crate) errors: BTreeMap<String, u64>,
    /// Last error message per code (shown once).
    pub(crate) messages: BTreeMap<String, String>,
    pub(crate) outcomes: BTreeMap<String, u64>,
}

impl Tally {
    pub(crate) fn new() -> Self {
        Tally { ok: histogram(), errors: BTreeMap::new(), messages: BTreeMap::new(), outcomes: BTreeMap::new() }
    }
    pub(crate) fn record(&mut self, us: u64, r: &Result<pb::Decision, Status>) {
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
    pub(crate) fn merge(&mut self, other: Tally) {
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

pub(crate) fn code_name(c: Code) -> String {
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
pub(crate) struct RunResult {
    pub(crate) target: &'static str,
    pub(crate) mode: &'static str,
    pub(crate) pool: usize,
    pub(crate) input: InputKind,
    pub(crate) concurrency: usize,
    /// Offered rate (open loop).
    pub(crate) offered_rate: Option<f64>,
    pub(crate) elapsed: Duration,
    pub(crate) tally: Tally,
    /// Open loop: calls not sent because the client's own bound was full.
    pub(crate) client_dropped: u64,
    pub(crate) started_at: f64,
    pub(crate) ended_at: f64,
}

impl RunResult {
    pub(crate) fn ok(&self) -> u64 {
        self.tally.ok.len()
    }
    pub(crate) fn total(&self) -> u64 {
        self.ok() + self.tally.errors.values().sum::<u64>()
    }
    pub(crate) fn throughput(&self) -> f64 {
        self.ok() as f64 / self.elapsed.as_secs_f64()
    }
    pub(crate) fn q(&self, q: f64) -> u64 {
        if self.ok() == 0 { 0 } else { self.tally.ok.value_at_quantile(q) }
    }
    pub(crate) fn json(&self) -> Value {
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

/// Samples a process's VmRSS (kB) every `every` in a thread.
pub(crate) struct RssSampler {
    pub(crate) samples: Arc<Mutex<Vec<(f64, u64)>>>,
    pub(crate) stop: Arc<AtomicBool>,
}

fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

impl RssSampler {
    pub(crate) fn start(pid: u32, every: Duration, epoch: Instant) -> Self {
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
    pub(crate) fn window(&self, from: f64, to: f64) -> Option<(u64, u64, u64)> {
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

pub(crate) fn fmt_us(us: u64) -> String {
    if us >= 10_000 { format!("{:.1}ms", us as f64 / 1000.0) } else { format!("{:.3}ms", us as f64 / 1000.0) }
}

pub(crate) fn print_header() {
    println!(
        "{:<8} {:<6} {:>5} {:<10} {:>5} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  errors / outcomes",
        "target", "mode", "pool", "input", "conc", "calls/s", "p50", "p90", "p99", "p99.9", "max", "ok"
    );
}

pub(crate) fn print_run(r: &RunResult) {
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

pub(crate) fn machine() -> Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())))
        .unwrap_or_default();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default().trim().to_string();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    json!({"cpu": cpu, "cpus_online": num_cpus_online(), "client_threads": cores, "kernel": kernel})
}

pub(crate) fn num_cpus_online() -> usize {
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
