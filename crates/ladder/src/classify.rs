//! `classify`: the one function that turns what the input names (the
//! matching rung's `Referents`) into a confidence bucket and an ambiguity
//! reason (docs/deciding.md: the rungs, the principle). No other code
//! decides confidence.
//!
//! High confidence only when exactly one candidate is meant and nothing in
//! the input asks to hold back:
//!
//! | match kind | example | rule (switch under `matching.*`) |
//! |---|---|---|
//! | `exact`, `normalized`, `alias` | "Links Panel D", "open links panel d" | the whole input is the label |
//! | `label` | "turn on the kitchen lights" | one whole label inside the input; a label inside a longer one does not count (`longest_label`) |
//! | `ordinal` | "the third song", "#4", "second to last" | one position inside the list (`extended_positions` for from-the-end and middle) |
//! | `badge` | "panel d", "c" | one label ends with that letter or number |
//! | `shorthand` | "q2" | the one word that tells it apart (`token_shorthand`) |
//! | `partial` | "the vegan one" | every content word in this candidate and no other (`unique_partial`) |
//! | `typo` | "sales reprot q3" | as `partial`, through a misspelling no other word is near (`typo_resolution`) |
//!
//! Never high confidence: two or more candidates named (`a and b`, `x or
//! y`), a negation, a relation (`the one after c`), a plural (`both`), a
//! position outside the list, a typo near two words.

use super::matching::{MatchKind, MatchParams, MatchTier, Matches, Words};
use super::scope::{Pool, Source};
use super::types::{AmbiguityReason, Bucket, DecideRequest};
use crate::question::PendingQuestion;

/// What a high-confidence decision points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    /// Index into `Pool::entries`.
    Entry(usize),
    /// Index into `DecideRequest::commands`.
    Command(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classification {
    pub bucket: Bucket,
    /// Set for every low-confidence bucket.
    pub reason: Option<AmbiguityReason>,
    /// Set only for `HighConfidenceExecute`.
    pub winner: Option<Winner>,
    /// The entry the input names in full but that is high risk: not
    /// executed on this reference; the clarifier asks to confirm it.
    pub confirm: Option<usize>,
    /// The entry the input named but does not account for: refused,
    /// ranked first, up the ladder.
    pub refused: Option<usize>,
}

impl Classification {
    fn high(w: Winner) -> Self {
        Classification { bucket: Bucket::HighConfidenceExecute, reason: None, winner: Some(w), confirm: None, refused: None }
    }
    fn llm(reason: AmbiguityReason) -> Self {
        Classification { bucket: Bucket::LowConfidenceLlmEligible, reason: Some(reason), winner: None, confirm: None, refused: None }
    }
    fn clarifier_only(reason: AmbiguityReason) -> Self {
        Classification { bucket: Bucket::LowConfidenceClarifierOnly, reason: Some(reason), winner: None, confirm: None, refused: None }
    }
}

/// Everything `classify` looks at.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    pub pool: &'a Pool<'a>,
    pub matches: &'a Matches,
    /// The input (cue and filler removed) has no words left, or only a
    /// deictic word ("it", "that one").
    pub input_is_deictic: bool,
    pub params: &'a MatchParams,
}

/// Whether a match kind may execute under the configuration.
fn allowed(kind: MatchKind, p: &MatchParams) -> bool {
    match kind {
        MatchKind::Shorthand => p.token_shorthand,
        MatchKind::Partial => p.unique_partial,
        MatchKind::Typo => p.typo_resolution,
        MatchKind::Fuzzy | MatchKind::Containment => false,
        _ => true,
    }
}

/// Whether a high-risk entry may execute on this reference
/// (docs/deciding.md#risk): only on its whole label or an alias, word for
/// word (phrasing aside), or on a position among the options shown (the
/// clarification the user is answering). Never through a partial,
/// shorthand, badge or typo.
fn risk_allows(pool: &Pool<'_>, r: &crate::matching::Referents, entry: usize, kind: MatchKind, p: &MatchParams) -> bool {
    let e = &pool.entries[entry];
    if !e.cand.is_high_risk(&p.high_risk_kinds) {
        return true;
    }
    match kind {
        MatchKind::Ordinal => e.source == Source::ActiveOptions,
        MatchKind::Typo | MatchKind::Badge | MatchKind::Fuzzy | MatchKind::Containment => false,
        _ => r.whole.contains(&entry),
    }
}

