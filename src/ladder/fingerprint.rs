//! The evidence fingerprint: one stable hash of the evidence an unresolved
//! cycle was decided on. The enrichment loop asks the LLM again only when it
//! changed (S5).
//!
//! Canonical JSON (keys sorted, arrays sorted, no timestamps or random ids)
//! of: schema version, scope binding, option_set_id, sorted candidate ids,
//! candidate signatures sorted by id (id, normalized label, kind, path,
//! sublabel, badge), and sorted SHA-256 hashes of enriched excerpts; hashed
//! with SHA-256, hex encoded. Labels are normalized with `canon::normalize`
//! only (no lexicon), so a lexicon change never changes a fingerprint.

use super::canon::normalize;
use super::types::{Candidate, ScopeRef};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

pub const SCHEMA: &str = "ladder.evidence.v1";

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The canonical JSON text that is hashed (exposed for golden tests and for
/// clients that want to reproduce a fingerprint).
pub fn canonical_json<'a>(
    scope: Option<&ScopeRef>,
    option_set_id: &str,
    candidates: impl IntoIterator<Item = &'a Candidate>,
    excerpts: &[String],
) -> String {
    let mut sigs: Vec<(String, Value)> = candidates
        .into_iter()
        .map(|c| {
            (
                c.id.clone(),
                json!({
                    "id": c.id,
                    "label": normalize(&c.label),
                    "kind": c.kind,
                    "path": c.path,
                    "sublabel": normalize(&c.sublabel),
                    "badge": normalize(&c.badge),
                }),
            )
        })
        .collect();
    sigs.sort_by(|a, b| a.0.cmp(&b.0));
    sigs.dedup_by(|a, b| a.0 == b.0);
    let ids: Vec<&str> = sigs.iter().map(|(id, _)| id.as_str()).collect();
    let mut excerpt_hashes: Vec<String> = excerpts.iter().map(|e| sha256_hex(e.as_bytes())).collect();
    excerpt_hashes.sort();
    excerpt_hashes.dedup();
    let scope = scope.cloned().unwrap_or_default();
    // serde_json's map is a BTreeMap (no `preserve_order`), so keys serialize sorted.
    let doc = json!({
        "schema": SCHEMA,
        "scope": { "scope": scope.scope.as_str(), "instance_id": scope.instance_id },
        "option_set_id": option_set_id,
        "candidate_ids": ids,
        "candidates": sigs.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>(),
        "excerpt_hashes": excerpt_hashes,
    });
    doc.to_string()
}

pub fn fingerprint<'a>(
    scope: Option<&ScopeRef>,
    option_set_id: &str,
    candidates: impl IntoIterator<Item = &'a Candidate>,
    excerpts: &[String],
) -> String {
    sha256_hex(canonical_json(scope, option_set_id, candidates, excerpts).as_bytes())
}

#[cfg(test)]
mod tests;
