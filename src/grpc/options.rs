//! A `Decide`'s options at the edge: looked up in the memo of option lists
//! (`Generation::pool_memo`) on the bytes they were decoded from, and the
//! request converted with the list the memo holds. A list is interned on
//! those bytes, so calls on the same options share it and are not checked,
//! converted or even decoded again: intake looks their bytes up
//! (`look_up`) and leaves a held list's candidates out of the message; the
//! handler converts the rest (`decide_input`). What an interned list costs
//! (its words, non-ASCII bytes and heap bytes) was counted once, when it
//! was interned (`daemon::admit::work`).
//!
//! Both steps run under the one configuration generation intake took for
//! the call (`intake::Taken`), so the memo intake looked in is the memo the
//! handler converts with.

use crate::convert;
use crate::daemon::Generation;
use crate::error::ApiError;
use crate::pb;
use ladder::types::{Candidate, DecideRequest};
use std::sync::Arc;

/// What the memo held for a `Decide` request's options' bytes when intake
/// looked (`look_up`): the handler takes it from there (`decide_input`)
/// instead of hashing the bytes again.
#[derive(Clone)]
pub struct Looked {
    hash: u64,
    list: Option<Arc<Vec<Candidate>>>,
}

/// Looks the options of the `Decide` message `payload` (at `field`,
/// `wire::options_field`) up in `g`'s memo, on their bytes
/// (`PoolMemo::interned`). When it holds their list, the message without
/// those candidates (`wire::without_candidates`) is returned too: it
/// decodes to the same request with an empty list, without decoding the
/// bulk of the bytes again, and the handler takes the held list for it.
pub fn look_up(g: &Generation, payload: &[u8], field: &super::wire::OptionsField) -> (Looked, Option<Vec<u8>>) {
    let (hash, list) = g.pool_memo.interned(&payload[field.contents.clone()]);
    // A held list stands for the candidates whether or not they could be
    // left out of the message (`convert::decide_request_known`).
    let stripped = list.as_ref().and_then(|_| super::wire::without_candidates(payload, field));
    (Looked { hash, list }, stripped)
}

/// A Decide request as the ladder takes it: converted, and its options'
/// list interned on `wire`, the bytes it was decoded from (`wire::options`,
/// read by intake), so calls on the same options share one list
/// (`PoolMemo::intern`). `looked`: what intake found for those bytes under
/// `g`; without it the memo is read here. Options the memo already holds
/// are not checked or converted again (`convert::decide_request_known`).
pub fn decide_input(g: &Generation, m: pb::DecideRequest, wire: Option<&[u8]>, looked: Option<Looked>) -> Result<DecideRequest, ApiError> {
    let Looked { hash, list: known } = match (looked, wire) {
        (Some(l), _) => l,
        (None, Some(w)) => {
            let (hash, list) = g.pool_memo.interned(w);
            Looked { hash, list }
        }
        (None, None) => Looked { hash: 0, list: None },
    };
    let fresh = known.is_none();
    let req = convert::decide_request_known(m, &g.config.limits, known)?;
    if let (Some(wire), Some(o), true) = (wire, &req.options, fresh)
        && !o.candidates.is_empty()
    {
        g.pool_memo.keep(hash, wire, &o.candidates);
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use ladder::types::Candidate;

    proptest::proptest! {
        /// An option list interned on the bytes it was decoded from is
        /// always the list those bytes decode to: lists differing in any
        /// field, sent in any order, each get a list equal to their own,
        /// and the same bytes the same list. A request whose options the
        /// memo holds is not checked again, and still gets what it would
        /// have got: the same request, or the same error (a duplicate id
        /// across its lists, an empty id).
        #[test]
        fn an_interned_list_is_always_the_one_decoded(
            lists in proptest::collection::vec(
                proptest::collection::vec(("(a|b|)", "(x|y| ){0,3}", "(|s)", "(|k)", proptest::collection::vec("(x|y)", 0..2), 0i32..3), 1..4),
                1..5,
            ),
            sent in proptest::collection::vec((0usize..5, proptest::option::of("(a0|b1|w)")), 1..12),
        ) {
            use prost::Message;
            let daemon = crate::daemon::Daemon::new(crate::config::Config::default()).unwrap();
            let g = daemon.current();
            let mut got: Vec<Option<std::sync::Arc<Vec<Candidate>>>> = vec![None; lists.len()];
            for (k, widget) in sent {
                let k = k % lists.len();
                let mut m = crate::pb::DecideRequest { session_id: "s-1".into(), input: "x".into(), ..Default::default() };
                m.options = Some(crate::pb::OptionSet {
                    option_set_id: "set".into(),
                    candidates: lists[k]
                        .iter()
                        .enumerate()
                        .map(|(i, (id, label, sub, kind, aliases, risk))| crate::pb::Candidate {
                            id: if id.is_empty() { String::new() } else { format!("{id}{i}") },
                            label: label.clone(),
                            sublabel: sub.clone(),
                            kind: kind.clone(),
                            aliases: aliases.clone(),
                            risk: *risk,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                });
                m.widget_items = widget.into_iter().map(|id| crate::pb::Candidate { id, label: "w".into(), ..Default::default() }).collect();
                let wire = m.encode_to_vec();
                let at = crate::grpc::wire::options("/ladder.v1.Arbiter/Decide", &wire).unwrap();
                let interned = super::decide_input(&g, crate::pb::DecideRequest::decode(&wire[..]).unwrap(), Some(&wire[at]), None);
                let own = super::decide_input(&g, m, None, None);
                let (interned, own) = match (interned, own) {
                    (Ok(a), Ok(b)) => (a, b),
                    (a, b) => {
                        proptest::prop_assert_eq!(format!("{:?}", a.err()), format!("{:?}", b.err()));
                        continue;
                    }
                };
                proptest::prop_assert_eq!(&interned.widget_items, &own.widget_items);
                let list = interned.options.unwrap().candidates;
                proptest::prop_assert_eq!(&*list, &*own.options.unwrap().candidates);
                // What it costs, counted once when interned, is what it costs.
                let bytes = list.iter().map(Candidate::approx_bytes).sum::<usize>();
                proptest::prop_assert_eq!(g.pool_memo.facts(&list), Some((ladder::cost::list_costs(&list), bytes)));
                if let Some(before) = &got[k] {
                    proptest::prop_assert!(std::sync::Arc::ptr_eq(before, &list), "the same bytes, the same list");
                }
                got[k] = Some(list);
            }
        }
    }
}
