//! Assistant messages (`Clarify`, docs/clarify-and-extract.md): whatever
//! the LLM drafts, the message that leaves is short, in the user's
//! language, and respects the invariant table; otherwise a deterministic
//! template is sent.
//!
//! The sequence, [`compose`]: resolve the language -> the LLM's draft (the
//! daemon makes the call and passes its reply or its failure in) -> enforce
//! invariants -> accept or replace the suggested question -> validate the
//! format -> the draft, or the deterministic fallback. Every rule is a pure
//! function here; the daemon only asks the LLM.
//!
//! The rules, as the tests name them:
//! - language: the chain UI language -> request language -> the query's
//!   script (more than half of its letters) -> region -> default;
//! - invariants: the table per message type (by default: CLARIFY blocks
//!   search with the action the reason names, SUMMARY never blocks and
//!   suggests NONE, GATE_FAIL blocks with RETRY advised);
//! - question acceptance C1-C7: C1 present, C2 not empty, C3 at least 5
//!   characters, C4 at most 200, C5 does not echo the user's text, C6 has a
//!   "?" unless the intent fills a slot, C7 its `missing_fields` are a subset
//!   of the baseline's;
//! - format: at most 2 sentences of message, 1 sentence and one "?" of
//!   question, in the resolved language's script; any failure, and any LLM
//!   failure, is the deterministic fallback (never an error, never a retry).

use super::types::Candidate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const SCHEMA_VERSION: &str = "assistant.v1";
pub const SHIPPED_TEMPLATES: &str = include_str!("assistant.toml");

wire_enum! {
    "snake_case",
    #[derive(PartialOrd, Ord)]
    pub enum MessageType {
        Clarify,
        Summary,
        GateFail,
        SearchFailed,
    }
}

/// What `Clarify` needs besides the request (built from the configuration).
#[derive(Debug, Clone)]
pub struct AssistantPolicy {
    pub templates: AssistantTemplates,
    pub invariants: BTreeMap<MessageType, InvariantRule>,
    pub slot_filling_intents: Vec<String>,
    pub region_languages: BTreeMap<String, String>,
}

impl Default for AssistantPolicy {
    /// The shipped templates, the default invariant table.
    fn default() -> Self {
        AssistantPolicy {
            templates: AssistantTemplates::shipped(),
            invariants: default_invariants(),
            slot_filling_intents: Vec::new(),
            region_languages: BTreeMap::new(),
        }
    }
}

/// What the LLM did for a draft, as data (the daemon makes the call); a
/// reply is parsed into a [`MessageDraft`].
#[derive(Debug, Clone, PartialEq)]
pub enum LlmDraft {
    /// No provider, or drafting with the LLM is off: the template answers.
    NotAsked,
    /// The call failed (timeout, rate limit, transport...): its reason.
    Failed(String),
    /// The assistant message's content, unparsed.
    Replied(String),
}

/// A validated `Clarify` request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClarifyRequest {
    pub session_id: String,
    pub turn_id: String,
    pub message_type: Option<MessageType>,
    pub reason: String,
    pub query: String,
    pub ui_language: String,
    pub request_language: String,
    pub region_code: String,
    pub intent: String,
    pub baseline_missing_fields: Vec<String>,
    pub candidates: Vec<Candidate>,
    pub result_count: u32,
    pub baseline_question: String,
}

impl ClarifyRequest {
    pub fn kind(&self) -> MessageType {
        self.message_type.unwrap_or(MessageType::Clarify)
    }
}

/// A message as drafted (by the LLM or a template).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct MessageDraft {
    pub message: String,
    #[serde(default)]
    pub question: Option<String>,
    #[serde(default)]
    pub suggested_action: String,
    #[serde(default)]
    pub blocks_search: bool,
    #[serde(default)]
    pub language: String,
    /// The LLM's view of what is missing; accepted only as a subset of the
    /// baseline's.
    #[serde(default)]
    pub missing_fields: Option<Vec<String>>,
}

