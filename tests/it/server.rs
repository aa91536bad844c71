//! The daemon as a server: health, reflection, edge validation, load
//! shedding, message size, configuration errors, and graceful shutdown.

use crate::helpers::*;
use ladderd::config::Config;
use ladderd::pb;
use std::time::{Duration, Instant};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

#[tokio::test]
async fn health_is_serving_for_the_server_and_the_arbiter() {
    let d = TestDaemon::default().await;
    let mut h = HealthClient::new(d.channel.clone());
    for service in ["", "ladder.v1.Arbiter"] {
        let r = h.check(HealthCheckRequest { service: service.into() }).await.unwrap().into_inner();
        assert_eq!(r.status(), ServingStatus::Serving, "service {service:?}");
    }
}

#[tokio::test]
async fn health_goes_not_serving_as_soon_as_shutdown_begins() {
    let mut d = TestDaemon::default().await;
    let mut h = HealthClient::new(d.channel.clone());
    let mut watch = h.watch(HealthCheckRequest { service: "".into() }).await.unwrap().into_inner();
    assert_eq!(watch.message().await.unwrap().unwrap().status(), ServingStatus::Serving);
    d.shutdown();
    let next = tokio::time::timeout(Duration::from_secs(2), watch.message()).await.expect("an update").unwrap().unwrap();
    assert_eq!(next.status(), ServingStatus::NotServing);
}

#[tokio::test]
async fn reflection_lists_the_arbiter_in_v1_and_v1alpha() {
    use tonic_reflection::pb::{v1, v1alpha};
    let d = TestDaemon::default().await;
    let channel = connect(d.addr).await;
    let mut c = v1::server_reflection_client::ServerReflectionClient::new(channel);
    let req = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut stream = c.server_reflection_info(tokio_stream::iter(vec![req])).await.unwrap().into_inner();
    let resp = stream.message().await.unwrap().unwrap();
    let Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)) = resp.message_response else {
        panic!("{resp:?}")
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    assert!(names.contains(&"ladder.v1.Arbiter".to_string()), "{names:?}");
    assert!(names.contains(&"grpc.health.v1.Health".to_string()), "{names:?}");

    let mut c = v1alpha::server_reflection_client::ServerReflectionClient::new(d.channel.clone());
    let req = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1alpha::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut stream = c.server_reflection_info(tokio_stream::iter(vec![req])).await.unwrap().into_inner();
    let resp = stream.message().await.unwrap().unwrap();
    let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) = resp.message_response else { panic!() };
    assert!(list.service.iter().any(|s| s.name == "ladder.v1.Arbiter"));
}

async fn refused(d: &TestDaemon, req: pb::DecideRequest) -> tonic::Status {
    d.client.clone().decide(req).await.expect_err("refused")
}

