//! The instant fake OpenAI-compatible provider (`--fake-llm`).

use std::net::SocketAddr;

/// The reply of the instant provider: a confident pick inside the tie of
/// "links panel" (Links Panel D / E).
const FAKE_REPLY: &str = r#"{"id":"cmpl-load","object":"chat.completion","model":"fake","choices":[{"index":0,"message":{"role":"assistant","content":"{\"decision\":\"select\",\"choice_id\":\"links-panel-d\",\"confidence\":0.9,\"needed_evidence_types\":[]}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}}"#;

/// An OpenAI-compatible provider answering every POST at once with
/// `FAKE_REPLY` (HTTP/1.1 with keep-alive, like a real one behind reqwest).
pub(crate) async fn start_fake_llm(listen: &str) -> SocketAddr {
    use http_body_util::{BodyExt, Full};
    use hyper::service::service_fn;
    let listener = tokio::net::TcpListener::bind(listen).await.expect("the fake provider binds");
    let addr = listener.local_addr().expect("a bound address");
    tokio::spawn(async move {
        while let Ok((sock, _)) = listener.accept().await {
            let _ = sock.set_nodelay(true);
            tokio::spawn(async move {
                let svc = service_fn(|req: hyper::Request<hyper::body::Incoming>| async move {
                    let _ = req.into_body().collect().await;
                    let resp = hyper::Response::builder()
                        .header("content-type", "application/json")
                        .body(Full::new(hyper::body::Bytes::from_static(FAKE_REPLY.as_bytes())))
                        .expect("a valid response");
                    Ok::<_, std::convert::Infallible>(resp)
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(sock), svc).await;
            });
        }
    });
    addr
}
