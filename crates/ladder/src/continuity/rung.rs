//! The continuity rung: resolves a remaining tie from what the session
//! did recently, under strict rules (docs/continuity.md).

use super::*;

/// The continuity resolver (docs/continuity.md): resolves a remaining tie only
/// when the input is command-like, the session's option set and scope equal
/// the request's (fresh state), there is a unique exact/normalized label
/// winner among the active options, and there is no collision or loop-guard
/// conflict. Returns the pool entry, or why it did not resolve.
///
/// Run once per turn: the continuity rung reads it through the loop guard
/// (`guarded`), the LLM's veto (`Draft::settle`) as it is.
pub fn resolve(state: &StateView<'_>, req: &DecideRequest, tie: &Tie<'_>) -> Resolution {
    let (pool, m, q) = (tie.pool, tie.matches, tie.query);
    if q.core == q.full {
        return Err("not_command_like");
    }
    if m.command.is_some() || tie.class.reason == Some(AmbiguityReason::CommandSelectionCollision) {
        return Err("collision");
    }
    // What the request alone settles comes before what the state does.
    let Some(winner) = label_winner(tie) else { return Err("no_unique_label_winner") };
    let set = req.option_set_id();
    if set.is_empty() || !state.active_set_is(set) {
        return Err("option_set_changed");
    }
    if !state.active_scope_is(&req.active_scope) {
        return Err("scope_changed");
    }
    // Refusals stick: a winner the user refused is not resolved to.
    if state.refused(&pool.entries[winner].cand.id) {
        return Err(REFUSED);
    }
    Ok(winner)
}

/// What the continuity resolver came to: the pool entry, or why it did
/// not resolve.
pub type Resolution = Result<usize, &'static str>;

/// `resolve`'s answer under the loop guard: a winner other than the
/// suggestion an earlier LLM attempt made for the same evidence
/// (`guard_suggestion`) is a conflict, refused or not.
pub fn guarded(resolved: Resolution, tie: &Tie<'_>, guard_suggestion: Option<&str>) -> Resolution {
    let winner = match resolved {
        Ok(winner) => winner,
        Err(REFUSED) => label_winner(tie).ok_or(REFUSED)?,
        Err(why) => return Err(why),
    };
    if guard_suggestion.is_some_and(|s| s != tie.pool.entries[winner].cand.id) {
        return Err("loop_guard_conflict");
    }
    resolved
}

/// What "the other one" or "not that one" leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Other {
    /// "The other one" of two: the one the user did not just have.
    One(usize),
    /// The options but the one the user just had, to ask among ("the other
    /// one" of three or more; "not that one", which never executes).
    Among(Vec<usize>),
}

/// "The other one" (the lexicon's `others`, "no, the other one" among
/// them) or "not that one" (`not_that`), when the session's newest action
/// on this option set (executed, accepted or rejected) names one of the
/// options on screen: with two options, "the other one" is the other (the
/// user just had one of a pair; a person takes the other without asking);
/// otherwise the clarifier offers the options but that one. The same
/// option set and scope as the session's, as for `resolve`.
pub fn the_other(state: &StateView<'_>, req: &DecideRequest, tie: &Tie<'_>, lex: &crate::lexicon::Lexicon) -> Result<Other, &'static str> {
    let core: Vec<&str> = crate::text::words(&tie.query.core).collect();
    let other = lex.others.is_phrase(&core);
    if !other && !lex.not_that.is_phrase(&core) {
        return Err("not_the_other");
    }
    let pool = tie.pool;
    let options: Vec<usize> = (0..pool.len()).filter(|i| pool.entries[*i].source == Source::ActiveOptions).collect();
    if options.len() < 2 {
        return Err("not_two_options");
    }
    let set = req.option_set_id();
    if set.is_empty() || !state.active_set_is(set) {
        return Err("option_set_changed");
    }
    if !state.active_scope_is(&req.active_scope) {
        return Err("scope_changed");
    }
    let newest = state.recent_action_trace.iter().find(|e| e.option_set_id == set).map(|e| e.target_ref.as_str());
    let Some(had) = options.iter().position(|i| Some(pool.entries[*i].cand.id.as_str()) == newest) else {
        return Err("no_action_on_these");
    };
    let rest: Vec<usize> = options.iter().enumerate().filter(|(k, _)| *k != had).map(|(_, i)| *i).collect();
    // "The other one" answers a repair (the user refused the one just
    // had): it names the other in so many words, unless that one was
    // refused too.
    let rejected = |i: usize| state.recent_rejected_choice_ids.iter().any(|r| *r == pool.entries[i].cand.id);
    Ok(match rest[..] {
        [one] if other && !rejected(one) => Other::One(one),
        _ => Other::Among(rest),
    })
}

/// Why the continuity resolver did not resolve: the winner is refused.
pub const REFUSED: &str = "user_refused";

/// The one candidate of the active options the tie's input names by its
/// whole label: what the continuity resolver may resolve to.
pub fn label_winner(tie: &Tie<'_>) -> Option<usize> {
    let (pool, m) = (tie.pool, tie.matches);
    let winners: Vec<usize> = m
        .hits
        .iter()
        .filter(|h| h.kind.tier() == MatchTier::Label && pool.entries[h.entry].source == Source::ActiveOptions)
        .map(|h| h.entry)
        .collect();
    match winners[..] {
        [winner] => Some(winner),
        _ => None,
    }
}
