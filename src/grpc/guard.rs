//! Who may make the control calls.
//!
//! `ResetRollout` re-enables auto-execute after the guardrails turned it
//! off, `ResetSession` wipes a user's context, `RecordOutcome` feeds the
//! guardrail windows (and a user's accepted and rejected choices), and
//! `GetSession` reads those choices and the id of the session's open cycle
//! (all `Enrich` needs to act on it). `Decide` and `Enrich` stay open
//! though they use the same state: they answer only in ids of the caller's
//! own request, so what they tell it of a session is which of its own
//! candidates the session last had or refused (docs/security.md, "Session
//! ids are capabilities"). The control calls are served only to a caller on
//! loopback (the app in the same pod, `kubectl port-forward`) or, when
//! `admin.token_file` is set, to a caller presenting that token as
//! `authorization: Bearer <token>`. Anyone else gets PERMISSION_DENIED
//! before the call does anything (not even validation: a refused caller
//! learns nothing about the request or the session).
//!
//! [`authorize`] is the one place this is decided; each control handler
//! calls it first. It reads the peer address tonic records for every
//! request (the connection's `TcpConnectInfo`), so it sees what the kernel
//! says, not what the caller claims.

use crate::config::AdminToken;
use crate::error::ApiError;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use subtle::ConstantTimeEq;
use tonic::Request;

/// The calls only a trusted caller may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    ResetRollout,
    ResetSession,
    RecordOutcome,
    GetSession,
}

impl Control {
    pub const ALL: [Control; 4] = [Control::ResetRollout, Control::ResetSession, Control::RecordOutcome, Control::GetSession];

    pub fn as_str(self) -> &'static str {
        match self {
            Control::ResetRollout => "ResetRollout",
            Control::ResetSession => "ResetSession",
            Control::RecordOutcome => "RecordOutcome",
            Control::GetSession => "GetSession",
        }
    }
}

/// The `ladder.v1.Arbiter` calls any caller that reaches `listen` may make.
pub const OPEN: [&str; 5] = ["Decide", "Enrich", "Clarify", "Extract", "GetRollout"];

/// Why a control call was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// Off loopback, and no `admin.token_file`.
    NoToken,
    /// Off loopback, without `authorization` metadata.
    Missing,
    /// `authorization` is not `Bearer <token>`.
    Malformed,
    /// A bearer token that is not the admin token.
    Wrong,
}

impl Refusal {
    fn as_str(self) -> &'static str {
        match self {
            Refusal::NoToken => "no_token_configured",
            Refusal::Missing => "token_missing",
            Refusal::Malformed => "authorization_malformed",
            Refusal::Wrong => "token_mismatch",
        }
    }

    /// What the caller is told: what would let the call through, never
    /// anything of the token.
    fn message(self, call: Control) -> String {
        let call = call.as_str();
        match self {
            Refusal::NoToken => {
                format!("{call} is served only to callers on loopback (admin.token_file is not set)")
            }
            Refusal::Missing => {
                format!("{call} from another host needs the admin token, sent as `authorization: Bearer <token>` (admin.token_file)")
            }
            Refusal::Malformed => format!("{call}: the authorization metadata must be `Bearer <token>`"),
            Refusal::Wrong => format!("{call}: the admin token does not match (admin.token_file)"),
        }
    }
}

