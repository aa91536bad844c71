//! Shorthand: a word cut short or written as people text it names the
//! one candidate word it can only be ("med" for "Medium", "prefs" for
//! "Preferences", "prev pg" for "Previous page", "upd8" for "Update"),
//! never where another candidate's word fits it too ("pre" with "Preview"
//! and "Previous"; docs/deciding.md).
//!
//! A word of the input that no option has, that is no word of the
//! lexicon, and that stands for exactly one word of the options
//! ([`stands_for`]: its first letters, three or more, with a plural "s";
//! its consonants in order, from the word's first letter to its last
//! consonant; a texting form, "8" for "ate", "2" for "to", "4" for "for")
//! is said for the options that have that word: a [`Licence`] for them
//! (rule `short_form`), which narrows what the other words single out as
//! a value does (`value_words::narrow`).
//!
//! Tests: `short_forms/tests.rs`.

use super::mentions::Screen;
use super::typo::lexicon_word;
use super::{Licence, Role};

/// The licences of the shorthand words of `toks` (their roles become
/// `Role::Empty`).
pub(super) fn short_form_licences(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    // Beside a conjunction ("med or lrg", "or gorod" left of a reply read
    // again) a short form may be one of several things asked for: it
    // says nothing. A word that goes on ("then", "and"), first or last
    // ("resched then", "and upd8"), joins nothing; "or" always may.
    let joins = |i: usize, t: &str| {
        screen.lex.conjunctions.is_phrase(&[t]) && !((i == 0 || i + 1 == toks.len()) && screen.lex.additive_openers.is_phrase(&[t]))
    };
    if toks.iter().enumerate().any(|(i, t)| joins(i, t)) {
        return out;
    }
    for (k, t) in toks.iter().enumerate() {
        if roles[k] != Role::Content || t.len() < 2 || !t.is_ascii() || !t.bytes().any(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        if screen.stop.passed_now() || screen.canon.any_word(t, screen.stop) || lexicon_word(t, screen.lex) {
            continue;
        }
        let mut fits: Vec<&str> = Vec::new();
        let mut entries: Vec<usize> = Vec::new();
        // Each distinct word once when the pool's vocabulary is built (a
        // screen sent again), else every word of every entry.
        match screen.canon.distinct_words() {
            Some(distinct) => {
                for (w, owners) in distinct {
                    if stands_for(t, w) {
                        fits.push(w);
                        entries.extend(owners.iter().map(|&o| o as usize));
                    }
                }
            }
            None => {
                for e in 0..screen.pool.len() {
                    for w in screen.canon.all_words(e) {
                        if stands_for(t, w) {
                            fits.push(w);
                            entries.push(e);
                        }
                    }
                }
            }
        }
        fits.sort_unstable();
        fits.dedup();
        if fits.len() != 1 {
            continue;
        }
        entries.sort_unstable();
        entries.dedup();
        roles[k] = Role::Empty;
        out.push(Licence { tok: k, word: (*t).to_string(), entries, rule: "short_form" });
    }
    out
}

/// Whether `t`, a word no option has, is a short form of `w`, an
/// option's word.
pub(super) fn stands_for(t: &str, w: &str) -> bool {
    // Every form below keeps the word's first letter (a texted digit
    // spells its own): most pairs end here.
    let first = match t.as_bytes().first() {
        Some(b'8') => b'a',
        Some(b'2') => b't',
        Some(b'4') => b'f',
        Some(b) => *b,
        None => return false,
    };
    if w.as_bytes().first() != Some(&first) {
        return false;
    }
    if !w.is_ascii() || w.len() <= t.len() || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    if t.bytes().any(|b| b.is_ascii_digit()) {
        return texted(t).is_some_and(|spelled| spelled == w);
    }
    if !t.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    // Its first letters, three or more ("med", "prev"), or those and a
    // plural "s" ("prefs", "apps" is no short form: it has the word).
    let cut = |s: &str| s.len() >= 3 && w.starts_with(s);
    if cut(t) || t.strip_suffix('s').is_some_and(|s| cut(s) && w.len() > s.len() + 1) {
        return true;
    }
    // Its consonants in order ("pg", "msg", "nxt"): the word's first
    // letter, then consonants only, the last of them the word's last
    // consonant.
    let vowel = |b: &u8| b"aeiou".contains(b);
    let (tb, wb) = (t.as_bytes(), w.as_bytes());
    let last_consonant = wb.iter().rev().find(|b| !vowel(b));
    tb[0] == wb[0] && tb[1..].iter().all(|b| !vowel(b)) && last_consonant == tb.last() && subsequence(tb, wb)
}

/// Whether `a` runs in `b` in order, not necessarily together.
fn subsequence(a: &[u8], b: &[u8]) -> bool {
    let mut it = b.iter();
    a.iter().all(|x| it.any(|y| y == x))
}

/// A word written as people text it, spelled out ("upd8" is "update",
/// "2nite" "tonite", "b4" "bfor"): letters with "8", "2" or "4" among
/// them; `None` for anything else.
fn texted(t: &str) -> Option<String> {
    if !t.bytes().any(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let mut out = String::new();
    for c in t.chars() {
        match c {
            '8' => out.push_str("ate"),
            '2' => out.push_str("to"),
            '4' => out.push_str("for"),
            c if c.is_ascii_alphabetic() => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;
