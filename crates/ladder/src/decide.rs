//! The ladder as one sequence: `decide` lists the rungs in order, and
//! this file holds nothing else.
//!
//! canonicalize -> exclusions -> scope -> reply -> match -> classify ->
//! collision -> rank -> continuity -> detail -> llm -> fallback
//!
//! Each rung (`rungs`) appends a `Step` to the decision's trace and either
//! decides or hands the next rung what it reads; the rung that decides sets
//! `handled_by_tier`. Each rung's rules live in their own module, and the
//! working state that turns a rung's result into a `Decision` is
//! `draft::Draft`. The two effects the ladder needs from outside —
//! claiming the loop guard in the session store and asking the LLM — come
//! through [`Ports`], so the ladder stays free of any runtime.

pub use crate::continuity::StateView;
pub use crate::cost::{DeadlinePassed, work};
pub use crate::draft::{Ctx, Decided, Event, Mode, budget_exhausted, guard_key};

use crate::cost::DeadlineWatch;
use crate::draft::Draft;
use crate::ports::Ports;
use crate::rungs::{self, next};
use crate::types::DecideRequest;

/// Runs the ladder for one request.
///
/// `Err(DeadlinePassed)` when `ctx.deadline` passed while the rungs ran:
/// the caller is gone, and nothing is to be applied to the session.
pub async fn decide<P: Ports>(ctx: &Ctx<'_>, req: &DecideRequest, mode: Mode<'_>, ports: &P) -> Result<Decided, DeadlinePassed> {
    let stop = DeadlineWatch::new(ctx.deadline);
    let draft = Draft::new(ctx, req, mode);
    // 1. Canonicalize once; what the turn says as a reply, from its words.
    let (draft, said) = next!(rungs::canonicalize(draft));
    // 2. Hard exclusions: the only early escapes.
    let (draft, first) = next!(rungs::exclusions(draft, &said));
    // 3. The scope cue, the pool and its canonical index.
    let (draft, scoped) = next!(rungs::scope(draft, &said, first, &stop));
    // 3b. The reply: the turn read against what was asked.
    let (draft, replied) = next!(rungs::reply(draft, &said, first, scoped, &stop));
    // 4. Match: what the input names.
    let (draft, matched) = next!(rungs::matching(draft, &said, &replied, &stop));
    // 5. Classify: the one place confidence is decided.
    let (draft, class) = next!(rungs::classify(draft, &replied, &matched));
    // 6. Collision guard: a selection or a command, else the tie.
    let (draft, tie) = next!(rungs::collision(draft, &said, &replied, &matched, class));
    // 6b. How the tie is ranked.
    let (draft, ()) = next!(rungs::rank(draft, &tie));
    // 7. Continuity: the session may settle the tie, under strict rules.
    let (draft, resolved) = next!(rungs::continuity(draft, &tie));
    // 7b. An answer to "which one?" by a detail, where the screen tied.
    let (draft, ()) = next!(rungs::detail(draft, &said, &replied, &stop));
    // 8. The LLM rung: the one call site, only for LLM-eligible ties.
    let (draft, llm) = rungs::llm(draft, ports, &tie).await;
    // 9. Policy and fallback: what the LLM did, made a safe decision.
    Ok(rungs::fallback(draft, llm, &tie, resolved))
}

#[cfg(test)]
mod tests;
