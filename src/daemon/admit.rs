//! Admission: what a `Decide` request may cost, and what it may hold.
//! An option list the memo interned (`grpc::options`) had its costs (its
//! words, non-ASCII bytes and heap bytes) counted once, when it was
//! interned: they are read from the memo here, not counted again.

use super::Generation;
use crate::error::Invalid;
use ladder::types::{Asked, DecideRequest, OptionSet};

/// `ASKED_CONFIRMATION` asks the user to confirm the app's one candidate
/// (docs/replies.md): a yes to more than one would execute one the user
/// did not hear asked about. Checked when a request is converted, and
/// again when a set sent by reference is filled in from the store.
pub fn confirms_one(set: &OptionSet) -> Result<(), Invalid> {
    if set.asked == Asked::Confirmation && set.candidates.get(1).is_some() {
        return Err(Invalid::bad(
            "options.asked",
            format!("ASKED_CONFIRMATION confirms one candidate; options holds {}: use ASKED_CHOICE to ask which", set.candidates.len()),
        ));
    }
    Ok(())
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
