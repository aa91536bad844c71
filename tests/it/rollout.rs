//! Rollout control: live reload, the kill switch, shadow mode, guardrails
//! that trip auto-execute, and offline replay of decision records.

use crate::helpers::session_request as req;
use crate::helpers::*;
use crate::pick_last::PickLast;
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::Outcome as O;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn pick_last_provider() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(PickLast).mount(&server).await;
    server
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn replay(config: Option<&Path>, json: bool) -> (String, std::process::ExitStatus) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"));
    cmd.env_clear().arg("replay").arg("--records").arg(fixtures().join("decision-records.jsonl"));
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().unwrap();
    (String::from_utf8_lossy(&out.stdout).to_string(), out.status)
}

fn write_config(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const RECORDED: &str = "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"fixture\"\n";

#[test]
fn replay_under_the_recording_config_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = replay(Some(&write_config(dir.path(), "recorded.toml", RECORDED)), true);
    assert!(status.success(), "{out}");
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["replayed"], 11);
    assert_eq!(r["changed"], json!([]), "{out}");
    assert_eq!(r["llm_answer_unavailable"], 0);
}

#[test]
fn replay_shows_what_auto_execute_would_change() {
    let dir = tempfile::tempdir().unwrap();
    // The fixture predates corroboration (no second answers): this is
    // auto-execute on the first pick alone (tests/it/corroboration.rs
    // replays under the corroboration settings).
    let cfg = write_config(dir.path(), "auto.toml", &format!("{RECORDED}[auto_execute]\nenabled = true\ncorroboration = \"none\"\n"));
    let (out, status) = replay(Some(&cfg), true);
    assert!(status.success(), "{out}");
    let r: Value = serde_json::from_str(&out).unwrap();
    let changed = r["changed"].as_array().unwrap();
    // Exactly the recorded no_deterministic_match turns with a 0.9 pick
    // now execute (the only reason auto-execute allows by default).
    let recorded = std::fs::read_to_string(fixtures().join("decision-records.jsonl")).unwrap();
    let eligible = recorded
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|rec| rec["decision"]["ambiguity_reason"] == "no_deterministic_match" && rec["decision"]["llm"]["verdict"] == "select")
        .count();
    assert!(eligible >= 2, "the fixture holds paraphrases");
    assert_eq!(changed.len(), eligible, "{out}");
    for c in changed {
        assert_eq!((c["before"]["outcome"].as_str(), c["after"]["outcome"].as_str()), (Some("clarify"), Some("execute")));
        assert_eq!(c["after"]["decided_by"], "llm");
    }
    assert!(r["clarifier_rate_after"].as_f64() < r["clarifier_rate_before"].as_f64());
    // The text report says the same.
    let (text, _) = replay(Some(&cfg), false);
    assert!(text.contains(&format!("changed decisions: {eligible}")), "{text}");
    assert!(text.lines().filter(|l| l.contains("): clarify by llm -> execute")).count() == eligible, "{text}");
}

#[test]
fn replay_with_the_llm_off_reverts_to_deterministic_clarifiers() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path(), "off.toml", "");
    let (out, _) = replay(Some(&cfg), true);
    let r: Value = serde_json::from_str(&out).unwrap();
    let changed = r["changed"].as_array().unwrap();
    assert!(!changed.is_empty());
    assert!(changed.iter().all(|c| c["after"]["fallback_reason"] == "llm_disabled"), "{out}");
    assert_eq!(r["before"], r["after"], "outcomes keep their counts; only who ordered the clarifier changes");
}

#[test]
fn replay_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path(), "auto.toml", &format!("{RECORDED}[auto_execute]\nenabled = true\n"));
    assert_eq!(replay(Some(&cfg), true).0, replay(Some(&cfg), true).0);
}

#[test]
fn redacted_records_are_counted_not_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixtures().join("decision-records.jsonl")).unwrap();
    let mut first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["redaction"] = json!("hash");
    let file = dir.path().join("mixed.jsonl");
    std::fs::write(&file, format!("{text}{}\nnot json\n", first)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .args(["replay", "--json", "--records"])
        .arg(&file)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["replayed"], 11);
    assert_eq!(r["skipped"]["input redacted when recorded"], 1);
    assert_eq!(r["skipped"]["malformed line"], 1);
}

