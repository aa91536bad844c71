//! Refusals stick to their words (docs/replies.md#refusals-stick-to-their-words):
//! an option the user refused within the continuity TTL (a repair, a
//! decline of it, or the app's `OUTCOME_KIND_REJECTED`) is never executed
//! again by the words that chose it, by a yes, a comparison, a position or
//! a detail, whether the turn reads it from the session or from the screen.
//! Only new words re-choose it: a word of the input that only it shows on
//! the screen and that the turn which chose it did not say. The words of
//! that turn are kept with its execute as a 64-bit mask (`word_mask`); an
//! option the app chose and refused itself was chosen by everything it
//! showed, so nothing re-chooses it before the TTL ends.
//!
//! What the words would have executed is asked instead, over the other
//! options they fit, else the rest of the screen; with nothing else on
//! screen the refusal stands (`declined`).
//!
//! One check (`check`), made by the sequence (`decide`) before every
//! deterministic execute. Tests: `refusals/tests.rs`.

use crate::canon::canonicalize;
use crate::continuity::StateView;
use crate::lexicon::Lexicon;
use crate::scope::{Pool, Source};
use crate::text::words;
use std::hash::{Hash, Hasher};

/// The words of a canonical text as a mask: one bit of 64 per word (its
/// hash's low six bits). Deterministic across processes, so a shared
/// store's replicas agree; two words may share a bit, which only makes a
/// new word read as said before (the safe side).
pub fn word_mask(canonical: &str) -> u64 {
    words(canonical).fold(0, |mask, w| mask | bit(w))
}

fn bit(word: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    word.hash(&mut h);
    1 << (h.finish() & 63)
}

/// What the check found for an execute of `entry`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefusalCheck {
    /// Not refused, or re-chosen by new words: it may execute.
    Free,
    /// Refused: ask over these entries instead (never empty).
    Ask(Vec<usize>),
    /// Refused, and nothing else is on screen: the refusal stands.
    Stands,
}

/// Whether `entry` may be executed on this turn (the module's doc).
/// `fits`: the other entries the turn's words fit, best first (asked
/// before the rest of the screen). Reads the session only for an entry it
/// holds a refusal of (noted as a fact).
pub fn check(state: &StateView<'_>, pool: &Pool<'_>, lex: &Lexicon, canonical: &str, entry: usize, fits: &[usize]) -> RefusalCheck {
    let id = &pool.entries[entry].cand.id;
    let Some(chosen_by) = state.refusal(id) else { return RefusalCheck::Free };
    if says_something_new(pool, lex, canonical, entry, chosen_by) {
        return RefusalCheck::Free;
    }
    let on_screen = |e: &usize| *e != entry && pool.entries[*e].cand.id != *id;
    let mut ask: Vec<usize> = Vec::new();
    for e in fits.iter().copied().filter(on_screen) {
        if !ask.contains(&e) {
            ask.push(e);
        }
    }
    let source = pool.entries[entry].source;
    let same_list = |e: &usize| on_screen(e) && pool.entries[*e].source == source;
    if ask.is_empty() {
        // The options that show every word the input shares with it ("the
        // pad thai one": "Pad Thai with Chicken").
        let own = shown_words(pool, lex, entry);
        let said: Vec<&str> = words(canonical).filter(|w| own.iter().any(|o| o == w) && !lex.function_words.contains(*w)).collect();
        if !said.is_empty() {
            ask = (0..pool.len())
                .filter(same_list)
                .filter(|e| said.iter().all(|w| shown_words(pool, lex, *e).iter().any(|o| o == w)))
                .collect();
        }
    }
    if ask.is_empty() {
        ask = (0..pool.len()).filter(same_list).collect();
    }
    if ask.is_empty() { RefusalCheck::Stands } else { RefusalCheck::Ask(ask) }
}

/// Whether the input says a word that only `entry` shows among the
/// options (label, sublabel, badge, aliases, kind) and that the turn which
/// chose it did not say (`chosen_by`).
fn says_something_new(pool: &Pool<'_>, lex: &Lexicon, canonical: &str, entry: usize, chosen_by: u64) -> bool {
    let own = shown_words(pool, lex, entry);
    let new: Vec<&str> = words(canonical)
        .filter(|w| bit(w) & chosen_by == 0 && own.iter().any(|o| o == w))
        .filter(|w| !lex.function_words.contains(*w) && !lex.generic_nouns.contains(*w) && !lex.deictic.contains(*w))
        .collect();
    if new.is_empty() {
        return false;
    }
    let others: Vec<Vec<String>> = (0..pool.len())
        .filter(|e| *e != entry && pool.entries[*e].source == Source::ActiveOptions)
        .map(|e| shown_words(pool, lex, e))
        .collect();
    new.iter().any(|w| !others.iter().any(|o| o.iter().any(|x| x == w)))
}

/// The canonical words an entry shows: label, sublabel, badge, aliases.
fn shown_words(pool: &Pool<'_>, lex: &Lexicon, entry: usize) -> Vec<String> {
    let text = canonicalize(&crate::replies::shown_text(pool.entries[entry].cand), lex);
    words(&text).map(str::to_string).collect()
}

#[cfg(test)]
mod tests;
