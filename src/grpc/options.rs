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
