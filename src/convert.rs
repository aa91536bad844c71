//! The edge: protobuf messages in, domain types out (and back). Every input
//! limit is checked here, in one place, before any work; a violation names
//! the field and the limit. Sizes are checked before contents, so a request
//! with 200,000 candidates is refused without looking at them.

use crate::config::Limits;
use crate::config::fixed;
use crate::daemon::{EnrichInput, OutcomeInput, RolloutView};
use crate::error::Invalid;
use crate::pb;
use ladder::assistant::{AssistantMessage, ClarifyRequest, MessageType};
use ladder::continuity::{ActionEntry, ActionOutcome, ContinuityState, PendingClarifier};
use ladder::extract::{ExtractRequest, SlotSpec, SlotValue};
use ladder::types as d;
use rustc_hash::FxHashSet;
use std::sync::Arc;

fn check_len(field: impl FnOnce() -> String, value: &str, max: usize) -> Result<(), Invalid> {
    if value.len() > max { Err(Invalid::TooLong { field: field(), len: value.len(), max }) } else { Ok(()) }
}

fn check_count(field: &str, len: usize, max: usize) -> Result<(), Invalid> {
    if len > max { Err(Invalid::TooMany { field: field.to_string(), len, max }) } else { Ok(()) }
}

fn required_id(field: &str, value: &str, max: usize) -> Result<(), Invalid> {
    required_id_lazy(|| field.to_string(), value, max)
}

/// `required_id` with the field's name built only on failure (it runs for
/// every candidate: valid input must not pay for error messages).
fn required_id_lazy(field: impl Fn() -> String, value: &str, max: usize) -> Result<(), Invalid> {
    // ASCII (most ids), read as bytes: blank is all whitespace (what `trim`
    // takes away), and the control characters are below a space or DEL.
    if value.is_ascii() {
        let b = value.as_bytes();
        if b.iter().all(|c| matches!(c, b'\t'..=b'\r' | b' ')) {
            return Err(Invalid::Missing { field: field() });
        }
        check_len(&field, value, max)?;
        if b.iter().any(|c| *c < b' ' || *c == 0x7f) {
            return Err(Invalid::bad(field(), "must not contain control characters"));
        }
        return Ok(());
    }
    required_id_chars(field, value, max)
}

/// `required_id_lazy` read as characters.
fn required_id_chars(field: impl Fn() -> String, value: &str, max: usize) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        return Err(Invalid::Missing { field: field() });
    }
    check_len(&field, value, max)?;
    if value.chars().any(char::is_control) {
        return Err(Invalid::bad(field(), "must not contain control characters"));
    }
    Ok(())
}

pub fn scope(field: &str, v: i32) -> Result<d::Scope, Invalid> {
    Ok(match pb::Scope::try_from(v) {
        Ok(pb::Scope::Unspecified) => d::Scope::Unspecified,
        Ok(pb::Scope::Chat) => d::Scope::Chat,
        Ok(pb::Scope::Widget) => d::Scope::Widget,
        Ok(pb::Scope::Dashboard) => d::Scope::Dashboard,
        Ok(pb::Scope::Workspace) => d::Scope::Workspace,
        Err(_) => return Err(Invalid::bad(field, format!("unknown Scope value {v}"))),
    })
}

fn asked(field: &str, v: i32) -> Result<d::Asked, Invalid> {
    Ok(match pb::Asked::try_from(v) {
        Ok(pb::Asked::Unspecified) => d::Asked::Unspecified,
        Ok(pb::Asked::Confirmation) => d::Asked::Confirmation,
        Ok(pb::Asked::Choice) => d::Asked::Choice,
        Err(_) => return Err(Invalid::bad(field, format!("unknown Asked value {v}"))),
    })
}

fn risk(field: &str, v: i32) -> Result<d::Risk, Invalid> {
    Ok(match pb::Risk::try_from(v) {
        Ok(pb::Risk::Unspecified) => d::Risk::Unspecified,
        Ok(pb::Risk::Normal) => d::Risk::Normal,
        Ok(pb::Risk::High) => d::Risk::High,
        Err(_) => return Err(Invalid::bad(field, format!("unknown Risk value {v}"))),
    })
}

fn scope_to_pb(s: d::Scope) -> pb::Scope {
    match s {
        d::Scope::Unspecified => pb::Scope::Unspecified,
        d::Scope::Chat => pb::Scope::Chat,
        d::Scope::Widget => pb::Scope::Widget,
        d::Scope::Dashboard => pb::Scope::Dashboard,
        d::Scope::Workspace => pb::Scope::Workspace,
    }
}

