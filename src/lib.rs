//! ladderd: a gRPC sidecar that decides what a chat user meant.
//!
//! Deterministic code decides; an LLM only advises inside a bounded set of
//! candidates; every failure falls back to a safe clarifier.
#![forbid(unsafe_code)]

pub mod ladder;
