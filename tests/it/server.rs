//! The daemon as a server: health, reflection, edge validation, load
//! shedding, message size, configuration errors, and graceful shutdown.

use crate::helpers::*;
use ladderd::config::Config;
use ladderd::pb;
use std::path::Path;
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
        (
            "a confirmation of several",
            Box::new(|r| r.options.as_mut().unwrap().asked = pb::Asked::Confirmation as i32),
            Code::InvalidArgument,
            "options.asked: ASKED_CONFIRMATION confirms one candidate; options holds 3",
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
async fn over_the_concurrency_limit_requests_are_shed_but_health_checks_are_not() {
    let (url, accepted) = hanging_provider().await;
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
    // Both hold their slot once the provider holds them.
    wait_until(Duration::from_secs(10), "the two turns never reached the provider", || {
        accepted.load(std::sync::atomic::Ordering::Relaxed) >= 2
    })
    .await;
    let s = d.client.clone().decide(panels_request("open links panel d")).await.unwrap_err();
    assert_eq!(s.code(), Code::ResourceExhausted);
    assert!(s.message().contains("server.max_concurrent_requests"), "{}", s.message());
    // A probe sees a busy daemon as SERVING: health checks take no slot.
    let mut h = HealthClient::new(d.channel.clone());
    for _ in 0..5 {
        let r = h.check(HealthCheckRequest { service: String::new() }).await.expect("health checks are never shed");
        assert_eq!(r.into_inner().status(), ServingStatus::Serving);
    }
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

/// A FIFO (which would wait for a writer forever) or `/dev/zero` (which
/// never ends) as the lexicon, the LLM's key file or the configuration
/// file itself: the start and `config --check` each exit 2 at once, with
/// the same problem naming the key and the path.
#[test]
fn a_fifo_or_a_device_named_by_the_configuration_stops_the_start_with_exit_2_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let good = d.join("ladderd.toml");
    std::fs::write(&good, "").unwrap();
    let run = |envs: &[(&str, &Path)], args: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
            .env_clear()
            .env("LADDER_LISTEN", "127.0.0.1:0")
            .env("LADDER_LLM__BASE_URL", "http://127.0.0.1:9/v1")
            .env("LADDER_LLM__MODEL", "m")
            .envs(envs.iter().copied())
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A wait with a deadline: a start that hangs on the file fails here.
        let end = Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > end {
                child.kill().unwrap();
                panic!("{envs:?} {args:?}: still running after 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let zero = Path::new("/dev/zero");
    for (bad, why) in [(fifo.as_path(), "a FIFO, not a regular file"), (zero, "a character device, not a regular file")] {
        let line = |key: &str| format!("  {key}: {}: {why}", bad.display());
        for (key, env) in [("lexicon.path", "LADDER_LEXICON__PATH"), ("llm.api_key_file", "LADDER_LLM__API_KEY_FILE")] {
            let (started, refused) = run(&[(env, bad)], &[]);
            let (checked, said) = run(&[(env, bad)], &["config", "--check", good.to_str().unwrap()]);
            assert_eq!((started, checked), (Some(2), Some(2)), "{key}: {refused}\n{said}");
            assert!(refused.lines().any(|l| l == line(key)), "{key}: {refused}");
            assert!(said.lines().any(|l| l == line(key)), "{key}: {said}");
        }
        let (started, refused) = run(&[("LADDER_CONFIG", bad)], &[]);
        let (checked, said) = run(&[], &["config", "--check", bad.to_str().unwrap()]);
        assert_eq!((started, checked), (Some(2), Some(2)), "config: {refused}\n{said}");
        assert!(refused.lines().any(|l| l == line("config")), "{refused}");
        assert!(said.lines().any(|l| l == line("config")), "{said}");
    }
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
    // In flight: the provider has it (and answers 600 ms later).
    let end = Instant::now() + Duration::from_secs(10);
    while provider.received_requests().await.unwrap_or_default().is_empty() {
        assert!(Instant::now() < end, "the call never reached the provider");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
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
    // Nothing of the LLM happened, so the answer carries no report of it
    // (no empty `"llm": {}` in a JSON rendering).
    assert_eq!(r.llm, None);
}

/// An escape hands the turn back: it reports no confidence bucket, a
/// command said whole included (the classifier's "high confidence" would
/// read as an execute on the wire).
#[tokio::test]
async fn an_escape_reports_no_confidence_bucket() {
    let d = TestDaemon::start(Config::default()).await;
    let mut command = panels_request("open recent");
    command.commands.push(cand("cmd-recent", "Open Recent"));
    let question = panels_request("what is links panel d?");
    for (req, reason) in [(command, "command"), (question, "question_intent")] {
        let r = d.client.clone().decide(req).await.unwrap().into_inner();
        assert_eq!((r.outcome(), r.escape_reason.as_str()), (pb::Outcome::Escape, reason));
        assert_eq!(r.confidence(), pb::ConfidenceBucket::Unspecified, "{reason}");
        assert_eq!(r.llm, None, "{reason}");
    }
    // An execute still says how sure the rules were.
    let r = d.client.clone().decide(panels_request("open links panel d")).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.confidence()), (pb::Outcome::Execute, pb::ConfidenceBucket::HighConfidenceExecute));
}

/// The binary's log lines (JSON) from its start until it exits after
/// SIGTERM, with one call in between.
async fn log_of_one_call_then_sigterm(envs: &[(&str, &str)]) -> Vec<serde_json::Value> {
    let (mut child, addr, mut log, mut lines) = spawn_binary_logged(envs).await;
    let mut client = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    client.decide(panels_request("open links panel d")).await.unwrap();
    sigterm(&child);
    while let Ok(Some(line)) = tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await.expect("exits") {
        log.push(serde_json::from_str(&line).unwrap_or_default());
    }
    assert_eq!(child.wait().await.unwrap().code(), Some(0));
    log
}

fn messages(log: &[serde_json::Value]) -> Vec<&str> {
    log.iter().filter_map(|v| v["fields"]["message"].as_str()).collect()
}

/// Quiet by default: at the default level a call leaves no line; the
/// documented `debug` directive for the daemon shows one per decision.
/// The shutdown lines say what happened: how long the drain took, not
/// the grace period it was allowed.
#[tokio::test(flavor = "multi_thread")]
async fn calls_are_logged_only_at_debug_and_the_shutdown_line_says_what_happened() {
    let quiet = log_of_one_call_then_sigterm(&[]).await;
    let said = messages(&quiet);
    assert!(!said.contains(&"decided"), "a call logged at the default level: {said:?}");
    assert!(said.contains(&"shutting down: health NOT_SERVING, no new connections, draining the calls in flight"), "{said:?}");
    let drained = quiet.iter().find(|v| v["fields"]["message"] == "drained: every call in flight answered").expect("the drain is reported");
    let ms = drained["fields"]["drained_ms"].as_u64().expect("drained_ms");
    assert!(ms < 1_000, "an idle drain took {ms} ms");
    assert!(quiet.iter().all(|v| v["fields"].get("grace_ms").is_none()), "the grace period is named only when it runs out");

    let debug = log_of_one_call_then_sigterm(&[("LADDER_TELEMETRY__LOG_LEVEL", "info,ladderd=debug")]).await;
    let decided: Vec<_> = debug.iter().filter(|v| v["fields"]["message"] == "decided").collect();
    assert_eq!(decided.len(), 1, "{:?}", messages(&debug));
    assert_eq!((decided[0]["fields"]["outcome"].as_str(), decided[0]["fields"]["tier"].as_str()), (Some("execute"), Some("deterministic")));
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
        // These two bytes once panicked a worker (the stream was reset).
        ("options as a varint", "/ladder.v1.Arbiter/Decide", vec![0x28, 0x05], "options"),
        ("options as a group", "/ladder.v1.Arbiter/Decide", vec![0x2b, 0x2c], "options"),
        ("a list as a 64-bit value", "/ladder.v1.Arbiter/Enrich", vec![0x21, 0, 0, 0, 0, 0, 0, 0, 0], "evidence"),
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

// ---------------------------------------------------------------------------
// Hostile transports. Each test runs an attack and, while it runs, a
// well-behaved client on a new connection must be served.

/// A well-behaved client on a new connection: Decide and a health check,
/// each within `bound`.
async fn well_behaved_client_is_served(addr: std::net::SocketAddr, bound: Duration) {
    let t = Instant::now();
    let channel = tokio::time::timeout(bound, connect(addr)).await.expect("a new client connects");
    let mut c = pb::arbiter_client::ArbiterClient::new(channel.clone());
    let d = tokio::time::timeout(bound, c.decide(panels_request("open links panel d"))).await.expect("Decide answered in time");
    assert_eq!(d.expect("Decide is served").into_inner().target_id, "links-panel-d");
    let h = tokio::time::timeout(bound, HealthClient::new(channel).check(HealthCheckRequest { service: String::new() }))
        .await
        .expect("health answered in time");
    assert_eq!(h.expect("health is served").into_inner().status(), ServingStatus::Serving);
    println!("well-behaved client served in {:?}", t.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_whose_bodies_never_complete_hold_no_slot_and_time_out_fast() {
    let mut config = Config::default();
    config.server.max_concurrent_requests = 8;
    let d = TestDaemon::start(config).await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Three connections keep their 100 streams each stalled: headers and
    // the first bytes of a body that never ends. Each stall answered is
    // replaced at once, for as long as the test runs.
    let first_answer = std::sync::Arc::new(std::sync::Mutex::new(None::<(Duration, i32, String)>));
    let stalled = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut attackers = Vec::new();
    for _ in 0..3 {
        let (addr, stop, first_answer, stalled) = (d.addr, stop.clone(), first_answer.clone(), stalled.clone());
        attackers.push(tokio::spawn(async move {
            let send = h2_client(addr, None).await;
            let mut streams = tokio::task::JoinSet::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // 100 stalled streams at a time (the stream limit); the
                // next opens as soon as one is answered. (h2 queues streams
                // past the limit on the client's side, so opening more
                // would only spin here.)
                if streams.len() >= 100 {
                    let _ = tokio::time::timeout(Duration::from_millis(100), streams.join_next()).await;
                    continue;
                }
                let Ok(Ok(mut ready)) = tokio::time::timeout(Duration::from_secs(1), send.clone().ready()).await else {
                    break;
                };
                let Ok((response, mut body)) = ready.send_request(grpc_post(addr, "/ladder.v1.Arbiter/Decide"), false) else {
                    break;
                };
                // A header announcing 1,000 bytes, then 10 of them.
                let mut partial = vec![0, 0, 0, 0x03, 0xe8];
                partial.extend_from_slice(&[0x0a, 0x08, b's', b'e', b's', b's', b'i', b'o', b'n', b'1']);
                let _ = body.send_data(partial.into(), false);
                stalled.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let first_answer = first_answer.clone();
                streams.spawn(async move {
                    let sent = Instant::now();
                    let r = response.await;
                    let _keep = body;
                    if let Ok(r) = r
                        && let Some((code, msg)) = grpc_status(r.headers())
                    {
                        first_answer.lock().unwrap().get_or_insert((sent.elapsed(), code, msg));
                    }
                });
            }
            streams.abort_all();
        }));
    }
    // Every stream the three connections may open is stalled.
    wait_until(Duration::from_secs(10), "the attackers never stalled 300 streams", || {
        stalled.load(std::sync::atomic::Ordering::Relaxed) >= 300
    })
    .await;
    // Bounds: on an idle machine each call takes a few ms; 3 s leaves room
    // for a loaded 2-core CI machine while staying under the 5 s deadline
    // the stalled calls would hold slots for without the body timeout.
    for _ in 0..10 {
        well_behaved_client_is_served(d.addr, Duration::from_secs(3)).await;
    }
    // Served still once stalled streams are cut and replaced.
    wait_until(Duration::from_secs(5), "no stalled stream was answered", || first_answer.lock().unwrap().is_some()).await;
    well_behaved_client_is_served(d.addr, Duration::from_secs(3)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for a in attackers {
        a.await.unwrap();
    }
    let (took, code, msg) = first_answer.lock().unwrap().clone().expect("a stalled stream was answered");
    assert_eq!(code, Code::DeadlineExceeded as i32, "{msg}");
    assert!(msg.contains("server.body_timeout_ms"), "{msg}");
    // server.body_timeout_ms is 1 s; 4 s of slack for a loaded machine is
    // still under the 5 s call deadline that applied before.
    assert!(took < Duration::from_secs(4), "a stalled body was cut after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_grants_no_window_can_hold_only_its_stream_limit_of_answers() {
    let d = TestDaemon::default().await;
    let send = h2_client(d.addr, Some(0)).await;
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    // Pipelines up to 1,000 Decides on one connection and never reads a
    // byte of their answers.
    let pipeline = {
        let (answered, addr) = (answered.clone(), d.addr);
        tokio::spawn(async move {
            let mut held = Vec::new();
            for _ in 0..1_000 {
                let Ok(mut ready) = send.clone().ready().await else { break };
                let Ok((response, mut body)) = ready.send_request(grpc_post(addr, "/ladder.v1.Arbiter/Decide"), false) else {
                    break;
                };
                let _ = body.send_data(framed(&panels_request("open links panel d")), true);
                let answered = answered.clone();
                held.push(tokio::spawn(async move {
                    if let Ok(r) = response.await {
                        answered.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        // Hold the answer's body unread.
                        let _body = r.into_body();
                        std::future::pending::<()>().await;
                    }
                }));
            }
            held
        })
    };
    let limit = Config::default().server.max_streams_per_connection as usize;
    // Every stream the connection may open is answered (past the limit,
    // sooner still).
    wait_until(Duration::from_secs(10), "the pipelined calls were never all answered", || {
        answered.load(std::sync::atomic::Ordering::Relaxed) >= limit
    })
    .await;
    well_behaved_client_is_served(d.addr, Duration::from_secs(3)).await;
    let held = answered.load(std::sync::atomic::Ordering::Relaxed);
    // Each answer's headers need no window; its body waits for one. The
    // daemon holds at most one answer per open stream: the client's h2
    // queues the requests past the advertised limit on its own side (they
    // are never sent, so the daemon holds nothing for them).
    assert!(held > 0, "the pipelined calls are answered (headers need no window)");
    assert!(held <= limit, "{held} answers held for one connection, over the stream limit of {limit}");
    pipeline.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_bytes_and_http1_on_the_port_are_dropped_and_others_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let d = TestDaemon::default().await;
    let mut attacks = tokio::task::JoinSet::new();
    for i in 0..60usize {
        let addr = d.addr;
        attacks.spawn(async move {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            let payload: Vec<u8> = match i % 3 {
                0 => (0..65_536u32).map(|j| (j.wrapping_mul(2_654_435_761).wrapping_add(i as u32) >> 13) as u8).collect(),
                1 => b"GET / HTTP/1.1\r\nHost: ladderd\r\n\r\n".to_vec(),
                _ => b"POST /ladder.v1.Arbiter/Decide HTTP/1.1\r\nHost: ladderd\r\nContent-Type: application/grpc\r\nContent-Length: 5\r\n\r\n\0\0\0\0\0"
                    .to_vec(),
            };
            let _ = s.write_all(&payload).await;
            // The daemon closes the connection (after at most a GOAWAY).
            let mut sink = Vec::new();
            let closed = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut sink)).await;
            assert!(closed.is_ok(), "attack {i}: the connection was left open");
        });
    }
    well_behaved_client_is_served(d.addr, Duration::from_secs(3)).await;
    while let Some(r) = attacks.join_next().await {
        r.unwrap();
    }
    well_behaved_client_is_served(d.addr, Duration::from_secs(3)).await;
}

/// The soft limit of open files of this process.
fn own_fd_limit() -> usize {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1024)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_idle_connections_past_the_fd_limit_do_not_lock_out_a_new_client() {
    // The daemon may open 128 files; this process opens up to 2,000 idle
    // connections (fewer if its own limit is lower).
    let idle = 2_000.min(own_fd_limit().saturating_sub(200));
    let (mut child, addr, _) = spawn_binary_with_fd_limit(128, &[]).await;
    let addr: std::net::SocketAddr = addr.parse().unwrap();
    let mut held = Vec::with_capacity(idle);
    // In waves of 200: 2,000 SYNs at once overflow the listen queue on a
    // loaded machine, and a dropped SYN is retried only after a second.
    for _ in 0..idle.div_ceil(200) {
        let mut connecting = tokio::task::JoinSet::new();
        for _ in 0..200.min(idle - held.len().min(idle)) {
            connecting.spawn(async move { tokio::time::timeout(Duration::from_secs(5), tokio::net::TcpStream::connect(addr)).await });
        }
        while let Some(r) = connecting.join_next().await {
            if let Ok(Ok(Ok(s))) = r {
                held.push(s);
            }
        }
    }
    println!("{} idle connections open (of {idle} tried)", held.len());
    // Four times the daemon's 128 descriptors at least.
    assert!(held.len() >= 512.min(idle / 2), "the attack opened too few connections to mean anything");
    // A loaded 2-core machine needs well under a second to churn through
    // the queue of idle connections ahead of the client; 10 s is generous.
    well_behaved_client_is_served(addr, Duration::from_secs(10)).await;
    assert!(child.try_wait().unwrap().is_none(), "the daemon is alive");
    drop(held);
    sigterm(&child);
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await.expect("exits within 5 s").unwrap();
    assert_eq!(status.code(), Some(0));
}
