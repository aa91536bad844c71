//! "The first... no wait, the third": a reply that corrects itself
//! (docs/replies.md). The last choice in the reply stands; the option it
//! takes back is never the one proposed.

use super::*;
use crate::values::is_number_word;

/// Words that take back what was just said, beside the lexicon's
/// refusals ("no") and abandons ("wait", "hold on"): "sorry", "actually",
/// "I mean", in the lexicon's languages. Not the corrections that add to
/// a choice ("but", "only", "instead": "the blue one but in large").
const TAKES_BACK: &[&[&str]] = &[
    &["sorry"],
    &["actually"],
    &["i", "mean"],
    &["i", "meant"],
    &["rather"],
    &["or", "rather"],
    &["on", "second", "thought"],
    &["scratch", "that"],
    &["make", "that"],
    &["eigentlich"],
    &["ich", "meine"],
    &["en", "fait"],
    &["plutot"],
    &["je", "veux", "dire"],
    &["perdon"],
    &["mejor", "dicho"],
    &["digo"],
    &["quiero", "decir"],
];

/// What one side of the reply chooses: a position ("the third", "3"), or
/// the one option whose words it says ("the green one").
enum Choice {
    Position(Said),
    Entry(usize),
}

/// A choice, words that take it back, and another choice ("the first...
/// no wait, the third", "2 - sorry, 3", "the second, actually no the
/// first"): the last choice stands. A position counts as the question
/// listed its options; anything else is read again by the ladder without
/// the option taken back. `None` when the reply is not so shaped: a
/// choice on each side, nothing asked, no negation after the take-back.
pub(super) fn taken_back_for_another(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.asks {
        return None;
    }
    // No word that takes anything back (most turns): nothing to read. A
    // refusal, an abandon or a correction the reading found, else the
    // first word of a phrase of `TAKES_BACK` among the words as typed (a
    // cheap test that may let through what the words below reject).
    let lower = fold(&cx.req.input.to_lowercase()).into_owned();
    let first_words = || TAKES_BACK.iter().map(|p| p[0]);
    let takes_back = lower.split(|c: char| !c.is_alphanumeric()).any(|w| !w.is_empty() && first_words().any(|f| f == w));
    if !(r.refuses || r.abandons || r.corrects || takes_back) {
        return None;
    }
    // The words as typed (a clause that only says "sorry" is no clause of
    // the reading), a slip of the keyboard read as the word meant.
    let text = fold(&normalize(&cx.req.input)).into_owned();
    let words: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).map(|t| cx.respell(t)).collect();
    // The cheap test's word opened no phrase of `TAKES_BACK` ("i" of "I
    // put aside", "on" of "on friday"): nothing is taken back.
    if !(r.refuses || r.abandons || r.corrects || (0..words.len()).any(|i| said_at(&words, i).is_some())) {
        return None;
    }
    // A label said whole ("Don't Stop Me Now") is that request.
    if cx.a_label_says_it() {
        return None;
    }
    // The side taken back starts after the take-back before it, if any
    // ("patel. no wait okafor. actually patel": "okafor").
    let (from, start, end) = last_take_back(cx, &words)?;
    let (before, after) = (&words[from..start], &words[end..]);
    // Each side as typed, where the words line up with the input's, for
    // the values it says ("the 8:15", "tuesday").
    let input = cx.req.input.as_str();
    let starts = reading::word_starts(input, words.len());
    let typed = |from: usize, to: usize| {
        let starts = starts.as_ref().filter(|_| from < to)?;
        input.get(starts[from]..starts.get(to).copied().unwrap_or(input.len()))
    };
    // The side taken back chooses one option, a position, or words that
    // name several ("economy... no, business" over "Economy" and "Economy
    // Plus"): the choice after the take-back stands all the same.
    // Words on that side that name nothing ("full groom for Biscuit", a
    // pet's name) are passed over as long as the rest names one option.
    let taken = match choice(cx, before, typed(from, start)).or_else(|| naming_part(cx, before)) {
        Some(Choice::Entry(e)) => Some(e),
        Some(Choice::Position(said)) => position_on_screen(cx, &said),
        None if names_several(cx, before) => None,
        None => return None,
    };
    // "The blue one, actually no, not the first": the one taken back and
    // the one negated are out; the rest is asked.
    if let Some((i, n)) = (0..after.len()).find_map(|i| cx.lex.negations.match_at(after, i).map(|n| (i, n))) {
        let rest: Vec<&str> = after[..i].iter().chain(&after[i + n..]).copied().collect();
        let not = match choice(cx, &rest, None) {
            Some(Choice::Entry(e)) => Some(e),
            Some(Choice::Position(said)) => position_on_screen(cx, &said),
            None => None,
        };
        let entries: Vec<usize> = asked_or_screen(cx)?.into_iter().filter(|e| Some(*e) != taken && Some(*e) != not).collect();
        return (taken.is_some() && !entries.is_empty()).then(|| Answered::of(Answer::Ask { entries, kind: ReplyKind::SelfCorrection }));
    }
    // What follows names nothing asked ("... no, the purple one"): the
    // choice is taken back all the same; the options are asked, the one
    // taken back last.
    // Said after a reason for the change ("... nah too pricey, economy
    // plus"): the longest end of what follows that chooses, where the few
    // words it passes over (three content words at most: the search stops
    // there, so a long reply costs no more than a short one) name nothing,
    // and the end says a word of the label or a value ("with subtitles"
    // beside a sublabel "no subtitles" chooses nothing).
    // Said before a word of acceptance or a reason ("K is better",
    // "plutôt 21h15 je finis tard"): the choice ends where what follows
    // names nothing (four content words at most, no value, no negation).
    let tail_names_nothing = |j: usize| {
        let tail = &after[j..];
        j == after.len()
            || (!cx.names_something(&content(cx, tail))
                && typed(end + j, words.len()).is_some_and(|t| crate::values::values(t).is_empty())
                && !(0..tail.len()).any(|k| cx.lex.negations.match_at(tail, k).is_some()))
    };
    let chosen = (0..after.len()).take_while(|i| content(cx, &after[..*i]).len() <= 3).find_map(|i| {
        let skipped = content(cx, &after[..i]);
        if i > 0 && cx.names_something(&skipped) {
            return None;
        }
        (i + 1..=after.len()).rev().take_while(|j| content(cx, &after[*j..]).len() <= 4).filter(|j| tail_names_nothing(*j)).find_map(|j| {
            let side = typed(end + i, end + j);
            match choice(cx, &after[i..j], side)? {
                Choice::Entry(e) if i > 0 => {
                    let said = content(cx, &after[i..j]);
                    let by_label = cx.canon.label_words_of(e).any(|w| said.iter().any(|s| s == w));
                    (by_label || side.is_some_and(|t| !crate::values::values(t).is_empty())).then_some((i, j, Choice::Entry(e)))
                }
                c => Some((i, j, c)),
            }
        })
    });
    let Some((from, to, wanted)) = chosen else {
        // What follows names several options, then words that name
        // nothing ("... actually patel, she knows biscuit" over two Dr.
        // Patel slots): those are asked, never the one taken back.
        // The search stops at four content words after the choice, as the
        // one above does.
        let ends = (1..=after.len()).rev().take_while(|j| content(cx, &after[*j..]).len() <= 4);
        if let Some(entries) = ends.filter(|j| tail_names_nothing(*j)).find_map(|j| {
            let several: Vec<usize> = named_all(cx, &after[..j]).into_iter().filter(|e| Some(*e) != taken).collect();
            (several.len() >= 2).then_some(several)
        }) {
            return Some(Answered::of(Answer::Ask { entries, kind: ReplyKind::SelfCorrection }));
        }
        // Only what is said as a choice ("the purple one"), not a sentence
        // of its own ("... is actually awesome, now find me a drama").
        let taken = taken.filter(|_| content(cx, after).len() <= 2)?;
        let mut entries: Vec<usize> = asked_or_screen(cx)?.into_iter().filter(|e| *e != taken).collect();
        entries.push(taken);
        return Some(Answered::of(Answer::Ask { entries, kind: ReplyKind::SelfCorrection }));
    };
    match wanted {
        // An option that only the words after say, among those asked
        // about or on a screen read at a glance: that one (a high-risk one
        // is confirmed first). Both sides naming the same option ("coffee
        // no sales a" over "Coffee sales A") take nothing back for
        // another: a negation inside what is said, the ladder's to read.
        Choice::Entry(e) if cx.question().is_none() && taken == Some(e) => None,
        Choice::Entry(e) => {
            let by = cx.question().map_or(By::Screen, |(_, by)| by);
            Some(Answered::of(if cx.high_risk(e) {
                Answer::Confirm { entry: e, kind: ReplyKind::SelfCorrection }
            } else {
                Answer::Execute { entry: e, kind: ReplyKind::SelfCorrection, by }
            }))
        }
        // Counted as the question listed its options, when one was asked.
        Choice::Position(said) if cx.question().is_some() => {
            let mut a = position_n(cx, r, &said);
            a.answer = match a.answer {
                Answer::Pass => return None,
                Answer::Execute { entry, by, .. } => Answer::Execute { entry, kind: ReplyKind::SelfCorrection, by },
                Answer::Ask { entries, .. } => Answer::Ask { entries, kind: ReplyKind::SelfCorrection },
                other => other,
            };
            Some(a)
        }
        Choice::Position(said) => {
            let again = position_on_screen(cx, &said);
            if taken.is_some() && taken == again {
                return None;
            }
            let without: Vec<usize> = taken.filter(|t| Some(*t) != again).into_iter().collect();
            Some(Answered::of(Answer::Again { text: after[from..to].join(" "), without, kind: ReplyKind::SelfCorrection }))
        }
    }
}