fn scope_ref(field: &str, s: Option<pb::ScopeRef>, l: &Limits) -> Result<Option<d::ScopeRef>, Invalid> {
    s.map(|s| {
        check_len(|| format!("{field}.instance_id"), &s.instance_id, l.candidate_id_max_bytes)?;
        Ok(d::ScopeRef { scope: scope(&format!("{field}.scope"), s.scope)?, instance_id: s.instance_id })
    })
    .transpose()
}

fn scope_ref_to_pb(s: &d::ScopeRef) -> pb::ScopeRef {
    pb::ScopeRef { scope: scope_to_pb(s.scope) as i32, instance_id: s.instance_id.clone() }
}

/// Checks one candidate list without moving it; ids go into `seen`
/// (unique per request, borrowed: no copy of any id).
fn check_candidates<'a>(field: &str, list: &'a [pb::Candidate], l: &Limits, seen: &mut FxHashSet<&'a str>) -> Result<(), Invalid> {
    check_count(field, list.len(), l.pool_max)?;
    for (i, c) in list.iter().enumerate() {
        let f = |name: &str| format!("{field}[{i}].{name}");
        required_id_lazy(|| f("id"), &c.id, l.candidate_id_max_bytes)?;
        for (name, v) in [("label", &c.label), ("sublabel", &c.sublabel), ("badge", &c.badge), ("kind", &c.kind), ("path", &c.path)] {
            check_len(|| f(name), v, l.label_max_bytes)?;
        }
        if c.aliases.len() > l.aliases_max {
            return Err(Invalid::TooMany { field: f("aliases"), len: c.aliases.len(), max: l.aliases_max });
        }
        for (j, a) in c.aliases.iter().enumerate() {
            check_len(|| format!("{field}[{i}].aliases[{j}]"), a, l.label_max_bytes)?;
        }
        if pb::Risk::try_from(c.risk).is_err() {
            risk(&f("risk"), c.risk)?;
        }
        if !seen.insert(c.id.as_str()) {
            return Err(Invalid::Duplicate { field: f("id"), id: c.id.clone() });
        }
    }
    Ok(())
}

/// Moves a candidate's fields into the domain type (no checks: see
/// `check_candidates`).
impl From<pb::Candidate> for d::Candidate {
    fn from(c: pb::Candidate) -> Self {
        // `check_candidates` refused an unknown risk value.
        let risk = risk("risk", c.risk).unwrap_or_default();
        d::Candidate {
            id: c.id,
            label: c.label,
            sublabel: c.sublabel,
            badge: c.badge,
            kind: c.kind,
            path: c.path,
            aliases: c.aliases,
            risk,
        }
    }
}

/// Moves a checked list into domain candidates.
fn into_candidates(list: Vec<pb::Candidate>) -> Vec<d::Candidate> {
    list.into_iter().map(d::Candidate::from).collect()
}

/// Checks and moves one list (for calls with a single list).
fn candidates(field: &str, list: Vec<pb::Candidate>, l: &Limits) -> Result<Vec<d::Candidate>, Invalid> {
    check_candidates(field, &list, l, &mut FxHashSet::default())?;
    Ok(into_candidates(list))
}

pub fn session_id(v: &str, l: &Limits) -> Result<(), Invalid> {
    required_id("session_id", v, l.session_id_max_bytes)
}

fn language(field: &str, v: &str) -> Result<(), Invalid> {
    check_len(|| field.to_string(), v, fixed::LANGUAGE_MAX_BYTES)?;
    if !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(Invalid::bad(field, format!("{v:?} is not a language tag such as \"en\" or \"he-IL\"")));
    }
    Ok(())
}

pub fn decide_request(m: pb::DecideRequest, l: &Limits) -> Result<d::DecideRequest, Invalid> {
    decide_request_known(m, l, None)
}

