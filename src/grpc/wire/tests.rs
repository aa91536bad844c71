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
    // A million empty occurrences decode to one empty OptionSet: they
    // are accepted and cost their bytes and one OptionSet, not a million.
    let empty = pb::DecideRequest { options: Some(pb::OptionSet::default()), ..Default::default() }.encode_to_vec();
    let bytes = empty.repeat(1_000_000);
    assert_eq!(check("/ladder.v1.Arbiter/Decide", &bytes, &limits()).unwrap(), bytes.len() + size_of::<pb::OptionSet>());
}

/// Unknown fields of every wire type, groups nested in groups among
/// them: what prost skips when it decodes a request.
fn unknown_fields(kinds: &[u8]) -> Vec<u8> {
    use prost::encoding::{WireType, encode_key, encode_varint};
    let mut out = Vec::new();
    for (i, kind) in kinds.iter().enumerate() {
        let number = 100 + i as u32;
        match kind % 5 {
            0 => {
                encode_key(number, WireType::Varint, &mut out);
                encode_varint(300, &mut out);
            }
            1 => {
                encode_key(number, WireType::SixtyFourBit, &mut out);
                out.extend_from_slice(&[0; 8]);
            }
            2 => {
                encode_key(number, WireType::LengthDelimited, &mut out);
                encode_varint(3, &mut out);
                out.extend_from_slice(b"abc");
            }
            3 => {
                encode_key(number, WireType::StartGroup, &mut out);
                encode_key(number + 1, WireType::StartGroup, &mut out);
                encode_key(7, WireType::LengthDelimited, &mut out);
                encode_varint(0, &mut out);
                encode_key(number + 1, WireType::EndGroup, &mut out);
                encode_key(number, WireType::EndGroup, &mut out);
            }
            _ => {
                encode_key(number, WireType::ThirtyTwoBit, &mut out);
                out.extend_from_slice(&[0; 4]);
            }
        }
    }
    out
}

/// The message sent to `path` without its options' candidates.
fn without(path: &str, payload: &[u8]) -> Option<Vec<u8>> {
    without_candidates(payload, &options_field(path, payload)?)
}

#[test]
fn a_request_without_its_candidates_decodes_to_the_rest_of_it_as_sent() {
    use prost::encoding::{WireType, encode_key, encode_varint};
    let decide = "/ladder.v1.Arbiter/Decide";
    let m = pb::DecideRequest {
        session_id: "s".into(),
        input: "the second one".into(),
        options: Some(pb::OptionSet {
            option_set_id: "set".into(),
            candidates: (0..3).map(|i| candidate(i, 1)).collect(),
            version: "v2".into(),
            asked: pb::Asked::Choice as i32,
            ..Default::default()
        }),
        widget_items: vec![candidate(9, 0)],
        ..Default::default()
    };
    // The candidates interleaved with the set's other fields and an
    // unknown one, a field of the request after the options: every
    // other byte is kept, in its order.
    let mut options = pb::OptionSet { option_set_id: "set".into(), ..Default::default() }.encode_to_vec();
    options.extend(pb::OptionSet { candidates: vec![candidate(0, 1)], ..Default::default() }.encode_to_vec());
    options.extend(unknown_fields(&[0, 2]));
    options.extend(
        pb::OptionSet { candidates: vec![candidate(1, 1), candidate(2, 1)], version: "v2".into(), ..Default::default() }.encode_to_vec(),
    );
    options.extend(pb::OptionSet { asked: pb::Asked::Choice as i32, ..Default::default() }.encode_to_vec());
    let mut bytes = pb::DecideRequest { session_id: "s".into(), input: "the second one".into(), ..Default::default() }.encode_to_vec();
    encode_key(5, WireType::LengthDelimited, &mut bytes);
    encode_varint(options.len() as u64, &mut bytes);
    bytes.extend(&options);
    bytes.extend(pb::DecideRequest { widget_items: vec![candidate(9, 0)], ..Default::default() }.encode_to_vec());
    assert_eq!(pb::DecideRequest::decode(&bytes[..]).unwrap(), m, "the bytes are the request");
    let stripped = without(decide, &bytes).expect("plain fields");
    let listed: usize = (0..3)
        .map(|i| {
            let c = pb::OptionSet { candidates: vec![candidate(i, 1)], ..Default::default() };
            c.encoded_len()
        })
        .sum();
    assert_eq!(stripped.len(), bytes.len() - listed, "only the candidates' fields are left out");
    let mut expected = m.clone();
    expected.options.as_mut().unwrap().candidates.clear();
    assert_eq!(pb::DecideRequest::decode(&stripped[..]).unwrap(), expected);
    // No options, or another call: nothing to leave out.
    let plain = pb::DecideRequest { input: "x".into(), ..Default::default() }.encode_to_vec();
    assert_eq!(without(decide, &plain), None);
    assert_eq!(without("/ladder.v1.Arbiter/Enrich", &bytes), None);
    // Candidates sent as a varint: the decoder says what is wrong.
    let mut bad = Vec::new();
    encode_key(3, WireType::Varint, &mut bad);
    encode_varint(1, &mut bad);
    let mut req = Vec::new();
    encode_key(5, WireType::LengthDelimited, &mut req);
    encode_varint(bad.len() as u64, &mut req);
    req.extend(&bad);
    assert_eq!(without(decide, &req), None);
}

