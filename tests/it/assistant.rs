//! Clarify and Extract over gRPC, with fake providers at the HTTP edge.

use crate::helpers::*;
use ladderd::config::{AgentConfig, Config};
use ladderd::pb;
use serde_json::{Value, json};
use std::time::Duration;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn completion(content: &str) -> Value {
    json!({"choices": [{"message": {"role": "assistant", "content": content}}]})
}

async fn provider(template: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(template).mount(&server).await;
    server
}

async fn replying(draft: Value) -> MockServer {
    provider(ResponseTemplate::new(200).set_body_json(completion(&draft.to_string()))).await
}

fn clarify(t: pb::MessageType, reason: &str, query: &str) -> pb::ClarifyRequest {
    pb::ClarifyRequest {
        session_id: "s1".into(),
        r#type: t as i32,
        reason: reason.into(),
        query: query.into(),
        baseline_missing_fields: vec!["location".into()],
        ..Default::default()
    }
}

async fn ask(d: &TestDaemon, r: pb::ClarifyRequest) -> pb::ClarifyResponse {
    d.client.clone().clarify(r).await.expect("Clarify never fails on a valid request").into_inner()
}

fn draft(message: &str, question: Option<&str>, action: &str, blocks: bool, lang: &str) -> Value {
    json!({"message": message, "question": question, "suggested_action": action, "blocks_search": blocks, "language": lang, "missing_fields": ["location"]})
}

#[tokio::test]
async fn without_an_llm_clarify_returns_the_fallback() {
    let d = TestDaemon::default().await;
    let r = ask(&d, clarify(pb::MessageType::Clarify, "MISSING_LOCATION", "pizza")).await;
    assert_eq!((r.source.as_str(), r.language.as_str(), r.language_source.as_str()), ("fallback", "en", "detected"));
    assert_eq!((r.suggested_action.as_str(), r.blocks_search), ("ASK_LOCATION", true));
    assert_eq!(r.question, "Which city or neighborhood should I search in?");
    assert!(r.enforced_invariants.is_empty() && r.validation_issues.is_empty());
    assert_eq!((r.schema_version.as_str(), r.prompt_version.as_str()), ("assistant.v1", "assistant.v1"));
    let mut he = clarify(pb::MessageType::Summary, "", "");
    he.ui_language = "he-IL".into();
    he.result_count = 4;
    let r = ask(&d, he).await;
    assert_eq!((r.message.as_str(), r.language.as_str(), r.language_source.as_str()), ("מצאתי עבורך 4 תוצאות.", "he", "ui_language"));
    assert!(!r.blocks_search);
}

#[tokio::test]
async fn a_valid_llm_draft_is_used() {
    let server = replying(draft("I can look that up once I know the area.", Some("Which part of town?"), "ASK_LOCATION", true, "en")).await;
    let d = TestDaemon::start(with_llm(&format!("{}/v1", server.uri()), 800)).await;
    let r = ask(&d, clarify(pb::MessageType::Clarify, "MISSING_LOCATION", "pizza")).await;
    assert_eq!((r.source.as_str(), r.question.as_str()), ("llm", "Which part of town?"));
    assert!(r.validation_issues.is_empty(), "{:?}", r.validation_issues);
    assert_eq!(r.missing_fields, ["location"]);
}

