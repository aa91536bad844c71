//! The manual corroboration check (docs/llm.md) against a live
//! OpenAI-compatible model, not part of CI: runs the unresolved turns of
//! `examples/corroboration/turns.json` through a real daemon (in this
//! process, over gRPC) with auto-execute on and one
//! `auto_execute.corroboration` setting, and counts right and wrong
//! executes against the candidate each turn meant.
//!
//!     # the small real model (../shared/tools/local-llm, its README)
//!     local-llm --model "$MODEL" --listen 127.0.0.1:8080 &
//!     LADDER_LLM__BASE_URL=http://127.0.0.1:8080/v1 LADDER_LLM__MODEL=local \
//!     LADDER_LLM__TIMEOUT_MS=30000 \
//!       cargo run --release --example corroboration_check -- --corroboration reorder --deadline-ms 40000
//!
//! A small CPU model takes seconds a reply: raise `llm.timeout_ms` (the one
//! budget both asks share) and the client deadline (`--deadline-ms`; the
//! server's `server.request_timeout_ms` cap is raised to it). Configuration
//! comes from the same layers as the daemon (defaults < LADDER_CONFIG file
//! < LADDER_* env); this program only turns auto-execute on and sets the
//! corroboration. Options: `--turns FILE`, `--json FILE` (per-turn results).

