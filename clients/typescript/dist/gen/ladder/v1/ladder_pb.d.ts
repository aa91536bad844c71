import type { GenEnum, GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Message } from "@bufbuild/protobuf";
/**
 * Describes the file ladder/v1/ladder.proto.
 */
export declare const file_ladder_v1_ladder: GenFile;
/**
 * @generated from message ladder.v1.ScopeRef
 */
export type ScopeRef = Message<"ladder.v1.ScopeRef"> & {
    /**
     * @generated from field: ladder.v1.Scope scope = 1;
     */
    scope: Scope;
    /**
     * @generated from field: string instance_id = 2;
     */
    instanceId: string;
};
/**
 * Describes the message ladder.v1.ScopeRef.
 * Use `create(ScopeRefSchema)` to create a new message.
 */
export declare const ScopeRefSchema: GenMessage<ScopeRef>;
/**
 * One thing the user may mean. `id` is required and unique within a request.
 *
 * @generated from message ladder.v1.Candidate
 */
export type Candidate = Message<"ladder.v1.Candidate"> & {
    /**
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * @generated from field: string label = 2;
     */
    label: string;
    /**
     * @generated from field: string sublabel = 3;
     */
    sublabel: string;
    /**
     * Trailing disambiguator such as "D" in "Links Panel D". Derived from the
     * label's last single-letter or number token when empty.
     *
     * @generated from field: string badge = 4;
     */
    badge: string;
    /**
     * @generated from field: string kind = 5;
     */
    kind: string;
    /**
     * @generated from field: string path = 6;
     */
    path: string;
    /**
     * Other names; for commands, the phrases that invoke them.
     *
     * @generated from field: repeated string aliases = 7;
     */
    aliases: string[];
    /**
     * How much a wrong execute of this candidate costs (docs/deciding.md#risk).
     * RISK_HIGH (delete, pay, send, cancel a subscription) executes
     * deterministically only on its exact label or an alias, or a position
     * chosen in reply to the clarifier that listed it; never by continuity,
     * a partial, typo or shorthand match, or an LLM pick: a confirmation
     * clarifier lists it first instead.
     *
     * @generated from field: ladder.v1.Risk risk = 8;
     */
    risk: Risk;
};
/**
 * Describes the message ladder.v1.Candidate.
 * Use `create(CandidateSchema)` to create a new message.
 */
export declare const CandidateSchema: GenMessage<Candidate>;
/**
 * @generated from message ladder.v1.OptionSet
 */
export type OptionSet = Message<"ladder.v1.OptionSet"> & {
    /**
     * @generated from field: string option_set_id = 1;
     */
    optionSetId: string;
    /**
     * Where the options are shown; SCOPE_UNSPECIFIED is read as SCOPE_CHAT.
     *
     * @generated from field: ladder.v1.Scope scope = 2;
     */
    scope: Scope;
    /**
     * @generated from field: repeated ladder.v1.Candidate candidates = 3;
     */
    candidates: Candidate[];
    /**
     * Pool reuse (opt-in). Sent with candidates and a non-empty `version`
     * (the client's own: a content hash or a counter), the set is cached for
     * this session. Later turns send the same option_set_id and version with
     * `by_reference = true` and no candidates. A set ladderd no longer holds
     * (evicted, or never sent) is FAILED_PRECONDITION: resend it with its
     * candidates. A version names one content: the same option_set_id and
     * version sent again with other candidates or scope while ladderd holds
     * it is FAILED_PRECONDITION (nothing decided, the held set unchanged):
     * send a new version.
     *
     * @generated from field: string version = 4;
     */
    version: string;
    /**
     * @generated from field: bool by_reference = 5;
     */
    byReference: boolean;
    /**
     * What the screen asks; ASKED_UNSPECIFIED is a plain screen.
     *
     * @generated from field: ladder.v1.Asked asked = 6;
     */
    asked: Asked;
};
/**
 * Describes the message ladder.v1.OptionSet.
 * Use `create(OptionSetSchema)` to create a new message.
 */
export declare const OptionSetSchema: GenMessage<OptionSet>;
/**
 * @generated from message ladder.v1.DecideRequest
 */
export type DecideRequest = Message<"ladder.v1.DecideRequest"> & {
    /**
     * The conversation's id. Whoever names it acts on that session, so it is
     * a capability: a random 128-bit id, never a user id or an email address
     * (docs/security.md, "Session ids are capabilities").
     *
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
    /**
     * @generated from field: string turn_id = 2;
     */
    turnId: string;
    /**
     * @generated from field: string input = 3;
     */
    input: string;
    /**
     * @generated from field: ladder.v1.ScopeRef active_scope = 4;
     */
    activeScope?: ScopeRef | undefined;
    /**
     * @generated from field: ladder.v1.OptionSet options = 5;
     */
    options?: OptionSet | undefined;
    /**
     * @generated from field: repeated ladder.v1.Candidate recoverable_chat_options = 6;
     */
    recoverableChatOptions: Candidate[];
    /**
     * @generated from field: repeated ladder.v1.Candidate widget_items = 7;
     */
    widgetItems: Candidate[];
    /**
     * @generated from field: repeated ladder.v1.Candidate commands = 8;
     */
    commands: Candidate[];
    /**
     * May only make the request safer: an LLM pick never executes.
     *
     * @generated from field: bool force_clarify_only = 9;
     */
    forceClarifyOnly: boolean;
    /**
     * BCP 47 language of the request (e.g. "en", "he"); picks the clarifier
     * question's language. Empty: the configured default.
     *
     * @generated from field: string language = 10;
     */
    language: string;
    /**
     * Free-form labels; `guardrails.cohort_label` names the one that selects
     * the rollout cohort (counted as "other" when `guardrails.cohorts` names
     * cohorts and not that one).
     *
     * @generated from field: map<string, string> labels = 11;
     */
    labels: {
        [key: string]: string;
    };
};
/**
 * Describes the message ladder.v1.DecideRequest.
 * Use `create(DecideRequestSchema)` to create a new message.
 */
export declare const DecideRequestSchema: GenMessage<DecideRequest>;
/**
 * @generated from message ladder.v1.Clarifier
 */
export type Clarifier = Message<"ladder.v1.Clarifier"> & {
    /**
     * @generated from field: string question = 1;
     */
    question: string;
    /**
     * Candidate ids of the resolved pool, in display order.
     *
     * @generated from field: repeated string option_ids = 2;
     */
    optionIds: string[];
    /**
     * The candidate suggested, shown first: the LLM's pick, or the high-risk
     * candidate a confirmation asks about; empty when there is none.
     *
     * @generated from field: string suggested_id = 3;
     */
    suggestedId: string;
    /**
     * What the clarifier asks for (the session's pending clarifier after this
     * turn): "selection_disambiguation", "scope_disambiguation", or
     * "confirmation" (a high-risk candidate the input named, listed first:
     * execute it only when the user confirms, e.g. by choosing it).
     *
     * @generated from field: string kind = 4;
     */
    kind: string;
};
/**
 * Describes the message ladder.v1.Clarifier.
 * Use `create(ClarifierSchema)` to create a new message.
 */
