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

struct Writer<'a> {
    out: Vec<u8>,
    /// The texts written so far (and the anchored options' texts).
    table: Vec<Cow<'a, str>>,
}

impl<'a> Writer<'a> {
    fn uint(&mut self, v: u64) {
        prost::encoding::encode_varint(v, &mut self.out);
    }

    fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn flag(&mut self, b: bool) {
        self.out.push(b as u8);
    }

    fn text(&mut self, s: &'a str) {
        if s.is_empty() {
            return self.uint(EMPTY);
        }
        // Only the first texts are looked through: a request's long lists
        // of other candidates would make it quadratic.
        let searched = &self.table[..self.table.len().min(TABLE_SEARCHED)];
        if let Some(k) = searched.iter().position(|t| *t == s) {
            return self.uint(TABLE + k as u64);
        }
        self.uint(NEW);
        self.uint(s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
        self.table.push(Cow::Borrowed(s));
    }

    /// `text`, written after `head` when it starts with it and `head` was
    /// written before (a shown text after its label).
    fn text_after(&mut self, s: &'a str, head: Option<&str>) {
        let searched = &self.table[..self.table.len().min(TABLE_SEARCHED)];
        let at = head.filter(|h| h.len() >= PREFIX_MIN && s.len() > h.len() && s.starts_with(*h)).and_then(|h| {
            // Not when `s` itself is known (a table reference is shorter).
            (!searched.iter().any(|t| *t == s)).then(|| searched.iter().position(|t| *t == h).map(|k| (k, h.len()))).flatten()
        });
        let Some((k, len)) = at else { return self.text(s) };
        let rest = &s[len..];
        self.uint(PREFIXED);
        self.uint(k as u64);
        self.uint(rest.len() as u64);
        self.out.extend_from_slice(rest.as_bytes());
        self.table.push(Cow::Borrowed(s));
    }

    /// Text that is often lowercase hex: its bytes when it is.
    fn hex(&mut self, s: &'a str) {
        // Only the text a read writes back the same: lowercase, and a UUID
        // hyphenated as `uuid` writes it.
        let lower = !s.is_empty() && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if let Some(u) = uuid::Uuid::try_parse(s).ok().filter(|u| u.hyphenated().encode_lower(&mut uuid::Uuid::encode_buffer()) == s) {
            self.uint(UUID);
            self.out.extend_from_slice(u.as_bytes());
        } else if let Some(bytes) = lower.then(|| hex::decode(s).ok()).flatten() {
            self.uint(HEX);
            self.uint(bytes.len() as u64);
            self.out.extend_from_slice(&bytes);
        } else {
            self.text(s);
        }
    }

    /// Text that many sessions share: its place in the common table when
    /// it is there or there is room.
    fn common(&mut self, s: &'a str) {
        match (!s.is_empty()).then(|| common::place(s)).flatten() {
            Some(k) => {
                self.uint(COMMON);
                self.uint(u64::from(k));
            }
            None => self.text(s),
        }
    }

    /// The last turn: its small fields as one number (`Mixed`), then the
    /// texts the number says are there.
    fn last_turn(&mut self, t: &'a LastTurn, cycle: Option<&'a Cycle>) {
        let LastTurn { key, decision } = t;
        let Decision {
            decision_id,
            outcome,
            target_id,
            decided_by,
            confidence,
            ambiguity_reason,
            fallback_reason,
            escape_reason,
            handled_by_tier,
            clarifier,
            needed_evidence_types,
            llm,
            loop_cycle_id,
            evidence_fingerprint,
            trace,
            config_revision,
            pool_version,
            follow_up,
            about,
        } = decision;
        // The key, when the held request makes it (the turn opened the
        // cycle); the decision id, when the cycle's id is made from it
        // (`cycle_id_of`).
        let held_key = cycle.and_then(|c| c.request.as_deref()).and_then(|r| TurnKey::of(&r.turn_id, &r.input)) == Some(*key);
        let own_id = cycle.is_some_and(|c| paired_id(&c.id).as_deref() == Some(decision_id.as_str()));
        let of_cycle = |s: &Option<String>, of: Option<&str>| match s {
            None => 0,
            Some(s) if Some(s.as_str()) == of => 1,
            Some(_) => 2,
        };
        let (loop_mark, fingerprint_mark) =
            (of_cycle(loop_cycle_id, cycle.map(|c| c.id.as_str())), of_cycle(evidence_fingerprint, cycle.map(|c| c.fingerprint.as_str())));
        let none = *llm == LlmReport::default();
        let mut m = Mixed::default();
        m.put(u64::from(held_key), 2);
        m.put(u64::from(own_id), 2);
        m.put(index_of(Outcome::ALL, outcome), Outcome::ALL.len());
        m.put(index_of(Decider::ALL, decided_by), Decider::ALL.len());
        m.opt(Bucket::ALL, confidence);
        m.opt(AmbiguityReason::ALL, ambiguity_reason);
        m.opt(FallbackReason::ALL, fallback_reason);
        m.put(index_of(Tier::ALL, handled_by_tier), Tier::ALL.len());
        m.put(u64::from(target_id.is_some()), 2);
        m.put(clarifier.as_ref().map_or(0, |c| index_of(PendingClarifier::ALL, &c.kind) + 1), PendingClarifier::ALL.len() + 1);
        m.put(loop_mark, 3);
        m.put(fingerprint_mark, 3);
        m.put(u64::from(clarifier.as_ref().is_some_and(|c| c.suggested_id.is_some())), 2);
        m.opt(EscapeReason::ALL, escape_reason);
        m.put(u64::from(!needed_evidence_types.is_empty()), 2);
        m.put(u64::from(!none), 2);
        m.put(u64::from(!trace.is_empty()), 2);
        m.put(u64::from(pool_version.is_some()), 2);
        m.opt(FollowUpKind::ALL, &follow_up.as_ref().map(|f| f.kind));
        // Last: a record written before `about` reads it as absent.
        m.put(u64::from(!about.is_empty()), 2);
        self.uint(m.value);
        if !held_key {
            let TurnKey { turn, input } = key;
            self.out.extend_from_slice(&turn.to_le_bytes());
            self.out.extend_from_slice(&input.to_le_bytes());
        }
        if !own_id {
            self.hex(decision_id);
        }
        if let Some(t) = target_id {
            self.text(t);
        }
        if let Some(Clarifier { question, option_ids, suggested_id, kind: _ }) = clarifier {
            self.common(question);
            self.texts(option_ids);
            if let Some(s) = suggested_id {
                self.text(s);
            }
        }
        if !needed_evidence_types.is_empty() {
            self.uint(needed_evidence_types.len() as u64);
            for t in needed_evidence_types {
                self.uint(index_of(EvidenceType::ALL, t));
            }
        }
        if !none {
            self.llm(llm);
        }
        for (mark, s) in [(loop_mark, loop_cycle_id), (fingerprint_mark, evidence_fingerprint)] {
            if let (2, Some(s)) = (mark, s) {
                self.hex(s);
            }
        }
        if !trace.is_empty() {
            self.uint(trace.len() as u64);
            for Step { rung, outcome, detail, duration_us } in trace {
                self.text(rung);
                self.text(outcome);
                self.text(detail);
                self.uint(*duration_us);
            }
        }
        self.common(config_revision);
        if let Some(p) = pool_version {
            self.text(p);
        }
        if let Some(FollowUp { kind: _, text }) = follow_up {
            self.text(text);
        }
        if !about.is_empty() {
            self.texts(about);
        }
    }

    fn llm(&mut self, l: &'a LlmReport) {
        let LlmReport {
            called,
            guard_hit,
            latency_ms,
            suggested_id,
            confidence,
            verdict,
            shadow,
            corroboration,
            corroboration_method,
            corroborating_id,
            corroboration_verdict,
            corroboration_latency_ms,
        } = l;
        self.flag(*called);
        self.flag(*guard_hit);
        self.uint(u64::from(*latency_ms));
        self.opt_text(suggested_id);
        self.uint(u64::from(confidence.to_bits()));
        self.common(verdict);
        self.flag(*shadow);
        self.common(corroboration);
        self.common(corroboration_method);
        self.opt_text(corroborating_id);
        self.common(corroboration_verdict);
        self.uint(u64::from(*corroboration_latency_ms));
    }

    fn opt_text(&mut self, s: &'a Option<String>) {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.text(s);
        }
    }

