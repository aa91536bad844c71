//! The tower stack every gRPC request passes through, outermost first.
//!
//! 1. `trace`: outermost, so every request gets a span and a log line,
//!    including the ones refused, shed or timed out below it.
//! 2. `client errors`: turns tonic's OUT_OF_RANGE for a request over
//!    `server.max_message_bytes` into RESOURCE_EXHAUSTED naming the key
//!    (over-limit sizes are RESOURCE_EXHAUSTED everywhere in ladderd), and
//!    its INTERNAL for bytes that do not decode (bad wire format, invalid
//!    UTF-8, a truncated message) into INVALID_ARGUMENT naming the field:
//!    the client's mistake, never the server's.
//! 3. `catch panics` (`CatchPanic`): the service boundary. A panic anywhere
//!    below it (intake, a handler, the answer's body) is caught and the
//!    call answered INTERNAL without detail, counted in
//!    `ladder_panics_total{call}` and logged once per place per interval
//!    (`telemetry::panics` keeps the default hook's raw text out of
//!    stderr), instead of a reset stream and lines of raw text for every
//!    such request. Above intake, which reads and scans the bytes the
//!    client chose; below client errors and trace, so its INTERNAL is
//!    logged and classified like any other.
//! 4. `intake` (`grpc::intake`): reads an Arbiter request's body whole
//!    within `server.body_timeout_ms`, before it takes a slot, so a client
//!    that never finishes its body holds no slot and is cut off fast; counts
//!    its lists on the wire before they are decoded (`grpc::wire`) and
//!    admits its memory against `server.request_memory_bytes`.
//! 5. `in flight`: a global bound on requests being served
//!    (`server.max_concurrent_requests`). When it is full the request is
//!    refused at once with RESOURCE_EXHAUSTED instead of queueing without
//!    bound; before the deadline so refused requests cost nothing. Health
//!    checks are not counted and never refused: a probe must see a busy
//!    daemon as SERVING.
//! 6. `deadline`: innermost, so it times only admitted work. It honours
//!    the client's `grpc-timeout`, capped by `server.request_timeout_ms`,
//!    and hands the deadline to the handler (the LLM rung stops in time to
//!    build the clarifier) through the `CallDeadline` request extension.
//!
//! Below the stack, HTTP/2 itself: each connection may open at most
//! `server.max_streams_per_connection` streams (advertised in SETTINGS),
//! and `grpc::listener` bounds the connections. The maximum decoded
//! message size is also set on the service (tonic enforces it while
//! decoding; intake refuses earlier, from the message header).

use crate::telemetry::panics;
use bytes::Bytes;
use http::{HeaderValue, Request, Response};
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Instant;
use tonic::Status;
use tonic::body::Body;
use tower::{BoxError, Layer, Service, ServiceBuilder};

/// When the current request must be answered by (a request extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallDeadline(pub Instant);

/// Counters the stack keeps (read by metrics).
#[derive(Debug, Default)]
pub struct StackStats {
    pub shed: AtomicU64,
    pub deadline_exceeded: AtomicU64,
    /// Calls that panicked, by their place in `CALLS`.
    pub panics: [AtomicU64; CALLS.len()],
}

/// The calls `ladder_panics_total` tells apart: each Arbiter method (the
/// last part of its path) with its `call` label, and `other` for any other
/// path (health, reflection, a path no service has), last. A fixed set,
/// whatever path a client sends.
pub const CALLS: [(&str, &str); 10] = [
    ("Decide", "decide"),
    ("Enrich", "enrich"),
    ("Clarify", "clarify"),
    ("Extract", "extract"),
    ("RecordOutcome", "record_outcome"),
    ("GetSession", "get_session"),
    ("ResetSession", "reset_session"),
    ("GetRollout", "get_rollout"),
    ("ResetRollout", "reset_rollout"),
    ("", "other"),
];

/// The place of the call at `path` in `CALLS`.
fn call_of(path: &str) -> usize {
    let other = CALLS.len() - 1;
    let Some(method) = path.strip_prefix("/ladder.v1.Arbiter/") else { return other };
    CALLS[..other].iter().position(|(m, _)| *m == method).unwrap_or(other)
}

/// Builds the documented stack (see the module docs for the order).
pub fn layers(
    server: &crate::config::ServerConfig,
    stats: Arc<StackStats>,
    daemon: Arc<crate::daemon::Daemon>,
) -> impl Layer<
    tonic::service::Routes,
    Service: Service<Request<Body>, Response = Response<Body>, Error = BoxError, Future: Send> + Clone + Send + 'static,
