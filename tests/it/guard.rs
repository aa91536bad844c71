//! The control calls (`ResetRollout`, `ResetSession`, `RecordOutcome`,
//! `GetSession`) and who may make them: the app on loopback always; a
//! caller from another host only with the admin token (`admin.token_file`).
//!
//! A caller from another host is made two ways, never with a real outside
//! address: the handlers are called with a request whose connection says
//! it came from 192.0.2.10 (TEST-NET-1, documentation only), exactly where
//! the guard reads the peer; and, end to end, the daemon and a client run
//! in a network namespace of the test's own where the loopback interface
//! also carries 192.0.2.1, so a real connection comes from an address that
//! is not loopback.

use crate::helpers::*;
use ladderd::config::Config;
use ladderd::grpc::Arbiter;
use ladderd::pb;
use ladderd::pb::arbiter_server::Arbiter as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tonic::transport::server::TcpConnectInfo;
use tonic::{Code, Request, Status};

const TOKEN: &str = "0123456789-admin-token-abcdef";
/// TEST-NET-1 (RFC 5737): an address for documentation, never routed.
const ELSEWHERE: &str = "192.0.2.10:40000";

/// `message` as it arrives from a caller on another host, with
/// `authorization` metadata when given.
fn from_elsewhere<T>(message: T, authorization: Option<&str>) -> Request<T> {
    let mut r = Request::new(message);
    r.extensions_mut().insert(TcpConnectInfo { local_addr: Some("192.0.2.1:50151".parse().unwrap()), remote_addr: ELSEWHERE.parse().ok() });
    if let Some(a) = authorization {
        r.metadata_mut().insert("authorization", a.parse().unwrap());
    }
    r
}

fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

/// A token file holding `token` (with the newline `echo` leaves).
fn token_file(dir: &Path, token: &str) -> PathBuf {
    let path = dir.join("admin-token");
    std::fs::write(&path, format!("{token}\n")).unwrap();
    path
}

/// The daemon's configuration with `admin.token_file` set (applied as a
/// reload: the token is read again).
fn configure_token(d: &TestDaemon, file: Option<PathBuf>) {
    let mut c = d.daemon.current().config.clone();
    c.admin.token_file = file;
    d.daemon.reload(c).expect("the reload applies");
}

fn denied(r: Result<impl std::fmt::Debug, Status>, what: &str, says: &str) {
    let s = r.expect_err(what);
    assert_eq!(s.code(), Code::PermissionDenied, "{what}: {s:?}");
    assert!(s.message().contains(says), "{what}: {:?} does not say {says:?}", s.message());
    assert!(!s.message().contains(TOKEN), "{what}: the refusal carries the token");
}

/// Every way a caller from another host can fail to show the configured
/// token, with what the refusal says.
fn without_the_token() -> Vec<(&'static str, Option<String>, &'static str)> {
    vec![
        ("no authorization", None, "needs the admin token"),
        ("a wrong token", Some("Bearer not-the-admin-token-at-all".into()), "does not match"),
        ("the token cut short", Some(format!("Bearer {}", &TOKEN[..TOKEN.len() - 1])), "does not match"),
        ("the token without its scheme", Some(TOKEN.into()), "must be `Bearer <token>`"),
        ("another scheme", Some(format!("Basic {TOKEN}")), "must be `Bearer <token>`"),
    ]
}

async fn decided(d: &TestDaemon, session: &str) -> pb::Decision {
    let mut r = panels_request("open links panel d");
    r.session_id = session.into();
    d.client.clone().decide(r).await.unwrap().into_inner()
}

#[tokio::test]
async fn reset_session_from_another_host_is_refused_without_the_token_and_served_with_it() {
    let d = TestDaemon::default().await;
    let dir = tempfile::tempdir().unwrap();
    decided(&d, "s1").await;
    let arbiter = Arbiter::new(d.daemon.clone());
    let reset =
        |auth: Option<String>| arbiter.reset_session(from_elsewhere(pb::ResetSessionRequest { session_id: "s1".into() }, auth.as_deref()));
    // No token configured: nothing from another host gets through.
    denied(reset(None).await, "no token configured", "only to callers on loopback");
    denied(reset(Some(bearer())).await, "a token nobody configured", "only to callers on loopback");
    configure_token(&d, Some(token_file(dir.path(), TOKEN)));
    for (what, auth, says) in without_the_token() {
        denied(reset(auth).await, what, says);
    }
    // Refused calls did nothing: the session is still there.
    let s = d.client.clone().get_session(pb::GetSessionRequest { session_id: "s1".into() }).await.expect("not reset");
    assert_eq!(s.into_inner().turn_count, 1);
    assert!(reset(Some(bearer())).await.expect("served with the token").into_inner().existed);
    let gone = d.client.clone().get_session(pb::GetSessionRequest { session_id: "s1".into() }).await.unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
}