/// What `Clarify` answers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssistantMessage {
    pub message: String,
    pub question: String,
    pub suggested_action: String,
    pub blocks_search: bool,
    pub language: String,
    /// "llm" or "fallback".
    pub source: &'static str,
    pub enforced_invariants: Vec<String>,
    pub validation_issues: Vec<String>,
    pub missing_fields: Vec<String>,
    pub language_source: &'static str,
}

// ----------------------------------------------------------- language --

/// The script a text is mostly written in, as a language when the script
/// names one. Latin script is read as English (the shipped Latin language).
pub fn detect_language(text: &str) -> Option<&'static str> {
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut letters = 0usize;
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        *counts.entry(script_language(c)).or_default() += 1;
    }
    if letters == 0 {
        return None;
    }
    counts.into_iter().find(|(_, n)| *n * 2 > letters).map(|(lang, _)| lang).filter(|l| *l != "other")
}

fn script_language(c: char) -> &'static str {
    match c as u32 {
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => "he",
        0x0600..=0x06FF | 0x0750..=0x077F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => "ar",
        0x0400..=0x04FF => "ru",
        0x0370..=0x03FF => "el",
        _ if c.is_ascii_alphabetic() => "en",
        0x00C0..=0x024F => "en",
        _ => "other",
    }
}

/// The script a language is written in ("he" -> Hebrew, ...).
fn expected_script(lang: &str) -> &'static str {
    match lang {
        "he" | "yi" => "he",
        "ar" | "fa" | "ur" => "ar",
        "ru" | "uk" | "bg" | "sr" => "ru",
        "el" => "el",
        _ => "en",
    }
}

/// Whether more than half of the letters are in the language's script
/// (text without letters passes).
pub fn language_matches(text: &str, lang: &str) -> bool {
    let want = expected_script(lang);
    let mut letters = 0usize;
    let mut hits = 0usize;
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        if script_language(c) == want {
            hits += 1;
        }
    }
    letters == 0 || hits * 2 > letters
}

fn primary(tag: &str) -> String {
    tag.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase()
}

/// The priority chain: UI language -> request language -> language of the
/// query -> region default -> configured default. Returns the language and
/// the rule that chose it.
pub fn resolve_language(req: &ClarifyRequest, region_languages: &BTreeMap<String, String>, default: &str) -> (String, &'static str) {
    if !primary(&req.ui_language).is_empty() {
        return (primary(&req.ui_language), "ui_language");
    }
    if !primary(&req.request_language).is_empty() {
        return (primary(&req.request_language), "request_language");
    }
    if let Some(l) = detect_language(&req.query) {
        return (l.to_string(), "detected");
    }
    if let Some(l) = region_languages.get(&req.region_code.trim().to_ascii_uppercase()) {
        return (primary(l), "region");
    }
    (primary(default), "default")
}

// --------------------------------------------------------------- format --

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '？' | '！' | '。' | '؟')
}

pub fn question_marks(text: &str) -> usize {
    text.chars().filter(|c| matches!(c, '?' | '？' | '؟')).count()
}

/// Sentences in `text`: runs ended by a terminator followed by whitespace
/// or the end ("3.5" and "e.g" do not end one).
pub fn sentences(text: &str) -> usize {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut count = 0;
    let mut has_content = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_terminator(c) {
            while i + 1 < chars.len() && is_terminator(chars[i + 1]) {
                i += 1;
            }
            let at_end = i + 1 == chars.len();
            if (at_end || chars[i + 1].is_whitespace()) && has_content {
                count += 1;
                has_content = false;
            }
        } else if c.is_alphanumeric() {
            has_content = true;
        }
        i += 1;
    }
    count + usize::from(has_content)
}

/// Format problems of a message (each a short code with detail).
pub fn format_issues(message: &str, question: &str, language: &str) -> Vec<String> {
    let mut issues = Vec::new();
    if !message.chars().any(char::is_alphanumeric) {
        issues.push("message_empty".to_string());
    }
    let n = sentences(message);
    if n > 2 {
        issues.push(format!("message_too_many_sentences: {n} > 2"));
    }
    if !question.trim().is_empty() {
        let n = sentences(question);
        if n > 1 {
            issues.push(format!("question_too_many_sentences: {n} > 1"));
        }
        let q = question_marks(question);
        if q > 1 {
            issues.push(format!("question_too_many_question_marks: {q} > 1"));
        }
    }
    for (field, text) in [("message", message), ("question", question)] {
        if !language_matches(text, language) {
            issues.push(format!("{field}_language_mismatch: not {language}"));
        }
    }
    issues
}