#[tokio::test]
async fn every_validation_rule_returns_its_code_and_names_the_field() {
    let d = TestDaemon::default().await;
    type Mutate = Box<dyn Fn(&mut pb::DecideRequest)>;
    let cases: Vec<(&str, Mutate, Code, &str)> = vec![
        ("missing session", Box::new(|r| r.session_id.clear()), Code::InvalidArgument, "session_id: required"),
        (
            "long session",
            Box::new(|r| r.session_id = "s".repeat(129)),
            Code::ResourceExhausted,
            "session_id: 129 bytes is over the limit of 128",
        ),
        ("long input", Box::new(|r| r.input = "x".repeat(4097)), Code::ResourceExhausted, "input: 4097 bytes is over the limit of 4096"),
        (
            "missing id",
            Box::new(|r| r.options.as_mut().unwrap().candidates[1].id.clear()),
            Code::InvalidArgument,
            "options.candidates[1].id: required",
        ),
        (
            "duplicate id",
            Box::new(|r| r.widget_items.push(cand("links-panel-d", "Dup"))),
            Code::InvalidArgument,
            "widget_items[0].id: duplicate id",
        ),
        (
            "long label",
            Box::new(|r| r.options.as_mut().unwrap().candidates[0].label = "l".repeat(513)),
            Code::ResourceExhausted,
            "options.candidates[0].label: 513 bytes",
        ),
        (
            "too many",
            Box::new(|r| r.commands = (0..5001).map(|i| cand(&format!("c{i}"), "C")).collect()),
            Code::ResourceExhausted,
            "commands: 5001 items is over the limit of 5000",
        ),
        (
            "bad enum",
            Box::new(|r| r.active_scope.as_mut().unwrap().scope = 99),
            Code::InvalidArgument,
            "active_scope.scope: unknown Scope value 99",
        ),
    ];
    for (name, mutate, code, msg) in cases {
        let mut r = panels_request("open links panel d");
        mutate(&mut r);
        let s = refused(&d, r).await;
        assert_eq!(s.code(), code, "{name}: {s:?}");
        assert!(s.message().contains(msg), "{name}: {:?} lacks {msg:?}", s.message());
    }
    // Other calls validate at the same edge.
    let mut c = d.client.clone();
    let s = c.get_session(pb::GetSessionRequest { session_id: String::new() }).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "session_id: required"));
    let s = c
        .enrich(pb::EnrichRequest {
            session_id: "s".into(),
            loop_cycle_id: "c".into(),
            evidence: vec![pb::EvidenceBlock { r#type: "passwords".into(), ..Default::default() }],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(s.code(), Code::InvalidArgument);
    assert!(s.message().starts_with("evidence[0].type:"), "{}", s.message());
    let s = c.record_outcome(pb::RecordOutcomeRequest { session_id: "s".into(), ..Default::default() }).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "kind: required"));
}

#[tokio::test]
async fn huge_requests_are_refused_and_the_daemon_keeps_serving() {
    let d = TestDaemon::default().await;
    let mut r = panels_request("x");
    r.input = "x".repeat(2 * 1024 * 1024);
    let s = refused(&d, r).await;
    assert_eq!(s.code(), Code::ResourceExhausted);
    assert!(s.message().starts_with("input:"), "{}", s.message());

    let mut r = panels_request("x");
    r.widget_items = (0..200_000).map(|i| cand(&format!("w{i}"), "W")).collect();
    let s = refused(&d, r).await;
    assert_eq!(s.code(), Code::ResourceExhausted, "{s:?}");

    // Over the decoded-message limit: tonic's OUT_OF_RANGE is remapped.
    let mut r = panels_request("x");
    r.input = "x".repeat(5 * 1024 * 1024);
    let s = refused(&d, r).await;
    assert_eq!(s.code(), Code::ResourceExhausted, "{s:?}");
    assert!(s.message().contains("server.max_message_bytes"), "{}", s.message());

    let ok = d.client.clone().decide(panels_request("open links panel d")).await.unwrap().into_inner();
    assert_eq!(ok.target_id, "links-panel-d");
}

#[tokio::test]
async fn every_call_validates_its_session_id() {
    let d = TestDaemon::default().await;
    let mut c = d.client.clone();
    let s = c.extract(pb::ExtractRequest::default()).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "session_id: required"));
    let s = c.clarify(pb::ClarifyRequest::default()).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "session_id: required"));
    let s = c.reset_session(pb::ResetSessionRequest::default()).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "session_id: required"));
}

