//! The admin listener (`admin.listen`): health and `/metrics`, nothing of
//! the Arbiter; NOT_SERVING while the daemon drains; and bounds of its own,
//! so a flood at either port leaves the other served.

use crate::helpers::*;
use ladderd::config::Config;
use ladderd::pb;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

fn with_admin(mut c: Config) -> Config {
    c.admin.listen = Some("127.0.0.1:0".into());
    c
}

async fn health(addr: SocketAddr, service: &str) -> Result<ServingStatus, tonic::Status> {
    let mut h = HealthClient::new(connect(addr).await);
    h.check(HealthCheckRequest { service: service.into() }).await.map(|r| r.into_inner().status())
}

/// A prober on a new connection (as kubelet's gRPC probe is): SERVING
/// within `bound`.
async fn probe_is_served(admin: SocketAddr, bound: Duration) {
    let t = Instant::now();
    let status = tokio::time::timeout(bound, health(admin, "")).await.expect("the probe answered in time");
    assert_eq!(status.expect("the probe is served"), ServingStatus::Serving);
    println!("probe served in {:?}", t.elapsed());
}

/// The app on a new connection to the data port: a Decide within `bound`.
async fn app_is_served(addr: SocketAddr, bound: Duration) {
    let t = Instant::now();
    let decide = async {
        let mut c = pb::arbiter_client::ArbiterClient::new(connect(addr).await);
        c.decide(panels_request("open links panel d")).await
    };
    let d = tokio::time::timeout(bound, decide).await.expect("Decide answered in time");
    assert_eq!(d.expect("Decide is served").into_inner().target_id, "links-panel-d");
    println!("app served in {:?}", t.elapsed());
}

