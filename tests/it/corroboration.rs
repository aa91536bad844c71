//! Corroboration end to end (docs/llm.md): an LLM pick executes only when a
//! second ask over the same pool, reordered and relabelled, picks the same
//! candidate (or the deterministic ranking agrees), within what is left of
//! the same budget. Fake providers at the HTTP edge answer by position or
//! by meaning; the real daemon, its metrics, spans, decision records and
//! `ladderd replay`.

use crate::helpers::*;
use crate::telemetry::{Receiver, stop};
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::{FallbackReason as F, Outcome as O};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncBufReadExt;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The data document of an arbitration request, and whether it is the
/// corroborating ask (every id an opaque label `c1`, `c2`, ...).
fn read_ask(body: &[u8]) -> (Value, bool) {
    let body: Value = serde_json::from_slice(body).unwrap_or_default();
    let doc: Value = serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("{}")).unwrap_or_default();
    let opaque = |id: &str| id.strip_prefix('c').is_some_and(|n| n.parse::<usize>().is_ok());
    let second = doc["candidates"].as_array().is_some_and(|c| !c.is_empty() && c.iter().all(|c| opaque(c["id"].as_str().unwrap_or(""))));
    (doc, second)
}

/// How a fake provider answers an ask: `f(document, is_second_ask)` gives
/// the reply content and how long to wait before sending it.
type Answer = dyn Fn(&Value, bool) -> (String, Duration) + Send + Sync;

/// A provider that answers each ask with its `Answer`.
struct Provider(Arc<Answer>);

impl Respond for Provider {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let (doc, second) = read_ask(&req.body);
        let (content, delay) = (self.0)(&doc, second);
        ResponseTemplate::new(200).set_body_json(completion(&content)).set_delay(delay)
    }
}

async fn provider(f: impl Fn(&Value, bool) -> (String, Duration) + Send + Sync + 'static) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST")).respond_with(Provider(Arc::new(f))).mount(&server).await;
    server
}

/// Answers by position: the `k`-th candidate shown (from the end when
/// negative), at confidence 1.0, like the small real model often does.
fn by_position(k: isize) -> impl Fn(&Value, bool) -> (String, Duration) {
    move |doc, _| {
        let c = doc["candidates"].as_array().cloned().unwrap_or_default();
        let i = if k < 0 { c.len() as isize + k } else { k };
        let id = c.get(i.max(0) as usize).and_then(|c| c["id"].as_str()).unwrap_or("none").to_string();
        (select(&id, 1.0), Duration::ZERO)
    }
}

/// Answers by meaning: the candidate labelled `label`, whatever its id or
/// place, at 0.95.
fn by_label(label: &'static str) -> impl Fn(&Value, bool) -> (String, Duration) {
    move |doc, _| {
        let c = doc["candidates"].as_array().cloned().unwrap_or_default();
        let id = c.iter().find(|c| c["label"] == label).and_then(|c| c["id"].as_str()).unwrap_or("none").to_string();
        (select(&id, 0.95), Duration::ZERO)
    }
}

fn auto_config(server: &MockServer, timeout_ms: u64) -> Config {
    let mut c = with_llm(&format!("{}/v1", server.uri()), timeout_ms);
    c.auto_execute.enabled = true;
    c
}

async fn decide_in(d: &TestDaemon, session: &str, input: &str) -> pb::Decision {
    let mut r = panels_request(input);
    r.session_id = session.into();
    d.client.clone().decide(r).await.unwrap().into_inner()
}

async fn bodies(server: &MockServer) -> Vec<Vec<u8>> {
    server.received_requests().await.unwrap_or_default().into_iter().map(|r| r.body).collect()
}

/// Paraphrases of the three panels: no rung matches them, so they are
/// `no_deterministic_match`, the one reason auto-execute allows by default.
const PARAPHRASES: [&str; 4] = ["the one for team e stuff", "the thing for team d", "that panel thing i meant", "the other team one"];

