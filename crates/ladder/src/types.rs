//! Domain types of the ladder. These mirror the public contract but carry no
//! protobuf types; `crate::convert` maps between the two.

use serde::{Deserialize, Serialize};

/// Where candidates live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    #[default]
    Unspecified,
    Chat,
    Widget,
    Dashboard,
    Workspace,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Unspecified => "unspecified",
            Scope::Chat => "chat",
            Scope::Widget => "widget",
            Scope::Dashboard => "dashboard",
            Scope::Workspace => "workspace",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ScopeRef {
    pub scope: Scope,
    pub instance_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Candidate {
    pub id: String,
    pub label: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sublabel: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub badge: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

impl Candidate {
    /// A candidate with just an id and a label (tests, examples).
    pub fn new(id: impl Into<String>, label: impl Into<String>) -> Self {
        Candidate { id: id.into(), label: label.into(), ..Default::default() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OptionSet {
    pub option_set_id: String,
    /// Where the options are shown. `Unspecified` is read as chat.
    pub scope: Scope,
    /// Shared, never copied: the pool cache, a stored cycle request and
    /// this request may all hold the same (large) list.
    pub candidates: std::sync::Arc<Vec<Candidate>>,
    /// Pool reuse: the version the set is cached under.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Pool reuse: the candidates come from the session's cache.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_reference: bool,
}

impl OptionSet {
    pub fn is_chat(&self) -> bool {
        matches!(self.scope, Scope::Chat | Scope::Unspecified)
    }
}

/// A validated `Decide` request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DecideRequest {
    pub session_id: String,
    pub turn_id: String,
    pub input: String,
    pub active_scope: Option<ScopeRef>,
    pub options: Option<OptionSet>,
    pub recoverable_chat_options: Vec<Candidate>,
    pub widget_items: Vec<Candidate>,
    pub commands: Vec<Candidate>,
    pub force_clarify_only: bool,
    pub language: String,
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub labels: std::collections::BTreeMap<String, String>,
}

impl DecideRequest {
    /// The active options, empty when none were sent.
    pub fn option_candidates(&self) -> &[Candidate] {
        self.options.as_ref().map(|o| o.candidates.as_slice()).unwrap_or(&[])
    }
    pub fn option_set_id(&self) -> &str {
        self.options.as_ref().map(|o| o.option_set_id.as_str()).unwrap_or("")
    }
    /// Candidates in every list of the request.
    pub fn candidate_count(&self) -> usize {
        self.option_candidates().len() + self.recoverable_chat_options.len() + self.widget_items.len() + self.commands.len()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Execute,
    Clarify,
    Escape,
    NeedMoreInfo,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Execute => "execute",
            Outcome::Clarify => "clarify",
            Outcome::Escape => "escape",
            Outcome::NeedMoreInfo => "need_more_info",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    #[default]
    Unspecified,
    Deterministic,
    Continuity,
    Llm,
}

impl Decider {
    pub fn as_str(self) -> &'static str {
        match self {
            Decider::Unspecified => "unspecified",
            Decider::Deterministic => "deterministic",
            Decider::Continuity => "continuity",
            Decider::Llm => "llm",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Bucket {
    HighConfidenceExecute,
    LowConfidenceLlmEligible,
    LowConfidenceClarifierOnly,
}

impl Bucket {
    pub fn as_str(self) -> &'static str {
        match self {
            Bucket::HighConfidenceExecute => "HIGH_CONFIDENCE_EXECUTE",
            Bucket::LowConfidenceLlmEligible => "LOW_CONFIDENCE_LLM_ELIGIBLE",
            Bucket::LowConfidenceClarifierOnly => "LOW_CONFIDENCE_CLARIFIER_ONLY",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AmbiguityReason {
    MultiMatchNoExactWinner,
    CrossSourceTie,
    TypoAmbiguous,
    CommandSelectionCollision,
    NoCandidate,
    NoDeterministicMatch,
}

impl AmbiguityReason {
    pub const ALL: [AmbiguityReason; 6] = [
        AmbiguityReason::MultiMatchNoExactWinner,
        AmbiguityReason::CrossSourceTie,
        AmbiguityReason::TypoAmbiguous,
        AmbiguityReason::CommandSelectionCollision,
        AmbiguityReason::NoCandidate,
        AmbiguityReason::NoDeterministicMatch,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            AmbiguityReason::MultiMatchNoExactWinner => "multi_match_no_exact_winner",
            AmbiguityReason::CrossSourceTie => "cross_source_tie",
            AmbiguityReason::TypoAmbiguous => "typo_ambiguous",
            AmbiguityReason::CommandSelectionCollision => "command_selection_collision",
            AmbiguityReason::NoCandidate => "no_candidate",
            AmbiguityReason::NoDeterministicMatch => "no_deterministic_match",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallbackReason {
    Timeout,
    RateLimited,
    TransportError,
    Abstain,
    LowConfidence,
    NoNewEvidence,
    BudgetExhausted,
    LoopGuard,
    LlmDisabled,
    LlmOverloaded,
    CircuitOpen,
    Deadline,
    StateUnavailable,
    NotCorroborated,
}

impl FallbackReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FallbackReason::Timeout => "timeout",
            FallbackReason::RateLimited => "rate_limited",
            FallbackReason::TransportError => "transport_error",
            FallbackReason::Abstain => "abstain",
            FallbackReason::LowConfidence => "low_confidence",
            FallbackReason::NoNewEvidence => "no_new_evidence",
            FallbackReason::BudgetExhausted => "budget_exhausted",
            FallbackReason::LoopGuard => "loop_guard",
            FallbackReason::LlmDisabled => "llm_disabled",
            FallbackReason::LlmOverloaded => "llm_overloaded",
            FallbackReason::CircuitOpen => "circuit_open",
            FallbackReason::Deadline => "deadline",
            FallbackReason::StateUnavailable => "state_unavailable",
            FallbackReason::NotCorroborated => "not_corroborated",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeReason {
    QuestionIntent,
    Cancel,
    NoActiveContext,
    Command,
}

impl EscapeReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EscapeReason::QuestionIntent => "question_intent",
            EscapeReason::Cancel => "cancel",
            EscapeReason::NoActiveContext => "no_active_context",
            EscapeReason::Command => "command",
        }
    }
}

/// The tier that made the final decision (`Decision.handled_by_tier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Exclusions,
    Scope,
    Deterministic,
    Command,
    Continuity,
    Llm,
    Fallback,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Exclusions => "exclusions",
            Tier::Scope => "scope",
            Tier::Deterministic => "deterministic",
            Tier::Command => "command",
            Tier::Continuity => "continuity",
            Tier::Llm => "llm",
            Tier::Fallback => "fallback",
        }
    }
}

/// Evidence the app can be asked for (spec section 7 allowlist).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceType {
    ChatActiveOptions,
    ChatRecoverableOptions,
    ActiveWidgetItems,
    ActiveDashboardItems,
    ActiveWorkspaceItems,
    ScopeDisambiguationHint,
}

impl EvidenceType {
    pub const ALL: [EvidenceType; 6] = [
        EvidenceType::ChatActiveOptions,
        EvidenceType::ChatRecoverableOptions,
        EvidenceType::ActiveWidgetItems,
        EvidenceType::ActiveDashboardItems,
        EvidenceType::ActiveWorkspaceItems,
        EvidenceType::ScopeDisambiguationHint,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceType::ChatActiveOptions => "chat_active_options",
            EvidenceType::ChatRecoverableOptions => "chat_recoverable_options",
            EvidenceType::ActiveWidgetItems => "active_widget_items",
            EvidenceType::ActiveDashboardItems => "active_dashboard_items",
            EvidenceType::ActiveWorkspaceItems => "active_workspace_items",
            EvidenceType::ScopeDisambiguationHint => "scope_disambiguation_hint",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Clarifier {
    pub question: String,
    pub option_ids: Vec<String>,
    pub suggested_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LlmReport {
    pub called: bool,
    pub guard_hit: bool,
    pub latency_ms: u32,
    pub suggested_id: Option<String>,
    pub confidence: f32,
    /// "select", "abstain", "need_more_info", or the failure name.
    pub verdict: String,
    pub shadow: bool,
}

/// One rung's entry in `Decision.trace`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub rung: std::borrow::Cow<'static, str>,
    pub outcome: String,
    pub detail: String,
    pub duration_us: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub decision_id: String,
    pub outcome: Outcome,
    pub target_id: Option<String>,
    pub decided_by: Decider,
    pub confidence: Option<Bucket>,
    pub ambiguity_reason: Option<AmbiguityReason>,
    pub fallback_reason: Option<FallbackReason>,
    pub escape_reason: Option<EscapeReason>,
    pub handled_by_tier: Tier,
    pub clarifier: Option<Clarifier>,
    pub needed_evidence_types: Vec<EvidenceType>,
    pub llm: LlmReport,
    pub loop_cycle_id: Option<String>,
    pub evidence_fingerprint: Option<String>,
    pub trace: Vec<Step>,
    pub config_revision: String,
    /// The version under which the request's option set is cached.
    #[serde(default)]
    pub pool_version: Option<String>,
}

impl Decision {
    /// A decision with only its outcome and tier set; the ladder fills in the rest.
    pub fn new(outcome: Outcome, tier: Tier) -> Self {
        Decision {
            decision_id: String::new(),
            outcome,
            target_id: None,
            decided_by: Decider::Unspecified,
            confidence: None,
            ambiguity_reason: None,
            fallback_reason: None,
            escape_reason: None,
            handled_by_tier: tier,
            clarifier: None,
            needed_evidence_types: Vec::new(),
            llm: LlmReport::default(),
            loop_cycle_id: None,
            evidence_fingerprint: None,
            trace: Vec::new(),
            config_revision: String::new(),
            pool_version: None,
        }
    }
}
