//! A request's repeated fields, counted on the wire before prost decodes
//! them, and what the decoded message will cost in memory.
//!
//! A repeated message costs far more decoded than on the wire: an empty
//! `Candidate` is 2 bytes on the wire and a few hundred in memory, so a
//! 4 MiB request of two million empty candidates decodes to ~750 MiB
//! before the count limits in `convert` can look at it. This scan walks
//! the protobuf bytes (no allocation) and refuses a list over its limit
//! (`limits.pool_max`, `limits.aliases_max`, ...) with the same
//! RESOURCE_EXHAUSTED, naming the field, that `convert` would give after
//! decoding; for a message it lets through it returns an upper bound of
//! the decoded size, which `intake` charges against
//! `server.request_memory_bytes`.
//!
//! Only the shapes of `ladder.v1.Arbiter` requests are known here (a table
//! per message of its repeated and message fields, by field number). Each
//! list is bounded per message instance; `convert` still checks totals
//! across instances (`evidence[].candidates`, `slots[].values`) after
//! decoding. Bytes that are not valid protobuf end the scan where they
//! start: prost's decode refuses them there too (INVALID_ARGUMENT), having
//! decoded no more than was counted. A field the scan follows is read only
//! as prost reads it: a list or message sent with another wire type than
//! length-delimited is refused here, naming it, with prost's words
//! (INVALID_ARGUMENT); a map entry is length-delimited whatever its key
//! says, as prost's map decoding takes it. The scan and `options` take
//! nothing on trust: every length is checked against the bytes there are.

use crate::config::{Limits, fixed};
use crate::error::Invalid;
use crate::pb;
use prost::encoding::{WireType, decode_varint};
use std::mem::size_of;

/// How many items a list may hold.
type LimitOf = fn(&Limits) -> usize;

/// One field of a message that the scan follows: a repeated field, or a
/// message field (whose own lists are bounded).
struct Field {
    number: u32,
    name: &'static str,
    /// `Some` for a repeated field (or a map): its limit.
    limit: Option<LimitOf>,
    /// What each element is.
    holds: Holds,
    /// Memory one decoded element takes beyond its bytes on the wire.
    each: usize,
}

