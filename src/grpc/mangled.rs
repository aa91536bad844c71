//! Request bodies for the property tests of the wire scan (`wire`) and of
//! intake (`intake`): valid requests of the calls whose lists the scan
//! counts, encoded by prost, then mangled the ways a careless or hostile
//! client mangles them.
//!
//! The bytes are read into a tree of fields (a length-delimited field whose
//! contents read back as fields is a message to the tree, whatever prost
//! makes of it) and mangled there: a field sent with another wire type and
//! its contents as they were (`options` becomes `28 05`), cut short inside
//! its frame, sent twice, wrapped in a field of another number, dropped, or
//! a field of any number and wire type put in; then the whole body cut or
//! spliced with random bytes. Arbitrary bytes come too.

use crate::pb;
use proptest::prelude::*;
use prost::Message;
use prost::encoding::{decode_varint, encode_varint};

/// A call whose request the scan knows.
pub struct Call {
    pub path: &'static str,
    /// Whether prost decodes the bytes as the call's request.
    pub decodes: fn(&[u8]) -> bool,
}

pub const DECIDE: &str = "/ladder.v1.Arbiter/Decide";

pub const CALLS: [Call; 4] = [
    Call { path: DECIDE, decodes: |b| pb::DecideRequest::decode(b).is_ok() },
    Call { path: "/ladder.v1.Arbiter/Enrich", decodes: |b| pb::EnrichRequest::decode(b).is_ok() },
    Call { path: "/ladder.v1.Arbiter/Clarify", decodes: |b| pb::ClarifyRequest::decode(b).is_ok() },
    Call { path: "/ladder.v1.Arbiter/Extract", decodes: |b| pb::ExtractRequest::decode(b).is_ok() },
];

/// Limits no body made here comes near: only the wire's shape can refuse
/// one.
pub fn generous() -> crate::config::Limits {
    let many = 1 << 20;
    crate::config::Limits {
        pool_max: many,
        aliases_max: many,
        labels_max: many,
        evidence_blocks_max: many,
        chat_history_max: many,
        ..Default::default()
    }
}

/// Limits of one item for every list whose limit is configured.
pub fn ones() -> crate::config::Limits {
    crate::config::Limits { pool_max: 1, aliases_max: 1, labels_max: 1, evidence_blocks_max: 1, chat_history_max: 1, ..Default::default() }
}

/// The most items any list under a configured limit holds in the request
/// prost decodes from `bytes` for `CALLS[call]`; `None` when it does not.
pub fn longest(call: usize, bytes: &[u8]) -> Option<usize> {
    fn pool(lists: &[&[pb::Candidate]]) -> usize {
        let aliases = lists.iter().flat_map(|l| l.iter()).map(|c| c.aliases.len());
        lists.iter().map(|l| l.len()).chain(aliases).max().unwrap_or(0)
    }
    Some(match call {
        0 => {
            let m = pb::DecideRequest::decode(bytes).ok()?;
            let options = m.options.map(|o| o.candidates).unwrap_or_default();
            pool(&[&options, &m.widget_items, &m.commands, &m.recoverable_chat_options]).max(m.labels.len())
        }
        1 => {
            let m = pb::EnrichRequest::decode(bytes).ok()?;
            let blocks: Vec<&[pb::Candidate]> = m.evidence.iter().map(|b| &b.candidates[..]).collect();
            pool(&blocks).max(m.evidence.len()).max(m.chat_history.len())
        }
        2 => pool(&[&pb::ClarifyRequest::decode(bytes).ok()?.candidates]),
        _ => {
            let m = pb::ExtractRequest::decode(bytes).ok()?;
            let values = m.slots.iter().flat_map(|s| s.values.iter());
            m.slots.iter().map(|s| s.values.len()).chain(values.map(|v| v.synonyms.len())).max().unwrap_or(0)
        }
    })
}

fn text() -> impl Strategy<Value = String> {
    "(a|é| |x1){0,3}"
}

fn candidate() -> impl Strategy<Value = pb::Candidate> {
    (text(), text(), proptest::collection::vec(text(), 0..3), 0i32..3).prop_map(|(id, label, aliases, risk)| pb::Candidate {
        id,
        label,
        aliases,
        risk,
        ..Default::default()
    })
}

fn candidates(max: usize) -> impl Strategy<Value = Vec<pb::Candidate>> {
    proptest::collection::vec(candidate(), 0..max)
}

fn labels() -> impl Strategy<Value = std::collections::HashMap<String, String>> {
    proptest::collection::hash_map(text(), text(), 0..3)
}