#[tokio::test]
async fn get_session_from_another_host_is_refused_without_the_token_and_served_with_it() {
    let d = TestDaemon::default().await;
    let dir = tempfile::tempdir().unwrap();
    decided(&d, "s1").await;
    let arbiter = Arbiter::new(d.daemon.clone());
    let get =
        |auth: Option<String>| arbiter.get_session(from_elsewhere(pb::GetSessionRequest { session_id: "s1".into() }, auth.as_deref()));
    denied(get(None).await, "no token configured", "only to callers on loopback");
    denied(get(Some(bearer())).await, "a token nobody configured", "only to callers on loopback");
    // Refused before validation: a bad request from another host learns
    // nothing either.
    let bad = arbiter.get_session(from_elsewhere(pb::GetSessionRequest { session_id: String::new() }, None)).await;
    denied(bad, "an invalid request", "only to callers on loopback");
    configure_token(&d, Some(token_file(dir.path(), TOKEN)));
    for (what, auth, says) in without_the_token() {
        denied(get(auth).await, what, says);
    }
    let s = get(Some(bearer())).await.expect("served with the token").into_inner();
    assert_eq!((s.session_id.as_str(), s.turn_count), ("s1", 1));
}

#[tokio::test]
async fn record_outcome_from_another_host_is_refused_without_the_token_and_served_with_it() {
    let d = TestDaemon::default().await;
    let dir = tempfile::tempdir().unwrap();
    let decision = decided(&d, "s1").await;
    let arbiter = Arbiter::new(d.daemon.clone());
    let rejected = pb::RecordOutcomeRequest {
        session_id: "s1".into(),
        decision_id: decision.decision_id,
        kind: pb::OutcomeKind::Rejected as i32,
        choice_id: "links-panel-d".into(),
        ..Default::default()
    };
    let record = |auth: Option<String>| arbiter.record_outcome(from_elsewhere(rejected.clone(), auth.as_deref()));
    denied(record(None).await, "no token configured", "only to callers on loopback");
    denied(record(Some(bearer())).await, "a token nobody configured", "only to callers on loopback");
    configure_token(&d, Some(token_file(dir.path(), TOKEN)));
    for (what, auth, says) in without_the_token() {
        denied(record(auth).await, what, says);
    }
    // No made-up outcome reached the session.
    let s = d.client.clone().get_session(pb::GetSessionRequest { session_id: "s1".into() }).await.unwrap().into_inner();
    assert!(s.recent_rejected_choice_ids.is_empty(), "{s:?}");
    let s = record(Some(bearer())).await.expect("served with the token").into_inner().session.unwrap();
    assert_eq!(s.recent_rejected_choice_ids, ["links-panel-d"], "{s:?}");
}

