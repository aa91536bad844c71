//! The ladder as one sequence. `decide` lists the rungs in order:
//!
//! canonicalize -> exclusions -> scope -> match -> classify -> collision
//! -> continuity -> llm -> fallback
//!
//! Each rung appends a `Step` to the decision's trace; the rung that decides
//! sets `handled_by_tier`. The two effects the ladder needs from outside —
//! claiming the loop guard in the session store and asking the LLM — come
//! through the `Ports` trait, so this module stays free of any runtime.

use super::canon::canonicalize;
use super::text::tokens;
use super::clarifier::Ask as Question;
use super::classify::{Classification, Evidence, Winner, classify};
use super::continuity::{
    ActionEntry, ActionKind, ActionOutcome, ContinuityState, Cycle, CycleChange, DecidedUpdate, Lane, Now, PendingClarifier,
};
use super::exclusions::hard_exclusion;
use super::fingerprint::fingerprint;
use super::matching::{self, MatchKind, MatchTier, Matches, Query};
use super::policy::{GateInput, LlmAnswer, LlmMode, Policy, Verdict, auto_execute_gate, interpret};
use super::scope::{self, CueParse, Pool, Resolved, Source};
use super::types::*;
use sha2::{Digest, Sha256};
use std::future::Future;
use std::time::Instant;

/// The effects the ladder needs, implemented by the daemon's adapters (and
/// by fakes in tests).
pub trait Ports: Sync {
    /// Atomically records that an LLM attempt starts for `guard_key` in
    /// this session; says whether one already did in this cycle (S5).
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl Future<Output = GuardClaim> + Send;
    /// Asks the LLM once, within the port's own deadline.
    fn arbitrate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send;
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GuardClaim {
    Claimed,
    Repeat { ordering: Vec<String>, suggested_id: Option<String> },
}

/// What the LLM is shown: the bounded pool and nothing else.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmAsk {
    pub canonical_input: String,
    pub reason: AmbiguityReason,
    pub candidates: Vec<AskCandidate>,
    pub continuity: AskContinuity,
    /// Enriched context, packed within the token budgets.
    pub context: LlmContext,
    pub allowed_evidence: Vec<EvidenceType>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AskCandidate {
    pub id: String,
    pub label: String,
    pub kind: String,
    /// Disambiguators: sublabel, path, badge.
    pub hint: String,
}

/// Chat history and excerpts from `Enrich`, within the token budgets.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LlmContext {
    /// Newest first.
    pub chat_history: Vec<String>,
    pub excerpts: Vec<String>,
    /// Entries cut to fit a budget (each cut one ends with " …").
    pub truncated: usize,
    /// Entries left out because a budget was spent (counted, never silent).
    pub omitted: usize,
}

impl LlmContext {
    pub fn is_empty(&self) -> bool {
        self.chat_history.is_empty() && self.excerpts.is_empty()
    }
}

/// A compact, bounded view of continuity, limited to ids of the pool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AskContinuity {
    pub last_accepted_choice_id: Option<String>,
    pub recently_rejected: Vec<String>,
    pub pending_clarifier: &'static str,
}

/// Counts and cuts text in model tokens (the daemon uses a real BPE
/// tokenizer; tests may count words).
pub trait TokenCounter: Sync {
    fn count(&self, text: &str) -> usize;
    /// The longest prefix of `text` with at most `max` tokens.
    fn truncate(&self, text: &str, max: usize) -> String;
}

/// Whitespace-separated words as tokens (tests and examples).
pub struct WordCounter;

impl TokenCounter for WordCounter {
    fn count(&self, text: &str) -> usize {
        text.split_whitespace().count()
    }
    fn truncate(&self, text: &str, max: usize) -> String {
        text.split_whitespace().take(max).collect::<Vec<_>>().join(" ")
    }
}

/// Per-request context.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub policy: &'a Policy,
    /// The session's continuity state with TTLs applied (`ContinuityState::view`).
    pub state: &'a ContinuityState,
    pub now: Now,
    pub decision_id: &'a str,
    /// Used when this decision opens a new unresolved cycle.
    pub new_cycle_id: &'a str,
    pub tokens: &'a dyn TokenCounter,
    /// Auto-execute was turned off by the rollout guardrails.
    pub auto_execute_tripped: bool,
}

/// A `Decide` turn, or an `Enrich` step of an open cycle.
#[derive(Debug, Clone, Copy)]
pub enum Mode<'a> {
    Turn,
    Enrich(&'a Cycle),
}

/// A named decision event (spec section 10) with a short detail.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: &'static str,
    pub detail: String,
}

/// What `decide` produces: the decision, the session change it implies, and
/// what happened on the way (for spans, metrics and decision records).
#[derive(Debug, Clone)]
pub struct Decided {
    pub decision: Decision,
    pub update: DecidedUpdate,
    pub events: Vec<Event>,
    pub canonical_input: String,
    /// The LLM's validated verdict, when it answered.
    pub verdict: Option<Verdict>,
    /// What the LLM port returned (for decision records and replay).
    pub llm_answer: Option<LlmAnswer>,
    /// What the loop-guard claim returned, if the ladder claimed it.
    pub guard: Option<GuardClaim>,
}

impl Decided {
    /// Gives an opened cycle the request it is about (shared, not copied),
    /// so `Enrich` can re-run the ladder on it.
    pub fn attach_request(&mut self, req: &std::sync::Arc<DecideRequest>) {
        if let CycleChange::Open(c) = &mut self.update.cycle {
            c.request = Some(req.clone());
        }
    }
}