// ------------------------------------------------------- live reload --

/// A reload swaps the configuration, the policy and the LLM clients as one
/// generation: under reloads in a loop, every decision's `config_revision`
/// names the configuration whose behaviour it shows, never a mix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reloads_under_concurrent_calls_never_mix_two_generations() {
    let llm = MockServer::start().await;
    let abstain = json!({"decision": "abstain", "choice_id": null, "confidence": 0.2, "needed_evidence_types": []}).to_string();
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"choices": [{"message": {"content": abstain}}]})))
        .mount(&llm)
        .await;
    // A: no LLM, two options shown. B: the LLM abstains, three shown.
    let a = Config {
        listen: "127.0.0.1:0".into(),
        clarifier: ladderd::config::ClarifierConfig { max_options: 2, ..Default::default() },
        ..Config::default()
    };
    let mut b = with_llm(&format!("{}/v1", llm.uri()), 2_000);
    b.listen = a.listen.clone();
    b.clarifier.max_options = 3;
    let (rev_a, rev_b) = (a.revision(), b.revision());
    assert_ne!(rev_a, rev_b);
    let d = TestDaemon::start(a.clone()).await;
    assert_eq!(d.daemon.current().policy.revision, rev_a);

    // The reloader swaps B, A, B, ... while eight callers decide, and stops
    // them after its last swap.
    const RELOADS: u32 = 30;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reloader = {
        let (daemon, stop) = (d.daemon.clone(), stop.clone());
        tokio::spawn(async move {
            for n in 0..RELOADS {
                daemon.reload(if n % 2 == 0 { b.clone() } else { a.clone() }).unwrap();
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    let callers: Vec<_> = (0..8)
        .map(|c| {
            let (mut client, stop) = (d.client.clone(), stop.clone());
            tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut i = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    // A new session each time: no loop guard, no continuity.
                    let r = client.decide(req(&format!("mix-{c}-{i}"), "the thing for money stuff")).await.unwrap().into_inner();
                    seen.push(r);
                    i += 1;
                }
                seen
            })
        })
        .collect();
    reloader.await.unwrap();
    let mut decisions = Vec::new();
    for c in callers {
        decisions.extend(c.await.unwrap());
    }
    assert_eq!(d.daemon.rollout(&d.daemon.current()).config_reloads, u64::from(RELOADS));
    let (mut saw_a, mut saw_b) = (0, 0);
    for r in &decisions {
        let llm_report = r.llm.clone().unwrap_or_default();
        let shown = r.clarifier.as_ref().map_or(0, |c| c.option_ids.len());
        let got = (r.outcome(), r.fallback_reason(), llm_report.called, shown);
        if r.config_revision == rev_a {
            saw_a += 1;
            assert_eq!(got, (O::Clarify, pb::FallbackReason::LlmDisabled, false, 2), "generation A");
        } else if r.config_revision == rev_b {
            saw_b += 1;
            assert_eq!(got, (O::Clarify, pb::FallbackReason::Abstain, true, 3), "generation B");
        } else {
            panic!("a revision of neither configuration: {}", r.config_revision);
        }
    }
    assert!(saw_a > 0 && saw_b > 0, "both generations served calls: A {saw_a}, B {saw_b}");
}

