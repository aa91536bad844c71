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
//!
//! The candidates' part sorts first in the document, so `FingerprintMemo`
//! keeps the hash state after it for a pool that comes again: the rest
//! (excerpts, option set, scope) is all such a turn hashes. Each
//! candidate's normalized fields ([`Signed`]) depend on its text alone, so
//! a memo keeps them for a label that comes again on a new screen
//! (`intern::LabelMemo`), and the document is written the same with them.

use super::text::normalize_into;
use super::types::{Candidate, ScopeRef};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::sync::Arc;

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
    write_pool(out, candidates.into_iter().map(|c| (c, None)))?;
    write_rest(out, scope, option_set_id, excerpts)
}

/// A candidate's fields the document holds normalized (badge, label,
/// sublabel), normalized and written as JSON strings, as `write_pool`
/// writes them: what the document takes from a candidate's text rather
/// than from its ids, kept by a memo for a label that comes again
/// (`intern::LabelMemo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// The three JSON strings one after another.
    json: Box<str>,
    /// Where the badge's ends and the label's ends.
    ends: [usize; 2],
}

impl Signed {
    pub fn of(c: &Candidate) -> Self {
        let mut out = Vec::new();
        let mut norm = String::new();
        let mut ends = [0; 2];
        for (i, v) in [&c.badge, &c.label, &c.sublabel].into_iter().enumerate() {
            norm.clear();
            normalize_into(v, &mut norm);
            // Writing to a Vec cannot fail.
            let _ = json_str(&mut out, &norm);
            if i < 2 {
                ends[i] = out.len();
            }
        }
        Signed { json: String::from_utf8(out).unwrap_or_default().into_boxed_str(), ends }
    }

    /// Its badge, label and sublabel, as JSON strings.
    fn parts(&self) -> [&str; 3] {
        let [b, l] = self.ends;
        [&self.json[..b], &self.json[b..l], &self.json[l..]]
    }

    /// What it holds on the heap (bytes), for a memo's budget.
    pub fn heap_bytes(&self) -> usize {
        self.json.len()
    }
}

/// The document's first part, which only the pool makes: its candidate
/// ids and signatures (the keys sort before every other). A candidate's
/// normalized fields are `Signed::of` it, given or made here.
fn write_pool<'a, W: Write>(out: &mut W, candidates: impl IntoIterator<Item = (&'a Candidate, Option<&'a Signed>)>) -> std::io::Result<()> {
    let mut cands: Vec<(&Candidate, Option<&Signed>)> = candidates.into_iter().collect();
    cands.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    cands.dedup_by(|a, b| a.0.id == b.0.id);
    let s = |out: &mut W, v: &str| json_str(out, v);
    // Normalized text goes through one reused buffer.
    let mut norm = String::new();
    let mut n = |out: &mut W, v: &str| {
        norm.clear();
        normalize_into(v, &mut norm);
        json_str(out, &norm)
    };
    out.write_all(b"{\"candidate_ids\":[")?;
    for (i, (c, _)) in cands.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        s(out, &c.id)?;
    }
    out.write_all(b"],\"candidates\":[")?;
    for (i, (c, signed)) in cands.iter().enumerate() {
        let [badge, label, sublabel] = signed.map_or([""; 3], |s| s.parts());
        out.write_all(if i > 0 { b",{\"badge\":" } else { b"{\"badge\":" })?;
        match signed {
            Some(_) => out.write_all(badge.as_bytes())?,
            None => n(out, &c.badge)?,
        }
        out.write_all(b",\"id\":")?;
        s(out, &c.id)?;
        out.write_all(b",\"kind\":")?;
        s(out, &c.kind)?;
        out.write_all(b",\"label\":")?;
        match signed {
            Some(_) => out.write_all(label.as_bytes())?,
            None => n(out, &c.label)?,
        }
        out.write_all(b",\"path\":")?;
        s(out, &c.path)?;
        out.write_all(b",\"sublabel\":")?;
        match signed {
            Some(_) => out.write_all(sublabel.as_bytes())?,
            None => n(out, &c.sublabel)?,
        }
        out.write_all(b"}")?;
    }
    out.write_all(b"]")
}

/// The rest of the document: the evidence excerpts, the option set and the
/// scope binding.
fn write_rest<W: Write>(out: &mut W, scope: Option<&ScopeRef>, option_set_id: &str, excerpts: &[String]) -> std::io::Result<()> {
    let mut excerpt_hashes: Vec<String> = excerpts.iter().map(|e| sha256_hex(e.as_bytes())).collect();
    excerpt_hashes.sort();
    excerpt_hashes.dedup();
    let s = |out: &mut W, v: &str| json_str(out, v);
    out.write_all(b",\"excerpt_hashes\":[")?;
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
    // Every byte tested, without stopping at the first that fails: a loop
    // the compiler runs sixteen bytes at a time (ids and kinds of every
    // candidate go through it).
    if v.bytes().fold(true, |plain, b| plain & (b >= 0x20) & (b != b'"') & (b != b'\\')) {
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
    finish(&pool_state(candidates.into_iter().map(|c| (c, None))), scope, option_set_id, excerpts)
}

/// Feeds what is written to a SHA-256 state.
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

/// Writes through `write` into a hash state (the JSON is written in small
/// pieces; the hash takes them in blocks).
fn hashed(state: Sha256, write: impl FnOnce(&mut std::io::BufWriter<Hashing>) -> std::io::Result<()>) -> Sha256 {
    let mut h = std::io::BufWriter::with_capacity(8 * 1024, Hashing(state));
    // Writing to a hash cannot fail.
    let _ = write(&mut h);
    let (mut h, rest) = h.into_parts();
    if let Ok(rest) = rest {
        h.0.update(&rest);
    }
    h.0
}

/// The hash state after the pool's part of the document: what a memo of
/// fingerprints (`FingerprintMemo`) keeps for a pool that comes again. Each
/// candidate's normalized fields are the `Signed` given with it (`Signed::of`
/// it), else made here.
#[derive(Clone)]
pub struct PoolState(Sha256);

pub fn pool_state<'a>(candidates: impl IntoIterator<Item = (&'a Candidate, Option<&'a Signed>)>) -> PoolState {
    PoolState(hashed(Sha256::new(), |h| write_pool(h, candidates)))
}

