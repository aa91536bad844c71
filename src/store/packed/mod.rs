//! A session's state as the in-memory store keeps it: packed into one
//! byte string (docs/continuity.md#what-a-session-costs-in-memory).
//!
//! A [`ContinuityState`] as the ladder works on it is some 600 bytes of
//! fields, most of them empty, plus a copy of every id, label and shown
//! text its question and cycle name. Held as it is, a million sessions
//! took 1.5 GiB. Packed, a session is the bytes its fields say and no
//! more, and what the screen already holds is not copied:
//!
//! - The open cycle's request keeps the screen's option list it was sent
//!   with, shared with every session sent the same screen (the memo of
//!   option lists); the packed form keeps that list beside the bytes
//!   ([`Packed::list`]) and the options the question offered as their
//!   positions in it. Their ids, labels and shown texts are read back from
//!   the list.
//! - Each other text is written once; a later field that says the same
//!   (an execute's target, the cycle's order, the accepted ids) refers to
//!   it by its place, and a shown text is written after its label. The
//!   session's id, the store's key, is never written: the held request's
//!   copy refers to it.
//! - The last action, when it is the trace's newest, is a mark.
//! - Enums are their index, numbers varints, and lowercase hex text (the
//!   cycle's id, guard key and evidence fingerprint) its bytes.
//! - The last turn (kept for a repeated `Decide`: its key and its decision
//!   without the trace) writes its enums, flags and marks as one number
//!   in mixed radix; its key is a mark when the held request makes it,
//!   its decision id when the cycle's id is made from it
//!   ([`cycle_id_of`]), the cycle's id and fingerprint marks too; its
//!   question and configuration revision, which most sessions share, are
//!   their place in one table of the process ([`common`]); the rest
//!   refers to the state's texts like any field. 12 bytes for ladderd's
//!   clarifier.
//!
//! The format is this process's own and never leaves it: a shared store
//! keeps the state's JSON. [`pack`] and [`unpack`] destructure every
//! struct whole, so a field added to the state does not compile until it
//! is packed too; `tests` checks that any state comes back as it went in.

use ladder::continuity::{
    ActionEntry, ActionKind, ActionOutcome, ContinuityState, Cycle, Lane, LastTurn, PendingQuestion, QuestionKind, TurnKey,
};
use ladder::types::{
    AmbiguityReason, Asked, Bucket, Candidate, Clarifier, DecideRequest, Decider, Decision, EscapeReason, EvidenceType, FallbackReason,
    FollowUp, FollowUpKind, LlmReport, OptionSet, Outcome, PendingClarifier, Risk, Scope, ScopeRef, Step, Tier,
};
use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

mod read;
mod write;

use read::Reader;
use write::Writer;

/// A state packed: its bytes, and the option list its open cycle's
/// request was sent with (shared, not copied).
#[derive(Debug, Clone, PartialEq)]
pub struct Packed {
    pub bytes: Box<[u8]>,
    pub list: Option<Arc<Vec<Candidate>>>,
}

