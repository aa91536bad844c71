//! Sessions over gRPC: Enrich cycles, RecordOutcome, GetSession,
//! ResetSession, and the session bound. Every test that is not about the
//! in-memory store's own bounds runs on both backends (`memory` and a real
//! Redis: the `on_every_backend!` list at the end).

use crate::helpers::*;
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::{FallbackReason as F, Outcome as O};
use serde_json::json;
use tonic::Code;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn enrich(session: &str, cycle: &str, evidence: Vec<pb::EvidenceBlock>) -> pb::EnrichRequest {
    pb::EnrichRequest { session_id: session.into(), loop_cycle_id: cycle.into(), evidence, ..Default::default() }
}

async fn need_more_info_then_enrich_executes_and_closes_the_cycle(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let first = c.decide(scope_request("s1")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    assert_eq!(first.needed_evidence_types, ["chat_recoverable_options"]);
    let r = c.enrich(enrich("s1", &first.loop_cycle_id, vec![chat_options()])).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str(), r.loop_cycle_id.as_str()), (O::Execute, "chat-d", first.loop_cycle_id.as_str()));
    let again = c.enrich(enrich("s1", &first.loop_cycle_id, vec![chat_options()])).await.unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
    assert!(again.message().contains("already resolved"), "{}", again.message());
}

async fn an_unknown_cycle_is_a_failed_precondition(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let s = c.enrich(enrich("nobody", "cycle-x", vec![])).await.unwrap_err();
    assert_eq!(s.code(), Code::FailedPrecondition);
    assert!(s.message().contains("call Decide again"), "{}", s.message());
    c.decide(scope_request("s2")).await.unwrap();
    let s = c.enrich(enrich("s2", "not-this-one", vec![])).await.unwrap_err();
    assert_eq!(s.code(), Code::FailedPrecondition);
}

async fn need_more_info_provider() -> MockServer {
    let server = MockServer::start().await;
    let content =
        json!({"decision": "need_more_info", "choice_id": null, "confidence": 0.3, "needed_evidence_types": ["active_widget_items"]});
    let body = json!({"choices": [{"message": {"content": content.to_string()}}]});
    Mock::given(method("POST")).respond_with(ResponseTemplate::new(200).set_body_json(body)).mount(&server).await;
    server
}

async fn unchanged_evidence_gets_no_llm_call_and_the_budget_ends_the_loop(b: Backend) {
    let server = need_more_info_provider().await;
    let d = TestDaemon::on(b, with_llm(&format!("{}/v1", server.uri()), 800)).await;
    let mut c = d.client.clone();
    let first = c.decide(panels_request("links panel")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    // The same pool again: the fingerprint is unchanged.
    let r = c.enrich(enrich("session-1", &first.loop_cycle_id, vec![])).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.fallback_reason()), (O::Clarify, F::NoNewEvidence));
    assert_eq!(r.evidence_fingerprint, first.evidence_fingerprint);
    assert_eq!(server.received_requests().await.unwrap().len(), 1, "no second provider call");
    // The selection lane has one enrichment step, now spent.
    let items = pb::EvidenceBlock {
        r#type: "active_widget_items".into(),
        candidates: vec![cand("w-9", "Links Panel Widget")],
        excerpt: String::new(),
    };
    let r = c.enrich(enrich("session-1", &first.loop_cycle_id, vec![items])).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.fallback_reason()), (O::Clarify, F::BudgetExhausted));
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
}

/// Recoverable chat options the LLM asked for, supplied
/// through Enrich, reach its next prompt, and its pick is suggested.
async fn recoverable_options_supplied_by_enrich_reach_the_next_prompt(b: Backend) {
    let server = MockServer::start().await;
    let need =
        json!({"decision": "need_more_info", "choice_id": null, "confidence": 0.3, "needed_evidence_types": ["chat_recoverable_options"]});
    let pick = json!({"decision": "select", "choice_id": "earlier-q3", "confidence": 0.9, "needed_evidence_types": []});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"choices": [{"message": {"content": need.to_string()}}]})))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"choices": [{"message": {"content": pick.to_string()}}]})))
        .mount(&server)
        .await;
    let d = TestDaemon::on(b, with_llm(&format!("{}/v1", server.uri()), 800)).await;
    let mut c = d.client.clone();
    let first = c.decide(panels_request("the thing we talked about before")).await.unwrap().into_inner();
    assert_eq!((first.outcome(), first.needed_evidence_types.clone()), (O::NeedMoreInfo, vec!["chat_recoverable_options".to_string()]));
    let earlier = pb::EvidenceBlock {
        r#type: "chat_recoverable_options".into(),
        candidates: vec![cand("earlier-q3", "Sales Report Q3")],
        excerpt: String::new(),
    };
    let r = c.enrich(enrich("session-1", &first.loop_cycle_id, vec![earlier])).await.unwrap().into_inner();
    let calls = server.received_requests().await.unwrap();
    assert_eq!(calls.len(), 2, "exactly one more LLM call");
    let prompt = String::from_utf8_lossy(&calls[1].body);
    assert!(prompt.contains("earlier-q3") && prompt.contains("Sales Report Q3"), "the prompt lists the new candidate: {prompt}");
    assert_ne!(r.evidence_fingerprint, first.evidence_fingerprint);
    assert_eq!((r.outcome(), r.llm.as_ref().map(|l| l.suggested_id.as_str())), (O::Clarify, Some("earlier-q3")));
    assert_eq!(r.clarifier.unwrap().option_ids[0], "earlier-q3");
}