#[test]
fn a_group_in_front_of_a_list_does_not_hide_it_from_the_count() {
    // prost skips an unknown group (proto3 has none, its decoder still
    // accepts them) and decodes the list behind it: the scan must count it.
    let mut bytes = unknown_fields(&[3]);
    bytes.extend(decide(51, 0).encode_to_vec());
    assert_eq!(pb::DecideRequest::decode(&bytes[..]).unwrap().widget_items.len(), 51, "prost decodes past the group");
    assert_eq!(refusal("/ladder.v1.Arbiter/Decide", &bytes), ("widget_items".into(), 51, 50));
    // An end-group key that closes another group is refused by prost
    // and ends the scan.
    let mut bad = Vec::new();
    prost::encoding::encode_key(100, prost::encoding::WireType::StartGroup, &mut bad);
    prost::encoding::encode_key(101, prost::encoding::WireType::EndGroup, &mut bad);
    bad.extend(decide(51, 0).encode_to_vec());
    assert!(pb::DecideRequest::decode(&bad[..]).is_err());
    assert!(check("/ladder.v1.Arbiter/Decide", &bad, &limits()).is_ok());
}

#[test]
fn a_list_sent_with_another_wire_type_is_refused_naming_it_as_prost_does() {
    let decide = "/ladder.v1.Arbiter/Decide";
    // `options` as a varint (the two bytes) and as a group;
    // an alias deep in the options as a 32-bit value.
    let mut alias = pb::DecideRequest {
        options: Some(pb::OptionSet { candidates: vec![candidate(0, 0), candidate(1, 1)], ..Default::default() }),
        ..Default::default()
    }
    .encode_to_vec();
    let at = alias.iter().rposition(|b| *b == 0x3a).expect("the alias's key (field 7, length-delimited)");
    alias[at] = 0x3d;
    let cases: [(&[u8], &str, &str); 3] = [
        (&[0x28, 0x05], "options", "invalid wire type: Varint (expected LengthDelimited)"),
        (&[0x2b, 0x2c], "options", "invalid wire type: StartGroup (expected LengthDelimited)"),
        (&alias, "options.candidates[1].aliases", "invalid wire type: ThirtyTwoBit (expected LengthDelimited)"),
    ];
    for (bytes, field, why) in cases {
        assert_eq!(check(decide, bytes, &limits()), Err(Invalid::bad(field, why)), "{bytes:02x?}");
        let prost = pb::DecideRequest::decode(bytes).unwrap_err().to_string();
        assert!(prost.ends_with(why), "prost says {prost:?}");
    }
    // Whatever the wire type, `options` sent as anything but
    // length-delimited has no bytes to be found.
    for wire in [0, 1, 3, 4, 5] {
        let bytes = [0x28 | wire, 0x05, 0x2c, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(options(decide, &bytes), None, "{bytes:02x?}");
    }
}

#[test]
fn a_map_entry_is_read_whatever_its_wire_type_as_prost_reads_it() {
    // prost's map decoding checks no wire type: `labels` (field 11) as
    // a varint is still a length and an entry. Inside the entry, bytes
    // that would be `options` at the top are an unknown field of the
    // entry, which prost skips.
    let entry = [0x0a, 0x01, b'k', 0x12, 0x01, b'v', 0x2a, 0x00];
    let mut bytes = vec![0x58, entry.len() as u8];
    bytes.extend(entry);
    bytes.extend([0x59, entry.len() as u8]);
    bytes.extend(entry.map(|b| if b == b'k' { b'j' } else { b }));
    let decoded = pb::DecideRequest::decode(&bytes[..]).unwrap();
    assert_eq!(decoded.labels.len(), 2);
    assert_eq!(decoded.options, None);
    assert_eq!(options("/ladder.v1.Arbiter/Decide", &bytes), None, "no options: they are inside an entry");
    let one = Limits { labels_max: 1, ..limits() };
    assert_eq!(check("/ladder.v1.Arbiter/Decide", &bytes, &one), Err(Invalid::TooMany { field: "labels".into(), len: 2, max: 1 }));
    assert!(check("/ladder.v1.Arbiter/Decide", &bytes, &limits()).is_ok());
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
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Whatever the body (a valid request with a field retyped, cut,
    /// sent twice, wrapped, dropped or put in, or random bytes), the
    /// scan and the options' locator end without a panic; the scan
    /// refuses only what prost's decode refuses too, as
    /// INVALID_ARGUMENT, so a request is refused exactly when prost
    /// refuses it; it lets no list prost decodes past its limit
    /// (whatever it read on the way); and the options' bytes it finds
    /// are what prost decodes the request's options from.
    #[test]
    fn a_mangled_body_gets_the_verdict_prost_gives_it((index, bytes) in crate::grpc::mangled::body()) {
        let call = &crate::grpc::mangled::CALLS[index];
        let decodes = (call.decodes)(&bytes);
        if let Err(e) = check(call.path, &bytes, &crate::grpc::mangled::generous()) {
            prop_assert!(!decodes, "refused ({e}) what prost decodes: {bytes:02x?}");
            prop_assert_eq!(tonic::Status::from(crate::error::ApiError::Invalid(e)).code(), tonic::Code::InvalidArgument);
        }
        if crate::grpc::mangled::longest(index, &bytes).is_some_and(|n| n > 1) {
            let scanned = check(call.path, &bytes, &crate::grpc::mangled::ones());
            prop_assert!(matches!(scanned, Err(Invalid::TooMany { .. })), "a list of 2 or more let through at 1: {scanned:?} {bytes:02x?}");
        }
        let found = options(call.path, &bytes);
        if let Some(at) = &found {
            prop_assert!(at.start <= at.end && at.end <= bytes.len(), "{at:?} out of {} bytes", bytes.len());
        }
        if call.path == crate::grpc::mangled::DECIDE && decodes {
            let decoded = pb::DecideRequest::decode(&bytes[..]).unwrap();
            if let Some(at) = found {
                prop_assert_eq!(Some(pb::OptionSet::decode(&bytes[at]).unwrap()), decoded.options.clone(), "{:02x?}", bytes);
            }
            // Without its candidates, the same request with an empty list.
            if let Some(stripped) = without(call.path, &bytes) {
                let mut expected = decoded;
                if let Some(o) = expected.options.as_mut() {
                    o.candidates.clear();
                }
                prop_assert_eq!(pb::DecideRequest::decode(&stripped[..]).unwrap(), expected, "{:02x?}", bytes);
            }
        }
    }
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
        unknown in proptest::collection::vec(any::<u8>(), 0..6),
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
        // Unknown fields (groups among them) in front change nothing.
        let mut bytes = unknown_fields(&unknown);
        bytes.extend(m.encode_to_vec());
        prop_assert_eq!(&pb::DecideRequest::decode(&bytes[..]).unwrap(), &m);
        let scanned = check("/ladder.v1.Arbiter/Decide", &bytes, &l);
        prop_assert_eq!(scanned.is_err(), over, "{:?}", scanned);
    }

    /// The bytes `options` finds are what the decoder makes the
    /// request's options of: decoded alone they are the decoded
    /// request's options. Found only for a Decide that sends them once
    /// (sent twice, the decoder merges them).
    #[test]
    fn the_options_bytes_decode_to_the_requests_options(
        labels in proptest::collection::vec("(a|b| |é){0,4}", 0..5),
        set_id in "(|s|set)",
        twice in any::<bool>(),
        absent in any::<bool>(),
        unknown in proptest::collection::vec(any::<u8>(), 0..6),
    ) {
        let set = pb::OptionSet {
            option_set_id: set_id,
            candidates: labels.iter().enumerate().map(|(i, l)| pb::Candidate { label: l.clone(), ..candidate(i, 0) }).collect(),
            ..Default::default()
        };
        let m = pb::DecideRequest { options: (!absent).then(|| set.clone()), ..decide(2, 1) };
        let mut bytes = unknown_fields(&unknown);
        bytes.extend(m.encode_to_vec());
        if twice && !absent {
            bytes.extend(pb::DecideRequest { options: Some(set.clone()), ..Default::default() }.encode_to_vec());
        }
        let decoded = pb::DecideRequest::decode(&bytes[..]).unwrap();
        let found = options("/ladder.v1.Arbiter/Decide", &bytes);
        prop_assert_eq!(found.is_some(), !absent && !twice);
        if let Some(at) = found {
            prop_assert_eq!(Some(pb::OptionSet::decode(&bytes[at]).unwrap()), decoded.options);
        }
        prop_assert_eq!(options("/ladder.v1.Arbiter/Enrich", &bytes), None);
    }
}