/// `decide_request`, where `known` is the list `m.options.candidates`
/// convert to, when the caller knows it: the list interned for the same
/// bytes (`PoolMemo::intern`), which passed these checks under these limits
/// (one memo per configuration generation). Its candidates are not checked
/// or converted again; their ids still count against the other lists'.
/// The same request, or the same error, as `decide_request`.
pub fn decide_request_known(m: pb::DecideRequest, l: &Limits, known: Option<Arc<Vec<d::Candidate>>>) -> Result<d::DecideRequest, Invalid> {
    session_id(&m.session_id, l)?;
    check_len(|| "turn_id".into(), &m.turn_id, l.turn_id_max_bytes)?;
    check_len(|| "input".into(), &m.input, l.input_max_bytes)?;
    language("language", &m.language)?;
    // Sizes first: refuse huge pools before touching their contents.
    // A known list stands for the options' candidates: intake may have
    // left them out of the message (`grpc::wire::without_candidates`).
    let opt_len = match (&m.options, &known) {
        (Some(_), Some(list)) => list.len(),
        (o, _) => o.as_ref().map_or(0, |o| o.candidates.len()),
    };
    check_count("options.candidates", opt_len, l.pool_max)?;
    check_count("recoverable_chat_options", m.recoverable_chat_options.len(), l.pool_max)?;
    check_count("widget_items", m.widget_items.len(), l.pool_max)?;
    check_count("commands", m.commands.len(), l.pool_max)?;
    check_count("labels", m.labels.len(), l.labels_max)?;
    for (k, v) in &m.labels {
        check_len(|| format!("labels[{k:?}]"), v, fixed::LABEL_VALUE_MAX_BYTES)?;
        check_len(|| "labels (key)".into(), k, fixed::LABEL_KEY_MAX_BYTES)?;
    }
    // Contents next, by reference (ids are unique across the whole request),
    // then everything is moved into domain types without copies.
    {
        let total = opt_len + m.recoverable_chat_options.len() + m.widget_items.len() + m.commands.len();
        let mut seen = FxHashSet::with_capacity_and_hasher(total, Default::default());
        if let Some(o) = &m.options {
            let others = m.recoverable_chat_options.len() + m.widget_items.len() + m.commands.len();
            match &known {
                Some(list) if others > 0 => seen.extend(list.iter().map(|c| c.id.as_str())),
                Some(_) => {}
                None => check_candidates("options.candidates", &o.candidates, l, &mut seen)?,
            }
        }
        check_candidates("recoverable_chat_options", &m.recoverable_chat_options, l, &mut seen)?;
        check_candidates("widget_items", &m.widget_items, l, &mut seen)?;
        check_candidates("commands", &m.commands, l, &mut seen)?;
    }
    let options = m
        .options
        .map(|o| -> Result<d::OptionSet, Invalid> {
            check_len(|| "options.option_set_id".into(), &o.option_set_id, l.candidate_id_max_bytes)?;
            check_len(|| "options.version".into(), &o.version, fixed::OPTION_SET_VERSION_MAX_BYTES)?;
            if o.by_reference {
                if !o.candidates.is_empty() {
                    return Err(Invalid::bad("options.candidates", "must be empty when options.by_reference is set"));
                }
                if o.option_set_id.is_empty() {
                    return Err(Invalid::Missing { field: "options.option_set_id".into() });
                }
                if o.version.is_empty() {
                    return Err(Invalid::Missing { field: "options.version".into() });
                }
            }
            let set = d::OptionSet {
                option_set_id: o.option_set_id,
                scope: scope("options.scope", o.scope)?,
                candidates: match known {
                    Some(list) => list,
                    None => Arc::new(into_candidates(o.candidates)),
                },
                version: o.version,
                by_reference: o.by_reference,
                asked: asked("options.asked", o.asked)?,
            };
            crate::daemon::admit::confirms_one(&set)?;
            Ok(set)
        })
        .transpose()?;
    Ok(d::DecideRequest {
        active_scope: scope_ref("active_scope", m.active_scope, l)?,
        options,
        recoverable_chat_options: into_candidates(m.recoverable_chat_options),
        widget_items: into_candidates(m.widget_items),
        commands: into_candidates(m.commands),
        session_id: m.session_id,
        turn_id: m.turn_id,
        input: m.input,
        force_clarify_only: m.force_clarify_only,
        language: m.language,
        labels: m.labels.into_iter().collect(),
    })
}

