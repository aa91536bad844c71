//! Admission: a `Decide` request as the ladder takes it, and what it may
//! cost. The one daemon stage that touches the memo of option lists
//! (`Generation::pool_memo`): a list is interned on the bytes it was
//! decoded from, so calls on the same options share it and are not
//! checked or converted again; what an interned list costs (its words,
//! non-ASCII bytes and heap bytes) was counted once, when it was interned.

use super::Generation;
use crate::convert;
use crate::error::{ApiError, Invalid};
use crate::pb;
use ladder::types::DecideRequest;

/// A Decide request as the ladder takes it: converted, and its options'
/// list interned on `wire`, the bytes it was decoded from (`wire::options`,
/// read by intake), so calls on the same options share one list
/// (`PoolMemo::intern`). Options the memo already holds for those bytes
/// are not checked or converted again (`convert::decide_request_known`).
pub fn decide_input(g: &Generation, m: pb::DecideRequest, wire: Option<&[u8]>) -> Result<ladder::types::DecideRequest, ApiError> {
    let (hash, known) = wire.map_or((0, None), |w| g.pool_memo.interned(w));
    let fresh = known.is_none();
    let req = convert::decide_request_known(m, &g.config.limits, known)?;
    if let (Some(wire), Some(o), true) = (wire, &req.options, fresh)
        && !o.candidates.is_empty()
    {
        g.pool_memo.keep(hash, wire, &o.candidates);
    }
    Ok(req)
}

/// The request's matching work, refused with RESOURCE_EXHAUSTED over
/// `limits.match_work_max`. Returned as the cost that decides whether it
/// runs off the worker threads: the matching work, or its candidates'
/// non-ASCII text to canonicalize (`ladder::cost::BYTE_COST` a byte)
/// when that is more: a few long accented labels are few words and many
/// bytes of NFKC (ASCII text takes a fast path fifty times cheaper).
pub fn work(g: &Generation, req: &DecideRequest) -> Result<u64, Invalid> {
    let limits = &g.config.limits;
    // An interned list's part was counted when it was interned.
    let options = options_facts(g, req).map(|(costs, _)| costs);
    let ladder::cost::Costs { work, non_ascii_bytes } = ladder::cost::costs_with(req, options);
    if work > limits.match_work_max {
        let input_words = ladder::text::words(&req.input).count().max(1) as u64;
        return Err(Invalid::TooMuchWork { work, input_words, pool_words: work / input_words, max: limits.match_work_max });
    }
    // The candidates' text that is not ASCII (label, sublabel, badge,
    // aliases: what matching canonicalizes) costs by the byte.
    Ok(work.max(non_ascii_bytes.saturating_mul(ladder::cost::BYTE_COST)))
}

/// The bytes of the request's candidates (`DecideRequest::candidate_bytes`),
/// what a cycle that keeps it holds: an interned list's were counted when
/// it was interned.
pub fn candidate_bytes(g: &Generation, req: &DecideRequest) -> usize {
    req.candidate_bytes_with(options_facts(g, req).map(|(_, bytes)| bytes))
}

/// What the request's options cost, when their list was interned
/// (`PoolMemo::facts`): its part of the work bound, and its bytes.
fn options_facts(g: &Generation, req: &DecideRequest) -> Option<(ladder::cost::ListCosts, usize)> {
    req.options.as_ref().and_then(|o| g.pool_memo.facts(&o.candidates))
}