/// Runs the ladder for one request.
pub async fn decide<P: Ports>(ctx: &Ctx<'_>, req: &DecideRequest, mode: Mode<'_>, ports: &P) -> Decided {
    let p = ctx.policy;
    let lex = &p.lexicon;
    let mut run = Run::new(ctx, req, mode);

    // 1. Canonicalize once; every later rung uses this text.
    run.begin("canonicalize");
    let canonical = canonicalize(&req.input, lex);
    run.canonical = canonical.clone();
    run.step("ok", format!("{} tokens", tokens(&canonical).count()));

    // 2. Hard exclusions: the only early escapes.
    run.begin("exclusions");
    let exclusion = hard_exclusion(&req.input, &canonical, req, lex);
    run.step(exclusion.map_or("pass", EscapeReason::as_str), String::new());
    if let Some(reason) = exclusion {
        return run.escape(reason, None, Tier::Exclusions);
    }

    // 3. Scope cue, parsed before any widget shortcut, and the pool.
    run.begin("scope");
    let cue = match scope::find_cue(&canonical, lex) {
        CueParse::None => None,
        CueParse::One(c) => Some(c),
        CueParse::Conflict => {
            run.step("conflicting_cues", String::new());
            return run.need_scope(Scope::Unspecified, EvidenceType::ScopeDisambiguationHint);
        }
    };
    let pool = match scope::resolve(req, cue.as_ref().map(|c| c.scope)) {
        Resolved::Pool(pool) => pool,
        Resolved::EmptyScope { scope, needed } => {
            run.step("empty_scope", format!("{} cue with no candidates", scope.as_str()));
            return run.need_scope(scope, needed);
        }
    };
    run.scope = cue.as_ref().map(|c| c.scope);
    let cue_name = cue.as_ref().map_or("none", |c| c.scope.as_str());
    run.record(|s| {
        s.record("ladder.candidate_count", pool.len());
        s.record("ladder.scope", cue_name);
        s.record("ladder.option_set_id", req.option_set_id());
    });
    run.step(cue_name, format!("{} candidates", pool.len()));

    // 4. Match.
    run.begin("match");
    let query = Query::new(cue.map_or_else(|| canonical.clone(), |c| c.rest), lex);
    let matches = matching::run(&req.input, &query, &pool, &req.commands, lex, p.matching, p.tie_len());
    run.step(format!("{} hits", matches.hits.len()), describe_hits(&pool, &matches));

    // 5. Classify: the one place confidence is decided.
    run.begin("classify");
    let class = classify(&Evidence {
        pool: &pool,
        matches: &matches,
        input_is_deictic: query.core.is_empty() || lex.deictic.contains(&query.core),
        fuzzy_margin: p.fuzzy_margin,
    });
    run.class = Some(class);
    let reason_name = class.reason.map_or("", AmbiguityReason::as_str);
    run.record(|s| {
        s.record("ladder.confidence_bucket", class.bucket.as_str());
        s.record("ladder.ambiguity_reason", reason_name);
    });
    run.step(class.bucket.as_str(), reason_name.to_string());

    // 6. Collision guard: a high-confidence winner is either a selection or
    //    a command escape; everything else goes up the ladder.
    run.begin("collision");
    match class.winner {
        Some(Winner::Entry(i)) => {
            let e = pool.entries[i];
            run.event("deterministic_high_confidence_execute", e.cand.id.clone());
            run.step("selection", e.cand.id.clone());
            return run.execute(e.cand.id.clone(), e.source, Decider::Deterministic, Tier::Deterministic);
        }
        Some(Winner::Command(i)) => {
            run.step("command", req.commands[i].id.clone());
            return run.escape(EscapeReason::Command, Some(req.commands[i].id.clone()), Tier::Command);
        }
        None => {}
    }
    let reason = class.reason.unwrap_or(AmbiguityReason::NoDeterministicMatch);
    let tie = rank(&pool, &matches, reason, req, p.tie_len());
    run.open_cycle(&pool, &tie, reason);
    let sources: std::collections::BTreeSet<&str> =
        tie.iter().map(|t| t.entry.map_or("commands", |i| pool.entries[i].source.as_str())).collect();
    let sources = sources.into_iter().collect::<Vec<_>>().join(",");
    run.record(|s| {
        s.record("ladder.sources_in_tie", sources.as_str());
    });
    run.event("deterministic_low_confidence_tie", reason.as_str().to_string());
    run.step("unresolved", reason_name.to_string());

    // 7. Continuity: may resolve a remaining tie under its strict rules.
    run.begin("continuity");
    let resolver = continuity_winner(ctx, req, &pool, &matches, &query, &class, run.guard_suggestion());
    match &resolver {
        Ok(i) => {
            let e = pool.entries[*i];
            run.event("deterministic_continuity_resolve", e.cand.id.clone());
            run.step("resolved", e.cand.id.clone());
            return run.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity);
        }
        Err(why) => run.step("pass", why.to_string()),
    }

    // 8. The LLM rung: the one call site, only for LLM-eligible ties.
    run.begin("llm");
    let llm = if class.bucket == Bucket::LowConfidenceLlmEligible { run.llm_rung(ports, &tie, reason).await } else { LlmStep::NotEligible };
    run.step(llm.name(), llm.detail());

    // 9. Policy and fallback: turn the verdict into a safe decision.
    run.begin("fallback");
    run.finish(llm, &pool, &matches, &query, &class, &tie, reason)
}

/// An `Enrich` call with no enrichment step left: the cycle's clarifier
/// again, with `budget_exhausted`.
pub fn budget_exhausted(ctx: &Ctx<'_>, cycle: &Cycle) -> Decided {
    let language = cycle.request.as_deref().map_or("", |r| r.language.as_str());
    let mut d = Decision::new(Outcome::Clarify, Tier::Fallback);
    d.decision_id = ctx.decision_id.to_string();
    d.config_revision = ctx.policy.revision.clone();
    d.decided_by = Decider::Deterministic;
    d.fallback_reason = Some(FallbackReason::BudgetExhausted);
    d.loop_cycle_id = Some(cycle.id.clone());
    d.evidence_fingerprint = Some(cycle.fingerprint.clone());
    d.clarifier = Some(Clarifier {
        question: ctx.policy.templates.question(Question::Selection, language, &ctx.policy.default_language),
        option_ids: cycle.ordering.clone(),
        suggested_id: cycle.suggested_id.clone(),
    });
    d.trace.push(Step { rung: "fallback".into(), outcome: "clarify".into(), detail: "budget_exhausted".into(), duration_us: 0 });
    Decided {
        decision: d,
        update: DecidedUpdate {
            new_turn: false,
            options_context: None,
            pending: PendingClarifier::SelectionDisambiguation,
            resolved: None,
            cycle: CycleChange::Keep,
        },
        events: vec![Event { name: "continuity_enrichment_budget_exhausted", detail: format!("{} steps", cycle.enrichment_steps) }],
        canonical_input: String::new(),
        verdict: None,
        llm_answer: None,
        guard: None,
    }
}

