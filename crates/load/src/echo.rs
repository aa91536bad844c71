//! The echo baseline: the Arbiter service answering every call with an
//! empty message, behind the daemon's transport or tonic's default server.

use ladderd::pb;
use std::process::ExitCode;
use tonic::Status;

pub(crate) struct Echo;

#[tonic::async_trait]
impl pb::arbiter_server::Arbiter for Echo {
    async fn decide(&self, _: tonic::Request<pb::DecideRequest>) -> Result<tonic::Response<pb::Decision>, Status> {
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
        Ok(tonic::Response::new(pb::RecordOutcomeResponse::default()))
    }
    async fn get_session(&self, _: tonic::Request<pb::GetSessionRequest>) -> Result<tonic::Response<pb::SessionState>, Status> {
        Ok(tonic::Response::new(pb::SessionState::default()))
    }
    async fn reset_session(&self, _: tonic::Request<pb::ResetSessionRequest>) -> Result<tonic::Response<pb::ResetSessionResponse>, Status> {
        Ok(tonic::Response::new(pb::ResetSessionResponse::default()))
    }
    async fn get_rollout(&self, _: tonic::Request<pb::GetRolloutRequest>) -> Result<tonic::Response<pb::RolloutState>, Status> {
        Ok(tonic::Response::new(pb::RolloutState::default()))
    }
    async fn reset_rollout(&self, _: tonic::Request<pb::ResetRolloutRequest>) -> Result<tonic::Response<pb::RolloutState>, Status> {
        Ok(tonic::Response::new(pb::RolloutState::default()))
    }
}

/// The echo server: the daemon's transport (`ladderd::grpc::serve`: its
/// listener, HTTP/2 settings and tower stack, the intake's whole-body read,
/// wire scan and memory budget included; the same decoding limits) under
/// the daemon's configuration, so that it differs from the daemon by the
/// work behind the handler only. `plain`: tonic's default server instead
/// (TCP_NODELAY and the decoding limit), for what the transport costs on
/// its own.
pub(crate) async fn serve_echo(listen: &str, plain: bool) -> ExitCode {
    use tokio_stream::StreamExt;
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ladderd-load echo: cannot listen on {listen}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().expect("a bound address");
    let config = match ladderd::config::load(None) {
        Ok(c) => c,
        Err(e) => {
            eprint!("ladderd-load echo: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = config.server.clone();
    let svc = pb::arbiter_server::ArbiterServer::new(Echo)
        .max_decoding_message_size(server.max_message_bytes)
        .max_encoding_message_size(server.max_message_bytes.max(4 * 1024 * 1024));
    eprintln!("serving {addr}");
    let served = if plain {
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener).map(|c| {
            c.and_then(|s| {
                s.set_nodelay(true)?;
                Ok(s)
            })
        });
        tonic::transport::Server::builder().add_service(svc).serve_with_incoming(incoming).await
    } else {
        // The daemon's log subscriber (and exporters, when configured): the
        // stack's request spans cost what they cost in the daemon.
        let _telemetry = ladderd::telemetry::init(&config.telemetry);
        let daemon = match ladderd::daemon::Daemon::new(config) {
            Ok(d) => std::sync::Arc::new(d),
            Err(e) => {
                eprintln!("ladderd-load echo: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (_, health) = tonic_health::server::health_reporter();
        let routes = tonic::service::Routes::new(health).add_service(svc);
        let connections = ladderd::grpc::listener::Connections::new(server.max_connections);
        let stats = std::sync::Arc::new(ladderd::grpc::stack::StackStats::default());
        ladderd::grpc::serve(listener, connections, &server, stats, daemon, routes, std::future::pending()).await
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ladderd-load echo: {e}");
            ExitCode::FAILURE
        }
    }
}