/// The confidence bucket, the ambiguity reason, and the winner of a high
/// confidence decision.
///
/// Every execute passes one rule: **the input accounts for the winner**
/// (`Referents::accounts_for`: no content word left over, nothing of the
/// winner that sets it apart left unsaid; docs/deciding.md), and a
/// high-risk winner is said whole or picked by position (`risk_allows`).
/// A winner that fails it goes up the ladder (`no_deterministic_match`:
/// the LLM when configured, else the clarifier, the winner ranked first);
/// one that fails only on its risk is offered for confirmation
/// (`Classification::confirm`).
pub fn classify(ev: &Evidence<'_>) -> Classification {
    let Evidence { pool, matches, input_is_deictic, params } = *ev;
    let r = &matches.reading;
    if pool.is_empty() {
        return match matches.command {
            Some(c) if !r.never_executes() => Classification::high(Winner::Command(c.index)),
            _ => Classification::clarifier_only(AmbiguityReason::NoCandidate),
        };
    }
    let several = |entries: &mut dyn Iterator<Item = usize>| {
        let mut sources: Vec<_> = entries.map(|e| pool.entries[e].source).collect();
        sources.sort();
        sources.dedup();
        if sources.len() > 1 && pool.cue.is_none() {
            Classification::llm(AmbiguityReason::CrossSourceTie)
        } else {
            Classification::llm(AmbiguityReason::MultiMatchNoExactWinner)
        }
    };
    // A negation, a relation or a plural: several candidates are in play,
    // and a person asks.
    if r.never_executes() {
        return several(&mut r.named_entries().chain(r.negated.iter().copied()));
    }
    // The one rule: execute `entry` on this reference, or go up the ladder.
    let decide = |entry: usize, kind: MatchKind| {
        if !r.accounts_for(entry) {
            Classification { refused: Some(entry), ..Classification::llm(AmbiguityReason::NoDeterministicMatch) }
        } else if !risk_allows(pool, r, entry, kind, params) {
            Classification { confirm: Some(entry), ..Classification::llm(AmbiguityReason::NoDeterministicMatch) }
        } else {
            Classification::high(Winner::Entry(entry))
        }
    };
    let named = &r.named;
    // The one candidate the words single out, if the rule allows it.
    let word_winner = match r.words {
        Words::Unique { entry, kind } if allowed(kind, params) => Some(entry),
        _ => None,
    };
    // Words that point elsewhere than the one reference: a second referent.
    let conflicts = |e: usize| match &r.words {
        Words::Unique { entry, .. } => *entry != e,
        Words::Split(set) => !set.contains(&e),
        _ => false,
    };

    if let Some(cmd) = matches.command {
        // A reference to one candidate is a selection even when the input
        // also names a command; the command wins only when nothing in the
        // pool is named or singled out; anything in between is a collision.
        return match named.as_slice() {
            [(e, k)] if !conflicts(*e) && decide(*e, *k).winner.is_some() => Classification::high(Winner::Entry(*e)),
            [] if !r.out_of_range && matches!(r.words, Words::None | Words::Unexplained) => {
                Classification::high(Winner::Command(cmd.index))
            }
            _ => Classification::llm(AmbiguityReason::CommandSelectionCollision),
        };
    }

    // An explicit scope with a single candidate and an input that points at
    // it ("open it from chat") or names it.
    if pool.cue.is_some()
        && pool.len() == 1
        && (input_is_deictic || !named.is_empty() || !matches!(r.words, Words::None | Words::Unexplained))
    {
        let kind = match (named.first(), &r.words) {
            (Some((_, k)), _) => *k,
            (None, Words::Unique { kind, .. }) => *kind,
            // "it": the cue is the reference; only a position in the
            // options could stand for a high-risk candidate, and this is not.
            _ if input_is_deictic => return decide_deictic(pool, params),
            _ => MatchKind::Containment,
        };
        return decide(0, kind);
    }

    match named.as_slice() {
        [] => {}
        [(e, _)] if conflicts(*e) => {
            let other: Vec<usize> = match &r.words {
                Words::Unique { entry, .. } => vec![*entry],
                Words::Split(set) => set.clone(),
                _ => Vec::new(),
            };
            return several(&mut std::iter::once(*e).chain(other));
        }
        [(e, k)] => return decide(*e, *k),
        _ => return several(&mut r.named_entries()),
    }
    if r.out_of_range {
        // "the fifth one" of three: nothing for the LLM to weigh.
        return Classification::clarifier_only(AmbiguityReason::NoDeterministicMatch);
    }
    match &r.words {
        Words::Unique { entry, kind } if word_winner == Some(*entry) => return decide(*entry, *kind),
        // The rule is switched off: the words only rank the clarifier.
        Words::Unique { .. } => return Classification::llm(AmbiguityReason::NoDeterministicMatch),
        Words::Shared { typo: true, .. } => return Classification::llm(AmbiguityReason::TypoAmbiguous),
        Words::Shared { entries, .. } | Words::Split(entries) => return several(&mut entries.iter().copied()),
        Words::None | Words::Unexplained => {}
    }

    // Nothing is named: the fuzzy rung only ranks the clarifier.
    let top = matches.top();
    match matches.top_tier() {
        Some(MatchTier::Fuzzy) if top.len() >= 2 && top[0].score - top[1].score < params.fuzzy_margin => {
            Classification::llm(AmbiguityReason::TypoAmbiguous)
        }
        _ if input_is_deictic => Classification::clarifier_only(AmbiguityReason::NoDeterministicMatch),
        _ => Classification::llm(AmbiguityReason::NoDeterministicMatch),
    }
}