fn decide() -> impl Strategy<Value = Vec<u8>> {
    (
        text(),
        proptest::option::of((text(), candidates(4), any::<bool>())),
        candidates(3),
        candidates(2),
        candidates(2),
        labels(),
        proptest::option::of((0i32..5, text())),
    )
        .prop_map(|(input, options, widget_items, commands, recoverable_chat_options, labels, scope)| {
            pb::DecideRequest {
                session_id: "s".into(),
                input,
                active_scope: scope.map(|(scope, instance_id)| pb::ScopeRef { scope, instance_id }),
                options: options.map(|(option_set_id, candidates, by_reference)| pb::OptionSet {
                    option_set_id,
                    candidates,
                    by_reference,
                    ..Default::default()
                }),
                widget_items,
                commands,
                recoverable_chat_options,
                labels,
                ..Default::default()
            }
            .encode_to_vec()
        })
}

fn enrich() -> impl Strategy<Value = Vec<u8>> {
    (proptest::collection::vec((text(), candidates(3)), 0..3), proptest::collection::vec(text(), 0..3)).prop_map(
        |(evidence, chat_history)| {
            pb::EnrichRequest {
                session_id: "s".into(),
                loop_cycle_id: "c".into(),
                evidence: evidence
                    .into_iter()
                    .map(|(r#type, candidates)| pb::EvidenceBlock { r#type, candidates, excerpt: "e".into() })
                    .collect(),
                chat_history,
                ..Default::default()
            }
            .encode_to_vec()
        },
    )
}

fn clarify() -> impl Strategy<Value = Vec<u8>> {
    (proptest::collection::vec(text(), 0..3), candidates(3), 0i32..5, any::<u32>()).prop_map(
        |(baseline_missing_fields, candidates, r#type, result_count)| {
            pb::ClarifyRequest { session_id: "s".into(), r#type, baseline_missing_fields, candidates, result_count, ..Default::default() }
                .encode_to_vec()
        },
    )
}

fn extract() -> impl Strategy<Value = Vec<u8>> {
    let value = (text(), proptest::collection::vec(text(), 0..3)).prop_map(|(value, synonyms)| pb::SlotValue { value, synonyms });
    (text(), proptest::collection::vec((text(), proptest::collection::vec(value, 0..3)), 0..3), labels()).prop_map(
        |(text, slots, filled)| {
            pb::ExtractRequest {
                session_id: "s".into(),
                text,
                slots: slots.into_iter().map(|(name, values)| pb::SlotSpec { name, values }).collect(),
                filled,
                ..Default::default()
            }
            .encode_to_vec()
        },
    )
}

/// A valid request of one of `CALLS`: its index there and its bytes.
pub fn valid() -> impl Strategy<Value = (usize, Vec<u8>)> {
    prop_oneof![
        decide().prop_map(|b| (0, b)),
        enrich().prop_map(|b| (1, b)),
        clarify().prop_map(|b| (2, b)),
        extract().prop_map(|b| (3, b)),
    ]
}

/// A body for one of `CALLS` (its index there): a valid request mangled,
/// or arbitrary bytes.
pub fn body() -> impl Strategy<Value = (usize, Vec<u8>)> {
    prop_oneof![
        8 => (valid(), proptest::collection::vec(mangle(), 0..4), proptest::collection::vec(bytes_mangle(), 0..2)).prop_map(
            |((call, bytes), mangles, after)| {
                let mut fields = read(&bytes).expect("prost's encoding reads as fields");
                for m in &mangles {
                    apply(&mut fields, m);
                }
                let mut bytes = write(&fields);
                for m in &after {
                    m.apply(&mut bytes);
                }
                (call, bytes)
            }
        ),
        1 => (0..CALLS.len(), proptest::collection::vec(any::<u8>(), 0..48)),
    ]
}

/// A field as sent: its number, its wire type and what follows its key.
#[derive(Clone, Debug)]
struct Field {
    number: u32,
    wire: u8,
    body: Body,
}

#[derive(Clone, Debug)]
enum Body {
    /// The bytes after the key, as they are (a length prefix included).
    Raw(Vec<u8>),
    /// A length-delimited field's contents, read as fields (the length
    /// prefix is written from them).
    Fields(Vec<Field>),
}

/// The fields of `bytes`, when they read as fields that write back to the
/// same bytes (what prost's encoding always does).
fn read(mut bytes: &[u8]) -> Option<Vec<Field>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let key = decode_varint(&mut bytes).ok()?;
        let (number, wire) = (u32::try_from(key >> 3).ok().filter(|n| *n > 0)?, (key & 7) as u8);
        let len = match wire {
            0 => bytes.iter().position(|b| b & 0x80 == 0)? + 1,
            1 => 8,
            5 => 4,
            2 => {
                let mut rest = bytes;
                let len = usize::try_from(decode_varint(&mut rest).ok()?).ok()?;
                let prefix = bytes.len() - rest.len();
                prefix.checked_add(len).filter(|end| *end <= bytes.len())?
            }
            _ => return None,
        };
        let (raw, rest) = bytes.split_at_checked(len)?;
        bytes = rest;
        let body = match wire {
            2 => {
                let mut contents = raw;
                let _ = decode_varint(&mut contents);
                match read(contents) {
                    Some(fields) if write(&fields) == contents => Body::Fields(fields),
                    _ => Body::Raw(raw.to_vec()),
                }
            }
            _ => Body::Raw(raw.to_vec()),
        };
        out.push(Field { number, wire, body });
    }
    Some(out)
}

fn write(fields: &[Field]) -> Vec<u8> {
    let mut out = Vec::new();
    for f in fields {
        encode_varint((u64::from(f.number) << 3) | u64::from(f.wire), &mut out);
        match &f.body {
            Body::Raw(raw) => out.extend_from_slice(raw),
            Body::Fields(inner) => {
                let inner = write(inner);
                encode_varint(inner.len() as u64, &mut out);
                out.extend(inner);
            }
        }
    }
    out
}

/// A change to the tree of fields. `pick` chooses a field in depth-first
/// order (modulo their number).
#[derive(Clone, Debug)]
pub enum Mangle {
    /// The field sent with another wire type, what followed its key kept.
    Retype {
        pick: usize,
        wire: u8,
    },
    /// The field sent twice in a row.
    Twice {
        pick: usize,
    },
    /// The field wrapped, as the contents of a field numbered `number`.
    Wrap {
        pick: usize,
        number: u32,
    },
    /// The field's contents cut to `keep` bytes (modulo their length), its
    /// length prefix saying so: the frames around it stay whole.
    Cut {
        pick: usize,
        keep: usize,
    },
    Drop {
        pick: usize,
    },
    /// A field put in front of the picked one: `bytes` after its key, or
    /// (`framed`) a body of its wire type made from them.
    Insert {
        pick: usize,
        number: u32,
        wire: u8,
        framed: bool,
        bytes: Vec<u8>,
    },
}

fn mangle() -> impl Strategy<Value = Mangle> {
    let pick = any::<usize>();
    let number = prop_oneof![8 => 1u32..16, 1 => Just(0u32), 1 => 16u32..200];
    prop_oneof![
        3 => (pick, 0u8..8).prop_map(|(pick, wire)| Mangle::Retype { pick, wire }),
        2 => pick.prop_map(|pick| Mangle::Twice { pick }),
        2 => (pick, 1u32..16).prop_map(|(pick, number)| Mangle::Wrap { pick, number }),
        2 => (pick, any::<usize>()).prop_map(|(pick, keep)| Mangle::Cut { pick, keep }),
        1 => pick.prop_map(|pick| Mangle::Drop { pick }),
        3 => (pick, number, 0u8..8, any::<bool>(), proptest::collection::vec(any::<u8>(), 0..6))
            .prop_map(|(pick, number, wire, framed, bytes)| Mangle::Insert { pick, number, wire, framed, bytes }),
    ]
}

fn count(fields: &[Field]) -> usize {
    fields.iter().map(|f| 1 + if let Body::Fields(inner) = &f.body { count(inner) } else { 0 }).sum()
}

/// Calls `f` with the list that holds the `n`th field (depth first) and
/// its index there; `n` counts down as fields are passed.
fn at(fields: &mut Vec<Field>, n: &mut usize, f: &mut dyn FnMut(&mut Vec<Field>, usize)) -> bool {
    for i in 0..fields.len() {
        if *n == 0 {
            f(fields, i);
            return true;
        }
        *n -= 1;
        if let Body::Fields(inner) = &mut fields[i].body
            && at(inner, n, f)
        {
            return true;
        }
    }
    false
}

fn apply(fields: &mut Vec<Field>, m: &Mangle) {
    let (Mangle::Retype { pick, .. }
    | Mangle::Twice { pick }
    | Mangle::Wrap { pick, .. }
    | Mangle::Cut { pick, .. }
    | Mangle::Drop { pick }
    | Mangle::Insert { pick, .. }) = m;
    let total = count(fields);
    if total == 0 {
        if let Mangle::Insert { .. } = m {
            fields.push(inserted(m));
        }
        return;
    }
    let mut n = pick % total;
    at(fields, &mut n, &mut |list, i| match m {
        Mangle::Retype { wire, .. } => {
            // What followed the key stays as it was sent.
            let f = &mut list[i];
            if let Body::Fields(inner) = &f.body {
                let mut raw = Vec::new();
                let inner = write(inner);
                encode_varint(inner.len() as u64, &mut raw);
                raw.extend(inner);
                f.body = Body::Raw(raw);
            }
            f.wire = *wire;
        }
        Mangle::Twice { .. } => {
            let f = list[i].clone();
            list.insert(i, f);
        }
        Mangle::Wrap { number, .. } => {
            let f = list[i].clone();
            list[i] = Field { number: *number, wire: 2, body: Body::Fields(vec![f]) };
        }
        Mangle::Cut { keep, .. } => {
            let f = &mut list[i];
            let raw = match &f.body {
                Body::Fields(inner) => write(inner),
                Body::Raw(raw) if f.wire == 2 => {
                    let mut contents = &raw[..];
                    let _ = decode_varint(&mut contents);
                    contents.to_vec()
                }
                Body::Raw(raw) => raw.clone(),
            };
            let keep = keep % (raw.len() + 1);
            let mut cut = Vec::new();
            if f.wire == 2 {
                encode_varint(keep as u64, &mut cut);
            }
            cut.extend_from_slice(&raw[..keep]);
            f.body = Body::Raw(cut);
        }
        Mangle::Drop { .. } => {
            list.remove(i);
        }
        Mangle::Insert { .. } => list.insert(i, inserted(m)),
    });
}

fn inserted(m: &Mangle) -> Field {
    let Mangle::Insert { number, wire, framed, bytes, .. } = m else { unreachable!("only an Insert makes a field") };
    let mut raw = Vec::new();
    if *framed {
        match wire {
            0 => encode_varint(bytes.iter().fold(0u64, |v, b| (v << 8) | u64::from(*b)), &mut raw),
            1 => raw.extend(bytes.iter().copied().chain(std::iter::repeat(0)).take(8)),
            5 => raw.extend(bytes.iter().copied().chain(std::iter::repeat(0)).take(4)),
            2 => {
                encode_varint(bytes.len() as u64, &mut raw);
                raw.extend_from_slice(bytes);
            }
            // An empty group: its end key.
            3 => encode_varint((u64::from(*number) << 3) | 4, &mut raw),
            _ => {}
        }
    } else {
        raw.extend_from_slice(bytes);
    }
    Field { number: *number, wire: *wire, body: Body::Raw(raw) }
}

/// A change to the written body.
#[derive(Clone, Debug)]
pub enum BytesMangle {
    /// Cut to `keep` bytes (modulo the length).
    Truncate { keep: usize },
    /// `bytes` put in at `at` (modulo the length).
    Splice { at: usize, bytes: Vec<u8> },
}

fn bytes_mangle() -> impl Strategy<Value = BytesMangle> {
    prop_oneof![
        any::<usize>().prop_map(|keep| BytesMangle::Truncate { keep }),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..6)).prop_map(|(at, bytes)| BytesMangle::Splice { at, bytes }),
    ]
}

