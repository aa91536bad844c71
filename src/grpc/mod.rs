//! The gRPC adapter: `ladder.v1.Arbiter` handlers. Each takes the
//! configuration generation intake took for the call (`intake::Taken`),
//! converts the message at the edge (`crate::convert`, under that
//! generation's limits), calls the daemon with the same generation, and
//! converts back; errors become statuses in
//! one place (`crate::error`). The control calls first ask `guard` whether
//! the caller may make them.

pub mod admin;
pub mod guard;
pub mod intake;
pub mod listener;
pub mod options;
pub mod stack;
pub mod timeout;
pub mod wire;

use crate::convert;
use crate::daemon::{Daemon, Generation};
use crate::error::ApiError;
use crate::pb;
use guard::Control;
use stack::CallDeadline;
use std::future::Future;
use std::sync::Arc;
use tonic::{Request, Response, Status};

/// Serves `routes` on `listener` the way the daemon serves its data port:
/// the listener's connection bound (`server.max_connections`), HTTP/2's
/// stream bound (`server.max_streams_per_connection`) and the documented
/// tower stack (`stack::layers`: trace, client errors, catch panics,
/// intake, in flight, deadline), until `shutdown` completes. The daemon serves its services
/// with it (`App::run_until`), and the load tool's echo baseline serves an
/// empty `Arbiter` with it, so that the two differ by the work behind the
/// handler and nothing else.
pub fn serve(
    listener: tokio::net::TcpListener,
    connections: Arc<listener::Connections>,
    server: &crate::config::ServerConfig,
    stats: Arc<stack::StackStats>,
    daemon: Arc<Daemon>,
    routes: tonic::service::Routes,
    shutdown: impl Future<Output = ()> + Send,
) -> impl Future<Output = Result<(), tonic::transport::Error>> {
    tonic::transport::Server::builder()
        // Bounds what one connection can hold (streams, and the answers of
        // a client that never reads them); advertised in SETTINGS.
        .max_concurrent_streams(server.max_streams_per_connection)
        .layer(stack::layers(server, stats, daemon))
        .add_routes(routes)
        .serve_with_incoming_shutdown(listener::incoming(listener, connections), shutdown)
}

#[derive(Clone)]
pub struct Arbiter {
    daemon: Arc<Daemon>,
}

impl Arbiter {
    pub fn new(daemon: Arc<Daemon>) -> Self {
        Arbiter { daemon }
    }
}

fn deadline<T>(r: &Request<T>) -> Option<tokio::time::Instant> {
    r.extensions().get::<CallDeadline>().map(|d| d.0)
}

impl Arbiter {
    /// The configuration generation the call is served under: the one
    /// intake took when its body arrived, so that the limits that checked
    /// it, the memo its options were looked up in and the rules that
    /// decide it are one generation. A call that did not pass intake (the
    /// service without the stack) takes the one in force.
    fn generation<T>(&self, request: &Request<T>) -> Arc<Generation> {
        request.extensions().get::<intake::Taken>().map_or_else(|| self.daemon.current(), |t| t.0.clone())
    }

    /// The guard of a control call, under the token of the call's
    /// generation; the generation is returned for the call to use.
    fn authorize<T>(&self, request: &Request<T>, call: Control) -> Result<Arc<Generation>, Status> {
        let g = self.generation(request);
        guard::authorize(request, call, g.admin_token.as_ref())?;
        Ok(g)
    }
}

#[tonic::async_trait]
impl pb::arbiter_server::Arbiter for Arbiter {
    async fn decide(&self, request: Request<pb::DecideRequest>) -> Result<Response<pb::Decision>, Status> {
        let deadline = deadline(&request);
        let g = self.generation(&request);
        let wire = request.extensions().get::<intake::OptionsWire>().cloned();
        let looked = request.extensions().get::<options::Looked>().cloned();
        let req = options::decide_input(&g, request.into_inner(), wire.as_ref().map(|w| &w.0[..]), looked)?;
        let d = self.daemon.decide(&g, req, deadline).await?;
        Ok(Response::new(d.into()))
    }

    async fn enrich(&self, request: Request<pb::EnrichRequest>) -> Result<Response<pb::Decision>, Status> {
        let deadline = deadline(&request);
        let g = self.generation(&request);
        let req = convert::enrich_request(request.into_inner(), &g.config.limits).map_err(ApiError::from)?;
        let d = self.daemon.enrich(&g, req, deadline).await?;
        Ok(Response::new(d.into()))
    }

    async fn clarify(&self, request: Request<pb::ClarifyRequest>) -> Result<Response<pb::ClarifyResponse>, Status> {
        let deadline = deadline(&request);
        let g = self.generation(&request);
        let req = convert::clarify_request(request.into_inner(), &g.config.limits).map_err(ApiError::from)?;
        let m = self.daemon.clarify(&g, req, deadline).await;
        Ok(Response::new(convert::clarify_response(m, crate::llm::prompt::ASSISTANT_PROMPT_VERSION)))
    }

