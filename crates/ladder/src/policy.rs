//! The ladder's configuration as plain data, and the policy that turns an
//! LLM's answer into a safe decision: the reply is parsed and validated here
//! (never trusted), and auto-execute happens only when every gate passes.

use super::assistant::AssistantPolicy;
use super::clarifier::Templates;
use super::continuity::Ttl;
use super::lexicon::Lexicon;
use super::matching::MatchParams;
use super::model_json::extract_json;
use super::types::{AmbiguityReason, EvidenceType, FallbackReason};
use serde::Deserialize;

/// Reasons auto-execute may never be allowed for, whatever the config says.
pub const NEVER_AUTO_EXECUTE: [AmbiguityReason; 5] = [
    AmbiguityReason::CommandSelectionCollision,
    AmbiguityReason::MultiMatchNoExactWinner,
    AmbiguityReason::CrossSourceTie,
    AmbiguityReason::TypoAmbiguous,
    AmbiguityReason::NoCandidate,
];

wire_enum! {
    "snake_case",
    pub enum LlmMode {
        /// No provider configured: the rung is skipped (`llm_disabled`).
        Off,
        /// The LLM's pick reorders the clarifier, or executes through the gates.
        Live,
        /// The LLM runs and its verdict is reported, but the decision is the one
        /// the ladder makes with the LLM off.
        Shadow,
    }
}

wire_enum! {
    "snake_case",
    /// How an LLM pick that passed every other auto-execute gate is checked
    /// before it executes. A model's self-reported
    /// confidence is not evidence: a small real model says 1.0 on wrong picks.
    #[derive(Default)]
    pub enum Corroboration {
        /// A second ask over the same pool, the candidates in another order
        /// and under fresh opaque labels, must pick the same candidate.
        #[default]
        Reorder,
        /// The pick must also be the deterministic ranking's first candidate,
        /// ahead of every other by `deterministic_margin`.
        Deterministic,
        /// Both checks (the deterministic one first: it costs no call).
        Both,
        /// No check: the first pick executes. Only by explicit choice; the
        /// daemon logs a warning when auto-execute runs without it.
        None,
    }
}

impl Corroboration {
    /// Whether a second, relabelled ask is part of the check.
    pub fn asks_again(self) -> bool {
        matches!(self, Corroboration::Reorder | Corroboration::Both)
    }
    /// Whether the deterministic ranking is part of the check.
    pub fn ranks(self) -> bool {
        matches!(self, Corroboration::Deterministic | Corroboration::Both)
    }
}

/// The auto-execute gates (docs/llm.md): the `[auto_execute]`
/// section of the configuration, as it is.
#[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AutoExecute {
    /// The kill switch. Off by default: the LLM never executes.
    pub enabled: bool,
    pub min_confidence: f32,
    /// Reasons that may auto-execute; `NEVER_AUTO_EXECUTE` never may.
    pub allowed_reasons: Vec<AmbiguityReason>,
    /// How a pick that passed every other gate is corroborated.
    pub corroboration: Corroboration,
    /// `deterministic` / `both`: how far the pick's similarity to the input
    /// must be ahead of every other candidate's (in [0, 1]).
    pub deterministic_margin: f32,
}

impl Default for AutoExecute {
    fn default() -> Self {
        AutoExecute {
            enabled: false,
            min_confidence: 0.85,
            allowed_reasons: vec![AmbiguityReason::NoDeterministicMatch],
            corroboration: Corroboration::Reorder,
            deterministic_margin: 0.1,
        }
    }
}

impl AutoExecute {
    /// The warning to log (at start and on every reload) when LLM picks may
    /// execute on the model's word alone.
    pub fn uncorroborated_warning(&self) -> Option<&'static str> {
        (self.enabled && self.corroboration == Corroboration::None).then_some(
            "auto_execute.corroboration = \"none\": LLM picks execute on the model's self-reported confidence alone, which is not evidence (see Corroboration in docs/llm.md)",
        )
    }
}

