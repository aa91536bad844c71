//! The measurements behind docs/faults.md's store-restart row: for outages
//! of the store of each length (seconds, comma-separated; these by
//! default), an idle daemon with the store's defaults (`timeout_ms` 50,
//! three failures, a cool-down of 1 s; the guardrails' evaluation off, its
//! store calls would count with the pings) is asked once the store is
//! back, and then until it is served: was the first call served, and how
//! long were calls degraded.
//!
//!     cargo run --example idle_restarts -- 0,0.5,0.75,1,1.5,2,2.5,3,4
//!
//! `redis-server` comes as the tests' does (`tests/it/redis_server.rs`:
//! from PATH, else fetched from Debian's archive into `target/`).

#[allow(dead_code)]
#[path = "../tests/it/redis_server.rs"]
mod redis_server;

use ladderd::app::App;
use ladderd::config::{Config, Secret, SessionBackend};
use ladderd::pb;
use ladderd::pb::arbiter_client::ArbiterClient;
use redis_server::RedisServer;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// Whether calls that need the store are served: GetSession answers, found
/// or not (`UNAVAILABLE` is a call answered as for an unreachable store),
/// and the message when it is not.
async fn store_served(client: &mut ArbiterClient<Channel>) -> Result<(), String> {
    match client.get_session(pb::GetSessionRequest { session_id: "nobody".into() }).await {
        Err(s) if s.code() == tonic::Code::Unavailable => Err(s.message().to_string()),
        _ => Ok(()),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let outages = std::env::args().nth(1).unwrap_or_else(|| "0,0.5,0.75,1,1.5,2,2.5,3,4".into());
    println!("outage (s)  first call  degraded for");
    for secs in outages.split(',') {
        let secs: f64 = secs.trim().parse().map_err(|e| format!("{secs:?}: not seconds: {e}"))?;
        let mut redis = RedisServer::start();
        let mut c = Config { listen: "127.0.0.1:0".into(), ..Config::default() };
        c.sessions.backend = SessionBackend::Redis;
        c.sessions.redis.url = Some(Secret(redis.url()));
        c.guardrails.evaluate_every_seconds = 3_600;
        c.validate()?;
        let app = App::build(c).await?;
        let addr = app.local_addr();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(app.run_until(async {
            let _ = stopped.await;
        }));
        let mut client = ArbiterClient::new(Channel::from_shared(format!("http://{addr}"))?.connect().await?);
        for i in 0..4 {
            client.decide(ladderd_load::samples::panels_request(&format!("warm-{i}"), "links panel")).await?;
        }
        let down = Instant::now();
        redis.kill();
        // The outage itself: what is measured.
        tokio::time::sleep(Duration::from_secs_f64(secs)).await;
        redis.restart();
        let outage = down.elapsed();
        let back = Instant::now();
        let first = store_served(&mut client).await;
        while store_served(&mut client).await.is_err() {
            if back.elapsed() > Duration::from_secs(10) {
                return Err(format!("after an outage of {secs} s, never served again in 10 s").into());
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let degraded = if first.is_ok() { Duration::ZERO } else { back.elapsed() };
        let first = first.map_or_else(|why| why.split(": ").nth(1).unwrap_or("degraded").to_string(), |()| "served".into());
        println!("{:>10.2}  {first}  {} ms", outage.as_secs_f64(), degraded.as_millis());
        let _ = stop.send(());
        server.await??;
    }
    Ok(())
}