#[tokio::test]
async fn over_the_concurrency_limit_requests_are_shed() {
    let (url, _provider) = hanging_provider().await;
    let mut config = with_llm(&url, 3_000);
    config.server.max_concurrent_requests = 2;
    let d = TestDaemon::start(config).await;
    // Two unresolved turns hold both slots while the provider hangs.
    let slow: Vec<_> = (0..2)
        .map(|i| {
            let mut c = d.client.clone();
            let mut r = panels_request("links panel");
            r.session_id = format!("slow-{i}");
            tokio::spawn(async move { c.decide(r).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = d.client.clone().decide(panels_request("open links panel d")).await.unwrap_err();
    assert_eq!(s.code(), Code::ResourceExhausted);
    assert!(s.message().contains("server.max_concurrent_requests"), "{}", s.message());
    for t in slow {
        let decision = t.await.unwrap().expect("the admitted calls complete").into_inner();
        assert_eq!(decision.outcome(), pb::Outcome::Clarify);
        assert_eq!(decision.fallback_reason(), pb::FallbackReason::Timeout);
    }
    // Capacity is back.
    assert!(d.client.clone().decide(panels_request("open links panel d")).await.is_ok());
}

#[tokio::test]
async fn an_invalid_config_exits_2_naming_every_key() {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .env("LADDER_LLM__TIMEOUT_MS", "soon")
        .env("LADDER_LISTEN", "nowhere")
        .env("LADDER_AUTO_EXECUTE__MIN_CONFIDENCE", "7")
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for key in ["llm.timeout_ms", "listen", "auto_execute.min_confidence"] {
        assert!(err.contains(&format!("  {key}: ")), "{key} not named in:\n{err}");
    }
    // A config file that does not exist is named too.
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .args(["--config", "/nonexistent/ladderd.toml"])
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("config: file /nonexistent/ladderd.toml not found"));
}

#[tokio::test]
async fn config_prints_the_effective_configuration_with_secrets_masked() {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .env("LADDER_LLM__API_KEY", "sk-live-123456")
        .env("LADDER_LLM__TIMEOUT_MS", "900")
        .arg("config")
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("timeout_ms = 900"));
    assert!(!text.contains("sk-live-123456"));
    assert!(text.contains("api_key = \"***\""));
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_lets_a_slow_call_finish_then_exits_0() {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let provider = MockServer::start().await;
    let reply = serde_json::json!({"choices": [{"message": {"content": "{\"decision\":\"abstain\",\"choice_id\":null,\"confidence\":0.1,\"needed_evidence_types\":[]}"}}]});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(reply).set_delay(Duration::from_millis(600)))
        .mount(&provider)
        .await;
    let url = format!("{}/v1", provider.uri());
    let (mut child, addr, started) =
        spawn_binary(&[("LADDER_LLM__BASE_URL", &url), ("LADDER_LLM__MODEL", "m"), ("LADDER_LLM__TIMEOUT_MS", "3000")]).await;
    println!("serving {:?} after process start (includes spawn)", started.elapsed());
    let channel = connect(addr.parse().unwrap()).await;
    let mut client = pb::arbiter_client::ArbiterClient::new(channel);
    let call = tokio::spawn(async move { client.decide(panels_request("links panel")).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    sigterm(&child);
    let decision = call.await.unwrap().expect("the in-flight call completes").into_inner();
    assert_eq!(decision.fallback_reason(), pb::FallbackReason::Abstain, "it got the provider's answer");
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await.expect("exits within 5 s").unwrap();
    assert_eq!(status.code(), Some(0));
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_when_idle_exits_0_at_once() {
    let (mut child, _addr, _) = spawn_binary(&[]).await;
    let t = Instant::now();
    sigterm(&child);
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await.unwrap().unwrap();
    assert_eq!(status.code(), Some(0));
    println!("idle shutdown took {:?}", t.elapsed());
}

#[tokio::test]
async fn the_default_config_keeps_the_llm_off() {
    let d = TestDaemon::start(Config::default()).await;
    let r = d.client.clone().decide(panels_request("links panel")).await.unwrap().into_inner();
    assert_eq!(r.fallback_reason(), pb::FallbackReason::LlmDisabled);
    assert!(!r.llm.unwrap().called);
}

/// The encoded request with the bytes of `marker` replaced by `with`
/// (same length), e.g. a label turned into invalid UTF-8.
fn patched(message: &impl prost::Message, marker: &[u8], with: &[u8]) -> Vec<u8> {
    assert_eq!(marker.len(), with.len());
    let mut bytes = message.encode_to_vec();
    let at = bytes.windows(marker.len()).position(|w| w == marker).expect("marker in the message");
    bytes[at..at + marker.len()].copy_from_slice(with);
    bytes
}

#[tokio::test]
async fn bytes_that_are_not_the_request_message_are_invalid_argument_naming_the_field() {
    let d = TestDaemon::default().await;
    let mut nested = panels_request("open links panel d");
    nested.options.as_mut().unwrap().candidates[1].label = "MARKER".into();
    let cases: Vec<(&str, &'static str, Vec<u8>, &str)> = vec![
        ("invalid UTF-8", "/ladder.v1.Arbiter/Decide", vec![0x0a, 0x02, 0xff, 0xfe], "session_id"),
        ("invalid UTF-8, nested", "/ladder.v1.Arbiter/Decide", patched(&nested, b"MARKER", b"\xffMARKE"), "options.candidates"),
        ("a length past the end", "/ladder.v1.Arbiter/Decide", vec![0x0a, 0x05, b'a'], "session_id"),
        ("a wrong wire type", "/ladder.v1.Arbiter/Decide", vec![0x08, 0x01], "session_id"),
        ("field number 0", "/ladder.v1.Arbiter/Decide", vec![0x00, 0x01], "request message"),
        ("a truncated varint", "/ladder.v1.Arbiter/Enrich", vec![0x0a, 0xff], "session_id"),
        ("invalid UTF-8 in GetSession", "/ladder.v1.Arbiter/GetSession", vec![0x0a, 0x01, 0xc3], "session_id"),
        ("invalid UTF-8 in a health check", "/grpc.health.v1.Health/Check", vec![0x0a, 0x01, 0xff], "service"),
    ];
    for (name, path, body, field) in cases {
        let s = raw_call(&d.channel, path, body).await.expect_err(name);
        println!("{name}: {}", s.message());
        assert_eq!(s.code(), Code::InvalidArgument, "{name}: {s:?}");
        assert!(s.message().contains(field), "{name}: {:?} does not name {field:?}", s.message());
    }
    // The same bytes, well formed, are served.
    let ok = raw_call(&d.channel, "/ladder.v1.Arbiter/Decide", prost::Message::encode_to_vec(&panels_request("open links panel d"))).await;
    let decision: pb::Decision = prost::Message::decode(ok.expect("a valid request is served").as_slice()).unwrap();
    assert_eq!(decision.target_id, "links-panel-d");
}

#[tokio::test]
async fn config_check_prints_ok_and_the_config_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ladderd.toml");
    std::fs::write(&file, "[llm]\ntimeout_ms = 900\n").unwrap();
    let run = |extra: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"));
        cmd.env_clear().arg("config").arg("--check").arg(&file).args(extra);
        cmd.output().unwrap()
    };
    let out = run(&[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
    let out = run(&["--print"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("timeout_ms = 900"));
    // Logs without a terminal (a pipe here) carry no colour codes.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .env("LADDER_LISTEN", "127.0.0.1:0")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stderr.take().unwrap()), &mut line).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(line.contains("INFO") && !line.contains('\u{1b}'), "{line:?}");
}
