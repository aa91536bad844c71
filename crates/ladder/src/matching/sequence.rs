//! Two requests in order (docs/deciding.md): "close the blinds first, then
//! movie scene", "mute the tv and then dim the lights", "turn off the fan,
//! after that lock the door". An order word ("then", "and then", "after
//! that", "afterwards", in the lexicon's languages) between two requests
//! makes a sequence: the first is the request of this turn, the rest is
//! handed back as a `FOLLOW_UP_KIND_REQUEST` (the app sends it to `Decide`
//! as the user's next turn, so a `RISK_HIGH` second action is confirmed
//! on a turn of its own).
//!
//! This module only splits the input ([`split`]); the match rung reads the
//! first part as it reads any input, and takes it only where it alone
//! names one option and the whole input does not. Never a sequence:
//! alternatives ("mute tv or dim lights", "then again"), a bare "and"
//! ("panel d and panel e"), a condition ("if it rains then close the
//! blinds"), a rest that refuses, corrects or cancels ("mute the tv, then
//! no, forget it"), and anything said to a yes-or-no question about one
//! option (`ASKED_CONFIRMATION`, or ladderd's own confirmation pending).
//! The answer to "which one?" may be a sequence ("dishwasher first, then
//! the washing machine").
//!
//! Tests: `sequence/tests.rs`.

use super::{CanonPool, Matches, Query, Rules};
use crate::cost::DeadlinePassed;
use crate::scope::Pool;
use crate::types::Candidate;

/// The order words between two requests, normalized and folded, longest
/// first where one begins another.
const ORDER_WORDS: &[&[&str]] = &[
    &["and", "after", "that"],
    &["and", "then"],
    &["after", "that"],
    &["afterwards"],
    &["afterward"],
    &["then"],
    &["y", "luego"],
    &["y", "despues"],
    &["luego"],
    &["et", "puis"],
    &["et", "ensuite"],
    &["puis"],
    &["ensuite"],
    &["und", "dann"],
    &["und", "danach"],
    &["dann"],
    &["danach"],
    &["e", "poi"],
    &["poi"],
    &["e", "depois"],
    &["depois"],
    &["despues"],
    &["e", "dopo"],
    &["dopo"],
    &["en", "dan"],
    &["en", "daarna"],
    &["daarna"],
];

/// Words that put the first request first ("first mute the tv", "close
/// the blinds first"): said of the order, not of any option.
pub(crate) const FIRST_WORDS: &[&str] = &["first", "firstly", "primero", "dabord", "zuerst", "erst", "prima", "primeiro", "eerst"];

/// Words that make the order word something else: a hedge ("then again"),
/// an alternative, a condition.
const NOT_AN_ORDER: &[&str] = &["or", "o", "ou", "oder", "if", "when", "si", "wenn", "again"];

/// Words in the rest that take the first request back or end the turn:
/// no sequence then, the input is read whole.
const TAKES_BACK: &[&str] =
    &["no", "not", "dont", "never", "nevermind", "cancel", "forget", "stop", "wait", "actually", "instead", "sorry", "nah", "nope", "undo"];

/// An input split at its order word: the first request's text and the
/// rest's, both as the user wrote them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence<'a> {
    pub first: &'a str,
    pub rest: &'a str,
}