/// What an element of a field the scan follows is. Each is sent
/// length-delimited (`Field::reads`).
enum Holds {
    /// A message of this shape, whose own lists are counted.
    Message(&'static Shape),
    Text,
    /// A map entry: a key and a value.
    Entry,
}

impl Field {
    /// Whether prost reads the field when its key says `wire`: a message
    /// or a string only length-delimited; a map entry whatever the key
    /// says (prost's map decoding checks no wire type, so read otherwise
    /// the entry's bytes would be taken for fields of the message).
    fn reads(&self, wire: u64) -> bool {
        wire == DELIMITED || matches!(self.holds, Holds::Entry)
    }
}

struct Shape {
    fields: &'static [Field],
}

/// A `Vec` grows by doubling: up to twice its elements are allocated.
const fn grown(n: usize) -> usize {
    2 * n
}

/// A map entry: key and value, and the hash table's slot and control byte.
const MAP_ENTRY: usize = 2 * (2 * size_of::<String>() + 8);

const CANDIDATE: Shape = Shape {
    fields: &[Field { number: 7, name: "aliases", limit: Some(|l| l.aliases_max), holds: Holds::Text, each: grown(size_of::<String>()) }],
};

const CANDIDATES_EACH: usize = grown(size_of::<pb::Candidate>());

const OPTION_SET: Shape = Shape {
    fields: &[Field {
        number: 3,
        name: "candidates",
        limit: Some(|l| l.pool_max),
        holds: Holds::Message(&CANDIDATE),
        each: CANDIDATES_EACH,
    }],
};

const DECIDE: Shape = Shape {
    fields: &[
        Field { number: 5, name: "options", limit: None, holds: Holds::Message(&OPTION_SET), each: size_of::<pb::OptionSet>() },
        Field {
            number: 6,
            name: "recoverable_chat_options",
            limit: Some(|l| l.pool_max),
            holds: Holds::Message(&CANDIDATE),
            each: CANDIDATES_EACH,
        },
        Field { number: 7, name: "widget_items", limit: Some(|l| l.pool_max), holds: Holds::Message(&CANDIDATE), each: CANDIDATES_EACH },
        Field { number: 8, name: "commands", limit: Some(|l| l.pool_max), holds: Holds::Message(&CANDIDATE), each: CANDIDATES_EACH },
        Field { number: 11, name: "labels", limit: Some(|l| l.labels_max), holds: Holds::Entry, each: MAP_ENTRY },
    ],
};

const EVIDENCE_BLOCK: Shape = Shape {
    fields: &[Field {
        number: 2,
        name: "candidates",
        limit: Some(|l| l.pool_max),
        holds: Holds::Message(&CANDIDATE),
        each: CANDIDATES_EACH,
    }],
};

const ENRICH: Shape = Shape {
    fields: &[
        Field {
            number: 4,
            name: "evidence",
            limit: Some(|l| l.evidence_blocks_max),
            holds: Holds::Message(&EVIDENCE_BLOCK),
            each: grown(size_of::<pb::EvidenceBlock>()),
        },
        Field {
            number: 5,
            name: "chat_history",
            limit: Some(|l| l.chat_history_max),
            holds: Holds::Text,
            each: grown(size_of::<String>()),
        },
    ],
};

const CLARIFY: Shape = Shape {
    fields: &[
        Field {
            number: 9,
            name: "baseline_missing_fields",
            limit: Some(|_| fixed::MISSING_FIELDS_MAX),
            holds: Holds::Text,
            each: grown(size_of::<String>()),
        },
        Field { number: 10, name: "candidates", limit: Some(|l| l.pool_max), holds: Holds::Message(&CANDIDATE), each: CANDIDATES_EACH },
    ],
};

const SLOT_VALUE: Shape = Shape {
    fields: &[Field { number: 2, name: "synonyms", limit: Some(|l| l.aliases_max), holds: Holds::Text, each: grown(size_of::<String>()) }],
};

const SLOT_SPEC: Shape = Shape {
    fields: &[Field {
        number: 2,
        name: "values",
        limit: Some(|l| l.pool_max),
        holds: Holds::Message(&SLOT_VALUE),
        each: grown(size_of::<pb::SlotValue>()),
    }],
};

const EXTRACT: Shape = Shape {
    fields: &[
        Field {
            number: 4,
            name: "slots",
            limit: Some(|_| fixed::SLOTS_MAX),
            holds: Holds::Message(&SLOT_SPEC),
            each: grown(size_of::<pb::SlotSpec>()),
        },
        Field { number: 5, name: "filled", limit: Some(|_| fixed::FILLED_MAX), holds: Holds::Entry, each: MAP_ENTRY },
    ],
};

/// Every other request: no list, nothing that grows past its bytes.
const FLAT: Shape = Shape { fields: &[] };

/// The request shape of an Arbiter method (its gRPC path).
fn shape_of(path: &str) -> &'static Shape {
    match path.rsplit('/').next().unwrap_or("") {
        "Decide" => &DECIDE,
        "Enrich" => &ENRICH,
        "Clarify" => &CLARIFY,
        "Extract" => &EXTRACT,
        _ => &FLAT,
    }
}

/// Checks the counts of the request message `payload` (the protobuf bytes,
/// without the gRPC header) sent to `path`; returns an upper bound of the
/// memory it takes decoded.
pub fn check(path: &str, payload: &[u8], limits: &Limits) -> Result<usize, Invalid> {
    let mut cost = payload.len();
    scan(payload, shape_of(path), &At::Root, limits, &mut cost, &mut Instance::default())?;
    Ok(cost)
}

