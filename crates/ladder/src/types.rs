//! Domain types of the ladder. These mirror the public contract but carry no
//! protobuf types; `crate::convert` maps between the two.

use serde::{Deserialize, Serialize};

wire_enum! {
    "snake_case",
    /// Where candidates live.
    #[derive(PartialOrd, Ord, Default)]
    pub enum Scope {
        #[default]
        Unspecified,
        Chat,
        Widget,
        Dashboard,
        Workspace,
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
    #[serde(default, skip_serializing_if = "Risk::is_unspecified")]
    pub risk: Risk,
}

impl Candidate {
    /// A candidate with just an id and a label (tests, examples).
    pub fn new(id: impl Into<String>, label: impl Into<String>) -> Self {
        Candidate { id: id.into(), label: label.into(), ..Default::default() }
    }

    /// Whether a wrong execute of this candidate is costly
    /// (docs/deciding.md#risk): marked `RISK_HIGH`, or unmarked with a
    /// `kind` the deployment lists in `matching.high_risk_kinds` (compared
    /// ignoring ASCII case). A candidate marked `RISK_NORMAL` is normal
    /// whatever its kind.
    pub fn is_high_risk(&self, high_risk_kinds: &[String]) -> bool {
        match self.risk {
            Risk::High => true,
            Risk::Normal => false,
            Risk::Unspecified => !self.kind.is_empty() && high_risk_kinds.iter().any(|k| k.eq_ignore_ascii_case(self.kind.trim())),
        }
    }
}

wire_enum! {
    "snake_case",
    /// How much a wrong execute of a candidate costs (contract `Risk`).
    #[derive(Default)]
    pub enum Risk {
        /// Normal, or high when the candidate's `kind` is in
        /// `matching.high_risk_kinds`.
        #[default]
        Unspecified,
        Normal,
        High,
    }
}

wire_enum! {
    "snake_case",
    /// What a screen asks (contract `Asked`, docs/replies.md).
    #[derive(Default)]
    pub enum Asked {
        /// A plain screen.
        #[default]
        Unspecified,
        /// The app asked the user to confirm its one candidate.
        Confirmation,
        /// The app asked "which one?" of its candidates.
        Choice,
    }
}

impl Asked {
    pub fn is_plain(&self) -> bool {
        *self == Asked::Unspecified
    }
}

impl Risk {
    fn is_unspecified(&self) -> bool {
        *self == Risk::Unspecified
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
    /// What the screen asks (docs/replies.md): the app's own question.
    #[serde(default, skip_serializing_if = "Asked::is_plain")]
    pub asked: Asked,
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
    /// The first id of `recoverable_chat_options`, `widget_items` or
    /// `commands` that repeats an earlier id of the request (ids must be
    /// unique within a request). The option set's own ids are taken as
    /// unique: they were checked when the set was first sent, so a request
    /// with no other list costs nothing here.
    pub fn duplicate_id(&self) -> Option<DuplicateId<'_>> {
        let others = [
            ("recoverable_chat_options", &self.recoverable_chat_options),
            ("widget_items", &self.widget_items),
            ("commands", &self.commands),
        ];
        if others.iter().all(|(_, l)| l.is_empty()) {
            return None;
        }
        let mut seen: rustc_hash::FxHashSet<&str> = self.option_candidates().iter().map(|c| c.id.as_str()).collect();
        for (field, list) in others {
            for (index, c) in list.iter().enumerate() {
                if !seen.insert(c.id.as_str()) {
                    return Some(DuplicateId { field, index, id: &c.id });
                }
            }
        }
        None
    }

    /// Candidates in every list of the request.
    pub fn candidate_count(&self) -> usize {
        self.option_candidates().len() + self.recoverable_chat_options.len() + self.widget_items.len() + self.commands.len()
    }

    /// The heap the candidates of every list take (`Candidate::approx_bytes`).
    pub fn candidate_bytes(&self) -> usize {
        self.candidate_bytes_with(None)
    }

    /// `candidate_bytes`, with its options' part given when known (counted
    /// when their list was interned: `PoolMemo::facts`).
    pub fn candidate_bytes_with(&self, options: Option<usize>) -> usize {
        let bytes = |l: &[Candidate]| l.iter().map(Candidate::approx_bytes).sum::<usize>();
        options.unwrap_or_else(|| bytes(self.option_candidates()))
            + [&self.recoverable_chat_options, &self.widget_items, &self.commands].into_iter().map(|l| bytes(l)).sum::<usize>()
    }
}

impl Candidate {
    /// The memory this candidate takes, approximately: the struct, each
    /// string's bytes, and the allocator's rounding (16 bytes a string).
    /// What the byte budgets of held pools and open cycles count.
    pub fn approx_bytes(&self) -> usize {
        let text = |s: &String| if s.is_empty() { 0 } else { s.len() + 16 };
        std::mem::size_of::<Candidate>()
            + [&self.id, &self.label, &self.sublabel, &self.badge, &self.kind, &self.path].into_iter().map(text).sum::<usize>()
            + self.aliases.iter().map(|a| std::mem::size_of::<String>() + text(a)).sum::<usize>()
    }
}

/// Where a repeated id is: `field[index].id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuplicateId<'a> {
    pub field: &'static str,
    pub index: usize,
    pub id: &'a str,
}

