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
//! decoded no more than was counted.

use crate::config::Limits;
use crate::error::Invalid;
use crate::pb;
use bytes::Buf;
use prost::encoding::{WireType, decode_key, decode_varint};
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
    /// The fields of the element, when it is a message.
    message: Option<&'static Shape>,
    /// Memory one decoded element takes beyond its bytes on the wire.
    each: usize,
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
    fields: &[Field { number: 7, name: "aliases", limit: Some(|l| l.aliases_max), message: None, each: grown(size_of::<String>()) }],
};

const CANDIDATES_EACH: usize = grown(size_of::<pb::Candidate>());

const OPTION_SET: Shape = Shape {
    fields: &[Field { number: 3, name: "candidates", limit: Some(|l| l.pool_max), message: Some(&CANDIDATE), each: CANDIDATES_EACH }],
};

const DECIDE: Shape = Shape {
    fields: &[
        Field { number: 5, name: "options", limit: None, message: Some(&OPTION_SET), each: size_of::<pb::OptionSet>() },
        Field {
            number: 6,
            name: "recoverable_chat_options",
            limit: Some(|l| l.pool_max),
            message: Some(&CANDIDATE),
            each: CANDIDATES_EACH,
        },
        Field { number: 7, name: "widget_items", limit: Some(|l| l.pool_max), message: Some(&CANDIDATE), each: CANDIDATES_EACH },
        Field { number: 8, name: "commands", limit: Some(|l| l.pool_max), message: Some(&CANDIDATE), each: CANDIDATES_EACH },
        Field { number: 11, name: "labels", limit: Some(|l| l.labels_max), message: None, each: MAP_ENTRY },
    ],
};

const EVIDENCE_BLOCK: Shape = Shape {
    fields: &[Field { number: 2, name: "candidates", limit: Some(|l| l.pool_max), message: Some(&CANDIDATE), each: CANDIDATES_EACH }],
};

const ENRICH: Shape = Shape {
    fields: &[
        Field {
            number: 4,
            name: "evidence",
            limit: Some(|l| l.evidence_blocks_max),
            message: Some(&EVIDENCE_BLOCK),
            each: grown(size_of::<pb::EvidenceBlock>()),
        },
        Field { number: 5, name: "chat_history", limit: Some(|l| l.chat_history_max), message: None, each: grown(size_of::<String>()) },
    ],
};

const CLARIFY: Shape = Shape {
    fields: &[
        Field { number: 9, name: "baseline_missing_fields", limit: Some(|_| 32), message: None, each: grown(size_of::<String>()) },
        Field { number: 10, name: "candidates", limit: Some(|l| l.pool_max), message: Some(&CANDIDATE), each: CANDIDATES_EACH },
    ],
};

const SLOT_VALUE: Shape = Shape {
    fields: &[Field { number: 2, name: "synonyms", limit: Some(|l| l.aliases_max), message: None, each: grown(size_of::<String>()) }],
};

const SLOT_SPEC: Shape = Shape {
    fields: &[Field {
        number: 2,
        name: "values",
        limit: Some(|l| l.pool_max),
        message: Some(&SLOT_VALUE),
        each: grown(size_of::<pb::SlotValue>()),
    }],
};