export declare const ClarifierSchema: GenMessage<Clarifier>;
/**
 * @generated from message ladder.v1.LlmReport
 */
export type LlmReport = Message<"ladder.v1.LlmReport"> & {
    /**
     * @generated from field: bool called = 1;
     */
    called: boolean;
    /**
     * @generated from field: bool guard_hit = 2;
     */
    guardHit: boolean;
    /**
     * @generated from field: uint32 latency_ms = 3;
     */
    latencyMs: number;
    /**
     * @generated from field: string suggested_id = 4;
     */
    suggestedId: string;
    /**
     * @generated from field: float confidence = 5;
     */
    confidence: number;
    /**
     * "select", "abstain", "need_more_info", or the failure ("timeout", ...).
     *
     * @generated from field: string verdict = 6;
     */
    verdict: string;
    /**
     * Shadow mode: what the LLM would have decided (never acted upon).
     *
     * @generated from field: bool shadow = 7;
     */
    shadow: boolean;
    /**
     * Corroboration of a pick that passed every other auto-execute gate
     * (auto_execute.corroboration): "agreed", "disagreed", "skipped_no_time"
     * or "failed"; empty when none ran. Only "agreed" lets the pick execute.
     *
     * @generated from field: string corroboration = 8;
     */
    corroboration: string;
    /**
     * The check that ran: "reorder", "deterministic" or "both".
     *
     * @generated from field: string corroboration_method = 9;
     */
    corroborationMethod: string;
    /**
     * The candidate the check pointed to: the second ask's pick (mapped back
     * from its opaque label) or the deterministic ranking's first.
     *
     * @generated from field: string corroborating_id = 10;
     */
    corroboratingId: string;
    /**
     * The second ask's verdict ("select", "abstain", ...) or failure
     * ("timeout", "deadline", ...); empty when no second ask was due.
     *
     * @generated from field: string corroboration_verdict = 11;
     */
    corroborationVerdict: string;
    /**
     * @generated from field: uint32 corroboration_latency_ms = 12;
     */
    corroborationLatencyMs: number;
};
/**
 * Describes the message ladder.v1.LlmReport.
 * Use `create(LlmReportSchema)` to create a new message.
 */
export declare const LlmReportSchema: GenMessage<LlmReport>;
/**
 * @generated from message ladder.v1.Step
 */
export type Step = Message<"ladder.v1.Step"> & {
    /**
     * @generated from field: string rung = 1;
     */
    rung: string;
    /**
     * @generated from field: string outcome = 2;
     */
    outcome: string;
    /**
     * @generated from field: string detail = 3;
     */
    detail: string;
    /**
     * @generated from field: uint64 duration_us = 4;
     */
    durationUs: bigint;
};
/**
 * Describes the message ladder.v1.Step.
 * Use `create(StepSchema)` to create a new message.
 */
export declare const StepSchema: GenMessage<Step>;
/**
 * @generated from message ladder.v1.Decision
 */
export type Decision = Message<"ladder.v1.Decision"> & {
    /**
     * @generated from field: string decision_id = 1;
     */
    decisionId: string;
    /**
     * @generated from field: ladder.v1.Outcome outcome = 2;
     */
    outcome: Outcome;
    /**
     * The candidate to execute, or the command escaped to.
     *
     * @generated from field: string target_id = 3;
     */
    targetId: string;
    /**
     * @generated from field: ladder.v1.Decider decided_by = 4;
     */
    decidedBy: Decider;
    /**
     * How sure the rules were of the candidate they name: HIGH_CONFIDENCE_EXECUTE
     * on a deterministic execute, a LOW_CONFIDENCE_* bucket on a clarifier or
     * NEED_MORE_INFO. UNSPECIFIED on every ESCAPE (nothing is executed here:
     * the turn is handed back, a command included) and where no rung graded
     * the input.
     *
     * @generated from field: ladder.v1.ConfidenceBucket confidence = 5;
     */
    confidence: ConfidenceBucket;
    /**
     * @generated from field: ladder.v1.AmbiguityReason ambiguity_reason = 6;
     */
    ambiguityReason: AmbiguityReason;
    /**
     * @generated from field: ladder.v1.FallbackReason fallback_reason = 7;
     */
    fallbackReason: FallbackReason;
    /**
     * question_intent, cancel, no_active_context, command, declined (the
     * user refused what was proposed: show other options; docs/replies.md).
     *
     * @generated from field: string escape_reason = 8;
     */
    escapeReason: string;
    /**
     * The rung that ended the run: exclusions, scope, deterministic,
     * command, continuity, llm, fallback (see Decider for when to read this
     * and when `decided_by`).
     *
     * @generated from field: string handled_by_tier = 9;
     */
    handledByTier: string;
    /**
     * @generated from field: ladder.v1.Clarifier clarifier = 10;
     */
    clarifier?: Clarifier | undefined;
    /**
     * @generated from field: repeated string needed_evidence_types = 11;
     */
    neededEvidenceTypes: string[];
    /**
     * What the LLM rung did; absent when it did nothing for this decision:
     * the rules settled the turn, or no provider is configured
     * (fallback_reason FALLBACK_REASON_LLM_DISABLED says so).
     *
     * @generated from field: ladder.v1.LlmReport llm = 12;
     */
    llm?: LlmReport | undefined;
    /**
     * @generated from field: string loop_cycle_id = 13;
     */
    loopCycleId: string;
    /**
     * @generated from field: string evidence_fingerprint = 14;
     */
    evidenceFingerprint: string;
    /**
     * @generated from field: repeated ladder.v1.Step trace = 15;
     */
    trace: Step[];
    /**
     * Revision of the configuration that made this decision.
     *
     * @generated from field: string config_revision = 16;
     */
    configRevision: string;
    /**
     * The version under which `options` is held for reuse (see OptionSet);
     * empty when it is not cached.
     *
     * @generated from field: string pool_version = 17;
     */
    poolVersion: string;
    /**
     * The part of the input this decision did not consume, and what it is:
     * on an EXECUTE, execute first, then treat `text` as the user's next turn
     * (answer a question in the chat; send a request to Decide again).
     * Absent when the decision consumed the whole input (docs/replies.md).
     *
     * @generated from field: ladder.v1.FollowUp follow_up = 18;
     */
    followUp?: FollowUp | undefined;
    /**
     * On an ESCAPE with escape_reason question_intent: the candidates the
     * question is about, closest first, at most three; empty when none is
     * close, and on every other outcome. A hint for the app's chat to answer
     * with, never an execute (S8: meaning never decides).
     *
     * @generated from field: repeated string about = 19;
     */
    about: string[];
};
/**
 * Describes the message ladder.v1.Decision.
 * Use `create(DecisionSchema)` to create a new message.
 */