#[tokio::test]
async fn a_provider_answering_by_position_never_executes() {
    for k in [0, 1, -1] {
        // Without corroboration the same provider executes: the test can fail.
        let plain = provider(by_position(k)).await;
        let mut none = auto_config(&plain, 800);
        none.auto_execute.corroboration = ladder::policy::Corroboration::None;
        let uncorroborated = TestDaemon::start(none).await;
        let d = decide_in(&uncorroborated, "none", PARAPHRASES[0]).await;
        assert_eq!((d.outcome(), d.decided_by()), (O::Execute, pb::Decider::Llm), "k={k}");

        let server = provider(by_position(k)).await;
        let daemon = TestDaemon::start(auto_config(&server, 800)).await;
        for (i, input) in PARAPHRASES.iter().enumerate() {
            let d = decide_in(&daemon, &format!("s{k}-{i}"), input).await;
            assert_eq!(d.ambiguity_reason(), pb::AmbiguityReason::NoDeterministicMatch, "{input}");
            assert_ne!(d.outcome(), O::Execute, "k={k} {input}: a positional pick executed");
            let llm = d.llm.clone().unwrap();
            assert_eq!((llm.corroboration.as_str(), llm.corroboration_method.as_str()), ("disagreed", "reorder"), "k={k} {input}");
            assert_eq!(d.fallback_reason(), F::NotCorroborated);
            let c = d.clarifier.unwrap();
            assert_eq!(c.suggested_id, llm.suggested_id);
            assert_eq!(c.option_ids[..2], [llm.suggested_id.clone(), llm.corroborating_id.clone()], "both picks first");
        }
        let got = bodies(&server).await;
        assert_eq!(got.len(), 2 * PARAPHRASES.len(), "two asks a turn");
        for body in got.iter().filter(|b| read_ask(b).1) {
            let text = String::from_utf8_lossy(body);
            assert!(!text.contains("links-panel"), "a real id reached the second ask: {text}");
            let v: Value = serde_json::from_slice(body).unwrap();
            let schema_ids = &v["response_format"]["json_schema"]["schema"]["properties"]["choice_id"]["enum"];
            assert_eq!(*schema_ids, json!(["c1", "c2", "c3", null]), "json_schema names the opaque labels");
        }
    }
}

#[tokio::test]
async fn a_provider_answering_by_meaning_still_executes() {
    let server = provider(by_label("Links Panel E")).await;
    let d = TestDaemon::start(auto_config(&server, 800)).await;
    let r = decide_in(&d, "s", "the one for team e stuff").await;
    assert_eq!((r.outcome(), r.target_id.as_str(), r.decided_by()), (O::Execute, "links-panel-e", pb::Decider::Llm));
    let llm = r.llm.unwrap();
    assert_eq!(
        (llm.corroboration.as_str(), llm.corroborating_id.as_str(), llm.corroboration_verdict.as_str()),
        ("agreed", "links-panel-e", "select")
    );
    let got = bodies(&server).await;
    assert_eq!(got.len(), 2);
    assert_eq!((read_ask(&got[0]).1, read_ask(&got[1]).1), (false, true), "the first ask with real ids, the second relabelled");
    let labels = |b: &[u8]| read_ask(b).0["candidates"].as_array().unwrap().iter().map(|c| c["label"].to_string()).collect::<Vec<_>>();
    let (first, second) = (labels(&got[0]), labels(&got[1]));
    assert!(first.iter().zip(&second).all(|(a, b)| a != b), "every candidate moved: {first:?} / {second:?}");
    assert_eq!(read_ask(&got[0]).0["user_input"], read_ask(&got[1]).0["user_input"]);
    // The cycle counted one LLM call: the loop guard holds for the repeat.
    let again = decide_in(&d, "s", "the one for team e stuff").await;
    assert_eq!(again.outcome(), O::Execute, "an execution resets the guard");
}

#[tokio::test]
async fn the_deterministic_check_alone_lets_a_parrot_of_the_ranking_through_and_both_stops_it() {
    let server = provider(by_position(0)).await;
    let mut det = auto_config(&server, 800);
    det.auto_execute.corroboration = ladder::policy::Corroboration::Deterministic;
    det.auto_execute.deterministic_margin = 0.0;
    let d = TestDaemon::start(det).await;
    let r = decide_in(&d, "d", "the thing for team d").await;
    assert_eq!(r.outcome(), O::Execute, "the first candidate shown is the ranking's first");
    assert_eq!(r.llm.as_ref().unwrap().corroboration_method, "deterministic");
    assert_eq!(bodies(&server).await.len(), 1, "no second ask");
    let mut both = auto_config(&server, 800);
    both.auto_execute.corroboration = ladder::policy::Corroboration::Both;
    both.auto_execute.deterministic_margin = 0.0;
    let d = TestDaemon::start(both).await;
    let r = decide_in(&d, "b", "the thing for team d").await;
    assert_eq!((r.outcome(), r.fallback_reason()), (O::Clarify, F::NotCorroborated));
}

