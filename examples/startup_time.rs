//! Time from process start to `grpc.health.v1` SERVING, over repeated
//! starts of the release binary:
//!
//!     cargo build --release && cargo run --release --example startup_time -- 20
//!
//! Each run spawns `target/release/ladderd` on a free port (chosen here,
//! then released, so the client can start polling at once), polls
//! Health/Check every millisecond until SERVING, then sends SIGTERM and
//! times the exit too.

use std::time::{Duration, Instant};
use tonic_health::pb::{HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient};

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20);
    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/ladderd");
    let mut serving = Vec::new();
    let mut exits = Vec::new();
    for _ in 0..runs {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let start = Instant::now();
        let mut child = tokio::process::Command::new(bin)
            .env_clear()
            .env("LADDER_LISTEN", format!("127.0.0.1:{port}"))
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("build the release binary first");
        let url = format!("http://127.0.0.1:{port}");
        let up = loop {
            if let Ok(ch) = tonic::transport::Endpoint::from_shared(url.clone()).unwrap().connect().await {
                let mut h = HealthClient::new(ch);
                if let Ok(r) = h.check(HealthCheckRequest { service: "ladder.v1.Arbiter".into() }).await
                    && r.into_inner().status() == ServingStatus::Serving
                {
                    break start.elapsed();
                }
            }
            if start.elapsed() > Duration::from_secs(10) {
                panic!("not SERVING after 10 s");
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        };
        serving.push(up);
        let t = Instant::now();
        std::process::Command::new("kill").args(["-TERM", &child.id().unwrap().to_string()]).status().unwrap();
        let status = child.wait().await.unwrap();
        assert!(status.success(), "exit {status:?}");
        exits.push(t.elapsed());
    }
    let show = |name: &str, mut v: Vec<Duration>| {
        v.sort();
        println!("{name}: median {:?}, p90 {:?}, max {:?} ({} runs)", v[v.len() / 2], v[(v.len() * 9) / 10], v[v.len() - 1], v.len());
    };
    show("process start -> SERVING", serving);
    show("SIGTERM (idle) -> exit 0", exits);
}
