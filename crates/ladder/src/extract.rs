//! Slot extraction (`Extract`, docs/clarify-and-extract.md). The
//! deterministic baseline always has the final word: LLM or agent hints are
//! accepted only by the strict rules here, fill only empty slots, and any
//! error inside a hint leaves the baseline unchanged.
//!
//! The sequence, all pure: [`baseline`]; for each hint component, [`plan`]
//! (skip it, or ask it for what its capabilities and the switches allow);
//! the daemon asks the components that are to be asked, concurrently, and
//! passes each reply or failure to [`outcome`]; [`settle`] chooses one by
//! the lowest `(status, applicable, latency_ms, id)` and applies it.
//!
//! The rules, as the tests name them:
//! - normalization hint N1-N4: N1 present, N2 not empty, N3 at most
//!   `max(2 * len(original), 10)` characters, N4 shares a lowercase
//!   whitespace token with the original; when accepted the baseline re-runs
//!   on it for the slots still empty;
//! - entity hint: a value only when it is a case-insensitive substring of
//!   the original text, for a requested slot that is still empty, the first
//!   such value of a slot wins;
//! - the agent scoring tuple: the lowest `(status ok=0 rejected=1 error=2
//!   skipped=3, applicable 0/1, latency_ms, component id)` decides;
//! - sampling: the same (component, turn id) always gets the same verdict;
//! - switches: everything is off by default (`extract.enabled`, then each
//!   hint kind).

use super::canon::canonicalize;
use super::cost::{DeadlinePassed, DeadlineWatch};
use super::lexicon::Lexicon;
use super::text::words;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

pub const SCHEMA_VERSION: &str = "extraction.v1";

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlotValue {
    pub value: String,
    pub synonyms: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlotSpec {
    pub name: String,
    /// The closed vocabulary; empty for free-text slots (only hints fill them).
    pub values: Vec<SlotValue>,
}

/// A validated `Extract` request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExtractRequest {
    pub session_id: String,
    pub turn_id: String,
    pub text: String,
    pub slots: Vec<SlotSpec>,
    /// Slots the app already filled; never overwritten.
    pub filled: BTreeMap<String, String>,
    pub intent: String,
    pub language: String,
}

/// A filled slot and who filled it ("app", "baseline", or a hint component).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filled {
    pub value: String,
    pub source: String,
}

pub type Slots = BTreeMap<String, Filled>;

pub use super::cost::BYTE_COST;

/// The work `baseline` asks for, in the unit of `cost::work` for
/// `Decide` (a word comparison): the words of the text times the words of
/// the vocabulary (each slot value and synonym, its words plus one), since
/// each form is slid over the text, plus `BYTE_COST` per byte of text and
/// vocabulary to canonicalize. With `normalization`, the product counts
/// three times: an accepted normalized text (up to twice as long) runs the
/// baseline again. The daemon refuses a request over
/// `limits.match_work_max` before any of it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    pub text_words: u64,
    pub vocabulary_words: u64,
    pub bytes: u64,
    pub total: u64,
}

pub fn work(req: &ExtractRequest, normalization: bool) -> Work {
    let words = |s: &str| words(s).count() as u64;
    let text_words = words(&req.text).max(1);
    let forms = || req.slots.iter().flat_map(|s| &s.values).flat_map(|v| std::iter::once(&v.value).chain(&v.synonyms));
    let vocabulary_words: u64 = forms().map(|f| words(f) + 1).sum::<u64>().max(1);
    let bytes = req.text.len() as u64 + forms().map(|f| f.len() as u64).sum::<u64>();
    let product = text_words.saturating_mul(vocabulary_words).saturating_mul(if normalization { 3 } else { 1 });
    Work { text_words, vocabulary_words, bytes, total: product.saturating_add(bytes.saturating_mul(BYTE_COST)) }
}

/// The deterministic extraction: the app's filled slots, then each empty
/// slot's vocabulary matched against the canonical text (whole words; the
/// earliest occurrence wins, then the longest phrase).
pub fn baseline(req: &ExtractRequest, text: &str, source: &str, lex: &Lexicon, slots: Slots) -> Slots {
    // No deadline: it cannot pass.
    baseline_until(req, text, source, lex, slots, &DeadlineWatch::default()).unwrap_or_default()
}