    fn texts<I: IntoIterator<Item = &'a String>>(&mut self, v: I)
    where
        I::IntoIter: ExactSizeIterator,
    {
        let v = v.into_iter();
        self.uint(v.len() as u64);
        for s in v {
            self.text(s);
        }
    }

    fn scope_ref(&mut self, s: &'a Option<ScopeRef>) {
        self.flag(s.is_some());
        if let Some(ScopeRef { scope, instance_id }) = s {
            self.uint(index_of(Scope::ALL, scope));
            self.text(instance_id);
        }
    }

    fn state(&mut self, s: &'a ContinuityState) {
        let ContinuityState {
            last_resolved_action,
            recent_action_trace,
            last_accepted_choice_id,
            recent_accepted_choice_ids,
            recent_rejected_choice_ids,
            active_option_set_id,
            active_scope,
            pending_clarifier_type,
            question,
            turn_count,
            context_turn,
            context_at_ms,
            cycle,
            last_turn,
        } = s;
        // The question first: its texts are the ones most repeated.
        self.flag(question.is_some());
        if let Some(q) = question {
            self.question(q);
        }
        self.uint(recent_action_trace.len() as u64);
        for a in recent_action_trace {
            self.action(a);
        }
        // The last action is most often the trace's newest: 2 says so.
        match last_resolved_action {
            None => self.uint(0),
            Some(a) if recent_action_trace.front() == Some(a) => self.uint(2),
            Some(a) => {
                self.uint(1);
                self.action(a);
            }
        }
        self.opt_text(last_accepted_choice_id);
        self.texts(recent_accepted_choice_ids);
        self.texts(recent_rejected_choice_ids);
        self.opt_text(active_option_set_id);
        self.scope_ref(active_scope);
        self.uint(index_of(PendingClarifier::ALL, pending_clarifier_type));
        self.uint(*turn_count);
        self.uint(*context_turn);
        self.uint(*context_at_ms);
        self.flag(cycle.is_some());
        if let Some(c) = cycle {
            self.cycle(c);
        }
        // Last: its decision refers to the texts above.
        self.flag(last_turn.is_some());
        if let Some(t) = last_turn {
            self.last_turn(t, cycle.as_ref());
        }
    }

