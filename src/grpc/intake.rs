//! Intake: a `ladder.v1.Arbiter` request's body is read whole, within
//! `server.body_timeout_ms`, before anything else works on it (and before
//! it takes one of the `server.max_concurrent_requests` slots).
//!
//! Every Arbiter call is unary: its body is one gRPC message (a 5-byte
//! header, then the protobuf bytes). Reading it here, instead of letting
//! tonic read it inside the handler, means:
//! - a client that sends headers and never finishes the body holds nothing
//!   for long: it is answered DEADLINE_EXCEEDED naming
//!   `server.body_timeout_ms` (well under the call deadline), and it never
//!   holds a slot that a well-behaved call needs;
//! - a message over `server.max_message_bytes` is refused as soon as its
//!   header says so, before its bytes are buffered;
//! - framing mistakes (a truncated message, two messages in a unary call,
//!   a compressed-flag without a `grpc-encoding`) are INVALID_ARGUMENT;
//! - the message's lists are counted on the wire (`grpc::wire`) before
//!   prost allocates them, and a list over its limit is RESOURCE_EXHAUSTED
//!   naming the field and the limit;
//! - its memory is admitted: the bytes announced by its header when they
//!   start to arrive, then the decoded size the wire scan bounds, from one
//!   budget for all requests in flight (`server.request_memory_bytes`),
//!   held until its answer is built. When the budget is spent the request
//!   is refused at once with RESOURCE_EXHAUSTED (retry with backoff), like
//!   `server.max_concurrent_requests`: memory in flight is bounded in
//!   bytes, whatever the shapes of the requests;
//! - a Decide's options are looked up in the memo of option lists on their
//!   bytes (`grpc::options::look_up`): when it holds their list (the same
//!   screen sent again, by this session or another), the message goes on
//!   without those candidates (`wire::without_candidates`) and the handler
//!   takes the held list, so the bulk of the request is decoded once, not
//!   on every call;
//! - the configuration generation is taken here, once per call, and handed
//!   to the handler with the request (`Taken`): the limits that checked
//!   the message, the memo its options were looked up in and the rules
//!   that decide it are one generation, whatever reload lands meanwhile.
//!
//! Health checks and reflection pass through untouched (their bodies are
//! tiny or, for reflection, a stream).

use super::options::{self, Looked};
use crate::daemon::{Daemon, Generation};
use crate::error::ApiError;
use bytes::{Buf, Bytes, BytesMut};
use http::{Request, Response};
use http_body_util::BodyExt;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tonic::Status;
use tonic::body::Body;
use tower::{BoxError, Layer, Service, ServiceExt};

/// The gRPC message header: a compressed flag and a big-endian length.
const HEADER: usize = 5;

#[derive(Clone)]
pub struct IntakeLayer {
    pub body_timeout: Duration,
    pub max_timeout: Duration,
    pub max_message_bytes: usize,
    /// The memory budget of the requests in flight.
    pub memory: Arc<MemoryBudget>,
    /// Where the configuration generation in force is taken from.
    pub daemon: Arc<Daemon>,
}

/// `server.request_memory_bytes`, counted in KiB (a semaphore's permits).
pub struct MemoryBudget {
    kib: Arc<Semaphore>,
    bytes: usize,
}

impl MemoryBudget {
    pub fn new(bytes: usize) -> Arc<Self> {
        Arc::new(MemoryBudget { kib: Arc::new(Semaphore::new(bytes.div_ceil(1024))), bytes })
    }

    /// Takes `bytes` from the budget, or says why it cannot.
    fn take(&self, bytes: usize) -> Result<OwnedSemaphorePermit, Status> {
        let kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX);
        if bytes > self.bytes {
            return Err(Status::resource_exhausted(format!(
                "request message needs about {bytes} bytes of memory decoded, over server.request_memory_bytes ({}); send fewer or shorter items",
                self.bytes
            )));
        }
        self.kib.clone().try_acquire_many_owned(kib).map_err(|_| {
            Status::resource_exhausted(format!(
                "ladderd is at its limit of {} bytes of requests in flight (server.request_memory_bytes); retry with backoff",
                self.bytes
            ))
        })
    }

    /// Bytes of the budget taken now.
    pub fn in_use(&self) -> usize {
        self.bytes.saturating_sub(self.kib.available_permits() * 1024)
    }
}