async fn rollout(client: &mut pb::arbiter_client::ArbiterClient<tonic::transport::Channel>) -> pb::RolloutState {
    client.get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_configmap_symlink_swap_reloads_and_an_invalid_file_is_refused() {
    let llm = pick_last_provider().await;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The layout kubelet writes for a ConfigMap volume.
    let write_version = |name: &str, toml: &str| {
        std::fs::create_dir_all(d.join(name)).unwrap();
        std::fs::write(d.join(name).join("ladderd.toml"), toml).unwrap();
        let tmp = d.join("..data_tmp");
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(name, &tmp).unwrap();
        std::fs::rename(&tmp, d.join("..data")).unwrap();
    };
    let base = format!("[llm]\nbase_url = \"{}/v1\"\nmodel = \"m\"\n[config_reload]\npoll_ms = 100\n", llm.uri());
    write_version("..v1", &format!("{base}[auto_execute]\nenabled = true\n"));
    std::os::unix::fs::symlink("..data/ladderd.toml", d.join("ladderd.toml")).unwrap();
    let cfg = d.join("ladderd.toml");
    let (child, addr, _) = spawn_binary(&[("LADDER_CONFIG", cfg.to_str().unwrap())]).await;
    let channel = connect(addr.parse().unwrap()).await;
    let mut client = pb::arbiter_client::ArbiterClient::new(channel);

    // Auto-execute on: the LLM's pick for a paraphrase executes.
    let r = client.decide(req("a", "the thing for team e")).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.decided_by()), (O::Execute, pb::Decider::Llm));
    let rev1 = rollout(&mut client).await.config_revision;

    // The kill switch, delivered by a ConfigMap update: off for the next request.
    write_version("..v2", &format!("{base}[auto_execute]\nenabled = false\n"));
    let mut c = client.clone();
    assert!(
        crate::helpers::eventually(|| {
            let mut c = c.clone();
            async move { rollout(&mut c).await.config_reloads == 1 }
        })
        .await,
        "reloaded"
    );
    let r = client.decide(req("b", "the thing for team e")).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Clarify, "auto-execute is off now");
    let state = rollout(&mut c).await;
    assert_ne!(state.config_revision, rev1);
    assert_eq!(r.config_revision, state.config_revision, "decisions carry the active revision");
    assert!(!state.auto_execute_configured);

    // An invalid file is refused; the running configuration stays.
    write_version("..v3", &format!("{base}[auto_execute]\nenabled = true\nmin_confidence = 7\n"));
    assert!(
        crate::helpers::eventually(|| {
            let mut c = c.clone();
            async move { rollout(&mut c).await.config_reload_failures == 1 }
        })
        .await
    );
    let state = rollout(&mut c).await;
    assert!(state.last_reload_error.contains("auto_execute.min_confidence"), "{}", state.last_reload_error);
    assert!(!state.auto_execute_configured, "the old config is kept");
    let r = client.decide(req("c", "the thing for team e")).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Clarify);

    // Fixed: applied, and the refusal is no longer shown as if it still
    // stood.
    write_version("..v4", &format!("{base}[auto_execute]\nenabled = true\n"));
    assert!(
        crate::helpers::eventually(|| {
            let mut c = c.clone();
            async move { rollout(&mut c).await.config_reloads == 2 }
        })
        .await
    );
    let state = rollout(&mut c).await;
    assert_eq!((state.last_reload_error.as_str(), state.config_reload_failures), ("", 1), "{state:?}");
    assert!(state.auto_execute_configured);
    sigterm(&child);
}

/// A reload onto a model file that would wait forever (a FIFO) or read
/// forever (`/dev/zero`) is refused by its kind, counted and shown, and
/// the reloads after it apply; SIGTERM still stops the daemon.
#[tokio::test(flavor = "multi_thread")]
async fn a_reload_after_a_bad_model_reload_applies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert!(std::process::Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let cfg = d.join("ladderd.toml");
    let base = "[config_reload]\npoll_ms = 100\n";
    // Written whole, then renamed over the file: never read half-way.
    let write = |text: String| {
        std::fs::write(d.join("next.toml"), text).unwrap();
        std::fs::rename(d.join("next.toml"), &cfg).unwrap();
    };
    write(base.to_string());
    let (child, addr, _) = spawn_binary(&[("LADDER_CONFIG", cfg.to_str().unwrap())]).await;
    let mut c = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    for (n, model) in [d.join("fifo"), PathBuf::from("/dev/zero")].into_iter().enumerate() {
        write(format!("{base}[semantic]\nmodel = {:?}\n", model.display().to_string()));
        let failures = n as u64 + 1;
        let mut cl = c.clone();
        assert!(
            crate::helpers::eventually(|| {
                let mut cl = cl.clone();
                async move { rollout(&mut cl).await.config_reload_failures == failures }
            })
            .await,
            "{}: refused",
            model.display()
        );
        let state = rollout(&mut cl).await;
        assert!(state.last_reload_error.contains(&format!("semantic.model: {}: a ", model.display())), "{}", state.last_reload_error);
        assert!(state.last_reload_error.contains("not a regular file"), "{}", state.last_reload_error);
        assert_eq!(state.config_reloads, 0);
    }
    // A good configuration after the bad ones applies.
    write(format!("{base}[clarifier]\nmax_options = 4\n"));
    assert!(
        crate::helpers::eventually(|| {
            let mut c = c.clone();
            async move { rollout(&mut c).await.config_reloads == 1 }
        })
        .await,
        "applied"
    );
    let state = rollout(&mut c).await;
    assert_eq!((state.config_reload_failures, state.last_reload_error.as_str()), (2, ""));
    crate::telemetry::stop(child).await;
}