#[tokio::test]
async fn the_admin_port_serves_health_and_nothing_of_the_arbiter() {
    let d = TestDaemon::start(with_admin(Config::default())).await;
    let admin = d.admin.expect("an admin listener");
    assert_ne!(admin, d.addr);
    for service in ["", "ladder.v1.Arbiter"] {
        assert_eq!(health(admin, service).await.unwrap(), ServingStatus::Serving, "{service:?}");
    }
    let channel = connect(admin).await;
    let mut arbiter = pb::arbiter_client::ArbiterClient::new(channel.clone());
    let s = arbiter.decide(panels_request("open links panel d")).await.unwrap_err();
    assert_eq!(s.code(), Code::Unimplemented, "{s:?}");
    let s = arbiter.reset_rollout(pb::ResetRolloutRequest::default()).await.unwrap_err();
    assert_eq!(s.code(), Code::Unimplemented, "{s:?}");
    let s = arbiter.get_session(pb::GetSessionRequest { session_id: "s".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::Unimplemented, "{s:?}");
    use tonic_reflection::pb::v1;
    let mut reflection = v1::server_reflection_client::ServerReflectionClient::new(channel);
    let req = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let s = reflection.server_reflection_info(tokio_stream::iter(vec![req])).await.unwrap_err();
    assert_eq!(s.code(), Code::Unimplemented, "no reflection on the admin port: {s:?}");
    // Built without telemetry (as here), there are no metrics to render.
    let r = reqwest::get(format!("http://{admin}/metrics")).await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
    // The data port still has everything.
    assert_eq!(d.client.clone().decide(panels_request("open links panel d")).await.unwrap().into_inner().target_id, "links-panel-d");
    assert_eq!(health(d.addr, "").await.unwrap(), ServingStatus::Serving);
}

#[tokio::test(flavor = "multi_thread")]
async fn health_on_the_admin_port_is_not_serving_while_the_daemon_drains() {
    // A call in flight (the provider hangs) keeps the drain going.
    let (url, accepted) = hanging_provider().await;
    let mut c = with_admin(with_llm(&url, 3_000));
    c.server.drain_grace_ms = 2_000;
    let mut d = TestDaemon::start(c).await;
    let admin = d.admin.unwrap();
    let mut watch =
        HealthClient::new(connect(admin).await).watch(HealthCheckRequest { service: String::new() }).await.unwrap().into_inner();
    assert_eq!(watch.message().await.unwrap().unwrap().status(), ServingStatus::Serving);
    let mut client = d.client.clone();
    let in_flight = tokio::spawn(async move { client.decide(panels_request("links panel")).await });
    wait_until(Duration::from_secs(10), "the call never reached the provider", || accepted.load(Ordering::Relaxed) >= 1).await;
    d.shutdown();
    let next = tokio::time::timeout(Duration::from_secs(2), watch.message()).await.expect("an update").unwrap().unwrap();
    assert_eq!(next.status(), ServingStatus::NotServing);
    // A probe arriving during the drain, on a new connection: NOT_SERVING.
    assert!(!in_flight.is_finished(), "still draining");
    for service in ["", "ladder.v1.Arbiter"] {
        assert_eq!(health(admin, service).await.unwrap(), ServingStatus::NotServing, "{service:?}");
    }
    let decision = in_flight.await.unwrap().expect("the in-flight call completes").into_inner();
    assert_eq!(decision.fallback_reason(), pb::FallbackReason::Timeout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_at_the_admin_port_leaves_the_data_port_and_a_new_prober_served() {
    let d = TestDaemon::start(with_admin(Config::default())).await;
    let admin = d.admin.unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut flood = tokio::task::JoinSet::new();
    // Stalled streams opened, and complete checks sent, so far.
    let (stalled, checks) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    // 200 idle connections, over ten times what the admin port holds.
    let mut idle = Vec::new();
    for _ in 0..200 {
        if let Ok(s) = tokio::net::TcpStream::connect(admin).await {
            idle.push(s);
        }
    }
    // Connections whose health checks never finish their bodies, every
    // stream they may open, replaced as they are cut.
    for _ in 0..8 {
        let (stop, stalled) = (stop.clone(), stalled.clone());
        flood.spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let Ok(Ok(tcp)) = tokio::time::timeout(Duration::from_secs(1), tokio::net::TcpStream::connect(admin)).await else {
                    continue;
                };
                let Ok((send, conn)) = h2::client::handshake(tcp).await else { continue };
                tokio::spawn(conn);
                let mut held = Vec::new();
                for _ in 0..8 {
                    let Ok(Ok(mut ready)) = tokio::time::timeout(Duration::from_millis(200), send.clone().ready()).await else { break };
                    let Ok((response, mut body)) = ready.send_request(grpc_post(admin, "/grpc.health.v1.Health/Check"), false) else {
                        break;
                    };
                    let _ = body.send_data(vec![0, 0, 0, 0, 100, 0x0a].into(), false);
                    stalled.fetch_add(1, Ordering::Relaxed);
                    held.push((response, body));
                }
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        });
    }
    // And a storm of complete health checks.
    for _ in 0..4 {
        let (stop, checks) = (stop.clone(), checks.clone());
        flood.spawn(async move {
            let Ok(Ok(ch)) = tokio::time::timeout(
                Duration::from_secs(2),
                tonic::transport::Channel::from_shared(format!("http://{admin}")).unwrap().connect(),
            )
            .await
            else {
                return;
            };
            let mut h = HealthClient::new(ch);
            while !stop.load(Ordering::Relaxed) {
                let _ = h.check(HealthCheckRequest { service: String::new() }).await;
                checks.fetch_add(1, Ordering::Relaxed);
            }
        });
    }
    wait_until(Duration::from_secs(10), "the flood never got under way", || {
        stalled.load(Ordering::Relaxed) >= 8 && checks.load(Ordering::Relaxed) >= 4
    })
    .await;
    for _ in 0..10 {
        app_is_served(d.addr, Duration::from_secs(3)).await;
        probe_is_served(admin, Duration::from_secs(3)).await;
    }
    stop.store(true, Ordering::Relaxed);
    flood.abort_all();
    drop(idle);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_at_the_data_port_leaves_the_admin_port_served() {
    let (url, accepted) = hanging_provider().await;
    let mut c = with_admin(with_llm(&url, 3_000));
    c.server.max_concurrent_requests = 4;
    c.server.max_connections = 64;
    let d = TestDaemon::start(c).await;
    let admin = d.admin.unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut flood = tokio::task::JoinSet::new();
    // Every slot held by calls waiting on the hanging provider, and a
    // stream of calls shed at the limit.
    let shed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for i in 0..16 {
        let (stop, shed, mut client) = (stop.clone(), shed.clone(), d.client.clone());
        flood.spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let mut r = panels_request("links panel");
                r.session_id = format!("flood-{i}-{n}");
                n += 1;
                if client.decide(r).await.is_err_and(|s| s.code() == Code::ResourceExhausted) {
                    shed.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
    }
    // Connections past server.max_connections, each with a body that
    // never completes, replaced as they are closed.
    for _ in 0..96 {
        let (stop, addr) = (stop.clone(), d.addr);
        flood.spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let Ok(Ok(tcp)) = tokio::time::timeout(Duration::from_secs(1), tokio::net::TcpStream::connect(addr)).await else {
                    continue;
                };
                let Ok((send, conn)) = h2::client::handshake(tcp).await else { continue };
                let Ok(mut ready) = send.ready().await else { continue };
                let Ok((_response, mut body)) = ready.send_request(grpc_post(addr, "/ladder.v1.Arbiter/Decide"), false) else {
                    continue;
                };
                let _ = body.send_data(vec![0, 0, 0, 0x03, 0xe8, 0x0a].into(), false);
                // Held until the daemon closes it.
                let _ = conn.await;
            }
        });
    }
    // Every slot held at the provider, and calls shed past them.
    wait_until(Duration::from_secs(10), "the data port was never full", || {
        accepted.load(Ordering::Relaxed) >= 4 && shed.load(Ordering::Relaxed) > 0
    })
    .await;
    for _ in 0..10 {
        probe_is_served(admin, Duration::from_secs(3)).await;
    }
    stop.store(true, Ordering::Relaxed);
    flood.abort_all();
    let shed = shed.load(Ordering::Relaxed);
    assert!(shed > 10, "the data port was flooded past its limit ({shed} calls shed)");
    println!("{shed} calls shed at the data port meanwhile");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_port_holds_few_connections_few_streams_and_nothing_for_long() {
    use ladderd::grpc::admin::{MAX_CONNECTIONS, MAX_HEALTH_MESSAGE_BYTES, REQUEST_TIMEOUT, STREAMS_PER_CONNECTION};
    use tokio::io::AsyncReadExt;
    let d = TestDaemon::start(with_admin(Config::default())).await;
    let admin = d.admin.unwrap();

    // Connections: one past the limit closes the quietest (the first).
    let mut first = tokio::net::TcpStream::connect(admin).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut others = Vec::new();
    for _ in 0..MAX_CONNECTIONS {
        others.push(tokio::net::TcpStream::connect(admin).await.unwrap());
    }
    let mut buf = [0u8; 64];
    let closed = tokio::time::timeout(Duration::from_secs(3), async {
        loop {
            match first.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {} // the server's HTTP/2 preface, if it got that far
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the quietest of {} connections was not closed", MAX_CONNECTIONS + 1);
    drop(others);

    // Streams: the admin port advertises its own small limit.
    let send = h2_client(admin, None).await;
    let (code, _) = h2_call(&send, admin, "/grpc.health.v1.Health/Check", framed(&HealthCheckRequest::default())).await;
    assert_eq!(code, Code::Ok as i32);
    assert_eq!(send.current_max_send_streams(), STREAMS_PER_CONNECTION as usize);

    // Time: a health check whose body never completes is cut at the
    // admin deadline, and a long request message is refused.
    let t = Instant::now();
    let mut ready = send.clone().ready().await.unwrap();
    let (response, mut body) = ready.send_request(grpc_post(admin, "/grpc.health.v1.Health/Check"), false).unwrap();
    body.send_data(vec![0, 0, 0, 0, 100, 0x0a].into(), false).unwrap();
    let r = tokio::time::timeout(REQUEST_TIMEOUT + Duration::from_secs(3), response).await.expect("answered").unwrap();
    let (code, _) = grpc_status(r.headers()).expect("a trailers-only answer");
    assert_eq!(code, Code::DeadlineExceeded as i32);
    assert!(t.elapsed() >= REQUEST_TIMEOUT - Duration::from_millis(100), "cut after {:?}", t.elapsed());
    let long = HealthCheckRequest { service: "s".repeat(MAX_HEALTH_MESSAGE_BYTES + 1) };
    let mut h = HealthClient::new(connect(admin).await);
    let s = h.check(long).await.unwrap_err();
    assert_eq!(s.code(), Code::OutOfRange, "{s:?}");
    probe_is_served(admin, Duration::from_secs(3)).await;
    let _keep = body;
}

/// The real binary, with the addresses it serves on (data, admin) and its
/// JSON log lines up to its "serving" line.
async fn spawn_logged(envs: &[(&str, &str)]) -> (tokio::process::Child, SocketAddr, Option<SocketAddr>, Vec<serde_json::Value>) {
    let (child, addr, log, mut lines) = spawn_binary_logged(envs).await;
    let admin = log
        .iter()
        .find(|v| v["fields"]["message"] == "serving admin (health, /metrics)")
        .and_then(|v| v["fields"]["addr"].as_str()?.parse::<SocketAddr>().ok());
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr.parse().unwrap(), admin, log)
}

async fn metrics_text(admin: SocketAddr) -> (reqwest::StatusCode, String, String) {
    let r = reqwest::get(format!("http://{admin}/metrics")).await.expect("an answer over HTTP/1.1");
    let content_type = r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    (r.status(), content_type, r.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn one_admin_port_serves_prometheus_text_over_http1_and_health_over_grpc() {
    let (child, addr, admin, _) = spawn_logged(&[("LADDER_ADMIN__LISTEN", "127.0.0.1:0")]).await;
    let admin = admin.expect("the admin listener is logged with its address");
    let mut client = pb::arbiter_client::ArbiterClient::new(connect(addr).await);
    let turn = panels_request("open links panel d");
    client.decide(turn.clone()).await.unwrap();
    // The same turn again (a retry), then its turn_id with another input.
    client.decide(turn.clone()).await.unwrap();
    client.decide(pb::DecideRequest { input: "links panel".into(), ..turn }).await.unwrap();
    let (status, content_type, text) = metrics_text(admin).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");
    assert!(text.contains("ladder_decisions_total{decided_by=\"deterministic\",outcome=\"execute\",tier=\"deterministic\"} 1"), "{text}");
    assert!(text.lines().any(|l| l == "ladder_turn_replays_total 1"), "{text}");
    assert!(text.lines().any(|l| l == "ladder_turn_id_reused_total 1"), "{text}");
    assert_eq!(health(admin, "ladder.v1.Arbiter").await.unwrap(), ServingStatus::Serving);
    // And not on the data port: there, HTTP/1.1 is refused.
    assert!(reqwest::get(format!("http://{addr}/metrics")).await.is_err_and(|e| !e.is_status()), "the data port speaks HTTP/2 only");
    crate::telemetry::stop(child).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deprecated_telemetry_metrics_listen_still_opens_the_admin_port_with_a_warning() {
    let (child, _, admin, log) = spawn_logged(&[("LADDER_TELEMETRY__METRICS_LISTEN", "127.0.0.1:0")]).await;
    let admin = admin.expect("an admin listener");
    let warning =
        log.iter().find(|l| l["fields"]["message"].as_str().is_some_and(|m| m.starts_with("telemetry.metrics_listen is deprecated")));
    assert_eq!(warning.map(|w| w["level"].as_str()), Some(Some("WARN")), "{log:?}");
    assert_eq!(metrics_text(admin).await.0, reqwest::StatusCode::OK);
    assert_eq!(health(admin, "").await.unwrap(), ServingStatus::Serving);
    crate::telemetry::stop(child).await;
}