/// How many words a phrase of `TAKES_BACK` takes at `words[i]`, the
/// longest that is said there.
fn said_at(words: &[&str], i: usize) -> Option<usize> {
    TAKES_BACK.iter().filter(|p| words.get(i..i + p.len()) == Some(**p)).map(|p| p.len()).max()
}

/// The last run of words that take back (`TAKES_BACK`, a refusal, an
/// abandon) with words on either side: where the run before it ends (0
/// when there is none), and where it starts and ends.
fn last_take_back(cx: &Context<'_, '_>, words: &[&str]) -> Option<(usize, usize, usize)> {
    let lex = cx.lex;
    let at = |i: usize| {
        // "No" of a negation ("no longer") takes nothing back: it
        // negates what follows.
        if lex.negations.match_at(words, i).is_some_and(|n| n > 1) {
            return None;
        }
        said_at(words, i).into_iter().chain([lex.refusals.match_at(words, i), lex.abandons.match_at(words, i)].into_iter().flatten()).max()
    };
    let mut runs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match at(i) {
            Some(n) => {
                let start = i;
                i += n;
                while let Some(n) = at(i) {
                    i += n;
                }
                runs.push((start, i));
            }
            None => i += 1,
        }
    }
    let k = runs.iter().rposition(|(s, e)| *s > 0 && *e < words.len())?;
    let (start, end) = runs[k];
    let from = runs[..k].iter().rev().map(|(_, e)| *e).find(|e| *e < start).unwrap_or(0);
    Some((from, start, end))
}