export declare const DecisionSchema: GenMessage<Decision>;
/**
 * @generated from message ladder.v1.FollowUp
 */
export type FollowUp = Message<"ladder.v1.FollowUp"> & {
    /**
     * @generated from field: ladder.v1.FollowUpKind kind = 1;
     */
    kind: FollowUpKind;
    /**
     * The part of the user's input the decision did not consume, as typed.
     *
     * @generated from field: string text = 2;
     */
    text: string;
};
/**
 * Describes the message ladder.v1.FollowUp.
 * Use `create(FollowUpSchema)` to create a new message.
 */
export declare const FollowUpSchema: GenMessage<FollowUp>;
/**
 * @generated from message ladder.v1.EvidenceBlock
 */
export type EvidenceBlock = Message<"ladder.v1.EvidenceBlock"> & {
    /**
     * One of chat_active_options, chat_recoverable_options,
     * active_widget_items, active_dashboard_items, active_workspace_items,
     * scope_disambiguation_hint.
     *
     * @generated from field: string type = 1;
     */
    type: string;
    /**
     * @generated from field: repeated ladder.v1.Candidate candidates = 2;
     */
    candidates: Candidate[];
    /**
     * @generated from field: string excerpt = 3;
     */
    excerpt: string;
};
/**
 * Describes the message ladder.v1.EvidenceBlock.
 * Use `create(EvidenceBlockSchema)` to create a new message.
 */
export declare const EvidenceBlockSchema: GenMessage<EvidenceBlock>;
/**
 * @generated from message ladder.v1.EnrichRequest
 */
export type EnrichRequest = Message<"ladder.v1.EnrichRequest"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
    /**
     * @generated from field: string turn_id = 2;
     */
    turnId: string;
    /**
     * @generated from field: string loop_cycle_id = 3;
     */
    loopCycleId: string;
    /**
     * @generated from field: repeated ladder.v1.EvidenceBlock evidence = 4;
     */
    evidence: EvidenceBlock[];
    /**
     * Recent chat turns, newest first, for the semantic lane. Packed within
     * enrichment.chat_history_max_turns / _max_tokens (cut, never silently
     * dropped); replaces the history of earlier Enrich calls in the cycle.
     *
     * @generated from field: repeated string chat_history = 5;
     */
    chatHistory: string[];
};
/**
 * Describes the message ladder.v1.EnrichRequest.
 * Use `create(EnrichRequestSchema)` to create a new message.
 */
export declare const EnrichRequestSchema: GenMessage<EnrichRequest>;
/**
 * @generated from message ladder.v1.ClarifyRequest
 */
export type ClarifyRequest = Message<"ladder.v1.ClarifyRequest"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
    /**
     * @generated from field: ladder.v1.MessageType type = 2;
     */
    type: MessageType;
    /**
     * e.g. MISSING_LOCATION, MISSING_FOOD, or app-defined.
     *
     * @generated from field: string reason = 3;
     */
    reason: string;
    /**
     * @generated from field: string query = 4;
     */
    query: string;
    /**
     * @generated from field: string ui_language = 5;
     */
    uiLanguage: string;
    /**
     * @generated from field: string request_language = 6;
     */
    requestLanguage: string;
    /**
     * @generated from field: string region_code = 7;
     */
    regionCode: string;
    /**
     * @generated from field: string intent = 8;
     */
    intent: string;
    /**
     * @generated from field: repeated string baseline_missing_fields = 9;
     */
    baselineMissingFields: string[];
    /**
     * @generated from field: repeated ladder.v1.Candidate candidates = 10;
     */
    candidates: Candidate[];
    /**
     * @generated from field: uint32 result_count = 11;
     */
    resultCount: number;
    /**
     * @generated from field: string turn_id = 12;
     */
    turnId: string;
    /**
     * The baseline's own clarifying question, used when the LLM's is rejected.
     *
     * @generated from field: string baseline_question = 13;
     */
    baselineQuestion: string;
};
/**
 * Describes the message ladder.v1.ClarifyRequest.
 * Use `create(ClarifyRequestSchema)` to create a new message.
 */
export declare const ClarifyRequestSchema: GenMessage<ClarifyRequest>;
/**
 * @generated from message ladder.v1.ClarifyResponse
 */
export type ClarifyResponse = Message<"ladder.v1.ClarifyResponse"> & {
    /**
     * @generated from field: string message = 1;
     */
    message: string;
    /**
     * @generated from field: string question = 2;
     */
    question: string;
    /**
     * NONE, ASK_LOCATION, ASK_FOOD, RETRY, ...
     *
     * @generated from field: string suggested_action = 3;
     */
    suggestedAction: string;
    /**
     * @generated from field: bool blocks_search = 4;
     */
    blocksSearch: boolean;
    /**
     * @generated from field: string language = 5;
     */
    language: string;
    /**
     * "llm" or "fallback".
     *
     * @generated from field: string source = 6;
     */
    source: string;
    /**
     * @generated from field: repeated string enforced_invariants = 7;
     */
    enforcedInvariants: string[];
    /**
     * @generated from field: repeated string validation_issues = 8;
     */
    validationIssues: string[];
    /**
     * @generated from field: repeated string missing_fields = 9;
     */
    missingFields: string[];
    /**
     * @generated from field: string schema_version = 10;
     */
    schemaVersion: string;
    /**
     * @generated from field: string prompt_version = 11;
     */
    promptVersion: string;
    /**
     * Which rule of the language chain chose `language`.
     *
     * @generated from field: string language_source = 12;
     */
    languageSource: string;
};
/**
 * Describes the message ladder.v1.ClarifyResponse.
 * Use `create(ClarifyResponseSchema)` to create a new message.
 */
export declare const ClarifyResponseSchema: GenMessage<ClarifyResponse>;
/**
 * A slot to fill. `values` is its closed vocabulary (may be empty for
 * free-text slots, which only hints can fill).
 *
 * @generated from message ladder.v1.SlotSpec
 */