#[tokio::test]
async fn every_llm_failure_returns_the_fallback_never_an_error() {
    let cases: Vec<(&str, ResponseTemplate, &str)> = vec![
        (
            "timeout",
            ResponseTemplate::new(200).set_body_json(completion("{}")).set_delay(Duration::from_secs(3)),
            "llm_unavailable: timeout",
        ),
        ("429", ResponseTemplate::new(429), "llm_unavailable: rate_limited"),
        ("garbage body", ResponseTemplate::new(200).set_body_string("not json"), "llm_unavailable: transport_error"),
        ("garbage reply", ResponseTemplate::new(200).set_body_json(completion("sure, here you go")), "llm_reply_invalid"),
        (
            "wrong language",
            ResponseTemplate::new(200)
                .set_body_json(completion(&draft("I need the area.", Some("Which city?"), "ASK_LOCATION", true, "he").to_string())),
            "message_language_mismatch",
        ),
        (
            "too many sentences",
            ResponseTemplate::new(200).set_body_json(completion(&draft("One. Two. Three.", None, "ASK_LOCATION", true, "en").to_string())),
            "message_too_many_sentences",
        ),
        (
            "two question marks",
            ResponseTemplate::new(200)
                .set_body_json(completion(&draft("Sure.", Some("Where? Which city?"), "ASK_LOCATION", true, "en").to_string())),
            "question_too_many_question_marks",
        ),
    ];
    for (name, template, issue) in cases {
        let server = provider(template).await;
        let d = TestDaemon::start(with_llm(&format!("{}/v1", server.uri()), 300)).await;
        let mut req = clarify(pb::MessageType::Clarify, "MISSING_LOCATION", "pizza");
        if name == "wrong language" {
            req.ui_language = "he".into();
        }
        let r = ask(&d, req).await;
        assert_eq!(r.source, "fallback", "{name}");
        assert!(r.validation_issues.iter().any(|i| i.starts_with(issue)), "{name}: {:?}", r.validation_issues);
        assert!(r.blocks_search && r.suggested_action == "ASK_LOCATION", "{name}: the fallback keeps the invariants");
    }
}

#[tokio::test]
async fn invariants_override_the_draft_and_say_so() {
    let cases = [
        (
            pb::MessageType::Clarify,
            "MISSING_FOOD",
            draft("Tell me more.", Some("What would you like to eat?"), "NONE", false, "en"),
            true,
            "ASK_FOOD",
            vec!["blocks_search=true", "suggested_action=ASK_FOOD"],
        ),
        (
            pb::MessageType::Summary,
            "",
            draft("Found some places.", None, "ASK_FOOD", true, "en"),
            false,
            "NONE",
            vec!["blocks_search=false", "suggested_action=NONE"],
        ),
        (pb::MessageType::GateFail, "", draft("I can't do that.", None, "NONE", false, "en"), true, "NONE", vec!["blocks_search=true"]),
    ];
    for (t, reason, d0, blocks, action, enforced) in cases {
        let server = replying(d0).await;
        let d = TestDaemon::start(with_llm(&format!("{}/v1", server.uri()), 800)).await;
        let r = ask(&d, clarify(t, reason, "")).await;
        assert_eq!(r.source, "llm", "{t:?}");
        assert_eq!((r.blocks_search, r.suggested_action.as_str()), (blocks, action), "{t:?}");
        assert_eq!(r.enforced_invariants, enforced, "{t:?}");
    }
}

#[tokio::test]
async fn a_rejected_question_falls_back_to_the_deterministic_one() {
    let cases = [
        (draft("I need the area.", Some("You said pizza near me, where?"), "ASK_LOCATION", true, "en"), "question_echoes_user_text"),
        (draft("I need the area.", Some("Tell me the area"), "ASK_LOCATION", true, "en"), "question_without_question_mark"),
        (
            json!({"message": "I need more.", "question": "Which city and budget?", "suggested_action": "ASK_LOCATION", "blocks_search": true, "language": "en", "missing_fields": ["location", "budget"]}),
            "missing_fields_not_in_baseline",
        ),
    ];
    for (d0, why) in cases {
        let server = replying(d0).await;
        let d = TestDaemon::start(with_llm(&format!("{}/v1", server.uri()), 800)).await;
        let mut req = clarify(pb::MessageType::Clarify, "MISSING_LOCATION", "pizza near me");
        req.baseline_question = "Where should I look?".into();
        let r = ask(&d, req).await;
        assert_eq!(r.source, "llm", "{why}");
        assert_eq!(r.question, "Where should I look?", "{why}");
        assert_eq!(r.validation_issues, [format!("question_rejected: {why}")]);
        assert_eq!(r.missing_fields, ["location"], "{why}: the baseline's fields");
    }
}

