//! Regenerates `tests/fixtures/decision-records.jsonl`, the decision
//! records the replay tests and docs/rollout.md's transcripts read (do it
//! when the records' format changes, then update what they show):
//!
//!     cargo run --example replay_fixture
//!
//! A daemon in this process, the LLM rung on, pointed at a fake provider
//! that picks the candidate whose label sorts last at 0.9 (by meaning, not
//! by place, so a corroborating ask picks the same one), records unredacted,
//! takes eleven decisions: eight turns of their own, a loop-guard repeat in
//! one session, and a `NEED_MORE_INFO` for a chat scope followed by its
//! `Enrich`. One record a decision.

use ladderd::app::App;
use ladderd::config::{Config, Redaction};
use ladderd::pb;
use ladderd_load::samples::{cand, panels_request};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer};

#[path = "../tests/it/pick_last.rs"]
mod pick_last;
use pick_last::PickLast;

/// Eight turns of their own, a repeat, a chat scope and its `Enrich`.
const RECORDS: usize = 11;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let llm = MockServer::start().await;
    Mock::given(method("POST")).respond_with(PickLast).mount(&llm).await;
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/decision-records.jsonl");
    let _ = std::fs::remove_file(&out);
    let mut c = Config { listen: "127.0.0.1:0".into(), ..Config::default() };
    c.llm.base_url = Some(format!("{}/v1", llm.uri()));
    c.llm.model = Some("test-model".into());
    c.llm.timeout_ms = 800;
    c.telemetry.redact_input = Redaction::Off;
    c.telemetry.decision_log.path = Some(out.clone());
    c.validate()?;
    let app = App::build(c).await?;
    let addr = app.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))?.connect().await?;
    let mut client = pb::arbiter_client::ArbiterClient::new(channel);
    let req = |session: &str, input: &str| panels_request(session, input);
    for (i, input) in [
        "open links panel d",
        "the second one",
        "links panel",
        "the thing for team e",
        "what is links panel d?",
        "lnks pnel",
        "never mind",
        "the thing for team d",
    ]
    .iter()
    .enumerate()
    {
        client.decide(req(&format!("s{i}"), input)).await?;
    }
    // A loop-guard repeat in one session.
    client.decide(req("s2", "links panel")).await?;
    // NEED_MORE_INFO for a chat scope, then Enrich.
    let mut scope = req("s9", "open panel d from chat");
    scope.options = None;
    scope.widget_items = vec![cand("w-1", "Panel D")];
    let first = client.decide(scope).await?.into_inner();
    let evidence = pb::EvidenceBlock {
        r#type: "chat_recoverable_options".into(),
        candidates: vec![cand("chat-d", "Links Panel D"), cand("chat-e", "Links Panel E")],
        excerpt: String::new(),
    };
    client
        .enrich(pb::EnrichRequest {
            session_id: "s9".into(),
            loop_cycle_id: first.loop_cycle_id,
            evidence: vec![evidence],
            ..Default::default()
        })
        .await?;
    let _ = stop.send(());
    server.await??;
    // The records are written by a thread of their own: wait for the last.
    let deadline = Instant::now() + Duration::from_secs(10);
    let written = || std::fs::read_to_string(&out).map_or(0, |t| t.lines().count());
    while written() < RECORDS {
        if Instant::now() > deadline {
            return Err(format!("{} records written in 10 s, {RECORDS} expected", written()).into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    if written() != RECORDS {
        return Err(format!("{} records written, {RECORDS} expected: one a decision", written()).into());
    }
    println!("{RECORDS} records written to {}", out.display());
    Ok(())
}