// ------------------------------------------------ the budget split --

/// The first ask answers E after `first`; the second ask answers E after
/// `second` (so only the budget decides whether they agree in time).
fn slow_agreeing(first: Duration, second: Duration) -> impl Fn(&Value, bool) -> (String, Duration) {
    move |doc, is_second| {
        let (content, _) = by_label("Links Panel E")(doc, is_second);
        (content, if is_second { second } else { first })
    }
}

#[tokio::test]
async fn the_second_ask_gets_only_what_is_left_of_the_same_budget() {
    // llm.timeout_ms = 1000: the first ask takes 400 ms, so the second has
    // about 600 ms, not a fresh 1000 ms; it would answer after 5 s.
    let server = provider(slow_agreeing(Duration::from_millis(400), Duration::from_secs(5))).await;
    let d = TestDaemon::start(auto_config(&server, 1_000)).await;
    let t = Instant::now();
    let r = decide_in(&d, "s", "the one for team e stuff").await;
    let took = t.elapsed();
    let llm = r.llm.clone().unwrap();
    println!("took {took:?}; first {} ms, second {} ms", llm.latency_ms, llm.corroboration_latency_ms);
    assert_eq!((r.outcome(), r.fallback_reason()), (O::Clarify, F::NotCorroborated));
    assert_eq!((llm.corroboration.as_str(), llm.corroboration_verdict.as_str()), ("failed", "timeout"));
    assert!(llm.latency_ms >= 400);
    // Both asks fit one budget: the second is cut when 1000 ms from the
    // first's start have passed. 150 ms of slack is only for a late timer
    // wake-up on a busy machine; a fresh budget would make this ~1400.
    assert!(llm.latency_ms + llm.corroboration_latency_ms <= 1_150, "{llm:?}");
    assert!(took < Duration::from_millis(1_350), "{took:?} (a fresh budget for the second ask: ~1400 ms)");
    assert_eq!(bodies(&server).await.len(), 2);

    // With time left it agrees and executes.
    let server = provider(slow_agreeing(Duration::from_millis(300), Duration::from_millis(100))).await;
    let d = TestDaemon::start(auto_config(&server, 1_000)).await;
    let r = decide_in(&d, "s", "the one for team e stuff").await;
    assert_eq!((r.outcome(), r.llm.unwrap().corroboration.as_str()), (O::Execute, "agreed"));
}

#[tokio::test]
async fn less_time_left_than_the_first_ask_took_means_no_second_ask_and_no_execute() {
    // 600 ms of a 1000 ms budget spent: 400 ms left is less than the first
    // ask took, so the second is not sent (it would most likely be cut).
    let server = provider(slow_agreeing(Duration::from_millis(600), Duration::ZERO)).await;
    let d = TestDaemon::start(auto_config(&server, 1_000)).await;
    let r = decide_in(&d, "s", "the one for team e stuff").await;
    assert_eq!((r.outcome(), r.fallback_reason()), (O::Clarify, F::NotCorroborated));
    let llm = r.llm.clone().unwrap();
    assert_eq!((llm.corroboration.as_str(), llm.corroboration_verdict.as_str()), ("skipped_no_time", "deadline"));
    let c = r.clarifier.unwrap();
    assert_eq!((c.suggested_id.as_str(), c.option_ids[0].as_str()), ("links-panel-e", "links-panel-e"), "the pick suggested first");
    assert_eq!(bodies(&server).await.len(), 1, "no second request");
}