/// A reload onto a FIFO or `/dev/zero` as the lexicon, as the LLM's key
/// file, or as the configuration file itself is refused at once, naming
/// the key and the path, counted and shown; the watcher goes on, and a
/// good configuration after all of them applies. SIGTERM still stops the
/// daemon.
#[tokio::test(flavor = "multi_thread")]
async fn a_reload_onto_a_fifo_or_a_device_is_refused_naming_the_key_and_the_next_one_applies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let zero = PathBuf::from("/dev/zero");
    let cfg = d.join("ladderd.toml");
    let base = "[config_reload]\npoll_ms = 100\n";
    // Written whole, then renamed over the file: never read half-way.
    let write = |text: String| {
        std::fs::write(d.join("next.toml"), text).unwrap();
        std::fs::rename(d.join("next.toml"), &cfg).unwrap();
    };
    write(base.to_string());
    let (child, addr, _) = spawn_binary(&[("LADDER_CONFIG", cfg.to_str().unwrap())]).await;
    let mut c = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    let revision = rollout(&mut c).await.config_revision;
    let llm = "[llm]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n";
    let bad = [(&fifo, "a FIFO, not a regular file"), (&zero, "a character device, not a regular file")];
    let cases = bad.iter().flat_map(|(p, w)| [("lexicon.path", *p, *w), ("llm.api_key_file", *p, *w), ("config", *p, *w)]);
    for (n, (key, path, why)) in cases.enumerate() {
        let name = format!("{}", path.display());
        match key {
            "lexicon.path" => write(format!("{base}[lexicon]\npath = {name:?}\n")),
            "llm.api_key_file" => write(format!("{base}{llm}api_key_file = {name:?}\n")),
            // The configuration file itself replaced by a link to the
            // FIFO or the device.
            _ => {
                let _ = std::fs::remove_file(d.join("next.toml"));
                std::os::unix::fs::symlink(path, d.join("next.toml")).unwrap();
                std::fs::rename(d.join("next.toml"), &cfg).unwrap();
            }
        }
        let failures = n as u64 + 1;
        assert!(
            crate::helpers::eventually(|| {
                let mut c = c.clone();
                async move { rollout(&mut c).await.config_reload_failures == failures }
            })
            .await,
            "{key} = {name}: refused"
        );
        let state = rollout(&mut c).await;
        let at = if key == "config" { cfg.display().to_string() } else { name.clone() };
        assert!(state.last_reload_error.contains(&format!("{key}: {at}: {why}")), "{key}: {}", state.last_reload_error);
        assert_eq!(
            (state.config_reloads, state.config_revision.as_str()),
            (0, revision.as_str()),
            "{key}: the running configuration stays"
        );
    }
    // A good configuration after the bad ones applies.
    write(format!("{base}[clarifier]\nmax_options = 4\n"));
    assert!(
        crate::helpers::eventually(|| {
            let mut c = c.clone();
            async move { rollout(&mut c).await.config_reloads == 1 }
        })
        .await,
        "applied"
    );
    let state = rollout(&mut c).await;
    assert_eq!((state.config_reload_failures, state.last_reload_error.as_str()), (6, ""));
    assert_ne!(state.config_revision, revision);
    crate::telemetry::stop(child).await;
}