/// What `words` choose: the one option every content word of which it
/// shows (among those asked about, else the screen), else a position said
/// whole.
fn choice(cx: &Context<'_, '_>, words: &[&str], typed: Option<&str>) -> Option<Choice> {
    named(cx, words, typed).or_else(|| position_said(cx, &words.join(" ")).map(Choice::Position))
}

/// The one option the words of `words` that some option shows name,
/// when the words no option shows name nothing ("full groom for
/// Biscuit": "Full groom"). At least one word must name it.
fn naming_part(cx: &Context<'_, '_>, words: &[&str]) -> Option<Choice> {
    let asked = asked_or_screen(cx)?;
    let content = content(cx, words);
    let (named, rest): (Vec<String>, Vec<String>) =
        content.into_iter().partition(|w| asked.iter().any(|e| shows_word(&cx.words_of(*e), w)));
    if named.is_empty() || rest.len() > 2 || cx.names_something(&rest) {
        return None;
    }
    let mut fits = asked.into_iter().filter(|e| {
        let own = cx.words_of(*e);
        named.iter().all(|w| shows_word(&own, w))
    });
    match (fits.next(), fits.next()) {
        (Some(one), None) => Some(Choice::Entry(one)),
        _ => None,
    }
}

/// The options (asked about, else the screen) that show every content
/// word of `words`; none when it has no content word.
fn named_all(cx: &Context<'_, '_>, words: &[&str]) -> Vec<usize> {
    let content = content(cx, words);
    if content.is_empty() {
        return Vec::new();
    }
    asked_or_screen(cx)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| {
            let own = cx.words_of(*e);
            content.iter().all(|w| shows_word(&own, w))
        })
        .collect()
}