/// Merges `Enrich` evidence into the cycle's request. Candidates whose id is
/// already in the request are ignored (ids stay unique); excerpts become
/// context for the semantic lane.
pub fn merge_evidence(base: &DecideRequest, evidence: &[(EvidenceType, Vec<Candidate>, String)]) -> (DecideRequest, Vec<String>) {
    let mut req = base.clone();
    let mut seen: std::collections::HashSet<String> = std::iter::empty()
        .chain(req.option_candidates())
        .chain(&req.recoverable_chat_options)
        .chain(&req.widget_items)
        .chain(&req.commands)
        .map(|c| c.id.clone())
        .collect();
    let mut excerpts = Vec::new();
    for (ty, cands, excerpt) in evidence {
        let fresh: Vec<Candidate> = cands.iter().filter(|c| seen.insert(c.id.clone())).cloned().collect();
        match ty {
            EvidenceType::ChatActiveOptions => {
                let set = req.options.get_or_insert_with(|| OptionSet { scope: Scope::Chat, ..Default::default() });
                std::sync::Arc::make_mut(&mut set.candidates).extend(fresh);
            }
            EvidenceType::ChatRecoverableOptions => req.recoverable_chat_options.extend(fresh),
            EvidenceType::ActiveWidgetItems | EvidenceType::ActiveDashboardItems | EvidenceType::ActiveWorkspaceItems => {
                req.widget_items.extend(fresh)
            }
            EvidenceType::ScopeDisambiguationHint => {}
        }
        if !excerpt.trim().is_empty() {
            excerpts.push(excerpt.clone());
        }
    }
    (req, excerpts)
}

/// Candidates worth offering, most plausible first; deterministic for equal
/// scores (pool order). For a collision the command is part of the tie.
fn rank(pool: &Pool<'_>, m: &Matches, reason: AmbiguityReason, req: &DecideRequest, cap: usize) -> Vec<TieItem> {
    let item = |i: usize| {
        let e = pool.entries[i];
        TieItem { id: e.cand.id.clone(), label: e.cand.label.clone(), kind: e.cand.kind.clone(), hint: hint(e.cand), entry: Some(i) }
    };
    let mut out: Vec<TieItem> = match reason {
        AmbiguityReason::NoCandidate => Vec::new(),
        AmbiguityReason::MultiMatchNoExactWinner | AmbiguityReason::CrossSourceTie => m.top().iter().map(|h| item(h.entry)).collect(),
        AmbiguityReason::TypoAmbiguous => m.hits.iter().filter(|h| h.kind == MatchKind::Fuzzy).map(|h| item(h.entry)).collect(),
        AmbiguityReason::CommandSelectionCollision => {
            let mut v: Vec<TieItem> = m.hits.iter().map(|h| item(h.entry)).collect();
            if let Some(c) = m.command {
                let cmd = &req.commands[c.index];
                v.push(TieItem { id: cmd.id.clone(), label: cmd.label.clone(), kind: "command".into(), hint: String::new(), entry: None });
            }
            v
        }
        AmbiguityReason::NoDeterministicMatch => {
            // The hits, then the most similar entries (when the fuzzy rung
            // ranked them), else pool order.
            let mut order: Vec<usize> = m.hits.iter().map(|h| h.entry).take(cap).collect();
            let rest: Box<dyn Iterator<Item = usize>> = match &m.fuzzy {
                Some(ranked) => Box::new(ranked.iter().copied()),
                None => Box::new(0..pool.len()),
            };
            for i in rest {
                if order.len() >= cap {
                    break;
                }
                if !order.contains(&i) {
                    order.push(i);
                }
            }
            order.into_iter().map(item).collect()
        }
    };
    out.truncate(cap);
    out
}

fn hint(c: &Candidate) -> String {
    [c.sublabel.as_str(), c.path.as_str(), c.badge.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(" · ")
}

#[derive(Debug, Clone)]
struct TieItem {
    id: String,
    label: String,
    kind: String,
    hint: String,
    /// The pool entry, `None` for a command in a collision.
    entry: Option<usize>,
}

fn describe_hits(pool: &Pool<'_>, m: &Matches) -> String {
    let mut parts: Vec<String> =
        m.hits.iter().take(5).map(|h| format!("{}:{}:{:.2}", pool.entries[h.entry].cand.id, h.kind.as_str(), h.score)).collect();
    if m.hits.len() > 5 {
        parts.push(format!("+{}", m.hits.len() - 5));
    }
    if m.command.is_some() {
        parts.push("command".into());
    }
    parts.join(" ")
}

/// The continuity resolver (spec section 7): resolves only when the input is
/// command-like, the session's option set and scope equal the request's
/// (fresh state), there is a unique exact/normalized label winner among the
/// active options, and there is no collision or loop-guard conflict.
fn continuity_winner(
    ctx: &Ctx<'_>,
    req: &DecideRequest,
    pool: &Pool<'_>,
    m: &Matches,
    q: &Query,
    class: &Classification,
    guard_suggestion: Option<&str>,
) -> Result<usize, &'static str> {
    let st = ctx.state;
    if q.core == q.full {
        return Err("not_command_like");
    }
    if m.command.is_some() || class.reason == Some(AmbiguityReason::CommandSelectionCollision) {
        return Err("collision");
    }
    let set = req.option_set_id();
    if set.is_empty() || st.active_option_set_id.as_deref() != Some(set) {
        return Err("option_set_changed");
    }
    if st.active_scope != req.active_scope {
        return Err("scope_changed");
    }
    let winners: Vec<usize> = m
        .hits
        .iter()
        .filter(|h| h.kind.tier() == MatchTier::Label && pool.entries[h.entry].source == Source::ActiveOptions)
        .map(|h| h.entry)
        .collect();
    let [winner] = winners[..] else { return Err("no_unique_label_winner") };
    if guard_suggestion.is_some_and(|s| s != pool.entries[winner].cand.id) {
        return Err("loop_guard_conflict");
    }
    Ok(winner)
}

/// What the LLM rung did.
#[derive(Debug, Clone)]
enum LlmStep {
    NotEligible,
    Skipped(FallbackReason),
    GuardRepeat { ordering: Vec<String>, suggested_id: Option<String> },
    Failed { reason: FallbackReason, latency_ms: u32, detail: String },
    Answered { verdict: Verdict, latency_ms: u32 },
}