    fn question(&mut self, q: &'a PendingQuestion) {
        let PendingQuestion { kind, offered, proposed, shown, labels } = q;
        self.uint(index_of(QuestionKind::ALL, kind));
        self.texts(offered);
        self.opt_text(proposed);
        // Labels before the shown texts, which start with them.
        self.texts(labels);
        self.uint(shown.len() as u64);
        for (k, s) in shown.iter().enumerate() {
            self.text_after(s, labels.get(k).map(String::as_str));
        }
    }

    fn action(&mut self, a: &'a ActionEntry) {
        let ActionEntry { kind, target_ref, source_scope, option_set_id, timestamp_ms, outcome, target_label, chosen_by } = a;
        self.uint(index_of(ActionKind::ALL, kind));
        self.text(target_ref);
        self.uint(index_of(Scope::ALL, source_scope));
        self.text(option_set_id);
        self.int(*timestamp_ms);
        self.uint(index_of(ActionOutcome::ALL, outcome));
        self.text(target_label);
        self.uint(*chosen_by);
    }

    fn cycle(&mut self, c: &'a Cycle) {
        let Cycle {
            id,
            guard_key,
            llm_attempted,
            ordering,
            suggested_id,
            lane,
            fingerprint,
            enrichment_steps,
            llm_calls,
            request,
            excerpts,
            history,
            supplied,
            resolved,
        } = c;
        self.hex(id);
        self.hex(guard_key);
        self.flag(*llm_attempted);
        self.texts(ordering);
        self.opt_text(suggested_id);
        self.uint(index_of(Lane::ALL, lane));
        self.hex(fingerprint);
        self.uint(u64::from(*enrichment_steps));
        self.uint(u64::from(*llm_calls));
        self.flag(request.is_some());
        if let Some(r) = request {
            self.request(r);
        }
        self.texts(excerpts);
        self.texts(history);
        self.uint(supplied.len() as u64);
        for t in supplied {
            self.uint(index_of(EvidenceType::ALL, t));
        }
        self.flag(*resolved);
    }

