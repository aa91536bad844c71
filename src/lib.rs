//! ladderd: a gRPC sidecar that decides what a chat user meant.
//!
//! Deterministic code decides; an LLM only advises inside a bounded set of
//! candidates; every failure falls back to a safe clarifier.
//!
//! # Layout
//!
//! The workspace has three crates: the pure core `ladder`
//! (`crates/ladder`: everything that decides; no runtime, gRPC, HTTP or
//! I/O), this daemon (the adapters around it), and the load tool
//! `ladderd-load` (`crates/load`, with the sample pools the benches and
//! tests share). This crate's modules, edge first:
//!
//! - [`grpc`]: the `ladder.v1.Arbiter` handlers (each loads one
//!   configuration generation and passes it on), the documented tower
//!   stack (`grpc::stack`), intake (`grpc::intake`: the body read whole,
//!   its lists counted on the wire by `grpc::wire`, its memory budgeted),
//!   the caller's deadline (`grpc::timeout`), the connections
//!   (`grpc::listener`), who may make the control calls (`grpc::guard`),
//!   and the admin port: health and `/metrics` only (`grpc::admin`).
//! - [`convert`]: protobuf <-> domain, and every input limit, in one place.
//! - [`error`]: errors and their gRPC codes, in one place.
//! - [`pb`]: the generated protobuf code, wrapped once.
//! - [`daemon`]: what each call does, one file per capability
//!   (`daemon::admit`: a `Decide` admitted, its option list interned on
//!   its bytes and its work bounded; `daemon::turn`: Decide, Enrich,
//!   RecordOutcome, sessions, one job a file;
//!   `daemon::assistant`: Clarify, Extract; `daemon::rollout`: guardrails,
//!   rollout calls, reload), in terms of the core, the session store and
//!   the LLM clients; implements the core's `Ports`.
//! - [`breaker`]: the circuit breaker the LLM client and the shared store
//!   share.
//! - [`llm`]: the OpenAI-compatible client, the clients of one
//!   configuration (`llm::Llms`) and the versioned prompts.
//! - [`meaning`]: the model the clarifier ranks by meaning with (the
//!   shipped one, compiled in from `models/`, or a file), its checksum
//!   verified at load.
//! - [`store`]: the session store, one module: the port the daemon uses
//!   (`SessionStore`, `PoolStore`), this process's sessions
//!   (`store::memory`, each state packed by `store::packed`) and held
//!   option sets (`store::pools`), and both with the rollout trip shared
//!   by every replica in Redis / Valkey (`store::redis`, one file per key
//!   family, its Lua scripts in `src/store/lua/`).
//! - [`config`]: figment layers and validation; sections that are the
//!   core's settings use the core's types. [`files`]: the one reader of
//!   the files a configuration names, and of the configuration file
//!   (regular files only, bounded by kind, within a deadline).
//! - [`telemetry`]: logging (panics included, `telemetry::panics`),
//!   tracing and metrics export, redaction, and the decision-record schema
//!   (`telemetry::records`). [`bpe`]: the BPE
//!   tokenizer for the semantic lane's budgets.
//! - [`replay`]: re-runs decision records under a configuration.
//!   [`eval`]: measures decision quality on labelled turns.
//! - [`app`]: binds, serves, drains, reloads; owns the tower stack's
//!   counters. [`cli`]: the command line.
#![forbid(unsafe_code)]

pub mod app;
pub mod bpe;
pub mod breaker;
pub mod cli;
pub mod config;
pub mod convert;
pub mod daemon;
pub mod error;
pub mod eval;
pub mod files;
pub mod grpc;
pub mod llm;
pub mod meaning;
pub mod pb;
pub mod replay;
pub mod store;
pub mod telemetry;