/// Whether `ip` is this host's loopback (an IPv4 loopback address written as
/// IPv6, as a dual-stack listener reports it, included).
pub fn on_loopback(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// Lets a control call through, or says why not. A request without a peer
/// address (not from a TCP connection) counts as off loopback.
pub fn authorize<T>(request: &Request<T>, call: Control, token: Option<&AdminToken>) -> Result<(), ApiError> {
    let peer = request.remote_addr();
    if peer.is_some_and(|p| on_loopback(p.ip())) {
        return Ok(());
    }
    let refusal = match token {
        None => Refusal::NoToken,
        Some(token) => match request.metadata().get("authorization") {
            None => Refusal::Missing,
            Some(value) => match value.to_str().ok().and_then(bearer) {
                None => Refusal::Malformed,
                Some(presented) if matches(token, presented) => return Ok(()),
                Some(_) => Refusal::Wrong,
            },
        },
    };
    log_refusal(call, peer, refusal);
    Err(ApiError::PermissionDenied(refusal.message(call)))
}

/// The token of `Bearer <token>` (the scheme in any case, RFC 9110).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, rest) = value.split_once(' ')?;
    let token = rest.trim_matches(' ');
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Compares digests in constant time: neither the token's bytes nor its
/// length can be learnt from how long a refusal takes.
fn matches(token: &AdminToken, presented: &str) -> bool {
    use sha2::Digest;
    let digest: [u8; 32] = sha2::Sha256::digest(presented.as_bytes()).into();
    digest.ct_eq(token.digest()).into()
}

/// Logged for the first refusal and every 1,000th after: a caller sending a
/// flood of refused calls must not flood the log.
fn log_refusal(call: Control, peer: Option<SocketAddr>, refusal: Refusal) {
    static REFUSED: AtomicU64 = AtomicU64::new(0);
    let n = REFUSED.fetch_add(1, Ordering::Relaxed) + 1;
    if n == 1 || n.is_multiple_of(1000) {
        let peer = peer.map_or_else(|| "unknown".to_string(), |p| p.ip().to_string());
        tracing::warn!(call = call.as_str(), peer = %peer, reason = refusal.as_str(), refused_total = n, "control call refused (PERMISSION_DENIED)");
    }
}

/// At start: what `listen` exposes to other hosts when it is not loopback.
pub fn warn_exposure(listen: SocketAddr, token: bool) {
    if on_loopback(listen.ip()) {
        return;
    }
    let controls: Vec<&str> = Control::ALL.iter().map(|c| c.as_str()).collect();
    let (open, controls) = (OPEN.join(", "), controls.join(", "));
    if token {
        tracing::info!(
            listen = %listen,
            "listen is not loopback: {open} are open to any caller that reaches it; {controls} need the admin token (admin.token_file) off loopback"
        );
    } else {
        tracing::warn!(
            listen = %listen,
            "listen is not loopback and admin.token_file is not set: {open} are open to any caller that reaches it, unauthenticated; \
             {controls} are refused to callers off loopback (set admin.token_file to allow them with a token)"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::transport::server::TcpConnectInfo;

    const TOKEN: &str = "s3cr3t-admin-token-0123456789";

    fn request(peer: Option<&str>, authorization: Option<&str>) -> Request<()> {
        let mut r = Request::new(());
        if let Some(p) = peer {
            r.extensions_mut().insert(TcpConnectInfo { local_addr: None, remote_addr: Some(p.parse().unwrap()) });
        }
        if let Some(a) = authorization {
            r.metadata_mut().insert("authorization", a.parse().unwrap());
        }
        r
    }

    fn token() -> AdminToken {
        AdminToken::parse(&format!("{TOKEN}\n")).unwrap()
    }

    fn refused(r: &Request<()>, token: Option<&AdminToken>) -> String {
        match authorize(r, Control::ResetRollout, token) {
            Err(ApiError::PermissionDenied(m)) => m,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_caller_on_loopback_needs_no_token() {
        for peer in ["127.0.0.1:5000", "127.3.2.1:5000", "[::1]:5000", "[::ffff:127.0.0.1]:5000"] {
            for t in [None, Some(token())] {
                assert!(authorize(&request(Some(peer), None), Control::GetSession, t.as_ref()).is_ok(), "{peer}");
            }
        }
    }

    #[test]
    fn a_caller_off_loopback_is_refused_when_no_token_is_configured() {
        for peer in ["192.0.2.10:40000", "[2001:db8::1]:40000", "[::ffff:192.0.2.10]:40000", "0.0.0.0:1"] {
            // Even with a token in hand: there is none to match.
            let m = refused(&request(Some(peer), Some(&format!("Bearer {TOKEN}"))), None);
            assert!(m.contains("only to callers on loopback") && m.contains("admin.token_file"), "{peer}: {m}");
        }
    }

    #[test]
    fn a_caller_off_loopback_with_the_token_is_let_through_and_with_anything_else_refused() {
        let t = token();
        let peer = Some("192.0.2.10:40000");
        for ok in [format!("Bearer {TOKEN}"), format!("bearer {TOKEN}"), format!("BEARER  {TOKEN} ")] {
            for call in Control::ALL {
                assert!(authorize(&request(peer, Some(&ok)), call, Some(&t)).is_ok(), "{ok:?} {call:?}");
            }
        }
        assert!(refused(&request(peer, None), Some(&t)).contains("needs the admin token"));
        for malformed in [TOKEN.to_string(), "Bearer".into(), "Bearer ".into(), format!("Basic {TOKEN}"), format!("Token {TOKEN}")] {
            assert!(refused(&request(peer, Some(&malformed)), Some(&t)).contains("must be `Bearer <token>`"), "{malformed:?}");
        }
        let wrong = [format!("Bearer {TOKEN}x"), format!("Bearer {}", &TOKEN[..TOKEN.len() - 1]), "Bearer x".into()];
        for w in wrong {
            let m = refused(&request(peer, Some(&w)), Some(&t));
            assert!(m.contains("does not match"), "{w:?}: {m}");
            assert!(!m.contains(TOKEN) && !m.contains("Bearer "), "the refusal echoes no token: {m}");
        }
    }

    #[test]
    fn a_request_without_a_peer_address_counts_as_off_loopback() {
        assert!(refused(&request(None, None), None).contains("only to callers on loopback"));
        assert!(authorize(&request(None, Some(&format!("Bearer {TOKEN}"))), Control::ResetSession, Some(&token())).is_ok());
    }

    #[test]
    fn refusals_are_permission_denied() {
        let s = tonic::Status::from(authorize(&request(Some("192.0.2.10:1"), None), Control::RecordOutcome, None).unwrap_err());
        assert_eq!(s.code(), tonic::Code::PermissionDenied);
        assert!(s.message().starts_with("RecordOutcome "), "{}", s.message());
    }

    #[test]
    fn every_arbiter_call_is_either_open_or_a_control_call() {
        // A new call must be put on one side, deliberately.
        let proto = include_str!("../../proto/ladder/v1/ladder.proto");
        let calls: Vec<&str> =
            proto.lines().filter_map(|l| l.trim().strip_prefix("rpc ")).map(|l| l.split('(').next().unwrap_or_default().trim()).collect();
        assert!(calls.contains(&"Decide") && calls.contains(&"ResetRollout"), "{calls:?}");
        for call in &calls {
            let open = OPEN.contains(call);
            let control = Control::ALL.iter().any(|c| c.as_str() == *call);
            assert!(open != control, "{call}: open {open}, control {control}");
        }
        assert_eq!(OPEN.len() + Control::ALL.len(), calls.len());
    }

    #[test]
    fn listen_on_loopback_or_not() {
        assert!(on_loopback("127.0.0.1".parse().unwrap()) && on_loopback("::1".parse().unwrap()));
        assert!(!on_loopback("0.0.0.0".parse().unwrap()) && !on_loopback("::".parse().unwrap()));
        assert!(!on_loopback("10.0.0.7".parse().unwrap()));
    }
}