impl<S> Layer<S> for IntakeLayer {
    type Service = Intake<S>;
    fn layer(&self, inner: S) -> Self::Service {
        Intake { inner, settings: self.clone() }
    }
}

#[derive(Clone)]
pub struct Intake<S> {
    inner: S,
    settings: IntakeLayer,
}

/// The configuration generation a call is served under, taken by intake
/// when its body arrived (`Arbiter` handlers read it from the request).
#[derive(Clone)]
pub struct Taken(pub Arc<Generation>);

/// The bytes a `Decide` request's options are decoded from
/// (`wire::options`), for the handler to intern its option list on
/// (`PoolMemo::intern`): a slice of the message read here, not a copy.
#[derive(Clone)]
pub struct OptionsWire(pub Bytes);

/// What intake hands on with a Decide whose options are sent once, from
/// its protobuf bytes `payload`: the options' bytes, what the memo of `g`
/// holds for them, and the message without the candidates of a list it
/// holds (`options::look_up`). `None` for another call, or a Decide whose
/// options are absent or sent more than once (`wire::options`).
pub fn decide_options(g: &Generation, path: &str, payload: &Bytes) -> Option<(OptionsWire, Looked, Option<Vec<u8>>)> {
    let field = super::wire::options_field(path, payload)?;
    let (looked, stripped) = options::look_up(g, payload, &field);
    Some((OptionsWire(payload.slice(field.contents)), looked, stripped))
}

/// `payload` as one uncompressed gRPC message: its header, then it.
fn framed(payload: &[u8]) -> Bytes {
    let mut out = BytesMut::with_capacity(HEADER + payload.len());
    out.extend_from_slice(&[0]);
    // Never more than the message it was made from, which passed
    // `server.max_message_bytes` (at most 4 GiB - 1 by its header).
    out.extend_from_slice(&u32::try_from(payload.len()).unwrap_or(u32::MAX).to_be_bytes());
    out.extend_from_slice(payload);
    out.freeze()
}

/// Whether `path` is a call whose body intake reads.
fn is_arbiter(path: &str) -> bool {
    path.starts_with("/ladder.v1.Arbiter/")
}

impl<S> Service<Request<Body>> for Intake<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = BoxError> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = futures::future::BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Readiness of the inner service is awaited on the clone that
        // serves the call, once the body is in.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let inner = self.inner.clone();
        if !is_arbiter(req.uri().path()) {
            return Box::pin(inner.oneshot(req));
        }
        let settings = self.settings.clone();
        Box::pin(async move {
            let (parts, body) = req.into_parts();
            let asked = parts
                .headers
                .get("grpc-timeout")
                .and_then(|v| v.to_str().ok())
                .and_then(super::timeout::parse_grpc_timeout)
                .map_or(settings.max_timeout, |t| t.min(settings.max_timeout));
            let body_bound = settings.body_timeout.min(asked);
            let read = read_message(body, settings.max_message_bytes, &settings.memory);
            let (message, buffered) = match tokio::time::timeout_at(Instant::now() + body_bound, read).await {
                Ok(Ok(m)) => m,
                Ok(Err(status)) => return Ok(status.into_http()),
                Err(_) if body_bound == settings.body_timeout => {
                    return Ok(Status::deadline_exceeded(format!(
                        "the request body did not arrive within {} ms (server.body_timeout_ms)",
                        settings.body_timeout.as_millis()
                    ))
                    .into_http());
                }
                Err(_) => return Ok(Status::deadline_exceeded(format!("deadline of {} ms exceeded", asked.as_millis())).into_http()),
            };
            let g = settings.daemon.current();
            let decoded = match super::wire::check(parts.uri.path(), &message[HEADER..], &g.config.limits) {
                Ok(cost) => cost,
                Err(invalid) => return Ok(Status::from(ApiError::Invalid(invalid)).into_http()),
            };
            let held = match settings.memory.take(decoded) {
                Ok(p) => p,
                Err(status) => return Ok(status.into_http()),
            };
            let mut parts = parts;
            let mut message = message;
            if let Some((wire, looked, stripped)) = decide_options(&g, parts.uri.path(), &message.slice(HEADER..)) {
                // Options the memo holds a list for are not decoded again:
                // the message goes on without their candidates.
                if let Some(payload) = stripped {
                    message = framed(&payload);
                }
                parts.extensions.insert(looked);
                parts.extensions.insert(wire);
            }
            parts.extensions.insert(Taken(g));
            let req = Request::from_parts(parts, Body::new(http_body_util::Full::new(message)));
            let answer = inner.oneshot(req).await;
            // The request is decoded, served and its answer built: its
            // memory goes back to the budget.
            drop((held, buffered));
            answer
        })
    }
}

