//! A choice, then an aside (docs/deciding.md): "-1 pls, closer to the
//! exit", "the +1 one, that's way cheaper", "first class, works paying".
//! A first clause that alone names one option, then a remark or a reason
//! that names nothing on screen and asks for nothing: the first clause is
//! the turn's request, and the aside is no request of its own (no
//! follow-up: it asks nothing of the app).
//!
//! Never an aside: a clause that asks ("?", a question opener), refuses,
//! negates, corrects, cancels, asks for others, adds ("also", "and"),
//! relates ("cheaper than"), requests (a verb of choosing, an everyday
//! verb, an action, a request opener), says a word of an option (its
//! label, aliases, sublabel or kind), or says a value of a kind an option
//! shows ("the 7pm one, I'm free till 9" is no aside: 9 may be the time
//! meant). Only on a screen the user takes in at a glance
//! ([`SCREEN_READ`]): the aside's words are looked up in every option's
//! sublabel and kind. A two-requests-in-order split (`sequence`) is read
//! first. Texting's run-on has no comma: a word that opens a reason
//! ("its", "cuz", "weil": the lexicon's `reasons`) ends the choice too.
//!
//! Tests: `aside/tests.rs`.

use super::{CanonPool, Matches, Query, Rules};
use crate::cost::DeadlinePassed;
use crate::scope::Pool;
use crate::text::{fold, normalize};
use crate::types::Candidate;
use crate::values::values;

/// The most options an aside is read beside: its words are compared with
/// every option's sublabel and kind.
pub const SCREEN_READ: usize = 24;

/// The most words an aside says: a longer rest is a sentence of its own.
const LONGEST: usize = 10;

/// An input split at its first clause boundary: the choice as typed, and
/// the aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aside<'a> {
    pub first: &'a str,
    pub rest: &'a str,
}

/// Where the input's first clause ends (a comma, a semicolon, a full
/// stop, an exclamation mark, a dash between spaces, an ellipsis), with
/// words on both sides.
pub fn split(raw: &str) -> Option<Aside<'_>> {
    let bytes = raw.as_bytes();
    let at = raw.char_indices().find_map(|(i, c)| {
        let dash = matches!(c, '-' | '\u{2013}' | '\u{2014}') && i > 0 && bytes[i - 1] == b' ' && raw[i + c.len_utf8()..].starts_with(' ');
        let stop = matches!(c, ',' | ';' | '!' | '\u{2026}')
            || (c == '.' && !raw[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
            || matches!(c, '\u{2013}' | '\u{2014}')
            || dash;
        stop.then_some(i)
    })?;
    let first = raw[..at].trim();
    let rest = raw[at..]
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.' | '!' | '-' | '\u{2013}' | '\u{2014}' | '\u{2026}'));
    let rest = rest.trim();
    (first.chars().any(char::is_alphanumeric) && rest.chars().any(char::is_alphanumeric)).then_some(Aside { first, rest })
}

/// An input split where a verdict on what it names starts (the
/// lexicon's `verdicts`: "the armchair is fine", "pickup's easier", "la
/// poltrona va benissimo"), after one word at least: the choice as typed,
/// and what follows the verdict (often nothing). A word's "'s" is a word
/// of its own.
pub fn split_at_verdict<'a>(raw: &'a str, lex: &crate::lexicon::Lexicon) -> Option<Aside<'a>> {
    // The words as typed, where each starts and ends.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in raw.char_indices().chain(std::iter::once((raw.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let tok = &raw[s..i];
                match tok.strip_suffix("'s").or_else(|| tok.strip_suffix("\u{2019}s")) {
                    Some(stem) if !stem.is_empty() => spans.extend([(s, s + stem.len()), (s + stem.len(), i)]),
                    _ => spans.push((s, i)),
                }
                start = None;
            }
            _ => {}
        }
    }
    // Each word normalized; a word that normalizes to nothing (a dash) is
    // left out, one that normalizes to several keeps its span for each.
    let mut words: Vec<String> = Vec::new();
    let mut at: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in &spans {
        let t = &raw[s..e];
        let t = if t == "'s" || t == "\u{2019}s" { "s".into() } else { fold(&normalize(t)).into_owned() };
        for w in t.split(' ').filter(|w| !w.is_empty()) {
            words.push(w.to_string());
            at.push((s, e));
        }
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let (i, n) = (1..words.len()).find_map(|i| lex.verdicts.match_at(&words, i).map(|n| (i, n)))?;
    let edge = |c: char| !c.is_alphanumeric();
    let first = raw[..at[i].0].trim_end_matches(edge);
    let rest = raw[at[i + n - 1].1..].trim_matches(edge);
    first.chars().any(char::is_alphanumeric).then_some(Aside { first, rest })
}