// ------------------------------------------------------------ invariants --

/// What a message type must look like. `blocks_search` and
/// `suggested_action` are forced; `advised_action` is only logged.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InvariantRule {
    pub blocks_search: Option<bool>,
    pub suggested_action: Option<String>,
    pub advised_action: Option<String>,
    /// reason -> forced suggested_action (e.g. MISSING_LOCATION -> ASK_LOCATION).
    pub action_by_reason: BTreeMap<String, String>,
}

/// The default invariant table, as docs/clarify-and-extract.md lists it.
pub fn default_invariants() -> BTreeMap<MessageType, InvariantRule> {
    let mut t = BTreeMap::new();
    t.insert(
        MessageType::Clarify,
        InvariantRule {
            blocks_search: Some(true),
            action_by_reason: [("MISSING_LOCATION", "ASK_LOCATION"), ("MISSING_FOOD", "ASK_FOOD")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            ..Default::default()
        },
    );
    t.insert(
        MessageType::Summary,
        InvariantRule { blocks_search: Some(false), suggested_action: Some("NONE".into()), ..Default::default() },
    );
    t.insert(
        MessageType::GateFail,
        InvariantRule { blocks_search: Some(true), advised_action: Some("RETRY".into()), ..Default::default() },
    );
    t.insert(
        MessageType::SearchFailed,
        InvariantRule { blocks_search: Some(false), advised_action: Some("RETRY".into()), ..Default::default() },
    );
    t
}

/// Forces the rule onto a draft. Returns what was overridden (for
/// `enforced_invariants`) and advice that was not followed (logged only).
pub fn enforce(draft: &mut MessageDraft, rule: &InvariantRule, reason: &str) -> (Vec<String>, Vec<String>) {
    let mut enforced = Vec::new();
    let mut advice = Vec::new();
    if let Some(b) = rule.blocks_search
        && draft.blocks_search != b
    {
        draft.blocks_search = b;
        enforced.push(format!("blocks_search={b}"));
    }
    let forced = rule.action_by_reason.get(reason).or(rule.suggested_action.as_ref());
    if let Some(a) = forced
        && draft.suggested_action != *a
    {
        enforced.push(format!("suggested_action={a}"));
        draft.suggested_action = a.clone();
    }
    if let Some(a) = &rule.advised_action
        && draft.suggested_action != *a
    {
        advice.push(format!("suggested_action {:?} where {a} is advised", draft.suggested_action));
    }
    if draft.suggested_action.trim().is_empty() {
        draft.suggested_action = "NONE".into();
    }
    (enforced, advice)
}

// ------------------------------------------------- question acceptance --

/// Whether an LLM-suggested clarifying question may be shown (C1-C7).
pub fn accept_question(
    question: Option<&str>,
    user_text: &str,
    intent: &str,
    slot_filling_intents: &[String],
    missing_fields: Option<&[String]>,
    baseline_missing: &[String],
) -> Result<(), &'static str> {
    let q = question.map(str::trim).unwrap_or("");
    if q.is_empty() {
        return Err("question_missing");
    }
    let n = q.chars().count();
    if !(5..=200).contains(&n) {
        return Err("question_length_out_of_range");
    }
    let user = user_text.trim().to_lowercase();
    if !user.is_empty() && q.to_lowercase().contains(&user) {
        return Err("question_echoes_user_text");
    }
    if question_marks(q) == 0 && !slot_filling_intents.iter().any(|i| i == intent) {
        return Err("question_without_question_mark");
    }
    if let Some(fields) = missing_fields
        && !fields.iter().all(|f| baseline_missing.contains(f))
    {
        return Err("missing_fields_not_in_baseline");
    }
    Ok(())
}

