//! A yes to what was proposed: an affirmation, a closing, a thanks
//! before a request, a request that points at the one option proposed
//! (docs/replies.md); with `follow_up`, the half of a turn after a yes.

use super::*;
use follow_up::AfterYes;
pub(super) use follow_up::a_choice_then_more;

mod follow_up;

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

/// A yes read against what was proposed. `None`: a closing yes with
/// nothing asked or proposed ("great, thanks, bye"), the cancel room's
/// (`a_yes_that_ends_the_task`).
pub(super) fn affirm(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    // A yes in sentences of its own, then a question or a request of the
    // user's own: executed, the rest handed back (`follow_up`).
    let proposed = proposal(cx);
    // With several options and nothing proposed, a yes that says one
    // option's whole name proposes it ("Little sounds good. What time is
    // it showing?").
    let named = || if cx.question().is_none() { follow_up::named_in_the_yes(cx, r).map(|e| (e, By::Screen, false)) } else { None };
    // "Yes, send her a hundred and fifteen" to €150: a later clause that
    // speaks of the option with another value changes it.
    if let Some((entry, _, true)) = proposed
        && let Some(a) = changes_it_later(cx, r, entry)
    {
        return Some(a);
    }
    if let Some(p) = proposed.or_else(named) {
        match follow_up::after_the_yes(cx, r, p.0, follow_up::is_an_offer(cx, p)) {
            AfterYes::TakenBack => return Some(Answered::pass()),
            // A question after "ok" to an offer is that question; a request,
            // the ladder's to read as a fresh one.
            AfterYes::NewTurn { question: true } => {
                return Some(Answered::of(Answer::Escape { reason: EscapeReason::QuestionIntent, kind: ReplyKind::Affirm }));
            }
            AfterYes::NewTurn { question: false } => return Some(Answered::pass()),
            AfterYes::Then { from, kind, of_the_option } => return Some(follow_up::answer(cx, r, p, from, kind, of_the_option)),
            AfterYes::Nothing | AfterYes::NoStandingYes => {}
        }
    }
    // A question with a yes it does not stand apart from is the ladder's.
    if r.asks {
        return Some(Answered::pass());
    }
    let Some((entry, by, confirmed)) = proposed else {
        // A yes to "which one?" over several options picks none: asked again.
        return match cx.question() {
            Some((q, _)) if r.rest.is_empty() && r.values.is_empty() => {
                let entries: Vec<usize> = q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect();
                Some(if entries.len() > 1 { Answered::of(Answer::Ask { entries, kind: ReplyKind::Affirm }) } else { Answered::pass() })
            }
            // A detail or a position with the yes ("great, the 7 then")
            // may answer it (`detail`, at the tie; the position room's
            // `a_yes_with_a_position` read a position first): else what it
            // names, read again.
            Some(_) if !r.rest.is_empty() && !r.corrects => Some(again(r)),
            Some(_) => Some(Answered::pass()),
            // A request with a yes phrase inside it ("send this one to my
            // sister"): no yes, the ladder's to read whole.
            None if opens_with_a_request(cx, r) => Some(Answered::pass()),
            // "Sounds good, gimme the veggie one": what it names, read again.
            None if !r.rest.is_empty() && !r.corrects => Some(again(r)),
            // "Great, thanks, bye" with nothing asked: the end of the task,
            // the cancel room's.
            None if r.closes && r.values.is_empty() => None,
            None => Some(Answered::pass()),
        };
    };
    // What is confirmed is the whole option: a correction with a value
    // ("ok, at 7 instead"), or a value it does not show ("yes but for 3"),
    // changes it; a correction alone ("I'd rather see Breakthrough",
    // "actually, I love that one") changes nothing it shows.
    // Such a yes is never read by the ladder, whose positions would take
    // "yes at 4" for the fourth option. To a question about the option, a
    // value of a kind it shows, and not what it shows, refuses it as
    // proposed ("yes but at ten" to 9:00): `declined`, the app changes it.
    // Any other change, or one to an option a plain screen shows, asks
    // about it again.
    let shown = cx.values_of(entry);
    if r.changes_a_detail() || r.values.iter().any(|v| !v.said_of(&shown)) {
        let ask = || Answered::of(Answer::Ask { entries: vec![entry], kind: ReplyKind::Affirm });
        return Some(if confirmed { super::decline::changed(cx, entry, r, ReplyKind::Affirm).unwrap_or_else(ask) } else { ask() });
    }
    // A word the option shows negated ("no subtitles"), said without a
    // negation ("play it with subtitles"), changes that detail.
    if says_what_it_negates(cx, entry, r) {
        return Some(Answered::pass());
    }
    // Every word left is the option's own (a number of a value it shows
    // is, and so is its unit: "yes, two tickets" to 2 tickets, "yes,
    // fifty dollars" to $50).
    // A part of the day to an option that shows no time ("yes,
    // tonight") says nothing against it.
    let shows_a_time = values::shows_a_time(&shown);
    let says_nothing_against = |w: &str| values::is_day_part(w) && !shows_a_time;
    // The noun a count says is its ("yes, four people" to "Table for 4").
    let rest: Vec<String> = r
        .rest
        .iter()
        .filter(|w| {
            !values::is_number_word(w)
                && !shown.iter().any(|s| values::is_value_word(w, s.dim))
                && !says_nothing_against(w)
                && !values::counts_the_word(&r.values, w)
        })
        .cloned()
        .collect();
    if !explains(cx, entry, &rest) {
        return Some(Answered::pass());
    }
    let kind_of_reply = ReplyKind::Affirm;
    // A high-risk option is confirmed by a yes to a question about it
    // alone; on a plain screen of one option the confirmation comes first.
    if cx.high_risk(entry) && !confirmed {
        return Some(Answered::of(Answer::Confirm { entry, kind: kind_of_reply }));
    }
    Some(Answered::of(Answer::Execute { entry, kind: kind_of_reply, by }))
}

