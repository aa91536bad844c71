//! "The saturday one": a word or value only one offered option shows;
//! "and the one where..." after an execute; a negation that names what is
//! wanted (`negation`); "the plain one" (`plain`) (docs/replies.md).

use super::*;
pub(super) use negation::*;
pub(super) use plain::*;

mod negation;
mod plain;

/// An answer to "which one?" by detail, read where the screen left a tie
/// or no match: a word or value only one offered option shows picks it
/// (`PendingQuestion::detail`, read from the session). The app's own
/// question is read the same way.
pub fn detail(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    if r.asks || r.refuses || r.corrects || r.alternatives || r.abandons {
        return Answered::pass();
    }
    // A number with a sign ("the +1 one") is its value, never the word
    // of another number a label shows ("1 stop").
    let signed = crate::matching::signed_digits(&cx.req.input);
    let words: Vec<String> =
        r.rest.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str()) && !signed.contains(&w.as_str())).cloned().collect();
    if words.is_empty() && r.values.is_empty() {
        return Answered::pass();
    }
    let (picked, by) = match cx.req.options.as_ref().map(|o| o.asked) {
        Some(Asked::Choice) => match cx.question() {
            Some((q, by)) => (q.detail(&words, &r.values).map(str::to_string), by),
            None => return Answered::pass(),
        },
        Some(Asked::Confirmation) => return Answered::pass(),
        _ => match cx.state.question_detail(&words, &r.values) {
            Some(id) => (Some(id), By::Ladder),
            // With no question asked, "the beatles one", "the friday
            // ones": the user picks among what the screen shows, as from a
            // list (the session is read only for such a reply).
            None => match the_one_of_the_screen(cx, r) {
                Some(q) if cx.state.question().is_none() => {
                    // The noun every label shares ("window seat" among
                    // seats) says "one", nothing that tells them apart.
                    let common = common_label_words(cx);
                    let words: Vec<String> = words.iter().filter(|w| !common.contains(w)).cloned().collect();
                    (q.detail(&words, &r.values).map(str::to_string), By::Screen)
                }
                _ => return Answered::pass(),
            },
        },
    };
    let Some(entry) = picked.and_then(|id| cx.entry_of(&id)) else { return Answered::pass() };
    // A code said as one ("h7", "F8") is one value: the option shows it,
    // or its letter and its number each as a word ("Fila F · asiento 8");
    // its number alone picks nothing ("h7" is not "Fila F · asiento 7").
    let shown = cx.words_of(entry);
    let code_shown = |w: &str| match crate::values::code_parts(w) {
        Some((letter, digits)) => shown.iter().any(|s| s == w) || (shown.iter().any(|s| s == letter) && shown.iter().any(|s| s == digits)),
        None => true,
    };
    if !words.iter().all(|w| code_shown(w)) {
        return Answered::pass();
    }
    // A part of today said without "today" ("tonight", "this morning":
    // the lexicon's `today_phrases`) is today's: never an option that
    // shows another day ("tonight" is not "Tomorrow 8 PM").
    if says_a_part_of_today(cx) && shows_another_day(cx, entry) {
        return Answered::pass();
    }
    // A word of the answer that is also a position naming another option
    // ("first" of "the first report" with "Roadmap report first" second):
    // both readings, never a pick.
    if words.iter().any(|w| places_another(cx, w, entry)) {
        return Answered::pass();
    }
    // A count of a noun ("3 avocados") names the option that is that
    // noun, never a bundle that counts it among more ("Guacamole kit: 3
    // avocados, lime, chili"): where another option is the noun, showing
    // no count, the words that only the bundle shows pick nothing.
    if names_a_bundle_beside_its_noun(cx, r, entry) {
        return Answered::pass();
    }
    // The same option the question showed (ids of another screen may name
    // something else), and not one the user refused.
    let id = &cx.pool.entries[entry].cand.id;
    if let Some(q) = cx.state_question_if_ladder() {
        let label = q.label_of(id);
        if !label.is_empty() && label != cx.pool.entries[entry].cand.label {
            return Answered::pass();
        }
    }
    if cx.high_risk(entry) {
        return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Detail });
    }
    Answered::of(Answer::Execute { entry, kind: ReplyKind::Detail, by })
}

