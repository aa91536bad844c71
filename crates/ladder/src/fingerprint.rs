//! The evidence fingerprint: one stable hash of the evidence an unresolved
//! cycle was decided on. The enrichment loop asks the LLM again only when it
//! changed (S5).
//!
//! Canonical JSON (keys sorted, arrays sorted, no timestamps or random ids)
//! of: schema version, scope binding, option_set_id, sorted candidate ids,
//! candidate signatures sorted by id (id, normalized label, kind, path,
//! sublabel, badge), and sorted SHA-256 hashes of enriched excerpts; hashed
//! with SHA-256, hex encoded. Labels are normalized with `text::normalize`
//! only (no lexicon), so a lexicon change never changes a fingerprint.

use super::text::normalize_into;
use super::types::{Candidate, ScopeRef};
use sha2::{Digest, Sha256};
use std::io::Write;

pub const SCHEMA: &str = "ladder.evidence.v1";

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Writes the canonical JSON: keys in sorted order, compact, strings
/// escaped by serde_json, so any JSON library that sorts keys and prints
/// compactly produces the same bytes (see tests/golden/fingerprint.py).
/// Streams into `out`: no document tree is built, whatever the pool size.
fn write_canonical<'a, W: Write>(
    out: &mut W,
    scope: Option<&ScopeRef>,
    option_set_id: &str,
    candidates: impl IntoIterator<Item = &'a Candidate>,
    excerpts: &[String],
) -> std::io::Result<()> {
    let mut cands: Vec<&Candidate> = candidates.into_iter().collect();
    cands.sort_by(|a, b| a.id.cmp(&b.id));
    cands.dedup_by(|a, b| a.id == b.id);
    let mut excerpt_hashes: Vec<String> = excerpts.iter().map(|e| sha256_hex(e.as_bytes())).collect();
    excerpt_hashes.sort();
    excerpt_hashes.dedup();
    let s = |out: &mut W, v: &str| json_str(out, v);
    // Normalized text goes through one reused buffer.
    let mut norm = String::new();
    let mut n = |out: &mut W, v: &str| {
        norm.clear();
        normalize_into(v, &mut norm);
        json_str(out, &norm)
    };
    out.write_all(b"{\"candidate_ids\":[")?;
    for (i, c) in cands.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        s(out, &c.id)?;
    }
    out.write_all(b"],\"candidates\":[")?;
    for (i, c) in cands.iter().enumerate() {
        out.write_all(if i > 0 { b",{\"badge\":" } else { b"{\"badge\":" })?;
        n(out, &c.badge)?;
        out.write_all(b",\"id\":")?;
        s(out, &c.id)?;
        out.write_all(b",\"kind\":")?;
        s(out, &c.kind)?;
        out.write_all(b",\"label\":")?;
        n(out, &c.label)?;
        out.write_all(b",\"path\":")?;
        s(out, &c.path)?;
        out.write_all(b",\"sublabel\":")?;
        n(out, &c.sublabel)?;
        out.write_all(b"}")?;
    }
    out.write_all(b"],\"excerpt_hashes\":[")?;
    for (i, h) in excerpt_hashes.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        s(out, h)?;
    }
    let scope = scope.cloned().unwrap_or_default();
    out.write_all(b"],\"option_set_id\":")?;
    s(out, option_set_id)?;
    out.write_all(b",\"schema\":")?;
    s(out, SCHEMA)?;
    out.write_all(b",\"scope\":{\"instance_id\":")?;
    s(out, &scope.instance_id)?;
    out.write_all(b",\"scope\":")?;
    s(out, scope.scope.as_str())?;
    out.write_all(b"}}")
}

/// A JSON string as serde_json writes it: text without quotes, backslashes
/// or control characters (nearly all) is written as is; the rest through
/// serde_json.
fn json_str<W: Write>(out: &mut W, v: &str) -> std::io::Result<()> {
    if v.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.write_all(b"\"")?;
        out.write_all(v.as_bytes())?;
        out.write_all(b"\"")
    } else {
        serde_json::to_writer(&mut *out, v).map_err(std::io::Error::other)
    }
}

/// The canonical JSON text that is hashed (exposed for golden tests and for
/// clients that want to reproduce a fingerprint).
pub fn canonical_json<'a>(
    scope: Option<&ScopeRef>,
    option_set_id: &str,
    candidates: impl IntoIterator<Item = &'a Candidate>,
    excerpts: &[String],
) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_canonical(&mut out, scope, option_set_id, candidates, excerpts);
    String::from_utf8(out).unwrap_or_default()
}

/// SHA-256 of the canonical JSON, hex encoded.
pub fn fingerprint<'a>(
    scope: Option<&ScopeRef>,
    option_set_id: &str,
    candidates: impl IntoIterator<Item = &'a Candidate>,
    excerpts: &[String],
) -> String {
    struct Hashing(Sha256);
    impl Write for Hashing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // The JSON is written in small pieces; the hash takes them in blocks.
    let mut h = std::io::BufWriter::with_capacity(8 * 1024, Hashing(Sha256::new()));
    let _ = write_canonical(&mut h, scope, option_set_id, candidates, excerpts);
    let (mut h, rest) = h.into_parts();
    if let Ok(rest) = rest {
        h.0.update(&rest);
    }
    hex::encode(h.0.finalize())
}

#[cfg(test)]
mod tests;