impl LlmStep {
    fn name(&self) -> &'static str {
        match self {
            LlmStep::NotEligible => "not_eligible",
            LlmStep::Skipped(r) => r.as_str(),
            LlmStep::GuardRepeat { .. } => "loop_guard",
            LlmStep::Failed { reason, .. } => reason.as_str(),
            LlmStep::Answered { verdict, .. } => verdict.name(),
        }
    }
    fn detail(&self) -> String {
        match self {
            LlmStep::Failed { detail, latency_ms, .. } => format!("{detail} after {latency_ms} ms"),
            LlmStep::Answered { verdict: Verdict::Invalid { detail }, .. } => detail.clone(),
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, latency_ms } => {
                format!("{choice_id} at {confidence:.2} in {latency_ms} ms")
            }
            _ => String::new(),
        }
    }
}

/// The working state of one run of the ladder.
struct Run<'a> {
    ctx: &'a Ctx<'a>,
    req: &'a DecideRequest,
    mode: Mode<'a>,
    steps: Vec<Step>,
    events: Vec<Event>,
    canonical: String,
    scope: Option<Scope>,
    class: Option<Classification>,
    cycle: Option<CycleDraft>,
    verdict: Option<Verdict>,
    llm_report: Option<LlmReport>,
    answer: Option<LlmAnswer>,
    guard: Option<GuardClaim>,
    /// The rung in progress: its name, start, and span.
    open: Option<(&'static str, Instant, tracing::Span)>,
}

/// The unresolved cycle this decision belongs to.
#[derive(Debug, Clone)]
struct CycleDraft {
    id: String,
    guard_key: String,
    fingerprint: String,
    lane: Lane,
    llm_attempted: bool,
    llm_calls: u32,
    enrichment_steps: u32,
    excerpts: Vec<String>,
    history: Vec<String>,
}

impl<'a> Run<'a> {
    fn new(ctx: &'a Ctx<'a>, req: &'a DecideRequest, mode: Mode<'a>) -> Self {
        Run {
            ctx,
            req,
            mode,
            steps: Vec::new(),
            events: Vec::new(),
            canonical: String::new(),
            scope: None,
            class: None,
            cycle: None,
            verdict: None,
            llm_report: None,
            answer: None,
            guard: None,
            open: None,
        }
    }

    /// Opens a rung: its span starts now (closing any rung still open).
    fn begin(&mut self, rung: &'static str) {
        self.close_open();
        let span = tracing::info_span!(
            target: "ladder::rung",
            "rung",
            otel.name = rung,
            ladder.rung = rung,
            ladder.outcome = tracing::field::Empty,
            ladder.detail = tracing::field::Empty,
            ladder.candidate_count = tracing::field::Empty,
            ladder.scope = tracing::field::Empty,
            ladder.option_set_id = tracing::field::Empty,
            ladder.confidence_bucket = tracing::field::Empty,
            ladder.ambiguity_reason = tracing::field::Empty,
            ladder.sources_in_tie = tracing::field::Empty,
            ladder.fallback_reason = tracing::field::Empty,
            ladder.handled_by_tier = tracing::field::Empty,
            ladder.loop_cycle_id = tracing::field::Empty,
            ladder.fingerprint_before = tracing::field::Empty,
            ladder.fingerprint_after = tracing::field::Empty,
            ladder.retry_index = tracing::field::Empty,
            ladder.budget_remaining = tracing::field::Empty,
            ladder.llm.latency_ms = tracing::field::Empty,
            ladder.llm.verdict = tracing::field::Empty,
        );
        self.open = Some((rung, Instant::now(), span));
    }

    /// Records attributes on the open rung's span.
    fn record(&self, f: impl FnOnce(&tracing::Span)) {
        if let Some((_, _, span)) = &self.open {
            f(span)
        }
    }

    /// Closes the open rung with its outcome: a `Step` in the trace and the
    /// end of its span.
    fn step(&mut self, outcome: impl Into<String>, detail: String) {
        let Some((rung, started, span)) = self.open.take() else { return };
        let outcome = outcome.into();
        span.record("ladder.outcome", outcome.as_str());
        if !detail.is_empty() {
            span.record("ladder.detail", detail.as_str());
        }
        self.steps.push(Step { rung: rung.into(), outcome, detail, duration_us: started.elapsed().as_micros() as u64 });
    }

    fn close_open(&mut self) {
        if self.open.is_some() {
            self.step("", String::new());
        }
    }

    /// A decision event (spec section 10), on the open rung's span.
    fn event(&mut self, name: &'static str, detail: String) {
        match &self.open {
            Some((_, _, span)) => tracing::info!(target: "ladder::event", parent: span, detail = %detail, "{name}"),
            None => tracing::info!(target: "ladder::event", detail = %detail, "{name}"),
        }
        self.events.push(Event { name, detail });
    }

    fn scope_binding(&self) -> Option<ScopeRef> {
        match (self.scope, &self.req.active_scope) {
            (Some(s), Some(a)) if a.scope == s => Some(a.clone()),
            (Some(s), _) => Some(ScopeRef { scope: s, instance_id: String::new() }),
            (None, a) => a.clone(),
        }
    }

    /// Computes the fingerprint and guard key and picks the cycle id: the
    /// open cycle's when the guard key is the same, a new one otherwise.
    fn open_cycle(&mut self, pool: &Pool<'_>, tie: &[TieItem], reason: AmbiguityReason) {
        let binding = self.scope_binding();
        let (excerpts, history) = match self.mode {
            Mode::Enrich(c) => (c.excerpts.clone(), c.history.clone()),
            Mode::Turn => (Vec::new(), Vec::new()),
        };
        // Chat history is enriched evidence too: it counts in the fingerprint.
        let evidence: Vec<String> = excerpts.iter().chain(&history).cloned().collect();
        let fp = fingerprint(binding.as_ref(), self.req.option_set_id(), pool.entries.iter().map(|e| e.cand), &evidence);
        let mut ids: Vec<&str> = tie.iter().map(|t| t.id.as_str()).collect();
        ids.sort_unstable();
        let guard_key = guard_key(&self.canonical, &ids, self.req.option_set_id(), binding.as_ref());
        let lane = if reason == AmbiguityReason::NoDeterministicMatch { Lane::Semantic } else { Lane::Selection };
        self.cycle = Some(match self.mode {
            Mode::Enrich(c) => CycleDraft {
                id: c.id.clone(),
                guard_key,
                fingerprint: fp,
                lane: c.lane,
                llm_attempted: false,
                llm_calls: c.llm_calls,
                enrichment_steps: c.enrichment_steps,
                excerpts,
                history,
            },
            Mode::Turn => {
                let open = self.ctx.state.open_cycle().filter(|c| c.guard_key == guard_key);
                CycleDraft {
                    id: open.map_or_else(|| self.ctx.new_cycle_id.to_string(), |c| c.id.clone()),
                    guard_key,
                    fingerprint: fp,
                    lane: open.map_or(lane, |c| c.lane),
                    llm_attempted: open.is_some_and(|c| c.llm_attempted),
                    llm_calls: open.map_or(0, |c| c.llm_calls),
                    enrichment_steps: open.map_or(0, |c| c.enrichment_steps),
                    excerpts,
                    history,
                }
            }
        });
    }

