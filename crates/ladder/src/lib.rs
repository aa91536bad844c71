//! The ladder core: everything that decides, with no runtime, no gRPC, no
//! HTTP and no I/O (its dependencies, `clippy.toml` and a `cargo tree` test
//! in the daemon hold that). It can be unit-tested, property-tested and
//! fuzzed on its own; the daemon (`ladderd`) is an adapter around it.
//!
//! # Layout
//!
//! The sequence, [`decide::decide`], lists the rungs in order, each a
//! function of `rungs`; each rung's rules live in their own module. Lower
//! modules never import higher ones (a test in the daemon checks there is
//! no import circle).
//!
//! - Text: [`text`] (NFKC, case fold, punctuation; the lowest layer),
//!   [`lexicon`] (the phrase lists: filler, verbs, question openers,
//!   cancels, ordinals, scope cues; data, not code), [`canon`]
//!   (canonicalization = normalize + filler removed), [`model_json`] (the JSON
//!   object in a model's reply).
//! - The rungs: [`exclusions`] (question, cancel, no context), [`scope`]
//!   (scope cues and the pool), [`replies`] (a turn read against what was
//!   asked: `TABLE`, the ordered rows of one room per reply kind, each
//!   room's tests beside it; `reading`, what a reply says from its words;
//!   `values`, the values an option shows and a reply names; `question`,
//!   what was asked), [`matching`] (what the input names: one
//!   file per rule, its tests beside it: `mentions` (labels, aliases, the
//!   input's structure), `positions` (ordinals, badges), `words` (word
//!   evidence and the principle), `typo` (near words, fuzzy), `commands`,
//!   and `index`, the pool's canonical index), [`classify`] (the one confidence
//!   function), [`clarifier`] (the tie, its ranking, display order and
//!   question templates), [`meaning`] (ranking by meaning: the input's
//!   similarity to each option, which orders a clarifier and never decides),
//!   [`about`] (the candidates an escaped question is about:
//!   `Decision.about`, words then meaning, never executed), [`continuity`] (session state, TTLs, updates, the
//!   continuity resolver, `Enrich` evidence, what a run reads of the
//!   state), [`llm_rung`] (`run`, the one LLM call site, and `settle`, the
//!   policy step that maps its verdict to a decision),
//!   [`fingerprint`] (the evidence fingerprint).
//! - One decision: [`mod@decide`] (the sequence), `rungs` (each rung, a
//!   function), [`draft`] (its inputs, working state and decision
//!   constructors), [`refusals`] (the check every deterministic execute
//!   passes: an option refused is not executed again by the words that
//!   chose it), [`cost`] (a request's matching work,
//!   and the caller's deadline the long loops check), [`ports`] (the effects it needs from
//!   outside: loop-guard claim, LLM call, token counting), [`ask`] (what the
//!   LLM is shown), [`policy`] (configuration as data, reply validation,
//!   the auto-execute gates), [`types`] (the domain types of the contract),
//!   `testkit` (tests only:
//!   the harness the end-to-end tests share).
//! - Caches, behind the rules (which never see them): [`intern`] (what
//!   calls on the same options share: interned option lists, the canonical
//!   index of recent pools, fingerprint states; `pool_index` and
//!   `pool_fingerprint` are the one way in), [`memo`] (the byte-budgeted
//!   memo they are made of).
//! - Other calls: [`assistant`] (`Clarify`: language, invariants, question
//!   acceptance, format, the fallback), [`extract`] (`Extract`: baseline,
//!   hint acceptance, the agent scoring tuple), [`guardrails`] (rollout
//!   figures and breaches).
//!
//! # Safety invariants
//!
//! Eight invariants, S1–S8, each stated below, and the tests that prove
//! them: property tests over random pools, inputs, session states and LLM
//! replies, plus examples, each named with the file it lives in (paths
//! under `src/`; the end-to-end ones share the harness in `testkit.rs`):
//!
//! - **S1** An `EXECUTE` targets a candidate of the request's bounded pool
//!   for the resolved scope, whatever the LLM or the user says:
//!   `decide/tests.rs`: `s1_execute_targets_only_the_resolved_pool`; over
//!   HTTP with any provider reply, the daemon's `tests/it/llm.rs`:
//!   `s1_s2_s3_hold_for_any_provider_reply`.
//! - **S2** The LLM executes only with auto-execute on and every gate
//!   passing: `decide/tests.rs`: `s2_default_config_never_lets_the_llm_execute`,
//!   `auto_execute_needs_every_gate`; `policy.rs`:
//!   `policy::tests::default_policy_never_lets_the_llm_execute`,
//!   `policy::tests::gates_in_order`; and only a corroborated pick,
//!   `decide/tests.rs`:
//!   `an_llm_execute_implies_every_gate_and_a_corroboration`,
//!   `a_positional_model_never_executes_under_reorder`.
//! - **S3** Every LLM failure is a clarifier (or `NEED_MORE_INFO`):
//!   `decide/tests.rs`: `s3_llm_failures_never_execute`,
//!   `llm_failures_map_to_their_fallback_reasons`.
//! - **S4** A scope cue is honoured before any widget shortcut, and a
//!   scoped decision uses only that scope's candidates: `decide/tests.rs`:
//!   `s4_chat_cue_uses_only_chat_candidates`,
//!   `open_panel_d_from_chat_resolves_in_the_chat_pool_only`.
//! - **S5** The LLM is never asked twice on the same evidence in one
//!   cycle: `decide/tests.rs`: `s5_same_evidence_one_llm_call`,
//!   `the_same_evidence_never_reaches_the_llm_twice`,
//!   `enrich_with_the_same_evidence_does_not_call_the_llm_again`.
//! - **S6** Questions and cancels never execute: `decide/tests.rs`:
//!   `s6_questions_and_cancels_never_execute`,
//!   `what_is_links_panel_d_is_a_question`, `cancel_and_empty_context_escape`.
//! - **S7** Never a panic or a hang: every property test above, and the
//!   principle's below, runs the whole ladder on random input and it
//!   returns; the service's side (bad input is a clear status, the daemon
//!   keeps serving) is tested in the daemon (`tests/it/server.rs`).
//! - **S8** Meaning never decides: a similarity model (`meaning.rs`)
//!   changes only which options a clarifier offers and their order, never
//!   whether a turn executes, clarifies or escapes, nor what it executes:
//!   `decide/tests.rs`: `s8_meaning_never_decides` (any model: a hash of
//!   the words); with the shipped model on every single-turn corpus, the
//!   daemon's `tests/it/meaning.rs`.
//!
//! Beside them, the rules' own (docs/deciding.md): **execute only what the
//! input fully accounts for**, and candidate risk, in
//! `matching/words/tests.rs` beside the rule (`matching/words.rs`), e.g.
//! `an_unexplained_word_anywhere_stops_any_execute`,
//! `no_path_executes_a_high_risk_candidate_but_its_words_or_its_position`;
//! each matching rule's in `matching/<rule>/tests.rs`; and the caches
//! never change a decision, in `intern/tests.rs`:
//! `the_memo_never_changes_a_decision`, `the_pool_memo_never_changes_a_match`.
#![forbid(unsafe_code)]
#![deny(clippy::disallowed_types, clippy::disallowed_methods)]