export type SlotSpec = Message<"ladder.v1.SlotSpec"> & {
    /**
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * @generated from field: repeated ladder.v1.SlotValue values = 2;
     */
    values: SlotValue[];
};
/**
 * Describes the message ladder.v1.SlotSpec.
 * Use `create(SlotSpecSchema)` to create a new message.
 */
export declare const SlotSpecSchema: GenMessage<SlotSpec>;
/**
 * @generated from message ladder.v1.SlotValue
 */
export type SlotValue = Message<"ladder.v1.SlotValue"> & {
    /**
     * The value reported when this entry matches.
     *
     * @generated from field: string value = 1;
     */
    value: string;
    /**
     * Other surface forms that mean the same value.
     *
     * @generated from field: repeated string synonyms = 2;
     */
    synonyms: string[];
};
/**
 * Describes the message ladder.v1.SlotValue.
 * Use `create(SlotValueSchema)` to create a new message.
 */
export declare const SlotValueSchema: GenMessage<SlotValue>;
/**
 * @generated from message ladder.v1.ExtractRequest
 */
export type ExtractRequest = Message<"ladder.v1.ExtractRequest"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
    /**
     * @generated from field: string turn_id = 2;
     */
    turnId: string;
    /**
     * @generated from field: string text = 3;
     */
    text: string;
    /**
     * @generated from field: repeated ladder.v1.SlotSpec slots = 4;
     */
    slots: SlotSpec[];
    /**
     * Slots already filled by the app; hints never overwrite them.
     *
     * @generated from field: map<string, string> filled = 5;
     */
    filled: {
        [key: string]: string;
    };
    /**
     * @generated from field: string intent = 6;
     */
    intent: string;
    /**
     * @generated from field: string language = 7;
     */
    language: string;
};
/**
 * Describes the message ladder.v1.ExtractRequest.
 * Use `create(ExtractRequestSchema)` to create a new message.
 */
export declare const ExtractRequestSchema: GenMessage<ExtractRequest>;
/**
 * @generated from message ladder.v1.ExtractedEntity
 */
export type ExtractedEntity = Message<"ladder.v1.ExtractedEntity"> & {
    /**
     * @generated from field: string slot = 1;
     */
    slot: string;
    /**
     * @generated from field: string value = 2;
     */
    value: string;
    /**
     * "baseline", "app", or the hint / agent id that supplied it.
     *
     * @generated from field: string source = 3;
     */
    source: string;
};
/**
 * Describes the message ladder.v1.ExtractedEntity.
 * Use `create(ExtractedEntitySchema)` to create a new message.
 */
export declare const ExtractedEntitySchema: GenMessage<ExtractedEntity>;
/**
 * @generated from message ladder.v1.HintReport
 */
export type HintReport = Message<"ladder.v1.HintReport"> & {
    /**
     * "normalization", "entities", or an agent id.
     *
     * @generated from field: string component = 1;
     */
    component: string;
    /**
     * ok, rejected, error, skipped.
     *
     * @generated from field: string status = 2;
     */
    status: string;
    /**
     * @generated from field: string detail = 3;
     */
    detail: string;
    /**
     * @generated from field: uint32 latency_ms = 4;
     */
    latencyMs: number;
};
/**
 * Describes the message ladder.v1.HintReport.
 * Use `create(HintReportSchema)` to create a new message.
 */
export declare const HintReportSchema: GenMessage<HintReport>;
/**
 * @generated from message ladder.v1.ExtractResponse
 */
export type ExtractResponse = Message<"ladder.v1.ExtractResponse"> & {
    /**
     * @generated from field: repeated ladder.v1.ExtractedEntity entities = 1;
     */
    entities: ExtractedEntity[];
    /**
     * The accepted normalized text; empty when none was accepted.
     *
     * @generated from field: string normalized_text = 2;
     */
    normalizedText: string;
    /**
     * @generated from field: bool normalization_accepted = 3;
     */
    normalizationAccepted: boolean;
    /**
     * The component whose result was used ("baseline" when no hint was).
     *
     * @generated from field: string decided_by = 4;
     */
    decidedBy: string;
    /**
     * @generated from field: repeated ladder.v1.HintReport hints = 5;
     */
    hints: HintReport[];
    /**
     * @generated from field: string schema_version = 6;
     */
    schemaVersion: string;
    /**
     * @generated from field: string prompt_version = 7;
     */
    promptVersion: string;
};
/**
 * Describes the message ladder.v1.ExtractResponse.
 * Use `create(ExtractResponseSchema)` to create a new message.
 */
export declare const ExtractResponseSchema: GenMessage<ExtractResponse>;
/**
 * @generated from message ladder.v1.RecordOutcomeRequest
 */
export type RecordOutcomeRequest = Message<"ladder.v1.RecordOutcomeRequest"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
    /**
     * @generated from field: string decision_id = 2;
     */
    decisionId: string;
    /**
     * @generated from field: ladder.v1.OutcomeKind kind = 3;
     */
    kind: OutcomeKind;
    /**
     * @generated from field: string choice_id = 4;
     */
    choiceId: string;
    /**
     * @generated from field: string turn_id = 5;
     */
    turnId: string;
    /**
     * Where the choice lives; defaults to the decision's scope.
     *
     * @generated from field: ladder.v1.ScopeRef scope = 6;
     */
    scope?: ScopeRef | undefined;
    /**
     * @generated from field: string option_set_id = 7;
     */
    optionSetId: string;
};
/**
 * Describes the message ladder.v1.RecordOutcomeRequest.
 * Use `create(RecordOutcomeRequestSchema)` to create a new message.
 */
export declare const RecordOutcomeRequestSchema: GenMessage<RecordOutcomeRequest>;
/**
 * @generated from message ladder.v1.RecordOutcomeResponse
 */
export type RecordOutcomeResponse = Message<"ladder.v1.RecordOutcomeResponse"> & {
    /**
     * @generated from field: ladder.v1.SessionState session = 1;
     */
    session?: SessionState | undefined;
};
/**
 * Describes the message ladder.v1.RecordOutcomeResponse.
 * Use `create(RecordOutcomeResponseSchema)` to create a new message.
 */
export declare const RecordOutcomeResponseSchema: GenMessage<RecordOutcomeResponse>;
/**
 * @generated from message ladder.v1.ActionEntry
 */