#[tokio::test]
async fn clarify_validates_at_the_edge() {
    let d = TestDaemon::default().await;
    let mut r = clarify(pb::MessageType::Clarify, "", "");
    r.r#type = 0;
    let s = d.client.clone().clarify(r).await.unwrap_err();
    assert_eq!((s.code(), s.message()), (tonic::Code::InvalidArgument, "type: required"));
}

// ------------------------------------------------------------- Extract --

fn slots() -> Vec<pb::SlotSpec> {
    let v = |value: &str, syn: &[&str]| pb::SlotValue { value: value.into(), synonyms: syn.iter().map(|s| s.to_string()).collect() };
    vec![
        pb::SlotSpec { name: "food".into(), values: vec![v("pizza", &[]), v("sushi", &["sashimi"])] },
        pb::SlotSpec { name: "location".into(), values: vec![v("Tel Aviv", &["tlv"]), v("Haifa", &[])] },
        pb::SlotSpec { name: "budget".into(), values: vec![] },
    ]
}

fn extract_req(text: &str, turn: &str) -> pb::ExtractRequest {
    pb::ExtractRequest {
        session_id: "s1".into(),
        turn_id: turn.into(),
        text: text.into(),
        slots: slots(),
        intent: "search".into(),
        ..Default::default()
    }
}

fn entities(r: &pb::ExtractResponse) -> Vec<(String, String, String)> {
    r.entities.iter().map(|e| (e.slot.clone(), e.value.clone(), e.source.clone())).collect()
}

fn hinting(c: &mut Config) {
    c.extract.enabled = true;
    c.extract.normalization_hint = true;
    c.extract.entity_hint = true;
}

async fn hint_provider(reply: Value) -> MockServer {
    provider(ResponseTemplate::new(200).set_body_json(completion(&reply.to_string()))).await
}

#[tokio::test]
async fn by_default_extract_is_the_deterministic_baseline() {
    let d = TestDaemon::default().await;
    let r = d.client.clone().extract(extract_req("Sashimi near TLV", "t1")).await.unwrap().into_inner();
    assert_eq!(r.decided_by, "baseline");
    assert_eq!(
        entities(&r),
        [("food".into(), "sushi".into(), "baseline".into()), ("location".into(), "Tel Aviv".into(), "baseline".into())]
    );
    assert!(r.hints.is_empty() && !r.normalization_accepted);
    assert_eq!((r.schema_version.as_str(), r.prompt_version.as_str()), ("extraction.v1", "extraction.v1"));
}

#[tokio::test]
async fn accepted_hints_fill_only_empty_slots() {
    let server = hint_provider(json!({"normalized_text": "cheap pizza in tel aviv", "entities": {"budget": ["cheap"], "location": ["Jerusalem"], "food": ["burger"]}})).await;
    let mut c = with_llm(&format!("{}/v1", server.uri()), 800);
    hinting(&mut c);
    let d = TestDaemon::start(c).await;
    let mut req = extract_req("cheap piza in telaviv", "t1");
    req.filled.insert("food".into(), "pasta".into());
    let r = d.client.clone().extract(req).await.unwrap().into_inner();
    assert_eq!(r.decided_by, "llm");
    assert!(r.normalization_accepted);
    assert_eq!(r.normalized_text, "cheap pizza in tel aviv");
    assert_eq!(
        entities(&r),
        [
            ("budget".into(), "cheap".into(), "llm".into()),
            ("food".into(), "pasta".into(), "app".into()),
            ("location".into(), "Tel Aviv".into(), "baseline (llm normalization)".into()),
        ]
    );
    assert_eq!(r.hints.len(), 1);
    assert_eq!(r.hints[0].status, "ok");
}

