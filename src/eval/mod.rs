//! `ladderd eval FILE.jsonl`: measures decision quality on labelled turns
//! and whole dialogues before a rollout, the way `rasa test` does for NLU
//! and stories.
//!
//! One JSON object a line: the `DecideRequest` fields in proto JSON names
//! (lowerCamelCase; the snake_case originals are accepted too, as proto3
//! JSON parsers do), an `expect` (`{"execute": id}`, `{"clarify": [ids]}`,
//! `{"escape": reason}` or `{"need_more_info": [types]}`) and an optional
//! `category`; or a `dialogue`: a list of such turns on one session, each
//! with an optional `enrich` step and `record_outcome` ([`read`]). Each turn
//! runs through the same code as a `Decide` call (the edge's validation
//! under the configured limits, then the daemon's ladder, the LLM rung
//! included when the configuration enables it), in process; a single turn
//! in a session of its own, a dialogue's turns in one. [`score`] compares
//! decisions with expectations; it is pure, and `cargo test` holds the
//! project's own corpora to it. A dialogue is also measured whole
//! ([`dialogues`]: fully right, repeated clarifiers, turns to resolution).
//! The turns the reply rung decided (docs/replies.md) are also counted by
//! the kind of reply they were read as. An expectation judged wrong is set
//! aside by the line's `id` ([`Exception`]), counted nowhere and listed
//! with its reason.
//!
//! Layout, one job a file, in the order a line goes through them:
//!
//! - `corpus`: what a corpus says (lines, turns, expectations, exceptions);
//! - `read`: reading it from JSON lines and the CLINC150 splits;
//! - `run`: running it through the daemon, in process;
//! - `score`: one turn judged against what a person expects;
//! - `report`: the figures, scored turns added up (a new figure goes
//!   there: its header says how);
//! - `dialogues`: a dialogue measured whole;
//! - `render`: the report as a table.

mod corpus;
mod dialogues;
mod read;
mod render;
mod report;
mod run;
mod score;

pub use corpus::{Case, Dialogue, DialogueTurn, EnrichStep, Exception, Expect, Line, RecordStep, unknown_exceptions};
pub use dialogues::DialogueTally;
pub use read::{case, decide_request, dialogue, read, read_clinc150, read_exceptions};
pub use render::render;
pub use report::{LlmTally, Report, SetAside, Shares, Tally, report};
pub use run::{decisions, evaluate, evaluate_except};
pub use score::{Got, Grade, LlmSeen, Scored, score};