export type ActionEntry = Message<"ladder.v1.ActionEntry"> & {
    /**
     * "execute" (an EXECUTE decision), "command" (an escape to a command), or
     * "outcome" (a RecordOutcome).
     *
     * @generated from field: string type = 1;
     */
    type: string;
    /**
     * @generated from field: string target_ref = 2;
     */
    targetRef: string;
    /**
     * @generated from field: ladder.v1.Scope source_scope = 3;
     */
    sourceScope: Scope;
    /**
     * @generated from field: string option_set_id = 4;
     */
    optionSetId: string;
    /**
     * Milliseconds since the Unix epoch.
     *
     * @generated from field: int64 timestamp_ms = 5;
     */
    timestampMs: bigint;
    /**
     * For "execute": "decided"; for "command": "escaped"; for "outcome":
     * accepted, executed, rejected, corrected.
     *
     * @generated from field: string outcome = 6;
     */
    outcome: string;
};
/**
 * Describes the message ladder.v1.ActionEntry.
 * Use `create(ActionEntrySchema)` to create a new message.
 */
export declare const ActionEntrySchema: GenMessage<ActionEntry>;
/**
 * @generated from message ladder.v1.SessionState
 */
export type SessionState = Message<"ladder.v1.SessionState"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
    /**
     * @generated from field: ladder.v1.ActionEntry last_resolved_action = 2;
     */
    lastResolvedAction?: ActionEntry | undefined;
    /**
     * Newest first, at most 5.
     *
     * @generated from field: repeated ladder.v1.ActionEntry recent_action_trace = 3;
     */
    recentActionTrace: ActionEntry[];
    /**
     * @generated from field: string last_accepted_choice_id = 4;
     */
    lastAcceptedChoiceId: string;
    /**
     * @generated from field: repeated string recent_accepted_choice_ids = 5;
     */
    recentAcceptedChoiceIds: string[];
    /**
     * @generated from field: repeated string recent_rejected_choice_ids = 6;
     */
    recentRejectedChoiceIds: string[];
    /**
     * @generated from field: string active_option_set_id = 7;
     */
    activeOptionSetId: string;
    /**
     * @generated from field: ladder.v1.ScopeRef active_scope = 8;
     */
    activeScope?: ScopeRef | undefined;
    /**
     * @generated from field: ladder.v1.PendingClarifierType pending_clarifier_type = 9;
     */
    pendingClarifierType: PendingClarifierType;
    /**
     * Turns seen in this session.
     *
     * @generated from field: uint64 turn_count = 10;
     */
    turnCount: bigint;
    /**
     * False once the continuity context passed its TTL (turns or time).
     *
     * @generated from field: bool continuity_fresh = 11;
     */
    continuityFresh: boolean;
    /**
     * The open enrichment cycle, if any.
     *
     * @generated from field: string loop_cycle_id = 12;
     */
    loopCycleId: string;
};
/**
 * Describes the message ladder.v1.SessionState.
 * Use `create(SessionStateSchema)` to create a new message.
 */
export declare const SessionStateSchema: GenMessage<SessionState>;
/**
 * @generated from message ladder.v1.GetSessionRequest
 */
export type GetSessionRequest = Message<"ladder.v1.GetSessionRequest"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
};
/**
 * Describes the message ladder.v1.GetSessionRequest.
 * Use `create(GetSessionRequestSchema)` to create a new message.
 */
export declare const GetSessionRequestSchema: GenMessage<GetSessionRequest>;
/**
 * @generated from message ladder.v1.ResetSessionRequest
 */
export type ResetSessionRequest = Message<"ladder.v1.ResetSessionRequest"> & {
    /**
     * @generated from field: string session_id = 1;
     */
    sessionId: string;
};
/**
 * Describes the message ladder.v1.ResetSessionRequest.
 * Use `create(ResetSessionRequestSchema)` to create a new message.
 */
export declare const ResetSessionRequestSchema: GenMessage<ResetSessionRequest>;
/**
 * @generated from message ladder.v1.ResetSessionResponse
 */
export type ResetSessionResponse = Message<"ladder.v1.ResetSessionResponse"> & {
    /**
     * Whether the session existed.
     *
     * @generated from field: bool existed = 1;
     */
    existed: boolean;
};
/**
 * Describes the message ladder.v1.ResetSessionResponse.
 * Use `create(ResetSessionResponseSchema)` to create a new message.
 */
export declare const ResetSessionResponseSchema: GenMessage<ResetSessionResponse>;
/**
 * @generated from message ladder.v1.GetRolloutRequest
 */
export type GetRolloutRequest = Message<"ladder.v1.GetRolloutRequest"> & {};
/**
 * Describes the message ladder.v1.GetRolloutRequest.
 * Use `create(GetRolloutRequestSchema)` to create a new message.
 */
export declare const GetRolloutRequestSchema: GenMessage<GetRolloutRequest>;
/**
 * @generated from message ladder.v1.ResetRolloutRequest
 */
export type ResetRolloutRequest = Message<"ladder.v1.ResetRolloutRequest"> & {
    /**
     * Who re-enabled auto-execute and why (logged).
     *
     * @generated from field: string note = 1;
     */
    note: string;
};
/**
 * Describes the message ladder.v1.ResetRolloutRequest.
 * Use `create(ResetRolloutRequestSchema)` to create a new message.
 */
export declare const ResetRolloutRequestSchema: GenMessage<ResetRolloutRequest>;
/**
 * @generated from message ladder.v1.GuardrailBreach
 */
export type GuardrailBreach = Message<"ladder.v1.GuardrailBreach"> & {
    /**
     * @generated from field: string cohort = 1;
     */
    cohort: string;
    /**
     * wrong_action_rate, clarifier_rate, p95_latency_ms,
     * unchanged_fingerprint_retry_share.
     *
     * @generated from field: string figure = 2;
     */
    figure: string;
    /**
     * @generated from field: double value = 3;
     */
    value: number;
    /**
     * @generated from field: double baseline = 4;
     */
    baseline: number;
    /**
     * @generated from field: double threshold = 5;
     */
    threshold: number;
};
/**
 * Describes the message ladder.v1.GuardrailBreach.
 * Use `create(GuardrailBreachSchema)` to create a new message.
 */
export declare const GuardrailBreachSchema: GenMessage<GuardrailBreach>;
/**
 * @generated from message ladder.v1.CohortFigures
 */
export type CohortFigures = Message<"ladder.v1.CohortFigures"> & {
    /**
     * @generated from field: string cohort = 1;
     */
    cohort: string;
    /**
     * @generated from field: uint64 decisions = 2;
     */
    decisions: bigint;
    /**
     * @generated from field: double clarifier_rate = 3;
     */
    clarifierRate: number;
    /**
     * @generated from field: uint64 executed = 4;
     */
    executed: bigint;
    /**
     * @generated from field: uint64 wrong_actions = 5;
     */
    wrongActions: bigint;
    /**
     * @generated from field: double wrong_action_rate = 6;
     */
    wrongActionRate: number;
    /**
     * @generated from field: double p95_latency_ms = 7;
     */
    p95LatencyMs: number;
    /**
     * @generated from field: uint64 retries = 8;
     */
    retries: bigint;
    /**
     * @generated from field: double unchanged_fingerprint_retry_share = 9;
     */
    unchangedFingerprintRetryShare: number;
    /**
     * "cohort NAME", "previous window", or empty when not compared.
     *
     * @generated from field: string compared_with = 10;
     */
    comparedWith: string;
};
/**
 * Describes the message ladder.v1.CohortFigures.
 * Use `create(CohortFiguresSchema)` to create a new message.
 */