wire_enum! {
    "snake_case",
    pub enum Outcome {
        Execute,
        Clarify,
        Escape,
        NeedMoreInfo,
    }
}

wire_enum! {
    "snake_case",
    #[derive(Default)]
    pub enum Decider {
        #[default]
        Unspecified,
        Deterministic,
        Continuity,
        Llm,
    }
}

wire_enum! {
    "SCREAMING_SNAKE_CASE",
    pub enum Bucket {
        HighConfidenceExecute,
        LowConfidenceLlmEligible,
        LowConfidenceClarifierOnly,
    }
}

wire_enum! {
    "snake_case",
    #[derive(PartialOrd, Ord)]
    pub enum AmbiguityReason {
        MultiMatchNoExactWinner,
        CrossSourceTie,
        TypoAmbiguous,
        CommandSelectionCollision,
        NoCandidate,
        NoDeterministicMatch,
    }
}

wire_enum! {
    "snake_case",
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
        /// A pick the user refused within the continuity TTL (or any pick
        /// while the session awaits a repair): never executed.
        UserRefused,
    }
}

wire_enum! {
    "snake_case",
    pub enum EscapeReason {
        QuestionIntent,
        Cancel,
        NoActiveContext,
        Command,
        /// The user refused what was proposed: the app
        /// shows other options; `Cancel` abandons the task.
        Declined,
    }
}

wire_enum! {
    "snake_case",
    /// The tier that made the final decision (`Decision.handled_by_tier`).
    pub enum Tier {
        Exclusions,
        Scope,
        /// A reply read against what was asked (docs/replies.md).
        Reply,
        Deterministic,
        Command,
        Continuity,
        Llm,
        Fallback,
    }
}

