//! Hard exclusions: the only early escapes. Question intent and stop/cancel
//! are never executed as selections (S6); no candidates at all means there
//! is nothing to decide.

use super::canon::canonicalize;
use super::lexicon::Lexicon;
use super::text::words;
use super::types::{DecideRequest, EscapeReason};

/// Which exclusion applies, if any. `raw` is the user's text as sent,
/// `canonical` its canonical form.
pub fn hard_exclusion(raw: &str, canonical: &str, req: &DecideRequest, lex: &Lexicon) -> Option<EscapeReason> {
    if is_cancel(canonical, lex) {
        return Some(EscapeReason::Cancel);
    }
    if is_question(raw, canonical, lex) {
        return Some(EscapeReason::QuestionIntent);
    }
    let nothing = req.option_candidates().is_empty()
        && req.recoverable_chat_options.is_empty()
        && req.widget_items.is_empty()
        && req.commands.is_empty();
    nothing.then_some(EscapeReason::NoActiveContext)
}

/// A cancel phrase, whole ("forget it", "no thanks", "olvídalo"), or a
/// cancel opener followed only by words of cancel phrases and words that
/// name nothing ("nah, none of those", "stop, I changed my mind"). "Stop the
/// timer" is not a cancel; "don't open x" is a negation of x, read later.
pub fn is_cancel(canonical: &str, lex: &Lexicon) -> bool {
    if lex.cancel.contains(canonical) {
        return true;
    }
    let toks: Vec<&str> = words(canonical).collect();
    let Some(n) = lex.cancel_openers.match_at(&toks, 0) else { return false };
    toks[n..].iter().all(|t| lex.cancel_vocabulary.contains(*t) || lex.function_words.contains(*t))
}

/// A question: some clause of the input (its text between sentence
/// punctuation) asks. A clause asks when a question opener ("what", "how
/// do i", ...) leads it, or it ends with a question mark and does not open
/// with a selection verb or a polite request ("could you open panel d?",
/// "can I get the 2nd one?" are requests, not questions; so is "ok, that
/// works, could you book it?").
pub fn is_question(raw: &str, canonical: &str, lex: &Lexicon) -> bool {
    // One clause (most inputs): the whole input, as it is.
    let parts = clauses(raw);
    if parts.len() <= 1 {
        return clause_asks(raw, canonical, lex);
    }
    parts.iter().any(|(text, q)| {
        let c = crate::canon::canonicalize(text, lex);
        let with_mark = if *q { format!("{text}?") } else { text.to_string() };
        clause_asks(&with_mark, &c, lex)
    })
}

/// The clauses of `raw`: its text between sentence punctuation, each with
/// whether a question mark ended it. A clause with no word of its own
/// ("please?") gives its question mark to the one before.
fn clauses(raw: &str) -> Vec<(&str, bool)> {
    let mut out: Vec<(&str, bool)> = Vec::new();
    let mut start = 0;
    let is_q = |c: char| matches!(c, '?' | '\u{FF1F}' | '\u{061F}' | '\u{037E}');
    for (i, c) in raw.char_indices() {
        if matches!(c, '.' | '!' | ';' | ',') || is_q(c) {
            let prev = raw[..i].chars().next_back();
            let next = raw[i + c.len_utf8()..].chars().next();
            // A dot or comma inside a word or a number ("budget_2024.xlsx",
            // "9.99") breaks nothing: only one before a space or the end does.
            if matches!(c, '.' | ',') && prev.is_some_and(|p| !p.is_whitespace()) && next.is_some_and(|n| !n.is_whitespace()) {
                continue;
            }
            let part = &raw[start..i];
            if part.chars().any(char::is_alphanumeric) {
                out.push((part, is_q(c)));
            } else if is_q(c)
                && let Some(last) = out.last_mut()
            {
                last.1 = true;
            }
            start = i + c.len_utf8();
        }
    }
    if raw[start..].chars().any(char::is_alphanumeric) {
        out.push((&raw[start..], false));
    }
    out
}

fn clause_asks(raw: &str, canonical: &str, lex: &Lexicon) -> bool {
    let toks: Vec<&str> = words(canonical).collect();
    if !toks.is_empty() && lex.request_openers.match_at(&toks, 0).is_some() {
        return false;
    }
    // A yes said whole that opens with a question word asks nothing
    // ("why not?"; "correct?" still asks).
    if lex.question_openers.match_at(&toks, 0).is_some() && lex.affirmations.is_phrase(&toks) {
        return false;
    }
    if !toks.is_empty() && lex.question_openers.match_at(&toks, 0).is_some() {
        return true;
    }
    // "Could you refill X?": a polite opener (filler, so gone from the
    // canonical text) with no question opener after it is a request.
    let normalized = crate::text::normalize(raw);
    let raw_toks: Vec<&str> = words(&normalized).collect();
    if !raw_toks.is_empty() && lex.polite_openers.match_at(&raw_toks, 0).is_some() {
        return false;
    }
    let ends_with_q = raw.trim_end().ends_with(['?', '\u{FF1F}', '\u{061F}', '\u{037E}']);
    ends_with_q && (toks.is_empty() || lex.selection_verbs.match_at(&toks, 0).is_none())
}