#[tokio::test]
async fn reset_rollout_from_another_host_is_refused_without_the_token_and_served_with_it() {
    let mut c = Config::default();
    c.guardrails.auto_trip = true;
    c.guardrails.baseline_cohort = Some("control".into());
    c.guardrails.min_samples = 20;
    let d = TestDaemon::start(c).await;
    let dir = tempfile::tempdir().unwrap();
    // Trip the guardrails: 40 executions in each cohort, 3 of the new
    // cohort's rejected (7.5 points over the control's 0).
    let mut client = d.client.clone();
    for (cohort, rejected) in [("control", 0), ("new", 3)] {
        for i in 0..40 {
            let mut r = panels_request("open links panel d");
            r.session_id = format!("{cohort}-{i}");
            r.labels.insert("cohort".into(), cohort.into());
            let decision = client.decide(r).await.unwrap().into_inner();
            if i < rejected {
                let outcome = pb::RecordOutcomeRequest {
                    session_id: format!("{cohort}-{i}"),
                    decision_id: decision.decision_id,
                    kind: pb::OutcomeKind::Rejected as i32,
                    ..Default::default()
                };
                client.record_outcome(outcome).await.expect("the app records outcomes on loopback");
            }
        }
    }
    d.daemon.check_guardrails();
    assert!(d.daemon.tripped(), "the guardrails tripped");
    let arbiter = Arbiter::new(d.daemon.clone());
    let reset = |auth: Option<String>| {
        arbiter.reset_rollout(from_elsewhere(pb::ResetRolloutRequest { note: "from elsewhere".into() }, auth.as_deref()))
    };
    denied(reset(None).await, "no token configured", "only to callers on loopback");
    denied(reset(Some(bearer())).await, "a token nobody configured", "only to callers on loopback");
    configure_token(&d, Some(token_file(dir.path(), TOKEN)));
    for (what, auth, says) in without_the_token() {
        denied(reset(auth).await, what, says);
        assert!(d.daemon.tripped(), "{what}: the rollback stays");
    }
    let state = reset(Some(bearer())).await.expect("served with the token").into_inner();
    assert!(!state.auto_execute_tripped && !d.daemon.tripped());
}

#[tokio::test]
async fn the_app_on_loopback_makes_every_control_call_without_a_token_even_when_one_is_configured() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Config::default();
    c.admin.token_file = Some(token_file(dir.path(), TOKEN));
    // Over a real connection from 127.0.0.1: the peer address the server
    // records is read (without one, every call here would be refused).
    let d = TestDaemon::start(c).await;
    let decision = decided(&d, "s1").await;
    let mut client = d.client.clone();
    let outcome = pb::RecordOutcomeRequest {
        session_id: "s1".into(),
        decision_id: decision.decision_id,
        kind: pb::OutcomeKind::Executed as i32,
        ..Default::default()
    };
    client.record_outcome(outcome).await.expect("RecordOutcome");
    client.get_session(pb::GetSessionRequest { session_id: "s1".into() }).await.expect("GetSession");
    client.reset_rollout(pb::ResetRolloutRequest { note: "on loopback".into() }).await.expect("ResetRollout");
    assert!(client.reset_session(pb::ResetSessionRequest { session_id: "s1".into() }).await.expect("ResetSession").into_inner().existed);
}

#[tokio::test]
async fn a_reload_reads_the_token_file_again_and_one_that_cannot_be_read_keeps_the_running_token() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Config::default();
    c.admin.token_file = Some(token_file(dir.path(), "the-first-token-0123456789"));
    let d = TestDaemon::start(c).await;
    decided(&d, "s1").await;
    let arbiter = Arbiter::new(d.daemon.clone());
    let get = |auth: &str| arbiter.get_session(from_elsewhere(pb::GetSessionRequest { session_id: "s1".into() }, Some(auth)));
    get("Bearer the-first-token-0123456789").await.expect("the first token");
    // The file is rotated; a reload reads it again.
    configure_token(&d, Some(token_file(dir.path(), TOKEN)));
    denied(get("Bearer the-first-token-0123456789").await, "the old token", "does not match");
    get(&bearer()).await.expect("the new token");
    // A file that is gone: the reload is refused, the running token stays.
    let mut broken = d.daemon.current().config.clone();
    broken.admin.token_file = Some(dir.path().join("gone"));
    let err = d.daemon.reload(broken).expect_err("refused").to_string();
    assert!(err.starts_with("admin.token_file: ") && err.contains("gone"), "{err}");
    get(&bearer()).await.expect("the running token");
}

// ---------------------------------------------------------------------------
// End to end: a real connection from an address that is not loopback, in
// a network namespace of the test's own.

/// The address the namespace's loopback interface also carries (TEST-NET-1).
const NAMESPACE_ADDR: &str = "192.0.2.1";
const INNER: &str = "guard::inside_a_network_namespace_of_its_own";
const INNER_ENV: &str = "LADDERD_TEST_NETWORK_NAMESPACE";

/// Runs `program args` in a new user and network namespace (no privilege
/// needed) whose loopback interface is up and also carries `NAMESPACE_ADDR`:
/// nothing in it can reach, or be reached from, any real network.
fn in_a_network_namespace(program: &Path, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new("unshare");
    cmd.args(["--user", "--map-root-user", "--net", "--", "sh", "-c"])
        .arg(format!("ip link set lo up && ip addr add {NAMESPACE_ADDR}/32 dev lo && exec \"$0\" \"$@\""))
        .arg(program)
        .args(args);
    cmd
}