/// Whether the reply says a part of today without "today" (`detail`).
fn says_a_part_of_today(cx: &Context<'_, '_>) -> bool {
    let toks: Vec<&str> = cx.canonical.split(' ').filter(|w| !w.is_empty()).collect();
    (0..toks.len()).any(|k| cx.lex.today_phrases.match_at(&toks, k).is_some())
}

/// Whether `entry` shows a day that is not said to be today: a word of
/// another day from today ("Tomorrow 8 PM"), a weekday or a date, and no
/// word of today (`detail`).
fn shows_another_day(cx: &Context<'_, '_>, entry: usize) -> bool {
    let words = cx.words_of(entry);
    let shown = crate::values::shown(cx.pool.entries[entry].cand);
    cx.lex.shown_day(&words.iter().map(String::as_str).collect::<Vec<_>>(), &shown) == Some(crate::lexicon::ShownDay::Another)
}

/// Whether the reply counts a noun that `entry` counts among other
/// things its label says and the reply does not ("3 avocados" of
/// "Guacamole kit: 3 avocados, lime, chili") (`detail`).
fn names_a_bundle_beside_its_noun(cx: &Context<'_, '_>, r: &Reading, entry: usize) -> bool {
    let counted: Vec<&str> = r.values.iter().filter(|v| v.dim == Dim::Count && !v.unit.is_empty()).map(|v| v.unit.as_str()).collect();
    if counted.is_empty() || !cx.values_of(entry).iter().any(|v| v.dim == Dim::Count && counted.contains(&v.unit.as_str())) {
        return false;
    }
    let said: Vec<&String> = r.clauses.iter().flat_map(|c| &c.words).collect();
    let is_noun = |w: &str, u: &str| w == u || w.strip_suffix('s') == Some(u) || w.strip_suffix("es") == Some(u);
    let normalized = normalize(&cx.pool.entries[entry].cand.label);
    let label = fold(&normalized);
    label.split(' ').filter(|w| !w.is_empty()).any(|w| {
        !said.iter().any(|s| s.as_str() == w)
            && !counted.iter().any(|u| is_noun(w, u))
            && !values::is_number_word(w)
            && !w.chars().any(|c| c.is_ascii_digit())
            && !cx.lex.function_words.contains(w)
    })
}

/// A choice by words in a clause of its own, then a question or a request
/// ("the blue one - is it machine washable?"): executed with a follow-up,
/// as a yes is (`a_choice_then_more`).
pub(super) fn a_detail_then_more(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    a_choice_then_more(cx, r, false)
}

/// "And the one where I park the car", "now the beatles one": after an
/// execute, a request that opens with an additive word and picks "the
/// one" asks for another option than the one just had; it is read again
/// without it. Not when it points at it ("and turn it off"), names it by a
/// word only it shows, or repeats it ("and one more").
pub(super) fn and_the_one(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let first = r.clauses.first()?;
    let toks: Vec<&str> = first.words.iter().map(String::as_str).collect();
    let n = cx.lex.additive_openers.match_at(&toks, 0)?;
    let words: Vec<&str> = r.clauses.iter().flat_map(|c| c.words.iter().map(String::as_str)).collect();
    let one = words[n..].iter().any(|w| THE_ONE.contains(w));
    let points = words[n..].iter().any(|w| *w != "one" && cx.lex.deictic.contains(*w));
    if !one || points || r.repeats || r.is_reply_shaped() || r.asks || r.rest.is_empty() {
        return None;
    }
    let had = cx.executed_entry(&cx.state.last_execute()?)?;
    // A word only it shows names it ("and the porch one too").
    let own = cx.words_of(had);
    let others: Vec<Vec<String>> = cx.options().into_iter().filter(|e| *e != had).map(|e| cx.words_of(e)).collect();
    if r.rest.iter().any(|w| own.contains(w) && !others.iter().any(|o| o.contains(w))) {
        return None;
    }
    let rest: Vec<&String> = r.rest.iter().filter(|w| !cx.lex.additive_openers.is_phrase(&[w.as_str()])).collect();
    let text = rest.iter().map(|w| w.as_str()).collect::<Vec<_>>().join(" ");
    Some(Answered::of(Answer::Again { text, without: vec![had], kind: ReplyKind::Detail }))
}