/// To a question about `entry`: a clause after the yes that says a word
/// of its label and a value of a kind it shows, not what it shows ("yes,
/// send her a hundred and fifteen" to "Send €150.00"), changes it
/// (`decline::changed`). A clause of something else ("yes, and add 2
/// towels") is a follow-up, read as one.
fn changes_it_later(cx: &Context<'_, '_>, r: &Reading, entry: usize) -> Option<Answered> {
    let first_yes = r.clauses.iter().position(|c| c.affirms)?;
    let raw = cx.req.input.as_str();
    let label: Vec<&str> =
        cx.canon.label_words_of(entry).filter(|w| !cx.lex.generic_nouns.contains(*w) && !cx.lex.function_words.contains(*w)).collect();
    let speaks_of_it = r.clauses[first_yes + 1..].iter().any(|c| {
        let text = raw.get(c.start..).unwrap_or_default();
        c.rest.iter().any(|w| label.contains(&w.as_str())) && !values(text).is_empty()
    });
    if !speaks_of_it {
        return None;
    }
    super::decline::changed(cx, entry, r, ReplyKind::Affirm).filter(|a| matches!(a.answer, Answer::Escape { .. }))
}

/// A reply that only closes ("thanks", "that's all"), to an option
/// proposed: an acknowledgement of it (a high-risk one is confirmed
/// first: thanks is no explicit yes). With nothing proposed, the cancel
/// room's (`closing_with_nothing_proposed`).
pub(super) fn closing(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.closes || !r.clauses.is_empty() {
        return None;
    }
    // "Perfect thanks" to a question about it alone is its yes.
    let (entry, by, confirmed) = proposal(cx)?;
    Some(Answered::of(if cx.high_risk(entry) && !(r.closes_with_a_yes && confirmed) {
        Answer::Confirm { entry, kind: ReplyKind::Affirm }
    } else {
        Answer::Execute { entry, kind: ReplyKind::Affirm, by }
    }))
}

/// "Thanks. I need a cab there.": the thanks acknowledges what was
/// proposed, and the rest is the user's next turn (`follow_up`).
pub(super) fn thanks_then_a_request(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.closes_first || r.affirms || r.is_reply_shaped() || proposal(cx).is_none() {
        return None;
    }
    let a = affirm(cx, r)?;
    (matches!(a.answer, Answer::Execute { .. }) && a.follow_up.is_some()).then_some(a)
}

/// A turn that says nothing a reply says, and no position (the row
/// before): an everyday request that points at the one option proposed
/// ("I'd like to see it", "book it", "I would like to go there") is a yes
/// to it, and so is one that names nothing but the next step on it
/// ("make a reservation", "book a table"). Anything else is the ladder's.
pub(super) fn a_request_of_the_proposal(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.is_reply_shaped() || r.repeats || r.affirms {
        return None;
    }
    // The session is read only for such a request (a shared store
    // decides the rest without it).
    let requests = !r.verbs.is_empty() || (r.rest.is_empty() && does_something(r));
    let next_step = || {
        !r.verbs.is_empty()
            && !r.rest.is_empty()
            && all_explained(&r.rest, &cx.lex.next_step, |w| cx.lex.generic_nouns.contains(w) || EMPTY_IN_ANSWERS.contains(&w))
            && proposal(cx).is_some_and(|(p, _, _)| {
                // Words another option shows name that one ("open account"
                // with "Account" on screen).
                !cx.options().into_iter().any(|e| e != p && cx.words_of(e).iter().any(|w| r.rest.contains(w)))
            })
    };
    Some(if requests && (points(cx, r) || next_step()) && proposal(cx).is_some() { affirm(cx, r)? } else { Answered::pass() })
}

/// "Yes cancel it" to a question about "Cancel gym membership": a yes
/// with the option's own verb is a yes, not an abandon.
pub(super) fn a_yes_with_its_verb(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let asked = r.abandons && r.affirms && proposal(cx).is_some_and(|(e, by, _)| by != By::Screen && cx.says_the_verb_of(e, r));
    if asked { affirm(cx, r) } else { None }
}

/// A yes ("yes", "sounds good", "perfect, book it").
pub(super) fn a_yes(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.affirms { affirm(cx, r) } else { None }
}

/// A request of the one option proposed, in a reply no row before
/// answered: one that says "the other" or "not that" where there was no
/// execute to repair ("I'd like the other one").
pub(super) fn a_request(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.verbs.is_empty() && proposal(cx).is_some() { affirm(cx, r) } else { None }
}

/// Whether the reply opens with a verb of its own, not reply phrasing
/// ("send this one to my sister"): a yes phrase later in it is a part of
/// the request, not a yes ("Dumbo is nice" names what it accepts).
fn opens_with_a_request(cx: &Context<'_, '_>, r: &Reading) -> bool {
    let lex = cx.lex;
    let verb = |w: &str| {
        lex.actions.contains(w)
            || lex.selection_verbs.is_phrase(&[w])
            || lex.everyday_verbs.is_phrase(&[w])
            || lex.verb_synonyms.contains_key(w)
    };
    let first = r.clauses.first().and_then(|c| c.words.first());
    first.is_some_and(|w| r.rest.first() == Some(w) && verb(w))
}

/// The reply's own words, read again by the ladder, reply phrasing left out.
pub(super) fn again(r: &Reading) -> Answered {
    Answered::of(Answer::Again { text: r.rest.join(" "), without: Vec::new(), kind: ReplyKind::Affirm })
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

#[cfg(test)]
mod tests;
