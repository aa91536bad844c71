//! Hard exclusions: the only early escapes. Question intent and stop/cancel
//! are never executed as selections (S6); no candidates at all means there
//! is nothing to decide.

use super::lexicon::Lexicon;
use super::text::tokens;
use super::types::{DecideRequest, EscapeReason};

/// Which exclusion applies, if any. `raw` is the user's text as sent,
/// `canonical` its canonical form.
pub fn hard_exclusion(raw: &str, canonical: &str, req: &DecideRequest, lex: &Lexicon) -> Option<EscapeReason> {
    if lex.cancel.contains(canonical) {
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

/// A question opener ("what", "how do i", ...) leads the canonical input, or
/// the text ends with a question mark and does not start with a selection
/// verb ("could you open panel d?" is a request, not a question).
pub fn is_question(raw: &str, canonical: &str, lex: &Lexicon) -> bool {
    let toks: Vec<&str> = tokens(canonical).collect();
    if !toks.is_empty() && lex.question_openers.match_at(&toks, 0).is_some() {
        return true;
    }
    let ends_with_q = raw.trim_end().ends_with(['?', '\u{FF1F}', '\u{061F}', '\u{037E}']);
    ends_with_q && (toks.is_empty() || lex.selection_verbs.match_at(&toks, 0).is_none())
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