/// An input split before a word that opens a reason or a remark (the
/// lexicon's `reasons`: "its", "cuz", "weil"), after a word at least,
/// where no comma or full stop comes first: texting's run-on "+2 pls its
/// freezing in here". The choice as typed, and the rest from that word.
pub fn split_at_reason<'a>(raw: &'a str, lex: &crate::lexicon::Lexicon) -> Option<Aside<'a>> {
    let mut seen = 0;
    for w in raw.split_whitespace() {
        let at = w.as_ptr() as usize - raw.as_ptr() as usize;
        let word: String = w.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
        if seen >= 1 && lex.reasons.contains(word.as_str()) {
            let first = raw[..at].trim();
            return first.chars().any(char::is_alphanumeric).then_some(Aside { first, rest: raw[at..].trim() });
        }
        seen += usize::from(word.chars().any(char::is_alphanumeric));
    }
    None
}

/// Whether `rest` is an aside over `pool` (the module's doc).
fn is_an_aside(rest: &str, pool: &Pool<'_>, canon: &CanonPool, rules: &Rules<'_>) -> bool {
    remarks_only(rest, pool, canon, rules.lex, rules.stop)
}

/// Whether `rest` asks, requests, refuses, corrects, adds and cancels
/// nothing (the module's doc): what every aside is.
fn asks_nothing(rest: &str, lex: &crate::lexicon::Lexicon) -> bool {
    if rest.contains('?') {
        return false;
    }
    let norm = fold(&normalize(rest)).into_owned();
    let words: Vec<&str> = norm.split(' ').filter(|w| !w.is_empty()).collect();
    if words.is_empty() || words.len() > LONGEST {
        return false;
    }
    // Anywhere in it: a refusal, a correction (but "only", as in "I'm
    // only in town till Sunday", corrects only where it opens the clause:
    // "only two"), an addition, a verb of asking for an item.
    let anywhere = [
        &lex.negations,
        &lex.refusals,
        &lex.abandons,
        &lex.alternatives,
        &lex.additive_openers,
        &lex.selection_verbs,
        &lex.everyday_verbs,
        &lex.cancel_openers,
        &lex.others,
        &lex.not_that,
        &lex.relations,
        &lex.plurals,
        &lex.conjunctions,
        &lex.searches,
    ];
    // Where it opens the clause: a question or a request ("is it...",
    // "can you...", "something cheaper", "only two").
    let opening = [&lex.question_openers, &lex.request_openers, &lex.openers, &lex.asks_for_others, &lex.corrections];
    // A phrase of one function word ("an", "is") says nothing alone.
    let says = |set: &crate::lexicon::PhraseSet, i: usize| {
        set.match_at(&words, i).is_some_and(|n| n > 1 || !lex.function_words.contains(words[i]))
    };
    let corrects = |i: usize| lex.corrections.match_at(&words, i).is_some_and(|n| n > 1 || words[i] != "only");
    if (0..words.len()).any(|i| anywhere.iter().any(|set| says(set, i)) || corrects(i)) || opening.iter().any(|set| says(set, 0)) {
        return false;
    }
    !words.iter().any(|w| lex.actions.contains(*w) || lex.cancel.contains(*w))
}

/// Where the lexicon's `excess` word ("too", "zu", "te") says something is
/// too much: before a word of its own that is no option's ("the L too"
/// asks for both).
fn says_excess(words: &[&str], canon: &CanonPool, lex: &crate::lexicon::Lexicon, stop: &crate::cost::DeadlineWatch) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        lex.excess.contains(*w) && words.get(i + 1).is_some_and(|next| !lex.function_words.contains(*next) && !canon.any_word(next, stop))
    })
}

/// Whether a clause after the first (at a comma, a stop, a dash, or a
/// word of reason) names an option and says it is too much ("IC 2, the
/// ICE is too expensive", "medium, the M is too big"): the input as a
/// whole is never executed; its first clause alone may be (`first_of`).
pub(crate) fn judged_too_much(raw: &str, canon: &CanonPool, lex: &crate::lexicon::Lexicon, stop: &crate::cost::DeadlineWatch) -> bool {
    [split(raw), split_at_reason(raw, lex)].into_iter().flatten().any(|aside| {
        let canonical = crate::canon::canonicalize(aside.rest, lex);
        let words: Vec<&str> = canonical.split(' ').filter(|w| !w.is_empty()).collect();
        says_excess(&words, canon, lex, stop) && words.iter().any(|w| !lex.function_words.contains(*w) && canon.any_word(w, stop))
    })
}