use ladderd::app::App;
use ladderd::config;
use ladderd::pb;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mode = arg("--corroboration").unwrap_or_else(|| "reorder".into());
    let corroboration = ladder::policy::Corroboration::parse(&mode).ok_or("--corroboration: one of reorder, deterministic, both, none")?;
    let deadline = Duration::from_millis(arg("--deadline-ms").map_or(Ok(40_000), |s| s.parse())?);
    let turns_file = arg("--turns").unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/examples/corroboration/turns.json").into());
    let spec: Value = serde_json::from_str(&std::fs::read_to_string(&turns_file)?)?;

    let mut cfg = config::load(std::env::var_os("LADDER_CONFIG").map(std::path::PathBuf::from).as_deref())?;
    if cfg.llm.base_url.is_none() {
        return Err("set LADDER_LLM__BASE_URL and LADDER_LLM__MODEL".into());
    }
    cfg.listen = "127.0.0.1:0".into();
    cfg.auto_execute.enabled = true;
    cfg.auto_execute.corroboration = corroboration;
    cfg.server.request_timeout_ms = cfg.server.request_timeout_ms.max(deadline.as_millis() as u64);
    cfg.validate()?;
    println!(
        "corroboration={mode} llm.timeout_ms={} deadline_ms={} model={} endpoint={}",
        cfg.llm.timeout_ms,
        deadline.as_millis(),
        cfg.llm.model.clone().unwrap_or_default(),
        cfg.llm.base_url.clone().unwrap_or_default()
    );
    let app = App::build(cfg).await?;
    let addr = app.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))?.connect().await?;
    let mut client = pb::arbiter_client::ArbiterClient::new(channel);

    let mut rows = Vec::new();
    let mut tally: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut fallbacks: BTreeMap<String, usize> = BTreeMap::new();
    let turns = spec["turns"].as_array().ok_or("turns: a list")?;
    for (i, t) in turns.iter().enumerate() {
        let (pool, input, expect) =
            (t["pool"].as_str().unwrap_or(""), t["input"].as_str().unwrap_or(""), t["expect"].as_str().unwrap_or(""));
        let candidates = spec["pools"][pool]
            .as_array()
            .ok_or_else(|| format!("turn {i}: no pool {pool:?}"))?
            .iter()
            .map(|c| pb::Candidate {
                id: c[0].as_str().unwrap_or("").into(),
                label: c[1].as_str().unwrap_or("").into(),
                ..Default::default()
            })
            .collect();
        let mut req = tonic::Request::new(pb::DecideRequest {
            session_id: format!("check-{i}"),
            turn_id: format!("turn-{i}"),
            input: input.into(),
            options: Some(pb::OptionSet { option_set_id: pool.into(), scope: pb::Scope::Chat as i32, candidates, ..Default::default() }),
            ..Default::default()
        });
        req.set_timeout(deadline);
        let started = Instant::now();
        let d = match client.decide(req).await {
            Ok(d) => d.into_inner(),
            Err(e) => {
                println!("{i:>2} {input:<34} error: {} {}", e.code(), e.message());
                *tally.entry("errors").or_insert(0) += 1;
                continue;
            }
        };
        let ms = started.elapsed().as_millis();
        let llm = d.llm.clone().unwrap_or_default();
        let reason = d.ambiguity_reason().as_str_name().trim_start_matches("AMBIGUITY_REASON_").to_lowercase();
        let unresolved = d.ambiguity_reason() == pb::AmbiguityReason::NoDeterministicMatch && llm.called;
        let executed = d.outcome() == pb::Outcome::Execute;
        let kind = match (unresolved, executed, d.target_id == expect) {
            (false, _, _) => "not_an_llm_turn",
            (true, true, true) => "right_execute",
            (true, true, false) => "wrong_execute",
            (true, false, _) => "no_execute",
        };
        *tally.entry(kind).or_insert(0) += 1;
        if unresolved {
            let first = match (llm.verdict.as_str(), llm.suggested_id == expect) {
                ("select", true) => "first_pick_right",
                ("select", false) => "first_pick_wrong",
                _ => "first_no_pick",
            };
            *tally.entry(first).or_insert(0) += 1;
            if !executed {
                let f = d.fallback_reason().as_str_name().trim_start_matches("FALLBACK_REASON_").to_lowercase();
                *fallbacks.entry(if f == "unspecified" { "gate (clarifier reordered)".into() } else { f }).or_insert(0) += 1;
            }
        }
        println!(
            "{i:>2} {input:<34} {reason:<24} pick {:<14} {:.2} {:<5} -> {:<8} {:<14} corroboration {:<15} second {:<14} {ms:>6} ms",
            llm.suggested_id,
            llm.confidence,
            if llm.suggested_id == expect { "right" } else { "wrong" },
            d.outcome().as_str_name().trim_start_matches("OUTCOME_").to_lowercase(),
            d.target_id,
            if llm.corroboration.is_empty() { "-" } else { llm.corroboration.as_str() },
            if llm.corroborating_id.is_empty() { "-" } else { llm.corroborating_id.as_str() },
        );
        rows.push(json!({
            "input": input, "pool": pool, "expect": expect, "ambiguity_reason": reason, "llm_turn": unresolved,
            "first_pick": llm.suggested_id, "first_confidence": llm.confidence, "first_verdict": llm.verdict,
            "outcome": d.outcome().as_str_name(), "target_id": d.target_id, "fallback_reason": d.fallback_reason().as_str_name(),
            "corroboration": llm.corroboration, "corroborating_id": llm.corroborating_id,
            "corroboration_verdict": llm.corroboration_verdict, "latency_ms": llm.latency_ms,
            "corroboration_latency_ms": llm.corroboration_latency_ms, "elapsed_ms": ms, "result": kind,
        }));
    }
    let n = |k: &str| tally.get(k).copied().unwrap_or(0);
    let llm_turns = n("right_execute") + n("wrong_execute") + n("no_execute");
    println!(
        "\ncorroboration={mode}: {llm_turns} unresolved LLM turns (no_deterministic_match) of {}; first picks right {} / wrong {} / none {}",
        turns.len(),
        n("first_pick_right"),
        n("first_pick_wrong"),
        n("first_no_pick")
    );
    println!(
        "executes: right {}, wrong {}; not executed {} ({fallbacks:?}); other turns {}, errors {}",
        n("right_execute"),
        n("wrong_execute"),
        n("no_execute"),
        n("not_an_llm_turn"),
        n("errors")
    );
    if let Some(path) = arg("--json") {
        std::fs::write(path, serde_json::to_string_pretty(&json!({"corroboration": mode, "turns": rows, "tally": tally}))?)?;
    }
    let _ = stop.send(());
    let _ = server.await;
    Ok(())
}