/// A word of the raw input: its bytes and its folded, lowercase form
/// without the punctuation around it.
fn raw_words(raw: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in raw.char_indices().chain(std::iter::once((raw.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let word = crate::text::normalize(&raw[s..i]);
                let word: String = crate::text::fold(&word).chars().filter(|c| c.is_alphanumeric()).collect();
                out.push((s, i, word));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Where the input puts two requests in order: the first request, the
/// order word's place, and the rest. `None` for one request, an
/// alternative, a condition, a hedge, or a rest that takes the first
/// back.
pub fn split(raw: &str) -> Option<Sequence<'_>> {
    let words = raw_words(raw);
    let said: Vec<&str> = words.iter().map(|(_, _, w)| w.as_str()).collect();
    // The first order word after at least one word, with words after it.
    let (at, len) = (1..said.len())
        .find_map(|i| ORDER_WORDS.iter().find(|o| said.len() > i + o.len() && said[i..i + o.len()] == ***o).map(|o| (i, o.len())))?;
    // Spanish "o" is "or"; beside Portuguese "depois" it is "the" ("me
    // mostra o extrato, depois paga a fatura").
    let portuguese = said[at + len - 1] == "depois";
    if said.iter().any(|w| NOT_AN_ORDER.contains(w) && !(portuguese && *w == "o")) {
        return None;
    }
    // One order word only: "then ... then ..." is a list, read whole.
    let after = &said[at + len..];
    if (0..after.len()).any(|i| ORDER_WORDS.iter().any(|o| after.len() >= i + o.len() && after[i..i + o.len()] == **o)) {
        return None;
    }
    if after.iter().any(|w| TAKES_BACK.contains(w)) {
        return None;
    }
    // "first" before or after the first request is the order's.
    let mut from = 0;
    while from < at && FIRST_WORDS.contains(&said[from]) {
        from += 1;
    }
    let mut to = at;
    while to > from && FIRST_WORDS.contains(&said[to - 1]) {
        to -= 1;
    }
    if to <= from {
        return None;
    }
    let first = trim(&raw[words[from].0..words[to - 1].1]);
    let rest = trim(&raw[words[at + len].0..]);
    (!first.is_empty() && !rest.is_empty()).then_some(Sequence { first, rest })
}

/// The first request and the rest, trimmed of the punctuation between.
fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '-' | '\u{2013}' | '\u{2014}' | '.'))
}

/// The first of two requests in order, read as the input: its query and
/// matches, and the rest to hand back. Only where `asked_one` is false
/// (no yes-or-no question about one option, the app's or ladderd's), the whole input (`whole`:
/// its query and matches) neither negates nor names one option itself,
/// and the first request alone names one option (executed, or confirmed
/// where it is high risk). `names_one`: whether a reading names one
/// option, as `classify` decides it (the caller's: matching does not lean
/// on classify, which leans on it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn first_of(
    raw: &str,
    whole: (&Query, &Matches),
    asked_one: bool,
    pool: &Pool<'_>,
    canon: &CanonPool,
    commands: &[Candidate],
    rules: Rules<'_>,
    names_one: &dyn Fn(&Query, &Matches) -> bool,
) -> Result<Option<(Query, Matches, String)>, DeadlinePassed> {
    if asked_one || whole.1.reading.negation {
        return Ok(None);
    }
    let Some(seq) = split(raw) else { return Ok(None) };
    if names_one(whole.0, whole.1) {
        return Ok(None);
    }
    Ok(read_alone(seq.first, pool, canon, commands, rules, names_one)?.map(|(query, matches)| (query, matches, seq.rest.to_string())))
}

/// A part of the input (the first of two requests, a choice before an
/// aside) read as an input of its own: its query and matches, where it
/// names one option and negates nothing.
pub(crate) fn read_alone(
    part: &str,
    pool: &Pool<'_>,
    canon: &CanonPool,
    commands: &[Candidate],
    rules: Rules<'_>,
    names_one: &dyn Fn(&Query, &Matches) -> bool,
) -> Result<Option<(Query, Matches)>, DeadlinePassed> {
    let lex = rules.lex;
    let text = crate::canon::canonicalize(part, lex);
    let text = super::in_the_labels_words(&text, canon, lex).unwrap_or(text);
    let query = Query::new(text, lex);
    let matches = super::find(part, &query, pool, canon, commands, rules)?;
    Ok((names_one(&query, &matches) && !matches.reading.negation).then_some((query, matches)))
}

#[cfg(test)]
mod tests;