    fn request(&mut self, r: &'a DecideRequest) {
        let DecideRequest {
            session_id,
            turn_id,
            input,
            active_scope,
            options,
            recoverable_chat_options,
            widget_items,
            commands,
            force_clarify_only,
            language,
            labels,
        } = r;
        self.text(session_id);
        // Most often a UUID (the client packages make one per turn).
        self.hex(turn_id);
        self.text(input);
        self.scope_ref(active_scope);
        self.flag(options.is_some());
        // The candidates are the list kept beside the bytes (`pack`).
        if let Some(OptionSet { option_set_id, scope, candidates: _, version, by_reference, asked }) = options {
            self.text(option_set_id);
            self.uint(index_of(Scope::ALL, scope));
            self.text(version);
            self.flag(*by_reference);
            self.uint(index_of(Asked::ALL, asked));
        }
        for l in [recoverable_chat_options, widget_items, commands] {
            self.uint(l.len() as u64);
            for c in l {
                self.candidate(c);
            }
        }
        self.flag(*force_clarify_only);
        self.text(language);
        self.uint(labels.len() as u64);
        for (k, v) in labels {
            self.text(k);
            self.text(v);
        }
    }

    fn candidate(&mut self, c: &'a Candidate) {
        let Candidate { id, label, sublabel, badge, kind, path, aliases, risk } = c;
        for s in [id, label, sublabel, badge, kind, path] {
            self.text(s);
        }
        self.texts(aliases);
        self.uint(index_of(Risk::ALL, risk));
    }
}

