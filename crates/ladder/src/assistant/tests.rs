//! One table per rule of spec section 8.

use super::*;

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
    let mut d = Draft { blocks_search: false, suggested_action: "NONE".into(), ..Default::default() };
    let (enforced, _) = enforce(&mut d, &t[&MessageType::Clarify], "MISSING_LOCATION");
    assert_eq!(enforced, ["blocks_search=true", "suggested_action=ASK_LOCATION"]);
    assert!(d.blocks_search && d.suggested_action == "ASK_LOCATION");

    let mut d = Draft { blocks_search: true, suggested_action: "ASK_FOOD".into(), ..Default::default() };
    let (enforced, _) = enforce(&mut d, &t[&MessageType::Summary], "");
    assert_eq!(enforced, ["blocks_search=false", "suggested_action=NONE"]);

    let mut d = Draft { blocks_search: true, suggested_action: "NONE".into(), ..Default::default() };
    let (enforced, advice) = enforce(&mut d, &t[&MessageType::GateFail], "");
    assert!(enforced.is_empty());
    assert_eq!(d.suggested_action, "NONE", "RETRY is advised, not forced");
    assert_eq!(advice.len(), 1);

    let mut d = Draft { blocks_search: true, suggested_action: "ASK_FOOD".into(), ..Default::default() };
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
        let mut d = Draft {
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