    async fn extract(&self, request: Request<pb::ExtractRequest>) -> Result<Response<pb::ExtractResponse>, Status> {
        let deadline = deadline(&request);
        let g = self.generation(&request);
        let req = convert::extract_request(request.into_inner(), &g.config.limits).map_err(ApiError::from)?;
        let x = self.daemon.extract(&g, req, deadline).await?;
        Ok(Response::new(pb::ExtractResponse {
            entities: x.slots.into_iter().map(|(slot, f)| pb::ExtractedEntity { slot, value: f.value, source: f.source }).collect(),
            normalization_accepted: x.normalized.is_some(),
            normalized_text: x.normalized.unwrap_or_default(),
            decided_by: x.decided_by,
            hints: x
                .hints
                .into_iter()
                .map(|h| pb::HintReport {
                    component: h.component,
                    status: h.status.as_str().to_string(),
                    detail: h.detail,
                    latency_ms: h.latency_ms,
                })
                .collect(),
            schema_version: ladder::extract::SCHEMA_VERSION.to_string(),
            prompt_version: crate::llm::prompt::EXTRACTION_PROMPT_VERSION.to_string(),
        }))
    }

    async fn record_outcome(&self, request: Request<pb::RecordOutcomeRequest>) -> Result<Response<pb::RecordOutcomeResponse>, Status> {
        let g = self.authorize(&request, Control::RecordOutcome)?;
        let o = convert::outcome_request(request.into_inner(), &g.config.limits).map_err(ApiError::from)?;
        let id = o.session_id.clone();
        let (s, fresh) = self.daemon.record_outcome(&g, o).await?;
        Ok(Response::new(pb::RecordOutcomeResponse { session: Some(convert::session_to_pb(&id, &s, fresh)) }))
    }

    async fn get_session(&self, request: Request<pb::GetSessionRequest>) -> Result<Response<pb::SessionState>, Status> {
        let g = self.authorize(&request, Control::GetSession)?;
        let id = request.into_inner().session_id;
        convert::session_id(&id, &g.config.limits).map_err(ApiError::from)?;
        let (s, fresh) = self.daemon.session(&g, &id).await?;
        Ok(Response::new(convert::session_to_pb(&id, &s, fresh)))
    }

    async fn get_rollout(&self, request: Request<pb::GetRolloutRequest>) -> Result<Response<pb::RolloutState>, Status> {
        Ok(Response::new(convert::rollout_to_pb(self.daemon.rollout(&self.generation(&request)))))
    }

    async fn reset_rollout(&self, request: Request<pb::ResetRolloutRequest>) -> Result<Response<pb::RolloutState>, Status> {
        let g = self.authorize(&request, Control::ResetRollout)?;
        let note = request.into_inner().note;
        let max = crate::config::fixed::NOTE_MAX_BYTES;
        if note.len() > max {
            return Err(ApiError::from(crate::error::Invalid::TooLong { field: "note".into(), len: note.len(), max }).into());
        }
        Ok(Response::new(convert::rollout_to_pb(self.daemon.reset_rollout(&g, &note).await?)))
    }

    async fn reset_session(&self, request: Request<pb::ResetSessionRequest>) -> Result<Response<pb::ResetSessionResponse>, Status> {
        let g = self.authorize(&request, Control::ResetSession)?;
        let id = request.into_inner().session_id;
        convert::session_id(&id, &g.config.limits).map_err(ApiError::from)?;
        let existed = self.daemon.reset_session(&id).await?;
        Ok(Response::new(pb::ResetSessionResponse { existed }))
    }
}

#[cfg(test)]
mod mangled;

#[cfg(test)]
mod tests {
    use super::*;

    /// A handler serves the call under the generation intake took for it
    /// (`intake::Taken`), not the one in force when the handler runs: a
    /// reload between the two never mixes limits. Here the generation
    /// taken allows 4 bytes of input and the one in force the default.
    #[tokio::test]
    async fn a_call_is_served_under_the_generation_intake_took() {
        let arbiter = Arbiter::new(Arc::new(Daemon::new(crate::config::Config::default()).unwrap()));
        let mut strict = crate::config::Config::default();
        strict.limits.input_max_bytes = 4;
        let taken = Daemon::new(strict).unwrap().current();
        let call = |taken: Option<Arc<Generation>>| {
            let mut r = Request::new(pb::DecideRequest { session_id: "s-1".into(), input: "links panel".into(), ..Default::default() });
            if let Some(g) = taken {
                r.extensions_mut().insert(intake::Taken(g));
            }
            pb::arbiter_server::Arbiter::decide(&arbiter, r)
        };
        let refused = call(Some(taken)).await.expect_err("over the taken generation's limit");
        assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
        assert!(refused.message().contains("input"), "{}", refused.message());
        call(None).await.expect("within the limit in force");
    }
}