/// Enrichment budgets (docs/continuity.md#need_more_info-and-enrich): the
/// `[enrichment]` section of the configuration, as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Budgets {
    pub selection_max_enrichment_steps: u32,
    pub selection_max_llm_calls: u32,
    pub semantic_max_enrichment_steps: u32,
    /// Allows a third semantic step (two without it).
    pub semantic_extra_step: bool,
    pub semantic_max_llm_calls_per_step: u32,
    pub chat_history_max_turns: usize,
    pub chat_history_max_tokens: usize,
    pub snapshot_excerpt_max_tokens: usize,
    pub blended_context_max_tokens: usize,
    pub needed_evidence_types_max: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            selection_max_enrichment_steps: 1,
            selection_max_llm_calls: 2,
            semantic_max_enrichment_steps: 2,
            semantic_extra_step: false,
            semantic_max_llm_calls_per_step: 1,
            chat_history_max_turns: 8,
            chat_history_max_tokens: 1200,
            snapshot_excerpt_max_tokens: 400,
            blended_context_max_tokens: 1800,
            needed_evidence_types_max: 2,
        }
    }
}

impl Budgets {
    /// Enrichment steps of the semantic lane, with the extra step when
    /// `semantic_extra_step` allows it.
    pub fn semantic_steps(&self) -> u32 {
        self.semantic_max_enrichment_steps + u32::from(self.semantic_extra_step)
    }
}

/// Everything the ladder needs to decide, built once from the daemon's
/// configuration (and rebuilt on reload).
#[derive(Debug, Clone)]
pub struct Policy {
    pub lexicon: Lexicon,
    pub matching: MatchParams,
    pub llm_mode: LlmMode,
    pub llm_confidence_min: f32,
    /// At most this many candidates are shown to the LLM.
    pub llm_max_candidates: usize,
    pub auto_execute: AutoExecute,
    pub ttl: Ttl,
    pub budgets: Budgets,
    pub clarifier_max_options: usize,
    pub templates: Templates,
    pub default_language: String,
    /// The model the clarifier ranks by meaning with (docs/meaning.md);
    /// `None`: word evidence alone.
    pub meaning: Option<crate::meaning::Meaning>,
    pub assistant: AssistantPolicy,
    /// Revision of the configuration (hash), reported on every decision.
    pub revision: String,
}

impl Policy {
    /// How many candidates an unresolved turn ranks: enough for the LLM's
    /// list and for the clarifier.
    pub fn tie_len(&self) -> usize {
        self.llm_max_candidates.max(self.clarifier_max_options)
    }

    /// The embedded defaults: LLM off, auto-execute off.
    pub fn defaults() -> Self {
        Policy {
            lexicon: Lexicon::shipped(),
            matching: MatchParams::default(),
            llm_mode: LlmMode::Off,
            llm_confidence_min: 0.6,
            llm_max_candidates: 50,
            auto_execute: AutoExecute::default(),
            ttl: Ttl::default(),
            budgets: Budgets::default(),
            clarifier_max_options: 5,
            templates: Templates::shipped(),
            default_language: "en".into(),
            meaning: None,
            assistant: AssistantPolicy::default(),
            revision: "defaults".into(),
        }
    }
}

/// The corroborating ask of an attempt as it happened:
/// what the port returned, and the real ids in the order the ask showed
/// them (the opaque label `c1` is `shown[0]`, ...), for decision records
/// and replay.
#[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize)]
pub struct SecondAnswer {
    pub answer: LlmAnswer,
    pub shown: Vec<String>,
}

/// What the LLM port brings back.
#[derive(Debug, Clone, PartialEq, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LlmAnswer {
    /// The rung did not call the provider.
    Skipped { reason: FallbackReason },
    /// The call failed: timeout, rate limited or transport error.
    Failed { reason: FallbackReason, latency_ms: u32, detail: String },
    /// The provider answered; `content` is the assistant message, unparsed.
    Replied { content: String, latency_ms: u32 },
}

/// The arbitration reply shape (contract.md), as the model sent it.
#[derive(Debug, Clone, Deserialize)]
struct RawReply {
    decision: String,
    #[serde(default)]
    choice_id: Option<String>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    needed_evidence_types: Vec<String>,
}

/// A validated reading of the LLM's reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Select {
        choice_id: String,
        confidence: f32,
    },
    Abstain {
        confidence: f32,
    },
    NeedMoreInfo {
        types: Vec<EvidenceType>,
        dropped: Vec<String>,
        confidence: f32,
    },
    /// Malformed JSON, unknown decision, confidence out of range, or a
    /// `choice_id` outside the pool (the detail says which; logged).
    Invalid {
        detail: String,
    },
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Select { .. } => "select",
            Verdict::Abstain { .. } => "abstain",
            Verdict::NeedMoreInfo { .. } => "need_more_info",
            Verdict::Invalid { .. } => "invalid",
        }
    }
}