/// `baseline`, stopping when `stop` passes (checked as each form slides
/// over the text): `Err(DeadlinePassed)`, the caller is gone.
pub fn baseline_until(
    req: &ExtractRequest,
    text: &str,
    source: &str,
    lex: &Lexicon,
    mut slots: Slots,
    stop: &DeadlineWatch,
) -> Result<Slots, DeadlinePassed> {
    for (k, v) in &req.filled {
        slots.entry(k.clone()).or_insert_with(|| Filled { value: v.clone(), source: "app".into() });
    }
    let canon = canonicalize(text, lex);
    let toks: Vec<&str> = words(&canon).collect();
    for spec in &req.slots {
        if slots.contains_key(&spec.name) {
            continue;
        }
        let mut best: Option<(usize, usize, &str)> = None; // (position, -len, value)
        for v in &spec.values {
            for form in std::iter::once(&v.value).chain(&v.synonyms) {
                if stop.passed() {
                    return Err(DeadlinePassed);
                }
                let c = canonicalize(form, lex);
                let ft: Vec<&str> = words(&c).collect();
                if ft.is_empty() || ft.len() > toks.len() {
                    continue;
                }
                let mut found = None;
                for (pos, w) in toks.windows(ft.len()).enumerate() {
                    if stop.passed() {
                        return Err(DeadlinePassed);
                    }
                    if w == ft.as_slice() {
                        found = Some(pos);
                        break;
                    }
                }
                if let Some(pos) = found {
                    let better = match best {
                        None => true,
                        Some((p, l, _)) => pos < p || (pos == p && ft.len() > l),
                    };
                    if better {
                        best = Some((pos, ft.len(), v.value.as_str()));
                    }
                }
            }
        }
        if let Some((_, _, value)) = best {
            slots.insert(spec.name.clone(), Filled { value: value.to_string(), source: source.to_string() });
        }
    }
    Ok(slots)
}

/// Normalization hint: rejected when missing, empty, longer than
/// `max(2 * len(original), 10)` characters, or sharing no lowercase
/// whitespace token with the original.
pub fn accept_normalization(original: &str, proposed: Option<&str>) -> Result<String, &'static str> {
    let Some(p) = proposed else { return Err("normalization_missing") };
    let p = p.trim();
    if p.is_empty() {
        return Err("normalization_empty");
    }
    let max = (2 * original.chars().count()).max(10);
    if p.chars().count() > max {
        return Err("normalization_too_long");
    }
    let orig: Vec<String> = original.split_whitespace().map(str::to_lowercase).collect();
    if !p.split_whitespace().map(str::to_lowercase).any(|t| orig.contains(&t)) {
        return Err("normalization_shares_no_token");
    }
    Ok(p.to_string())
}

/// Entity hints: a value is accepted only when it is a case-insensitive
/// substring of the original text (the first such value of a slot wins),
/// for a requested slot that is still empty. Returns what was accepted and
/// why the rest was not.
pub fn accept_entities(
    original: &str,
    proposed: &BTreeMap<String, Vec<String>>,
    requested: &[SlotSpec],
    current: &Slots,
) -> (Vec<(String, String)>, Vec<String>) {
    let lower = original.to_lowercase();
    let mut accepted = Vec::new();
    let mut rejected = Vec::new();
    for (slot, values) in proposed {
        if !requested.iter().any(|s| &s.name == slot) {
            rejected.push(format!("{slot}: not a requested slot"));
            continue;
        }
        if current.contains_key(slot) {
            rejected.push(format!("{slot}: already filled"));
            continue;
        }
        match values.iter().find(|v| !v.trim().is_empty() && lower.contains(&v.trim().to_lowercase())) {
            Some(v) => accepted.push((slot.clone(), v.trim().to_string())),
            None => rejected.push(format!("{slot}: no proposed value is in the text")),
        }
    }
    (accepted, rejected)
}

/// The extraction reply shape (contract.md).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct HintReply {
    #[serde(default)]
    pub normalized_text: Option<String>,
    #[serde(default)]
    pub entities: BTreeMap<String, Vec<String>>,
}

pub fn parse_hint(content: &str) -> Result<HintReply, String> {
    let json = super::model_json::extract_json(content).ok_or("no JSON object in the reply")?;
    serde_json::from_str(json).map_err(|e| format!("malformed reply: {}", crate::model_json::parse_error(&e)))
}

wire_enum! {
    "snake_case",
    #[derive(PartialOrd, Ord)]
    pub enum HintStatus {
        Ok,
        Rejected,
        Error,
        Skipped,
    }
}

impl HintStatus {
    pub fn rank(self) -> u8 {
        match self {
            HintStatus::Ok => 0,
            HintStatus::Rejected => 1,
            HintStatus::Error => 2,
            HintStatus::Skipped => 3,
        }
    }
}

