//! Startup: `App::build` binds the listener (port 0 works, for tests) and
//! assembles the server; `App::run_until` serves until a shutdown signal,
//! then drains.

use crate::config::Config;
use crate::daemon::{Daemon, StartError};
use crate::grpc::{Arbiter, stack};
use crate::pb;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::TcpListenerStream;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

pub struct App {
    listener: TcpListener,
    daemon: Arc<Daemon>,
    health: HealthReporter,
    health_service: tonic_health::pb::health_server::HealthServer<tonic_health::server::HealthService>,
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("reflection: {0}")]
    Reflection(String),
    #[error("server: {0}")]
    Serve(String),
}

impl App {
    pub async fn build(config: Config) -> Result<App, AppError> {
        let addr = config.listen_addr();
        let daemon = Arc::new(Daemon::new(config)?);
        let listener = TcpListener::bind(addr).await.map_err(|source| AppError::Bind { addr, source })?;
        let health = HealthReporter::new();
        let health_service =
            tonic_health::pb::health_server::HealthServer::new(tonic_health::server::HealthService::from_health_reporter(health.clone()));
        Ok(App { listener, daemon, health, health_service })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn daemon(&self) -> Arc<Daemon> {
        self.daemon.clone()
    }

    /// Serves until `shutdown` completes; then reports NOT_SERVING, stops
    /// accepting, and lets in-flight calls finish within
    /// `server.drain_grace_ms`.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), AppError> {
        let App { listener, daemon, health, health_service } = self;
        let cfg = daemon.config();
        let grace = Duration::from_millis(cfg.server.drain_grace_ms);
        let reflection = |v1: bool| {
            tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
                .with_service_name("ladder.v1.Arbiter")
                .with_service_name("grpc.health.v1.Health")
                .with_service_name(if v1 { "grpc.reflection.v1.ServerReflection" } else { "grpc.reflection.v1alpha.ServerReflection" })
        };
        let reflection_v1 = reflection(true).build_v1().map_err(|e| AppError::Reflection(e.to_string()))?;
        let reflection_v1alpha = reflection(false).build_v1alpha().map_err(|e| AppError::Reflection(e.to_string()))?;
        let arbiter = pb::arbiter_server::ArbiterServer::new(Arbiter::new(daemon.clone()))
            .max_decoding_message_size(cfg.server.max_message_bytes)
            .max_encoding_message_size(cfg.server.max_message_bytes.max(4 * 1024 * 1024));

        // Idle sessions of shards nobody touches are purged in the background.
        let _purger = daemon.spawn_background();

        health.set_serving::<pb::arbiter_server::ArbiterServer<Arbiter>>().await;
        health.set_service_status("", ServingStatus::Serving).await;
        tracing::info!(addr = %listener.local_addr().map_err(|e| AppError::Serve(e.to_string()))?, revision = %cfg.revision(), "serving");

        // serve_with_incoming ignores the builder's TCP settings: set
        // TCP_NODELAY here, or small replies wait on delayed ACKs (~40 ms).
        let incoming = TcpListenerStream::new(listener).map(|conn| {
            conn.and_then(|s| {
                s.set_nodelay(true)?;
                Ok(s)
            })
        });
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tonic::transport::Server::builder()
            .layer(stack::layers(
                cfg.server.max_concurrent_requests,
                Duration::from_millis(cfg.server.request_timeout_ms),
                cfg.server.max_message_bytes,
                daemon.stack.clone(),
            ))
            .add_service(health_service)
            .add_service(reflection_v1)
            .add_service(reflection_v1alpha)
            .add_service(arbiter)
            .serve_with_incoming_shutdown(incoming, async {
                let _ = stop_rx.await;
            });
        tokio::pin!(server);
        tokio::select! {
            r = &mut server => return r.map_err(|e| AppError::Serve(e.to_string())),
            _ = shutdown => {}
        }
        // Health first, so probes and clients stop sending; then stop
        // accepting and let in-flight calls finish within the grace period.
        health.set_not_serving::<pb::arbiter_server::ArbiterServer<Arbiter>>().await;
        health.set_service_status("", ServingStatus::NotServing).await;
        tracing::info!(grace_ms = grace.as_millis() as u64, "shutting down: not serving, draining");
        let _ = stop_tx.send(());
        match tokio::time::timeout(grace, server).await {
            Ok(r) => r.map_err(|e| AppError::Serve(e.to_string())),
            Err(_) => {
                tracing::warn!("drain grace period over; abandoning in-flight calls");
                Ok(())
            }
        }
    }
}