/// The bytes of a `Decide` request's `options` (its `OptionSet` message,
/// without the field's key and length), when the message sends it once:
/// what its options are decoded from, so equal bytes decode to equal
/// options (`PoolMemo::intern` keys the list on them). `None` for another
/// call, or when `options` is absent, sent more than once (the decoder
/// merges the occurrences) or sent with another wire type than its own
/// (the decoder refuses the request). The range is always inside
/// `payload`.
pub fn options(path: &str, payload: &[u8]) -> Option<std::ops::Range<usize>> {
    options_field(path, payload).map(|f| f.contents)
}

/// Where a `Decide` request's `options` field is (`options_field`).
#[derive(Debug, Clone, PartialEq)]
pub struct OptionsField {
    /// Where the field starts (its key).
    pub key: usize,
    /// Its contents: the `OptionSet` message (`options`).
    pub contents: std::ops::Range<usize>,
}

/// `options`, with where the field starts.
pub fn options_field(path: &str, payload: &[u8]) -> Option<OptionsField> {
    if !std::ptr::eq(shape_of(path), &DECIDE) {
        return None;
    }
    let number = DECIDE.fields[OPTIONS].number;
    let mut found = None;
    let mut fields = Fields::new(payload, &DECIDE);
    loop {
        let key = payload.len() - fields.rest.len();
        let Some((n, wire, body)) = fields.next() else { break };
        if n == number {
            if found.is_some() || wire != DELIMITED {
                return None;
            }
            // The contents end where the rest of the message begins.
            let end = payload.len().checked_sub(fields.rest.len())?;
            found = Some(OptionsField { key, contents: end.checked_sub(body.len())?..end });
        }
    }
    found
}

/// The `Decide` message `payload` without its options' candidates (its
/// `options` at `field`, `options_field`): every other byte as it was
/// sent, the `options` field's length made anew. What intake hands the
/// decoder when the memo already holds the list those candidates make
/// (`PoolMemo::interned` on `options`' bytes): the request decodes to the
/// same message with an empty `options.candidates`, and the list, the bulk
/// of the message, is not decoded again. `None` when the options' fields
/// cannot be read plainly (the decoder reads the whole message and says
/// what is wrong).
pub fn without_candidates(payload: &[u8], field: &OptionsField) -> Option<Vec<u8>> {
    let options = &payload[field.contents.clone()];
    let candidates = OPTION_SET.fields[0].number;
    let mut kept = Vec::with_capacity(64);
    let mut fields = Fields::new(options, &OPTION_SET);
    loop {
        let from = options.len() - fields.rest.len();
        let Some((n, wire, _)) = fields.next() else {
            // The end of the options, or bytes that are not a field.
            if from != options.len() {
                return None;
            }
            break;
        };
        if n == candidates {
            if wire != DELIMITED {
                return None;
            }
            continue;
        }
        kept.extend_from_slice(&options[from..options.len() - fields.rest.len()]);
    }
    let mut out = Vec::with_capacity(payload.len() - options.len() + kept.len());
    out.extend_from_slice(&payload[..field.key]);
    prost::encoding::encode_key(DECIDE.fields[OPTIONS].number, prost::encoding::WireType::LengthDelimited, &mut out);
    prost::encoding::encode_varint(kept.len() as u64, &mut out);
    out.extend_from_slice(&kept);
    out.extend_from_slice(&payload[field.contents.end..]);
    Some(out)
}

/// The index of `options` in `DECIDE`'s fields.
const OPTIONS: usize = 0;

/// The most fields a shape follows (the scan keeps its counts on the stack).
const MAX_FIELDS: usize = 8;

const _: () = {
    let shapes = [&DECIDE, &OPTION_SET, &CANDIDATE, &ENRICH, &EVIDENCE_BLOCK, &CLARIFY, &EXTRACT, &SLOT_SPEC, &SLOT_VALUE];
    let mut i = 0;
    while i < shapes.len() {
        assert!(shapes[i].fields.len() <= MAX_FIELDS);
        i += 1;
    }
};