impl BytesMangle {
    fn apply(&self, bytes: &mut Vec<u8>) {
        match self {
            BytesMangle::Truncate { keep } => bytes.truncate(keep % (bytes.len() + 1)),
            BytesMangle::Splice { at, bytes: more } => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, more.iter().copied());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest! {
        /// The tree writes prost's bytes back as they were: an unmangled
        /// request is the request.
        #[test]
        fn a_request_reads_and_writes_back_unchanged((_call, bytes) in valid()) {
            prop_assert_eq!(write(&read(&bytes).unwrap()), bytes);
        }
    }

    #[test]
    fn retyping_options_sends_them_with_the_new_wire_type() {
        let bytes = pb::DecideRequest { options: Some(pb::OptionSet::default()), ..Default::default() }.encode_to_vec();
        assert_eq!(bytes, [0x2a, 0x00]);
        let mut fields = read(&bytes).unwrap();
        apply(&mut fields, &Mangle::Retype { pick: 0, wire: 0 });
        assert_eq!(write(&fields), [0x28, 0x00]);
        let mut fields = vec![];
        apply(&mut fields, &Mangle::Insert { pick: 0, number: 5, wire: 0, framed: true, bytes: vec![5] });
        assert_eq!(write(&fields), [0x28, 0x05], "the issue's body");
        apply(&mut fields, &Mangle::Insert { pick: 0, number: 5, wire: 3, framed: true, bytes: vec![] });
        assert_eq!(write(&fields), [0x2b, 0x2c, 0x28, 0x05], "an empty group in front");
    }
}