const EXTRACT: Shape = Shape {
    fields: &[
        Field { number: 4, name: "slots", limit: Some(|_| 64), message: Some(&SLOT_SPEC), each: grown(size_of::<pb::SlotSpec>()) },
        Field { number: 5, name: "filled", limit: Some(|_| 64), message: None, each: MAP_ENTRY },
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
    scan(&[payload], shape_of(path), "", limits, &mut cost)?;
    Ok(cost)
}

/// Counts the lists of one message instance, which the decoder builds from
/// one or more parts: a singular message field that appears more than once
/// is merged, so its lists are counted across all of its occurrences. Each
/// element of a repeated message field is its own instance.
fn scan(parts: &[&[u8]], shape: &Shape, at: &str, limits: &Limits, cost: &mut usize) -> Result<(), Invalid> {
    let mut counts = vec![0usize; shape.fields.len()];
    let mut merged: Vec<Vec<&[u8]>> = vec![Vec::new(); shape.fields.len()];
    for (number, body) in parts.iter().flat_map(|p| Fields(p)) {
        let Some(i) = shape.fields.iter().position(|f| f.number == number) else { continue };
        let f = &shape.fields[i];
        *cost = cost.saturating_add(f.each);
        let Some(limit) = f.limit else {
            merged[i].push(body);
            continue;
        };
        counts[i] += 1;
        let max = limit(limits);
        if counts[i] > max {
            return Err(Invalid::TooMany { field: format!("{at}{}", f.name), len: counts[i], max });
        }
        if let Some(inner) = f.message {
            scan(&[body], inner, &format!("{at}{}[{}].", f.name, counts[i] - 1), limits, cost)?;
        }
    }
    for (f, parts) in shape.fields.iter().zip(merged) {
        if let (Some(inner), false) = (f.message, parts.is_empty()) {
            scan(&parts, inner, &format!("{at}{}.", f.name), limits, cost)?;
        }
    }
    Ok(())
}

/// The fields of a message's bytes: each field number with its bytes (a
/// length-delimited field's contents; nothing for a number). Ends at the
/// first bytes that are not a field.
struct Fields<'a>(&'a [u8]);

impl<'a> Iterator for Fields<'a> {
    type Item = (u32, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let buf = &mut self.0;
        if !buf.has_remaining() {
            return None;
        }
        let field = (|| {
            let (number, wire) = decode_key(buf).ok()?;
            let body = match wire {
                WireType::Varint => decode_varint(buf).ok().map(|_| &[][..]),
                WireType::SixtyFourBit => take(buf, 8),
                WireType::ThirtyTwoBit => take(buf, 4),
                WireType::LengthDelimited => usize::try_from(decode_varint(buf).ok()?).ok().and_then(|len| take(buf, len)),
                // Groups are not proto3: prost refuses them.
                WireType::StartGroup | WireType::EndGroup => None,
            }?;
            Some((number, body))
        })();
        if field.is_none() {
            *buf = &[];
        }
        field
    }
}