/// What one hint component (the built-in LLM hint or an agent) produced,
/// after the acceptance rules.
#[derive(Debug, Clone, PartialEq)]
pub struct HintOutcome {
    pub component: String,
    pub status: HintStatus,
    /// The component's capabilities and allowlist cover this request.
    pub applicable: bool,
    pub latency_ms: u32,
    pub detail: String,
    /// An accepted normalized text.
    pub normalized: Option<String>,
    /// Accepted entity values (slot, value).
    pub entities: Vec<(String, String)>,
}

/// Evaluates a component's reply against the rules: `Ok` when any hint
/// was accepted, `Rejected` when none was.
pub fn evaluate(
    component: &str,
    reply: &HintReply,
    req: &ExtractRequest,
    baseline: &Slots,
    want_normalization: bool,
    want_entities: bool,
    latency_ms: u32,
) -> HintOutcome {
    let mut notes = Vec::new();
    let normalized = if want_normalization {
        match accept_normalization(&req.text, reply.normalized_text.as_deref()) {
            Ok(n) => Some(n),
            Err(why) => {
                notes.push(why.to_string());
                None
            }
        }
    } else {
        None
    };
    let entities = if want_entities {
        let (acc, rej) = accept_entities(&req.text, &reply.entities, &req.slots, baseline);
        notes.extend(rej);
        acc
    } else {
        Vec::new()
    };
    let status = if normalized.is_some() || !entities.is_empty() { HintStatus::Ok } else { HintStatus::Rejected };
    HintOutcome { component: component.to_string(), status, applicable: true, latency_ms, detail: notes.join("; "), normalized, entities }
}

/// The component whose result is used: the lowest
/// `(status_rank, applicable ? 0 : 1, latency_ms, component id)`.
pub fn choose(outcomes: &[HintOutcome]) -> Option<&HintOutcome> {
    outcomes.iter().min_by(|a, b| {
        (a.status.rank(), u8::from(!a.applicable), a.latency_ms, &a.component).cmp(&(
            b.status.rank(),
            u8::from(!b.applicable),
            b.latency_ms,
            &b.component,
        ))
    })
}

/// Stable sampling: the same (component, turn id) always gets the same
/// verdict, whatever the process or the machine.
pub fn sampled(component: &str, turn_id: &str, rate: f64) -> bool {
    if rate >= 1.0 {
        return true;
    }
    if rate <= 0.0 {
        return false;
    }
    let h = Sha256::digest(format!("{component}\u{1f}{turn_id}").as_bytes());
    let x = u64::from_be_bytes(h[..8].try_into().unwrap_or([0; 8]));
    (x as f64 / u64::MAX as f64) < rate
}

/// Applies the chosen outcome to the baseline: an accepted normalized text
/// re-runs the deterministic extraction for the slots still empty, then
/// accepted entity values fill what is still empty.
pub fn apply(req: &ExtractRequest, lex: &Lexicon, baseline: Slots, chosen: &HintOutcome) -> Slots {
    apply_until(req, lex, baseline, chosen, &DeadlineWatch::default()).unwrap_or_default()
}

/// `apply`, stopping when `stop` passes.
pub fn apply_until(
    req: &ExtractRequest,
    lex: &Lexicon,
    baseline: Slots,
    chosen: &HintOutcome,
    stop: &DeadlineWatch,
) -> Result<Slots, DeadlinePassed> {
    let mut slots = baseline;
    if let Some(n) = &chosen.normalized {
        slots = self::baseline_until(req, n, &format!("baseline ({} normalization)", chosen.component), lex, slots, stop)?;
    }
    for (slot, value) in &chosen.entities {
        slots.entry(slot.clone()).or_insert_with(|| Filled { value: value.clone(), source: chosen.component.clone() });
    }
    Ok(slots)
}

wire_enum! {
    "snake_case",
    /// What a hint component can do.
    #[derive(PartialOrd, Ord)]
    pub enum Capability {
        /// Propose a normalized text.
        Normalization,
        /// Propose slot values.
        Entities,
    }
}

/// A hint component as the extraction sees it: the built-in LLM hint
/// (`llm`) or an extractor agent.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    pub id: String,
    pub capabilities: Vec<Capability>,
    /// Intents it serves; all when empty.
    pub intents: Vec<String>,
    pub sample_rate: f64,
}

/// The switches (`extract.*`): everything off by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Switches {
    pub enabled: bool,
    pub normalization: bool,
    pub entities: bool,
}

impl Switches {
    /// Whether any hint may run at all.
    pub fn any(self) -> bool {
        self.enabled && (self.normalization || self.entities)
    }
}