> + Clone
+ use<> {
    let max_message_bytes = server.max_message_bytes;
    let max_timeout = Duration::from_millis(server.request_timeout_ms);
    ServiceBuilder::new()
        // (The trace layer wraps the body; box it back to tonic's body type.)
        .map_response(|resp: Response<_>| resp.map(Body::new))
        .layer(tower_http::trace::TraceLayer::new_for_grpc().make_span_with(server_span).on_failure(log_failure))
        .map_response(move |resp: Response<Body>| remap_client_errors(resp, max_message_bytes))
        .layer(CatchPanicLayer::new(stats.clone()))
        .layer(super::intake::IntakeLayer {
            body_timeout: Duration::from_millis(server.body_timeout_ms),
            max_timeout,
            max_message_bytes,
            memory: super::intake::MemoryBudget::new(server.request_memory_bytes),
            daemon,
        })
        .layer(InFlightLayer::new(server.max_concurrent_requests, stats.clone()))
        .layer(DeadlineLayer::new(max_timeout, stats))
}

/// The service boundary: a panic in the call below it, while its answer
/// is made or while its answer's body is, is caught on the thread it
/// happened on and answered INTERNAL (`caught`). Catching it at the
/// boundary rather than around each handler covers intake too, and
/// whatever a handler calls; no request state survives the call, so
/// nothing a panic left half-done is seen again (the unwind is asserted
/// safe on that ground).
#[derive(Clone)]
pub struct CatchPanicLayer {
    stats: Arc<StackStats>,
}

impl CatchPanicLayer {
    pub fn new(stats: Arc<StackStats>) -> Self {
        CatchPanicLayer { stats }
    }
}

impl<S> Layer<S> for CatchPanicLayer {
    type Service = CatchPanic<S>;
    fn layer(&self, inner: S) -> Self::Service {
        CatchPanic { inner, stats: self.stats.clone() }
    }
}

#[derive(Clone)]
pub struct CatchPanic<S> {
    inner: S,
    stats: Arc<StackStats>,
}

impl<S> Service<Request<Body>> for CatchPanic<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = BoxError> + Send,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = futures::future::BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let call = call_of(req.uri().path());
        let stats = self.stats.clone();
        let inner = &mut self.inner;
        let started = catch_unwind(AssertUnwindSafe(|| panics::in_call(|| inner.call(req))));
        Box::pin(async move {
            let answer = match started {
                Ok(future) => {
                    let mut future = std::pin::pin!(future);
                    std::future::poll_fn(|cx| match catch_unwind(AssertUnwindSafe(|| panics::in_call(|| future.as_mut().poll(cx)))) {
                        Ok(polled) => polled.map(Ok),
                        Err(payload) => Poll::Ready(Err(payload)),
                    })
                    .await
                }
                Err(payload) => Err(payload),
            };
            match answer {
                Ok(Ok(resp)) => Ok(resp.map(|body| Body::new(CaughtBody { body: Some(body), call, stats }))),
                Ok(Err(e)) => Err(e),
                Err(payload) => Ok(caught(call, &*payload, &stats).into_http()),
            }
        })
    }
}

/// An answer's body under the boundary: a panic while it is produced ends
/// it with INTERNAL in its trailers.
struct CaughtBody {
    /// `None` once a panic ended it.
    body: Option<Body>,
    call: usize,
    stats: Arc<StackStats>,
}

