//! A verb said in other words: "shut the garage" for "Close garage",
//! "approve Omar" for "Accept Omar's request", the everyday verb for what
//! an option does (docs/deciding.md).
//!
//! A word of the input that no option has and that the lexicon's
//! `verb_synonyms` groups with exactly one word the options' labels say
//! is said for the options whose label says that word: a [`Licence`] for
//! them (rule `synonym`), left over for every other one, which narrows
//! what the other words single out as a value does
//! (`value_words::narrow`). The label's action is then said
//! (`words::Said::says`). A verb of selection that is a synonym
//! ("approve" for "Accept Omar's request") stays phrasing for every
//! option and says the label's action too (rule `synonym_phrasing`);
//! said alone ("send it" for "Share"), it is the request, as any synonym
//! is. A synonym of a word no label says stays a word
//! of its own ("shut the garage" over "Open garage" alone asks), and so
//! does one that two label words fit ("deny" with "Decline" and
//! "Reject" shown).
//!
//! Tests: `synonyms/tests.rs`.

use super::mentions::Screen;
use super::{Licence, Role};
use crate::text::fold;

/// The licences of the verbs of `toks` said in other words (their roles
/// become `Role::Empty`).
pub(super) fn synonym_licences(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    let synonyms = &screen.lex.verb_synonyms;
    if synonyms.is_empty() {
        return out;
    }
    for (k, t) in toks.iter().enumerate() {
        // A verb of selection ("approve", "start") is phrasing already:
        // said where a label has its synonym, it says that label's action
        // too, and stays phrasing for every option (rule
        // `synonym_phrasing`, which narrows nothing).
        let phrasing = roles[k] == Role::Empty && screen.lex.selection_verbs.is_phrase(&[t]);
        if !matches!(roles[k], Role::Content | Role::Verb) && !phrasing {
            continue;
        }
        let Some(mates) = synonyms.get(*t) else { continue };
        if screen.stop.passed_now() || screen.canon.any_word(t, screen.stop) {
            continue;
        }
        let entries = saying_one_of(mates, screen);
        if entries.is_empty() {
            continue;
        }
        // Said with nothing else of content ("send it" for "Share",
        // "approve" for "Accept"), the verb is the whole request: it says
        // that label's action as any synonym does.
        let alone = (0..toks.len()).all(|i| i == k || roles[i] == Role::Empty);
        if phrasing && !alone {
            out.push(Licence { tok: k, word: (*t).to_string(), entries, rule: "synonym_phrasing" });
            continue;
        }
        roles[k] = Role::Empty;
        out.push(Licence { tok: k, word: (*t).to_string(), entries, rule: "synonym" });
    }
    phrase_licences(toks, roles, screen, &mut out);
    out
}

/// The options whose labels say one word of `mates`, when the labels say
/// one such word only ("deny" with "Decline" and "Reject" shown says
/// neither): else none.
fn saying_one_of(mates: &[String], screen: &Screen<'_>) -> Vec<usize> {
    let mut said: Option<&str> = None;
    let mut entries = Vec::new();
    for e in 0..screen.pool.len() {
        if let Some(w) = screen.canon.label_words_of(e).find(|w| mates.iter().any(|m| m == w)) {
            if said.is_some_and(|s| s != w) {
                return Vec::new();
            }
            said = Some(w);
            entries.push(e);
        }
    }
    entries
}

/// Pronouns a phrasal verb may hold between its words ("push it back").
const HELD: &[&str] = &["it", "this", "that", "them", "these", "those", "everything", "him", "her"];

