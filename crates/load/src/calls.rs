//! The calls on the wire: the pre-encoded requests of a run, the codec
//! that writes each call's own ids in front of them, and one Decide.

use crate::cli::InputKind;
use ladderd::pb;
use prost::Message;
use prost::bytes::{BufMut, Bytes};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::Channel;

/// The pre-encoded requests of one run (without `session_id`, which each
/// call writes in front).
pub(crate) struct Payload {
    pub(crate) bodies: Vec<Bytes>,
    /// With `--pool-reuse`: the call that puts the pool in a session's
    /// cache (candidates and a version); `bodies` then only refer to it.
    pub(crate) prime: Option<Bytes>,
    /// Distinct session ids used in turn; 0 for a new one per call.
    pub(crate) sessions: u64,
    /// Append a fresh `options.option_set_id` to each call (a new loop-guard
    /// key, so an unresolved input reaches the LLM every time).
    pub(crate) fresh_option_set: bool,
    /// With --fresh-options or --fresh-labels: each call's body is made
    /// anew from these (one per input text), instead of `bodies`.
    pub(crate) fresh: Vec<ladderd_load::samples::FreshBodies>,
    pub(crate) bytes: usize,
}

pub(crate) fn payload(
    pool_size: usize,
    input: InputKind,
    sessions: u64,
    fake_llm: bool,
    fresh: Option<ladderd_load::samples::Fresh>,
    pool_reuse: bool,
) -> Payload {
    let candidates = ladderd_load::samples::pool(pool_size);
    let encode = |text: &str, options: pb::OptionSet| {
        let req = pb::DecideRequest {
            turn_id: "turn-1".into(),
            input: text.into(),
            active_scope: Some(pb::ScopeRef { scope: pb::Scope::Chat as i32, instance_id: "chat-1".into() }),
            options: Some(options),
            ..Default::default()
        };
        Bytes::from(req.encode_to_vec())
    };
    let full = pb::OptionSet {
        option_set_id: "set-1".into(),
        scope: pb::Scope::Chat as i32,
        candidates,
        version: if pool_reuse { "v1".into() } else { String::new() },
        ..Default::default()
    };
    let options = if pool_reuse {
        pb::OptionSet { option_set_id: "set-1".into(), version: "v1".into(), by_reference: true, ..Default::default() }
    } else {
        full.clone()
    };
    let bodies: Vec<Bytes> = input.texts().iter().map(|text| encode(text, options.clone())).collect();
    let prime = pool_reuse.then(|| encode(input.texts()[0], full));
    let fresh: Vec<_> = fresh
        .map_or_else(Vec::new, |f| input.texts().iter().map(|text| ladderd_load::samples::FreshBodies::new(pool_size, text, f)).collect());
    let bytes = fresh.iter().map(|f| f.len()).chain(bodies.iter().map(Bytes::len)).max().unwrap_or(0);
    let unresolved = matches!(input, InputKind::Unresolved | InputKind::Mix);
    Payload { bodies, prime, sessions, fresh_option_set: fake_llm && unresolved && fresh.is_empty(), fresh, bytes }
}

/// `--pool-reuse`: puts the pool in the cache of every session the run
/// uses (16 calls in flight).
pub(crate) async fn prime_sessions(ch: &[Channel], p: &Payload, timeout: Duration) -> Result<(), String> {
    let Some(prime) = &p.prime else { return Ok(()) };
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks: tokio::task::JoinSet<Result<(), String>> = tokio::task::JoinSet::new();
    for w in 0..16 {
        let (mut grpc, next, prime, sessions) =
            (tonic::client::Grpc::new(ch[w % ch.len()].clone()), next.clone(), prime.clone(), p.sessions);
        tasks.spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= sessions {
                    return Ok(());
                }
                let call = Call { session_id: format!("load-{n}"), option_set_id: None, body: prime.clone(), turn: 0 };
                send(&mut grpc, call, timeout).await.map_err(|s| format!("priming session load-{n}: {:?}: {}", s.code(), s.message()))?;
            }
        });
    }
    while let Some(r) = tasks.join_next().await {
        r.map_err(|e| format!("priming task: {e}"))??;
    }
    Ok(())
}

/// One call on the wire: a session id (field 1) and the rest of the
/// request, already encoded, then its own turn_id; optionally a later `options` (field 5) whose
/// option_set_id overrides the first (protobuf merges repeated embedded
/// messages; the last scalar wins).
pub(crate) struct Call {
    pub(crate) session_id: String,
    pub(crate) option_set_id: Option<String>,
    pub(crate) body: Bytes,
    /// A turn_id of the call's own (field 2, after the body's: the last
    /// wins), as a client package gives each Decide; 0 for the body's.
    pub(crate) turn: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct RawCodec;

struct RawEncoder;
struct DecisionDecoder;

impl Codec for RawCodec {
    type Encode = Call;
    type Decode = pb::Decision;
    type Encoder = RawEncoder;
    type Decoder = DecisionDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> DecisionDecoder {
        DecisionDecoder
    }
}

impl Encoder for RawEncoder {
    type Item = Call;
    type Error = Status;
    fn encode(&mut self, call: Call, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        prost::encoding::string::encode(1, &call.session_id, dst);
        dst.put_slice(&call.body);
        if call.turn != 0 {
            prost::encoding::string::encode(2, &format!("load-turn-{}", call.turn), dst);
        }
        if let Some(id) = call.option_set_id {
            let set = pb::OptionSet { option_set_id: id, scope: pb::Scope::Chat as i32, candidates: Vec::new(), ..Default::default() };
            prost::encoding::message::encode(5, &set, dst);
        }
        Ok(())
    }
}

impl Decoder for DecisionDecoder {
    type Item = pb::Decision;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<pb::Decision>, Status> {
        pb::Decision::decode(src).map(Some).map_err(|e| Status::internal(format!("undecodable Decision: {e}")))
    }
}

/// A new session id for every call, across runs.
static UNIQUE: AtomicU64 = AtomicU64::new(0);

pub(crate) fn call_for(p: &Payload, worker: usize, i: u64, stride: u64) -> Call {
    let n = worker as u64 + i * stride;
    let session_id =
        if p.sessions == 0 { format!("load-u{}", UNIQUE.fetch_add(1, Ordering::Relaxed)) } else { format!("load-{}", n % p.sessions) };
    let option_set_id = p.fresh_option_set.then(|| format!("set-{}", UNIQUE.fetch_add(1, Ordering::Relaxed)));
    let turn = UNIQUE.fetch_add(1, Ordering::Relaxed) + 1;
    let body = match &p.fresh[..] {
        [] => p.bodies[(n % p.bodies.len() as u64) as usize].clone(),
        fresh => Bytes::from(fresh[(n % fresh.len() as u64) as usize].body(UNIQUE.fetch_add(1, Ordering::Relaxed))),
    };
    Call { session_id, option_set_id, body, turn }
}

const DECIDE: &str = "/ladder.v1.Arbiter/Decide";

pub(crate) async fn send(grpc: &mut tonic::client::Grpc<Channel>, call: Call, timeout: Duration) -> Result<pb::Decision, Status> {
    grpc.ready().await.map_err(|e| Status::unavailable(format!("not ready: {e}")))?;
    let mut req = tonic::Request::new(call);
    req.set_timeout(timeout);
    grpc.unary(req, http::uri::PathAndQuery::from_static(DECIDE), RawCodec).await.map(tonic::Response::into_inner)
}
