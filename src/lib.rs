//! ladderd: a gRPC sidecar that decides what a chat user meant.
//!
//! Deterministic code decides; an LLM only advises inside a bounded set of
//! candidates; every failure falls back to a safe clarifier.
//!
//! # Layout
//!
//! - [`ladder`]: the pure core (no runtime, gRPC or HTTP). `ladder::decide`
//!   lists the rungs in order; each rung is a module (`canon`,
//!   `exclusions`, `scope`, `matching`, `classify`, `continuity`,
//!   `policy`, `clarifier`, `fingerprint`).
//! - [`daemon`]: what each call does, in terms of the ladder, the session
//!   store and the LLM client; implements the ladder's `Ports`.
//! - [`grpc`]: the `ladder.v1.Arbiter` handlers and the documented tower
//!   stack (`grpc::stack`).
//! - [`convert`]: protobuf <-> domain, and every input limit, in one place.
//! - [`error`]: errors and their gRPC codes, in one place.
//! - [`pb`]: the generated protobuf code, wrapped once.
//! - [`llm`]: the OpenAI-compatible client and the versioned prompt.
//! - [`sessions`]: the session-store trait and the in-memory store.
//!   [`pools`]: option sets cached for reuse.
//! - [`config`]: figment layers and validation.
//! - [`telemetry`]: logging and tracing export. [`tokens`]: the BPE
//!   tokenizer for the semantic lane's budgets.
//! - [`replay`]: re-runs decision records under a configuration.
//!   [`samples`]: sample option sets for benchmarks, the load tool and tests.
//! - [`app`]: binds, serves, drains, reloads. [`cli`]: the command line.
#![forbid(unsafe_code)]

pub mod app;
pub mod cli;
pub mod config;
pub mod convert;
pub mod daemon;
pub mod error;
pub mod grpc;
pub mod llm;
pub mod pb;
pub mod pools;
pub mod replay;
pub mod sessions;
pub mod telemetry;
pub mod tokens;
