//! Sends one arbitration to a live OpenAI-compatible endpoint, exactly as
//! ladderd's LLM rung would, and prints the request, the raw reply, and how
//! the ladder reads it. A manual compatibility check, not part of CI:
//!
//!     LADDER_LLM__BASE_URL=http://127.0.0.1:8080/v1 LADDER_LLM__MODEL=local \
//!     LADDER_LLM__TIMEOUT_MS=5000 cargo run --release --example llm_check -- "the second links panel"
//!
//! Configuration comes from the same layers as the daemon (defaults <
//! LADDER_CONFIG file < LADDER_* env), so the same settings can be tried.

use ladder::ask::{AskCandidate, AskContinuity, LlmAsk};
use ladder::policy::{LlmAnswer, interpret};
use ladder::types::{AmbiguityReason, EvidenceType};
use ladderd::config;
use ladderd::llm::{LlmClient, prompt};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cfg = config::load(std::env::var_os("LADDER_CONFIG").map(std::path::PathBuf::from).as_deref())?;
    let Some(client) = LlmClient::from_config(&cfg.llm)? else {
        return Err("set LADDER_LLM__BASE_URL and LADDER_LLM__MODEL".into());
    };
    let input = std::env::args().nth(1).unwrap_or_else(|| "links panel".into());
    let candidates = [("links-panels", "Links Panels"), ("links-panel-d", "Links Panel D"), ("links-panel-e", "Links Panel E")];
    let ask = LlmAsk {
        canonical_input: ladder::canon::canonicalize(&input, &ladder::lexicon::Lexicon::shipped()),
        reason: AmbiguityReason::MultiMatchNoExactWinner,
        candidates: candidates
            .iter()
            .map(|(id, l)| AskCandidate { id: id.to_string(), label: l.to_string(), kind: "panel".into(), hint: String::new() })
            .collect(),
        continuity: AskContinuity::default(),
        context: Default::default(),
        allowed_evidence: EvidenceType::ALL.to_vec(),
    };
    println!("endpoint: {}\nmodel: {}\nprompt version: {}", client.endpoint(), client.model(), prompt::PROMPT_VERSION);
    println!(
        "request body:\n{}",
        serde_json::to_string_pretty(&prompt::request_body(&ask, client.model(), cfg.llm.response_format, cfg.llm.max_tokens))?
    );
    let call = client.arbitrate(&ask, None).await;
    match &call.answer {
        LlmAnswer::Replied { content, latency_ms } => {
            println!("\nreply in {latency_ms} ms (usage {:?}, model {:?}):\n{content}", call.usage, call.response_model);
            let ids: Vec<&str> = candidates.iter().map(|(id, _)| *id).collect();
            println!("\nthe ladder reads it as: {:?}", interpret(content, &ids, cfg.enrichment.needed_evidence_types_max));
        }
        other => println!("\nno reply: {other:?}"),
    }
    Ok(())
}
