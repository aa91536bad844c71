//! The pure core: everything that decides, with no runtime, no gRPC and no
//! HTTP. It can be unit-tested, property-tested and fuzzed on its own.
//!
//! The sequence lives in [`decide::decide`]; each rung is a module.
#![forbid(unsafe_code)]
#![deny(clippy::disallowed_types, clippy::disallowed_methods)]

/// Gives an enum deriving strum's `IntoStaticStr`, `EnumString` and
/// `VariantArray` its wire names: `as_str`, `parse` and `ALL`, from the one
/// naming rule its strum and serde attributes share (a test checks they
/// agree), never a hand-written table.
macro_rules! wire_names {
    ($t:ty) => {
        impl $t {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$t] = <$t as strum::VariantArray>::VARIANTS;
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
