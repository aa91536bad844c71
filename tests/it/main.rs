//! Integration tests: the real daemon, real gRPC clients, fakes only at the
//! HTTP edge. One binary; each module is one capability.

mod admin;
mod assistant;
mod citations;
mod clients;
mod corroboration;
mod deploy;
mod docs;
mod faults;
mod guard;
mod helpers;
mod layers;
mod layout;
mod llm;
mod meaning;
mod pick_last;
mod quality;
mod redis_server;
mod refusals;
mod rollout;
mod server;
mod sessions;
mod shared_state;
mod telemetry;
mod work;