struct Reader<'a> {
    at: &'a [u8],
    /// The texts read so far, borrowed from the bytes where they are
    /// whole there (and the anchored options' texts, from the list).
    table: Vec<Cow<'a, str>>,
    list: Option<&'a Arc<Vec<Candidate>>>,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, Corrupt> {
        let (&b, rest) = self.at.split_first().ok_or(Corrupt("ends early"))?;
        self.at = rest;
        Ok(b)
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], Corrupt> {
        if self.at.len() < n {
            return Err(Corrupt("ends early"));
        }
        let (b, rest) = self.at.split_at(n);
        self.at = rest;
        Ok(b)
    }

    fn uint(&mut self) -> Result<u64, Corrupt> {
        prost::encoding::decode_varint(&mut self.at).map_err(|_| Corrupt("a number"))
    }

    /// A count: never more than the bytes left (each item takes one).
    fn len(&mut self) -> Result<usize, Corrupt> {
        let n = self.uint()?;
        if n > self.at.len() as u64 {
            return Err(Corrupt("a count over the bytes left"));
        }
        Ok(n as usize)
    }

    fn int(&mut self) -> Result<i64, Corrupt> {
        let v = self.uint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn flag(&mut self) -> Result<bool, Corrupt> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Corrupt("a flag")),
        }
    }

    fn en<E: Copy>(&mut self, all: &[E]) -> Result<E, Corrupt> {
        let i = self.uint()?;
        all.get(i as usize).copied().ok_or(Corrupt("an enum's index"))
    }

    fn str(&mut self, n: usize) -> Result<&'a str, Corrupt> {
        std::str::from_utf8(self.bytes(n)?).map_err(|_| Corrupt("text that is not UTF-8"))
    }

    fn known(&self, k: u64) -> Result<&Cow<'a, str>, Corrupt> {
        self.table.get(usize::try_from(k).unwrap_or(usize::MAX)).ok_or(Corrupt("a text's place"))
    }

    fn text(&mut self) -> Result<String, Corrupt> {
        match self.uint()? {
            EMPTY => Ok(String::new()),
            NEW => {
                let n = self.len()?;
                let s = self.str(n)?;
                self.table.push(Cow::Borrowed(s));
                Ok(s.to_string())
            }
            PREFIXED => {
                let k = self.uint()?;
                let n = self.len()?;
                let rest = self.str(n)?;
                let s = format!("{}{rest}", self.known(k)?);
                self.table.push(Cow::Owned(s.clone()));
                Ok(s)
            }
            HEX => {
                let n = self.len()?;
                Ok(hex::encode(self.bytes(n)?))
            }
            UUID => {
                let bytes = self.bytes(16)?.try_into().map_err(|_| Corrupt("a UUID"))?;
                Ok(uuid::Uuid::from_bytes(bytes).hyphenated().to_string())
            }
            COMMON => Ok(common::text(self.uint()?).ok_or(Corrupt("a common text's place"))?.to_string()),
            k => Ok(self.known(k - TABLE)?.to_string()),
        }
    }

    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], Corrupt> {
        self.bytes(N)?.try_into().map_err(|_| Corrupt("ends early"))
    }

    fn last_turn(&mut self, cycle: Option<&Cycle>) -> Result<LastTurn, Corrupt> {
        let mut m = Unmixed(self.uint()?);
        let held_key = m.take(2) == 1;
        let own_id = m.take(2) == 1;
        let outcome = m.en(Outcome::ALL)?;
        let decided_by = m.en(Decider::ALL)?;
        let confidence = m.opt(Bucket::ALL)?;
        let ambiguity_reason = m.opt(AmbiguityReason::ALL)?;
        let fallback_reason = m.opt(FallbackReason::ALL)?;
        let handled_by_tier = m.en(Tier::ALL)?;
        let has_target = m.take(2) == 1;
        let kind = m.opt(PendingClarifier::ALL)?;
        let (loop_mark, fingerprint_mark) = (m.take(3), m.take(3));
        let has_suggested = m.take(2) == 1;
        let escape_reason = m.opt(EscapeReason::ALL)?;
        let has_needed = m.take(2) == 1;
        let has_llm = m.take(2) == 1;
        let has_trace = m.take(2) == 1;
        let has_pool = m.take(2) == 1;
        let follow = m.opt(FollowUpKind::ALL)?;
        let has_about = m.take(2) == 1;
        if m.0 != 0 {
            return Err(Corrupt("a turn's fields"));
        }
        let key = if held_key {
            let held = cycle.and_then(|c| c.request.as_deref()).ok_or(Corrupt("the request a turn's key is read from"))?;
            TurnKey::of(&held.turn_id, &held.input).ok_or(Corrupt("a turn's key"))?
        } else {
            TurnKey { turn: u32::from_le_bytes(self.fixed()?), input: u32::from_le_bytes(self.fixed()?) }
        };
        let decision_id = if own_id {
            cycle.and_then(|c| paired_id(&c.id)).ok_or(Corrupt("the cycle a decision id is made from"))?
        } else {
            self.text()?
        };
        let target_id = if has_target { Some(self.text()?) } else { None };
        let clarifier = match kind {
            Some(kind) => Some(Clarifier {
                question: self.text()?,
                option_ids: self.texts()?,
                suggested_id: if has_suggested { Some(self.text()?) } else { None },
                kind,
            }),
            None if has_suggested => return Err(Corrupt("a suggestion without a clarifier")),
            None => None,
        };
        let needed_evidence_types = if has_needed {
            let n = self.len()?;
            (0..n).map(|_| self.en(EvidenceType::ALL)).collect::<Result<_, _>>()?
        } else {
            Vec::new()
        };
        let llm = if has_llm { self.llm()? } else { LlmReport::default() };
        let mut of_cycle = |mark: u64, of: Option<&String>| -> Result<Option<String>, Corrupt> {
            match mark {
                0 => Ok(None),
                1 => Ok(Some(of.cloned().ok_or(Corrupt("the cycle a decision names"))?)),
                _ => Ok(Some(self.text()?)),
            }
        };
        let loop_cycle_id = of_cycle(loop_mark, cycle.map(|c| &c.id))?;
        let evidence_fingerprint = of_cycle(fingerprint_mark, cycle.map(|c| &c.fingerprint))?;
        let trace = if has_trace {
            let n = self.len()?;
            (0..n)
                .map(|_| Ok(Step { rung: self.text()?.into(), outcome: self.text()?, detail: self.text()?, duration_us: self.uint()? }))
                .collect::<Result<_, Corrupt>>()?
        } else {
            Vec::new()
        };
        let decision = Decision {
            decision_id,
            outcome,
            target_id,
            decided_by,
            confidence,
            ambiguity_reason,
            fallback_reason,
            escape_reason,
            handled_by_tier,
            clarifier,
            needed_evidence_types,
            llm,
            loop_cycle_id,
            evidence_fingerprint,
            trace,
            config_revision: self.text()?,
            pool_version: if has_pool { Some(self.text()?) } else { None },
            follow_up: match follow {
                Some(kind) => Some(FollowUp { kind, text: self.text()? }),
                None => None,
            },
            about: if has_about { self.texts()? } else { Vec::new() },
        };
        Ok(LastTurn { key, decision })
    }

    fn llm(&mut self) -> Result<LlmReport, Corrupt> {
        Ok(LlmReport {
            called: self.flag()?,
            guard_hit: self.flag()?,
            latency_ms: self.u32()?,
            suggested_id: self.opt_text()?,
            confidence: f32::from_bits(self.u32()?),
            verdict: self.text()?,
            shadow: self.flag()?,
            corroboration: self.text()?,
            corroboration_method: self.text()?,
            corroborating_id: self.opt_text()?,
            corroboration_verdict: self.text()?,
            corroboration_latency_ms: self.u32()?,
        })
    }

    fn opt_text(&mut self) -> Result<Option<String>, Corrupt> {
        Ok(if self.flag()? { Some(self.text()?) } else { None })
    }

    fn texts<C: FromIterator<String>>(&mut self) -> Result<C, Corrupt> {
        let n = self.len()?;
        (0..n).map(|_| self.text()).collect()
    }

    fn scope_ref(&mut self) -> Result<Option<ScopeRef>, Corrupt> {
        Ok(if self.flag()? { Some(ScopeRef { scope: self.en(Scope::ALL)?, instance_id: self.text()? }) } else { None })
    }

    fn state(&mut self) -> Result<ContinuityState, Corrupt> {
        let question = if self.flag()? { Some(self.question()?) } else { None };
        let n = self.len()?;
        let recent_action_trace: VecDeque<ActionEntry> = (0..n).map(|_| self.action()).collect::<Result<_, _>>()?;
        let last_resolved_action = match self.uint()? {
            0 => None,
            1 => Some(self.action()?),
            2 => Some(recent_action_trace.front().cloned().ok_or(Corrupt("the trace's newest action"))?),
            _ => return Err(Corrupt("the last action")),
        };
        let last_accepted_choice_id = self.opt_text()?;
        let recent_accepted_choice_ids = self.texts()?;
        let recent_rejected_choice_ids = self.texts()?;
        let active_option_set_id = self.opt_text()?;
        let active_scope = self.scope_ref()?;
        let pending_clarifier_type = self.en(PendingClarifier::ALL)?;
        let turn_count = self.uint()?;
        let context_turn = self.uint()?;
        let context_at_ms = self.uint()?;
        let cycle = if self.flag()? { Some(self.cycle()?) } else { None };
        let last_turn = if self.flag()? { Some(Box::new(self.last_turn(cycle.as_ref())?)) } else { None };
        Ok(ContinuityState {
            last_resolved_action,
            recent_action_trace,
            last_accepted_choice_id,
            recent_accepted_choice_ids,
            recent_rejected_choice_ids,
            active_option_set_id,
            active_scope,
            pending_clarifier_type,
            question,
            turn_count,
            context_turn,
            context_at_ms,
            cycle,
            last_turn,
        })
    }

    fn question(&mut self) -> Result<PendingQuestion, Corrupt> {
        let kind = self.en(QuestionKind::ALL)?;
        let offered = self.texts()?;
        let proposed = self.opt_text()?;
        let labels = self.texts()?;
        Ok(PendingQuestion { kind, offered, proposed, labels, shown: self.texts()? })
    }

    fn action(&mut self) -> Result<ActionEntry, Corrupt> {
        Ok(ActionEntry {
            kind: self.en(ActionKind::ALL)?,
            target_ref: self.text()?,
            source_scope: self.en(Scope::ALL)?,
            option_set_id: self.text()?,
            timestamp_ms: self.int()?,
            outcome: self.en(ActionOutcome::ALL)?,
            target_label: self.text()?,
            chosen_by: self.uint()?,
        })
    }

    fn u32(&mut self) -> Result<u32, Corrupt> {
        u32::try_from(self.uint()?).map_err(|_| Corrupt("a count over u32"))
    }

    fn cycle(&mut self) -> Result<Cycle, Corrupt> {
        Ok(Cycle {
            id: self.text()?,
            guard_key: self.text()?,
            llm_attempted: self.flag()?,
            ordering: self.texts()?,
            suggested_id: self.opt_text()?,
            lane: self.en(Lane::ALL)?,
            fingerprint: self.text()?,
            enrichment_steps: self.u32()?,
            llm_calls: self.u32()?,
            request: if self.flag()? { Some(Arc::new(self.request()?)) } else { None },
            excerpts: self.texts()?,
            history: self.texts()?,
            supplied: {
                let n = self.len()?;
                (0..n).map(|_| self.en(EvidenceType::ALL)).collect::<Result<_, _>>()?
            },
            resolved: self.flag()?,
        })
    }

    fn request(&mut self) -> Result<DecideRequest, Corrupt> {
        let session_id = self.text()?;
        let turn_id = self.text()?;
        let input = self.text()?;
        let active_scope = self.scope_ref()?;
        let options = if self.flag()? {
            Some(OptionSet {
                option_set_id: self.text()?,
                scope: self.en(Scope::ALL)?,
                candidates: self.list.cloned().ok_or(Corrupt("the options' list"))?,
                version: self.text()?,
                by_reference: self.flag()?,
                asked: self.en(Asked::ALL)?,
            })
        } else {
            None
        };
        let mut lists: [Vec<Candidate>; 3] = Default::default();
        for l in &mut lists {
            let n = self.len()?;
            *l = (0..n).map(|_| self.candidate()).collect::<Result<_, _>>()?;
        }
        let [recoverable_chat_options, widget_items, commands] = lists;
        let force_clarify_only = self.flag()?;
        let language = self.text()?;
        let n = self.len()?;
        let mut labels = BTreeMap::new();
        for _ in 0..n {
            let k = self.text()?;
            labels.insert(k, self.text()?);
        }
        Ok(DecideRequest {
            session_id,
            turn_id,
            input,
            active_scope,
            options,
            recoverable_chat_options,
            widget_items,
            commands,
            force_clarify_only,
            language,
            labels,
        })
    }

    fn candidate(&mut self) -> Result<Candidate, Corrupt> {
        Ok(Candidate {
            id: self.text()?,
            label: self.text()?,
            sublabel: self.text()?,
            badge: self.text()?,
            kind: self.text()?,
            path: self.text()?,
            aliases: self.texts()?,
            risk: self.en(Risk::ALL)?,
        })
    }
}

#[cfg(test)]
mod tests;
