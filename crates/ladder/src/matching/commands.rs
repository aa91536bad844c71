//! Commands: a known command matches only when the input names it whole
//! (its words in order, or joined, or an alias), with nothing but request
//! phrasing besides.
//!
//! Tests: `commands/tests.rs`.

use super::mentions::RawInput;
use super::{CommandHit, MatchParams, Query};
use crate::canon::canonicalize;
use crate::lexicon::Lexicon;
use crate::text::words;
use crate::types::Candidate;

/// A command matches only when the input names the whole command (verb and
/// object, or an alias), never on a shared verb alone: the command's words
/// in order, with only words that name nothing between them ("log me out"
/// names "Log Out"), or joined ("logout").
pub(super) fn match_command(
    raw: &RawInput<'_>,
    q: &Query,
    commands: &[Candidate],
    lex: &Lexicon,
    params: &MatchParams,
) -> Option<CommandHit> {
    let full: Vec<&str> = words(&q.full).collect();
    let joined_full: String = full.concat();
    // The core without words that name nothing ("my notifications").
    let bare: String = words(&q.core).filter(|t| !lex.function_words.contains(*t)).collect::<Vec<_>>().join(" ");
    let mut best: Option<(CommandHit, usize)> = None;
    for (index, cmd) in commands.iter().enumerate() {
        let names = std::iter::once(cmd.label.as_str()).chain(cmd.aliases.iter().map(String::as_str));
        for name in names {
            let c = canonicalize(name, lex);
            let ct: Vec<&str> = words(&c).collect();
            if ct.is_empty() {
                continue;
            }
            let exact = (!raw.text.is_empty() && raw.eq_label(name, name.is_ascii()))
                || c == q.full
                || c == q.core
                || c == bare
                || (params.joined_words && ct.len() >= 2 && ct.concat() == joined_full);
            // Inside a longer input, the command must account for all of
            // it, as a candidate must: "log out" escapes,
            // "log out of the shared account on my phone" does not.
            let contained = ct.len() >= 2
                && (in_order_with_empty_gaps(&full, &ct, lex) || (params.joined_words && full.contains(&ct.concat().as_str())))
                && only_phrasing_besides(&full, &ct, lex);
            if exact || contained {
                let better = match best {
                    None => true,
                    Some((b, len)) => (exact && !b.exact) || (exact == b.exact && ct.len() > len),
                };
                if better {
                    best = Some((CommandHit { index, exact }, ct.len()));
                }
            }
        }
    }
    best.map(|(h, _)| h)
}

/// Words that only hold the turn before a command ("hold on, show logs
/// first", "wait, show logs").
const HOLDS: &[&[&str]] = &[&["hold", "on"], &["hang", "on"], &["wait"], &["one", "sec"], &["just", "a", "sec"], &["one", "moment"]];

/// Whether every token of `toks` is one of `words` (or all of them
/// joined), or request phrasing that names nothing (an acknowledgement or
/// a yes before it too: "ok, noted. run a speed test", "right, show me
/// the price list"; words that hold the turn: "hold on, show logs"), or a
/// word of the order ("the price list first").
fn only_phrasing_besides(toks: &[&str], words: &[&str], lex: &Lexicon) -> bool {
    let joined = words.concat();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        if let Some(hold) = HOLDS.iter().find(|h| toks.get(i..i + h.len()) == Some(**h)) {
            i += hold.len();
            continue;
        }
        if words.contains(&t)
            || t == joined
            || lex.function_words.contains(t)
            || lex.deictic.contains(t)
            || super::sequence::FIRST_WORDS.contains(&t)
        {
            i += 1;
            continue;
        }
        match [&lex.selection_verbs, &lex.conjunctions, &lex.request_openers, &lex.acknowledgements, &lex.affirmations]
            .iter()
            .filter_map(|set| set.match_at(toks, i))
            .max()
        {
            Some(n) => i += n,
            None => return false,
        }
    }
    true
}

/// Whether `words` appear in `toks` in order, adjacent or separated only by
/// function words ("log me out").
fn in_order_with_empty_gaps(toks: &[&str], words: &[&str], lex: &Lexicon) -> bool {
    (0..toks.len()).any(|start| {
        let mut k = 0;
        let mut i = start;
        while i < toks.len() && k < words.len() {
            if toks[i] == words[k] {
                k += 1;
            } else if k == 0 || !lex.function_words.contains(toks[i]) {
                break;
            }
            i += 1;
        }
        k == words.len()
    })
}

#[cfg(test)]
mod tests;
