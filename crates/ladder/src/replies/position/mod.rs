//! "The second one": a position in the order the user was shown (docs/replies.md).

use super::*;

/// An answer to "which one?" by position: it counts in the order the
/// question listed its options, whatever screen the app re-sent. Only
/// when a question of choice is pending and the reply is a plain position.
/// A position, in a turn that says nothing a reply says ("the second",
/// "number 3"): it may still answer "which one?". Else the affirm room's
/// `a_request_of_the_proposal` reads it.
pub(super) fn a_position(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.is_reply_shaped() || r.repeats || r.affirms {
        return None;
    }
    let a = position(cx, r);
    (a.answer != Answer::Pass).then_some(a)
}

/// A position after words that only hold the turn, with or without a no
/// ("wait no, second", "hold on, the 2nd one"): the position is the
/// choice that stands (the cancel room's `holds` says which words only
/// hold the turn; an abandon that ends the task still cancels).
pub(super) fn a_position_after_a_hold(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.abandons || r.asks || r.affirms || r.alternatives || r.not_that || r.the_other || r.comparison.is_some() {
        return None;
    }
    let rest = super::cancel::without_holds_and_refusals(cx)?;
    let said = position_said(cx, &rest)?;
    let a = position_n(cx, r, &said);
    (a.answer != Answer::Pass).then_some(a)
}

/// A position in a clause of its own, then a question or a request
/// ("option 2, and can you gift-wrap it?"): executed with a follow-up,
/// as a yes is (`a_choice_then_more`).
pub(super) fn a_position_then_more(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    a_choice_then_more(cx, r, true)
}

/// A yes with a position, to "which one?" over several options ("great,
/// the 2nd then"): the position answers it. Else the affirm room's `a_yes`
/// reads the yes (and its words again).
pub(super) fn a_yes_with_a_position(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if !r.affirms || r.asks || (r.rest.is_empty() && r.values.is_empty()) || cx.question().is_none() || proposal(cx).is_some() {
        return None;
    }
    let a = position(cx, r);
    (a.answer != Answer::Pass).then_some(a)
}

pub(super) fn position(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    if r.asks || r.refuses || r.corrects {
        return Answered::pass();
    }
    let Some(said) = position_said(cx, cx.canonical) else { return Answered::pass() };
    position_n(cx, r, &said)
}

/// A position a reply says: the place, and the words that say it (list
/// nouns and "number", "option" left out: "final" of "the final one").
pub(super) struct Said {
    pub(super) n: i32,
    pub(super) words: Vec<String>,
}

/// The position `text` (canonical) says, whole: "the 2nd one", "and the
/// 6th one", "then number 2" (after an opener), "teh thrid one" (its words
/// as meant).
pub(super) fn position_said(cx: &Context<'_, '_>, text: &str) -> Option<Said> {
    let respelled: String = text.split(' ').filter(|t| !t.is_empty()).map(|t| cx.respell(t)).collect::<Vec<_>>().join(" ");
    let respelled = crate::canon::strip_filler(respelled, cx.lex);
    let core = {
        let toks: Vec<&str> = respelled.split(' ').filter(|t| !t.is_empty()).collect();
        match cx.lex.additive_openers.match_at(&toks, 0) {
            Some(n) if n < toks.len() => {
                let skipped: usize = toks[..n].iter().map(|t| t.len() + 1).sum();
                respelled.get(skipped..).unwrap_or(&respelled)
            }
            _ => &respelled,
        }
    };
    let n = crate::matching::parse_ordinal(core, cx.lex)?;
    let list_word =
        |t: &&str| cx.lex.ordinal_prefixes.contains(*t) || cx.lex.ordinal_suffixes.contains(*t) || cx.lex.function_words.contains(*t);
    let words = core.split(' ').filter(|t| !t.is_empty()).filter(|t| !list_word(t)).map(str::to_string).collect();
    Some(Said { n, words })
}