#[tokio::test]
async fn a_failing_hint_leaves_the_baseline_unchanged() {
    for template in [
        ResponseTemplate::new(500),
        ResponseTemplate::new(200).set_body_json(completion("no json")),
        ResponseTemplate::new(200).set_delay(Duration::from_secs(2)),
    ] {
        let server = provider(template).await;
        let mut c = with_llm(&format!("{}/v1", server.uri()), 800);
        hinting(&mut c);
        let d = TestDaemon::start(c).await;
        let r = d.client.clone().extract(extract_req("pizza in haifa", "t1")).await.unwrap().into_inner();
        assert_eq!(r.decided_by, "baseline");
        assert_eq!(
            entities(&r),
            [("food".into(), "pizza".into(), "baseline".into()), ("location".into(), "Haifa".into(), "baseline".into())]
        );
        assert_eq!(r.hints[0].status, "error");
    }
}

#[tokio::test]
async fn rejected_hints_are_reported_and_not_applied() {
    let server = hint_provider(json!({"normalized_text": "tasty pasta", "entities": {"budget": ["expensive"]}})).await;
    let mut c = with_llm(&format!("{}/v1", server.uri()), 800);
    hinting(&mut c);
    let d = TestDaemon::start(c).await;
    let r = d.client.clone().extract(extract_req("cheap piza", "t1")).await.unwrap().into_inner();
    assert_eq!(r.decided_by, "baseline");
    assert_eq!(r.hints[0].status, "rejected");
    assert!(r.hints[0].detail.contains("normalization_shares_no_token"), "{}", r.hints[0].detail);
    assert!(r.hints[0].detail.contains("budget: no proposed value is in the text"));
    assert!(!r.normalization_accepted);
}

#[tokio::test]
async fn agents_run_concurrently_and_the_tuple_picks_one() {
    let ok = hint_provider(json!({"normalized_text": null, "entities": {"budget": ["cheap"]}})).await;
    let broken = provider(ResponseTemplate::new(500)).await;
    let mut c = Config::default();
    hinting(&mut c);
    let agent = |id: &str, server: &MockServer, intents: Vec<String>| AgentConfig {
        id: id.into(),
        base_url: Some(format!("{}/v1", server.uri())),
        model: Some("m".into()),
        intents,
        timeout_ms: 500,
        ..AgentConfig::default()
    };
    c.extract.agents =
        vec![agent("a-broken", &broken, vec![]), agent("b-ok", &ok, vec![]), agent("c-elsewhere", &ok, vec!["booking".into()])];
    let d = TestDaemon::start(c).await;
    let r = d.client.clone().extract(extract_req("cheap piza", "t1")).await.unwrap().into_inner();
    assert_eq!(r.decided_by, "b-ok");
    let statuses: Vec<(String, String)> = r.hints.iter().map(|h| (h.component.clone(), h.status.clone())).collect();
    assert_eq!(statuses, [("a-broken".into(), "error".into()), ("b-ok".into(), "ok".into()), ("c-elsewhere".into(), "skipped".into())]);
    assert!(entities(&r).contains(&("budget".into(), "cheap".into(), "b-ok".into())));
}

#[tokio::test]
async fn sampling_is_stable_per_turn_id() {
    let server = hint_provider(json!({"normalized_text": null, "entities": {"budget": ["cheap"]}})).await;
    let mut c = with_llm(&format!("{}/v1", server.uri()), 800);
    hinting(&mut c);
    c.extract.hint_sample_rate = 0.5;
    let d = TestDaemon::start(c).await;
    let mut sampled = 0;
    for t in 0..20 {
        let turn = format!("turn-{t}");
        let first = d.client.clone().extract(extract_req("cheap piza", &turn)).await.unwrap().into_inner();
        let again = d.client.clone().extract(extract_req("cheap piza", &turn)).await.unwrap().into_inner();
        assert_eq!(first.hints[0].status, again.hints[0].status, "{turn}");
        if first.hints[0].status != "skipped" {
            sampled += 1;
        }
    }
    assert!((3..=17).contains(&sampled), "about half the turns are sampled: {sampled}");
}