/// Reads one whole unary gRPC message (header and payload), with the
/// bytes its header announces taken from `memory` for as long as the
/// returned permit is held.
async fn read_message(
    mut body: Body,
    max_message_bytes: usize,
    memory: &MemoryBudget,
) -> Result<(Bytes, Option<OwnedSemaphorePermit>), Status> {
    let mut buf = BytesMut::new();
    let mut declared: Option<usize> = None;
    let mut buffered = None;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| Status::cancelled(format!("the request body failed: {e}")))?;
        let Ok(data) = frame.into_data() else { continue };
        buf.extend_from_slice(&data);
        if declared.is_none() && buf.len() >= HEADER {
            let len = header(&buf[..HEADER], max_message_bytes)?;
            buffered = Some(memory.take(HEADER + len)?);
            buf.reserve((HEADER + len).saturating_sub(buf.len()));
            declared = Some(len);
        }
        if let Some(len) = declared
            && buf.len() > HEADER + len
        {
            return Err(Status::invalid_argument(
                "request message: the body holds more than one gRPC message (every ladder.v1.Arbiter call is unary)",
            ));
        }
    }
    match declared {
        None if buf.is_empty() => Err(Status::invalid_argument("request message: the body holds no gRPC message")),
        None => Err(Status::invalid_argument("request message: the body ended inside the 5-byte gRPC message header")),
        Some(len) if buf.len() < HEADER + len => Err(Status::invalid_argument(format!(
            "request message: the body ended after {} of the {len} bytes its header announced (truncated)",
            buf.len() - HEADER
        ))),
        Some(_) => Ok((buf.freeze(), buffered)),
    }
}