/// Parses and validates a reply against the ids the LLM was shown. Checks
/// everything a schema-constrained provider should already guarantee, since
/// not every provider honours the schema.
pub fn interpret(content: &str, pool_ids: &[&str], max_types: usize) -> Verdict {
    let Some(json) = extract_json(content) else {
        return Verdict::Invalid { detail: "no JSON object in the reply".into() };
    };
    let raw: RawReply = match serde_json::from_str(json) {
        Ok(r) => r,
        Err(e) => return Verdict::Invalid { detail: format!("malformed reply: {}", crate::model_json::parse_error(&e)) },
    };
    let confidence = match raw.confidence {
        None => 0.0,
        Some(c) if (0.0..=1.0).contains(&c) => c as f32,
        Some(c) => return Verdict::Invalid { detail: format!("confidence {c} outside [0, 1]") },
    };
    match raw.decision.as_str() {
        "select" => match raw.choice_id {
            Some(id) if pool_ids.contains(&id.as_str()) => Verdict::Select { choice_id: id, confidence },
            // The id the model made up is not quoted: a reply may echo the
            // input (the record keeps the reply, redacted as configured).
            Some(_) => Verdict::Invalid { detail: "a choice_id that is not in the pool".into() },
            None => Verdict::Invalid { detail: "select without a choice_id".into() },
        },
        "abstain" => Verdict::Abstain { confidence },
        "need_more_info" => {
            let mut types = Vec::new();
            let mut dropped = Vec::new();
            for t in raw.needed_evidence_types {
                match EvidenceType::parse(&t) {
                    Some(et) if !types.contains(&et) && types.len() < max_types => types.push(et),
                    _ => dropped.push(t),
                }
            }
            Verdict::NeedMoreInfo { types, dropped, confidence }
        }
        _ => Verdict::Invalid { detail: "an unknown decision".into() },
    }
}

/// Inputs of the auto-execute gates (docs/llm.md).
#[derive(Debug, Clone, Copy)]
pub struct GateInput {
    pub confidence: f32,
    pub reason: AmbiguityReason,
    pub guard_repeat: bool,
    pub question_intent: bool,
    pub force_clarify_only: bool,
    /// The rollout guardrails turned auto-execute off.
    pub tripped: bool,
}