/// Where a message instance sits in the request: a chain on the stack,
/// written out as a field path (`evidence[2].candidates[40].`) only when a
/// list is refused, so the scan of a request it lets through allocates
/// nothing per item.
enum At<'a> {
    Root,
    Field { parent: &'a At<'a>, name: &'static str, index: Option<usize> },
}

impl At<'_> {
    /// The path of the field `name` of this instance.
    fn path(&self, name: &str) -> String {
        fn prefix(at: &At<'_>, out: &mut String) {
            if let At::Field { parent, name, index } = at {
                prefix(parent, out);
                out.push_str(name);
                if let Some(i) = index {
                    out.push_str(&format!("[{i}]"));
                }
                out.push('.');
            }
        }
        let mut out = String::new();
        prefix(self, &mut out);
        out.push_str(name);
        out
    }
}

/// What the scan has counted of one message instance: its lists, and the
/// instances of its singular message fields. A singular message field that
/// appears more than once is merged by the decoder into one message, so its
/// occurrences are all counted into one child instance (kept here, whatever
/// the number of occurrences: the scan's memory follows the shapes' depth,
/// never the request's size).
#[derive(Default)]
struct Instance {
    counts: [usize; MAX_FIELDS],
    merged: [Option<Box<Instance>>; MAX_FIELDS],
}

/// Counts the lists of the message bytes `body` into `instance`. Each
/// element of a repeated message field is its own instance.
fn scan(body: &[u8], shape: &Shape, at: &At<'_>, limits: &Limits, cost: &mut usize, instance: &mut Instance) -> Result<(), Invalid> {
    for (number, wire, body) in Fields::new(body, shape) {
        let Some(i) = shape.fields.iter().position(|f| f.number == number) else { continue };
        let f = &shape.fields[i];
        if !f.reads(wire) {
            // prost refuses the request at this field, with these words:
            // refused here, before a list behind it is counted (or its
            // bytes taken for the options').
            let wire = WireType::try_from(wire).map_or_else(|_| wire.to_string(), |w| format!("{w:?}"));
            return Err(Invalid::bad(at.path(f.name), format!("invalid wire type: {wire} (expected LengthDelimited)")));
        }
        let Some(limit) = f.limit else {
            // Decoded once, however many times it is sent.
            if instance.merged[i].is_none() {
                *cost = cost.saturating_add(f.each);
            }
            if let Holds::Message(inner) = f.holds {
                let merged = instance.merged[i].get_or_insert_with(Box::default);
                scan(body, inner, &At::Field { parent: at, name: f.name, index: None }, limits, cost, merged)?;
            }
            continue;
        };
        *cost = cost.saturating_add(f.each);
        instance.counts[i] = instance.counts[i].saturating_add(1);
        let n = instance.counts[i];
        let max = limit(limits);
        if n > max {
            return Err(Invalid::TooMany { field: at.path(f.name), len: n, max });
        }
        if let Holds::Message(inner) = f.holds {
            let index = Some(n.saturating_sub(1));
            scan(body, inner, &At::Field { parent: at, name: f.name, index }, limits, cost, &mut Instance::default())?;
        }
    }
    Ok(())
}

/// The fields of a message's bytes, read with its shape as prost reads
/// them: each field's number, wire type and contents (a length-delimited
/// field's, or a map entry's; nothing for the others). Ends at the first
/// bytes that are not a field, where prost's decode fails too, and after
/// a field the shape follows sent with a wire type prost refuses.
struct Fields<'a> {
    rest: &'a [u8],
    shape: &'a Shape,
}

impl<'a> Fields<'a> {
    fn new(bytes: &'a [u8], shape: &'a Shape) -> Self {
        Fields { rest: bytes, shape }
    }

