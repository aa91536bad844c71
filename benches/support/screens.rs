//! The screens `benches/meaning.rs` times and `examples/ladder_counts.rs`
//! counts (`#[path = ".../support/screens.rs"] mod screens;`): the load
//! tool's pool, new ids or labels on each call, in a chat request.

use ladder::types::{Candidate, DecideRequest, OptionSet, Scope, ScopeRef};
use std::sync::Arc;

/// What is new on each call.
#[derive(Clone, Copy, PartialEq)]
pub enum New {
    Nothing,
    Ids,
    Labels,
}

/// The load tool's pool of `n`, call `k`'s: its ids, or its labels too,
/// new on each call when `new` says so.
pub fn pool(n: usize, new: New, k: u64) -> Arc<Vec<Candidate>> {
    let mut p: Vec<Candidate> = ladderd_load::samples::pool(n).into_iter().map(Candidate::from).collect();
    for c in &mut p {
        if new != New::Nothing {
            c.id = format!("{}-{k}", c.id);
        }
        if new == New::Labels {
            c.label = format!("{} {k}", c.label);
        }
    }
    Arc::new(p)
}

/// A chat turn saying `input` over `candidates`.
pub fn request(input: &str, candidates: Arc<Vec<Candidate>>) -> DecideRequest {
    DecideRequest {
        session_id: "bench".into(),
        turn_id: "t1".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
        options: Some(OptionSet { option_set_id: "set-1".into(), scope: Scope::Chat, candidates, ..Default::default() }),
        ..Default::default()
    }
}
