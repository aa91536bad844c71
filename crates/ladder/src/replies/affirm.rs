//! A yes to what was proposed: an affirmation, an acknowledgement, a closing, a request that points at the one option proposed (docs/replies.md).

use super::*;

/// The option a yes answers, who proposed it, and whether the question
/// was a yes-or-no about that very option (what a yes to a high-risk
/// option needs). The option: what the question proposed, or
/// the one option of those it offered that the app's screen still shows
/// (it narrowed the screen to it), or the one option of a plain screen.
pub(super) fn proposal(cx: &Context<'_, '_>) -> Option<(usize, By, bool)> {
    // A question none of whose options this screen shows was asked of
    // another screen: this one is plain.
    let question = cx.question().filter(|(q, _)| q.offered.iter().any(|id| cx.offered_entry(q, id).is_some()));
    match question {
        Some((q, by)) => match q.proposal() {
            // Ladderd's question about one option is a yes-or-no about it
            // (a confirmation, or a clarifier that offered it alone); the
            // app's, only when it says it asked to confirm.
            Some(id) => Some((cx.offered_entry(q, id)?, by, by == By::Ladder || q.kind == QuestionKind::Confirmation)),
            // The screen narrowed to one of the options ladderd asked
            // about: of those it offered, the pool holds only that one (any
            // list). The app showing it alone after ladderd's question is
            // asking about it alone.
            None => {
                let mut options = cx.option_entries();
                let (Some(only), None) = (options.next(), options.next()) else { return None };
                let mut present = cx.entries().filter(|e| q.offered.iter().any(|o| *o == cx.pool.entries[*e].cand.id));
                match (present.next(), present.next()) {
                    (Some(one), None) if one == only => Some((one, by, by == By::Ladder)),
                    _ => None,
                }
            }
        },
        // A screen of one option: the pool holds it alone.
        None if cx.pool.len() == 1 => cx.option_entries().next().map(|one| (one, By::Screen, false)),
        None => None,
    }
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
    Some(Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel }))
}

pub(super) fn affirm(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // A yes in sentences of its own, then a question or a request of the
    // user's own: executed, the rest handed back (`follow_up`).
    let proposed = proposal(cx);
    // With several options and nothing proposed, a yes that says one
    // option's whole name proposes it ("Little sounds good. What time is
    // it showing?").
    let named = || if cx.question().is_none() { follow_up::named_in_the_yes(cx, r).map(|e| (e, By::Screen, false)) } else { None };
    if let Some(p) = proposed.or_else(named) {
        match follow_up::after_the_yes(cx, r, p.0) {
            AfterYes::TakenBack => return Answered::pass(),
            AfterYes::Then { from, kind, of_the_option } => return follow_up::answer(cx, r, p, from, kind, of_the_option),
            AfterYes::Nothing | AfterYes::NoStandingYes => {}
        }
    }
    // A question with a yes it does not stand apart from is the ladder's.
    if r.asks {
        return Answered::pass();
    }
    let Some((entry, by, confirmed)) = proposed else {
        // A yes to "which one?" over several options picks none: asked again.
        return match cx.question() {
            Some((q, _)) if r.rest.is_empty() && r.values.is_empty() => {
                let entries: Vec<usize> = q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect();
                if entries.len() > 1 { Answered::of(Answer::Ask { entries, kind: ReplyKind::Affirm }) } else { Answered::pass() }
            }
            // A detail or a position with the yes ("great, the 7 then")
            // may answer it (`detail`, at the tie; `position` here).
            Some(_) => match position(cx, r) {
                a if a.answer != Answer::Pass => a,
                _ if !r.rest.is_empty() && !r.corrects => again(r),
                a => a,
            },
            // "Sounds good, gimme the veggie one": what it names, read again.
            None if !r.rest.is_empty() && !r.corrects => again(r),
            // "Great, thanks, bye" with nothing asked: the end of the task.
            None if r.closes && r.values.is_empty() => {
                Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel })
            }
            None => Answered::pass(),
        };
    };
    // What is confirmed is the whole option: a correction with a value
    // ("ok, at 7 instead"), or a value it does not show ("yes but for 3"),
    // changes it; a correction alone ("I'd rather see Breakthrough",
    // "actually, I love that one") changes nothing it shows.
    // Such a yes is asked about again, never read by the ladder, whose
    // positions would take "yes at 4" for the fourth option.
    let shown = cx.values_of(entry);
    if r.changes_a_detail() || r.values.iter().any(|v| !shown.iter().any(|s| v.names(s))) {
        return Answered::of(Answer::Ask { entries: vec![entry], kind: ReplyKind::Affirm });
    }
    // A word the option shows negated ("no subtitles"), said without a
    // negation ("play it with subtitles"), changes that detail.
    if says_what_it_negates(cx, entry, r) {
        return Answered::pass();
    }
    // Every word left is the option's own (a number of a value it shows
    // is: "yes, two tickets" to 2 tickets).
    let rest: Vec<String> = r.rest.iter().filter(|w| !values::is_number_word(w)).cloned().collect();
    if !explains(cx, entry, &rest) {
        return Answered::pass();
    }
    let kind_of_reply = ReplyKind::Affirm;
    // A high-risk option is confirmed by a yes to a question about it
    // alone; on a plain screen of one option the confirmation comes first.
    if cx.high_risk(entry) && !confirmed {
        return Answered::of(Answer::Confirm { entry, kind: kind_of_reply });
    }
    Answered::of(Answer::Execute { entry, kind: kind_of_reply, by })
}

/// A reply that only closes ("thanks", "that's all"): an acknowledgement
/// of the option proposed (a high-risk one is confirmed first: thanks is
/// no explicit yes), the end of the task when nothing was asked.
pub(super) fn closing(cx: &Context<'_, '_>) -> Answered {
    match proposal(cx) {
        Some((entry, _, _)) if cx.high_risk(entry) => Answered::of(Answer::Confirm { entry, kind: ReplyKind::Affirm }),
        Some((entry, by, _)) => Answered::of(Answer::Execute { entry, kind: ReplyKind::Affirm, by }),
        None if cx.question().is_none() => Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel }),
        None => Answered::pass(),
    }
}

/// Whether the reply points at what was shown: a deictic word ("it",
/// "that one", "there"). Naming it is the ladder's to read.
pub(super) fn points(cx: &Context<'_, '_>, r: &Reading) -> bool {
    r.clauses.iter().flat_map(|c| &c.words).any(|w| cx.lex.deictic.contains(w.as_str()) || w == "there")
}

/// Verbs of doing what an option offers ("I would like to go there",
/// "I want to eat there"): with nothing else said, a request of it.
pub(super) const DOING: &[&str] =
    &["go", "see", "eat", "visit", "watch", "listen", "hear", "enjoy", "try", "attend", "stay", "book", "buy", "reserve", "order", "play"];

pub(super) fn does_something(r: &Reading) -> bool {
    r.clauses.iter().flat_map(|c| &c.words).any(|w| DOING.contains(&w.as_str()))
}