export declare const CohortFiguresSchema: GenMessage<CohortFigures>;
/**
 * @generated from message ladder.v1.RolloutState
 */
export type RolloutState = Message<"ladder.v1.RolloutState"> & {
    /**
     * @generated from field: string config_revision = 1;
     */
    configRevision: string;
    /**
     * "off", "live" or "shadow".
     *
     * @generated from field: string llm_mode = 2;
     */
    llmMode: string;
    /**
     * auto_execute.enabled in the active configuration.
     *
     * @generated from field: bool auto_execute_configured = 3;
     */
    autoExecuteConfigured: boolean;
    /**
     * Turned off by the guardrails until ResetRollout.
     *
     * @generated from field: bool auto_execute_tripped = 4;
     */
    autoExecuteTripped: boolean;
    /**
     * Whether an LLM pick may execute now (configured and not tripped).
     *
     * @generated from field: bool auto_execute_effective = 5;
     */
    autoExecuteEffective: boolean;
    /**
     * Milliseconds since the Unix epoch; 0 when not tripped.
     *
     * @generated from field: int64 tripped_at_ms = 6;
     */
    trippedAtMs: bigint;
    /**
     * @generated from field: repeated ladder.v1.GuardrailBreach trip_breaches = 7;
     */
    tripBreaches: GuardrailBreach[];
    /**
     * @generated from field: repeated ladder.v1.CohortFigures cohorts = 8;
     */
    cohorts: CohortFigures[];
    /**
     * Breaches of the evaluation made for this call.
     *
     * @generated from field: repeated ladder.v1.GuardrailBreach breaches = 9;
     */
    breaches: GuardrailBreach[];
    /**
     * @generated from field: uint64 config_reloads = 10;
     */
    configReloads: bigint;
    /**
     * @generated from field: uint64 config_reload_failures = 11;
     */
    configReloadFailures: bigint;
    /**
     * Why the last reload did not apply (refused, missing, unreadable);
     * empty once a later reload applies.
     *
     * @generated from field: string last_reload_error = 12;
     */
    lastReloadError: string;
    /**
     * guardrails.cohorts: the cohorts judged, each in a slot of its own; a
     * turn of any other cohort counts as "other", reported and not judged.
     * Empty: every cohort a request label names is tracked (up to 64) and
     * judged, "other" included.
     *
     * @generated from field: repeated string named_cohorts = 13;
     */
    namedCohorts: string[];
};
/**
 * Describes the message ladder.v1.RolloutState.
 * Use `create(RolloutStateSchema)` to create a new message.
 */
export declare const RolloutStateSchema: GenMessage<RolloutState>;
/**
 * @generated from enum ladder.v1.Scope
 */
export declare enum Scope {
    /**
     * @generated from enum value: SCOPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: SCOPE_CHAT = 1;
     */
    CHAT = 1,
    /**
     * @generated from enum value: SCOPE_WIDGET = 2;
     */
    WIDGET = 2,
    /**
     * @generated from enum value: SCOPE_DASHBOARD = 3;
     */
    DASHBOARD = 3,
    /**
     * @generated from enum value: SCOPE_WORKSPACE = 4;
     */
    WORKSPACE = 4
}
/**
 * Describes the enum ladder.v1.Scope.
 */
export declare const ScopeSchema: GenEnum<Scope>;
/**
 * How much a wrong execute of a candidate costs. Risk only ever makes a
 * decision safer.
 *
 * @generated from enum ladder.v1.Risk
 */
export declare enum Risk {
    /**
     * Read as RISK_NORMAL, or as RISK_HIGH when the candidate's `kind` is in
     * the configuration's `matching.high_risk_kinds`.
     *
     * @generated from enum value: RISK_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: RISK_NORMAL = 1;
     */
    NORMAL = 1,
    /**
     * @generated from enum value: RISK_HIGH = 2;
     */
    HIGH = 2
}
/**
 * Describes the enum ladder.v1.Risk.
 */
export declare const RiskSchema: GenEnum<Risk>;
/**
 * What the screen asks (docs/replies.md): the app's own question, read
 * like ladderd's own clarifier or confirmation. A reply ("yes", "the
 * second one", "the cheaper one") is read against it.
 *
 * @generated from enum ladder.v1.Asked
 */
export declare enum Asked {
    /**
     * A plain screen: the app asked nothing of these options.
     *
     * @generated from enum value: ASKED_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The app asked the user to confirm its one candidate ("Book a table
     * for 2 at 7:00 PM?"): an affirmation executes it, RISK_HIGH included.
     *
     * @generated from enum value: ASKED_CONFIRMATION = 1;
     */
    CONFIRMATION = 1,
    /**
     * The app asked "which one?" of its candidates: positions count in
     * their order, and a detail only one of them shows picks it.
     *
     * @generated from enum value: ASKED_CHOICE = 2;
     */
    CHOICE = 2
}
/**
 * Describes the enum ladder.v1.Asked.
 */
export declare const AskedSchema: GenEnum<Asked>;
/**
 * @generated from enum ladder.v1.Outcome
 */
export declare enum Outcome {
    /**
     * @generated from enum value: OUTCOME_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: OUTCOME_EXECUTE = 1;
     */
    EXECUTE = 1,
    /**
     * @generated from enum value: OUTCOME_CLARIFY = 2;
     */
    CLARIFY = 2,
    /**
     * @generated from enum value: OUTCOME_ESCAPE = 3;
     */
    ESCAPE = 3,
    /**
     * @generated from enum value: OUTCOME_NEED_MORE_INFO = 4;
     */
    NEED_MORE_INFO = 4
}
/**
 * Describes the enum ladder.v1.Outcome.
 */
export declare const OutcomeSchema: GenEnum<Outcome>;
/**
 * Whose judgement the outcome rests on. Read `decided_by` to know whether
 * to trust an EXECUTE (and for dashboards of who decides); read
 * `handled_by_tier` to know which rung of the ladder ended the run (for
 * debugging and tuning). They differ on purpose: an LLM pick that fails a
 * gate ends in the fallback tier with `decided_by` DETERMINISTIC (the
 * clarifier is the deterministic ranking); a clarifier the LLM reordered is
 * `decided_by` LLM, tier `llm` or `fallback`.
 *
 * @generated from enum ladder.v1.Decider
 */
