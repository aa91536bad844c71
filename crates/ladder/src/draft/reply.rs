//! What a reply came to, as a decision (the reply rung, and a detail
//! answer where the screen tied), and the refusals every execute of a
//! reply or of the rules passes (`unless_refused`).

use super::*;
use crate::replies::{self, Answer};

/// Refusals stick (`refusals`): `run` makes the execute of `entry`,
/// unless the user refused it within the TTL and this turn's words do not
/// re-choose it; then the options `fits` (the other entries the words fit,
/// else the rest of the screen) are asked, or the refusal stands.
pub(crate) fn unless_refused<'a>(
    mut draft: Draft<'a>,
    pool: &scope::Pool<'_>,
    entry: usize,
    fits: &[usize],
    run: impl FnOnce(Draft<'a>) -> Decided,
) -> Decided {
    let lex = &draft.ctx.policy.lexicon;
    let id = pool.entries[entry].cand.id.clone();
    match refusals::check(&draft.ctx.state, pool, lex, &draft.canonical, entry, fits) {
        refusals::RefusalCheck::Free => run(draft),
        refusals::RefusalCheck::Ask(entries) => {
            let ids: Vec<String> = entries.iter().map(|e| pool.entries[*e].cand.id.clone()).collect();
            draft.refuse(id.clone());
            draft.step("refused", format!("{id} was refused: {}", ids.join(",")));
            draft.begin("fallback");
            draft.fallback(Offer::among(ids), None, LlmReport::default())
        }
        refusals::RefusalCheck::Stands => {
            draft.step("refused", format!("{id} was refused"));
            draft.escape(EscapeReason::Declined, None, Tier::Reply)
        }
    }
}

/// The decision a reply came to (step 3b, or a detail answer at 7b).
/// An execute carries what it did not consume of the turn (`follow_up`).
pub(crate) fn reply_decision(draft: Draft<'_>, pool: &scope::Pool<'_>, answer: Answer, follow_up: Option<FollowUp>) -> Decided {
    let entry = match &answer {
        Answer::Execute { entry, .. } | Answer::Confirm { entry, .. } => Some(*entry),
        _ => None,
    };
    match entry {
        Some(entry) => unless_refused(draft, pool, entry, &[], |draft| reply_decision_free(draft, pool, answer, follow_up)),
        None => reply_decision_free(draft, pool, answer, follow_up),
    }
}

fn reply_decision_free(mut draft: Draft<'_>, pool: &scope::Pool<'_>, answer: Answer, follow_up: Option<FollowUp>) -> Decided {
    let id = |i: usize| pool.entries[i].cand.id.clone();
    match answer {
        Answer::Execute { entry, kind, by } => {
            let e = pool.entries[entry];
            // A reply to ladderd's own question is read from the session.
            let decider = if by == replies::By::Ladder { Decider::Continuity } else { Decider::Deterministic };
            draft.event("reply_read", format!("{}: {}", kind.as_str(), e.cand.id));
            draft.step(kind.as_str(), e.cand.id.clone());
            // An answer read deterministically is a confident execute,
            // whatever the screen's own match left (a detail read where
            // the screen tied).
            let mut decided = draft.execute(e.cand.id.clone(), e.source, decider, Tier::Reply);
            decided.decision.confidence = Some(Bucket::HighConfidenceExecute);
            decided.decision.ambiguity_reason = None;
            decided.decision.follow_up = follow_up;
            decided
        }
        Answer::Confirm { entry, kind } => {
            draft.step(kind.as_str(), format!("{} is high risk: confirm it", id(entry)));
            draft.begin("fallback");
            draft.clarify(
                Offer::among(vec![id(entry)]).confirming(id(entry)),
                None,
                Tier::Reply,
                Decider::Deterministic,
                LlmReport::default(),
            )
        }
        Answer::Ask { entries, kind } => {
            // What the user refused is not asked about again, while
            // anything else is (`refusals`).
            let asked: Vec<String> = entries.into_iter().map(id).collect();
            let (refused, ids): (Vec<String>, Vec<String>) = asked.iter().cloned().partition(|e| draft.ctx.state.refusal(e).is_some());
            let ids = if ids.is_empty() { asked } else { ids };
            refused.into_iter().filter(|r| !ids.contains(r)).for_each(|r| draft.refuse(r));
            draft.step(kind.as_str(), ids.join(","));
            draft.begin("fallback");
            let offer = Offer::among(ids);
            let offer = if kind == replies::ReplyKind::Repair { offer.repairing() } else { offer };
            draft.clarify(offer, None, Tier::Reply, Decider::Deterministic, LlmReport::default())
        }
        Answer::Escape { reason, kind } => {
            draft.step(kind.as_str(), reason.as_str().to_string());
            draft.escape(reason, None, Tier::Reply)
        }
        // Read again by the ladder (step 3b), never here.
        Answer::Pass | Answer::Again { .. } => {
            draft.step("pass", String::new());
            draft.begin("fallback");
            draft.clarify(Offer::among(Vec::new()), None, Tier::Reply, Decider::Deterministic, LlmReport::default())
        }
    }
}
