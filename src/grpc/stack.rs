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
//! 3. `intake` (`grpc::intake`): reads an Arbiter request's body whole
//!    within `server.body_timeout_ms`, before it takes a slot, so a client
//!    that never finishes its body holds no slot and is cut off fast; counts
//!    its lists on the wire before they are decoded (`grpc::wire`) and
//!    admits its memory against `server.request_memory_bytes`.
//! 4. `in flight`: a global bound on requests being served
//!    (`server.max_concurrent_requests`). When it is full the request is
//!    refused at once with RESOURCE_EXHAUSTED instead of queueing without
//!    bound; before the deadline so refused requests cost nothing. Health
//!    checks are not counted and never refused: a probe must see a busy
//!    daemon as SERVING.
//! 5. `deadline`: innermost, so it times only admitted work. It honours
//!    the client's `grpc-timeout`, capped by `server.request_timeout_ms`,
//!    and hands the deadline to the handler (the LLM rung stops in time to
//!    build the clarifier) through the `Deadline` request extension.
//!
//! Below the stack, HTTP/2 itself: each connection may open at most
//! `server.max_streams_per_connection` streams (advertised in SETTINGS),
//! and `grpc::listener` bounds the connections. The maximum decoded
//! message size is also set on the service (tonic enforces it while
//! decoding; intake refuses earlier, from the message header).

use http::{HeaderValue, Request, Response};
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
pub struct Deadline(pub Instant);

/// Counters the stack keeps (read by metrics).
#[derive(Debug, Default)]
pub struct StackStats {
    pub shed: AtomicU64,
    pub deadline_exceeded: AtomicU64,
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

/// Parses a `grpc-timeout` header value ("100m", "5S", ...).
pub fn parse_grpc_timeout(v: &str) -> Option<Duration> {
    if v.len() < 2 || v.len() > 9 {
        return None;
    }
    let (num, unit) = v.split_at(v.len() - 1);
    let n: u64 = num.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n.saturating_mul(3600)),
        "M" => Duration::from_secs(n.saturating_mul(60)),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
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
        let asked = req.headers().get("grpc-timeout").and_then(|v| v.to_str().ok()).and_then(parse_grpc_timeout);
        let budget = asked.map_or(self.max, |t| t.min(self.max));
        let deadline = Instant::now() + budget;
        req.extensions_mut().insert(Deadline(deadline));
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

    #[test]
    fn grpc_timeout_table() {
        assert_eq!(parse_grpc_timeout("100m"), Some(Duration::from_millis(100)));
        assert_eq!(parse_grpc_timeout("5S"), Some(Duration::from_secs(5)));
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_grpc_timeout("250000u"), Some(Duration::from_millis(250)));
        assert_eq!(parse_grpc_timeout("m"), None);
        assert_eq!(parse_grpc_timeout("10x"), None);
        assert_eq!(parse_grpc_timeout("123456789S"), None);
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