impl http_body::Body for CaughtBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<http_body::Frame<Bytes>, Status>>> {
        let this = self.get_mut();
        let Some(body) = this.body.as_mut() else { return Poll::Ready(None) };
        match catch_unwind(AssertUnwindSafe(|| panics::in_call(|| Pin::new(body).poll_frame(cx)))) {
            Ok(polled) => polled,
            Err(payload) => {
                this.body = None;
                let mut trailers = http::HeaderMap::new();
                let status = caught(this.call, &*payload, &this.stats);
                if status.add_header(&mut trailers).is_err() {
                    trailers.insert("grpc-status", HeaderValue::from(tonic::Code::Internal as i32));
                }
                Poll::Ready(Some(Ok(http_body::Frame::trailers(trailers))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.as_ref().is_none_or(http_body::Body::is_end_stream)
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.as_ref().map_or_else(|| http_body::SizeHint::with_exact(0), http_body::Body::size_hint)
    }
}

/// Counts and logs a panic the boundary caught in the call at `call` in
/// `CALLS`; returns the answer. The log line names the place (where the
/// hook, `telemetry::panics`, saw it happen), once per place per interval;
/// the message only when it is a fixed text (`panics::fixed_text`: a
/// formatted one may quote the request). The caller learns nothing of it.
fn caught(call: usize, payload: &(dyn Any + Send), stats: &StackStats) -> Status {
    stats.panics[call].fetch_add(1, Ordering::Relaxed);
    let location = panics::caught();
    let location = location.as_deref().unwrap_or("unknown (no panic hook)");
    crate::error_every!(
        &format!("panic in a call at {location}"),
        call = CALLS[call].1,
        location,
        panic = panics::fixed_text(payload).unwrap_or("(a formatted message, left out: it may quote the request)"),
        "a call panicked: answered INTERNAL"
    );
    Status::internal("internal error; see the ladderd log")
}

/// Health checks: never counted against the in-flight limit.
fn is_health(path: &str) -> bool {
    path.starts_with("/grpc.health.v1.Health/")
}

/// The in-flight bound (`server.max_concurrent_requests`): a permit per
/// request being served, refused at once when none is left.
#[derive(Clone)]
pub struct InFlightLayer {
    permits: Arc<tokio::sync::Semaphore>,
    max: usize,
    stats: Arc<StackStats>,
}

impl InFlightLayer {
    pub fn new(max: usize, stats: Arc<StackStats>) -> Self {
        InFlightLayer { permits: Arc::new(tokio::sync::Semaphore::new(max)), max, stats }
    }
}

impl<S> Layer<S> for InFlightLayer {
    type Service = InFlight<S>;
    fn layer(&self, inner: S) -> Self::Service {
        InFlight { inner, limit: self.clone() }
    }
}

#[derive(Clone)]
pub struct InFlight<S> {
    inner: S,
    limit: InFlightLayer,
}

impl<S> Service<Request<Body>> for InFlight<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = BoxError> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = futures::future::BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        if is_health(req.uri().path()) {
            return Box::pin(self.inner.call(req));
        }
        let Ok(permit) = self.limit.permits.clone().try_acquire_owned() else {
            // Logged for the first refusal and every 1,000th after: under
            // overload a line per refusal costs a third of the goodput.
            let n = self.limit.stats.shed.fetch_add(1, Ordering::Relaxed) + 1;
            if n == 1 || n.is_multiple_of(1000) {
                tracing::warn!(shed_total = n, "requests shed: concurrency limit reached (server.max_concurrent_requests)");
            }
            let msg = format!(
                "ladderd is at its limit of {} requests in flight (server.max_concurrent_requests); retry with backoff",
                self.limit.max
            );
            return Box::pin(std::future::ready(Ok(Status::resource_exhausted(msg).into_http())));
        };
        let fut = self.inner.call(req);
        Box::pin(async move {
            let r = fut.await;
            drop(permit);
            r
        })
    }
}

/// The server span of a call, a child of the caller's trace when the
/// request carries a W3C `traceparent`. Health checks and reflection get
/// none: probes would otherwise fill the traces.
fn server_span(req: &Request<Body>) -> tracing::Span {
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    let path = req.uri().path().trim_start_matches('/');
    if path.starts_with("grpc.health.") || path.starts_with("grpc.reflection.") {
        return tracing::Span::none();
    }
    let (service, method) = path.split_once('/').unwrap_or((path, ""));
    let span = tracing::info_span!(
        target: "ladder::server",
        "grpc",
        otel.name = path,
        otel.kind = "server",
        rpc.system = "grpc",
        rpc.service = service,
        rpc.method = method,
        rpc.grpc.status_code = tracing::field::Empty,
    );
    // Without a trace exporter the span is disabled: no context to read.
    if !span.is_disabled() {
        let _ = span.set_parent(crate::telemetry::parent_context(req.headers()));
    }
    span
}

/// Refusals the caller caused are routine (debug); anything else is the
/// server's failure (warn). (A control call refused by `grpc::guard` is
/// logged there, at warn.)
fn log_failure(class: tower_http::classify::GrpcFailureClass, latency: Duration, span: &tracing::Span) {
    use tower_http::classify::GrpcFailureClass;
    let caller = |c: i32| {
        matches!(
            tonic::Code::from_i32(c),
            tonic::Code::InvalidArgument
                | tonic::Code::ResourceExhausted
                | tonic::Code::NotFound
                | tonic::Code::FailedPrecondition
                | tonic::Code::PermissionDenied
                | tonic::Code::Cancelled
                | tonic::Code::DeadlineExceeded
                | tonic::Code::Unimplemented
        )
    };
    if let GrpcFailureClass::Code(c) = &class {
        span.record("rpc.grpc.status_code", c.get());
    }
    match class {
        GrpcFailureClass::Code(c) if caller(c.get()) => {
            tracing::debug!(code = c.get(), latency_ms = latency.as_millis() as u64, "request refused")
        }
        GrpcFailureClass::Code(c) => {
            crate::warn_every!(
                &format!("request failed: {}", c.get()),
                code = c.get(),
                latency_ms = latency.as_millis() as u64,
                "request failed"
            )
        }
        GrpcFailureClass::Error(e) => {
            crate::warn_every!("request failed: error", error = %e, latency_ms = latency.as_millis() as u64, "request failed")
        }
    }
}

/// Statuses tonic gives for a client's mistake, rewritten to the codes
/// ladderd promises: an over-limit message is OUT_OF_RANGE in tonic and
/// RESOURCE_EXHAUSTED here (naming the setting, like every over-limit
/// size); bytes that are not the request message (bad wire format, a
/// string that is not UTF-8, a truncated or missing message) are INTERNAL
/// in tonic and INVALID_ARGUMENT here, naming the field where prost
/// names one.
fn remap_client_errors(mut resp: Response<Body>, limit: usize) -> Response<Body> {
    let h = resp.headers();
    let code = h.get("grpc-status").map(HeaderValue::as_bytes);
    let rewrite = match code {
        Some(b"11") | Some(b"13") => Status::from_header_map(h).and_then(|s| client_error(&s, limit)),
        _ => None,
    };
    if let Some(status) = rewrite {
        let h = resp.headers_mut();
        h.remove("grpc-status-details-bin");
        if status.add_header(h).is_err() {
            h.insert("grpc-status", HeaderValue::from(status.code() as i32));
        }
    }
    resp
}

/// The status to answer instead of `s`, when `s` is tonic's report of a
/// client's mistake.
fn client_error(s: &Status, limit: usize) -> Option<Status> {
    const DECODE: &str = "failed to decode Protobuf message: ";
    let m = s.message();
    match s.code() {
        tonic::Code::OutOfRange if m.contains("message length too large") => {
            Some(Status::resource_exhausted(format!("request message over the limit of {limit} bytes (server.max_message_bytes)")))
        }
        tonic::Code::Internal if m.starts_with(DECODE) => Some(Status::invalid_argument(decode_error(&m[DECODE.len()..]))),
        tonic::Code::Internal if m.starts_with("Unexpected EOF decoding stream") => {
            Some(Status::invalid_argument("request message: the body ended inside a gRPC message (truncated)"))
        }
        tonic::Code::Internal if m.starts_with("Missing request message") => {
            Some(Status::invalid_argument("request message: the body holds no gRPC message"))
        }
        tonic::Code::Internal if m.starts_with("protocol error: received message with") => {
            Some(Status::invalid_argument(format!("request message: bad gRPC framing ({})", m.trim_start_matches("protocol error: "))))
        }
        _ => None,
    }
}

/// prost's "Candidate.label: OptionSet.candidates: DecideRequest.options:
/// invalid string value: data is not UTF-8 encoded" (innermost first) as
/// "options.candidates.label: invalid string value: data is not UTF-8
/// encoded" (the field path from the request message down).
fn decode_error(rest: &str) -> String {
    let mut fields = Vec::new();
    let mut rest = rest;
    while let Some((head, tail)) = rest.split_once(": ") {
        match head.split_once('.') {
            Some((message, field))
                if !message.is_empty()
                    && !field.is_empty()
                    && message.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                fields.push(field);
                rest = tail;
            }
            _ => break,
        }
    }
    if fields.is_empty() {
        return format!("request message: not valid protobuf ({rest})");
    }
    fields.reverse();
    format!("{}: {rest}", fields.join("."))
}

