//! One table per rule of `Clarify` (docs/clarify-and-extract.md).

use super::*;
use proptest::prelude::*;

fn req(t: MessageType, reason: &str) -> ClarifyRequest {
    ClarifyRequest { message_type: Some(t), reason: reason.into(), ..Default::default() }
}

#[test]
fn language_chain_table() {
    let regions: BTreeMap<String, String> = [("IL", "he"), ("US", "en")].into_iter().map(|(a, b)| (a.into(), b.into())).collect();
    let r = |ui: &str, rq: &str, query: &str, region: &str| ClarifyRequest {
        ui_language: ui.into(),
        request_language: rq.into(),
        query: query.into(),
        region_code: region.into(),
        ..Default::default()
    };
    let table = [
        (r("he-IL", "en", "pizza", "US"), ("he", "ui_language")),
        (r("", "en-GB", "פיצה", "IL"), ("en", "request_language")),
        (r("", "", "פיצה בתל אביב", "US"), ("he", "detected")),
        (r("", "", "pizza in tel aviv", "IL"), ("en", "detected")),
        (r("", "", "123 456", "il"), ("he", "region")),
        (r("", "", "", "FR"), ("en", "default")),
    ];
    for (req, (lang, source)) in table {
        assert_eq!(resolve_language(&req, &regions, "en"), (lang.to_string(), source), "{req:?}");
    }
}

#[test]
fn script_detection_uses_the_share_of_letters() {
    assert_eq!(detect_language("שלום word"), None, "no script over half");
    assert_eq!(detect_language("שלום לכם world"), Some("he"));
    assert_eq!(detect_language("Привет"), Some("ru"));
    assert_eq!(detect_language("42 !!"), None);
    assert!(language_matches("מצאתי 12 תוצאות עבור pizza", "he"));
    assert!(!language_matches("I found 12 results", "he"));
    assert!(language_matches("12", "he"), "no letters: nothing to contradict");
}

#[test]
fn sentence_counting_table() {
    let table = [
        ("One.", 1),
        ("One. Two.", 2),
        ("One. Two! Three?", 3),
        ("No terminator", 1),
        ("Costs 3.5 dollars. Fine", 2),
        ("Wait... what?", 2),
        ("Really?!", 1),
        ("", 0),
        ("מה נשמע? הכל טוב.", 2),
    ];
    for (text, n) in table {
        assert_eq!(sentences(text), n, "{text:?}");
    }
}

#[test]
fn format_validation_table() {
    let table: &[(&str, &str, &str, &[&str])] = &[
        ("I need one detail.", "Which city?", "en", &[]),
        ("One. Two. Three.", "", "en", &["message_too_many_sentences"]),
        ("Fine.", "Which city? Or which street?", "en", &["question_too_many_sentences", "question_too_many_question_marks"]),
        ("Fine.", "Which city??", "en", &["question_too_many_question_marks"]),
        ("I need one detail.", "Which city?", "he", &["message_language_mismatch", "question_language_mismatch"]),
        ("", "", "en", &["message_empty"]),
    ];
    for (message, question, lang, want) in table {
        let got = format_issues(message, question, lang);
        let codes: Vec<&str> = got.iter().map(|i| i.split(':').next().unwrap()).collect();
        assert_eq!(codes, *want, "{message:?} / {question:?}");
    }
}

#[test]
fn invariant_table_defaults() {
    let t = default_invariants();
    let mut d = MessageDraft { blocks_search: false, suggested_action: "NONE".into(), ..Default::default() };
    let (enforced, _) = enforce(&mut d, &t[&MessageType::Clarify], "MISSING_LOCATION");
    assert_eq!(enforced, ["blocks_search=true", "suggested_action=ASK_LOCATION"]);
    assert!(d.blocks_search && d.suggested_action == "ASK_LOCATION");

    let mut d = MessageDraft { blocks_search: true, suggested_action: "ASK_FOOD".into(), ..Default::default() };
    let (enforced, _) = enforce(&mut d, &t[&MessageType::Summary], "");
    assert_eq!(enforced, ["blocks_search=false", "suggested_action=NONE"]);

    let mut d = MessageDraft { blocks_search: true, suggested_action: "NONE".into(), ..Default::default() };
    let (enforced, advice) = enforce(&mut d, &t[&MessageType::GateFail], "");
    assert!(enforced.is_empty());
    assert_eq!(d.suggested_action, "NONE", "RETRY is advised, not forced");
    assert_eq!(advice.len(), 1);

    let mut d = MessageDraft { blocks_search: true, suggested_action: "ASK_FOOD".into(), ..Default::default() };
    let (enforced, _) = enforce(&mut d, &t[&MessageType::Clarify], "MISSING_FOOD");
    assert!(enforced.is_empty(), "already right");
}