/// Declares an enum with its wire names: strum's `IntoStaticStr`,
/// `EnumString` and `VariantArray` and serde's derives, both naming the
/// variants by the one `case` rule given, and `as_str`, `parse` and `ALL`
/// on top (`types::tests` pins every name, as strum and serde write it). Never a
/// hand-written name table.
macro_rules! wire_enum {
    ($case:literal, $(#[$meta:meta])* $vis:vis enum $name:ident { $($body:tt)* }) => {
        #[derive(
            strum::IntoStaticStr, strum::EnumString, strum::VariantArray,
            Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
        )]
        #[serde(rename_all = $case)]
        #[strum(serialize_all = $case)]
        $(#[$meta])*
        $vis enum $name { $($body)* }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = <$name as strum::VariantArray>::VARIANTS;
            /// The wire name.
            pub fn as_str(self) -> &'static str {
                self.into()
            }
            /// The variant with this wire name.
            pub fn parse(s: &str) -> Option<Self> {
                s.parse().ok()
            }
        }
    };
}

pub mod about;
pub mod ask;
pub mod assistant;
pub mod canon;
pub mod clarifier;
pub mod classify;
pub mod continuity;
pub mod cost;
pub mod decide;
pub mod draft;
pub mod exclusions;
pub mod extract;
pub mod fingerprint;
pub mod guardrails;
pub mod intern;
pub mod lexicon;
pub mod llm_rung;
pub mod matching;
pub mod meaning;
pub mod memo;
pub mod model_json;
pub mod policy;
pub mod ports;
pub mod question;
pub mod refusals;
pub mod replies;
mod rungs;
pub mod scope;
#[cfg(test)]
mod testkit;
pub mod text;
pub mod types;
pub mod values;

pub use ask::LlmAsk;
pub use decide::{Ctx, Decided, Mode, decide};
pub use policy::Policy;
pub use ports::{GuardClaim, Ports};
pub use types::*;