/// An answer to "which one?" by the position `n` (`position`).
pub(super) fn position_n(cx: &Context<'_, '_>, r: &Reading, said: &Said) -> Answered {
    let n = said.n;
    // A number that is a value ("+1", "utc-3", "$2", "2.7") is no place.
    let values = crate::matching::value_digits(&cx.req.input);
    if said.words.iter().any(|w| values.contains(&w.as_str())) {
        return Answered::pass();
    }
    // A quantity or a date is not a position ("1 ticket", "on the 1st"),
    // but "the 2nd one" is.
    let numbered_one = r.clauses.iter().any(|c| {
        c.words.windows(2).any(|w| {
            let n = w[0].trim_end_matches(|ch: char| ch.is_ascii_alphabetic());
            !n.is_empty()
                && n.chars().all(|ch| ch.is_ascii_digit())
                && matches!(&w[0][n.len()..], "st" | "nd" | "rd" | "th")
                && cx.lex.ordinal_suffixes.contains(w[1].as_str())
        })
    });
    // A lone "6th" reads as a day of the month too: said alone, it is the
    // position the whole input names.
    if r.values.iter().any(|v| !matches!(v.dim, Dim::Bare | Dim::Day)) && !numbered_one {
        return Answered::pass();
    }
    let Some((q, by)) = cx.question() else { return Answered::pass() };
    // Two lists the user may count on: the question's, as it listed its
    // options (docs/calling.md: apps show them in that order), and the
    // screen the app sent with the reply. Where both put one option at
    // that place, it is the one; where they put two, the user may mean
    // either, and both are asked.
    let listed: Vec<Option<usize>> = q.offered.iter().map(|id| cx.offered_entry(q, id)).collect();
    let asked: Vec<usize> = listed.iter().flatten().copied().collect();
    if asked.is_empty() {
        return Answered::pass();
    }
    let screen = cx.options();
    let by_question = place(n, listed.len()).and_then(|k| listed[k]);
    let by_screen = place(n, screen.len()).map(|k| screen[k]);
    // A word of the position that one of its two readings also shows,
    // and no other offered option ("final" over "Q3_budget_v2.xlsx" and
    // "Q3_budget_FINAL.xlsx", listed in another order than the screen's):
    // that one.
    // A number ("number 2" with "Pack of 2") is a value as often: asked.
    let worded = |w: &String| w.chars().all(char::is_alphabetic) && !crate::values::is_number_word(w);
    let shows_the_word = |e: usize| cx.words_of(e).iter().any(|w| worded(w) && said.words.contains(w));
    // The one option, of those offered and on the screen, that shows the
    // word, when it is one of the position's readings.
    let the_one_showing = |readings: &[usize]| {
        // One of the readings must show it: read those two first, the
        // screen (a hundred options, each read whole) only then.
        if !readings.iter().any(|e| shows_the_word(*e)) {
            return None;
        }
        let mut showing = asked.iter().chain(&screen).chain(readings).copied().filter(|e| shows_the_word(*e));
        let one = showing.next()?;
        (readings.contains(&one) && showing.all(|e| e == one)).then_some(one)
    };
    let entry = match (by_question, by_screen) {
        (Some(a), Some(b)) if a != b => match the_one_showing(&[a, b]) {
            Some(one) => one,
            None => return Answered::of(Answer::Ask { entries: vec![a, b], kind: ReplyKind::Position }),
        },
        (Some(a), _) => a,
        // A place neither list has is no position ("the 7" of three: a
        // value, for a detail answer to read).
        (None, None) if place(n, listed.len().max(screen.len())).is_none() => return Answered::pass(),
        // The question's place is empty (outside it, or its option gone
        // from the screen): asked among what it offered, and the screen's.
        (None, Some(b)) if the_one_showing(&[b]).is_some() => b,
        (None, b) => {
            let mut entries = asked;
            entries.extend(b.filter(|b| !entries.contains(b)));
            return Answered::of(Answer::Ask { entries, kind: ReplyKind::Position });
        }
    };
    // A word of the position that is also another offered option's word
    // ("number 2" with "Pack of 2", "the final one" with
    // "report_final.pdf"), or the same place said another way by its
    // label ("el primero" with "Primer plato", "3" with "Room 3B"): both
    // readings are asked.
    let said_words: Vec<&str> = said.words.iter().map(String::as_str).collect();
    let also: Vec<usize> = asked
        .iter()
        .copied()
        .filter(|e| {
            *e != entry
                && cx
                    .words_of(*e)
                    .iter()
                    .any(|w| said.words.contains(w) || crate::matching::says_the_place_otherwise(&said_words, n, w, cx.lex))
        })
        .collect();
    if !also.is_empty() {
        let mut both = also;
        both.insert(0, entry);
        return Answered::of(Answer::Ask { entries: both, kind: ReplyKind::Position });
    }
    Answered::of(Answer::Execute { entry, kind: ReplyKind::Position, by })
}

/// The index a position names in a list of `len` (1-based `n`; negative
/// from the end; 0 the middle of an odd list).
pub(super) fn place(n: i32, len: usize) -> Option<usize> {
    let k = match n {
        n if n > 0 => (n as usize).checked_sub(1),
        n if n < 0 => len.checked_sub(n.unsigned_abs() as usize),
        _ => (len % 2 == 1).then_some(len / 2),
    };
    k.filter(|k| *k < len)
}

#[cfg(test)]
mod tests;