/// A cancel or a decline yields to a label it says: the input is, whole,
/// a candidate's label or alias ("Stop" on a player).
/// Whether the canonical input is a candidate's label or alias, whole.
pub(crate) fn says_a_label(req: &DecideRequest, canonical: &str, lex: &Lexicon) -> bool {
    !canonical.is_empty()
        && req
            .option_candidates()
            .iter()
            .chain(&req.recoverable_chat_options)
            .chain(&req.widget_items)
            .chain(&req.commands)
            .any(|c| std::iter::once(&c.label).chain(&c.aliases).any(|l| canonicalize(l, lex) == canonical))
}

/// Whether the canonical input opens with an action that opens a
/// candidate's label ("cancel it" with "Cancel appointment" on screen):
/// then a cancel may be that request, and the ladder reads it.
pub(crate) fn an_action_of_a_label(req: &DecideRequest, canonical: &str, lex: &Lexicon) -> bool {
    let first = canonical.split(' ').next().unwrap_or("");
    lex.actions.contains(first) && req.option_candidates().iter().any(|c| canonicalize(&c.label, lex).split(' ').next() == Some(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::canonicalize;
    use crate::types::Candidate;

    fn req_with_options() -> DecideRequest {
        DecideRequest {
            options: Some(crate::types::OptionSet {
                option_set_id: "s".into(),
                candidates: vec![Candidate::new("a", "Links Panel D")].into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn exclusion_table() {
        let lex = Lexicon::shipped();
        let req = req_with_options();
        let table: &[(&str, Option<EscapeReason>)] = &[
            ("what is links panel d?", Some(EscapeReason::QuestionIntent)),
            ("What's panel D", Some(EscapeReason::QuestionIntent)),
            ("how do I open a panel", Some(EscapeReason::QuestionIntent)),
            ("can you tell me what panel d is", Some(EscapeReason::QuestionIntent)),
            ("panel d?", Some(EscapeReason::QuestionIntent)),
            ("could you open panel d?", None),
            ("open panel d", None),
            ("stop", Some(EscapeReason::Cancel)),
            ("Never mind!", Some(EscapeReason::Cancel)),
            ("please cancel", Some(EscapeReason::Cancel)),
            ("stop the timer", None),
            ("the second one", None),
            ("ביטול", Some(EscapeReason::Cancel)),
            // Polite requests are requests; questions about an item escape.
            ("can I get the 2nd one?", None),
            ("would you mind showing panel d?", None),
            ("may I see panel d?", None),
            ("can you play panel d?", None),
            ("what is in panel d?", Some(EscapeReason::QuestionIntent)),
            ("tell me about panel d", Some(EscapeReason::QuestionIntent)),
            ("is panel d open?", Some(EscapeReason::QuestionIntent)),
            // Cancels in the phrasings people use, in several languages.
            ("no thanks", Some(EscapeReason::Cancel)),
            ("nah, none of those", Some(EscapeReason::Cancel)),
            ("forget it", Some(EscapeReason::Cancel)),
            ("don't do anything", Some(EscapeReason::Cancel)),
            ("stop, I changed my mind", Some(EscapeReason::Cancel)),
            ("nope", Some(EscapeReason::Cancel)),
            ("vergiss es", Some(EscapeReason::Cancel)),
            ("olvídalo", Some(EscapeReason::Cancel)),
            ("laisse tomber", Some(EscapeReason::Cancel)),
            ("לא תודה", Some(EscapeReason::Cancel)),
            ("don't open panel d", None),
            ("could you refill panel d please?", None),
            ("can you tell me what panel d is?", Some(EscapeReason::QuestionIntent)),
            ("no, the second one", None),
        ];
        for (input, want) in table {
            let c = canonicalize(input, &lex);
            assert_eq!(hard_exclusion(input, &c, &req, &lex), *want, "input {input:?}");
        }
    }

    #[test]
    fn no_candidates_anywhere_is_no_active_context() {
        let lex = Lexicon::shipped();
        let req = DecideRequest::default();
        assert_eq!(hard_exclusion("open it", "open it", &req, &lex), Some(EscapeReason::NoActiveContext));
        let mut with_cmd = DecideRequest::default();
        with_cmd.commands.push(Candidate::new("c", "Open Recent"));
        assert_eq!(hard_exclusion("open it", "open it", &with_cmd, &lex), None);
    }
}
