//! The pure core: everything that decides, with no runtime, no gRPC and no
//! HTTP. It can be unit-tested, property-tested and fuzzed on its own.
//!
//! The sequence lives in [`decide::decide`]; each rung is a module.
#![forbid(unsafe_code)]
#![deny(clippy::disallowed_types, clippy::disallowed_methods)]

pub mod ask;
pub mod assistant;
pub mod canon;
pub mod clarifier;
pub mod classify;
pub mod continuity;
pub mod decide;
pub mod exclusions;
pub mod extract;
pub mod fingerprint;
pub mod guardrails;
pub mod lexicon;
pub mod llm_rung;
pub mod matching;
pub mod policy;
pub mod ports;
pub mod reply;
pub mod run;
pub mod scope;
pub mod text;
pub mod types;

pub use ask::LlmAsk;
pub use decide::{Ctx, Decided, Mode, decide};
pub use policy::Policy;
pub use ports::{GuardClaim, Ports};
pub use types::*;