/// What to do with a component for one request.
#[derive(Debug, Clone, PartialEq)]
pub enum ComponentPlan {
    /// Not asked: its outcome is already known.
    Skip(HintOutcome),
    /// Ask it for what it may propose.
    Ask { normalization: bool, entities: bool },
}

/// Whether and for what a component is asked: only for the hint kinds that
/// its capabilities and the switches both allow, for an intent on its
/// allowlist, and when the turn is sampled for it.
pub fn plan(c: &Component, switches: Switches, req: &ExtractRequest) -> ComponentPlan {
    let normalization = switches.any() && switches.normalization && c.capabilities.contains(&Capability::Normalization);
    let entities = switches.any() && switches.entities && c.capabilities.contains(&Capability::Entities);
    let applicable = (normalization || entities) && (c.intents.is_empty() || c.intents.contains(&req.intent));
    let skipped = |detail: &str, applicable: bool| {
        ComponentPlan::Skip(HintOutcome {
            component: c.id.clone(),
            status: HintStatus::Skipped,
            applicable,
            latency_ms: 0,
            detail: detail.to_string(),
            normalized: None,
            entities: Vec::new(),
        })
    };
    if !applicable {
        return skipped("not applicable (capabilities, switches or intent allowlist)", false);
    }
    if !sampled(&c.id, &req.turn_id, c.sample_rate) {
        return skipped("not sampled for this turn", true);
    }
    ComponentPlan::Ask { normalization, entities }
}

/// What a component's call brought back, as data (the daemon makes it).
#[derive(Debug, Clone, PartialEq)]
pub enum HintAnswer {
    /// The call failed or was not made: the reason's name.
    Failed { reason: String, latency_ms: u32 },
    /// The assistant message's content, unparsed.
    Replied { content: String, latency_ms: u32 },
}

/// A component's outcome from its answer: an error when the call failed or
/// the reply is unreadable, else the acceptance rules' verdict.
pub fn outcome(component: &str, answer: HintAnswer, wants: (bool, bool), req: &ExtractRequest, baseline: &Slots) -> HintOutcome {
    let error = |detail: String, latency_ms: u32| HintOutcome {
        component: component.to_string(),
        status: HintStatus::Error,
        applicable: true,
        latency_ms,
        detail,
        normalized: None,
        entities: Vec::new(),
    };
    match answer {
        HintAnswer::Failed { reason, latency_ms } => error(reason, latency_ms),
        HintAnswer::Replied { content, latency_ms } => match parse_hint(&content) {
            Err(e) => error(e, latency_ms),
            Ok(reply) => evaluate(component, &reply, req, baseline, wants.0, wants.1, latency_ms),
        },
    }
}

/// What `Extract` answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    pub slots: Slots,
    pub normalized: Option<String>,
    /// The component whose hint was applied, or "baseline".
    pub decided_by: String,
    /// Every component's outcome.
    pub hints: Vec<HintOutcome>,
}

/// The end of the sequence: the component chosen by the tuple, applied to
/// the baseline when it is `Ok`; otherwise the baseline as it is.
pub fn settle(req: &ExtractRequest, lex: &Lexicon, base: Slots, outcomes: Vec<HintOutcome>) -> Extracted {
    match settle_until(req, lex, base, outcomes, &DeadlineWatch::default()) {
        Ok(x) => x,
        // A deadline that is not set never passes.
        Err(DeadlinePassed) => Extracted { slots: Slots::new(), normalized: None, decided_by: "baseline".into(), hints: Vec::new() },
    }
}

/// `settle`, stopping when `stop` passes.
pub fn settle_until(
    req: &ExtractRequest,
    lex: &Lexicon,
    base: Slots,
    outcomes: Vec<HintOutcome>,
    stop: &DeadlineWatch,
) -> Result<Extracted, DeadlinePassed> {
    match choose(&outcomes).filter(|o| o.status == HintStatus::Ok).cloned() {
        Some(chosen) => {
            tracing::info!(decided_by = %chosen.component, "extraction hint accepted");
            let slots = apply_until(req, lex, base, &chosen, stop)?;
            Ok(Extracted { slots, normalized: chosen.normalized, decided_by: chosen.component, hints: outcomes })
        }
        None => {
            tracing::debug!(decided_by = "baseline", "no extraction hint accepted");
            Ok(Extracted { slots: base, normalized: None, decided_by: "baseline".into(), hints: outcomes })
        }
    }
}

#[cfg(test)]
mod tests;
