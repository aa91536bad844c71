//! "Cancel", "stop", "never mind": a reply that abandons; said alone where
//! an option's label starts with it, it is asked. A yes right after an
//! execute, or a closing with nothing asked, ends the task too
//! (docs/replies.md).

use super::*;

/// An abandon word in the reply (`Reading::abandons`): asked among the
/// options that open with it, a request of its own the ladder reads, or a
/// cancel of the conversation (what follows it, read again, is the
/// decline room's: `what_follows_an_abandon`).
pub(super) fn cancel(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    // "Wait no", "hold on, no" to an option proposed: the refusal answers
    // it, the abandon word only holds the turn (the decline room's). "No,
    // forget it" abandons the task.
    if r.abandons && r.refuses && proposal(cx).is_some() && only_holds_and_refuses(cx) {
        return None;
    }
    // "No wait XL", "hang on the comfort one": words that only hold the
    // turn, then a choice of an option shown: the choice is read again
    // (the ladder's), never a cancel of it.
    if r.abandons
        && r.abandon_has_object
        && cx.names_something(&r.abandon_object)
        && let Some(rest) = without_holds_and_refusals(cx)
    {
        return Some(Answered::of(Answer::Again { text: rest, without: Vec::new(), kind: ReplyKind::Cancel }));
    }
    r.abandons.then(|| abandon(cx, r))
}

/// Words that only hold the turn ("wait", "hold on", "hang on a sec"),
/// never end the task.
const HOLDS: &[&str] = &["wait", "hold", "hang", "on", "a", "sec", "moment", "minute"];

/// Whether the reply says nothing but words that hold the turn and a
/// refusal ("wait no", "no no, hold on").
fn only_holds_and_refuses(cx: &Context<'_, '_>) -> bool {
    let toks: Vec<&str> = cx.canonical.split(' ').filter(|t| !t.is_empty() && !HOLDS.contains(t)).collect();
    let mut i = 0;
    while i < toks.len() {
        match cx.lex.refusals.match_at(&toks, i) {
            Some(n) => i += n,
            None => return false,
        }
    }
    !toks.is_empty()
}

/// What the reply says besides words that hold the turn and refusals
/// ("wait no, second" -> "second"); `None` where an abandon word that
/// ends the task is among them ("no, forget it, the second").
pub(super) fn without_holds_and_refusals(cx: &Context<'_, '_>) -> Option<String> {
    let toks: Vec<&str> = cx.canonical.split(' ').filter(|t| !t.is_empty()).collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if HOLDS.contains(&toks[i]) {
            i += 1;
        } else if let Some(n) = cx.lex.refusals.match_at(&toks, i) {
            i += n;
        } else if cx.lex.abandons.match_at(&toks, i).is_some() {
            return None;
        } else {
            kept.push(toks[i]);
            i += 1;
        }
    }
    (!kept.is_empty()).then(|| kept.join(" "))
}

fn abandon(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // "Cancel", "stop" where an option's label starts so: that request
    // may be meant. Said alone ("cancel it", "stop that") it may as
    // well abandon the conversation: those options are asked, never
    // executed or escaped. Said with more, the ladder reads it.
    if cx.abandon_is_an_action() {
        return match cx.opening_with_the_verb(r) {
            Some(entries) => Answered::of(Answer::Ask { entries, kind: ReplyKind::Cancel }),
            None => Answered::pass(),
        };
    }
    // "Stop a payment on my account", "abort the upload": what it
    // abandons is named, and nothing shown is it; a request of its own
    // (the ladder reads it).
    if r.abandon_has_object && !cx.names_something(&r.abandon_object) && !only_generic(cx, &r.abandon_object) {
        return Answered::pass();
    }
    ends_the_task()
}

/// "Great, thanks, bye" with nothing asked or proposed: a yes that only
/// closes ends the task. Last in the table: the affirm room read the yes
/// first and left it here (`affirm` is `None` for it alone).
pub(super) fn a_yes_that_ends_the_task(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    (r.affirms && r.closes && r.values.is_empty() && cx.question().is_none()).then(ends_the_task)
}

/// The end of the task: the turn handed back (`cancel`).
pub(super) fn ends_the_task() -> Answered {
    Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel })
}

/// A reply that only closes ("thanks", "that's all") with nothing
/// proposed (the affirm room's `closing` has read it first): with nothing
/// asked it ends the task; to a question it is no answer, and nothing
/// else reads it.
pub(super) fn closing_with_nothing_proposed(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.closes || !r.clauses.is_empty() {
        return None;
    }
    Some(if cx.question().is_none() { ends_the_task() } else { Answered::pass() })
}

/// "That's everything, check out", "thanks! oh wait, also add a side of
/// fries" with nothing proposed or asked: a closing that opens the reply,
/// then a request of its own. The closing ends nothing; the request is
/// read alone (the ladder's, again), after the words that only hold the
/// turn. An abandon, a refusal or a question in it is read as before.
/// With an option proposed, the affirm room's "a thanks before a
/// request" reads it.
pub(super) fn a_closing_then_a_request(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.closes_first || r.clauses.is_empty() || r.affirms || r.refuses || r.alternatives || r.not_that || r.the_other || r.asks {
        return None;
    }
    if r.comparison.is_some() || r.repeats || proposal(cx).is_some() || cx.question().is_some() {
        return None;
    }
    let rest = crate::canon::canonicalize(&cx.req.input[r.clauses[0].start..], cx.lex);
    let toks: Vec<&str> = rest.split(' ').filter(|t| !t.is_empty()).collect();
    let from = toks.iter().take_while(|t| HOLDS.contains(t) || cx.lex.interjections.is_phrase(&[**t])).count();
    let toks = &toks[from..];
    if toks.is_empty()
        || (0..toks.len()).any(|i| cx.lex.abandons.match_at(toks, i).is_some() || cx.lex.closings.match_at(toks, i).is_some())
    {
        return None;
    }
    Some(Answered::of(Answer::Again { text: toks.join(" "), without: Vec::new(), kind: ReplyKind::Cancel }))
}

/// "Yes", "ok", "do it", "thanks" right after an execute, with nothing
/// asked since, on a screen that shows that one option alone (the app sent
/// its screen again): an acknowledgement of what was just done, never a
/// yes to doing it again. The turn is handed back (`cancel`), as a closing
/// with nothing asked is; an app that wants it done again asks with
/// `ASKED_CONFIRMATION`. Saying it again ("yes, delete all panels") is a
/// request of its own, the ladder's to read.
pub(super) fn acknowledges_the_execute(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let yes_shaped = r.affirms || r.closes || (points(cx, r) && (!r.verbs.is_empty() || does_something(r)));
    let says_more = !r.rest.is_empty()
        || !r.values.is_empty()
        || r.refuses
        || r.abandons
        || r.alternatives
        || r.asks
        || r.repeats
        || r.not_that
        || r.the_other
        || r.comparison.is_some();
    if !yes_shaped || says_more || cx.pool.len() != 1 {
        return None;
    }
    let one = cx.option_entries().next()?;
    // Something asked of this screen since (the app's question, or
    // ladderd's about an option it shows) is answered as asked.
    let asked = cx.question().is_some_and(|(q, _)| q.offered.iter().any(|id| cx.offered_entry(q, id).is_some()));
    // An execute the user refused since is the refusal's to read.
    let had = cx.state.last_execute()?;
    if asked || cx.executed_entry(&had) != Some(one) || cx.state.rejected(&had.id) {
        return None;
    }
    Some(ends_the_task())
}

#[cfg(test)]
mod tests;