#[derive(Clone)]
pub struct DeadlineLayer {
    max: Duration,
    stats: Arc<StackStats>,
}

impl DeadlineLayer {
    /// Deadlines of at most `max` (a shorter `grpc-timeout` wins).
    pub fn new(max: Duration, stats: Arc<StackStats>) -> Self {
        DeadlineLayer { max, stats }
    }
}

impl<S> Layer<S> for DeadlineLayer {
    type Service = DeadlineService<S>;
    fn layer(&self, inner: S) -> Self::Service {
        DeadlineService { inner, max: self.max, stats: self.stats.clone() }
    }
}

#[derive(Clone)]
pub struct DeadlineService<S> {
    inner: S,
    max: Duration,
    stats: Arc<StackStats>,
}

impl<S> Service<Request<Body>> for DeadlineService<S>
where
    S: Service<Request<Body>, Response = Response<Body>> + Send,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
{
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = futures::future::BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, mut req: Request<Body>) -> Self::Future {
        let asked = req.headers().get("grpc-timeout").and_then(|v| v.to_str().ok()).and_then(super::timeout::parse_grpc_timeout);
        let budget = asked.map_or(self.max, |t| t.min(self.max));
        let deadline = Instant::now() + budget;
        req.extensions_mut().insert(CallDeadline(deadline));
        let fut = self.inner.call(req);
        let stats = self.stats.clone();
        Box::pin(async move {
            match tokio::time::timeout_at(deadline, fut).await {
                Ok(r) => r.map_err(Into::into),
                Err(_) => {
                    stats.deadline_exceeded.fetch_add(1, Ordering::Relaxed);
                    Ok(Status::deadline_exceeded(format!("deadline of {} ms exceeded", budget.as_millis())).into_http())
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Log lines as a test reads them.
    #[derive(Clone, Default)]
    struct Log(Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Log {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Log {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
        /// Every line, each one JSON.
        fn lines(&self) -> Vec<serde_json::Value> {
            self.text().lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
        }
    }

    /// An answer's gRPC status: in its headers (trailers only) or its
    /// trailers.
    async fn status(answer: Response<Body>) -> (tonic::Code, String) {
        use http_body_util::BodyExt;
        let of = |h: &http::HeaderMap| Status::from_header_map(h).map(|s| (s.code(), s.message().to_string()));
        if let Some(s) = of(answer.headers()) {
            return s;
        }
        let trailers = answer.into_body().collect().await.expect("the body").trailers().cloned().unwrap_or_default();
        of(&trailers).expect("a grpc-status")
    }

    /// A body that panics when polled.
    struct Broken;

    impl http_body::Body for Broken {
        type Data = Bytes;
        type Error = Status;
        fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<http_body::Frame<Bytes>, Status>>> {
            panic!("the body broke")
        }
    }

    /// A service that panics in each of the ways a call can: a Decide in
    /// its future, with a message that quotes the request; an Enrich in
    /// its answer's body; a health check in `call` itself.
    fn panicking() -> impl Service<Request<Body>, Response = Response<Body>, Error = BoxError, Future: Send> + Clone + Send {
        tower::service_fn(|req: Request<Body>| {
            let path = req.uri().path().to_string();
            assert!(!path.starts_with("/grpc.health."), "a panic before any future exists");
            async move {
                if path.ends_with("/Decide") {
                    let input = "SECRET user text";
                    panic!("sliced {input:?}");
                }
                Ok::<_, BoxError>(Response::new(Body::new(Broken)))
            }
        })
    }

    fn request(path: &str) -> Request<Body> {
        Request::builder().uri(path).body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn a_panic_in_a_call_is_answered_internal_counted_and_logged_once_per_place_and_never_printed() {
        use tower::ServiceExt;
        panics::install_hook();
        let log = Log::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt().json().with_writer(move || writer.clone()).finish();
        let stats = Arc::new(StackStats::default());
        let service = CatchPanicLayer::new(stats.clone()).layer(panicking());
        let started = std::time::Instant::now();
        // (Asserted after the log is put back: with it, a failed assert
        // would be logged into it, not printed.)
        let logging = tracing::subscriber::set_default(subscriber);
        let mut answers = Vec::new();
        for path in
            std::iter::repeat_n("/ladder.v1.Arbiter/Decide", 50).chain(["/ladder.v1.Arbiter/Enrich", "/grpc.health.v1.Health/Check"])
        {
            let answer = service.clone().oneshot(request(path)).await.expect("an answer, not an error");
            let headers = answer.headers().contains_key("grpc-status");
            answers.push((path, headers, status(answer).await));
        }
        let printed_in_calls = panics::PRINTED.get();
        // Outside a call, a panic is logged whole (a process-level fault
        // must show its reason).
        let _ = std::panic::catch_unwind(|| panic!("outside a call, {}", 7));
        let printed_outside = panics::PRINTED.get();
        drop(logging);

        for (path, headers, status) in &answers {
            assert_eq!(status, &(tonic::Code::Internal, "internal error; see the ladderd log".into()), "{path}: no detail");
            assert_eq!(*headers, !path.ends_with("/Enrich"), "{path}: the Enrich's headers went out before its body broke");
        }
        let count = |call: &str| stats.panics[CALLS.iter().position(|(_, c)| *c == call).unwrap()].load(Ordering::Relaxed);
        assert_eq!([count("decide"), count("enrich"), count("other"), count("extract")], [50, 1, 1, 0]);

        // A line per place and interval (a 10 s interval: one, unless this
        // machine took longer than that for 52 calls), through the log's
        // formatter; the place is where the hook saw the panic.
        let lines = log.lines();
        let of = |call: &str| lines.iter().filter(|l| l["fields"]["call"] == call).collect::<Vec<_>>();
        let intervals = 1 + started.elapsed().as_secs() / crate::telemetry::throttle::INTERVAL.as_secs();
        let decide = of("decide");
        assert!((1..=intervals).contains(&(decide.len() as u64)), "{} lines for 50 panics:\n{}", decide.len(), log.text());
        assert_eq!(decide[0]["level"], "ERROR");
        assert_eq!(decide[0]["fields"]["message"], "a call panicked: answered INTERNAL");
        assert!(decide[0]["fields"]["location"].as_str().unwrap().starts_with("src/grpc/stack.rs:"), "{}", decide[0]);
        assert!(!log.text().contains("SECRET"), "a formatted message is left out: it may quote the request");
        assert_eq!(of("enrich")[0]["fields"]["panic"], "the body broke", "a fixed text is logged");
        assert_eq!(of("other").len(), 1);
        let outside: Vec<_> = lines.iter().filter(|l| l["fields"]["message"] == "a thread panicked outside a call").collect();
        assert_eq!(outside.len(), 1, "{}", log.text());
        assert_eq!(outside[0]["fields"]["panic"], "outside a call, 7");
        assert_eq!(lines.len(), decide.len() + 3, "nothing else was logged:\n{}", log.text());
        assert_eq!((printed_in_calls, printed_outside), (0, 0), "the default hook printed nothing");
        // With no log to write to, the default hook prints (and the count
        // above sees it).
        let printed = std::thread::spawn(|| {
            let _ = std::panic::catch_unwind(|| panic!("no log on this thread"));
            panics::PRINTED.get()
        });
        assert_eq!(printed.join().unwrap(), 1);
    }

    #[test]
    fn every_arbiter_call_has_its_own_panics_label_and_any_other_path_is_other() {
        let proto = include_str!("../../proto/ladder/v1/ladder.proto");
        let calls: Vec<&str> =
            proto.lines().filter_map(|l| l.trim().strip_prefix("rpc ")).map(|l| l.split('(').next().unwrap_or_default().trim()).collect();
        assert_eq!(calls.len(), CALLS.len() - 1, "{calls:?}");
        for call in calls {
            let (method, label) = CALLS[call_of(&format!("/ladder.v1.Arbiter/{call}"))];
            assert_eq!(method, call);
            let snake: String = call
                .chars()
                .enumerate()
                .flat_map(|(i, c)| if c.is_uppercase() && i > 0 { vec!['_', c.to_ascii_lowercase()] } else { vec![c.to_ascii_lowercase()] })
                .collect();
            assert_eq!(label, snake);
        }
        for path in ["/grpc.health.v1.Health/Check", "/ladder.v1.Arbiter/Nope", "/other.Arbiter/Decide", "/ladder.v1.Arbiter/", ""] {
            assert_eq!(CALLS[call_of(path)].1, "other", "{path}");
        }
    }

    #[test]
    fn prost_decode_errors_read_as_a_field_path_from_the_request_down() {
        assert_eq!(
            decode_error("Candidate.label: OptionSet.candidates: DecideRequest.options: invalid string value: data is not UTF-8 encoded"),
            "options.candidates.label: invalid string value: data is not UTF-8 encoded"
        );
        assert_eq!(decode_error("DecideRequest.session_id: buffer underflow"), "session_id: buffer underflow");
        assert_eq!(decode_error("invalid varint"), "request message: not valid protobuf (invalid varint)");
        assert_eq!(decode_error("invalid key value: 0"), "request message: not valid protobuf (invalid key value: 0)");
    }
}