/// The first gate that fails, or `None` when the LLM's pick may execute.
pub fn auto_execute_gate(p: &Policy, g: GateInput) -> Option<&'static str> {
    if p.llm_mode != LlmMode::Live {
        return Some("llm_not_live");
    }
    if !p.auto_execute.enabled {
        return Some("kill_switch_off");
    }
    if g.tripped {
        return Some("tripped_by_guardrails");
    }
    if g.force_clarify_only {
        return Some("force_clarify_only");
    }
    if g.confidence < p.auto_execute.min_confidence {
        return Some("confidence_below_min");
    }
    if NEVER_AUTO_EXECUTE.contains(&g.reason) || !p.auto_execute.allowed_reasons.contains(&g.reason) {
        return Some("reason_not_allowed");
    }
    if g.guard_repeat {
        return Some("loop_guard_repeat");
    }
    if g.question_intent {
        return Some("question_intent");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: &[&str] = &["a", "b"];

    #[test]
    fn reply_table() {
        let table: &[(&str, &str)] = &[
            (r#"{"decision":"select","choice_id":"a","confidence":0.9,"needed_evidence_types":[]}"#, "select"),
            ("```json\n{\"decision\":\"select\",\"choice_id\":\"b\",\"confidence\":0.7}\n```", "select"),
            ("Sure! ```\n{\"decision\":\"abstain\",\"choice_id\":null,\"confidence\":0.2}\n``` hope it helps", "abstain"),
            (r#"{"decision":"select","choice_id":"zzz","confidence":0.99}"#, "invalid"),
            (r#"{"decision":"select","choice_id":null,"confidence":0.99}"#, "invalid"),
            (r#"{"decision":"select","choice_id":"a","confidence":1.5}"#, "invalid"),
            (r#"{"decision":"execute_everything","choice_id":"a"}"#, "invalid"),
            ("I think it's a", "invalid"),
            ("{not json}", "invalid"),
            ("```python\n{\"decision\":\"select\",\"choice_id\":\"a\"}\n```", "invalid"),
            (
                r#"{"decision":"need_more_info","choice_id":null,"confidence":0.3,"needed_evidence_types":["chat_recoverable_options"]}"#,
                "need_more_info",
            ),
        ];
        for (content, want) in table {
            assert_eq!(interpret(content, IDS, 2).name(), *want, "content {content:?}");
        }
    }

    #[test]
    fn needed_evidence_is_filtered_to_the_allowlist_and_capped() {
        let v = interpret(
            r#"{"decision":"need_more_info","needed_evidence_types":["browser_history","chat_recoverable_options","active_widget_items","active_dashboard_items","chat_recoverable_options"]}"#,
            IDS,
            2,
        );
        let Verdict::NeedMoreInfo { types, dropped, .. } = v else { panic!("{v:?}") };
        assert_eq!(types, [EvidenceType::ChatRecoverableOptions, EvidenceType::ActiveWidgetItems]);
        assert_eq!(dropped, ["browser_history", "active_dashboard_items", "chat_recoverable_options"]);
    }

    fn gate(p: &Policy, confidence: f32, reason: AmbiguityReason) -> Option<&'static str> {
        auto_execute_gate(
            p,
            GateInput { confidence, reason, guard_repeat: false, question_intent: false, force_clarify_only: false, tripped: false },
        )
    }

    #[test]
    fn corroboration_is_reorder_by_default_and_only_none_is_warned_about() {
        let mut a = AutoExecute::default();
        assert_eq!((a.corroboration, a.deterministic_margin), (Corroboration::Reorder, 0.1));
        let names: Vec<&str> = Corroboration::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names, ["reorder", "deterministic", "both", "none"]);
        assert_eq!(toml::from_str::<AutoExecute>("corroboration = \"both\"").unwrap().corroboration, Corroboration::Both);
        assert!(toml::from_str::<AutoExecute>("corroboration = \"maybe\"").is_err());
        a.corroboration = Corroboration::None;
        assert_eq!(a.uncorroborated_warning(), None, "auto-execute is off: nothing executes");
        a.enabled = true;
        assert!(a.uncorroborated_warning().is_some());
        for how in [Corroboration::Reorder, Corroboration::Deterministic, Corroboration::Both] {
            a.corroboration = how;
            assert_eq!(a.uncorroborated_warning(), None, "{how:?}");
        }
    }

    #[test]
    fn default_policy_never_lets_the_llm_execute() {
        let mut p = Policy::defaults();
        p.llm_mode = LlmMode::Live;
        for &r in AmbiguityReason::ALL {
            assert!(gate(&p, 1.0, r).is_some(), "{r:?}");
        }
    }

    #[test]
    fn gates_in_order() {
        let mut p = Policy::defaults();
        p.llm_mode = LlmMode::Live;
        p.auto_execute.enabled = true;
        let r = AmbiguityReason::NoDeterministicMatch;
        assert_eq!(gate(&p, 0.9, r), None);
        assert_eq!(gate(&p, 0.84, r), Some("confidence_below_min"));
        assert_eq!(gate(&p, 0.9, AmbiguityReason::TypoAmbiguous), Some("reason_not_allowed"));
        p.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec();
        for forbidden in NEVER_AUTO_EXECUTE {
            assert_eq!(gate(&p, 1.0, forbidden), Some("reason_not_allowed"), "{forbidden:?}");
        }
        let g =
            GateInput { confidence: 1.0, reason: r, guard_repeat: true, question_intent: false, force_clarify_only: false, tripped: false };
        assert_eq!(auto_execute_gate(&p, g), Some("loop_guard_repeat"));
        let g = GateInput { force_clarify_only: true, ..g };
        assert_eq!(auto_execute_gate(&p, g), Some("force_clarify_only"));
        let g = GateInput { force_clarify_only: false, guard_repeat: false, tripped: true, ..g };
        assert_eq!(auto_execute_gate(&p, g), Some("tripped_by_guardrails"));
        p.llm_mode = LlmMode::Shadow;
        assert_eq!(gate(&p, 1.0, r), Some("llm_not_live"));
    }
}