#[test]
fn control_calls_over_a_real_connection_from_another_address_need_the_token() {
    let me = std::env::current_exe().unwrap();
    let out = in_a_network_namespace(&me, &[INNER, "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(INNER_ENV, "1")
        .output()
        .expect("unshare (util-linux) runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "the test inside the namespace failed or did not run (it needs `unshare` and `ip`, and unprivileged user namespaces):\n{stdout}\n{stderr}"
    );
}

#[tokio::test]
#[ignore = "run inside a network namespace by control_calls_over_a_real_connection_from_another_address_need_the_token"]
async fn inside_a_network_namespace_of_its_own() {
    assert_eq!(std::env::var(INNER_ENV).as_deref(), Ok("1"), "run only by {INNER}'s caller, inside its namespace");
    let dir = tempfile::tempdir().unwrap();
    let mut c = Config { listen: format!("{NAMESPACE_ADDR}:0"), ..Config::default() };
    c.admin.token_file = Some(token_file(dir.path(), TOKEN));
    let app = ladderd::app::App::build(c).await.unwrap();
    let addr = app.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    // Connecting to the namespace's address from inside it: the source is
    // that address too, not loopback.
    let mut client = pb::arbiter_client::ArbiterClient::new(connect(addr).await);
    let mut r = panels_request("open links panel d");
    r.session_id = "s1".into();
    assert_eq!(client.decide(r).await.expect("Decide is open").into_inner().target_id, "links-panel-d");
    let get = pb::GetSessionRequest { session_id: "s1".into() };
    let s = client.get_session(get.clone()).await.expect_err("refused without the token");
    assert_eq!(s.code(), Code::PermissionDenied, "{s:?}");
    assert!(s.message().contains("needs the admin token"), "{s:?}");
    let mut wrong = Request::new(get.clone());
    wrong.metadata_mut().insert("authorization", "Bearer not-the-admin-token-at-all".parse().unwrap());
    assert_eq!(client.get_session(wrong).await.unwrap_err().code(), Code::PermissionDenied);
    let mut with_token = Request::new(get);
    with_token.metadata_mut().insert("authorization", bearer().parse().unwrap());
    let state = client.get_session(with_token).await.expect("served with the token").into_inner();
    assert_eq!((state.session_id.as_str(), state.turn_count), ("s1", 1));
    let mut reset = Request::new(pb::ResetSessionRequest { session_id: "s1".into() });
    reset.metadata_mut().insert("authorization", bearer().parse().unwrap());
    assert!(client.reset_session(reset).await.expect("served with the token").into_inner().existed);
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(5), server).await.expect("stops").unwrap().unwrap();
}

/// The binary's JSON log lines up to its "serving" line.
fn startup_log(cmd: &mut std::process::Command) -> Vec<serde_json::Value> {
    use std::io::BufRead;
    let mut child = cmd
        .env("LADDER_TELEMETRY__LOG_FORMAT", "json")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(child.stderr.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        let serving = v["fields"]["message"] == "serving";
        lines.push(v);
        if serving {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    lines
}

#[test]
fn a_daemon_listening_off_loopback_without_a_token_file_warns_naming_the_calls_it_exposes() {
    let exposure = |log: &[serde_json::Value]| {
        log.iter().find(|l| l["fields"]["message"].as_str().is_some_and(|m| m.starts_with("listen is not loopback"))).cloned()
    };
    let binary = Path::new(env!("CARGO_BIN_EXE_ladderd"));
    // All addresses, inside a namespace of its own (nothing outside reaches it).
    let log = startup_log(in_a_network_namespace(binary, &[]).env_clear().env("LADDER_LISTEN", "0.0.0.0:0"));
    assert!(log.iter().any(|l| l["fields"]["message"] == "serving"), "it started: {log:?}");
    let warning = exposure(&log).unwrap_or_else(|| panic!("no warning in {log:?}"));
    assert_eq!(warning["level"], "WARN");
    let text = warning["fields"]["message"].as_str().unwrap();
    for call in ["Decide", "Enrich", "Clarify", "Extract", "GetRollout", "ResetRollout", "ResetSession", "RecordOutcome", "GetSession"] {
        assert!(text.contains(call), "{call} not named: {text}");
    }
    assert!(text.contains("admin.token_file is not set"), "{text}");
    // With a token file: said at info, and the token is not.
    let dir = tempfile::tempdir().unwrap();
    let file = token_file(dir.path(), TOKEN);
    let log = startup_log(
        in_a_network_namespace(binary, &[]).env_clear().env("LADDER_LISTEN", "0.0.0.0:0").env("LADDER_ADMIN__TOKEN_FILE", &file),
    );
    let note = exposure(&log).unwrap_or_else(|| panic!("no note in {log:?}"));
    assert_eq!(note["level"], "INFO");
    assert!(!serde_json::to_string(&log).unwrap().contains(TOKEN), "the token is logged");
    // On loopback (the default) nothing is exposed: nothing to say.
    let log = startup_log(std::process::Command::new(binary).env_clear().env("LADDER_LISTEN", "127.0.0.1:0"));
    assert!(log.iter().any(|l| l["fields"]["message"] == "serving"));
    assert_eq!(exposure(&log), None);
}

/// Off loopback, any host's `Decide` feeds the
/// guardrails under the cohort it labels its turns with. With no cohorts
/// named the start-up log says so; with cohorts named, or on loopback, it
/// has nothing to say.
#[test]
fn a_daemon_listening_off_loopback_with_no_named_cohorts_warns_that_any_caller_feeds_the_guardrails() {
    let warning = |log: &[serde_json::Value]| {
        log.iter()
            .find(|l| {
                l["fields"]["message"].as_str().is_some_and(|m| m.starts_with("listen is not loopback and guardrails.cohorts is empty"))
            })
            .cloned()
    };
    let binary = Path::new(env!("CARGO_BIN_EXE_ladderd"));
    let log = startup_log(in_a_network_namespace(binary, &[]).env_clear().env("LADDER_LISTEN", "0.0.0.0:0"));
    assert!(log.iter().any(|l| l["fields"]["message"] == "serving"), "it started: {log:?}");
    let w = warning(&log).unwrap_or_else(|| panic!("no warning in {log:?}"));
    assert_eq!(w["level"], "WARN");
    let text = w["fields"]["message"].as_str().unwrap();
    for says in ["any caller that reaches it feeds the guardrails", "\"cohort\"", "auto_trip", "guardrails.cohorts = [", "never judged"] {
        assert!(text.contains(says), "{says:?} not said: {text}");
    }
    let named = startup_log(
        in_a_network_namespace(binary, &[])
            .env_clear()
            .env("LADDER_LISTEN", "0.0.0.0:0")
            .env("LADDER_GUARDRAILS__COHORTS", r#"["canary"]"#),
    );
    assert!(named.iter().any(|l| l["fields"]["message"] == "serving"), "it started: {named:?}");
    assert_eq!(warning(&named), None);
    let local = startup_log(std::process::Command::new(binary).env_clear().env("LADDER_LISTEN", "127.0.0.1:0"));
    assert!(local.iter().any(|l| l["fields"]["message"] == "serving"));
    assert_eq!(warning(&local), None);
}

#[test]
fn a_token_file_that_cannot_be_read_stops_the_start_with_exit_2_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("ladderd.toml");
    std::fs::write(&empty, "").unwrap();
    let check = ["config", "--check", empty.to_str().unwrap()];
    let run = |args: &[&str], file: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
            .env_clear()
            .env("LADDER_LISTEN", "127.0.0.1:0")
            .env("LADDER_ADMIN__TOKEN_FILE", file)
            .args(args)
            .output()
            .unwrap()
    };
    let missing = dir.path().join("missing");
    let short = token_file(dir.path(), "short");
    for (file, why) in [(&missing, "No such file"), (&short, "16 to 4096 characters")] {
        for args in [&[][..], &check[..]] {
            let out = run(args, file);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("  admin.token_file: ") && err.contains(why), "{args:?}: {err}");
        }
    }
    // A good one: `config --check` accepts it, `config` names the file, never the token.
    let good = token_file(dir.path(), TOKEN);
    let out = run(&check, &good);
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stdout).as_ref()), (Some(0), "ok\n"));
    let out = run(&["config"], &good);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains(&good.display().to_string()) && !printed.contains(TOKEN), "{printed}");
}