    /// The suggestion an earlier LLM attempt made for the same evidence.
    fn guard_suggestion(&self) -> Option<&str> {
        let c = self.cycle.as_ref()?;
        self.ctx.state.open_cycle().filter(|o| o.id == c.id && o.guard_key == c.guard_key).and_then(|o| o.suggested_id.as_deref())
    }

    fn max_llm_calls(&self, lane: Lane) -> u32 {
        let b = &self.ctx.policy.budgets;
        match lane {
            Lane::Selection => b.selection_max_llm_calls,
            Lane::Semantic => 1 + b.semantic_max_enrichment_steps * b.semantic_max_llm_calls_per_step,
        }
    }

    fn max_steps(&self, lane: Lane) -> u32 {
        let b = &self.ctx.policy.budgets;
        match lane {
            Lane::Selection => b.selection_max_enrichment_steps,
            Lane::Semantic => b.semantic_max_enrichment_steps,
        }
    }

    async fn llm_rung<P: Ports>(&mut self, ports: &P, tie: &[TieItem], reason: AmbiguityReason) -> LlmStep {
        let p = self.ctx.policy;
        if p.llm_mode == LlmMode::Off {
            return LlmStep::Skipped(FallbackReason::LlmDisabled);
        }
        let Some(cycle) = self.cycle.clone() else { return LlmStep::Skipped(FallbackReason::LlmDisabled) };
        match self.mode {
            Mode::Enrich(prev) => {
                let (before, after) = (prev.fingerprint.clone(), cycle.fingerprint.clone());
                self.record(|s| {
                    s.record("ladder.fingerprint_before", before.as_str());
                    s.record("ladder.fingerprint_after", after.as_str());
                });
                if prev.fingerprint == cycle.fingerprint {
                    self.event("continuity_enrichment_fingerprint_unchanged", cycle.fingerprint.clone());
                    return LlmStep::Skipped(FallbackReason::NoNewEvidence);
                }
                if cycle.llm_calls >= self.max_llm_calls(cycle.lane) {
                    self.event("continuity_enrichment_budget_exhausted", format!("{} llm calls", cycle.llm_calls));
                    return LlmStep::Skipped(FallbackReason::BudgetExhausted);
                }
                self.event("continuity_enrichment_retry_called", format!("retry {}", cycle.llm_calls));
            }
            Mode::Turn => {
                if cycle.llm_calls >= self.max_llm_calls(cycle.lane) {
                    self.event("continuity_enrichment_budget_exhausted", format!("{} llm calls", cycle.llm_calls));
                    return LlmStep::Skipped(FallbackReason::BudgetExhausted);
                }
                let claim = ports.claim_guard(&cycle.guard_key, &cycle.id).await;
                self.guard = Some(claim.clone());
                if let GuardClaim::Repeat { ordering, suggested_id } = claim {
                    return LlmStep::GuardRepeat { ordering, suggested_id };
                }
            }
        }
        let ask = self.ask(tie, reason);
        let max_calls = self.max_llm_calls(cycle.lane);
        if let Some(c) = self.cycle.as_mut() {
            c.llm_attempted = true;
            c.llm_calls += 1;
        }
        let (retry, left) = (cycle.llm_calls, max_calls.saturating_sub(cycle.llm_calls + 1));
        let cycle_id = cycle.id.clone();
        self.record(|s| {
            s.record("ladder.retry_index", retry);
            s.record("ladder.budget_remaining", left);
            s.record("ladder.loop_cycle_id", cycle_id.as_str());
        });
        self.event("llm_arbitration_called", format!("{} candidates", ask.candidates.len()));
        let span = self.open.as_ref().map_or_else(tracing::Span::current, |(_, _, s)| s.clone());
        let answer = tracing::Instrument::instrument(ports.arbitrate(&ask), span.clone()).await;
        self.answer = Some(answer.clone());
        let latency = match &answer {
            LlmAnswer::Replied { latency_ms, .. } | LlmAnswer::Failed { latency_ms, .. } => *latency_ms,
            LlmAnswer::Skipped { reason: _ } => 0,
        };
        span.record("ladder.llm.latency_ms", latency);
        match answer {
            LlmAnswer::Skipped { reason: r } => LlmStep::Skipped(r),
            LlmAnswer::Failed { reason, latency_ms, detail } => LlmStep::Failed { reason, latency_ms, detail },
            LlmAnswer::Replied { content, latency_ms } => {
                let ids: Vec<&str> = ask.candidates.iter().map(|c| c.id.as_str()).collect();
                let verdict = interpret(&content, &ids, p.budgets.needed_evidence_types_max);
                if let Verdict::Invalid { detail } = &verdict {
                    tracing::warn!(detail = %detail, "llm reply rejected; treating as abstain");
                }
                if let Verdict::NeedMoreInfo { dropped, .. } = &verdict
                    && !dropped.is_empty()
                {
                    tracing::warn!(dropped = ?dropped, "needed_evidence_types outside the allowlist or over the cap dropped");
                }
                self.verdict = Some(verdict.clone());
                span.record("ladder.llm.verdict", verdict.name());
                LlmStep::Answered { verdict, latency_ms }
            }
        }
    }