// ------------------------------------------------------------ templates --

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    pub message: String,
    #[serde(default)]
    pub question: Option<String>,
    pub suggested_action: String,
    pub blocks_search: bool,
}

/// language -> type -> reason ("generic" for the rest) -> template.
#[derive(Debug, Clone, PartialEq)]
pub struct AssistantTemplates {
    by_language: BTreeMap<String, BTreeMap<MessageType, BTreeMap<String, Template>>>,
}

impl AssistantTemplates {
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let by_language: BTreeMap<String, BTreeMap<MessageType, BTreeMap<String, Template>>> =
            toml::from_str(text).map_err(|e| e.to_string())?;
        for (lang, types) in &by_language {
            for t in MessageType::ALL {
                if !types.get(t).is_some_and(|r| r.contains_key("generic")) {
                    return Err(format!("language {lang:?} has no generic template for {}", t.as_str()));
                }
            }
        }
        Ok(AssistantTemplates { by_language })
    }

    pub fn shipped() -> Self {
        Self::from_toml(SHIPPED_TEMPLATES).expect("shipped assistant templates parse (tested)")
    }

    pub fn has(&self, lang: &str) -> bool {
        self.by_language.contains_key(lang)
    }

    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.by_language.keys().map(String::as_str)
    }

    /// Every (language, type, reason, template), for tests and checks.
    pub fn all(&self) -> impl Iterator<Item = (&str, MessageType, &str, &Template)> {
        self.by_language
            .iter()
            .flat_map(|(l, types)| types.iter().flat_map(move |(t, rs)| rs.iter().map(move |(r, tpl)| (l.as_str(), *t, r.as_str(), tpl))))
    }

    /// The template for (language, type, reason), falling back to the
    /// type's generic template, then to `default`'s.
    pub fn get(&self, lang: &str, t: MessageType, reason: &str, default: &str) -> (&Template, String) {
        for l in [lang, default] {
            if let Some(rs) = self.by_language.get(l).and_then(|ts| ts.get(&t))
                && let Some(tpl) = rs.get(reason).or_else(|| rs.get("generic"))
            {
                return (tpl, l.to_string());
            }
        }
        // from_toml guarantees a generic template per type in every language.
        let (l, ts) = self.by_language.iter().next().expect("at least one language");
        (&ts[&t]["generic"], l.clone())
    }
}

/// Renders the deterministic fallback for a request.
pub fn fallback(templates: &AssistantTemplates, req: &ClarifyRequest, lang: &str, default: &str) -> (MessageDraft, String) {
    let (tpl, used) = templates.get(lang, req.kind(), &req.reason, default);
    let render = |s: &str| s.replace("{result_count}", &req.result_count.to_string());
    let draft = MessageDraft {
        message: render(&tpl.message),
        question: tpl.question.as_deref().map(render),
        suggested_action: tpl.suggested_action.clone(),
        blocks_search: tpl.blocks_search,
        language: used.clone(),
        missing_fields: None,
    };
    (draft, used)
}

/// Assembles the response from a final draft.
pub fn finish(
    d: MessageDraft,
    source: &'static str,
    language: String,
    language_source: &'static str,
    enforced: Vec<String>,
    issues: Vec<String>,
    missing: Vec<String>,
) -> AssistantMessage {
    AssistantMessage {
        message: d.message,
        question: d.question.unwrap_or_default(),
        suggested_action: d.suggested_action,
        blocks_search: d.blocks_search,
        language,
        source,
        enforced_invariants: enforced,
        validation_issues: issues,
        missing_fields: missing,
        language_source,
    }
}

/// Parses the LLM's reply into a draft (plain or fenced JSON).
pub fn parse_draft(content: &str) -> Result<MessageDraft, String> {
    let json = super::model_json::extract_json(content).ok_or("no JSON object in the reply")?;
    serde_json::from_str::<MessageDraft>(json).map_err(|e| format!("malformed reply: {}", crate::model_json::parse_error(&e)))
}