export declare enum Decider {
    /**
     * Never sent.
     *
     * @generated from enum value: DECIDER_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The deterministic rungs (exclusions, scope, matching, classify) or the
     * deterministic fallback: the same input and pool always decide the same.
     *
     * @generated from enum value: DECIDER_DETERMINISTIC = 1;
     */
    DETERMINISTIC = 1,
    /**
     * The continuity resolver: the session's state (an earlier clarifier,
     * its answer) resolved a tie under its strict rules.
     *
     * @generated from enum value: DECIDER_CONTINUITY = 2;
     */
    CONTINUITY = 2,
    /**
     * The LLM rung: an EXECUTE that passed every auto-execute gate
     * (confidence, allowed reason, corroboration), or a clarifier or
     * NEED_MORE_INFO the model's verdict shaped (its pick suggested first).
     *
     * @generated from enum value: DECIDER_LLM = 3;
     */
    LLM = 3
}
/**
 * Describes the enum ladder.v1.Decider.
 */
export declare const DeciderSchema: GenEnum<Decider>;
/**
 * @generated from enum ladder.v1.ConfidenceBucket
 */
export declare enum ConfidenceBucket {
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_HIGH_CONFIDENCE_EXECUTE = 1;
     */
    HIGH_CONFIDENCE_EXECUTE = 1,
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_LOW_CONFIDENCE_LLM_ELIGIBLE = 2;
     */
    LOW_CONFIDENCE_LLM_ELIGIBLE = 2,
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_LOW_CONFIDENCE_CLARIFIER_ONLY = 3;
     */
    LOW_CONFIDENCE_CLARIFIER_ONLY = 3
}
/**
 * Describes the enum ladder.v1.ConfidenceBucket.
 */
export declare const ConfidenceBucketSchema: GenEnum<ConfidenceBucket>;
/**
 * @generated from enum ladder.v1.AmbiguityReason
 */
export declare enum AmbiguityReason {
    /**
     * @generated from enum value: AMBIGUITY_REASON_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: AMBIGUITY_REASON_MULTI_MATCH_NO_EXACT_WINNER = 1;
     */
    MULTI_MATCH_NO_EXACT_WINNER = 1,
    /**
     * @generated from enum value: AMBIGUITY_REASON_CROSS_SOURCE_TIE = 2;
     */
    CROSS_SOURCE_TIE = 2,
    /**
     * @generated from enum value: AMBIGUITY_REASON_TYPO_AMBIGUOUS = 3;
     */
    TYPO_AMBIGUOUS = 3,
    /**
     * @generated from enum value: AMBIGUITY_REASON_COMMAND_SELECTION_COLLISION = 4;
     */
    COMMAND_SELECTION_COLLISION = 4,
    /**
     * @generated from enum value: AMBIGUITY_REASON_NO_CANDIDATE = 5;
     */
    NO_CANDIDATE = 5,
    /**
     * @generated from enum value: AMBIGUITY_REASON_NO_DETERMINISTIC_MATCH = 6;
     */
    NO_DETERMINISTIC_MATCH = 6
}
/**
 * Describes the enum ladder.v1.AmbiguityReason.
 */
export declare const AmbiguityReasonSchema: GenEnum<AmbiguityReason>;
/**
 * @generated from enum ladder.v1.FallbackReason
 */
export declare enum FallbackReason {
    /**
     * No fallback happened.
     *
     * @generated from enum value: FALLBACK_REASON_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: FALLBACK_REASON_TIMEOUT = 1;
     */
    TIMEOUT = 1,
    /**
     * @generated from enum value: FALLBACK_REASON_RATE_LIMITED = 2;
     */
    RATE_LIMITED = 2,
    /**
     * @generated from enum value: FALLBACK_REASON_TRANSPORT_ERROR = 3;
     */
    TRANSPORT_ERROR = 3,
    /**
     * @generated from enum value: FALLBACK_REASON_ABSTAIN = 4;
     */
    ABSTAIN = 4,
    /**
     * @generated from enum value: FALLBACK_REASON_LOW_CONFIDENCE = 5;
     */
    LOW_CONFIDENCE = 5,
    /**
     * @generated from enum value: FALLBACK_REASON_NO_NEW_EVIDENCE = 6;
     */
    NO_NEW_EVIDENCE = 6,
    /**
     * @generated from enum value: FALLBACK_REASON_BUDGET_EXHAUSTED = 7;
     */
    BUDGET_EXHAUSTED = 7,
    /**
     * @generated from enum value: FALLBACK_REASON_LOOP_GUARD = 8;
     */
    LOOP_GUARD = 8,
    /**
     * @generated from enum value: FALLBACK_REASON_LLM_DISABLED = 9;
     */
    LLM_DISABLED = 9,
    /**
     * The bound on concurrent LLM calls was full; the rung was skipped.
     *
     * @generated from enum value: FALLBACK_REASON_LLM_OVERLOADED = 10;
     */
    LLM_OVERLOADED = 10,
    /**
     * Repeated provider failures opened the circuit breaker; the rung was
     * skipped until the cool-down ends.
     *
     * @generated from enum value: FALLBACK_REASON_CIRCUIT_OPEN = 11;
     */
    CIRCUIT_OPEN = 11,
    /**
     * Too little of the caller's deadline was left to ask the LLM.
     *
     * @generated from enum value: FALLBACK_REASON_DEADLINE = 12;
     */
    DEADLINE = 12,
    /**
     * The shared session store (sessions.backend = "redis") could not be
     * reached: no LLM call is made without a loop-guard claim, and no
     * continuity state is trusted.
     *
     * @generated from enum value: FALLBACK_REASON_STATE_UNAVAILABLE = 13;
     */
    STATE_UNAVAILABLE = 13,
    /**
     * An auto-execute pick that a second ask over the same pool, reordered
     * and relabelled, did not confirm (auto_execute.corroboration).
     *
     * @generated from enum value: FALLBACK_REASON_NOT_CORROBORATED = 14;
     */
    NOT_CORROBORATED = 14,
    /**
     * The LLM's pick, or the continuity resolver's winner, is one the user
     * refused within the continuity TTL (RecordOutcome REJECTED or CORRECTED,
     * in recent_rejected_choice_ids), or any pick while the session awaits a
     * repair (pending_clarifier repair): never executed; the clarifier does
     * not lead with it.
     *
     * @generated from enum value: FALLBACK_REASON_USER_REFUSED = 15;
     */
    USER_REFUSED = 15
}
/**
 * Describes the enum ladder.v1.FallbackReason.
 */