wire_enum! {
    "snake_case",
    /// Evidence the app can be asked for: the only types a
    /// `NEED_MORE_INFO` names (docs/continuity.md#need_more_info-and-enrich).
    #[derive(PartialOrd, Ord)]
    pub enum EvidenceType {
        ChatActiveOptions,
        ChatRecoverableOptions,
        ActiveWidgetItems,
        ActiveDashboardItems,
        ActiveWorkspaceItems,
        ScopeDisambiguationHint,
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Clarifier {
    pub question: String,
    pub option_ids: Vec<String>,
    pub suggested_id: Option<String>,
    /// What the clarifier asks for; the session's pending clarifier.
    #[serde(default)]
    pub kind: PendingClarifier,
}

wire_enum! {
    "snake_case",
    /// The clarifier a session waits on an answer to (docs/continuity.md).
    #[derive(Default)]
    pub enum PendingClarifier {
        #[default]
        None,
        SelectionDisambiguation,
        ScopeDisambiguation,
        MissingSlot,
        /// Asks to confirm a high-risk candidate, listed first
        /// (docs/deciding.md#risk).
        Confirmation,
        Repair,
    }
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
    /// Corroboration, when a pick that passed every other gate was
    /// checked: "agreed", "disagreed", "skipped_no_time" or "failed";
    /// empty when no corroboration ran. (Fields with defaults: records
    /// written before they existed still read.)
    #[serde(default)]
    pub corroboration: String,
    /// The configured check that ran: "reorder", "deterministic" or "both".
    #[serde(default)]
    pub corroboration_method: String,
    /// The corroborating pick: the second ask's (its opaque label mapped
    /// back to the real id), or the deterministic ranking's first.
    #[serde(default)]
    pub corroborating_id: Option<String>,
    /// The second ask's verdict ("select", "abstain", ..., or the failure);
    /// empty when no second ask was due.
    #[serde(default)]
    pub corroboration_verdict: String,
    #[serde(default)]
    pub corroboration_latency_ms: u32,
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
    /// The part of the input the decision did not consume (a question or a
    /// request after a yes); the app handles it as the user's next turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<FollowUp>,
    /// On an `ESCAPE` with `question_intent`: the candidates the question
    /// is about, closest first, at most three (`about`); empty otherwise.
    /// A hint for the app's chat, never an execute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub about: Vec<String>,
}

wire_enum! {
    "snake_case",
    /// What the rest of a turn is (contract `FollowUpKind`).
    pub enum FollowUpKind {
        /// It asks something: the app's chat answers it.
        Question,
        /// A request of its own: the app sends it to `Decide` as the next turn.
        Request,
    }
}

/// The part of an input a decision did not consume (contract `FollowUp`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowUp {
    pub kind: FollowUpKind,
    /// The rest of the input, as the user typed it.
    pub text: String,
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
            follow_up: None,
            about: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::MessageType;
    use crate::continuity::{ActionKind, ActionOutcome, Lane, PendingClarifier};
    use crate::extract::Capability;

    /// A wire enum's names as clients, dashboards and decision records
    /// read them, written out: each variant's `as_str` and its serde JSON
    /// are the pinned name, in declaration order, and `parse` reads it back.
    /// A renamed, added or reordered variant fails here until the name is
    /// pinned on purpose (the names are a contract, not a derivation).
    fn pinned<T: Serialize + Copy + std::fmt::Debug + PartialEq>(
        all: &[T],
        as_str: impl Fn(T) -> &'static str,
        parse: impl Fn(&str) -> Option<T>,
        names: &[&str],
    ) {
        let got: Vec<&str> = all.iter().map(|v| as_str(*v)).collect();
        assert_eq!(got, names);
        for (&v, name) in all.iter().zip(names) {
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::Value::String(name.to_string()), "{v:?}");
            assert_eq!(parse(name), Some(v));
        }
    }

    #[test]
    fn every_wire_name_is_the_pinned_one() {
        use crate::{extract::HintStatus, matching::MatchKind, policy::LlmMode, scope::Source};
        pinned(Scope::ALL, Scope::as_str, Scope::parse, &["unspecified", "chat", "widget", "dashboard", "workspace"]);
        pinned(Outcome::ALL, Outcome::as_str, Outcome::parse, &["execute", "clarify", "escape", "need_more_info"]);
        pinned(Decider::ALL, Decider::as_str, Decider::parse, &["unspecified", "deterministic", "continuity", "llm"]);
        pinned(FollowUpKind::ALL, FollowUpKind::as_str, FollowUpKind::parse, &["question", "request"]);
        pinned(
            Bucket::ALL,
            Bucket::as_str,
            Bucket::parse,
            &["HIGH_CONFIDENCE_EXECUTE", "LOW_CONFIDENCE_LLM_ELIGIBLE", "LOW_CONFIDENCE_CLARIFIER_ONLY"],
        );
        pinned(
            AmbiguityReason::ALL,
            AmbiguityReason::as_str,
            AmbiguityReason::parse,
            &[
                "multi_match_no_exact_winner",
                "cross_source_tie",
                "typo_ambiguous",
                "command_selection_collision",
                "no_candidate",
                "no_deterministic_match",
            ],
        );
        pinned(
            FallbackReason::ALL,
            FallbackReason::as_str,
            FallbackReason::parse,
            &[
                "timeout",
                "rate_limited",
                "transport_error",
                "abstain",
                "low_confidence",
                "no_new_evidence",
                "budget_exhausted",
                "loop_guard",
                "llm_disabled",
                "llm_overloaded",
                "circuit_open",
                "deadline",
                "state_unavailable",
                "not_corroborated",
                "user_refused",
            ],
        );
        pinned(
            EscapeReason::ALL,
            EscapeReason::as_str,
            EscapeReason::parse,
            &["question_intent", "cancel", "no_active_context", "command", "declined"],
        );
        pinned(
            Tier::ALL,
            Tier::as_str,
            Tier::parse,
            &["exclusions", "scope", "reply", "deterministic", "command", "continuity", "llm", "fallback"],
        );
        pinned(
            EvidenceType::ALL,
            EvidenceType::as_str,
            EvidenceType::parse,
            &[
                "chat_active_options",
                "chat_recoverable_options",
                "active_widget_items",
                "active_dashboard_items",
                "active_workspace_items",
                "scope_disambiguation_hint",
            ],
        );
        pinned(
            PendingClarifier::ALL,
            PendingClarifier::as_str,
            PendingClarifier::parse,
            &["none", "selection_disambiguation", "scope_disambiguation", "missing_slot", "confirmation", "repair"],
        );
        pinned(ActionKind::ALL, ActionKind::as_str, ActionKind::parse, &["execute", "command", "outcome"]);
        pinned(
            ActionOutcome::ALL,
            ActionOutcome::as_str,
            ActionOutcome::parse,
            &["decided", "escaped", "accepted", "executed", "rejected", "corrected"],
        );
        pinned(Lane::ALL, Lane::as_str, Lane::parse, &["selection", "semantic"]);
        pinned(MessageType::ALL, MessageType::as_str, MessageType::parse, &["clarify", "summary", "gate_fail", "search_failed"]);
        pinned(Capability::ALL, Capability::as_str, Capability::parse, &["normalization", "entities"]);
        pinned(Source::ALL, Source::as_str, Source::parse, &["options", "recoverable_chat_options", "widget_items"]);
        pinned(
            MatchKind::ALL,
            MatchKind::as_str,
            MatchKind::parse,
            &["fuzzy", "containment", "typo", "partial", "shorthand", "badge", "ordinal", "label", "alias", "normalized", "exact"],
        );
        pinned(HintStatus::ALL, HintStatus::as_str, HintStatus::parse, &["ok", "rejected", "error", "skipped"]);
        pinned(LlmMode::ALL, LlmMode::as_str, LlmMode::parse, &["off", "live", "shadow"]);
    }

    #[test]
    fn names_that_clients_and_dashboards_read_are_unchanged() {
        assert_eq!(FallbackReason::NotCorroborated.as_str(), "not_corroborated");
        assert_eq!(FallbackReason::StateUnavailable.as_str(), "state_unavailable");
        assert_eq!(Bucket::LowConfidenceLlmEligible.as_str(), "LOW_CONFIDENCE_LLM_ELIGIBLE");
        assert_eq!(AmbiguityReason::MultiMatchNoExactWinner.as_str(), "multi_match_no_exact_winner");
        assert_eq!(EvidenceType::ChatRecoverableOptions.as_str(), "chat_recoverable_options");
        assert_eq!(crate::scope::Source::RecoverableChat.as_str(), "recoverable_chat_options");
        assert_eq!(crate::matching::MatchKind::Normalized.as_str(), "normalized");
        assert_eq!(AmbiguityReason::parse("nonsense"), None);
    }
}