/// The whole `Clarify` sequence after the LLM call: the draft when it
/// passes every rule (invariants forced, a rejected question replaced by the
/// deterministic one), else the deterministic fallback with the problems in
/// `validation_issues`. Overrides and failures are logged
/// (`assistant_invariant_enforced`, `assistant_validation_failed`).
pub fn compose(req: &ClarifyRequest, p: &AssistantPolicy, default_language: &str, reply: LlmDraft) -> AssistantMessage {
    let (lang, lang_source) = resolve_language(req, &p.region_languages, default_language);
    let fallback = |mut issues: Vec<String>, enforced: Vec<String>| {
        let (mut draft, used) = fallback(&p.templates, req, &lang, default_language);
        if used != lang {
            issues.push(format!("no_templates_for_language: {lang}; answered in {used}"));
        }
        if req.kind() == MessageType::Clarify && !req.baseline_question.trim().is_empty() {
            let q = req.baseline_question.trim();
            let ok = accept_question(Some(q), &req.query, &req.intent, &p.slot_filling_intents, None, &[]).is_ok()
                && format_issues(&draft.message, q, &used).is_empty();
            if ok {
                draft.question = Some(q.to_string());
            }
        }
        finish(draft, "fallback", used, lang_source, enforced, issues, req.baseline_missing_fields.clone())
    };
    let content = match reply {
        LlmDraft::NotAsked => return fallback(Vec::new(), Vec::new()),
        LlmDraft::Failed(reason) => {
            // Per call: the daemon warns once per interval (`validation_issues`).
            tracing::debug!(fallback_reason = %reason, "assistant draft unavailable; using the template");
            return fallback(vec![format!("llm_unavailable: {reason}")], Vec::new());
        }
        LlmDraft::Replied(content) => content,
    };
    let mut draft = match parse_draft(&content) {
        Ok(d) => d,
        Err(e) => {
            tracing::debug!(issue = %e, "assistant_validation_failed");
            return fallback(vec![format!("llm_reply_invalid: {e}")], Vec::new());
        }
    };
    let rule = p.invariants.get(&req.kind()).cloned().unwrap_or_default();
    let (enforced, advice) = enforce(&mut draft, &rule, &req.reason);
    for e in &enforced {
        tracing::info!(invariant = %e, "assistant_invariant_enforced");
    }
    for adv in &advice {
        tracing::info!(advice = %adv, "assistant advice not followed (not forced)");
    }
    let mut issues = Vec::new();
    let mut missing = req.baseline_missing_fields.clone();
    if req.kind() == MessageType::Clarify {
        let accepted = accept_question(
            draft.question.as_deref(),
            &req.query,
            &req.intent,
            &p.slot_filling_intents,
            draft.missing_fields.as_deref(),
            &req.baseline_missing_fields,
        );
        match accepted {
            Ok(()) => missing = draft.missing_fields.clone().unwrap_or(missing),
            Err(why) => {
                issues.push(format!("question_rejected: {why}"));
                // The baseline question replaces it only when it passes the
                // same rules; else the template's.
                let (fb, _) = self::fallback(&p.templates, req, &lang, default_language);
                let baseline = Some(req.baseline_question.trim())
                    .filter(|q| accept_question(Some(q), &req.query, &req.intent, &p.slot_filling_intents, None, &[]).is_ok());
                draft.question = baseline.map(str::to_string).or(fb.question);
            }
        }
    }
    let mut problems = format_issues(&draft.message, draft.question.as_deref().unwrap_or(""), &lang);
    // The draft must say it is in the language we asked for.
    if !draft.language.trim().is_empty() && !draft.language.trim().to_ascii_lowercase().starts_with(&lang) {
        problems.push(format!("language_field_mismatch: {} instead of {lang}", draft.language));
    }
    if !problems.is_empty() {
        for p in &problems {
            tracing::debug!(issue = %p, "assistant_validation_failed");
        }
        issues.extend(problems);
        return fallback(issues, enforced);
    }
    finish(draft, "llm", lang, lang_source, enforced, issues, missing)
}

#[cfg(test)]
mod tests;