/// The screen's options as a question of choice, when the reply picks
/// among them as from a list by what they show beside their labels: "the
/// <detail> one" ("the beatles one", "ok now the blue ones"), not "one
/// more".
pub(super) fn the_one_of_the_screen(cx: &Context<'_, '_>, r: &Reading) -> Option<PendingQuestion> {
    // "The window one", or "window seat" where every label says "seat"
    // and "window" none does (a word beside the labels, as "one" is).
    let common = common_label_words(cx);
    let label_word = |w: &String| cx.options().into_iter().any(|e| cx.canon.label_words_of(e).any(|x| x == w));
    let one = |c: &reading::Clause| {
        c.words.iter().any(|w| THE_ONE.contains(&w.as_str()))
            || (c.words.iter().any(|w| common.contains(w)) && c.rest.iter().all(|w| common.contains(w) || !label_word(w)))
    };
    let said = |c: &reading::Clause| c.rest.iter().any(|w| !common.contains(w));
    if r.repeats || !r.clauses.iter().any(|c| one(c) && said(c)) {
        return None;
    }
    let options = cx.options();
    if options.len() < 2 || options.len() > SCREEN_READ {
        return None;
    }
    // Only what the options show beside their labels: a word of a label
    // is the ladder's to read, with the principle ("the account one" does
    // not say "Close Account").
    let cands: Vec<&crate::types::Candidate> = options.iter().map(|e| cx.pool.entries[*e].cand).collect();
    Some(PendingQuestion {
        kind: QuestionKind::Choice,
        offered: cands.iter().map(|c| c.id.clone()).collect(),
        proposed: None,
        shown: cands.iter().map(|c| format!("{} {}", c.sublabel, c.badge)).collect(),
        labels: cands.iter().map(|c| c.label.clone()).collect(),
    })
}

/// The words every option on a short screen has in its label ("seat" in
/// "Seat 14A", "Seat 14B", "Seat 22C"): the list's own noun.
pub(super) fn common_label_words(cx: &Context<'_, '_>) -> Vec<String> {
    let options = cx.options();
    if options.len() < 2 || options.len() > SCREEN_READ {
        return Vec::new();
    }
    let first: Vec<String> = cx.canon.label_words_of(options[0]).map(str::to_string).collect();
    first.into_iter().filter(|w| options[1..].iter().all(|e| cx.canon.label_words_of(*e).any(|x| x == w))).collect()
}

/// Whether the word `w` ("first", "last": a position word, not a number)
/// is a position that puts another option than `entry` at its place, in
/// the order of the question asked (when there is one) or of the screen.
fn places_another(cx: &Context<'_, '_>, w: &str, entry: usize) -> bool {
    if !w.chars().all(char::is_alphabetic) {
        return false;
    }
    let Some(n) = crate::matching::parse_ordinal(w, cx.lex) else { return false };
    let listed: Vec<Option<usize>> = match cx.question() {
        Some((q, _)) => q.offered.iter().map(|id| cx.offered_entry(q, id)).collect(),
        None => cx.options().into_iter().map(Some).collect(),
    };
    let screen = cx.options();
    let at = |list: &[Option<usize>]| super::position::place(n, list.len()).and_then(|k| list[k]);
    [at(&listed), at(&screen.into_iter().map(Some).collect::<Vec<_>>())].into_iter().flatten().any(|e| e != entry)
}

#[cfg(test)]
mod tests;