#[tokio::test]
async fn the_callers_deadline_caps_the_second_ask() {
    // A 5 s LLM budget, but the caller waits 1.2 s: after a 300 ms first
    // ask the second gets what is left of the deadline minus the margin,
    // and the caller still gets a clarifier in time.
    let server = provider(slow_agreeing(Duration::from_millis(300), Duration::from_secs(5))).await;
    let mut c = auto_config(&server, 5_000);
    // Room to build the clarifier and answer on a busy machine.
    c.llm.deadline_margin_ms = 150;
    let d = TestDaemon::start(c).await;
    let mut req = tonic::Request::new(panels_request("the one for team e stuff"));
    req.set_timeout(Duration::from_millis(1_200));
    let t = Instant::now();
    let r = d.client.clone().decide(req).await.expect("a clarifier, not DEADLINE_EXCEEDED").into_inner();
    assert!(t.elapsed() < Duration::from_millis(1_200), "{:?}", t.elapsed());
    assert_eq!((r.outcome(), r.fallback_reason()), (O::Clarify, F::NotCorroborated));
    assert_eq!(r.llm.unwrap().corroboration, "failed");
}

// ------------------------------------- metrics, spans, records, logs --

#[tokio::test(flavor = "multi_thread")]
async fn metrics_spans_and_records_show_both_asks() {
    let (receiver, endpoint) = Receiver::start().await;
    let server = provider(by_position(0)).await;
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("r.jsonl");
    let admin = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    let url = format!("{}/v1", server.uri());
    let (child, addr, _) = spawn_binary(&[
        ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
        ("LADDER_TELEMETRY__METRICS_LISTEN", &admin),
        ("LADDER_TELEMETRY__DECISION_LOG__PATH", records.to_str().unwrap()),
        ("LADDER_LLM__BASE_URL", &url),
        ("LADDER_LLM__MODEL", "test-model"),
        ("LADDER_AUTO_EXECUTE__ENABLED", "true"),
    ])
    .await;
    let mut client = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    let d = client.decide(panels_request("the one for team e stuff")).await.unwrap().into_inner();
    assert_eq!(d.fallback_reason(), F::NotCorroborated);

    let text = reqwest::get(format!("http://{admin}/metrics")).await.unwrap().text().await.unwrap();
    let value = |series: &str| text.lines().find(|l| l.starts_with(series)).and_then(|l| l.rsplit(' ').next()).map(str::to_string);
    assert_eq!(value("ladder_llm_corroborations_total{method=\"reorder\",result=\"disagreed\"}").as_deref(), Some("1"), "{text}");
    assert_eq!(value("ladder_llm_corroborations_total{method=\"reorder\",result=\"agreed\"}").as_deref(), Some("0"), "zero from the start");
    assert_eq!(value("ladder_llm_calls_total{kind=\"corroboration\",result=\"select\"}").as_deref(), Some("1"), "{text}");
    assert_eq!(value("ladder_llm_calls_total{kind=\"arbitration\",result=\"select\"}").as_deref(), Some("1"), "{text}");
    assert_eq!(value("ladder_fallbacks_total{reason=\"not_corroborated\"}").as_deref(), Some("1"), "{text}");
    stop(child).await;

    let spans = receiver.spans();
    let call = spans.iter().find(|s| s.name == "decide").expect("the decide span");
    assert_eq!(call.attrs.get("ladder.llm.corroboration").map(String::as_str), Some("disagreed"));
    let llm_rung = spans.iter().find(|s| s.name == "llm" && s.parent == call.span_id).expect("the llm rung");
    assert_eq!(llm_rung.attrs.get("ladder.llm.corroboration").map(String::as_str), Some("disagreed"));
    assert!(llm_rung.attrs.contains_key("ladder.llm.corroboration_latency_ms"));
    assert!(llm_rung.events.iter().any(|(n, _)| n == "llm_corroboration"));
    let asks = spans.iter().filter(|s| s.parent == llm_rung.span_id && s.name == "chat test-model").count();
    assert_eq!(asks, 2, "both asks are client spans under the llm rung");

    let line = std::fs::read_to_string(&records).unwrap();
    let rec: Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!(rec["decision"]["llm"]["corroboration"], "disagreed");
    let second = &rec["corroboration"];
    assert_eq!(second["shown"].as_array().unwrap().len(), 3, "{rec}");
    assert!(second["answer"]["kind"] == "replied", "{rec}");
    let kept = second["answer"]["content"].as_str().unwrap();
    assert!(kept.starts_with("sha256:"), "redacted like the first answer: {kept}");
}