/// "Open it from chat" with one candidate there: the cue names it, unless
/// it is high risk (then it is offered for confirmation).
fn decide_deictic(pool: &Pool<'_>, params: &MatchParams) -> Classification {
    if pool.entries[0].cand.is_high_risk(&params.high_risk_kinds) {
        Classification { confirm: Some(0), ..Classification::llm(AmbiguityReason::NoDeterministicMatch) }
    } else {
        Classification::high(Winner::Entry(0))
    }
}

/// A high-risk option picked by position executes only in reply to a
/// question that showed it: on a plain screen it is confirmed first.
/// Whether entry `i` (candidate `id`) won by position alone, not by its
/// whole label, with no question that showed it: the app's "which one?"
/// screen, or ladderd's own question (`asked`, read from the session
/// only when the rest leaves it to decide).
pub(crate) fn by_position_unasked<'q>(
    matches: &Matches,
    i: usize,
    id: &str,
    req: &DecideRequest,
    asked: impl FnOnce() -> Option<&'q PendingQuestion>,
) -> bool {
    let by_position = matches.hits.iter().any(|h| h.entry == i && h.kind == MatchKind::Ordinal) && !matches.reading.whole.contains(&i);
    if !by_position || req.options.as_ref().is_some_and(|o| o.asked == crate::types::Asked::Choice) {
        return false;
    }
    !asked().is_some_and(|q| q.offered.iter().any(|o| o == id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::canonicalize;
    use crate::lexicon::Lexicon;
    use crate::matching::{self, Query};
    use crate::scope::{Entry, Source};
    use crate::types::{Candidate, Scope};

    fn classify_input(
        input: &str,
        cands: &[(Candidate, Source)],
        commands: &[Candidate],
        cue: Option<Scope>,
        params: MatchParams,
    ) -> (Classification, Vec<String>) {
        let lex = Lexicon::shipped();
        let pool = Pool {
            entries: cands.iter().enumerate().map(|(i, (c, s))| Entry { cand: c, source: *s, position: i }).collect(),
            cue,
            ordinal_source: Some(Source::ActiveOptions),
            shown_len: None,
        };
        let q = Query::new(canonicalize(input, &lex), &lex);
        let index = matching::CanonPool::build(&pool, &lex, &Default::default()).unwrap();
        let m = matching::find(
            input,
            &q,
            &pool,
            &index,
            commands,
            matching::Rules { lex: &lex, params: &params, ranked: 12, stop: &Default::default() },
        )
        .unwrap();
        let deictic = q.core.is_empty() || lex.deictic.contains(&q.core);
        let c = classify(&Evidence { pool: &pool, matches: &m, input_is_deictic: deictic, params: &params });
        let winner = match c.winner {
            Some(Winner::Entry(e)) => vec![pool.entries[e].cand.id.clone()],
            Some(Winner::Command(i)) => vec![format!("cmd:{}", commands[i].id)],
            None => Vec::new(),
        };
        (c, winner)
    }

    fn options(labels: &[&str]) -> Vec<(Candidate, Source)> {
        labels.iter().enumerate().map(|(i, l)| (Candidate::new(format!("c{i}"), *l), Source::ActiveOptions)).collect()
    }

    const PANELS: &[&str] = &["Links Panels", "Links Panel D", "Links Panel E"];
    const REPORTS: &[&str] = &["Sales Report Q1", "Sales Report Q2", "Sales Report Q3", "Sales Report Q4", "Budget Overview"];
    const PHONES: &[&str] = &["iPhone 15", "iPhone 15 Pro", "iPhone 15 Pro Max", "Galaxy S24"];

    /// One row per rule: (input, labels, what happens: the winner's id, or
    /// the ambiguity reason).
    #[test]
    fn classification_table() {
        use AmbiguityReason::*;
        enum Want {
            Exec(&'static str),
            Ask(AmbiguityReason),
        }
        use Want::*;
        let table: &[(&str, &[&str], Want)] = &[
            ("Links Panel D", PANELS, Exec("c1")),
            ("open links panel e", PANELS, Exec("c2")),
            ("linkspanel d", PANELS, Exec("c1")),
            ("the second one", PANELS, Exec("c1")),
            ("the middle one", PANELS, Exec("c1")),
            ("second to last", PANELS, Exec("c1")),
            ("the bottom one", PANELS, Exec("c2")),
            ("#3", PANELS, Exec("c2")),
            ("the fifth one", PANELS, Ask(NoDeterministicMatch)),
            ("panel d", PANELS, Exec("c1")),
            ("panel d and panel e", PANELS, Ask(MultiMatchNoExactWinner)),
            ("d or e", PANELS, Ask(MultiMatchNoExactWinner)),
            ("not the first one", PANELS, Ask(MultiMatchNoExactWinner)),
            ("anything but panel d", PANELS, Ask(MultiMatchNoExactWinner)),
            ("the one after panel d", PANELS, Ask(MultiMatchNoExactWinner)),
            ("both", PANELS, Ask(MultiMatchNoExactWinner)),
            ("links panel", PANELS, Ask(MultiMatchNoExactWinner)),
            ("q2", REPORTS, Exec("c1")),
            ("sales reprot q3", REPORTS, Exec("c2")),
            ("sales report", REPORTS, Ask(MultiMatchNoExactWinner)),
            ("sales report q", REPORTS, Ask(NoDeterministicMatch)),
            ("the budget one", REPORTS, Exec("c4")),
            ("q1 or q2", REPORTS, Ask(MultiMatchNoExactWinner)),
            ("iphone 15 pro max", PHONES, Exec("c2")),
            ("iphone 15 pro", PHONES, Exec("c1")),
            ("pro max", PHONES, Exec("c2")),
            ("iphone", PHONES, Ask(MultiMatchNoExactWinner)),
            ("galxy", PHONES, Exec("c3")),
            ("the thing for money stuff", REPORTS, Ask(NoDeterministicMatch)),
            // "last" beside a word nothing explains is not a position.
            ("the one I watched last week", REPORTS, Ask(NoDeterministicMatch)),
            ("the last report", REPORTS, Exec("c3")), // the last of the reports
        ];
        for (input, labels, want) in table {
            let (c, winner) = classify_input(input, &options(labels), &[], None, MatchParams::default());
            match want {
                Exec(id) => assert_eq!((c.bucket, winner), (Bucket::HighConfidenceExecute, vec![id.to_string()]), "{input:?}: {c:?}"),
                Ask(reason) => {
                    assert_eq!((c.bucket == Bucket::HighConfidenceExecute, c.reason), (false, Some(*reason)), "{input:?}: {c:?}")
                }
            }
        }
    }

    #[test]
    fn every_resolving_rule_can_be_switched_off() {
        let off = |f: fn(&mut MatchParams)| {
            let mut p = MatchParams::default();
            f(&mut p);
            p
        };
        let table: &[(&str, &[&str], MatchParams)] = &[
            ("q2", REPORTS, off(|p| p.token_shorthand = false)),
            ("the budget one", REPORTS, off(|p| p.token_shorthand = false)),
            ("overview budget", REPORTS, off(|p| p.unique_partial = false)),
            ("sales reprot q3", REPORTS, off(|p| p.typo_resolution = false)),
            ("sales reprot q3", REPORTS, off(|p| p.typo_max_edits = 0)),
            ("iphone 15 pro max", PHONES, off(|p| p.longest_label = false)),
            ("second to last", PANELS, off(|p| p.extended_positions = false)),
            ("linkspanel d", PANELS, off(|p| p.joined_words = false)),
        ];
        for (input, labels, params) in table {
            let (on, _) = classify_input(input, &options(labels), &[], None, MatchParams::default());
            assert_eq!(on.bucket, Bucket::HighConfidenceExecute, "{input:?} executes by default");
            let (c, _) = classify_input(input, &options(labels), &[], None, params.clone());
            assert_ne!(c.bucket, Bucket::HighConfidenceExecute, "{input:?} with {params:?}: {c:?}");
        }
    }

    #[test]
    fn commands_and_options() {
        let cmds = vec![Candidate::new("logout", "Log Out"), Candidate::new("settings", "Open Settings")];
        let songs = options(&["Imagine", "Hey Jude"]);
        for (input, want) in [("log me out", "cmd:logout"), ("logout", "cmd:logout"), ("open settings", "cmd:settings"), ("imagine", "c0")]
        {
            let (c, winner) = classify_input(input, &songs, &cmds, None, MatchParams::default());
            assert_eq!(winner, vec![want.to_string()], "{input:?}: {c:?}");
        }
        // A command that also names an option is a collision.
        let (c, _) = classify_input("log out", &options(&["Log Out Page", "Log Out"]), &cmds, None, MatchParams::default());
        assert_eq!(c.winner, Some(Winner::Entry(1)), "a unique option wins over the command");
        let (c, _) = classify_input("open settings", &options(&["Settings A", "Settings B"]), &cmds, None, MatchParams::default());
        assert_eq!(c.reason, Some(AmbiguityReason::CommandSelectionCollision));
        // A shared verb alone is not a command.
        let (c, _) = classify_input("open", &songs, &cmds, None, MatchParams::default());
        assert_ne!(c.winner, Some(Winner::Command(1)));
        // A command said whole that a word of relation is part of ("start
        // over") is the command; not with a negation, nor beside an option
        // it names.
        let over = vec![Candidate { aliases: vec!["start over".into()], ..Candidate::new("new", "New search") }];
        let trains = options(&["Taxi", "Last train"]);
        let (_, winner) = classify_input("start over", &trains, &over, None, MatchParams::default());
        assert_eq!(winner, vec!["cmd:new".to_string()]);
        let (c, _) = classify_input("don't start over", &trains, &over, None, MatchParams::default());
        assert_ne!(c.winner, Some(Winner::Command(0)));
        let (c, _) = classify_input("start over", &options(&["Start over", "Taxi"]), &over, None, MatchParams::default());
        assert_ne!(c.winner, Some(Winner::Command(0)));
    }

    #[test]
    fn sources_and_scopes() {
        let mixed = vec![
            (Candidate::new("o", "Panel D"), Source::ActiveOptions),
            (Candidate::new("w", "Panel D"), Source::Widget),
            (Candidate::new("x", "Revenue"), Source::Widget),
        ];
        let (c, _) = classify_input("panel d", &mixed, &[], None, MatchParams::default());
        assert_eq!(c.reason, Some(AmbiguityReason::CrossSourceTie));
        let one = vec![(Candidate::new("o", "Panel D"), Source::RecoverableChat)];
        let (c, winner) = classify_input("it", &one, &[], Some(Scope::Chat), MatchParams::default());
        assert_eq!((c.bucket, winner), (Bucket::HighConfidenceExecute, vec!["o".to_string()]));
        let (c, _) = classify_input("it", &options(PANELS), &[], None, MatchParams::default());
        assert_eq!(c.bucket, Bucket::LowConfidenceClarifierOnly, "a bare deictic word with many candidates is not for the LLM");
    }
}