pub fn enrich_request(m: pb::EnrichRequest, l: &Limits) -> Result<EnrichInput, Invalid> {
    session_id(&m.session_id, l)?;
    check_len(|| "turn_id".into(), &m.turn_id, l.turn_id_max_bytes)?;
    required_id("loop_cycle_id", &m.loop_cycle_id, l.candidate_id_max_bytes)?;
    check_count("evidence", m.evidence.len(), l.evidence_blocks_max)?;
    check_count("chat_history", m.chat_history.len(), l.chat_history_max)?;
    for (i, h) in m.chat_history.iter().enumerate() {
        check_len(|| format!("chat_history[{i}]"), h, l.excerpt_max_bytes)?;
    }
    let total: usize = m.evidence.iter().map(|b| b.candidates.len()).sum();
    check_count("evidence[].candidates", total, l.pool_max)?;
    {
        let mut seen = FxHashSet::default();
        for (i, b) in m.evidence.iter().enumerate() {
            check_candidates(&format!("evidence[{i}].candidates"), &b.candidates, l, &mut seen)?;
        }
    }
    let evidence = m
        .evidence
        .into_iter()
        .enumerate()
        .map(|(i, b)| {
            let ty = d::EvidenceType::parse(&b.r#type).ok_or_else(|| {
                let allowed: Vec<&str> = d::EvidenceType::ALL.iter().map(|t| t.as_str()).collect();
                Invalid::bad(format!("evidence[{i}].type"), format!("{:?} is not one of {}", b.r#type, allowed.join(", ")))
            })?;
            check_len(|| format!("evidence[{i}].excerpt"), &b.excerpt, l.excerpt_max_bytes)?;
            Ok((ty, into_candidates(b.candidates), b.excerpt))
        })
        .collect::<Result<_, Invalid>>()?;
    Ok(EnrichInput { session_id: m.session_id, turn_id: m.turn_id, loop_cycle_id: m.loop_cycle_id, evidence, chat_history: m.chat_history })
}

pub fn outcome_request(m: pb::RecordOutcomeRequest, l: &Limits) -> Result<OutcomeInput, Invalid> {
    session_id(&m.session_id, l)?;
    check_len(|| "decision_id".into(), &m.decision_id, l.candidate_id_max_bytes)?;
    check_len(|| "choice_id".into(), &m.choice_id, l.candidate_id_max_bytes)?;
    check_len(|| "option_set_id".into(), &m.option_set_id, l.candidate_id_max_bytes)?;
    let kind = match pb::OutcomeKind::try_from(m.kind) {
        Ok(pb::OutcomeKind::Accepted) => ActionOutcome::Accepted,
        Ok(pb::OutcomeKind::Executed) => ActionOutcome::Executed,
        Ok(pb::OutcomeKind::Rejected) => ActionOutcome::Rejected,
        Ok(pb::OutcomeKind::Corrected) => ActionOutcome::Corrected,
        Ok(pb::OutcomeKind::Unspecified) => return Err(Invalid::Missing { field: "kind".into() }),
        Err(_) => return Err(Invalid::bad("kind", format!("unknown OutcomeKind value {}", m.kind))),
    };
    if matches!(kind, ActionOutcome::Accepted | ActionOutcome::Corrected) && m.choice_id.is_empty() {
        return Err(Invalid::Missing { field: "choice_id".into() });
    }
    Ok(OutcomeInput {
        scope: scope_ref("scope", m.scope, l)?,
        session_id: m.session_id,
        decision_id: m.decision_id,
        kind,
        choice_id: m.choice_id,
        option_set_id: m.option_set_id,
    })
}

fn short_list(field: &str, list: &[String], max_items: usize, max_bytes: usize) -> Result<(), Invalid> {
    check_count(field, list.len(), max_items)?;
    for (i, v) in list.iter().enumerate() {
        check_len(|| format!("{field}[{i}]"), v, max_bytes)?;
    }
    Ok(())
}

pub fn clarify_request(m: pb::ClarifyRequest, l: &Limits) -> Result<ClarifyRequest, Invalid> {
    session_id(&m.session_id, l)?;
    check_len(|| "turn_id".into(), &m.turn_id, l.turn_id_max_bytes)?;
    let message_type = match pb::MessageType::try_from(m.r#type) {
        Ok(pb::MessageType::Clarify) => MessageType::Clarify,
        Ok(pb::MessageType::Summary) => MessageType::Summary,
        Ok(pb::MessageType::GateFail) => MessageType::GateFail,
        Ok(pb::MessageType::SearchFailed) => MessageType::SearchFailed,
        Ok(pb::MessageType::Unspecified) => return Err(Invalid::Missing { field: "type".into() }),
        Err(_) => return Err(Invalid::bad("type", format!("unknown MessageType value {}", m.r#type))),
    };
    check_len(|| "reason".into(), &m.reason, fixed::REASON_MAX_BYTES)?;
    check_len(|| "query".into(), &m.query, l.input_max_bytes)?;
    check_len(|| "intent".into(), &m.intent, fixed::INTENT_MAX_BYTES)?;
    check_len(|| "baseline_question".into(), &m.baseline_question, l.label_max_bytes)?;
    language("ui_language", &m.ui_language)?;
    language("request_language", &m.request_language)?;
    if m.region_code.len() > fixed::REGION_CODE_MAX_BYTES || !m.region_code.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(Invalid::bad("region_code", format!("{:?} is not a region code such as \"IL\"", m.region_code)));
    }
    short_list("baseline_missing_fields", &m.baseline_missing_fields, fixed::MISSING_FIELDS_MAX, fixed::MISSING_FIELD_MAX_BYTES)?;
    Ok(ClarifyRequest {
        candidates: candidates("candidates", m.candidates, l)?,
        session_id: m.session_id,
        turn_id: m.turn_id,
        message_type: Some(message_type),
        reason: m.reason,
        query: m.query,
        ui_language: m.ui_language,
        request_language: m.request_language,
        region_code: m.region_code,
        intent: m.intent,
        baseline_missing_fields: m.baseline_missing_fields,
        result_count: m.result_count,
        baseline_question: m.baseline_question,
    })
}

pub fn clarify_response(a: AssistantMessage, prompt_version: &str) -> pb::ClarifyResponse {
    pb::ClarifyResponse {
        message: a.message,
        question: a.question,
        suggested_action: a.suggested_action,
        blocks_search: a.blocks_search,
        language: a.language,
        source: a.source.to_string(),
        enforced_invariants: a.enforced_invariants,
        validation_issues: a.validation_issues,
        missing_fields: a.missing_fields,
        schema_version: ladder::assistant::SCHEMA_VERSION.to_string(),
        prompt_version: prompt_version.to_string(),
        language_source: a.language_source.to_string(),
    }
}

pub fn extract_request(m: pb::ExtractRequest, l: &Limits) -> Result<ExtractRequest, Invalid> {
    session_id(&m.session_id, l)?;
    check_len(|| "turn_id".into(), &m.turn_id, l.turn_id_max_bytes)?;
    check_len(|| "text".into(), &m.text, l.input_max_bytes)?;
    check_len(|| "intent".into(), &m.intent, fixed::INTENT_MAX_BYTES)?;
    language("language", &m.language)?;
    check_count("slots", m.slots.len(), fixed::SLOTS_MAX)?;
    check_count("filled", m.filled.len(), fixed::FILLED_MAX)?;
    let values: usize = m.slots.iter().map(|s| s.values.len()).sum();
    check_count("slots[].values", values, l.pool_max)?;
    for (k, v) in &m.filled {
        check_len(|| "filled (key)".into(), k, fixed::FILLED_KEY_MAX_BYTES)?;
        check_len(|| format!("filled[{k:?}]"), v, l.label_max_bytes)?;
    }
    let mut names = FxHashSet::default();
    let slots = m
        .slots
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let f = format!("slots[{i}].name");
            required_id(&f, &s.name, fixed::SLOT_NAME_MAX_BYTES)?;
            if !names.insert(s.name.clone()) {
                return Err(Invalid::Duplicate { field: f, id: s.name });
            }
            let values = s
                .values
                .into_iter()
                .enumerate()
                .map(|(j, v)| {
                    let vf = format!("slots[{i}].values[{j}]");
                    required_id(&format!("{vf}.value"), &v.value, l.label_max_bytes)?;
                    short_list(&format!("{vf}.synonyms"), &v.synonyms, l.aliases_max, l.label_max_bytes)?;
                    Ok(SlotValue { value: v.value, synonyms: v.synonyms })
                })
                .collect::<Result<Vec<_>, Invalid>>()?;
            Ok(SlotSpec { name: s.name, values })
        })
        .collect::<Result<Vec<_>, Invalid>>()?;
    Ok(ExtractRequest {
        session_id: m.session_id,
        turn_id: m.turn_id,
        text: m.text,
        slots,
        filled: m.filled.into_iter().collect(),
        intent: m.intent,
        language: m.language,
    })
}

// ------------------------------------------------------------- outbound --

/// Moves the decision's strings into the message (it is answered once).
impl From<d::Decision> for pb::Decision {
    fn from(x: d::Decision) -> Self {
        pb::Decision {
            decision_id: x.decision_id,
            outcome: match x.outcome {
                d::Outcome::Execute => pb::Outcome::Execute,
                d::Outcome::Clarify => pb::Outcome::Clarify,
                d::Outcome::Escape => pb::Outcome::Escape,
                d::Outcome::NeedMoreInfo => pb::Outcome::NeedMoreInfo,
            } as i32,
            target_id: x.target_id.unwrap_or_default(),
            decided_by: match x.decided_by {
                d::Decider::Unspecified => pb::Decider::Unspecified,
                d::Decider::Deterministic => pb::Decider::Deterministic,
                d::Decider::Continuity => pb::Decider::Continuity,
                d::Decider::Llm => pb::Decider::Llm,
            } as i32,
            // An escape carries none (documented in the proto).
            confidence: match x.confidence {
                None => pb::ConfidenceBucket::Unspecified,
                Some(d::Bucket::HighConfidenceExecute) => pb::ConfidenceBucket::HighConfidenceExecute,
                Some(d::Bucket::LowConfidenceLlmEligible) => pb::ConfidenceBucket::LowConfidenceLlmEligible,
                Some(d::Bucket::LowConfidenceClarifierOnly) => pb::ConfidenceBucket::LowConfidenceClarifierOnly,
            } as i32,
            ambiguity_reason: match x.ambiguity_reason {
                None => pb::AmbiguityReason::Unspecified,
                Some(d::AmbiguityReason::MultiMatchNoExactWinner) => pb::AmbiguityReason::MultiMatchNoExactWinner,
                Some(d::AmbiguityReason::CrossSourceTie) => pb::AmbiguityReason::CrossSourceTie,
                Some(d::AmbiguityReason::TypoAmbiguous) => pb::AmbiguityReason::TypoAmbiguous,
                Some(d::AmbiguityReason::CommandSelectionCollision) => pb::AmbiguityReason::CommandSelectionCollision,
                Some(d::AmbiguityReason::NoCandidate) => pb::AmbiguityReason::NoCandidate,
                Some(d::AmbiguityReason::NoDeterministicMatch) => pb::AmbiguityReason::NoDeterministicMatch,
            } as i32,
            fallback_reason: fallback_to_pb(x.fallback_reason) as i32,
            escape_reason: x.escape_reason.map(|e| e.as_str().to_string()).unwrap_or_default(),
            handled_by_tier: x.handled_by_tier.as_str().to_string(),
            clarifier: x.clarifier.map(|c| pb::Clarifier {
                question: c.question,
                option_ids: c.option_ids,
                suggested_id: c.suggested_id.unwrap_or_default(),
                kind: c.kind.as_str().to_string(),
            }),
            needed_evidence_types: x.needed_evidence_types.iter().map(|t| t.as_str().to_string()).collect(),
            about: x.about,
            // Absent when the LLM rung did nothing for this decision (not
            // reached, or no provider): the answer says what happened only.
            llm: Some(pb::LlmReport {
                called: x.llm.called,
                guard_hit: x.llm.guard_hit,
                latency_ms: x.llm.latency_ms,
                suggested_id: x.llm.suggested_id.unwrap_or_default(),
                confidence: x.llm.confidence,
                verdict: x.llm.verdict,
                shadow: x.llm.shadow,
                corroboration: x.llm.corroboration,
                corroboration_method: x.llm.corroboration_method,
                corroborating_id: x.llm.corroborating_id.unwrap_or_default(),
                corroboration_verdict: x.llm.corroboration_verdict,
                corroboration_latency_ms: x.llm.corroboration_latency_ms,
            })
            .filter(|r| !llm_did_nothing(r)),
            loop_cycle_id: x.loop_cycle_id.unwrap_or_default(),
            evidence_fingerprint: x.evidence_fingerprint.unwrap_or_default(),
            trace: x
                .trace
                .into_iter()
                .map(|s| pb::Step { rung: s.rung.to_string(), outcome: s.outcome, detail: s.detail, duration_us: s.duration_us })
                .collect(),
            config_revision: x.config_revision,
            pool_version: x.pool_version.unwrap_or_default(),
            follow_up: x.follow_up.map(|f| pb::FollowUp {
                kind: match f.kind {
                    d::FollowUpKind::Question => pb::FollowUpKind::Question,
                    d::FollowUpKind::Request => pb::FollowUpKind::Request,
                } as i32,
                text: f.text,
            }),
        }
    }
}

/// The LLM rung was not reached, or found no provider configured (which
/// `fallback_reason` already says): nothing to report.
fn llm_did_nothing(r: &pb::LlmReport) -> bool {
    let pb::LlmReport {
        called,
        guard_hit,
        latency_ms,
        suggested_id,
        confidence,
        verdict,
        shadow,
        corroboration,
        corroboration_method,
        corroborating_id,
        corroboration_verdict,
        corroboration_latency_ms,
    } = r;
    !called
        && !guard_hit
        && *latency_ms == 0
        && suggested_id.is_empty()
        && *confidence == 0.0
        && (verdict.is_empty() || verdict == d::FallbackReason::LlmDisabled.as_str())
        && !shadow
        && corroboration.is_empty()
        && corroboration_method.is_empty()
        && corroborating_id.is_empty()
        && corroboration_verdict.is_empty()
        && *corroboration_latency_ms == 0
}

fn fallback_to_pb(r: Option<d::FallbackReason>) -> pb::FallbackReason {
    use d::FallbackReason as F;
    match r {
        None => pb::FallbackReason::Unspecified,
        Some(F::Timeout) => pb::FallbackReason::Timeout,
        Some(F::RateLimited) => pb::FallbackReason::RateLimited,
        Some(F::TransportError) => pb::FallbackReason::TransportError,
        Some(F::Abstain) => pb::FallbackReason::Abstain,
        Some(F::LowConfidence) => pb::FallbackReason::LowConfidence,
        Some(F::NoNewEvidence) => pb::FallbackReason::NoNewEvidence,
        Some(F::BudgetExhausted) => pb::FallbackReason::BudgetExhausted,
        Some(F::LoopGuard) => pb::FallbackReason::LoopGuard,
        Some(F::LlmDisabled) => pb::FallbackReason::LlmDisabled,
        Some(F::LlmOverloaded) => pb::FallbackReason::LlmOverloaded,
        Some(F::CircuitOpen) => pb::FallbackReason::CircuitOpen,
        Some(F::Deadline) => pb::FallbackReason::Deadline,
        Some(F::StateUnavailable) => pb::FallbackReason::StateUnavailable,
        Some(F::NotCorroborated) => pb::FallbackReason::NotCorroborated,
        Some(F::UserRefused) => pb::FallbackReason::UserRefused,
    }
}

fn action_to_pb(a: &ActionEntry) -> pb::ActionEntry {
    pb::ActionEntry {
        r#type: a.kind.as_str().to_string(),
        target_ref: a.target_ref.clone(),
        source_scope: scope_to_pb(a.source_scope) as i32,
        option_set_id: a.option_set_id.clone(),
        timestamp_ms: a.timestamp_ms,
        outcome: a.outcome.as_str().to_string(),
    }
}

/// The session as `GetSession` reports it. `fresh` says whether the
/// continuity context is still within its TTL.
pub fn session_to_pb(session_id: &str, s: &ContinuityState, fresh: bool) -> pb::SessionState {
    pb::SessionState {
        session_id: session_id.to_string(),
        last_resolved_action: s.last_resolved_action.as_ref().map(action_to_pb),
        recent_action_trace: s.recent_action_trace.iter().map(action_to_pb).collect(),
        last_accepted_choice_id: s.last_accepted_choice_id.clone().unwrap_or_default(),
        recent_accepted_choice_ids: s.recent_accepted_choice_ids.iter().cloned().collect(),
        recent_rejected_choice_ids: s.recent_rejected_choice_ids.iter().cloned().collect(),
        active_option_set_id: s.active_option_set_id.clone().unwrap_or_default(),
        active_scope: s.active_scope.as_ref().map(scope_ref_to_pb),
        pending_clarifier_type: match s.pending_clarifier_type {
            PendingClarifier::None => pb::PendingClarifierType::None,
            PendingClarifier::SelectionDisambiguation => pb::PendingClarifierType::SelectionDisambiguation,
            PendingClarifier::ScopeDisambiguation => pb::PendingClarifierType::ScopeDisambiguation,
            PendingClarifier::MissingSlot => pb::PendingClarifierType::MissingSlot,
            PendingClarifier::Confirmation => pb::PendingClarifierType::Confirmation,
            PendingClarifier::Repair => pb::PendingClarifierType::Repair,
        } as i32,
        turn_count: s.turn_count,
        continuity_fresh: fresh,
        loop_cycle_id: s.open_cycle().map(|c| c.id.clone()).unwrap_or_default(),
    }
}

fn breach_to_pb(b: &ladder::guardrails::Breach) -> pb::GuardrailBreach {
    pb::GuardrailBreach {
        cohort: b.cohort.clone(),
        figure: b.figure.to_string(),
        value: b.value,
        baseline: b.baseline,
        threshold: b.threshold,
    }
}

pub fn rollout_to_pb(r: RolloutView) -> pb::RolloutState {
    pb::RolloutState {
        auto_execute_effective: r.auto_execute_effective(),
        config_revision: r.config_revision,
        llm_mode: r.llm_mode.as_str().to_string(),
        auto_execute_configured: r.auto_execute_configured,
        auto_execute_tripped: r.trip.is_some(),
        tripped_at_ms: r.trip.as_ref().map_or(0, |t| t.at_ms),
        trip_breaches: r.trip.as_ref().map(|t| t.breaches.iter().map(breach_to_pb).collect()).unwrap_or_default(),
        cohorts: r
            .cohorts
            .into_iter()
            .map(|c| pb::CohortFigures {
                cohort: c.cohort,
                decisions: c.figures.decisions,
                clarifier_rate: c.figures.clarifier_rate,
                executed: c.figures.executed,
                wrong_actions: c.figures.wrong_actions,
                wrong_action_rate: c.figures.wrong_action_rate,
                p95_latency_ms: c.figures.p95_latency_ms,
                retries: c.figures.retries,
                unchanged_fingerprint_retry_share: c.figures.unchanged_fingerprint_retry_share,
                compared_with: c.compared_with,
            })
            .collect(),
        named_cohorts: r.named_cohorts,
        breaches: r.breaches.iter().map(breach_to_pb).collect(),
        config_reloads: r.config_reloads,
        config_reload_failures: r.config_reload_failures,
        last_reload_error: r.last_reload_error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// An ASCII id, read as bytes, is refused as it is read as
        /// characters (blank, too long, a control character), and for the
        /// same reason.
        #[test]
        fn an_ascii_id_read_as_bytes_is_checked_as_characters_are(id in "[\\x00-\\x7f]{0,6}|[ \\t\\r\\n\\x0b\\x0ca]{0,4}", max in 0usize..8) {
            let field = || "options.candidates[0].id".to_string();
            proptest::prop_assert_eq!(format!("{:?}", required_id_lazy(field, &id, max)), format!("{:?}", required_id_chars(field, &id, max)));
        }
    }

    fn cand(id: &str) -> pb::Candidate {
        pb::Candidate { id: id.into(), label: format!("Label {id}"), ..Default::default() }
    }

    fn base() -> pb::DecideRequest {
        pb::DecideRequest {
            session_id: "s1".into(),
            input: "open d".into(),
            options: Some(pb::OptionSet {
                option_set_id: "o".into(),
                scope: pb::Scope::Chat as i32,
                candidates: vec![cand("a"), cand("b")],
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn err(m: pb::DecideRequest) -> Invalid {
        decide_request(m, &Limits::default()).unwrap_err()
    }

    #[test]
    fn a_valid_request_converts() {
        let r = decide_request(base(), &Limits::default()).unwrap();
        assert_eq!(r.option_candidates().len(), 2);
        assert_eq!(r.options.unwrap().scope, d::Scope::Chat);
    }

    #[test]
    fn validation_table() {
        let l = Limits::default();
        let mut m = base();
        m.session_id = String::new();
        assert_eq!(err(m), Invalid::Missing { field: "session_id".into() });
        let mut m = base();
        m.session_id = "x".repeat(l.session_id_max_bytes + 1);
        assert!(matches!(err(m), Invalid::TooLong { field, .. } if field == "session_id"));
        let mut m = base();
        m.input = "x".repeat(l.input_max_bytes + 1);
        assert!(matches!(err(m), Invalid::TooLong { field, max: 4096, .. } if field == "input"));
        let mut m = base();
        m.options.as_mut().unwrap().candidates[1].id = String::new();
        assert_eq!(err(m), Invalid::Missing { field: "options.candidates[1].id".into() });
        let mut m = base();
        m.widget_items.push(cand("a"));
        assert_eq!(err(m), Invalid::Duplicate { field: "widget_items[0].id".into(), id: "a".into() });
        let mut m = base();
        m.widget_items = (0..l.pool_max + 1).map(|i| cand(&i.to_string())).collect();
        assert!(matches!(err(m), Invalid::TooMany { field, .. } if field == "widget_items"));
        let mut m = base();
        m.options.as_mut().unwrap().candidates[0].label = "x".repeat(l.label_max_bytes + 1);
        assert!(matches!(err(m), Invalid::TooLong { field, .. } if field == "options.candidates[0].label"));
        let mut m = base();
        m.active_scope = Some(pb::ScopeRef { scope: 42, instance_id: String::new() });
        assert!(matches!(err(m), Invalid::Bad { field, .. } if field == "active_scope.scope"));
        let mut m = base();
        m.language = "en; drop table".into();
        assert!(matches!(err(m), Invalid::Bad { field, .. } if field == "language"));
    }

    #[test]
    fn enrich_types_come_from_the_allowlist() {
        let m = pb::EnrichRequest {
            session_id: "s".into(),
            loop_cycle_id: "c".into(),
            evidence: vec![pb::EvidenceBlock { r#type: "browser_history".into(), ..Default::default() }],
            ..Default::default()
        };
        let e = enrich_request(m, &Limits::default()).unwrap_err();
        assert!(matches!(&e, Invalid::Bad { field, .. } if field == "evidence[0].type"), "{e}");
        assert!(e.to_string().contains("chat_recoverable_options"));
    }
}
