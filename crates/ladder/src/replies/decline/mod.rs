//! A no to what was proposed: a refusal, a request for other options, a self-correction, "I meant X" (docs/replies.md).

use super::*;

/// A refusal or a request for other options (`Reading::refuses`,
/// `Reading::alternatives`).
/// A request for other options that an option's label says ("d'autres
/// dates" with "Voir d'autres dates" on screen, "more options" with "More
/// options") asks for that option: the ladder reads it.
pub(super) fn decline(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.alternatives && !r.refuses && cx.phrase_shown(r, &cx.lex.alternatives) {
        return None;
    }
    (r.refuses || r.alternatives).then(|| declining(cx, r))
}

/// "No wait, I'd rather see other dates": what follows an abandon that
/// names nothing itself is read again; "never mind the reply" abandons
/// what it names (`cancel`). Not where the abandon word opens an option's
/// label (the cancel room asks).
pub(super) fn what_follows_an_abandon(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.abandons || cx.abandon_is_an_action() || r.abandon_has_object || !cx.names_something(&r.after_abandon) {
        return None;
    }
    // What is said before an abandon that ends the reply ("-1 pls, no
    // wait") is what it abandons, never what is wanted.
    if ends_the_reply(r, &cx.lex.abandons) {
        return None;
    }
    Some(Answered::of(Answer::Again { text: r.after_abandon.join(" "), without: Vec::new(), kind: ReplyKind::Decline }))
}

/// Whether a phrase of `set` (a refusal, an abandon) is said in the
/// reply's last clause that says anything: what came before it is what
/// it takes back ("-1 pls, no wait"), nothing follows it to read again.
fn ends_the_reply(r: &Reading, set: &crate::lexicon::PhraseSet) -> bool {
    let says = |c: &reading::Clause| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        (0..toks.len()).any(|i| set.match_at(&toks, i).is_some())
    };
    let last = r.clauses.iter().rposition(|c| !c.rest.is_empty());
    r.clauses.iter().rposition(says).is_some_and(|a| last.is_none_or(|l| a >= l))
}

/// "Make it 8 instead", "send her two hundred", "mejor a las ocho de la
/// tarde" to the confirmation of one option: a value of a kind the
/// option shows, and not what it shows, refuses the option as proposed.
/// It escapes `declined`: the app changes the detail. A value another
/// option shows names that option instead (the ladder's to read).
pub(super) fn a_changed_value(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.values.is_empty() || r.affirms || r.refuses || r.abandons || r.asks {
        return None;
    }
    let (entry, _, confirmed) = proposal(cx)?;
    if !confirmed {
        return None;
    }
    changed(cx, entry, r, ReplyKind::Decline).filter(|a| matches!(a.answer, Answer::Escape { .. }))
}

/// What a reply that changes a detail of the option proposed (`entry`)
/// comes to: `declined` where the values it changes are no other option's
/// (a changed detail refuses the option as proposed: the app changes it),
/// else the option asked about again. `None`: it changes nothing the
/// option shows a value of.
pub(super) fn changed(cx: &Context<'_, '_>, entry: usize, r: &Reading, kind: ReplyKind) -> Option<Answered> {
    if !says_another_value(cx, entry, r) {
        return None;
    }
    let shown = cx.values_of(entry);
    let changed: Vec<&Value> = r.values.iter().filter(|v| !v.said_of(&shown)).collect();
    let elsewhere = cx.options().into_iter().any(|e| {
        e != entry && {
            let other = cx.values_of(e);
            changed.iter().all(|v| other.iter().any(|s| v.names(s)))
        }
    });
    Some(Answered::of(if elsewhere {
        Answer::Ask { entries: vec![entry], kind }
    } else {
        Answer::Escape { reason: EscapeReason::Declined, kind }
    }))
}

/// Whether the reply says a value of a kind `entry` shows, and not what
/// it shows ("make it 8" to 7:30 pm, "lieber halb vier" to 15:00).
fn says_another_value(cx: &Context<'_, '_>, entry: usize, r: &Reading) -> bool {
    let shown = cx.values_of(entry);
    r.values.iter().any(|v| !v.said_of(&shown) && shown.iter().any(|s| crate::values::of_a_kind(v, s)))
}