    fn ask(&self, tie: &[TieItem], reason: AmbiguityReason) -> LlmAsk {
        let p = self.ctx.policy;
        let candidates: Vec<AskCandidate> = tie
            .iter()
            .take(p.llm_max_candidates)
            .map(|t| AskCandidate { id: t.id.clone(), label: t.label.clone(), kind: t.kind.clone(), hint: t.hint.clone() })
            .collect();
        let in_pool = |id: &String| candidates.iter().any(|c| &c.id == id);
        let st = self.ctx.state;
        let continuity = AskContinuity {
            last_accepted_choice_id: st.last_accepted_choice_id.clone().filter(in_pool),
            recently_rejected: st.recent_rejected_choice_ids.iter().filter(|id| in_pool(id)).cloned().collect(),
            pending_clarifier: pending_name(st.pending_clarifier_type),
        };
        let context = self.cycle.as_ref().map(|c| pack_context(&c.history, &c.excerpts, &p.budgets, self.ctx.tokens)).unwrap_or_default();
        LlmAsk {
            canonical_input: self.canonical.clone(),
            reason,
            candidates,
            continuity,
            context,
            allowed_evidence: EvidenceType::ALL.to_vec(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn finish(
        mut self,
        llm: LlmStep,
        pool: &Pool<'_>,
        m: &Matches,
        q: &Query,
        class: &Classification,
        tie: &[TieItem],
        reason: AmbiguityReason,
    ) -> Decided {
        let p = self.ctx.policy;
        let ordering: Vec<String> = tie.iter().map(|t| t.id.clone()).collect();
        let question = match reason {
            AmbiguityReason::CommandSelectionCollision => Question::Collision,
            AmbiguityReason::NoCandidate => Question::NoCandidate,
            _ => Question::Selection,
        };
        let mut report = LlmReport::default();
        let shadow = p.llm_mode == LlmMode::Shadow;
        let (latency, called) = match &llm {
            LlmStep::Answered { latency_ms, .. } | LlmStep::Failed { latency_ms, .. } => (*latency_ms, true),
            _ => (0, false),
        };
        report.called = called;
        report.latency_ms = latency;
        report.verdict = llm.name().to_string();
        report.shadow = shadow && called;

        let clarify = |run: Self,
                       order: Vec<String>,
                       suggested: Option<String>,
                       fallback: Option<FallbackReason>,
                       tier: Tier,
                       by: Decider,
                       report: LlmReport| { run.clarify(order, suggested, fallback, tier, by, report, question) };

        match llm {
            LlmStep::NotEligible => clarify(self, ordering, None, None, Tier::Fallback, Decider::Deterministic, report),
            LlmStep::Skipped(r) => clarify(self, ordering, None, Some(r), Tier::Fallback, Decider::Deterministic, report),
            LlmStep::GuardRepeat { ordering: prev, suggested_id } => {
                report.guard_hit = true;
                report.suggested_id = suggested_id.clone();
                // Reuse the previous order while it still names this tie.
                let order = if !prev.is_empty() && prev.iter().all(|id| ordering.contains(id)) { prev } else { ordering };
                clarify(self, order, suggested_id, Some(FallbackReason::LoopGuard), Tier::Fallback, Decider::Deterministic, report)
            }
            LlmStep::Failed { reason: r, detail, .. } => {
                self.event("llm_arbitration_failed_fallback_clarifier", format!("{}: {detail}", r.as_str()));
                tracing::warn!(fallback_reason = r.as_str(), detail = %detail, "llm failed; clarifying");
                clarify(self, ordering, None, Some(r), Tier::Fallback, Decider::Deterministic, report)
            }
            LlmStep::Answered { .. } if shadow => {
                if let Some(Verdict::Select { choice_id, confidence }) = &self.verdict {
                    report.suggested_id = Some(choice_id.clone());
                    report.confidence = *confidence;
                }
                self.event("llm_shadow_verdict", report.verdict.clone());
                clarify(self, ordering, None, Some(FallbackReason::LlmDisabled), Tier::Fallback, Decider::Deterministic, report)
            }
            LlmStep::Answered { verdict: Verdict::Invalid { detail }, .. } => {
                self.event("llm_arbitration_abstained", format!("invalid: {detail}"));
                clarify(self, ordering, None, Some(FallbackReason::Abstain), Tier::Fallback, Decider::Deterministic, report)
            }
            LlmStep::Answered { verdict: Verdict::Abstain { confidence }, .. } => {
                report.confidence = confidence;
                self.event("llm_arbitration_abstained", String::new());
                clarify(self, ordering, None, Some(FallbackReason::Abstain), Tier::Fallback, Decider::Deterministic, report)
            }
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, .. } => {
                report.suggested_id = Some(choice_id.clone());
                report.confidence = confidence;
                self.event("llm_select", format!("{choice_id} at {confidence:.2}"));
                if confidence < p.llm_confidence_min {
                    return clarify(
                        self,
                        ordering,
                        None,
                        Some(FallbackReason::LowConfidence),
                        Tier::Fallback,
                        Decider::Deterministic,
                        report,
                    );
                }
                let gate = auto_execute_gate(
                    p,
                    GateInput {
                        confidence,
                        reason,
                        guard_repeat: false,
                        question_intent: false,
                        force_clarify_only: self.req.force_clarify_only,
                        tripped: self.ctx.auto_execute_tripped,
                    },
                );
                // S1: only a pool entry can be executed, never a command.
                let entry = tie.iter().find(|t| t.id == choice_id).and_then(|t| t.entry).filter(|i| pool.entries.get(*i).is_some());
                match (gate, entry) {
                    (None, Some(i)) => {
                        self.llm_report = Some(report);
                        let e = pool.entries[i];
                        self.execute(e.cand.id.clone(), e.source, Decider::Llm, Tier::Llm)
                    }
                    (why, _) => {
                        tracing::debug!(gate = why.unwrap_or("not_a_pool_entry"), "auto-execute gate failed; clarifying");
                        clarify(self, ordering, Some(choice_id), None, Tier::Llm, Decider::Llm, report)
                    }
                }
            }
            LlmStep::Answered { verdict: Verdict::NeedMoreInfo { types, confidence, .. }, .. } => {
                report.confidence = confidence;
                self.event("llm_need_more_info", types.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(","));
                // The veto: the continuity resolver runs once.
                match continuity_winner(self.ctx, self.req, pool, m, q, class, None) {
                    Ok(i) => {
                        let e = pool.entries[i];
                        self.event("need_more_info_veto_applied", e.cand.id.clone());
                        self.llm_report = Some(report);
                        self.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity)
                    }
                    Err(why) => {
                        self.event("need_more_info_veto_blocked_reason", why.to_string());
                        let steps_left = self.cycle.as_ref().is_some_and(|c| c.enrichment_steps < self.max_steps(c.lane));
                        if types.is_empty() {
                            clarify(self, ordering, None, Some(FallbackReason::Abstain), Tier::Fallback, Decider::Deterministic, report)
                        } else if !steps_left {
                            self.event("continuity_enrichment_budget_exhausted", "no enrichment step left".into());
                            clarify(
                                self,
                                ordering,
                                None,
                                Some(FallbackReason::BudgetExhausted),
                                Tier::Fallback,
                                Decider::Deterministic,
                                report,
                            )
                        } else {
                            self.need_more_info(ordering, types, report)
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn clarify(
        mut self,
        order: Vec<String>,
        suggested: Option<String>,
        fallback: Option<FallbackReason>,
        tier: Tier,
        by: Decider,
        report: LlmReport,
        question: Question,
    ) -> Decided {
        let p = self.ctx.policy;
        let mut ids = order;
        if let Some(s) = &suggested {
            ids.retain(|id| id != s);
            ids.insert(0, s.clone());
        }
        ids.truncate(p.clarifier_max_options);
        let mut d = Decision::new(Outcome::Clarify, tier);
        d.decided_by = by;
        d.fallback_reason = fallback;
        d.clarifier = Some(Clarifier {
            question: p.templates.question(question, &self.req.language, &p.default_language),
            option_ids: ids,
            suggested_id: suggested,
        });
        self.llm_report = Some(report);
        self.unresolved(d, PendingClarifier::SelectionDisambiguation)
    }

    fn need_more_info(self, order: Vec<String>, types: Vec<EvidenceType>, report: LlmReport) -> Decided {
        let p = self.ctx.policy;
        let mut d = Decision::new(Outcome::NeedMoreInfo, Tier::Llm);
        d.decided_by = Decider::Llm;
        d.needed_evidence_types = types;
        let mut ids = order;
        ids.truncate(p.clarifier_max_options);
        d.clarifier = Some(Clarifier {
            question: p.templates.question(Question::NeedMoreInfo, &self.req.language, &p.default_language),
            option_ids: ids,
            suggested_id: None,
        });
        let mut run = self;
        run.llm_report = Some(report);
        run.unresolved(d, PendingClarifier::SelectionDisambiguation)
    }

    /// An explicit scope with nothing in it: ask the app for that scope's
    /// candidates (an enrichment cycle), never execute.
    fn need_scope(mut self, scope: Scope, needed: EvidenceType) -> Decided {
        self.scope = Some(scope);
        let binding = self.scope_binding();
        let fp = fingerprint(binding.as_ref(), self.req.option_set_id(), std::iter::empty(), &[]);
        let guard_key = guard_key(&self.canonical, &[], self.req.option_set_id(), binding.as_ref());
        let open = self.ctx.state.open_cycle().filter(|c| c.guard_key == guard_key);
        self.cycle = Some(CycleDraft {
            id: match self.mode {
                Mode::Enrich(c) => c.id.clone(),
                Mode::Turn => open.map_or_else(|| self.ctx.new_cycle_id.to_string(), |c| c.id.clone()),
            },
            guard_key,
            fingerprint: fp,
            lane: Lane::Selection,
            llm_attempted: false,
            llm_calls: open.map_or(0, |c| c.llm_calls),
            enrichment_steps: match self.mode {
                Mode::Enrich(c) => c.enrichment_steps,
                Mode::Turn => open.map_or(0, |c| c.enrichment_steps),
            },
            excerpts: Vec::new(),
            history: Vec::new(),
        });
        let steps_left = self.cycle.as_ref().is_some_and(|c| c.enrichment_steps < self.max_steps(c.lane));
        let p = self.ctx.policy;
        let mut d = Decision::new(if steps_left { Outcome::NeedMoreInfo } else { Outcome::Clarify }, Tier::Scope);
        d.decided_by = Decider::Deterministic;
        d.ambiguity_reason = Some(AmbiguityReason::NoCandidate);
        d.confidence = Some(Bucket::LowConfidenceClarifierOnly);
        if steps_left {
            d.needed_evidence_types = vec![needed];
        } else {
            d.fallback_reason = Some(FallbackReason::BudgetExhausted);
        }
        d.clarifier = Some(Clarifier {
            question: p.templates.question(Question::Scope(scope), &self.req.language, &p.default_language),
            option_ids: Vec::new(),
            suggested_id: None,
        });
        self.unresolved(d, PendingClarifier::ScopeDisambiguation)
    }

    fn unresolved(mut self, mut d: Decision, pending: PendingClarifier) -> Decided {
        if let Some(c) = &self.class {
            d.confidence = Some(c.bucket);
            d.ambiguity_reason = c.reason;
        }
        let order = d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default();
        let suggested = d.clarifier.as_ref().and_then(|c| c.suggested_id.clone());
        let cycle = self.cycle.take().map(|c| {
            d.loop_cycle_id = Some(c.id.clone());
            d.evidence_fingerprint = Some(c.fingerprint.clone());
            Cycle {
                id: c.id,
                guard_key: c.guard_key,
                llm_attempted: c.llm_attempted,
                ordering: order,
                suggested_id: suggested.or_else(|| self.llm_report.as_ref().and_then(|r| r.suggested_id.clone())),
                lane: c.lane,
                fingerprint: c.fingerprint,
                enrichment_steps: c.enrichment_steps,
                llm_calls: c.llm_calls,
                // Attached by the caller, who owns the request (no copy).
                request: None,
                excerpts: c.excerpts,
                history: c.history,
                resolved: false,
            }
        });
        let change = cycle.map_or(CycleChange::Keep, |c| CycleChange::Open(Box::new(c)));
        self.done(d, pending, None, change)
    }

    fn execute(mut self, id: String, source: Source, by: Decider, tier: Tier) -> Decided {
        let mut d = Decision::new(Outcome::Execute, tier);
        d.decided_by = by;
        d.target_id = Some(id.clone());
        if let Some(c) = &self.class {
            d.confidence = Some(c.bucket);
            d.ambiguity_reason = c.reason;
        }
        let entry = ActionEntry {
            kind: ActionKind::Execute,
            target_ref: id,
            source_scope: match source {
                Source::ActiveOptions => self.req.options.as_ref().map_or(Scope::Chat, |o| if o.is_chat() { Scope::Chat } else { o.scope }),
                Source::RecoverableChat => Scope::Chat,
                Source::Widget => self.req.active_scope.as_ref().map_or(Scope::Widget, |s| s.scope),
            },
            option_set_id: self.req.option_set_id().to_string(),
            timestamp_ms: self.ctx.now.wall_ms,
            outcome: ActionOutcome::Decided,
        };
        match (self.cycle.take(), self.mode) {
            (Some(c), _) => {
                d.loop_cycle_id = Some(c.id);
                d.evidence_fingerprint = Some(c.fingerprint);
            }
            // An Enrich step resolved before the cycle was re-opened.
            (None, Mode::Enrich(c)) => d.loop_cycle_id = Some(c.id.clone()),
            (None, Mode::Turn) => {}
        }
        self.done(d, PendingClarifier::None, Some(entry), CycleChange::Close)
    }

    fn escape(mut self, reason: EscapeReason, target: Option<String>, tier: Tier) -> Decided {
        let mut d = Decision::new(Outcome::Escape, tier);
        d.decided_by = Decider::Deterministic;
        d.escape_reason = Some(reason);
        d.target_id = target.clone();
        if let Some(c) = &self.class {
            d.confidence = Some(c.bucket);
        }
        let resolved = target.map(|t| ActionEntry {
            kind: ActionKind::Command,
            target_ref: t,
            source_scope: self.req.active_scope.as_ref().map_or(Scope::Unspecified, |s| s.scope),
            option_set_id: self.req.option_set_id().to_string(),
            timestamp_ms: self.ctx.now.wall_ms,
            outcome: ActionOutcome::Escaped,
        });
        // A question leaves the clarification up; anything else ends the cycle.
        let (change, pending) = match reason {
            EscapeReason::QuestionIntent => (CycleChange::Keep, self.ctx.state.pending_clarifier_type),
            _ => (CycleChange::Close, PendingClarifier::None),
        };
        self.cycle = None;
        self.done(d, pending, resolved, change)
    }

    fn done(mut self, mut d: Decision, pending: PendingClarifier, resolved: Option<ActionEntry>, cycle: CycleChange) -> Decided {
        // A rung still open made this decision (the fallback rung).
        if self.open.is_some() {
            let fallback = d.fallback_reason.map_or("", |r| r.as_str());
            let tier = d.handled_by_tier.as_str();
            self.record(|s| {
                s.record("ladder.fallback_reason", fallback);
                s.record("ladder.handled_by_tier", tier);
            });
            self.step(d.outcome.as_str(), fallback.to_string());
        }
        d.decision_id = self.ctx.decision_id.to_string();
        d.config_revision = self.ctx.policy.revision.clone();
        if let Some(r) = self.llm_report {
            d.llm = r;
        }
        d.trace = self.steps;
        let options_context = self
            .req
            .options
            .as_ref()
            .filter(|o| !o.candidates.is_empty())
            .map(|o| (o.option_set_id.clone(), self.req.active_scope.clone()));
        let update = DecidedUpdate { new_turn: matches!(self.mode, Mode::Turn), options_context, pending, resolved, cycle };
        Decided {
            decision: d,
            update,
            events: self.events,
            canonical_input: self.canonical,
            verdict: self.verdict,
            llm_answer: self.answer,
            guard: self.guard,
        }
    }
}

fn pending_name(p: PendingClarifier) -> &'static str {
    match p {
        PendingClarifier::None => "none",
        PendingClarifier::SelectionDisambiguation => "selection_disambiguation",
        PendingClarifier::ScopeDisambiguation => "scope_disambiguation",
        PendingClarifier::MissingSlot => "missing_slot",
        PendingClarifier::Confirmation => "confirmation",
        PendingClarifier::Repair => "repair",
    }
}

/// The loop guard key: canonical input + sorted candidate ids +
/// option_set_id + scope, hashed so it is short and holds no user text.
pub fn guard_key(canonical: &str, sorted_ids: &[&str], option_set_id: &str, scope: Option<&ScopeRef>) -> String {
    let mut h = Sha256::new();
    for part in [canonical, &sorted_ids.join("\u{1f}"), option_set_id] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    if let Some(s) = scope {
        h.update(s.scope.as_str().as_bytes());
        h.update([0u8]);
        h.update(s.instance_id.as_bytes());
    }
    hex::encode(&h.finalize()[..16])
}

/// Packs enriched context for the prompt: chat history first (newest
/// first, at most `chat_history_max_turns` turns and
/// `chat_history_max_tokens` tokens), then excerpts (each at most
/// `snapshot_excerpt_max_tokens`), all within `blended_context_max_tokens`.
/// An entry that does not fit is cut (it ends with " …"), and what no
/// longer fits at all is counted in `omitted`: nothing is dropped silently.
pub fn pack_context(history: &[String], excerpts: &[String], b: &super::policy::Budgets, tokens: &dyn TokenCounter) -> LlmContext {
    let mut out = LlmContext::default();
    let mut blended = b.blended_context_max_tokens;
    let mut history_left = b.chat_history_max_tokens.min(blended);
    for (i, turn) in history.iter().enumerate() {
        if i >= b.chat_history_max_turns || history_left == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(turn, history_left, tokens);
        out.truncated += usize::from(cut);
        history_left -= used;
        blended -= used;
        out.chat_history.push(text);
    }
    for e in excerpts {
        if blended == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(e, b.snapshot_excerpt_max_tokens.min(blended), tokens);
        out.truncated += usize::from(cut);
        blended -= used;
        out.excerpts.push(text);
    }
    out
}

/// `text` within `max` tokens: (text, tokens used, whether it was cut).
fn fit(text: &str, max: usize, tokens: &dyn TokenCounter) -> (String, usize, bool) {
    let n = tokens.count(text);
    if n <= max { (text.to_string(), n, false) } else { (format!("{} …", tokens.truncate(text, max)), max, true) }
}

#[cfg(test)]
mod tests;
