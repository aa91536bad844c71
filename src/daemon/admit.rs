//! Admission: a `Decide` request as the ladder takes it, and what it may
//! cost. The one daemon stage that touches the memo of option lists
//! (`Generation::pool_memo`): a list is interned on the bytes it was
//! decoded from, so calls on the same options share it and are not
//! checked, converted or even decoded again (intake looks their bytes up,
//! `look_up`, and leaves a held list's candidates out of the message);
//! what an interned list costs (its words, non-ASCII bytes and heap bytes)
//! was counted once, when it was interned.

use super::Generation;
use crate::convert;
use crate::error::{ApiError, Invalid};
use crate::pb;
use ladder::types::DecideRequest;
use std::sync::Arc;

/// A Decide request as the ladder takes it: converted, and its options'
/// list interned on `wire`, the bytes it was decoded from (`wire::options`,
/// read by intake), so calls on the same options share one list
/// (`PoolMemo::intern`). Options the memo already holds for those bytes
/// are not checked or converted again (`convert::decide_request_known`).
pub fn decide_input(g: &Generation, m: pb::DecideRequest, wire: Option<&[u8]>) -> Result<ladder::types::DecideRequest, ApiError> {
    let (hash, known) = wire.map_or((0, None), |w| g.pool_memo.interned(w));
    convert_and_keep(g, m, wire, hash, known)
}

/// What a generation's memo held for a `Decide` request's options' bytes
/// when intake looked (`look_up`): the handler takes it from there
/// (`decide_input_looked`) instead of hashing the bytes again.
#[derive(Clone)]
pub struct Looked {
    generation: Arc<Generation>,
    hash: u64,
    list: Option<Arc<Vec<ladder::types::Candidate>>>,
    /// The message handed on was left without the options' candidates.
    stripped: bool,
}

/// Looks the options of the `Decide` message `payload` (at `field`,
/// `grpc::wire::options_field`) up in `g`'s memo, on their bytes
/// (`PoolMemo::interned`). When it holds their list, the message without
/// those candidates (`grpc::wire::without_candidates`) is returned too: it
/// decodes to the same request with an empty list, without decoding the
/// bulk of the bytes again, and the handler takes the held list for it.
pub fn look_up(g: &Arc<Generation>, payload: &[u8], field: &crate::grpc::wire::OptionsField) -> (Looked, Option<Vec<u8>>) {
    let (hash, list) = g.pool_memo.interned(&payload[field.contents.clone()]);
    let stripped = list.as_ref().and_then(|_| crate::grpc::wire::without_candidates(payload, field));
    (Looked { generation: g.clone(), hash, list, stripped: stripped.is_some() }, stripped)
}

/// `decide_input` for a message intake looked up (`look_up`): under the
/// generation it looked in, what it found; under another (a reload in
/// between), the memo of `g` is read as usual, the candidates intake left
/// out decoded from `wire` first.
pub fn decide_input_looked(
    g: &Arc<Generation>,
    mut m: pb::DecideRequest,
    wire: Option<&[u8]>,
    looked: Option<Looked>,
) -> Result<ladder::types::DecideRequest, ApiError> {
    match looked {
        Some(l) if Arc::ptr_eq(&l.generation, g) => convert_and_keep(g, m, wire, l.hash, l.list),
        Some(l) => {
            if l.stripped
                && let (Some(w), Some(o)) = (wire, m.options.as_mut())
            {
                use prost::Message;
                let sent = pb::OptionSet::decode(w).map_err(|e| ApiError::Invalid(Invalid::bad("options", e.to_string())))?;
                o.candidates = sent.candidates;
            }
            decide_input(g, m, wire)
        }
        None => decide_input(g, m, wire),
    }
}

/// The request converted (`known`: the list `g`'s memo holds for `wire`,
/// under `hash`), and a list it did not hold kept.
fn convert_and_keep(
    g: &Generation,
    m: pb::DecideRequest,
    wire: Option<&[u8]>,
    hash: u64,
    known: Option<Arc<Vec<ladder::types::Candidate>>>,
) -> Result<ladder::types::DecideRequest, ApiError> {
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