#[tokio::test]
async fn shadow_mode_runs_the_llm_but_decides_as_if_it_were_off() {
    let llm = pick_last_provider().await;
    let mut c = with_llm(&format!("{}/v1", llm.uri()), 800);
    c.llm.mode = ladderd::config::LlmModeConfig::Shadow;
    c.auto_execute.enabled = true;
    let d = TestDaemon::start(c).await;
    let off = TestDaemon::start(Config::default()).await;
    for input in ["the thing for team e", "links panel", "lnks pnel"] {
        let shadow = d.client.clone().decide(req("s", input)).await.unwrap().into_inner();
        let plain = off.client.clone().decide(req("s", input)).await.unwrap().into_inner();
        assert_eq!((shadow.outcome(), shadow.fallback_reason()), (plain.outcome(), plain.fallback_reason()), "{input}");
        assert_eq!(shadow.clarifier.as_ref().unwrap().option_ids, plain.clarifier.as_ref().unwrap().option_ids, "{input}");
        let llm_report = shadow.llm.unwrap();
        assert!(llm_report.called && llm_report.shadow, "{input}: the LLM ran");
        assert!(!llm_report.suggested_id.is_empty(), "{input}: its verdict is recorded");
    }
    assert_eq!(llm.received_requests().await.unwrap().len(), 3);
    let state = d.client.clone().get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner();
    assert_eq!(state.llm_mode, "shadow");
    assert!(!state.auto_execute_effective, "shadow never executes");
}

