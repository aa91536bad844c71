//! Refusals stick, through the daemon: the app records `REJECTED` for what
//! an LLM pick executed, and the same words again do not execute it again;
//! words the choosing turn did not say, that only it shows, still do. On every
//! backend: with a shared store the continuity resolver's reading of the
//! refusal is one of the facts a turn is logged on.

use crate::helpers::session_request as req;
use crate::helpers::*;
use ladderd::pb;
use ladderd::pb::{FallbackReason as F, Outcome as O};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn a_rejected_llm_pick_is_never_executed_again(backend: Backend) {
    let llm = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(&select("links-panel-e", 0.95))))
        .mount(&llm)
        .await;
    let mut c = with_llm(&format!("{}/v1", llm.uri()), 2_000);
    c.auto_execute.enabled = true;
    c.auto_execute.corroboration = ladder::policy::Corroboration::None;
    let d = TestDaemon::on(backend, c).await;
    let mut client = d.client.clone();
    let first = client.decide(req("r1", "the thing for our sales team")).await.unwrap().into_inner();
    assert_eq!((first.outcome(), first.target_id.as_str(), first.decided_by()), (O::Execute, "links-panel-e", pb::Decider::Llm));
    let rejected = pb::RecordOutcomeRequest {
        session_id: "r1".into(),
        decision_id: first.decision_id.clone(),
        kind: pb::OutcomeKind::Rejected as i32,
        choice_id: "links-panel-e".into(),
        ..Default::default()
    };
    let s = client.record_outcome(rejected).await.unwrap().into_inner().session.unwrap();
    assert_eq!(s.recent_rejected_choice_ids, ["links-panel-e"]);
    assert_eq!(s.pending_clarifier_type(), pb::PendingClarifierType::Repair);

    let again = client.decide(req("r1", "the thing for our sales team")).await.unwrap().into_inner();
    assert_eq!((again.outcome(), again.fallback_reason()), (O::Clarify, F::UserRefused), "{again:?}");
    let clarifier = again.clarifier.clone().unwrap();
    assert_ne!(clarifier.option_ids.first().map(String::as_str), Some("links-panel-e"), "{clarifier:?}");
    assert_eq!(clarifier.suggested_id, "");
    // Still, on the next turn (the repair answered by a clarifier).
    let third = client.decide(req("r1", "the thing for our sales team")).await.unwrap().into_inner();
    assert_ne!(third.outcome(), O::Execute, "{third:?}");
    // Words that turn did not say, that only it shows, execute it.
    let explicit = client.decide(req("r1", "open links panel e")).await.unwrap().into_inner();
    assert_eq!(
        (explicit.outcome(), explicit.target_id.as_str(), explicit.decided_by()),
        (O::Execute, "links-panel-e", pb::Decider::Deterministic)
    );
}

async fn continuity_never_resolves_to_a_rejected_candidate(backend: Backend) {
    let d = TestDaemon::on(backend, ladderd::config::Config::default()).await;
    let mut client = d.client.clone();
    let mut cross = req("r2", "open links panel d");
    cross.widget_items = vec![cand("w-links-d", "Links Panel D")];
    let shown = client.decide(cross.clone()).await.unwrap().into_inner();
    assert_eq!(shown.outcome(), O::Clarify);
    client
        .record_outcome(pb::RecordOutcomeRequest {
            session_id: "r2".into(),
            decision_id: shown.decision_id.clone(),
            kind: pb::OutcomeKind::Rejected as i32,
            choice_id: "links-panel-d".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    // The options are shown again; continuity would take the tie.
    client.decide(req("r2", "links panel")).await.unwrap();
    let d2 = client.decide(cross).await.unwrap().into_inner();
    assert_eq!((d2.outcome(), d2.fallback_reason()), (O::Clarify, F::UserRefused), "{d2:?}");
    // Asked over the other options the words fit, never leading with it.
    assert_ne!(d2.clarifier.unwrap().option_ids.first().map(String::as_str), Some("links-panel-d"));
}

on_every_backend!(a_rejected_llm_pick_is_never_executed_again, continuity_never_resolves_to_a_rejected_candidate);