type Stderr = tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStderr>>;

/// The binary's stderr lines up to the first that holds `want` (or what
/// came within `wait`).
async fn lines_until(lines: &mut Stderr, want: &str, wait: Duration) -> (Vec<String>, bool) {
    let end = tokio::time::Instant::now() + wait;
    let mut seen = Vec::new();
    while let Ok(Ok(Some(line))) = tokio::time::timeout_at(end, lines.next_line()).await {
        let found = line.contains(want);
        seen.push(line);
        if found {
            return (seen, true);
        }
    }
    (seen, false)
}

const WARNING: &str = "auto_execute.corroboration";

#[tokio::test(flavor = "multi_thread")]
async fn corroboration_none_is_a_warning_at_start_and_on_reload() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ladderd.toml");
    let write = |how: &str, nonce: usize| {
        let toml = format!(
            "# {nonce}\nlisten = \"127.0.0.1:0\"\n[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n[config_reload]\npoll_ms = 100\n[auto_execute]\nenabled = true\ncorroboration = \"{how}\"\n"
        );
        std::fs::write(&file, toml).unwrap();
    };
    write("none", 0);
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .env("LADDER_CONFIG", &file)
        .env("LADDER_TELEMETRY__LOG_FORMAT", "json")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let (start, serving) = lines_until(&mut lines, "\"serving\"", Duration::from_secs(10)).await;
    assert!(serving, "{start:?}");
    let warned: Vec<&String> = start.iter().filter(|l| l.contains(WARNING)).collect();
    assert_eq!(warned.len(), 1, "one warning at start: {start:?}");
    assert!(warned[0].contains("WARN"), "{}", warned[0]);
    // The watcher reads the file first when its task starts, which may be
    // after "serving": a write it missed is written again (a new comment
    // is a new content), until it reloads.
    let mut nonce = 0;
    let mut reload = async |how: &str, lines: &mut Stderr| {
        let mut seen = Vec::new();
        for _ in 0..10 {
            nonce += 1;
            write(how, nonce);
            let (more, reloaded) = lines_until(lines, "configuration reloaded", Duration::from_secs(2)).await;
            seen.extend(more);
            if reloaded {
                return seen;
            }
        }
        panic!("never reloaded: {seen:?}");
    };
    // A reload to "reorder" is quiet; back to "none" warns again.
    let quiet = reload("reorder", &mut lines).await;
    assert!(!quiet.iter().any(|l| l.contains(WARNING)), "{quiet:?}");
    let again = reload("none", &mut lines).await;
    assert!(again.iter().any(|l| l.contains(WARNING) && l.contains("WARN")), "a warning on reload: {again:?}");
    sigterm(&child);
    let _ = child.wait().await;
}

#[test]
fn the_margin_is_validated() {
    let mut c = Config::default();
    c.auto_execute.deterministic_margin = 1.5;
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("auto_execute.deterministic_margin"), "{e}");
}

// ---------------------------------------------------------- replay --