#[tokio::test]
async fn a_guardrail_breach_trips_auto_execute_until_an_operator_resets_it() {
    let llm = pick_last_provider().await;
    // Outcomes are counted here, not time. The provider answers at once and
    // is waited for up to 20 s (the call's deadline 30 s): on a loaded
    // machine a slow answer is still an answer, so every LLM turn below
    // executes or clarifies by the guardrails alone. And the LLM cohort's
    // p95 latency, which such a machine can push 250 ms over the control's
    // (a breach of its own that would trip first), is not judged: that
    // guardrail has its test in the core (`p95_latency_against_the_previous_window`).
    let mut c = with_llm(&format!("{}/v1", llm.uri()), 20_000);
    c.server.request_timeout_ms = 30_000;
    c.auto_execute.enabled = true;
    c.guardrails.auto_trip = true;
    c.guardrails.baseline_cohort = Some("control".into());
    c.guardrails.min_samples = 20;
    c.guardrails.p95_latency_increase_ms = 1e9;
    let d = TestDaemon::start(c).await;
    let mut client = d.client.clone();
    let labelled = |session: String, input: &str, cohort: &str| {
        let mut r = req(&session, input);
        r.labels.insert("cohort".into(), cohort.into());
        r
    };
    // Control: 40 correct deterministic executions.
    for i in 0..40 {
        client.decide(labelled(format!("c{i}"), "open links panel d", "control")).await.unwrap();
    }
    // The LLM cohort: 40 auto-executions, 3 of them rejected (7.5 points up).
    let mut ids = Vec::new();
    for i in 0..40 {
        let r = client.decide(labelled(format!("l{i}"), "the thing for team e", "llm")).await.unwrap().into_inner();
        assert_eq!(r.outcome(), O::Execute);
        ids.push((format!("l{i}"), r.decision_id));
    }
    assert!(!rollout(&mut client).await.auto_execute_tripped, "no feedback yet");
    for (session, id) in ids.iter().take(3) {
        client
            .record_outcome(pb::RecordOutcomeRequest {
                session_id: session.clone(),
                decision_id: id.clone(),
                kind: pb::OutcomeKind::Rejected as i32,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    let state = rollout(&mut client).await;
    assert!(state.auto_execute_tripped, "{state:?}");
    assert!(!state.auto_execute_effective);
    let breaches: Vec<(&str, &str)> = state.trip_breaches.iter().map(|b| (b.cohort.as_str(), b.figure.as_str())).collect();
    assert_eq!(breaches, [("llm", "wrong_action_rate")]);
    let figures: Vec<(&str, u64, u64, u64, &str)> =
        state.cohorts.iter().map(|c| (c.cohort.as_str(), c.decisions, c.executed, c.wrong_actions, c.compared_with.as_str())).collect();
    assert_eq!(figures, [("control", 40, 40, 0, ""), ("llm", 40, 40, 3, "cohort control")]);

    // Tripped: the same pick only reorders the clarifier.
    let r = client.decide(labelled("after".into(), "the thing for team e", "llm")).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Clarify);
    let pick = r.llm.unwrap().suggested_id;
    assert!(!pick.is_empty());
    assert_eq!(r.clarifier.unwrap().suggested_id, pick, "the pick leads the clarifier");

    // The operator re-enables it; the windows start afresh.
    let state = client.reset_rollout(pb::ResetRolloutRequest { note: "checked the rejections".into() }).await.unwrap().into_inner();
    assert!(!state.auto_execute_tripped && state.auto_execute_effective, "{state:?}");
    assert!(state.cohorts.is_empty());
    let r = client.decide(labelled("again".into(), "the thing for team e", "llm")).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Execute);
}

/// End to end: `Decide`'s cohort label is any caller's
/// to send. With every label a cohort, 150 clarifier-only turns under a
/// label of their own trip auto-execute off for everyone. With
/// `guardrails.cohorts` naming the cohorts, the same turns count as
/// `other`, reported and never judged; a flood of easy turns under 100
/// more labels takes no named cohort's slot; and the canary's real
/// regression (every turn a clarifier) still trips.
#[tokio::test]
async fn with_named_cohorts_other_labels_neither_trip_auto_execute_nor_hide_a_named_cohorts_regression() {
    for named in [false, true] {
        let mut c = Config::default();
        c.guardrails.auto_trip = true;
        c.guardrails.baseline_cohort = Some("baseline".into());
        c.guardrails.min_samples = 40;
        if named {
            c.guardrails.cohorts = vec!["canary".into(), "baseline".into()];
        }
        let d = TestDaemon::start(c).await;
        let mut client = d.client.clone();
        let mut turns = 0;
        let mut decide = async |cohort: &str, input: &str| {
            turns += 1;
            let mut r = req(&format!("{cohort}-{turns}"), input);
            r.labels.insert("cohort".into(), cohort.into());
            client.decide(r).await.unwrap().into_inner().outcome()
        };
        // The baseline: one turn in four a tie (a clarifier).
        for i in 0..60 {
            let input = if i % 4 == 0 { "links panel" } else { "open links panel d" };
            decide("baseline", input).await;
        }
        for _ in 0..150 {
            assert_eq!(decide("anyones", "links panel").await, O::Clarify);
        }
        let state = rollout(&mut d.client.clone()).await;
        if !named {
            assert!(state.auto_execute_tripped, "every label a cohort: {state:?}");
            assert_eq!(state.trip_breaches.iter().map(|b| b.cohort.as_str()).collect::<Vec<_>>(), ["anyones"]);
            continue;
        }
        assert!(!state.auto_execute_tripped, "{state:?}");
        assert_eq!(state.named_cohorts, ["canary", "baseline"]);
        for i in 0..200 {
            assert_eq!(decide(&format!("flood-{}", i % 100), "open links panel d").await, O::Execute);
        }
        for _ in 0..60 {
            decide("canary", "links panel").await;
        }
        let state = rollout(&mut d.client.clone()).await;
        assert!(state.auto_execute_tripped, "{state:?}");
        let breaches: Vec<(&str, &str)> = state.trip_breaches.iter().map(|b| (b.cohort.as_str(), b.figure.as_str())).collect();
        assert_eq!(breaches, [("canary", "clarifier_rate")]);
        let figures: Vec<(&str, u64, &str)> =
            state.cohorts.iter().map(|c| (c.cohort.as_str(), c.decisions, c.compared_with.as_str())).collect();
        assert_eq!(figures, [("baseline", 60, ""), ("canary", 60, "cohort baseline"), ("other", 350, "")]);
    }
}