/// The verb phrases of `verb_synonyms` ("push back", "call off", "write
/// back"), said whole or around a pronoun ("push it back"), where no
/// option says the phrase's first word: as a one-word synonym is, said
/// for the options whose label says the one word of the group a label
/// says (the licence on its first word, the phrase as its word).
fn phrase_licences(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>, out: &mut Vec<Licence>) {
    let phrases = &screen.lex.verb_phrases;
    if phrases.is_empty() {
        return;
    }
    for k in 0..toks.len() {
        // A verb of selection ("send") is phrasing alone, a verb in its phrase.
        let selection = roles[k] == Role::Empty && screen.lex.selection_verbs.is_phrase(&[toks[k]]);
        if !(matches!(roles[k], Role::Content | Role::Verb) || selection) || !phrases.starts_with(toks[k]) {
            continue;
        }
        // The phrase's words: right after the verb, or after one pronoun.
        let (span, words): (Vec<usize>, Vec<&str>) = match phrases.match_at(toks, k) {
            Some(n) => ((k..k + n).collect(), toks[k..k + n].to_vec()),
            None if toks.get(k + 1).is_some_and(|t| HELD.contains(t)) => {
                let rest: Vec<&str> = std::iter::once(toks[k]).chain(toks[k + 2..].iter().copied()).collect();
                match phrases.match_at(&rest, 0) {
                    Some(n) if n > 1 => (std::iter::once(k).chain(k + 2..k + 1 + n).collect(), rest[..n].to_vec()),
                    _ => continue,
                }
            }
            None => continue,
        };
        let phrase = words.join(" ");
        if screen.stop.passed_now() || screen.canon.any_word(toks[k], screen.stop) {
            continue;
        }
        let Some(mates) = screen.lex.verb_synonyms.get(&phrase) else { continue };
        let entries = saying_one_of(mates, screen);
        if entries.is_empty() {
            continue;
        }
        for i in &span {
            roles[*i] = Role::Empty;
        }
        out.push(Licence { tok: k, word: phrase, entries, rule: "synonym" });
    }
}

/// A noun said alone that ends one option's word, as the head of a word
/// made of two ("licht" of "Deckenlicht", "maschine" of
/// "Kaffeemaschine"), or one option's word with a noun of what it is
/// after it ("tagesgeldkonto" for "Tagesgeld" of kind "Konto"): said for
/// that option (rule `compound`), when no label has it as a word of its
/// own and no other option's word fits it so. Nouns of the kind ("zimmer" of "Wohnzimmer" and
/// "Schlafzimmer" names neither) and short words ("tür") are left alone.
pub(super) fn compound_licences(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if roles[k] != Role::Content
            || t.chars().count() < 5
            || !t.chars().all(char::is_alphabetic)
            || screen.lex.generic_nouns.contains(*t)
            || screen.lex.function_words.contains(*t)
            || screen.stop.passed_now()
            || screen.canon.any_word(t, screen.stop)
        {
            continue;
        }
        let ends = |w: &str| w.len() >= t.len() + 3 && w.ends_with(t);
        // The label's word with a noun of what it is after it, written as
        // one ("tagesgeldkonto" for "Tagesgeld" of kind "Konto").
        // (Read only for a word long enough to hold both.)
        let long = t.len() >= 7;
        let kind_after = |e: usize, w: &str| {
            long && t.len() >= w.len() + 3 && t.starts_with(w) && w.chars().count() >= 4 && t.is_char_boundary(w.len()) && {
                let noun = &t[w.len()..];
                screen.lex.generic_nouns.contains(noun) || fold(&screen.pool.entries[e].cand.kind.to_lowercase()) == noun
            }
        };
        let entries: Vec<usize> =
            (0..screen.pool.len()).filter(|e| screen.canon.label_words_of(*e).any(|w| ends(w) || kind_after(*e, w))).collect();
        if let [one] = entries[..] {
            roles[k] = Role::Empty;
            out.push(Licence { tok: k, word: (*t).to_string(), entries: vec![one], rule: "compound" });
        }
    }
    out
}

/// Among the options the other words share, those whose label says the
/// action a verb of selection is a synonym of ("approve omar" over
/// "Accept Omar's request" and "Decline Omar's request"): the verb is
/// phrasing for every option, so it narrows a share and nothing else (one
/// the words single out, or none of the share saying it, stays as read).
pub(super) fn narrow(words: super::Words, licences: &[Licence]) -> super::Words {
    use super::{MatchKind, Words};
    let mut words = words;
    for l in licences.iter().filter(|l| l.rule == "synonym_phrasing") {
        if let Words::Shared { entries, typo } = &words {
            let kept: Vec<usize> = entries.iter().copied().filter(|e| l.entries.contains(e)).collect();
            words = match kept[..] {
                [] => continue,
                [entry] => Words::Unique { entry, kind: if *typo { MatchKind::Typo } else { MatchKind::Partial } },
                _ => Words::Shared { entries: kept, typo: *typo },
            };
        }
    }
    words
}

/// Whether the input word `t`, licensed as a synonym, says the label
/// word `a`.
pub(super) fn says(t: &str, a: &str, lex: &crate::lexicon::Lexicon) -> bool {
    lex.verb_synonyms.get(t).is_some_and(|mates| mates.iter().any(|m| m == a))
}

#[cfg(test)]
mod tests;
