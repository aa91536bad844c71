//! "No, not that one" after an execute: a refusal of it, and the other one or a question over the rest (docs/replies.md).

use super::*;

/// "Not that one", "wrong one", "the other one": the execute just had on
/// these options is refused. `None` when there is none to refuse.
pub(super) fn repair(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    // Repairs come before declines: "no, not that one" refuses the execute
    // just had.
    if !(r.not_that || r.the_other || (r.refuses && only_generic(cx, &r.rest) && !r.rest.is_empty())) {
        return None;
    }
    let had = cx.state.last_execute()?;
    // The screen may no longer show what was executed (the app shows what
    // it became: "Turn on" after "Turn off"): then only words or values
    // that name one option say what was meant, and nothing else is read
    // here.
    let refused = cx.executed_entry(&had);
    let had = had.id;
    let rest: Vec<usize> = cx.options().into_iter().filter(|e| Some(*e) != refused).collect();
    if rest.is_empty() {
        return None;
    }
    // Words beyond the repair narrow the rest ("das andere im wohnzimmer").
    let detail: Vec<&String> = r
        .rest
        .iter()
        .filter(|w| !only_generic(cx, std::slice::from_ref(w)) && !EMPTY_IN_ANSWERS.contains(&w.as_str()))
        .filter(|w| cx.names_something(std::slice::from_ref(w)))
        .collect();
    // So do values in any common form ("ugh, not that - the tuesday one"
    // for "Tue 10:00"): the correction names what was meant, and executes
    // it when only one other option shows all it says (never the refused
    // one: "not that - the wednesday one" after Wednesday asks the rest).
    let narrowed: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|e| {
            let words = cx.words_of(*e);
            let shown = cx.values_of(*e);
            detail.iter().all(|w| words.contains(w)) && r.values.iter().all(|v| shown.iter().any(|s| v.names(s)))
        })
        .collect();
    if refused.is_none() && ((detail.is_empty() && r.values.is_empty()) || narrowed.len() != 1) {
        return None;
    }
    let answer = match narrowed[..] {
        [] => Answer::Ask { entries: rest, kind: ReplyKind::Repair },
        [one] if r.the_other || !detail.is_empty() || !r.values.is_empty() => {
            if cx.high_risk(one) {
                Answer::Confirm { entry: one, kind: ReplyKind::Repair }
            } else {
                Answer::Execute { entry: one, kind: ReplyKind::Repair, by: By::Ladder }
            }
        }
        _ => Answer::Ask { entries: narrowed, kind: ReplyKind::Repair },
    };
    Some(Answered::rejecting(answer, Some(had)))
}

#[cfg(test)]
mod tests;
