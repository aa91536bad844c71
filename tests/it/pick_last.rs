//! The fake provider the rollout tests and `examples/replay_fixture.rs`
//! (which writes the records those tests replay) both answer with: one
//! file, so the records and the tests come from the same provider.

use serde_json::{Value, json};
use wiremock::{Request, Respond, ResponseTemplate};

/// A provider that picks the candidate whose label sorts last, at 0.9: by
/// meaning, not by place, so a corroborating ask (reordered, relabelled)
/// picks the same one.
pub struct PickLast;

impl Respond for PickLast {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let doc: Value = serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("{}")).unwrap_or_default();
        let id = doc["candidates"]
            .as_array()
            .and_then(|c| c.iter().max_by_key(|c| c["label"].as_str().unwrap_or("").to_string()))
            .and_then(|c| c["id"].as_str())
            .unwrap_or("none")
            .to_string();
        let reply = json!({"decision": "select", "choice_id": id, "confidence": 0.9, "needed_evidence_types": []}).to_string();
        ResponseTemplate::new(200).set_body_json(json!({"choices": [{"message": {"content": reply}}]}))
    }
}