#[test]
fn question_acceptance_table() {
    let base = vec!["location".to_string(), "food".to_string()];
    let slots = vec!["fill_slot".to_string()];
    type Case<'a> = (Option<&'a str>, &'a str, &'a str, Option<Vec<&'a str>>, Result<(), &'a str>);
    let table: &[Case] = &[
        (Some("Which city should I search in?"), "pizza", "search", None, Ok(())),
        (None, "pizza", "search", None, Err("question_missing")),
        (Some("   "), "pizza", "search", None, Err("question_missing")),
        (Some("Why?"), "pizza", "search", None, Err("question_length_out_of_range")),
        (Some(&"x?".repeat(101)), "pizza", "search", None, Err("question_length_out_of_range")),
        (Some("You said PIZZA near me, right?"), "pizza near me", "search", None, Err("question_echoes_user_text")),
        (Some("Tell me the city"), "pizza", "search", None, Err("question_without_question_mark")),
        (Some("Tell me the city"), "pizza", "fill_slot", None, Ok(())),
        (Some("Which city and budget?"), "pizza", "search", Some(vec!["location", "budget"]), Err("missing_fields_not_in_baseline")),
        (Some("Which city?"), "pizza", "search", Some(vec!["location"]), Ok(())),
    ];
    for (q, user, intent, fields, want) in table {
        let fields: Option<Vec<String>> = fields.as_ref().map(|f| f.iter().map(|s| s.to_string()).collect());
        let got = accept_question(*q, user, intent, &slots, fields.as_deref(), &base);
        assert_eq!(got, *want, "{q:?}");
    }
}

#[test]
fn every_shipped_template_passes_the_invariants_and_the_format_rules() {
    let t = AssistantTemplates::shipped();
    let inv = default_invariants();
    for (lang, kind, reason, tpl) in t.all() {
        let mut d = MessageDraft {
            message: tpl.message.replace("{result_count}", "7"),
            question: tpl.question.clone(),
            suggested_action: tpl.suggested_action.clone(),
            blocks_search: tpl.blocks_search,
            language: lang.into(),
            missing_fields: None,
        };
        let (enforced, advice) = enforce(&mut d, &inv[&kind], reason);
        assert!(enforced.is_empty(), "{lang}/{}/{reason}: {enforced:?}", kind.as_str());
        assert!(advice.is_empty(), "{lang}/{}/{reason}: {advice:?}", kind.as_str());
        let issues = format_issues(&d.message, d.question.as_deref().unwrap_or(""), lang);
        assert!(issues.is_empty(), "{lang}/{}/{reason}: {issues:?}", kind.as_str());
        if let Some(q) = &tpl.question {
            assert_eq!(accept_question(Some(q), "", "", &[], None, &[]), Ok(()), "{lang}/{}/{reason}", kind.as_str());
        }
    }
}

#[test]
fn english_and_hebrew_cover_every_type_and_named_reason() {
    let t = AssistantTemplates::shipped();
    for lang in ["en", "he"] {
        for &kind in MessageType::ALL {
            let (tpl, used) = t.get(lang, kind, "generic", "en");
            assert_eq!(used, lang);
            assert!(!tpl.message.is_empty());
        }
        for reason in ["MISSING_LOCATION", "MISSING_FOOD"] {
            let (tpl, _) = t.get(lang, MessageType::Clarify, reason, "en");
            assert_ne!(tpl.suggested_action, "NONE", "{lang} {reason} has its own template");
        }
    }
}

#[test]
fn fallback_renders_placeholders_and_falls_back_to_the_default_language() {
    let t = AssistantTemplates::shipped();
    let mut r = req(MessageType::Summary, "");
    r.result_count = 12;
    let (d, lang) = fallback(&t, &r, "he", "en");
    assert_eq!((d.message.as_str(), lang.as_str()), ("מצאתי עבורך 12 תוצאות.", "he"));
    let (d, lang) = fallback(&t, &req(MessageType::Clarify, "MISSING_FOOD"), "fr", "en");
    assert_eq!(lang, "en");
    assert_eq!(d.suggested_action, "ASK_FOOD");
}

#[test]
fn templates_without_a_generic_entry_are_refused() {
    let err = AssistantTemplates::from_toml("[en.clarify.generic]\nmessage = \"x\"\nsuggested_action = \"NONE\"\nblocks_search = true\n")
        .unwrap_err();
    assert!(err.contains("no generic template for summary"), "{err}");
}

#[test]
fn drafts_parse_from_plain_or_fenced_json() {
    let d = parse_draft(
        "```json\n{\"message\":\"Hi.\",\"question\":null,\"suggested_action\":\"NONE\",\"blocks_search\":false,\"language\":\"en\"}\n```",
    )
    .unwrap();
    assert_eq!(d.message, "Hi.");
    assert!(parse_draft("Sure thing!").is_err());
    assert!(parse_draft("{\"question\":\"x\"}").is_err(), "message is required");
}