fn replay(records: &Path, config: &Path, corroboration: Option<&str>) -> Value {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"));
    cmd.env_clear().args(["replay", "--json", "--records"]).arg(records).arg("--config").arg(config);
    if let Some(c) = corroboration {
        cmd.args(["--corroboration", c]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Records a mixed provider's decisions (by position for the E/D
/// paraphrases, by meaning for the rest) under `corroboration`.
async fn record(dir: &Path, corroboration: ladder::policy::Corroboration) -> std::path::PathBuf {
    let server = provider(|doc, second| {
        let input = doc["user_input"].as_str().unwrap_or("");
        if input.contains("team e") { by_label("Links Panel E")(doc, second) } else { by_position(0)(doc, second) }
    })
    .await;
    let path = dir.join(format!("{}.jsonl", corroboration.as_str()));
    let mut c = auto_config(&server, 800);
    c.auto_execute.corroboration = corroboration;
    c.telemetry.redact_input = ladderd::config::Redaction::Off;
    c.telemetry.decision_log.path = Some(path.clone());
    let d = TestDaemon::start(c).await;
    for (i, input) in PARAPHRASES.iter().chain(&["links panel", "open links panel d"]).enumerate() {
        decide_in(&d, &format!("r{i}"), input).await;
    }
    d.daemon.close_records(Duration::from_secs(5));
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn replay_shows_what_another_corroboration_setting_would_change() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("auto.toml");
    std::fs::write(&config, "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n[auto_execute]\nenabled = true\n").unwrap();
    let recorded = record(dir.path(), ladder::policy::Corroboration::Reorder).await;

    // The recording's own setting: nothing changes, every second answer applies.
    let same = replay(&recorded, &config, None);
    assert_eq!(same["changed"], json!([]), "{same}");
    assert_eq!((same["corroboration_answer_unavailable"].as_u64(), same["corroboration_answer_mismatched"].as_u64()), (Some(0), Some(0)));
    assert_eq!(same["corroboration_before"], same["corroboration_after"]);
    assert_eq!(same["corroboration_before"]["agreed"], 1, "{same}");
    assert_eq!(same["corroboration_before"]["disagreed"], 3, "{same}");

    // Without corroboration the three positional picks would have executed.
    let none = replay(&recorded, &config, Some("none"));
    let changed = none["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 3, "{none}");
    for c in changed {
        assert_eq!((c["before"]["fallback_reason"].as_str(), c["after"]["outcome"].as_str()), (Some("not_corroborated"), Some("execute")));
    }
    assert_eq!(none["corroboration_after"], json!({}));

    // Records made without corroboration have no second answer: replayed
    // under reorder, their picks are not corroborated, and counted so.
    let uncorroborated = record(dir.path(), ladder::policy::Corroboration::None).await;
    let r = replay(&uncorroborated, &config, Some("reorder"));
    assert_eq!(r["corroboration_answer_unavailable"], 4, "{r}");
    assert_eq!(r["corroboration_after"]["failed"], 4, "{r}");
    let changed = r["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 4, "every uncorroborated execute would be a clarifier: {r}");
    assert!(changed.iter().all(|c| c["before"]["outcome"] == "execute" && c["after"]["fallback_reason"] == "not_corroborated"));
    let text = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .args(["replay", "--corroboration", "reorder", "--records"])
        .arg(&uncorroborated)
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("4 replays wanted a corroborating answer the record does not hold"), "{text}");

    // A recorded second answer is only read against the same ask.
    let lines: Vec<String> = std::fs::read_to_string(&recorded).unwrap().lines().map(String::from).collect();
    let tampered: Vec<String> = lines
        .iter()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(shown) = v.get_mut("corroboration").and_then(|c| c.get_mut("shown")).and_then(Value::as_array_mut) {
                shown.reverse();
            }
            v.to_string()
        })
        .collect();
    let file = dir.path().join("tampered.jsonl");
    std::fs::write(&file, tampered.join("\n")).unwrap();
    let r = replay(&file, &config, None);
    assert_eq!(r["corroboration_answer_mismatched"], 4, "{r}");
    assert!(r["corroboration_after"].get("agreed").is_none(), "{r}");

    // An unknown mode is refused by name.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .args(["replay", "--corroboration", "maybe", "--records"])
        .arg(&recorded)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("reorder, deterministic, both, none"));
}

#[test]
fn records_written_before_corroboration_still_replay_and_are_counted() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/decision-records.jsonl");
    let text = std::fs::read_to_string(&fixture).unwrap();
    assert!(!text.contains("\"corroboration\""), "the fixture predates the field");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("auto.toml");
    std::fs::write(&config, "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n[auto_execute]\nenabled = true\n").unwrap();
    let r = replay(&fixture, &config, Some("reorder"));
    assert_eq!(r["replayed"], 11, "{r}");
    let eligible = text
        .lines()
        .filter(|l| l.contains("\"ambiguity_reason\":\"no_deterministic_match\"") && l.contains("\"verdict\":\"select\""))
        .count();
    assert!(eligible >= 2);
    assert_eq!(r["corroboration_answer_unavailable"], eligible, "{r}");
    assert_eq!(r["after"]["execute"], r["before"]["execute"], "no pick executes uncorroborated (auto-execute was off when recorded): {r}");
}