export declare const FallbackReasonSchema: GenEnum<FallbackReason>;
/**
 * @generated from enum ladder.v1.FollowUpKind
 */
export declare enum FollowUpKind {
    /**
     * No follow-up: the decision consumed the whole input.
     *
     * @generated from enum value: FOLLOW_UP_KIND_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The rest asks something ("Yes, what's their address?"): answer it.
     *
     * @generated from enum value: FOLLOW_UP_KIND_QUESTION = 1;
     */
    QUESTION = 1,
    /**
     * The rest is a request of its own ("Sounds good. Can you also book a
     * cab there?"): send it to Decide as the next turn.
     *
     * @generated from enum value: FOLLOW_UP_KIND_REQUEST = 2;
     */
    REQUEST = 2
}
/**
 * Describes the enum ladder.v1.FollowUpKind.
 */
export declare const FollowUpKindSchema: GenEnum<FollowUpKind>;
/**
 * @generated from enum ladder.v1.MessageType
 */
export declare enum MessageType {
    /**
     * @generated from enum value: MESSAGE_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: MESSAGE_TYPE_CLARIFY = 1;
     */
    CLARIFY = 1,
    /**
     * @generated from enum value: MESSAGE_TYPE_SUMMARY = 2;
     */
    SUMMARY = 2,
    /**
     * @generated from enum value: MESSAGE_TYPE_GATE_FAIL = 3;
     */
    GATE_FAIL = 3,
    /**
     * @generated from enum value: MESSAGE_TYPE_SEARCH_FAILED = 4;
     */
    SEARCH_FAILED = 4
}
/**
 * Describes the enum ladder.v1.MessageType.
 */
export declare const MessageTypeSchema: GenEnum<MessageType>;
/**
 * @generated from enum ladder.v1.OutcomeKind
 */
export declare enum OutcomeKind {
    /**
     * @generated from enum value: OUTCOME_KIND_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The user picked an option (e.g. from a clarifier).
     *
     * @generated from enum value: OUTCOME_KIND_ACCEPTED = 1;
     */
    ACCEPTED = 1,
    /**
     * The app executed an action.
     *
     * @generated from enum value: OUTCOME_KIND_EXECUTED = 2;
     */
    EXECUTED = 2,
    /**
     * The user rejected the action or suggestion.
     *
     * @generated from enum value: OUTCOME_KIND_REJECTED = 3;
     */
    REJECTED = 3,
    /**
     * The user corrected it to another choice (`choice_id`).
     *
     * @generated from enum value: OUTCOME_KIND_CORRECTED = 4;
     */
    CORRECTED = 4
}
/**
 * Describes the enum ladder.v1.OutcomeKind.
 */
export declare const OutcomeKindSchema: GenEnum<OutcomeKind>;
/**
 * @generated from enum ladder.v1.PendingClarifierType
 */
export declare enum PendingClarifierType {
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_NONE = 1;
     */
    NONE = 1,
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_SELECTION_DISAMBIGUATION = 2;
     */
    SELECTION_DISAMBIGUATION = 2,
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_SCOPE_DISAMBIGUATION = 3;
     */
    SCOPE_DISAMBIGUATION = 3,
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_MISSING_SLOT = 4;
     */
    MISSING_SLOT = 4,
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_CONFIRMATION = 5;
     */
    CONFIRMATION = 5,
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_REPAIR = 6;
     */
    REPAIR = 6
}
/**
 * Describes the enum ladder.v1.PendingClarifierType.
 */
export declare const PendingClarifierTypeSchema: GenEnum<PendingClarifierType>;
/**
 * Arbiter decides what a chat user meant. Deterministic code decides; an LLM
 * only advises inside a bounded set of candidates; every failure falls back
 * to a safe clarifier.
 *
 * @generated from service ladder.v1.Arbiter
 */
export declare const Arbiter: GenService<{
    /**
     * The user said `input` while these candidates are in play: execute which
     * one, ask what, or hand back?
     *
     * @generated from rpc ladder.v1.Arbiter.Decide
     */
    decide: {
        methodKind: "unary";
        input: typeof DecideRequestSchema;
        output: typeof DecisionSchema;
    };
    /**
     * Evidence asked for by a NEED_MORE_INFO decision; returns a new decision.
     *
     * @generated from rpc ladder.v1.Arbiter.Enrich
     */
    enrich: {
        methodKind: "unary";
        input: typeof EnrichRequestSchema;
        output: typeof DecisionSchema;
    };
    /**
     * A safe, short assistant message in the user's language.
     *
     * @generated from rpc ladder.v1.Arbiter.Clarify
     */
    clarify: {
        methodKind: "unary";
        input: typeof ClarifyRequestSchema;
        output: typeof ClarifyResponseSchema;
    };
    /**
     * Slots (entities) and an optional normalized text, hints accepted only by
     * strict rules.
     *
     * @generated from rpc ladder.v1.Arbiter.Extract
     */
    extract: {
        methodKind: "unary";
        input: typeof ExtractRequestSchema;
        output: typeof ExtractResponseSchema;
    };
    /**
     * What actually happened after a decision.
     *
     * @generated from rpc ladder.v1.Arbiter.RecordOutcome
     */
    recordOutcome: {
        methodKind: "unary";
        input: typeof RecordOutcomeRequestSchema;
        output: typeof RecordOutcomeResponseSchema;
    };
    /**
     * @generated from rpc ladder.v1.Arbiter.GetSession
     */
    getSession: {
        methodKind: "unary";
        input: typeof GetSessionRequestSchema;
        output: typeof SessionStateSchema;
    };
    /**
     * Clears a session's continuity state and the option sets held for it
     * (pool reuse).
     *
     * @generated from rpc ladder.v1.Arbiter.ResetSession
     */
    resetSession: {
        methodKind: "unary";
        input: typeof ResetSessionRequestSchema;
        output: typeof ResetSessionResponseSchema;
    };
    /**
     * Rollout state: the active config revision, the kill switch, the
     * guardrail figures per cohort and any breach.
     *
     * @generated from rpc ladder.v1.Arbiter.GetRollout
     */
    getRollout: {
        methodKind: "unary";
        input: typeof GetRolloutRequestSchema;
        output: typeof RolloutStateSchema;
    };
    /**
     * An operator re-enables auto-execute after the guardrails tripped it.
     *
     * @generated from rpc ladder.v1.Arbiter.ResetRollout
     */
    resetRollout: {
        methodKind: "unary";
        input: typeof ResetRolloutRequestSchema;
        output: typeof RolloutStateSchema;
    };
}>;