/// Whether `words` name two or more options, each showing every content
/// word of them ("economy" over "Economy" and "Economy Plus").
fn names_several(cx: &Context<'_, '_>, words: &[&str]) -> bool {
    named_all(cx, words).len() >= 2
}

/// The one option that shows every content word of `words` and every
/// value `typed` (the same side as typed) says: "the 17:05" names "17:05
/// · direct", "tuesday" names "Tue 4 Mar". A word of a value is the
/// value's, not a word the label must show.
fn named(cx: &Context<'_, '_>, words: &[&str], typed: Option<&str>) -> Option<Choice> {
    let at = typed.map(crate::values::values_at).unwrap_or_default();
    let said: Vec<crate::values::Value> = at.iter().map(|(v, _)| v.clone()).collect();
    // The words a value is said in ("ocho y media"), folded as `words` are.
    let in_values: Vec<String> = at
        .iter()
        .filter_map(|(_, span)| typed?.get(span.clone()))
        .flat_map(|t| fold(&normalize(t)).split(' ').map(str::to_string).collect::<Vec<_>>())
        .collect();
    let content: Vec<String> = content(cx, words)
        .into_iter()
        .filter(|w| {
            said.is_empty()
                || !(w.chars().any(|c| c.is_ascii_digit())
                    || crate::values::is_a_value_word(w)
                    || is_number_word(w)
                    || in_values.contains(w))
        })
        .collect();
    if content.is_empty() && said.is_empty() {
        return None;
    }
    let asked = asked_or_screen(cx)?;
    let mut named = asked.into_iter().filter(|e| {
        let own = cx.words_of(*e);
        let shown = cx.values_of(*e);
        content.iter().all(|w| shows_word(&own, w)) && said.iter().all(|v| shown.iter().any(|s| v.names(s)))
    });
    match (named.next(), named.next()) {
        (Some(one), None) => Some(Choice::Entry(one)),
        _ => None,
    }
}

/// The words that may name an option: no article, filler, sound,
/// conjunction no option shows ("wash and fold" names "Wash & fold",
/// "economy plus" still says "plus") or word with no detail in an answer.
fn content(cx: &Context<'_, '_>, words: &[&str]) -> Vec<String> {
    let lex = cx.lex;
    words
        .iter()
        .filter(|w| {
            let w = [**w];
            !(EMPTY_IN_ANSWERS.contains(&w[0])
                || THE_ONE.contains(&w[0])
                || lex.function_words.contains(w[0])
                || lex.deictic.contains(w[0])
                || lex.filler.is_phrase(&w)
                || ((lex.conjunctions.is_phrase(&w) || lex.everyday_verbs.is_phrase(&w) || lex.selection_verbs.is_phrase(&w))
                    && !cx.names_something(&[w[0].to_string()]))
                || lex.interjections.is_phrase(&w))
        })
        .map(|w| w.to_string())
        .collect()
}

/// The options a reply is read over: those asked about, else a screen
/// taken in at a glance (`SCREEN_READ`).
fn asked_or_screen(cx: &Context<'_, '_>) -> Option<Vec<usize>> {
    match cx.question() {
        Some((q, _)) => Some(q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect()),
        None if cx.pool.len() <= SCREEN_READ => Some(cx.options()),
        None => None,
    }
}

/// The option at a position on the screen as sent.
fn position_on_screen(cx: &Context<'_, '_>, said: &Said) -> Option<usize> {
    let screen = cx.options();
    place(said.n, screen.len()).map(|k| screen[k])
}

#[cfg(test)]
mod tests;