/// Whether `rest`, said after a choice of `chosen`, rules another option
/// out: it asks for nothing, says an option is too much ("der ICE ist mir
/// zu teuer", "de L viel te groot": the lexicon's `excess`, before a
/// word of its own: "the L too" asks for both), and the option words it
/// says are of other options, never of the one chosen.
fn rules_out_another(rest: &str, chosen: usize, pool: &Pool<'_>, canon: &CanonPool, rules: &Rules<'_>) -> bool {
    let lex = rules.lex;
    if !asks_nothing(rest, lex) {
        return false;
    }
    let canonical = crate::canon::canonicalize(rest, lex);
    let words: Vec<&str> = canonical.split(' ').filter(|w| !w.is_empty()).collect();
    if !says_excess(&words, canon, lex, rules.stop) {
        return false;
    }
    let content: Vec<&str> = words.iter().copied().filter(|w| !lex.function_words.contains(*w)).collect();
    let of_chosen = |w: &str| {
        canon.label_words_of(chosen).chain(canon.alias_words_of(chosen)).any(|l| l == w)
            || fold(&normalize(&pool.entries[chosen].cand.sublabel)).split(' ').any(|t| t == w)
    };
    let of_another =
        |w: &str| (0..pool.len()).any(|e| e != chosen && canon.label_words_of(e).chain(canon.alias_words_of(e)).any(|l| l == w));
    !content.iter().any(|w| of_chosen(w)) && content.iter().any(|w| of_another(w))
}

/// Whether `rest`, said after a choice, is only a remark over `pool`: it
/// asks, requests, refuses and names nothing (the module's doc). The
/// reply rung's choice-then-more reads it too: a remark is no follow-up.
pub(crate) fn remarks_only(
    rest: &str,
    pool: &Pool<'_>,
    canon: &CanonPool,
    lex: &crate::lexicon::Lexicon,
    stop: &crate::cost::DeadlineWatch,
) -> bool {
    if !asks_nothing(rest, lex) {
        return false;
    }
    // No word of any option: its label and aliases (the pool's index), its
    // sublabel and kind.
    let canonical = crate::canon::canonicalize(rest, lex);
    let content: Vec<&str> = canonical.split(' ').filter(|w| !w.is_empty() && !lex.function_words.contains(*w)).collect();
    if content.iter().any(|w| canon.any_word(w, stop)) {
        return false;
    }
    let shown_words = |c: &Candidate| {
        let text = fold(&normalize(&format!("{} {}", c.sublabel, c.kind.replace('_', " ")))).into_owned();
        content.iter().any(|w| text.split(' ').any(|t| t == *w))
    };
    if pool.entries.iter().any(|e| shown_words(e.cand)) {
        return false;
    }
    // No value of a kind an option shows.
    let said = values(rest);
    if said.is_empty() {
        return true;
    }
    !pool.entries.iter().any(|e| {
        let shown = crate::values::shown(e.cand);
        said.iter().any(|v| shown.iter().any(|s| crate::values::of_a_kind(v, s)))
    })
}

/// The first clause of a choice followed by an aside, read as the input:
/// its query and matches. Only where the whole input (`whole`) neither
/// negates nor names one option itself, the screen is short, and the
/// first clause alone names one option (executed, or confirmed where it
/// is high risk). `names_one`: as in `sequence::first_of`.
pub(crate) fn first_of(
    raw: &str,
    whole: (&Query, &Matches),
    pool: &Pool<'_>,
    canon: &CanonPool,
    commands: &[Candidate],
    rules: Rules<'_>,
    names_one: &dyn Fn(&Query, &Matches) -> bool,
) -> Result<Option<(Query, Matches)>, DeadlinePassed> {
    // The cheap tests first: most inputs have no clause after a choice,
    // and classifying the whole input again costs a match's worth.
    if whole.1.reading.negation || pool.len() > SCREEN_READ {
        return Ok(None);
    }
    // A clause after the choice, else a verdict on it ("the armchair is
    // fine"), with nothing after it or a remark.
    // Else a remark that rules another option out ("den IC 2 bitte, der
    // ICE ist mir zu teuer": what `judged_too_much` found for the whole
    // input), read once the choice is known.
    let excess = whole.1.reading.excess;
    let (aside, ruling) = match split(raw) {
        Some(aside) if is_an_aside(aside.rest, pool, canon, &rules) => (aside, false),
        Some(aside) if excess => (aside, true),
        _ => match split_at_verdict(raw, rules.lex) {
            Some(aside) if aside.rest.is_empty() || is_an_aside(aside.rest, pool, canon, &rules) => (aside, false),
            _ => match split_at_reason(raw, rules.lex) {
                Some(aside) if is_an_aside(aside.rest, pool, canon, &rules) => (aside, false),
                Some(aside) if excess => (aside, true),
                _ => return Ok(None),
            },
        },
    };
    if names_one(whole.0, whole.1) {
        return Ok(None);
    }
    let read = super::sequence::read_alone(aside.first, pool, canon, commands, rules, names_one)?;
    if ruling {
        let chosen = read.as_ref().and_then(|(_, m)| m.hits.first()).map(|h| h.entry);
        if !chosen.is_some_and(|c| rules_out_another(aside.rest, c, pool, canon, &rules)) {
            return Ok(None);
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests;