async fn record_outcome_updates_the_state_and_resets_the_loop_guard(b: Backend) {
    let server = need_more_info_provider().await;
    let d = TestDaemon::on(b, with_llm(&format!("{}/v1", server.uri()), 800)).await;
    let mut c = d.client.clone();
    let first = c.decide(panels_request("links panel")).await.unwrap().into_inner();
    c.decide(panels_request("links panel")).await.unwrap();
    assert_eq!(server.received_requests().await.unwrap().len(), 1, "guarded");
    let s = c
        .record_outcome(pb::RecordOutcomeRequest {
            session_id: "session-1".into(),
            decision_id: first.decision_id.clone(),
            kind: pb::OutcomeKind::Accepted as i32,
            choice_id: "links-panel-e".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    assert_eq!(s.last_accepted_choice_id, "links-panel-e");
    assert_eq!(s.recent_accepted_choice_ids, ["links-panel-e"]);
    assert_eq!(s.pending_clarifier_type(), pb::PendingClarifierType::None);
    assert!(s.loop_cycle_id.is_empty(), "the cycle is resolved");
    let last = s.last_resolved_action.unwrap();
    assert_eq!((last.target_ref.as_str(), last.outcome.as_str()), ("links-panel-e", "accepted"));
    // The guard was reset: the same evidence may be asked again.
    c.decide(panels_request("links panel")).await.unwrap();
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

async fn a_correction_records_the_rejected_target(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let exec = c.decide(panels_request("open links panel d")).await.unwrap().into_inner();
    assert_eq!(exec.outcome(), O::Execute);
    let s = c
        .record_outcome(pb::RecordOutcomeRequest {
            session_id: "session-1".into(),
            decision_id: exec.decision_id,
            kind: pb::OutcomeKind::Corrected as i32,
            choice_id: "links-panel-e".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    assert_eq!(s.recent_rejected_choice_ids, ["links-panel-d"]);
    assert_eq!(s.last_accepted_choice_id, "links-panel-e");
    let kinds: Vec<(&str, &str)> = s.recent_action_trace.iter().map(|a| (a.r#type.as_str(), a.outcome.as_str())).collect();
    assert_eq!(kinds, [("outcome", "corrected"), ("execute", "decided")], "newest first");
}

async fn the_action_trace_keeps_five_entries_newest_first(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    c.decide(panels_request("open links panel d")).await.unwrap();
    for i in 0..7 {
        c.record_outcome(pb::RecordOutcomeRequest {
            session_id: "session-1".into(),
            kind: pb::OutcomeKind::Executed as i32,
            choice_id: format!("choice-{i}"),
            ..Default::default()
        })
        .await
        .unwrap();
    }
    let s = c.get_session(pb::GetSessionRequest { session_id: "session-1".into() }).await.unwrap().into_inner();
    let ids: Vec<&str> = s.recent_action_trace.iter().map(|a| a.target_ref.as_str()).collect();
    assert_eq!(ids, ["choice-6", "choice-5", "choice-4", "choice-3", "choice-2"]);
    assert_eq!(s.recent_accepted_choice_ids.len(), 5);
    assert!(s.continuity_fresh);
    assert_eq!(s.turn_count, 1);
}

async fn get_and_reset_session(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let s = c.get_session(pb::GetSessionRequest { session_id: "ghost".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::NotFound);
    let s = c.record_outcome(pb::RecordOutcomeRequest { session_id: "ghost".into(), kind: 2, ..Default::default() }).await.unwrap_err();
    assert_eq!(s.code(), Code::NotFound);
    c.decide(panels_request("links panel")).await.unwrap();
    let s = c.get_session(pb::GetSessionRequest { session_id: "session-1".into() }).await.unwrap().into_inner();
    assert_eq!((s.active_option_set_id.as_str(), s.turn_count), ("set-1", 1));
    assert_eq!(s.pending_clarifier_type(), pb::PendingClarifierType::SelectionDisambiguation);
    assert!(!s.loop_cycle_id.is_empty());
    assert!(c.reset_session(pb::ResetSessionRequest { session_id: "session-1".into() }).await.unwrap().into_inner().existed);
    assert!(!c.reset_session(pb::ResetSessionRequest { session_id: "session-1".into() }).await.unwrap().into_inner().existed);
    assert_eq!(c.get_session(pb::GetSessionRequest { session_id: "session-1".into() }).await.unwrap_err().code(), Code::NotFound);
}

#[tokio::test]
async fn sessions_are_bounded_least_recently_used_first() {
    let mut config = Config::default();
    config.sessions.max = 32;
    let d = TestDaemon::start(config).await;
    let mut c = d.client.clone();
    for i in 0..300 {
        let mut r = panels_request("links panel");
        r.session_id = format!("s{i}");
        c.decide(r).await.unwrap();
    }
    let mut held = 0;
    for i in 0..300 {
        if c.get_session(pb::GetSessionRequest { session_id: format!("s{i}") }).await.is_ok() {
            held += 1;
        }
    }
    assert!(held <= 32, "held {held}");
    assert!(c.get_session(pb::GetSessionRequest { session_id: "s299".into() }).await.is_ok(), "the newest survives");
    assert_eq!(c.get_session(pb::GetSessionRequest { session_id: "s0".into() }).await.unwrap_err().code(), Code::NotFound);
}

/// `sessions.max` counts the whole daemon's sessions, whatever shard of the
/// in-memory store their ids hash to (`ladderd::store::memory::shard_of`):
/// 40 sessions, 36 of them in one shard, are all held; the 41st evicts the
/// least recently used of all, here alone in another shard
/// ([Configuration](../../docs/configuration.md), `sessions.max`).
#[tokio::test]
async fn sessions_max_sessions_are_held_however_their_ids_hash() {
    use ladderd::store::memory::shard_of;
    let mut config = Config::default();
    config.sessions.max = 40;
    let d = TestDaemon::start(config).await;
    let mut c = d.client.clone();
    let ids_in = |shard: usize, n: usize| -> Vec<String> {
        (0..).map(|i| format!("user-{shard}-{i}")).filter(|id| shard_of(id) == shard).take(n).collect::<Vec<_>>()
    };
    let oldest = ids_in(7, 1).remove(0);
    let mut others = ids_in(0, 36);
    others.extend(ids_in(3, 3));
    let decide = |session: &str| {
        let mut r = panels_request("links panel");
        r.session_id = session.into();
        r
    };
    c.decide(decide(&oldest)).await.unwrap();
    // Last uses a few milliseconds apart: the store orders sessions by the
    // millisecond of their last use.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    for id in &others {
        c.decide(decide(id)).await.unwrap();
    }
    let store = d.daemon.store();
    assert_eq!((store.len(), store.evictions()), (40, 0), "none evicted at sessions.max");
    let newest = ids_in(0, 37).remove(36);
    c.decide(decide(&newest)).await.unwrap();
    assert_eq!((store.len(), store.evictions()), (40, 1), "one more evicts one");
    let get = |id: &str| pb::GetSessionRequest { session_id: id.into() };
    let evicted = c.get_session(get(&oldest)).await.unwrap_err();
    assert_eq!(evicted.code(), Code::NotFound, "the least recently used, alone in another shard, is evicted");
    for id in others.iter().chain([&newest]) {
        assert!(c.get_session(get(id)).await.is_ok(), "{id} held");
    }
}

// ----------------------------------------------------------- pool reuse --

fn versioned(session: &str, input: &str) -> pb::DecideRequest {
    let mut r = panels_request(input);
    r.session_id = session.into();
    r.options.as_mut().unwrap().version = "v1".into();
    r
}

fn by_reference(session: &str, input: &str) -> pb::DecideRequest {
    let mut r = versioned(session, input);
    let o = r.options.as_mut().unwrap();
    o.candidates.clear();
    o.by_reference = true;
    r
}

async fn a_pool_sent_once_is_reused_by_reference(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let first = c.decide(versioned("p1", "links panel")).await.unwrap().into_inner();
    assert_eq!(first.pool_version, "v1");
    for (input, target) in
        [("open links panel d", "links-panel-d"), ("the second one", "links-panel-d"), ("links panel e", "links-panel-e")]
    {
        let r = c.decide(by_reference("p1", input)).await.unwrap().into_inner();
        assert_eq!((r.outcome(), r.target_id.as_str(), r.pool_version.as_str()), (O::Execute, target, "v1"), "{input}");
    }
    let r = c.decide(by_reference("p1", "links panel")).await.unwrap().into_inner();
    assert_eq!(r.clarifier.unwrap().option_ids, first.clarifier.unwrap().option_ids, "the same pool");
    // Without a version nothing is cached (no cost for clients that do not reuse).
    let plain = c.decide(panels_request("links panel")).await.unwrap().into_inner();
    assert!(plain.pool_version.is_empty());
}

async fn an_unknown_reference_asks_the_client_to_resend(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    c.decide(versioned("p1", "links panel")).await.unwrap();
    let mut other_version = by_reference("p1", "links panel");
    other_version.options.as_mut().unwrap().version = "v2".into();
    for (name, r) in [("other session", by_reference("p2", "links panel")), ("other version", other_version)] {
        let s = c.decide(r).await.unwrap_err();
        assert_eq!(s.code(), Code::FailedPrecondition, "{name}");
        assert!(s.message().contains("resend it with its candidates"), "{name}: {}", s.message());
    }
    let mut both = versioned("p1", "links panel");
    both.options.as_mut().unwrap().by_reference = true;
    let s = c.decide(both).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "options.candidates: must be empty when options.by_reference is set"));
    let mut dup = by_reference("p1", "links panel");
    dup.widget_items = vec![cand("links-panel-d", "Duplicate")];
    let s = c.decide(dup).await.unwrap_err();
    assert_eq!(s.code(), Code::InvalidArgument);
    assert!(s.message().contains("widget_items[0].id: duplicate id"), "{}", s.message());
}

async fn reset_session_also_drops_the_pools_held_for_it(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    c.decide(versioned("p1", "links panel")).await.unwrap();
    c.decide(versioned("p2", "links panel")).await.unwrap();
    assert!(c.reset_session(pb::ResetSessionRequest { session_id: "p1".into() }).await.unwrap().into_inner().existed);
    let s = c.decide(by_reference("p1", "open links panel d")).await.unwrap_err();
    assert_eq!(s.code(), Code::FailedPrecondition, "{}", s.message());
    let r = c.decide(by_reference("p2", "open links panel d")).await.unwrap().into_inner();
    assert_eq!(r.target_id, "links-panel-d", "other sessions keep theirs");
}

/// The user's reports, held as version "v1" of option set "reports"; the
/// swapped content gives "Sales report" to another action.
fn reports(session: &str, input: &str, swapped: bool) -> pb::DecideRequest {
    let sales = if swapped { cand("action-delete-account", "Sales report") } else { cand("sales-report", "Sales report") };
    pb::DecideRequest {
        session_id: session.into(),
        turn_id: next_turn_id(),
        input: input.into(),
        active_scope: Some(pb::ScopeRef { scope: pb::Scope::Chat as i32, instance_id: "chat-1".into() }),
        options: Some(pb::OptionSet {
            option_set_id: "reports".into(),
            version: "v1".into(),
            scope: pb::Scope::Chat as i32,
            candidates: vec![sales, cand("team-report", "Team report")],
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn reports_by_reference(session: &str, input: &str) -> pb::DecideRequest {
    let mut r = reports(session, input, false);
    let o = r.options.as_mut().unwrap();
    o.candidates.clear();
    o.by_reference = true;
    r
}

const OTHER_CONTENT: &str = "options: version \"v1\" of option set \"reports\" is held with other content: send a new version";

/// A version names one content.
async fn a_held_version_sent_again_with_other_content_is_refused_and_the_held_set_stays(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let first = c.decide(reports("swap", "sales report", false)).await.unwrap().into_inner();
    assert_eq!((first.target_id.as_str(), first.pool_version.as_str()), ("sales-report", "v1"));
    let mut other_scope = reports("swap", "sales report", false);
    other_scope.options.as_mut().unwrap().scope = pb::Scope::Widget as i32;
    for (what, r) in [("a candidate swapped", reports("swap", "sales report", true)), ("another scope", other_scope)] {
        let s = c.decide(r).await.unwrap_err();
        assert_eq!((s.code(), s.message()), (Code::FailedPrecondition, OTHER_CONTENT), "{what}");
        // The next turn by reference decides over the held content.
        let r = c.decide(reports_by_reference("swap", "sales report")).await.unwrap().into_inner();
        assert_eq!((r.outcome(), r.target_id.as_str(), r.pool_version.as_str()), (O::Execute, "sales-report", "v1"), "{what}");
    }
    // The same content again is no conflict.
    let again = c.decide(reports("swap", "team report", false)).await.unwrap().into_inner();
    assert_eq!((again.target_id.as_str(), again.pool_version.as_str()), ("team-report", "v1"));
    // Another session holds its own version 1.
    let theirs = c.decide(reports("someone-else", "sales report", true)).await.unwrap().into_inner();
    assert_eq!(theirs.target_id, "action-delete-account");
    assert_eq!(c.decide(reports_by_reference("swap", "sales report")).await.unwrap().into_inner().target_id, "sales-report");
    // New content under a new version takes the held set's place.
    let mut v2 = reports("swap", "sales report", true);
    v2.options.as_mut().unwrap().version = "v2".into();
    assert_eq!(c.decide(v2.clone()).await.unwrap().into_inner().target_id, "action-delete-account");
    let mut v2_by_reference = reports_by_reference("swap", "sales report");
    v2_by_reference.options.as_mut().unwrap().version = "v2".into();
    assert_eq!(c.decide(v2_by_reference).await.unwrap().into_inner().target_id, "action-delete-account");
    let s = c.decide(reports_by_reference("swap", "sales report")).await.unwrap_err();
    assert!(s.code() == Code::FailedPrecondition && s.message().contains("resend it with its candidates"), "{}", s.message());
}

/// A version held no longer (evicted, expired, dropped by ResetSession)
/// names nothing: other content under it is held.
async fn a_version_no_longer_held_is_held_again_with_other_content(b: Backend) {
    let mut config = Config::default();
    config.sessions.pool_cache_candidates = 3;
    let d = TestDaemon::on(b, config).await;
    let mut c = d.client.clone();
    c.decide(reports("gone", "sales report", false)).await.unwrap();
    // A millisecond apart: the shared store orders its sets by last use in
    // milliseconds (ties by name).
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    // Two more candidates of another set: "reports" leaves the budget.
    let mut more = reports("gone", "sales report", false);
    more.options.as_mut().unwrap().option_set_id = "more".into();
    c.decide(more).await.unwrap();
    let swapped = c.decide(reports("gone", "sales report", true)).await.unwrap().into_inner();
    assert_eq!(swapped.target_id, "action-delete-account", "evicted");
    assert_eq!(c.decide(reports_by_reference("gone", "sales report")).await.unwrap().into_inner().target_id, "action-delete-account");
    c.reset_session(pb::ResetSessionRequest { session_id: "gone".into() }).await.unwrap();
    let again = c.decide(reports("gone", "sales report", false)).await.unwrap().into_inner();
    assert_eq!(again.target_id, "sales-report", "dropped by ResetSession");
}

/// Calls racing to hold one version with two contents: one content is
/// held, every call with the other is refused.
async fn calls_racing_to_hold_one_version_with_two_contents_hold_one(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    for round in 0..4 {
        let session = format!("race-{round}");
        let calls: Vec<_> = (0..8)
            .map(|i| {
                let mut c = d.client.clone();
                let r = reports(&session, "sales report", i % 2 == 1);
                tokio::spawn(
                    async move { c.decide(r).await.map(|d| d.into_inner().target_id).map_err(|s| (s.code(), s.message().to_string())) },
                )
            })
            .collect();
        let mut held = std::collections::BTreeSet::new();
        for call in calls {
            match call.await.unwrap() {
                Ok(target) => {
                    held.insert(target);
                }
                Err(e) => assert_eq!(e, (Code::FailedPrecondition, OTHER_CONTENT.to_string()), "round {round}"),
            }
        }
        assert_eq!(held.len(), 1, "round {round}: one content held: {held:?}");
        let r = d.client.clone().decide(reports_by_reference(&session, "sales report")).await.unwrap().into_inner();
        assert_eq!(Some(&r.target_id), held.first(), "round {round}: the held one decides");
    }
}

/// What docs/security.md ("Session ids are capabilities")
/// says a `Decide` on someone else's session can read: ids of its own
/// request only, and which of them the session last had.
async fn a_decide_on_a_known_session_id_reads_it_only_through_its_own_candidates(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    let mut c = d.client.clone();
    let mut user = reports("", "sales report", false);
    user.options.as_mut().unwrap().version.clear();
    // Two users' sessions, each of which executed its sales report.
    for session in ["3f6c1e0a9b7d4c2e8a5f1b0d6e9c7a21", "8d2b5f4e1a0c4b7e9f6a3c2d1e0b9f84"] {
        user.session_id = session.into();
        let done = c.decide(user.clone()).await.unwrap().into_inner();
        assert_eq!(done.target_id, "sales-report");
        let executed = pb::RecordOutcomeRequest {
            session_id: session.into(),
            decision_id: done.decision_id,
            kind: pb::OutcomeKind::Executed as i32,
            choice_id: done.target_id,
            ..Default::default()
        };
        c.record_outcome(executed).await.unwrap();
    }
    // A stranger with candidates of its own, on the same option set and
    // scope: whatever it says, its answers name none of the user's.
    let mut own = user.clone();
    own.session_id = "3f6c1e0a9b7d4c2e8a5f1b0d6e9c7a21".into();
    own.options.as_mut().unwrap().candidates = vec![cand("x-1", "Alpha"), cand("x-2", "Beta")];
    for input in ["the other one", "not that one", "no, the other one", "sales report", "the last one", "again"] {
        own.input = input.into();
        let r = c.decide(own.clone()).await.unwrap().into_inner();
        let shown = format!("{r:?}");
        assert!(!shown.contains("sales-report") && !shown.contains("team-report"), "{input}: {shown}");
        assert!(r.target_id.is_empty() || r.target_id.starts_with("x-"), "{input}: {shown}");
    }
    // With the user's own candidates it learns which of them the session
    // last had: "the other one" of two is the other...
    let mut theirs = user.clone();
    theirs.session_id = "8d2b5f4e1a0c4b7e9f6a3c2d1e0b9f84".into();
    theirs.input = "the other one".into();
    let r = c.decide(theirs).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str(), r.decided_by()), (O::Execute, "team-report", pb::Decider::Continuity));
    // ... and that execute is now the session's newest action.
    let state = c.get_session(pb::GetSessionRequest { session_id: "8d2b5f4e1a0c4b7e9f6a3c2d1e0b9f84".into() }).await.unwrap().into_inner();
    assert_eq!(state.recent_action_trace[0].target_ref, "team-report");
}

#[tokio::test]
async fn the_pool_cache_is_bounded() {
    let mut config = Config::default();
    config.sessions.pool_cache_candidates = 5;
    let d = TestDaemon::start(config).await;
    let mut c = d.client.clone();
    c.decide(versioned("p1", "links panel")).await.unwrap();
    c.decide(versioned("p2", "links panel")).await.unwrap();
    assert!(c.decide(by_reference("p2", "links panel")).await.is_ok());
    assert_eq!(c.decide(by_reference("p1", "links panel")).await.unwrap_err().code(), Code::FailedPrecondition, "evicted");
}

#[tokio::test]
async fn open_cycles_share_one_candidate_budget() {
    let mut config = Config::default();
    config.sessions.cycle_candidates_budget = 1;
    let d = TestDaemon::start(config).await;
    let mut c = d.client.clone();
    let first = c.decide(scope_request("b1")).await.unwrap().into_inner();
    let second = c.decide(scope_request("b2")).await.unwrap().into_inner();
    assert_eq!(second.outcome(), O::NeedMoreInfo, "the decision itself is unaffected");
    // b1's open cycle holds the whole budget, so b2's was not kept.
    let s = c.enrich(enrich("b2", &second.loop_cycle_id, vec![chat_options()])).await.unwrap_err();
    assert_eq!(s.code(), Code::FailedPrecondition);
    assert!(s.message().contains("cannot be resumed") && s.message().contains("cycle_candidates_budget"), "{}", s.message());
    // Resolving b1 gives the budget back to the next cycle.
    let r = c.enrich(enrich("b1", &first.loop_cycle_id, vec![chat_options()])).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Execute);
    let third = c.decide(scope_request("b3")).await.unwrap().into_inner();
    let r = c.enrich(enrich("b3", &third.loop_cycle_id, vec![chat_options()])).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Execute);
}

/// Parallel `Enrich` calls on one cycle never take more
/// steps or LLM calls than its budget (each step and each call is claimed
/// in the store before it is used; a late commit cannot lower the counts).
async fn parallel_enrich_calls_never_exceed_the_cycles_budget(b: Backend) {
    let server = MockServer::start().await;
    let content =
        json!({"decision": "need_more_info", "choice_id": null, "confidence": 0.3, "needed_evidence_types": ["active_widget_items"]});
    let body = json!({"choices": [{"message": {"content": content.to_string()}}]});
    // Slow enough that every Enrich is in flight at once.
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body).set_delay(std::time::Duration::from_millis(300)))
        .mount(&server)
        .await;
    let mut config = with_llm(&format!("{}/v1", server.uri()), 2_000);
    config.enrichment.selection_max_enrichment_steps = 3;
    config.enrichment.selection_max_llm_calls = 2;
    let d = TestDaemon::on(b, config).await;
    for round in 0..5 {
        server.reset().await;
        Mock::given(method("POST"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!({"choices": [{"message": {"content": content.to_string()}}]}))
                    .set_delay(std::time::Duration::from_millis(300)),
            )
            .mount(&server)
            .await;
        let session = format!("race-{round}");
        let mut first_req = panels_request("links panel");
        first_req.session_id = session.clone();
        let first = d.client.clone().decide(first_req).await.unwrap().into_inner();
        assert_eq!(first.outcome(), O::NeedMoreInfo);
        let calls: Vec<_> = (0..6)
            .map(|i| {
                let mut c = d.client.clone();
                // Different evidence each: every step would be worth a call.
                let items = pb::EvidenceBlock {
                    r#type: "active_widget_items".into(),
                    candidates: vec![cand(&format!("w-{i}"), &format!("Links Panel Widget {i}"))],
                    excerpt: String::new(),
                };
                let req = enrich(&session, &first.loop_cycle_id, vec![items]);
                tokio::spawn(async move { c.enrich(req).await })
            })
            .collect();
        let mut stepped = 0;
        for c in calls {
            let r = match c.await.unwrap() {
                Ok(r) => r.into_inner(),
                // Redis: concurrent writers of one session may exhaust the
                // compare-and-set retries; the call then took nothing.
                Err(s) if s.code() == Code::Unavailable && b != Backend::Memory => continue,
                Err(s) => panic!("round {round}: {s:?}"),
            };
            if r.fallback_reason() != F::BudgetExhausted || r.llm.as_ref().is_some_and(|l| l.called) {
                stepped += 1;
            }
        }
        let llm_calls = server.received_requests().await.unwrap().len();
        // Budget: 2 LLM calls in the cycle (the Decide's and one more), 3
        // enrichment steps.
        assert!(llm_calls <= 2, "round {round}: {llm_calls} LLM calls (budget 2)");
        assert!(stepped <= 3, "round {round}: {stepped} enrichment steps ran (budget 3)");
        // Once spent, the budget stays spent.
        let more = d.client.clone().enrich(enrich(&session, &first.loop_cycle_id, vec![])).await.unwrap().into_inner();
        assert_eq!(more.fallback_reason(), F::BudgetExhausted, "round {round}");
    }
}

/// The decision records of `path` (flushed by `close_records`), by turn_id.
fn recorded(d: &TestDaemon, path: &std::path::Path, turn_id: &str) -> Vec<serde_json::Value> {
    d.daemon.close_records(std::time::Duration::from_secs(5));
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).filter(|r| r["request"]["turn_id"] == turn_id).collect()
}

/// A `Decide` whose answer is lost (the connection cut once the daemon
/// has answered) and sent again with the same turn_id and input, as the
/// client packages retry it, gets the first answer, and the session
/// advanced once. The same turn_id with another input is a new turn.
async fn a_decide_sent_again_after_its_answer_was_lost_gets_the_first_answer_and_advances_once(b: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records.jsonl");
    let mut config = Config::default();
    config.telemetry.decision_log.path = Some(records.clone());
    let d = TestDaemon::on(b, config).await;
    let proxy = CuttingProxy::start(d.addr).await;
    let mut c = d.client.clone();
    let first = c.decide(session_request("lost", "links panel")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::Clarify);
    let second = session_request("lost", "the second one");
    proxy.cut_next_answer();
    let mut through = pb::arbiter_client::ArbiterClient::new(connect(proxy.addr).await);
    let lost = through.decide(second.clone()).await.unwrap_err();
    assert_eq!(proxy.cuts.load(std::sync::atomic::Ordering::SeqCst), 1, "{lost:?}");
    // The retry, on a new connection.
    let mut through = pb::arbiter_client::ArbiterClient::new(connect(proxy.addr).await);
    let retried = through.decide(second.clone()).await.unwrap().into_inner();
    let decided = recorded(&d, &records, &second.turn_id);
    assert_eq!(decided.len(), 1, "decided once: {decided:?}");
    let answered = &decided[0]["decision"];
    assert_eq!(retried.decision_id, answered["decision_id"].as_str().unwrap(), "the first answer");
    assert_eq!(retried.outcome().as_str_name().to_lowercase(), format!("outcome_{}", answered["outcome"].as_str().unwrap()));
    assert_eq!(retried.target_id, answered["target_id"].as_str().unwrap_or_default());
    let kept: Vec<&str> =
        answered["clarifier"]["option_ids"].as_array().map_or(Vec::new(), |a| a.iter().filter_map(|v| v.as_str()).collect());
    assert_eq!(retried.clarifier.as_ref().map_or(Vec::new(), |c| c.option_ids.iter().map(String::as_str).collect()), kept);
    assert_eq!(retried.loop_cycle_id, answered["loop_cycle_id"].as_str().unwrap_or_default());
    assert_eq!(retried.trace.iter().map(|s| (s.rung.as_str(), s.outcome.as_str())).collect::<Vec<_>>(), [("replay", "same_turn")]);
    let session = || {
        let mut c = d.client.clone();
        async move { c.get_session(pb::GetSessionRequest { session_id: "lost".into() }).await.unwrap().into_inner() }
    };
    assert_eq!(session().await.turn_count, 2, "the session advanced once");
    // The same turn_id with another input: a turn of its own.
    let other = c.decide(pb::DecideRequest { input: "open links panel d".into(), ..second.clone() }).await.unwrap().into_inner();
    assert_ne!(other.decision_id, retried.decision_id);
    assert_eq!((other.outcome(), other.target_id.as_str()), (O::Execute, "links-panel-d"));
    assert_eq!(session().await.turn_count, 3);
    // Without a turn_id, the same request twice is two turns.
    let bare = pb::DecideRequest { turn_id: String::new(), ..session_request("lost", "links panel") };
    let (x, y) = (c.decide(bare.clone()).await.unwrap().into_inner(), c.decide(bare).await.unwrap().into_inner());
    assert_ne!(x.decision_id, y.decision_id);
    assert_eq!(session().await.turn_count, 5);
}

/// Two calls of one turn at once (a retry racing the call it repeats):
/// the turn is applied once and both get its decision.
async fn two_calls_of_one_turn_at_once_apply_it_once_and_answer_alike(b: Backend) {
    let d = TestDaemon::on(b, Config::default()).await;
    for round in 0..10 {
        let session = format!("twice-{round}");
        d.client.clone().decide(session_request(&session, "links panel")).await.unwrap();
        let turn = session_request(&session, "the second one");
        let calls: Vec<_> = (0..2)
            .map(|_| {
                let (mut c, turn) = (d.client.clone(), turn.clone());
                tokio::spawn(async move { c.decide(turn).await.unwrap().into_inner() })
            })
            .collect();
        let mut answers = Vec::new();
        for c in calls {
            answers.push(c.await.unwrap());
        }
        assert_eq!(answers[0].decision_id, answers[1].decision_id, "round {round}");
        assert_eq!((answers[0].outcome(), &answers[0].target_id), (answers[1].outcome(), &answers[1].target_id), "round {round}");
        let s = d.client.clone().get_session(pb::GetSessionRequest { session_id: session }).await.unwrap().into_inner();
        assert_eq!(s.turn_count, 2, "round {round}");
    }
}

on_every_backend!(
    need_more_info_then_enrich_executes_and_closes_the_cycle,
    an_unknown_cycle_is_a_failed_precondition,
    unchanged_evidence_gets_no_llm_call_and_the_budget_ends_the_loop,
    recoverable_options_supplied_by_enrich_reach_the_next_prompt,
    record_outcome_updates_the_state_and_resets_the_loop_guard,
    a_correction_records_the_rejected_target,
    the_action_trace_keeps_five_entries_newest_first,
    get_and_reset_session,
    a_pool_sent_once_is_reused_by_reference,
    an_unknown_reference_asks_the_client_to_resend,
    reset_session_also_drops_the_pools_held_for_it,
    a_held_version_sent_again_with_other_content_is_refused_and_the_held_set_stays,
    a_version_no_longer_held_is_held_again_with_other_content,
    calls_racing_to_hold_one_version_with_two_contents_hold_one,
    a_decide_on_a_known_session_id_reads_it_only_through_its_own_candidates,
    parallel_enrich_calls_never_exceed_the_cycles_budget,
    a_decide_sent_again_after_its_answer_was_lost_gets_the_first_answer_and_advances_once,
    two_calls_of_one_turn_at_once_apply_it_once_and_answer_alike,
);