/// The fingerprint from the pool's hash state and the rest of the evidence.
pub fn finish(state: &PoolState, scope: Option<&ScopeRef>, option_set_id: &str, excerpts: &[String]) -> String {
    hex::encode(hashed(state.0.clone(), |h| write_rest(h, scope, option_set_id, excerpts)).finalize())
}

/// The hash states of the pools' part of recent fingerprints, least
/// recently used out first within a budget of bytes: an unresolved turn
/// over options that come again (every turn of a chat that shows the same
/// list) hashes only its excerpts, option set and scope. A pool that is an
/// option list someone shares whole is known by the list's address
/// (`ByteMemo::get_at`); any other by its signature fields, verified byte for
/// byte before a state is reused. The same fingerprint as `fingerprint` in
/// every case.
#[derive(Debug)]
pub struct FingerprintMemo {
    states: crate::memo::ByteMemo<PoolState>,
}

impl FingerprintMemo {
    /// A memo holding at most `budget` bytes (a pool over an eighth of it
    /// is never kept).
    pub fn new(budget: usize) -> Self {
        FingerprintMemo { states: crate::memo::ByteMemo::new(budget) }
    }

    /// How many pools it holds, and their bytes.
    pub fn held(&self) -> (usize, usize) {
        self.states.held()
    }

    /// `fingerprint(scope, option_set_id, candidates, excerpts)`, the
    /// pool's part from the memo when the same pool was hashed before.
    pub fn fingerprint(&self, scope: Option<&ScopeRef>, option_set_id: &str, candidates: &[&Candidate], excerpts: &[String]) -> String {
        self.fingerprint_with(scope, option_set_id, candidates, excerpts, || pool_state(candidates.iter().map(|c| (*c, None))))
    }

    /// `fingerprint_of_list_with`, the pool's part hashed here.
    pub fn fingerprint_of_list(
        &self,
        scope: Option<&ScopeRef>,
        option_set_id: &str,
        list: &Arc<Vec<Candidate>>,
        excerpts: &[String],
    ) -> String {
        self.fingerprint_of_list_with(scope, option_set_id, list, excerpts, || pool_state(list.iter().map(|c| (c, None))))
    }

    /// `fingerprint`, the pool's part, when the memo does not hold it,
    /// from `signed`: `pool_state` of the candidates, each with its
    /// `Signed` when known (the same state either way); then kept.
    pub fn fingerprint_with(
        &self,
        scope: Option<&ScopeRef>,
        option_set_id: &str,
        candidates: &[&Candidate],
        excerpts: &[String],
        signed: impl FnOnce() -> PoolState,
    ) -> String {
        let key = Signature(candidates);
        let state = match self.states.get_key(&key) {
            (_, Some(state)) => state,
            (hash, None) => {
                let state = signed();
                self.states.put_key(hash, &key, state.clone(), 0);
                state
            }
        };
        finish(&state, scope, option_set_id, excerpts)
    }

    /// `fingerprint_with` of a pool that is `list` whole and in order,
    /// where someone else holds `list` too (`intern::whole_list`): known
    /// by its address, not read.
    pub fn fingerprint_of_list_with(
        &self,
        scope: Option<&ScopeRef>,
        option_set_id: &str,
        list: &Arc<Vec<Candidate>>,
        excerpts: &[String],
        signed: impl FnOnce() -> PoolState,
    ) -> String {
        let state = match self.states.get_at(list) {
            Some(state) => state,
            None => {
                let state = signed();
                self.states.put_at(list, state.clone(), 0);
                state
            }
        };
        finish(&state, scope, option_set_id, excerpts)
    }
}

/// The fields of each candidate the pool's part is made from (id, badge,
/// kind, label, path, sublabel), each after its length, in the pool's
/// order: compared piece by piece with a kept key (`memo::Key`).
struct Signature<'a>(&'a [&'a Candidate]);

impl crate::memo::Key for Signature<'_> {
    fn pieces(&self, mut f: impl FnMut(crate::memo::Piece<'_>) -> bool) -> bool {
        use crate::memo::Piece;
        self.0.iter().all(|c| {
            [&c.id, &c.badge, &c.kind, &c.label, &c.path, &c.sublabel]
                .into_iter()
                .all(|s| f(Piece::Len(s.len() as u32)) && (s.is_empty() || f(Piece::Text(s.as_bytes()))))
        })
    }
}

#[cfg(test)]
mod tests;