/// Checks a message header; returns the payload length.
fn header(mut h: &[u8], max_message_bytes: usize) -> Result<usize, Status> {
    let flag = h.get_u8();
    let len = h.get_u32() as usize;
    match flag {
        0 => {}
        // ladderd does not accept compressed requests (tonic would answer
        // UNIMPLEMENTED too); a flag without an encoding is a framing error.
        1 => {
            return Err(Status::unimplemented(
                "request message: compressed requests are not accepted; send them uncompressed (no grpc-encoding)",
            ));
        }
        f => {
            return Err(Status::invalid_argument(format!(
                "request message: bad gRPC framing (compressed flag {f}; valid flags are 0 and 1)"
            )));
        }
    }
    if len > max_message_bytes {
        return Err(Status::resource_exhausted(format!(
            "request message of {len} bytes is over the limit of {max_message_bytes} bytes (server.max_message_bytes)"
        )));
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb;
    use prost::Message;

    fn framed(payload: &[u8]) -> Vec<u8> {
        let mut v = vec![0];
        v.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        v.extend_from_slice(payload);
        v
    }

    async fn read(chunks: Vec<Vec<u8>>, max: usize) -> Result<Bytes, Status> {
        let stream =
            futures::stream::iter(chunks.into_iter().map(|c| Ok::<_, std::convert::Infallible>(http_body::Frame::data(Bytes::from(c)))));
        let memory = MemoryBudget::new(1 << 20);
        read_message(Body::new(http_body_util::StreamBody::new(stream)), max, &memory).await.map(|(m, _)| m)
    }

    #[tokio::test]
    async fn a_message_in_pieces_is_read_whole() {
        let m = framed(b"hello world");
        let got = read(vec![m[..3].to_vec(), m[3..8].to_vec(), m[8..].to_vec()], 100).await.unwrap();
        assert_eq!(&got[..], &m[..]);
    }

    /// A Decide reaches the service behind intake with the bytes its
    /// options are decoded from (`OptionsWire`), a slice of the body;
    /// another call without them.
    #[tokio::test]
    async fn a_decide_carries_its_options_bytes_to_the_handler() {
        use prost::Message;
        let daemon = Arc::new(Daemon::new(crate::config::Config::default()).unwrap());
        let layer = IntakeLayer {
            body_timeout: Duration::from_secs(1),
            max_timeout: Duration::from_secs(1),
            max_message_bytes: 1 << 20,
            memory: MemoryBudget::new(1 << 20),
            daemon,
        };
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let inner = {
            let seen = seen.clone();
            tower::service_fn(move |req: Request<Body>| {
                seen.lock().unwrap().push(req.extensions().get::<OptionsWire>().map(|w| w.0.clone()));
                async { Ok::<_, BoxError>(Response::new(Body::empty())) }
            })
        };
        let mut svc = layer.layer(inner);
        let m = crate::pb::DecideRequest {
            session_id: "s-1".into(),
            input: "links panel".into(),
            options: Some(crate::pb::OptionSet {
                option_set_id: "set-1".into(),
                candidates: vec![crate::pb::Candidate { id: "a".into(), label: "Links Panel".into(), ..Default::default() }],
                ..Default::default()
            }),
            ..Default::default()
        };
        for path in ["/ladder.v1.Arbiter/Decide", "/ladder.v1.Arbiter/GetSession"] {
            let body = Body::new(http_body_util::Full::new(Bytes::from(framed(&m.encode_to_vec()))));
            svc.call(Request::builder().uri(path).body(body).unwrap()).await.unwrap();
        }
        let seen = seen.lock().unwrap();
        assert_eq!(seen[0].as_deref(), Some(&m.options.as_ref().unwrap().encode_to_vec()[..]));
        assert_eq!(seen[1], None);
    }

    /// A Decide whose options' list the memo already holds (the same
    /// screen again) reaches the handler without those candidates, with
    /// the list intake found (`options::Looked`) and the generation it
    /// looked in (`Taken`): it converts to the very request the whole
    /// message makes, on the one shared list.
    #[tokio::test]
    async fn options_the_memo_holds_are_not_decoded_again() {
        use prost::Message;
        let daemon = Arc::new(Daemon::new(crate::config::Config::default()).unwrap());
        let layer = IntakeLayer {
            body_timeout: Duration::from_secs(1),
            max_timeout: Duration::from_secs(1),
            max_message_bytes: 1 << 20,
            memory: MemoryBudget::new(1 << 20),
            daemon: daemon.clone(),
        };
        type Seen = (Bytes, Option<OptionsWire>, Option<Looked>, Option<Taken>);
        let seen: Arc<std::sync::Mutex<Vec<Seen>>> = Arc::default();
        let inner = {
            let seen = seen.clone();
            tower::service_fn(move |req: Request<Body>| {
                let seen = seen.clone();
                async move {
                    let wire = req.extensions().get::<OptionsWire>().cloned();
                    let looked = req.extensions().get::<Looked>().cloned();
                    let taken = req.extensions().get::<Taken>().cloned();
                    let body = req.into_body().collect().await.unwrap().to_bytes();
                    seen.lock().unwrap().push((body, wire, looked, taken));
                    Ok::<_, BoxError>(Response::new(Body::empty()))
                }
            })
        };
        let mut svc = layer.layer(inner);
        let candidates: Vec<pb::Candidate> =
            (0..20).map(|i| pb::Candidate { id: format!("c{i}"), label: format!("Links Panel {i}"), ..Default::default() }).collect();
        let m = pb::DecideRequest {
            session_id: "s-1".into(),
            input: "links panel".into(),
            options: Some(pb::OptionSet {
                option_set_id: "set-1".into(),
                candidates,
                asked: pb::Asked::Choice as i32,
                ..Default::default()
            }),
            widget_items: vec![pb::Candidate { id: "w".into(), label: "Widget".into(), ..Default::default() }],
            ..Default::default()
        };
        let whole = m.encode_to_vec();
        for _ in 0..2 {
            let body = Body::new(http_body_util::Full::new(Bytes::from(framed(&whole))));
            svc.call(Request::builder().uri("/ladder.v1.Arbiter/Decide").body(body).unwrap()).await.unwrap();
            // The handler interns the list on the first call.
            let (body, wire, looked, taken) = seen.lock().unwrap().last().cloned().unwrap();
            let decoded = pb::DecideRequest::decode(&body[HEADER..]).unwrap();
            let _ = options::decide_input(&taken.unwrap().0, decoded, Some(&wire.unwrap().0[..]), looked).unwrap();
        }
        let seen = seen.lock().unwrap();
        let (first, second) = (&seen[0], &seen[1]);
        let g = second.3.clone().expect("the generation is handed on").0;
        assert!(Arc::ptr_eq(&g, &daemon.current()), "the generation in force when the body arrived");
        assert_eq!(&first.0[HEADER..], &whole[..], "the first time, the message as sent");
        assert!(second.0.len() < whole.len() / 3, "{} of {} bytes", second.0.len(), whole.len());
        let mut expected = m.clone();
        expected.options.as_mut().unwrap().candidates.clear();
        let stripped = pb::DecideRequest::decode(&second.0[HEADER..]).unwrap();
        assert_eq!(stripped, expected, "all but the candidates, as sent");
        let wire = second.1.clone().unwrap();
        assert_eq!(&wire.0[..], &m.options.as_ref().unwrap().encode_to_vec()[..], "the options' bytes as sent");
        let known = options::decide_input(&g, stripped, Some(&wire.0[..]), second.2.clone()).unwrap();
        let full = options::decide_input(&g, m.clone(), Some(&wire.0[..]), None).unwrap();
        assert_eq!(known, full, "the request the whole message makes");
        assert_eq!(known.options.as_ref().unwrap().candidates.len(), 20);
        assert!(Arc::ptr_eq(&known.options.unwrap().candidates, &full.options.unwrap().candidates), "on the shared list");
    }

    /// An Arbiter that answers each call with an empty message; a Decide
    /// whose options' bytes (`OptionsWire`) are not what its options were
    /// decoded from, with INTERNAL.
    struct Echo;

    #[tonic::async_trait]
    impl pb::arbiter_server::Arbiter for Echo {
        async fn decide(&self, r: tonic::Request<pb::DecideRequest>) -> Result<tonic::Response<pb::Decision>, Status> {
            if let Some(wire) = r.extensions().get::<OptionsWire>() {
                let options = pb::OptionSet::decode(&wire.0[..]).map_err(|e| Status::internal(format!("options' bytes: {e}")))?;
                if Some(&options) != r.get_ref().options.as_ref() {
                    return Err(Status::internal("the options' bytes are not the request's options"));
                }
            }
            Ok(tonic::Response::new(pb::Decision::default()))
        }
        async fn enrich(&self, _: tonic::Request<pb::EnrichRequest>) -> Result<tonic::Response<pb::Decision>, Status> {
            Ok(tonic::Response::new(pb::Decision::default()))
        }
        async fn clarify(&self, _: tonic::Request<pb::ClarifyRequest>) -> Result<tonic::Response<pb::ClarifyResponse>, Status> {
            Ok(tonic::Response::new(pb::ClarifyResponse::default()))
        }
        async fn extract(&self, _: tonic::Request<pb::ExtractRequest>) -> Result<tonic::Response<pb::ExtractResponse>, Status> {
            Ok(tonic::Response::new(pb::ExtractResponse::default()))
        }
        async fn record_outcome(
            &self,
            _: tonic::Request<pb::RecordOutcomeRequest>,
        ) -> Result<tonic::Response<pb::RecordOutcomeResponse>, Status> {
            Err(Status::unimplemented("not in this test"))
        }
        async fn get_session(&self, _: tonic::Request<pb::GetSessionRequest>) -> Result<tonic::Response<pb::SessionState>, Status> {
            Err(Status::unimplemented("not in this test"))
        }
        async fn reset_session(
            &self,
            _: tonic::Request<pb::ResetSessionRequest>,
        ) -> Result<tonic::Response<pb::ResetSessionResponse>, Status> {
            Err(Status::unimplemented("not in this test"))
        }
        async fn get_rollout(&self, _: tonic::Request<pb::GetRolloutRequest>) -> Result<tonic::Response<pb::RolloutState>, Status> {
            Err(Status::unimplemented("not in this test"))
        }
        async fn reset_rollout(&self, _: tonic::Request<pb::ResetRolloutRequest>) -> Result<tonic::Response<pb::RolloutState>, Status> {
            Err(Status::unimplemented("not in this test"))
        }
    }

    /// The grpc-status of an answer: in its headers (trailers only) or its
    /// trailers.
    async fn grpc_status(answer: Response<Body>) -> tonic::Code {
        let code = |h: &http::HeaderMap| h.get("grpc-status").and_then(|v| v.to_str().ok()?.parse::<i32>().ok());
        if let Some(c) = code(answer.headers()) {
            return tonic::Code::from_i32(c);
        }
        let trailers = answer.into_body().collect().await.expect("the answer's body").trailers().cloned().unwrap_or_default();
        tonic::Code::from_i32(code(&trailers).expect("a grpc-status"))
    }

    /// Whatever body a client sends to the four calls whose lists are
    /// counted (a valid request mangled: a field retyped, cut, sent twice,
    /// wrapped, dropped or put in; or random bytes), the documented stack
    /// (intake's scan and options' bytes, tonic's decode) answers without a
    /// panic: OK exactly when prost decodes the body, INVALID_ARGUMENT
    /// exactly when it does not; and a Decide's options' bytes are what
    /// its options were decoded from.
    #[test]
    fn a_mangled_body_is_served_exactly_when_prost_decodes_it() {
        use proptest::test_runner::{Config as Cases, TestRunner};
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let config = crate::config::Config { limits: crate::grpc::mangled::generous(), ..Default::default() };
        let daemon = Arc::new(Daemon::new(config.clone()).unwrap());
        let routes = tonic::service::Routes::new(pb::arbiter_server::ArbiterServer::new(Echo));
        let service = crate::grpc::stack::layers(&config.server, Arc::default(), daemon).layer(routes);
        let mut runner = TestRunner::new(Cases { cases: 512, failure_persistence: None, ..Cases::default() });
        let verdicts = runner.run(&crate::grpc::mangled::body(), |(call, bytes)| {
            let call = &crate::grpc::mangled::CALLS[call];
            let request = Request::builder()
                .uri(call.path)
                .header("content-type", "application/grpc")
                .body(Body::new(http_body_util::Full::new(Bytes::from(framed(&bytes)))))
                .unwrap();
            let code = rt.block_on(async { grpc_status(service.clone().oneshot(request).await.expect("an answer")).await });
            let decodes = (call.decodes)(&bytes);
            proptest::prop_assert_eq!(code, if decodes { tonic::Code::Ok } else { tonic::Code::InvalidArgument }, "{:02x?}", bytes);
            Ok(())
        });
        if let Err(e) = verdicts {
            panic!("{e}");
        }
    }

    #[tokio::test]
    async fn framing_mistakes_are_refused_with_what_was_wrong() {
        let m = framed(b"hello");
        let cases: Vec<(Vec<Vec<u8>>, tonic::Code, &str)> = vec![
            (vec![], tonic::Code::InvalidArgument, "no gRPC message"),
            (vec![m[..3].to_vec()], tonic::Code::InvalidArgument, "inside the 5-byte"),
            (vec![m[..7].to_vec()], tonic::Code::InvalidArgument, "after 2 of the 5 bytes"),
            (vec![m.clone(), m.clone()], tonic::Code::InvalidArgument, "more than one gRPC message"),
            (vec![framed(&[0; 101])], tonic::Code::ResourceExhausted, "server.max_message_bytes"),
            (vec![vec![1, 0, 0, 0, 1, 0]], tonic::Code::Unimplemented, "compressed"),
            (vec![vec![7, 0, 0, 0, 1, 0]], tonic::Code::InvalidArgument, "compressed flag 7"),
        ];
        for (chunks, code, text) in cases {
            let s = read(chunks, 100).await.unwrap_err();
            assert_eq!(s.code(), code, "{s:?}");
            assert!(s.message().contains(text), "{:?} lacks {text:?}", s.message());
        }
    }
}