fn take<'a>(buf: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if buf.len() < n {
        return None;
    }
    let (head, rest) = buf.split_at(n);
    *buf = rest;
    Some(head)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use prost::Message;

    fn candidate(i: usize, aliases: usize) -> pb::Candidate {
        pb::Candidate { id: format!("c{i}"), label: format!("item {i}"), aliases: vec![String::new(); aliases], ..Default::default() }
    }

    fn decide(widget_items: usize, aliases: usize) -> pb::DecideRequest {
        pb::DecideRequest {
            session_id: "s".into(),
            input: "open it".into(),
            widget_items: (0..widget_items).map(|i| candidate(i, aliases)).collect(),
            ..Default::default()
        }
    }

    fn limits() -> Limits {
        Limits { pool_max: 50, aliases_max: 4, ..Limits::default() }
    }

    fn refusal(path: &str, bytes: &[u8]) -> (String, usize, usize) {
        match check(path, bytes, &limits()) {
            Err(Invalid::TooMany { field, len, max }) => (field, len, max),
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_list_over_its_limit_is_refused_on_the_wire_naming_the_field() {
        let bytes = decide(51, 0).encode_to_vec();
        assert_eq!(refusal("/ladder.v1.Arbiter/Decide", &bytes), ("widget_items".into(), 51, 50));
        let bytes = decide(3, 5).encode_to_vec();
        assert_eq!(refusal("/ladder.v1.Arbiter/Decide", &bytes), ("widget_items[0].aliases".into(), 5, 4));
        assert!(check("/ladder.v1.Arbiter/Decide", &decide(50, 4).encode_to_vec(), &limits()).is_ok());
    }

    #[test]
    fn lists_in_nested_messages_are_counted_per_instance() {
        let enrich = pb::EnrichRequest {
            evidence: (0..3)
                .map(|b| pb::EvidenceBlock { candidates: (0..40).map(|i| candidate(b * 100 + i, 0)).collect(), ..Default::default() })
                .collect(),
            ..Default::default()
        };
        assert!(check("/ladder.v1.Arbiter/Enrich", &enrich.encode_to_vec(), &limits()).is_ok());
        let mut enrich = enrich;
        enrich.evidence[2].candidates.push(candidate(999, 9));
        assert_eq!(refusal("/ladder.v1.Arbiter/Enrich", &enrich.encode_to_vec()), ("evidence[2].candidates[40].aliases".into(), 5, 4));
        let extract = pb::ExtractRequest {
            slots: vec![pb::SlotSpec { name: "x".into(), values: (0..51).map(|_| pb::SlotValue::default()).collect() }],
            ..Default::default()
        };
        assert_eq!(refusal("/ladder.v1.Arbiter/Extract", &extract.encode_to_vec()), ("slots[0].values".into(), 51, 50));
    }

    #[test]
    fn a_message_field_sent_many_times_is_counted_as_the_one_message_it_decodes_to() {
        // prost merges the occurrences of `options`: 3 x 20 candidates
        // decode into one OptionSet of 60, over the limit of 50.
        let part = pb::DecideRequest {
            options: Some(pb::OptionSet { candidates: (0..20).map(|i| candidate(i, 0)).collect(), ..Default::default() }),
            ..Default::default()
        }
        .encode_to_vec();
        let bytes = part.repeat(3);
        let decoded = pb::DecideRequest::decode(&bytes[..]).unwrap();
        assert_eq!(decoded.options.unwrap().candidates.len(), 60, "the decoder merges them");
        assert_eq!(refusal("/ladder.v1.Arbiter/Decide", &bytes), ("options.candidates".into(), 51, 50));
        assert!(check("/ladder.v1.Arbiter/Decide", &part.repeat(2), &limits()).is_ok());
    }

    #[test]
    fn the_cost_bounds_what_empty_items_take_decoded() {
        // 50 empty-ish candidates with 4 empty aliases each: ~1 KB on the
        // wire, many times that decoded.
        let bytes = decide(50, 4).encode_to_vec();
        let cost = check("/ladder.v1.Arbiter/Decide", &bytes, &limits()).unwrap();
        let decoded = 50 * (size_of::<pb::Candidate>() + 4 * size_of::<String>());
        assert!(cost >= bytes.len() + decoded, "cost {cost} under {} wire + {decoded} decoded", bytes.len());
        // Other calls cost their bytes.
        let get = pb::GetSessionRequest { session_id: "s".into() }.encode_to_vec();
        assert_eq!(check("/ladder.v1.Arbiter/GetSession", &get, &limits()).unwrap(), get.len());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Whatever the bytes, the scan ends without a panic.
        #[test]
        fn any_bytes_are_scanned_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            for path in ["/ladder.v1.Arbiter/Decide", "/ladder.v1.Arbiter/Enrich", "/ladder.v1.Arbiter/Extract", "/ladder.v1.Arbiter/Clarify"] {
                let _ = check(path, &bytes, &limits());
            }
        }

        /// The scan refuses a Decide exactly when a list of the decoded
        /// message is over its limit: it never refuses what `convert`'s
        /// count checks accept, and never lets an over-limit list through.
        #[test]
        fn the_scan_agrees_with_the_decoded_counts(
            lists in proptest::collection::vec((0usize..60, 0usize..7), 1..4),
            options in 0usize..60,
        ) {
            let mut m = pb::DecideRequest::default();
            let mut n = 0;
            let mut next = |aliases| { n += 1; candidate(n, aliases) };
            m.options = Some(pb::OptionSet { candidates: (0..options).map(|_| next(0)).collect(), ..Default::default() });
            for (k, (len, aliases)) in lists.iter().enumerate() {
                let list: Vec<_> = (0..*len).map(|_| next(*aliases)).collect();
                match k { 0 => m.widget_items = list, 1 => m.commands = list, _ => m.recoverable_chat_options = list }
            }
            let l = limits();
            let over = options > l.pool_max
                || [&m.widget_items, &m.commands, &m.recoverable_chat_options]
                    .iter()
                    .any(|list| list.len() > l.pool_max || list.iter().any(|c| c.aliases.len() > l.aliases_max));
            let scanned = check("/ladder.v1.Arbiter/Decide", &m.encode_to_vec(), &l);
            prop_assert_eq!(scanned.is_err(), over, "{:?}", scanned);
        }
    }
}