    #[inline]
    fn read(&mut self) -> Option<(u32, u64, &'a [u8])> {
        let (number, wire) = key(&mut self.rest)?;
        // Nearly every field of a request; the shape is not looked at.
        if wire == DELIMITED {
            return Some((number, wire, delimited(&mut self.rest)?));
        }
        let body = match self.shape.fields.iter().find(|f| f.number == number) {
            // A map entry, whatever its key says (`Field::reads`).
            Some(f) if f.reads(wire) => delimited(&mut self.rest)?,
            // prost refuses the request at this key, before it reads what
            // follows: the scan reads no further either (`scan` refuses
            // it, naming the field; `options` gives up).
            Some(_) => {
                self.rest = &[];
                &[][..]
            }
            None if wire == START_GROUP => {
                skip_group(&mut self.rest, number, GROUP_DEPTH)?;
                &[][..]
            }
            None => {
                scalar(&mut self.rest, wire)?;
                &[][..]
            }
        };
        Some((number, wire, body))
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = (u32, u64, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let read = self.read();
        if read.is_none() {
            self.rest = &[];
        }
        read
    }
}

/// Wire types, as prost's `WireType` numbers them (compared as numbers on
/// every field of a request).
const VARINT: u64 = 0;
const SIXTY_FOUR_BIT: u64 = 1;
const DELIMITED: u64 = 2;
const START_GROUP: u64 = 3;
const END_GROUP: u64 = 4;
const THIRTY_TWO_BIT: u64 = 5;

/// A field's key, as prost's `decode_key` accepts it: a field number from
/// 1 to 2^29 - 1 and a wire type from 0 to 5.
#[inline]
fn key(buf: &mut &[u8]) -> Option<(u32, u64)> {
    let key = varint(buf)?;
    let number = u32::try_from(key >> 3).ok().filter(|n| (1..=MAX_FIELD_NUMBER).contains(n))?;
    let wire = key & 7;
    (wire <= THIRTY_TWO_BIT).then_some((number, wire))
}

/// A length-delimited field's contents.
#[inline]
fn delimited<'a>(buf: &mut &'a [u8]) -> Option<&'a [u8]> {
    usize::try_from(varint(buf)?).ok().and_then(|len| take(buf, len))
}

/// Skips a varint or fixed-size field; an end-group key is not one.
#[inline]
fn scalar(buf: &mut &[u8], wire: u64) -> Option<()> {
    match wire {
        VARINT => varint(buf).map(drop),
        SIXTY_FOUR_BIT => take(buf, 8).map(drop),
        THIRTY_TWO_BIT => take(buf, 4).map(drop),
        _ => None,
    }
}

/// Skips a group's fields up to its end. Groups are not proto3, but prost
/// skips one it does not know, so the scan must too: else a group in front
/// of a list would end the scan where prost's decode goes on and builds the
/// list uncounted. An end that closes another group is refused by both.
fn skip_group(buf: &mut &[u8], number: u32, depth: u32) -> Option<()> {
    let depth = depth.checked_sub(1)?;
    loop {
        let (inner, wire) = key(buf)?;
        match wire {
            END_GROUP => return (inner == number).then_some(()),
            DELIMITED => _ = delimited(buf)?,
            START_GROUP => skip_group(buf, inner, depth)?,
            _ => scalar(buf, wire)?,
        }
    }
}

/// The largest protobuf field number.
const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

/// How deep groups nest before the scan stops: prost's whole recursion
/// limit (100) counts message nesting too, so it never decodes past a
/// group the scan gave up on.
const GROUP_DEPTH: u32 = 100;

/// A varint: the one-byte case inline (keys and short lengths, nearly every
/// varint of a request), longer ones by prost.
#[inline]
fn varint(buf: &mut &[u8]) -> Option<u64> {
    match buf.first() {
        Some(&b) if b < 0x80 => {
            *buf = &buf[1..];
            Some(u64::from(b))
        }
        Some(_) => decode_varint(buf).ok(),
        None => None,
    }
}

fn take<'a>(buf: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, rest) = buf.split_at_checked(n)?;
    *buf = rest;
    Some(head)
}

#[cfg(test)]
mod tests;
