//! The admin listener (`admin.listen`): what kubelet's probes and a
//! metrics scraper need, and nothing else.
//!
//! It serves `grpc.health.v1.Health` (the data port's reporter: SERVING
//! until shutdown begins, NOT_SERVING while in-flight calls drain) and
//! Prometheus text at `GET /metrics` (HTTP/1.1, as scrapers speak it). No
//! `ladder.v1.Arbiter` call and no reflection: those are UNIMPLEMENTED
//! here. So the admin port can be opened to the pod network (probes dial
//! the pod IP) while the data port stays on loopback.
//!
//! Its bounds are its own, apart from the data port's, so a flood at one
//! cannot take what the other needs:
//! - at most [`MAX_CONNECTIONS`] connections; one more closes the one quiet
//!   longest (`grpc::listener`, as on the data port), so idle connections
//!   cannot lock a prober out;
//! - at most [`STREAMS_PER_CONNECTION`] requests at once on an HTTP/2
//!   connection, one on an HTTP/1.1 connection: at most 64 requests in all,
//!   each on its own connection's allowance. There is deliberately no
//!   shared pool of request slots: a flood would fill it ahead of a
//!   probe, while streams are per connection and a new connection always
//!   gets in;
//! - every request answered within [`REQUEST_TIMEOUT`] (a health check
//!   whose body never completes is cut there), a health request message of
//!   at most [`MAX_HEALTH_MESSAGE_BYTES`], and HTTP/1.1 headers within
//!   hyper's 30 s.

use super::listener::{self, Connections};
use super::stack::{DeadlineLayer, StackStats};
use crate::telemetry::SharedReader;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tonic_health::pb::health_server::HealthServer;
use tonic_health::server::HealthService;

/// Connections the admin listener holds at once.
pub const MAX_CONNECTIONS: usize = 16;
/// Streams one HTTP/2 connection to the admin listener may have open.
pub const STREAMS_PER_CONNECTION: u32 = 4;
/// How long an admin request may take (kubelet's probes give up after
/// their `timeoutSeconds`, 1 s by default).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// The largest health request message (a service name).
pub const MAX_HEALTH_MESSAGE_BYTES: usize = 1024;

/// Serves the admin listener until `shutdown` completes. `metrics` is the
/// installed telemetry's reader (without one, `/metrics` answers 503).
pub async fn serve(
    listener: TcpListener,
    health: HealthServer<HealthService>,
    metrics: Option<SharedReader>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    let routes = tonic::service::Routes::new(health.max_decoding_message_size(MAX_HEALTH_MESSAGE_BYTES))
        .into_axum_router()
        .route("/metrics", axum::routing::get(move || render(metrics.clone())));
    tonic::transport::Server::builder()
        // Prometheus scrapes over HTTP/1.1; the probes speak HTTP/2.
        .accept_http1(true)
        .max_concurrent_streams(STREAMS_PER_CONNECTION)
        .layer(DeadlineLayer::new(REQUEST_TIMEOUT, Arc::new(StackStats::default())))
        .add_routes(tonic::service::Routes::from(routes))
        .serve_with_incoming_shutdown(listener::incoming(listener, Connections::new(MAX_CONNECTIONS)), shutdown)
        .await
}

async fn render(metrics: Option<SharedReader>) -> axum::response::Response {
    use axum::response::IntoResponse;
    match metrics {
        Some(reader) => ([(http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], reader.render()).into_response(),
        None => (http::StatusCode::SERVICE_UNAVAILABLE, "metrics are not collected in this process\n").into_response(),
    }
}
