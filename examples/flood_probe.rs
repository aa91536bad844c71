//! A kubelet's view of a flood: starts the release
//! daemon with its defaults, floods it with the worst valid `Decide` (the
//! `hostile/balanced` shape of `benches/ladder.rs`: 1,000 candidates of 24
//! words, a 39-word input, just under `limits.match_work_max`) from
//! `--clients` callers on one connection, and meanwhile probes health and a
//! light `Decide` on another connection at 4 Hz; prints the probes'
//! latency quantiles and the flood's throughput.
//!
//!     cargo build --release --bin ladderd --example flood_probe
//!     target/release/examples/flood_probe --clients 8 --seconds 30

use ladderd::pb;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::AsyncBufReadExt;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn heavy() -> pb::DecideRequest {
    let stems = ["alpha", "beta", "gamma", "delta", "omega", "panel", "report", "sales"];
    let label = |i: usize| (0..24).map(|k| format!("{}{}", stems[(i + k) % 8], (i * 7 + k) % 100)).collect::<Vec<_>>().join(" ");
    let mut r = ladderd_load::samples::panels_request(
        "flood",
        &(0..39).map(|k| format!("{}{}", stems[k % 8], 100 + k)).collect::<Vec<_>>().join(" "),
    );
    r.options.as_mut().unwrap().candidates =
        (0..1000).map(|i| pb::Candidate { id: format!("c{i}"), label: label(i), ..Default::default() }).collect();
    r
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (clients, seconds) = (arg("--clients", 8), arg("--seconds", 30));
    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/ladderd");
    let mut child = tokio::process::Command::new(bin)
        .env("LADDER_LISTEN", "127.0.0.1:0")
        .env("LADDER_TELEMETRY__LOG_FORMAT", "json")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next_line().await?.ok_or("ladderd exited")?;
        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        if v["fields"]["message"] == "serving" {
            break v["fields"]["addr"].as_str().unwrap().to_string();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let endpoint = format!("http://{addr}");
    let flood_ch = tonic::transport::Channel::from_shared(endpoint.clone())?.connect().await?;
    let stop = Arc::new(AtomicBool::new(false));
    let (done, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let request = heavy();
    for _ in 0..clients {
        let (mut c, r, stop, done, refused) =
            (pb::arbiter_client::ArbiterClient::new(flood_ch.clone()), request.clone(), stop.clone(), done.clone(), refused.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let mut req = tonic::Request::new(r.clone());
                req.set_timeout(Duration::from_millis(1500));
                match c.decide(req).await {
                    Ok(_) => done.fetch_add(1, Ordering::Relaxed),
                    Err(_) => refused.fetch_add(1, Ordering::Relaxed),
                };
            }
        });
    }
    let probe_ch = tonic::transport::Channel::from_shared(endpoint)?.connect().await?;
    let mut health = HealthClient::new(probe_ch.clone());
    let mut light = pb::arbiter_client::ArbiterClient::new(probe_ch);
    let (mut h_lat, mut d_lat) = (Vec::new(), Vec::new());
    let started = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    while started.elapsed() < Duration::from_secs(seconds) {
        tick.tick().await;
        let t = Instant::now();
        health.check(HealthCheckRequest { service: String::new() }).await?;
        h_lat.push(t.elapsed());
        let t = Instant::now();
        light.decide(ladderd_load::samples::panels_request("probe", "links panel d")).await?;
        d_lat.push(t.elapsed());
    }
    stop.store(true, Ordering::Relaxed);
    let q = |v: &mut Vec<Duration>, p: f64| {
        v.sort();
        v[((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1]
    };
    let secs = started.elapsed().as_secs_f64();
    println!(
        "flood: {clients} clients, {:.0} heavy calls/s answered, {} failed; {} probes",
        done.load(Ordering::Relaxed) as f64 / secs,
        refused.load(Ordering::Relaxed),
        h_lat.len()
    );
    for (name, v) in [("health", &mut h_lat), ("light Decide", &mut d_lat)] {
        println!("{name:>12}: p50 {:?}  p99 {:?}  max {:?}", q(v, 0.5), q(v, 0.99), q(v, 1.0));
    }
    Ok(())
}