// ------------------------------------------------ the sequence: compose --

const SLOT_FILLING: &str = "fill_slot";

/// The defaults plus a region table and one slot-filling intent.
fn policy() -> AssistantPolicy {
    AssistantPolicy {
        slot_filling_intents: vec![SLOT_FILLING.to_string()],
        region_languages: [("IL", "he"), ("US", "en")].into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
        ..Default::default()
    }
}

fn clarify(reason: &str, query: &str) -> ClarifyRequest {
    ClarifyRequest { query: query.into(), ..req(MessageType::Clarify, reason) }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// An LLM reply carrying a draft as JSON.
fn replied(draft: serde_json::Value) -> LlmDraft {
    LlmDraft::Replied(draft.to_string())
}

/// A draft that passes every rule for an English CLARIFY / MISSING_LOCATION.
fn good_draft() -> serde_json::Value {
    serde_json::json!({
        "message": "I can look for that once I know the area.",
        "question": "Which neighborhood should I search in?",
        "suggested_action": "ASK_LOCATION",
        "blocks_search": true,
        "language": "en",
    })
}

fn with(mut draft: serde_json::Value, key: &str, value: serde_json::Value) -> serde_json::Value {
    draft[key] = value;
    draft
}

/// The template `compose` falls back to for a request in a language.
fn template(r: &ClarifyRequest, lang: &str) -> MessageDraft {
    fallback(&AssistantTemplates::shipped(), r, lang, "en").0
}

#[test]
fn not_asked_answers_with_the_template_of_the_resolved_language() {
    let mut r = clarify("MISSING_LOCATION", "pizza");
    r.ui_language = "he-IL".into();
    r.baseline_missing_fields = strings(&["location"]);
    let m = compose(&r, &policy(), "en", LlmDraft::NotAsked);
    let tpl = template(&r, "he");
    assert_eq!((m.message.as_str(), Some(m.question.as_str())), (tpl.message.as_str(), tpl.question.as_deref()));
    assert_eq!((m.language.as_str(), m.language_source, m.source), ("he", "ui_language", "fallback"));
    assert_eq!((m.suggested_action.as_str(), m.blocks_search), ("ASK_LOCATION", true));
    assert!(m.validation_issues.is_empty() && m.enforced_invariants.is_empty(), "{m:?}");
    assert_eq!(m.missing_fields, ["location"]);
}

#[test]
fn not_asked_uses_a_baseline_question_that_passes_the_rules() {
    let mut r = clarify("MISSING_LOCATION", "pizza");
    r.baseline_question = "  Which street are you on?  ".into();
    let m = compose(&r, &policy(), "en", LlmDraft::NotAsked);
    assert_eq!(m.question, "Which street are you on?");
    assert_eq!(m.message, template(&r, "en").message);
    assert_eq!(m.source, "fallback");
    assert!(m.validation_issues.is_empty(), "{m:?}");
}

#[test]
fn a_baseline_question_that_breaks_a_rule_leaves_the_template_question() {
    // (why it is refused, query, intent, baseline question)
    let table = [
        ("C3 too short", "pizza", "search", "Why?"),
        ("C5 echoes the query", "pizza near me", "search", "Pizza near me, where?"),
        ("C6 no question mark", "pizza", "search", "Tell me the street"),
        ("two question marks", "pizza", "search", "Which city? Or which street?"),
        ("wrong script", "pizza", "search", "באיזו עיר?"),
    ];
    for (why, query, intent, q) in table {
        let mut r = clarify("MISSING_LOCATION", query);
        r.intent = intent.into();
        r.baseline_question = q.into();
        let m = compose(&r, &policy(), "en", LlmDraft::NotAsked);
        assert_eq!(Some(m.question.as_str()), template(&r, "en").question.as_deref(), "{why}");
        assert!(m.validation_issues.is_empty(), "{why}: {m:?}");
    }
    // Only a clarifier asks the baseline's question.
    let mut r = req(MessageType::Summary, "");
    r.baseline_question = "Which street are you on?".into();
    assert_eq!(compose(&r, &policy(), "en", LlmDraft::NotAsked).question, "");
}

#[test]
fn an_llm_timeout_falls_back_with_llm_unavailable_and_never_errors() {
    let r = clarify("MISSING_FOOD", "somewhere in haifa");
    let m = compose(&r, &policy(), "en", LlmDraft::Failed("timeout".into()));
    assert_eq!(m.validation_issues, ["llm_unavailable: timeout"]);
    assert_eq!(m.source, "fallback");
    let tpl = template(&r, "en");
    assert_eq!((m.message, m.suggested_action, m.blocks_search), (tpl.message, tpl.suggested_action, tpl.blocks_search));
}

#[test]
fn an_unreadable_reply_falls_back_with_llm_reply_invalid() {
    let table = [
        ("prose", "Sure! Which city are you in?"),
        ("empty", ""),
        ("malformed JSON", r#"{"message": "Hi.", "question": "#),
        ("message of the wrong type", r#"{"message": 3}"#),
        ("no message", r#"{"question": "Which city?"}"#),
        ("a fence of another language", "```python\n{\"message\": \"Hi.\"}\n```"),
    ];
    let r = clarify("MISSING_LOCATION", "pizza");
    for (what, content) in table {
        let m = compose(&r, &policy(), "en", LlmDraft::Replied(content.into()));
        assert_eq!(m.source, "fallback", "{what}");
        assert_eq!(m.validation_issues.len(), 1, "{what}: {m:?}");
        assert!(m.validation_issues[0].starts_with("llm_reply_invalid: "), "{what}: {m:?}");
        assert_eq!(m.message, template(&r, "en").message, "{what}");
    }
}

#[test]
fn a_valid_draft_is_sent_with_the_invariant_table_forced() {
    use MessageType::*;
    // (type, reason, draft's blocks_search and action) -> (blocks_search, action, enforced)
    type Row<'a> = (MessageType, &'a str, bool, &'a str, bool, &'a str, &'a [&'a str]);
    let table: &[Row] = &[
        (Clarify, "MISSING_LOCATION", false, "NONE", true, "ASK_LOCATION", &["blocks_search=true", "suggested_action=ASK_LOCATION"]),
        (Clarify, "MISSING_FOOD", true, "ASK_LOCATION", true, "ASK_FOOD", &["suggested_action=ASK_FOOD"]),
        (Clarify, "MISSING_LOCATION", true, "ASK_LOCATION", true, "ASK_LOCATION", &[]),
        (Clarify, "APP_DEFINED", false, "SHOW_MAP", true, "SHOW_MAP", &["blocks_search=true"]),
        (Summary, "", true, "ASK_FOOD", false, "NONE", &["blocks_search=false", "suggested_action=NONE"]),
        (Summary, "MISSING_LOCATION", false, "", false, "NONE", &["suggested_action=NONE"]),
        (GateFail, "", false, "NONE", true, "NONE", &["blocks_search=true"]),
        (GateFail, "", true, "", true, "NONE", &[]),
        (SearchFailed, "", true, "RETRY", false, "RETRY", &["blocks_search=false"]),
    ];
    for &(kind, reason, blocks, action, want_blocks, want_action, want_enforced) in table {
        let r = ClarifyRequest { query: "pizza".into(), ..req(kind, reason) };
        let draft = with(with(good_draft(), "blocks_search", blocks.into()), "suggested_action", action.into());
        let m = compose(&r, &policy(), "en", replied(draft));
        let case = format!("{} {reason} {blocks} {action:?}", kind.as_str());
        assert_eq!(m.source, "llm", "{case}: {m:?}");
        assert_eq!(m.message, "I can look for that once I know the area.", "{case}");
        assert_eq!((m.blocks_search, m.suggested_action.as_str()), (want_blocks, want_action), "{case}");
        assert_eq!(m.enforced_invariants, want_enforced, "{case}");
        assert!(m.validation_issues.is_empty(), "{case}: {m:?}");
    }
}

/// C1-C7: a refused question is replaced (by the baseline's when there is
/// one, else the template's); the message stays the LLM's.
#[test]
fn each_question_rule_replaces_a_refused_llm_question() {
    let q = |s: &str| serde_json::Value::from(s);
    let long = format!("{}?", "Which part of the city ".repeat(9));
    // (rule, the draft's question (absent when None), query, intent, draft's missing_fields, code)
    type Row<'a> = (&'a str, Option<serde_json::Value>, &'a str, &'a str, Option<&'a [&'a str]>, &'a str);
    let table: &[Row] = &[
        ("C1 present", None, "pizza", "search", None, "question_missing"),
        ("C1 present (null)", Some(serde_json::Value::Null), "pizza", "search", None, "question_missing"),
        ("C2 not empty", Some(q("   ")), "pizza", "search", None, "question_missing"),
        ("C3 at least 5 characters", Some(q("Why?")), "pizza", "search", None, "question_length_out_of_range"),
        ("C4 at most 200 characters", Some(q(&long)), "pizza", "search", None, "question_length_out_of_range"),
        (
            "C5 does not echo the user",
            Some(q("So, PIZZA near me in which city?")),
            "pizza near me",
            "search",
            None,
            "question_echoes_user_text",
        ),
        ("C6 has a question mark", Some(q("Tell me the city")), "pizza", "search", None, "question_without_question_mark"),
        (
            "C7 missing_fields within the baseline's",
            Some(q("Which city and budget?")),
            "pizza",
            "search",
            Some(&["location", "budget"]),
            "missing_fields_not_in_baseline",
        ),
    ];
    assert!(long.chars().count() > 200);
    for (rule, question, query, intent, fields, code) in table {
        let mut draft = good_draft();
        match question {
            Some(v) => draft["question"] = v.clone(),
            None => {
                draft.as_object_mut().unwrap().remove("question");
            }
        }
        if let Some(f) = fields {
            draft["missing_fields"] = serde_json::json!(f);
        }
        for baseline_question in ["", "Which street are you on?"] {
            let mut r = clarify("MISSING_LOCATION", query);
            r.intent = intent.to_string();
            r.baseline_missing_fields = strings(&["location"]);
            r.baseline_question = baseline_question.into();
            let m = compose(&r, &policy(), "en", replied(draft.clone()));
            let want_question =
                if baseline_question.is_empty() { template(&r, "en").question.unwrap() } else { baseline_question.to_string() };
            assert_eq!(m.validation_issues, [format!("question_rejected: {code}")], "{rule}");
            assert_eq!(m.question, want_question, "{rule}");
            assert_eq!(m.message, "I can look for that once I know the area.", "{rule}: the message is still the LLM's");
            assert_eq!(m.source, "llm", "{rule}");
            assert_eq!(m.missing_fields, ["location"], "{rule}: the baseline's missing fields");
        }
    }
}

#[test]
fn c6_a_slot_filling_intent_may_ask_without_a_question_mark() {
    let draft = with(good_draft(), "question", "Tell me the city".into());
    let mut r = clarify("MISSING_LOCATION", "pizza");
    r.intent = SLOT_FILLING.into();
    let m = compose(&r, &policy(), "en", replied(draft));
    assert_eq!((m.question.as_str(), m.source), ("Tell me the city", "llm"));
    assert!(m.validation_issues.is_empty(), "{m:?}");
}

#[test]
fn c7_an_accepted_subset_of_missing_fields_is_answered() {
    let draft = with(good_draft(), "missing_fields", serde_json::json!(["location"]));
    let mut r = clarify("MISSING_LOCATION", "pizza");
    r.baseline_missing_fields = strings(&["location", "food"]);
    let m = compose(&r, &policy(), "en", replied(draft));
    assert_eq!(m.missing_fields, ["location"]);
    assert_eq!(m.question, "Which neighborhood should I search in?");
    assert!(m.validation_issues.is_empty(), "{m:?}");
    // Without a view of its own, the draft answers the baseline's.
    let m = compose(&r, &policy(), "en", replied(good_draft()));
    assert_eq!(m.missing_fields, ["location", "food"]);
}

#[test]
fn a_draft_that_breaks_the_format_falls_back_and_keeps_the_enforced_invariants() {
    // The draft also says it does not block search: the override is kept.
    let base = with(good_draft(), "blocks_search", false.into());
    let table = [
        (
            "three sentences of message",
            with(base.clone(), "message", "One thing. Another thing. A third thing.".into()),
            "message_too_many_sentences: 3 > 2",
        ),
        (
            "two question marks",
            with(base.clone(), "question", "Which city or which street??".into()),
            "question_too_many_question_marks: 2 > 1",
        ),
        ("two questions", with(base.clone(), "question", "Which city? Which street?".into()), "question_too_many_sentences: 2 > 1"),
        ("a message in Hebrew", with(base.clone(), "message", "אוכל לחפש ברגע שאדע איפה.".into()), "message_language_mismatch: not en"),
        ("a question in Hebrew", with(base.clone(), "question", "באיזו עיר לחפש?".into()), "question_language_mismatch: not en"),
        ("an empty message", with(base.clone(), "message", "".into()), "message_empty"),
        (
            "the language field names another language",
            with(base.clone(), "language", "he".into()),
            "language_field_mismatch: he instead of en",
        ),
    ];
    let r = clarify("MISSING_LOCATION", "pizza");
    let tpl = template(&r, "en");
    for (what, draft, issue) in table {
        let m = compose(&r, &policy(), "en", replied(draft));
        assert_eq!(m.source, "fallback", "{what}");
        assert!(m.validation_issues.iter().any(|i| i == issue), "{what}: {:?}", m.validation_issues);
        assert!(!m.validation_issues.iter().any(|i| i.starts_with("question_rejected")), "{what}: {:?}", m.validation_issues);
        assert_eq!(m.enforced_invariants, ["blocks_search=true"], "{what}");
        assert_eq!((&m.message, Some(&m.question)), (&tpl.message, tpl.question.as_ref()), "{what}");
        assert_eq!((m.blocks_search, m.suggested_action.as_str()), (true, "ASK_LOCATION"), "{what}");
    }
}

#[test]
fn a_hebrew_draft_for_a_hebrew_user_is_sent() {
    let draft = serde_json::json!({
        "message": "אוכל לחפש ברגע שאדע איפה.",
        "question": "באיזו שכונה לחפש?",
        "suggested_action": "ASK_LOCATION",
        "blocks_search": true,
        "language": "he-IL",
    });
    let m = compose(&clarify("MISSING_LOCATION", "פיצה"), &policy(), "en", replied(draft));
    assert_eq!((m.source, m.language.as_str(), m.language_source), ("llm", "he", "detected"));
    assert!(m.validation_issues.is_empty(), "{m:?}");
}

#[test]
fn compose_resolves_the_language_by_the_chain() {
    let r = |ui: &str, rq: &str, query: &str, region: &str| ClarifyRequest {
        ui_language: ui.into(),
        request_language: rq.into(),
        query: query.into(),
        region_code: region.into(),
        ..req(MessageType::Clarify, "MISSING_FOOD")
    };
    // (request, configured default) -> (language, language_source)
    let table = [
        (r("he", "en", "pizza", "US"), "en", ("he", "ui_language")),
        (r("en-US", "he", "פיצה", "IL"), "he", ("en", "ui_language")),
        (r("", "he", "pizza", "US"), "en", ("he", "request_language")),
        (r("", "", "פיצה בחיפה", "US"), "en", ("he", "detected")),
        (r("", "", "pizza in haifa", "IL"), "he", ("en", "detected")),
        (r("", "", "42", "IL"), "en", ("he", "region")),
        (r("", "", "", "us"), "he", ("en", "region")),
        (r("", "", "", "FR"), "he", ("he", "default")),
        (r("", "", "", ""), "en", ("en", "default")),
    ];
    for (request, default, (lang, source)) in table {
        let m = compose(&request, &policy(), default, LlmDraft::NotAsked);
        assert_eq!((m.language.as_str(), m.language_source), (lang, source), "{request:?}");
        assert_eq!(m.message, template(&request, lang).message, "{request:?}");
        assert!(m.validation_issues.is_empty(), "{request:?}: {m:?}");
    }
}

#[test]
fn a_language_without_templates_is_drafted_by_the_llm_or_answered_in_the_default() {
    let mut r = clarify("MISSING_LOCATION", "pizza");
    r.ui_language = "fr".into();
    let m = compose(&r, &policy(), "en", LlmDraft::NotAsked);
    assert_eq!((m.language.as_str(), m.language_source), ("en", "ui_language"));
    assert_eq!(m.validation_issues, ["no_templates_for_language: fr; answered in en"]);
    let draft = serde_json::json!({
        "message": "Je peux chercher dès que je sais où.",
        "question": "Dans quelle ville dois-je chercher ?",
        "suggested_action": "ASK_LOCATION",
        "blocks_search": true,
        "language": "fr",
    });
    let m = compose(&r, &policy(), "en", replied(draft));
    assert_eq!((m.language.as_str(), m.source), ("fr", "llm"));
}

// ------------------------------- whatever the LLM does, what leaves is valid --

fn text_strategy() -> impl Strategy<Value = String> {
    let fragments = prop::sample::select(vec![
        "Which city?",
        "I need one more detail.",
        "Where are you",
        "Which city or street??",
        "One. Two. Three.",
        "Really?!",
        "Costs 3.5 dollars.",
        "e.g. this",
        "pizza",
        "pizza near me",
        "Tell me the city",
        "באיזו עיר?",
        "אני צריך עוד פרט אחד.",
        "פיצה",
        "Привет.",
        "???",
        "...",
        "42",
        "",
    ]);
    prop_oneof![
        4 => prop::collection::vec(fragments, 0..4).prop_map(|f| f.join(" ")),
        1 => "\\PC{0,40}",
        1 => Just("x".repeat(210) + "?"),
    ]
}

/// Texts a draft may carry: anything, or (half the time) plausible text in
/// the language the request resolves to, so that drafts also pass.
fn draft_text(plausible: &[&'static str]) -> impl Strategy<Value = String> + use<> {
    prop_oneof![text_strategy(), prop::sample::select(plausible.to_vec()).prop_map(String::from)]
}

fn llm_draft_strategy(lang: &str) -> impl Strategy<Value = LlmDraft> + use<> {
    let (messages, questions): (&[&'static str], &[&'static str]) = if lang == "he" {
        (
            &["אני צריך עוד פרט אחד.", "אוכל לחפש ברגע שאדע איפה. זה ייקח רגע.", "מצאתי 12 תוצאות."],
            &["באיזו עיר לחפש?", "תגיד לי את העיר", "איפה?", "באיזו עיר? ובאיזו שכונה?"],
        )
    } else {
        (
            &["I need one more detail.", "I can search once I know where. It takes a second.", "Costs 3.5 dollars, e.g. lunch."],
            &["Which city should I search in?", "Tell me the city", "Why?", "Which city or street??", "Pizza near me, right?"],
        )
    };
    let maybe_question = prop::option::of(draft_text(questions));
    let action = prop::option::of(prop::sample::select(vec!["", "NONE", "ASK_LOCATION", "ASK_FOOD", "RETRY", "SEARCH"]));
    let languages = ["", "en", "he", "EN", "he-IL", "fr", "english", lang].map(String::from);
    let language = prop::option::of(prop::sample::select(languages.to_vec()));
    let fields = prop::option::of(prop::collection::vec(prop::sample::select(vec!["location", "food", "budget"]), 0..3));
    let json = (draft_text(messages), maybe_question, action, prop::option::of(any::<bool>()), language, fields, any::<bool>()).prop_map(
        |(message, question, action, blocks, language, fields, fenced)| {
            let mut d = serde_json::json!({ "message": message });
            let mut set = |k: &str, v: Option<serde_json::Value>| {
                if let Some(v) = v {
                    d[k] = v;
                }
            };
            set("question", question.map(Into::into));
            set("suggested_action", action.map(Into::into));
            set("blocks_search", blocks.map(Into::into));
            set("language", language.map(Into::into));
            set("missing_fields", fields.map(|f| serde_json::json!(f)));
            let json = d.to_string();
            LlmDraft::Replied(if fenced { format!("Here you go:\n```json\n{json}\n```") } else { json })
        },
    );
    prop_oneof![
        1 => Just(LlmDraft::NotAsked),
        1 => "\\PC{0,20}".prop_map(LlmDraft::Failed),
        1 => "\\PC{0,60}".prop_map(LlmDraft::Replied),
        8 => json,
    ]
}

fn request_strategy() -> impl Strategy<Value = ClarifyRequest> {
    let kind = prop::option::of(prop::sample::select(MessageType::ALL.to_vec()));
    let reason = prop::sample::select(vec!["MISSING_LOCATION", "MISSING_FOOD", "APP_DEFINED", ""]);
    let lang = || prop::sample::select(vec!["", "en", "he", "he-IL", "EN"]);
    let region = prop::sample::select(vec!["", "IL", "US", "FR"]);
    let intent = prop::sample::select(vec!["", "search", SLOT_FILLING]);
    let missing = prop::sample::subsequence(vec!["location", "food", "budget"], 0..=3);
    (kind, reason, text_strategy(), lang(), lang(), region, intent, missing, text_strategy(), 0u32..1000).prop_map(
        |(message_type, reason, query, ui, rq, region, intent, missing, baseline_question, result_count)| ClarifyRequest {
            message_type,
            reason: reason.into(),
            query,
            ui_language: ui.into(),
            request_language: rq.into(),
            region_code: region.into(),
            intent: intent.into(),
            baseline_missing_fields: strings(&missing),
            baseline_question,
            result_count,
            ..Default::default()
        },
    )
}

/// A request, the configured default, and a reply (often drafted for the
/// language the request resolves to).
fn case_strategy() -> impl Strategy<Value = (ClarifyRequest, &'static str, LlmDraft)> {
    (request_strategy(), prop::sample::select(vec!["en", "he"])).prop_flat_map(|(r, default)| {
        let lang = resolve_language(&r, &policy().region_languages, default).0;
        (Just(r), Just(default), llm_draft_strategy(&lang))
    })
}

/// The default invariant table as docs/clarify-and-extract.md lists it,
/// written out: (blocks_search, forced action).
fn spec_invariants(kind: MessageType, reason: &str) -> (bool, Option<&'static str>) {
    match (kind, reason) {
        (MessageType::Clarify, "MISSING_LOCATION") => (true, Some("ASK_LOCATION")),
        (MessageType::Clarify, "MISSING_FOOD") => (true, Some("ASK_FOOD")),
        (MessageType::Clarify, _) => (true, None),
        (MessageType::Summary, _) => (false, Some("NONE")),
        (MessageType::GateFail, _) => (true, None),
        (MessageType::SearchFailed, _) => (false, None),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Whatever the LLM does, what leaves respects the invariant table and
    /// the format rules, and says honestly where it came from.
    #[test]
    fn whatever_the_llm_does_what_leaves_is_valid((r, default, reply) in case_strategy()) {
        let p = policy();
        let drafted = match &reply {
            LlmDraft::Replied(content) => parse_draft(content).ok(),
            _ => None,
        };
        let was_replied = matches!(reply, LlmDraft::Replied(_));
        let m = compose(&r, &p, default, reply);

        let (blocks, action) = spec_invariants(r.kind(), &r.reason);
        prop_assert_eq!(m.blocks_search, blocks, "{:?}", m);
        if let Some(a) = action {
            prop_assert_eq!(&m.suggested_action, a);
        }
        prop_assert!(!m.suggested_action.trim().is_empty());

        prop_assert!(!m.message.trim().is_empty(), "{:?}", m);
        prop_assert!(sentences(&m.message) <= 2, "{:?}", m);
        prop_assert!(sentences(&m.question) <= 1, "{:?}", m);
        prop_assert!(question_marks(&m.question) <= 1, "{:?}", m);
        prop_assert!(language_matches(&m.message, &m.language), "{:?}", m);
        prop_assert!(language_matches(&m.question, &m.language), "{:?}", m);
        if r.kind() == MessageType::Clarify {
            prop_assert!(!m.question.trim().is_empty(), "a clarifier always asks: {:?}", m);
        }

        prop_assert!(m.missing_fields.iter().all(|f| r.baseline_missing_fields.contains(f)), "{:?}", m);

        let (lang, lang_source) = resolve_language(&r, &p.region_languages, default);
        prop_assert_eq!(m.language_source, lang_source);
        match m.source {
            "llm" => {
                prop_assert!(was_replied);
                let draft = drafted.expect("the LLM's reply was read");
                prop_assert_eq!(&m.message, &draft.message, "the message is the LLM's");
                prop_assert_eq!(&m.language, &lang);
                prop_assert!(m.validation_issues.len() <= 1, "{:?}", m);
                prop_assert!(m.validation_issues.iter().all(|i| i.starts_with("question_rejected: ")), "{:?}", m);
                if r.kind() == MessageType::Clarify {
                    // The LLM's question is sent only when it passes C1-C7;
                    // else the baseline's or the template's is.
                    let accepted = accept_question(
                        Some(&m.question),
                        &r.query,
                        &r.intent,
                        &p.slot_filling_intents,
                        draft.missing_fields.as_deref(),
                        &r.baseline_missing_fields,
                    );
                    if m.validation_issues.is_empty() {
                        prop_assert_eq!(accepted, Ok(()), "{:?}", m);
                        prop_assert_eq!(Some(&m.question), draft.question.as_ref());
                    } else {
                        let template = fallback(&p.templates, &r, &lang, default).0.question.unwrap_or_default();
                        prop_assert!(m.question == r.baseline_question.trim() || m.question == template, "{:?}", m);
                    }
                }
            }
            "fallback" => prop_assert!(p.templates.has(&m.language), "{:?}", m),
            other => prop_assert!(false, "unknown source {other}"),
        }
    }

    /// The fallback is what the templates say, whatever went wrong.
    #[test]
    fn every_fallback_is_the_template_with_at_most_the_baseline_question((r, default, reply) in case_strategy()) {
        let p = policy();
        let m = compose(&r, &p, default, reply);
        if m.source == "fallback" {
            let tpl = fallback(&p.templates, &r, &m.language, default).0;
            prop_assert_eq!(&m.message, &tpl.message);
            prop_assert_eq!(&m.suggested_action, &tpl.suggested_action);
            let template_question = tpl.question.unwrap_or_default();
            prop_assert!(m.question == template_question || m.question == r.baseline_question.trim(), "{:?}", m);
            prop_assert_eq!(&m.missing_fields, &r.baseline_missing_fields);
        }
    }
}

#[test]
fn a_refused_llm_question_is_replaced_by_a_baseline_question_only_when_it_passes_the_rules() {
    let mut r = req(MessageType::Clarify, "MISSING_LOCATION");
    r.query = "pizza near me".into();
    r.baseline_question = "Pizza near me, where?".into();
    let draft = r#"{"message": "I can help with that.", "question": "Why?", "suggested_action": "ASK_LOCATION", "blocks_search": true, "language": "en"}"#;
    let m = compose(&r, &AssistantPolicy::default(), "en", LlmDraft::Replied(draft.into()));
    assert_eq!(m.source, "llm");
    assert_ne!(m.question, "Pizza near me, where?", "the baseline echoes the user's text (C5)");
    assert!(!m.question.to_lowercase().contains("pizza near me"));
}

#[test]
fn region_and_default_languages_are_cut_to_their_primary_tag() {
    let regions: BTreeMap<String, String> = [("IL".to_string(), "he-IL".to_string())].into();
    let r = ClarifyRequest { region_code: "il".into(), ..Default::default() };
    assert_eq!(resolve_language(&r, &regions, "en-US"), ("he".to_string(), "region"));
    assert_eq!(resolve_language(&ClarifyRequest::default(), &regions, "en-US"), ("en".to_string(), "default"));
}

#[test]
fn a_message_without_words_is_a_format_failure() {
    for message in ["...", "?", " - "] {
        assert!(format_issues(message, "", "en").iter().any(|i| i.starts_with("message_empty")), "{message:?}");
    }
}