impl Packed {
    /// Whether `other` is the same state (same bytes, same list).
    pub fn same(&self, other: &Packed) -> bool {
        self.bytes == other.bytes
            && match (&self.list, &other.list) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Packed bytes that do not read back: never made by [`pack`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt(&'static str);

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "packed session state does not read back: {}", self.0)
    }
}

/// The largest buffer a thread keeps between packings.
const BUFFER_KEPT: usize = 16 * 1024;

thread_local! {
    /// The buffer `pack` writes in, kept per thread.
    static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Packs `s`, the state of session `id` (the id the store keys it by,
/// which its held request repeats, is not written).
pub fn pack(s: &ContinuityState, id: &str) -> Packed {
    let list = s.cycle.as_ref().and_then(|c| c.request.as_deref()).and_then(|r| r.options.as_ref()).map(|o| o.candidates.clone());
    let mut w = Writer { out: BUFFER.take(), table: vec![Cow::Borrowed(id)] };
    // The question's options found in the list: their positions, and
    // their id, label and shown text as the first texts of the table.
    let anchored: Vec<usize> = match (&list, &s.question) {
        (Some(l), Some(q)) if !q.offered.is_empty() => positions(l, &q.offered),
        _ => Vec::new(),
    };
    w.uint(anchored.len() as u64);
    for &p in &anchored {
        w.uint(p as u64);
        if let Some(l) = &list {
            let c = &l[p];
            w.table.extend(seeds(c));
        }
    }
    w.state(s);
    // One allocation of the packed size: a vector grown and shrunk to
    // it left the allocator's pages a third empty (`SESSIONS_MILLION=
    // replied`, on a draft of this store that packed every session after
    // each call: 568 bytes of RSS a session that way, 441 this way). The
    // buffer is kept for the next, unless a large state grew it.
    let bytes = Box::from(&w.out[..]);
    if w.out.capacity() <= BUFFER_KEPT {
        w.out.clear();
        BUFFER.set(w.out);
    }
    Packed { bytes, list }
}

/// The state `p` packs, of session `id`.
pub fn unpack(p: &Packed, id: &str) -> Result<ContinuityState, Corrupt> {
    let mut r = Reader { at: p.bytes.as_ref(), table: vec![Cow::Borrowed(id)], list: p.list.as_ref() };
    let n = r.len()?;
    for _ in 0..n {
        let pos = r.uint()? as usize;
        let c = p.list.as_ref().and_then(|l| l.get(pos)).ok_or(Corrupt("an offered option's position"))?;
        r.table.extend(seeds(c));
    }
    let s = r.state()?;
    if !r.at.is_empty() {
        return Err(Corrupt("bytes after the state"));
    }
    Ok(s)
}

/// Where each of `ids` first is in `list` (by id), those found; one pass
/// over the list, whatever its length.
fn positions(list: &[Candidate], ids: &[String]) -> Vec<usize> {
    let mut found: Vec<Option<usize>> = vec![None; ids.len()];
    let mut left = ids.len();
    for (p, c) in list.iter().enumerate() {
        for (k, id) in ids.iter().enumerate() {
            // Ids of one screen often share their length and start: the
            // last byte tells most apart before the whole is compared.
            if found[k].is_none() && c.id.len() == id.len() && c.id.as_bytes().last() == id.as_bytes().last() && c.id == *id {
                found[k] = Some(p);
                left -= 1;
            }
        }
        if left == 0 {
            break;
        }
    }
    found.into_iter().flatten().collect()
}

/// The enum's index among its variants.
fn index_of<E: PartialEq>(all: &[E], v: &E) -> u64 {
    all.iter().position(|x| x == v).unwrap_or(0) as u64
}

// Text tags: 0 the empty text; 1 a new text (its length and bytes follow,
// and it joins the table); 2 lowercase hex of even length (its bytes
// follow); 3 a lowercase UUID (16 bytes follow); 4 a new text that starts
// with one of the table's (its place, then the rest's length and bytes
// follow, and it joins the table: a shown text after its label); 5 a text
// of the process's common table (its place follows: `common`); 6 + k the
// table's k-th.
const EMPTY: u64 = 0;
const NEW: u64 = 1;
const HEX: u64 = 2;
const UUID: u64 = 3;
const PREFIXED: u64 = 4;
const COMMON: u64 = 5;
const TABLE: u64 = 6;

/// Texts many sessions share, each written as its place in this table
/// (a clarifier's question, a configuration's revision: a handful in a
/// process). At most [`common::COMMON_MAX`] texts of at most [`common::COMMON_LEN`]
/// bytes, kept for the process's life (64 KiB at most): once it is full,
/// a text not in it is written out.
pub mod common {
    use std::collections::HashMap;
    use std::sync::{LazyLock, RwLock};

    pub const COMMON_MAX: usize = 256;
    pub const COMMON_LEN: usize = 256;

    #[derive(Default)]
    struct Table {
        places: HashMap<&'static str, u32>,
        texts: Vec<&'static str>,
    }

    static TABLE: LazyLock<RwLock<Table>> = LazyLock::new(Default::default);

    /// The place of `s`, added if there is room.
    pub fn place(s: &str) -> Option<u32> {
        if s.len() > COMMON_LEN {
            return None;
        }
        if let Some(&k) = TABLE.read().unwrap_or_else(|p| p.into_inner()).places.get(s) {
            return Some(k);
        }
        let mut t = TABLE.write().unwrap_or_else(|p| p.into_inner());
        if let Some(&k) = t.places.get(s) {
            return Some(k);
        }
        if t.texts.len() >= COMMON_MAX {
            return None;
        }
        let kept: &'static str = Box::leak(s.into());
        let k = t.texts.len() as u32;
        t.texts.push(kept);
        t.places.insert(kept, k);
        Some(k)
    }

    /// The text at `k`.
    pub fn text(k: u64) -> Option<&'static str> {
        let t = TABLE.read().unwrap_or_else(|p| p.into_inner());
        usize::try_from(k).ok().and_then(|k| t.texts.get(k).copied())
    }
}
/// The shortest label a shown text is written after (`PREFIXED`).
const PREFIX_MIN: usize = 4;
/// How many of the table's first texts a new text is compared with.
const TABLE_SEARCHED: usize = 64;

/// The texts an option found in the list puts in the table, on both
/// sides: its id, its label and what it shows.
fn seeds(c: &Candidate) -> [Cow<'_, str>; 3] {
    [Cow::Borrowed(c.id.as_str()), Cow::Borrowed(c.label.as_str()), Cow::Owned(ladder::replies::shown_text(c))]
}

/// Small fields packed as one number, in mixed radix: `put(v, n)` with
/// `v < n`, the first put the least significant (so the fields most
/// often set come first, and the number stays a few bytes).
#[derive(Debug)]
struct Mixed {
    value: u64,
    scale: u64,
}

impl Default for Mixed {
    fn default() -> Self {
        Mixed { value: 0, scale: 1 }
    }
}

impl Mixed {
    fn put(&mut self, v: u64, n: usize) {
        self.value += v * self.scale;
        self.scale *= n as u64;
    }

    /// An optional enum: 0 for none, else its index + 1.
    fn opt<E: PartialEq>(&mut self, all: &[E], v: &Option<E>) {
        self.put(v.as_ref().map_or(0, |v| index_of(all, v) + 1), all.len() + 1);
    }
}

/// `Mixed` read back, in the order it was put.
struct Unmixed(u64);

impl Unmixed {
    fn take(&mut self, n: u64) -> u64 {
        let v = self.0 % n;
        self.0 /= n;
        v
    }

    fn en<E: Copy>(&mut self, all: &[E]) -> Result<E, Corrupt> {
        let i = self.take(all.len() as u64);
        all.get(i as usize).copied().ok_or(Corrupt("an enum's index"))
    }

    fn opt<E: Copy>(&mut self, all: &[E]) -> Result<Option<E>, Corrupt> {
        match self.take(all.len() as u64 + 1) {
            0 => Ok(None),
            i => all.get(i as usize - 1).copied().map(Some).ok_or(Corrupt("an enum's index")),
        }
    }
}

/// The bits [`cycle_id_of`] flips: none of a UUID's version or variant.
const PAIRED: u128 = u128::from_be_bytes([0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0, 0x5a, 0, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a]);

/// The id of the cycle a decision may open, made from the decision's id
/// (`daemon::turn::Ids`): the same UUID with some bits flipped (a version
/// 4 UUID still, as unguessable as the decision id, which the app gets
/// with it). A session keeping a decision that names the cycle it opened
/// then packs the decision's id as a mark; the other way round too.
pub fn cycle_id_of(decision_id: uuid::Uuid) -> uuid::Uuid {
    uuid::Uuid::from_u128(decision_id.as_u128() ^ PAIRED)
}

/// The decision id a cycle id was made from (or the cycle id a decision id
/// makes), as `uuid` writes it; `None` for an id that is no UUID.
fn paired_id(id: &str) -> Option<String> {
    let u = uuid::Uuid::try_parse(id).ok()?;
    Some(cycle_id_of(u).hyphenated().to_string())
}

#[cfg(test)]
mod tests;