fn declining(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // A refusal of something it names ("no chicken curry", "nicht den
    // ersten") is a negation: the ladder reads it.
    if r.refuses && r.refusal_has_object && cx.names_something(&r.refusal_object) {
        return Answered::pass();
    }
    let proposed = proposal(cx).map(|(e, _, _)| e);
    let asked = proposed.is_some() || cx.question().is_some();
    // "No, make it 7pm instead": a value that only one other option shows
    // picks it (a high-risk one is confirmed first). A value said before
    // the refusal is what it refuses ("push it to 10... actually no,
    // scrap it"): only the values from the refusal's clause on pick.
    let values = match r.refused_at {
        Some(at) if at > 0 => cx.req.input.get(at..).map(crate::values::values).unwrap_or_default(),
        _ => r.values.clone(),
    };
    if !values.is_empty() {
        let others: Vec<usize> = cx
            .options()
            .into_iter()
            .filter(|e| Some(*e) != proposed)
            .filter(|e| {
                let shown = cx.values_of(*e);
                values.iter().all(|v| shown.iter().any(|s| v.names(s)))
            })
            .collect();
        if let [one] = others[..] {
            return Answered::of(if cx.high_risk(one) {
                Answer::Confirm { entry: one, kind: ReplyKind::Decline }
            } else {
                Answer::Execute { entry: one, kind: ReplyKind::Decline, by: By::Screen }
            });
        }
    }
    // A refusal followed by what is wanted instead ("no, make it 5:30",
    // "no no keep it, just move it to friday", "no, I meant the Rolling
    // Stones one"): that, without what was refused (what was proposed, or
    // the execute just had, which the refusal then rejects).
    // What is said before a refusal that ends the reply ("-1 pls, no
    // wait") is what it refuses, never what is wanted.
    if !r.after_refusal.is_empty() && !r.alternatives && !ends_the_reply(r, &cx.lex.refusals) && cx.names_something(&r.after_refusal) {
        // What follows says only words of the label of the one option
        // proposed and of leaving it out ("no, skip the alignment", "no,
        // don't add the alignment" to "Add wheel alignment?"), no value:
        // it refuses it again. A word its label does not show ("no, make
        // it four tickets", "no, with subtitles" beside a sublabel "no
        // subtitles") is a change, read below.
        let label: Vec<String> = proposed.map(|e| cx.canon.label_words_of(e).map(str::to_string).collect()).unwrap_or_default();
        let named = r.after_refusal.iter().any(|w| shows_word(&label, w) && !cx.lex.function_words.contains(w.as_str()));
        let again = |w: &String| {
            shows_word(&label, w)
                || cx.lex.omissions.contains(w.as_str())
                || cx.lex.negations.is_phrase(&[w.as_str()])
                || EMPTY_IN_ANSWERS.contains(&w.as_str())
        };
        if let Some(e) = proposed
            && r.values.is_empty()
            && named
            && r.after_refusal.iter().all(again)
        {
            let refused = Some(cx.pool.entries[e].cand.id.clone());
            return Answered::rejecting(Answer::Escape { reason: EscapeReason::Declined, kind: ReplyKind::Decline }, refused);
        }
        let text = r.after_refusal.join(" ");
        let had = if asked { None } else { cx.state.last_execute().and_then(|h| Some((cx.executed_entry(&h)?, h.id))) };
        let without: Vec<usize> = proposed.into_iter().chain(had.as_ref().map(|(e, _)| *e)).collect();
        // The one other option whose details say every word of it ("no,
        // I meant the Rolling Stones one"): that one.
        let words: Vec<&String> =
            r.after_refusal.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str()) && !THE_ONE.contains(&w.as_str())).collect();
        let said: Vec<usize> = cx
            .options()
            .into_iter()
            .filter(|e| !without.contains(e) && !words.is_empty())
            .filter(|e| {
                let own = cx.words_of(*e);
                words.iter().all(|w| own.contains(w))
            })
            .collect();
        let rejected = had.map(|(_, id)| id);
        return match said[..] {
            // A correction of the session's last execute, read from its memory.
            [one] if !asked && !cx.high_risk(one) && had_only_in_details(cx, &words, &without) => {
                Answered::rejecting(Answer::Execute { entry: one, kind: ReplyKind::Decline, by: By::Ladder }, rejected)
            }
            _ => Answered::rejecting(Answer::Again { text, without, kind: ReplyKind::Decline }, rejected),
        };
    }
    // "No, change size", "not quite, wrong size. change it to a 10": a
    // refusal in a sentence of its own, then sentences that say another
    // option's whole label (words of it the reading takes for a
    // correction or a noun of the kind: "change", "size"): that request,
    // without what was refused.
    if r.refuses && !r.alternatives && asked && r.clauses.len() >= 2 && r.clauses[0].rest.is_empty() {
        let after: Vec<&str> = r.clauses[1..].iter().flat_map(|c| c.words.iter().map(String::as_str)).collect();
        let whole: Vec<usize> = cx
            .options()
            .into_iter()
            .filter(|e| Some(*e) != proposed)
            .filter(|e| {
                let mut label = cx.canon.label_words_of(*e).peekable();
                label.peek().is_some() && label.all(|w| after.contains(&w))
            })
            .collect();
        if let [one] = whole[..] {
            let refused = proposed.map(|e| cx.pool.entries[e].cand.id.clone());
            // Nothing else said but a number, the new value of what it
            // changes ("change it to a 10" with "Change size"): that one.
            let own: Vec<&str> = cx.canon.label_words_of(one).collect();
            let accounted =
                |w: &String| own.contains(&w.as_str()) || w.chars().all(|c| c.is_ascii_digit()) || EMPTY_IN_ANSWERS.contains(&w.as_str());
            if r.clauses[1..].iter().all(|c| c.rest.iter().all(accounted)) && !cx.high_risk(one) {
                return Answered::rejecting(Answer::Execute { entry: one, kind: ReplyKind::Decline, by: By::Screen }, refused);
            }
            let text = after.join(" ");
            return Answered::rejecting(Answer::Again { text, without: proposed.into_iter().collect(), kind: ReplyKind::Decline }, refused);
        }
    }
    // Nothing asked: a refusal on its own ("no thanks", "none of these")
    // ends the task; one with words of its own ("do they use a different
    // plug") is read by the ladder as any input is.
    if !asked {
        if !r.rest.is_empty() {
            return Answered::pass();
        }
        // Right after an execute still on screen, "nope", "that's wrong"
        // refuse it (a polite "no thanks" only ends the task): the refusal
        // sticks to the words that chose it (`refusals`).
        let thanks = |c: &reading::Clause| {
            let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
            (0..toks.len()).any(|i| cx.lex.closings.match_at(&toks, i).is_some())
        };
        let refused = match cx.state.last_execute() {
            Some(had) if r.refuses && !r.clauses.iter().any(thanks) => cx.executed_entry(&had).map(|_| had.id),
            _ => None,
        };
        return Answered::rejecting(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Decline }, refused);
    }
    // What it refused is recorded as a rejection is: a vague turn next
    // does not bring it back. A no that says another value than the
    // option shows ("nee, lieber halb vier" to 15:00) asks for it changed:
    // the app proposes it again changed, under the same id, and a yes to
    // that is no yes to what was refused.
    let refused = proposed.filter(|e| r.refuses && !says_another_value(cx, *e, r)).map(|e| cx.pool.entries[e].cand.id.clone());
    Answered::rejecting(Answer::Escape { reason: EscapeReason::Declined, kind: ReplyKind::Decline }, refused)
}

/// Whether the words that pick an option among those but `without` say
/// something none of those shows: they tell it from what was refused.
pub(super) fn had_only_in_details(cx: &Context<'_, '_>, words: &[&String], without: &[usize]) -> bool {
    without.iter().all(|w| {
        let refused = cx.words_of(*w);
        words.iter().any(|x| !refused.contains(x))
    })
}

#[cfg(test)]
mod tests;
