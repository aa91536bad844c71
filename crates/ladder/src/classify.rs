//! `classify`: the one function that turns the match evidence into a
//! confidence bucket and an ambiguity reason (spec section 4.5). No other
//! code decides confidence.

use super::matching::{MatchTier, Matches};
use super::scope::Pool;
use super::types::{AmbiguityReason, Bucket};

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
}

impl Classification {
    fn high(w: Winner) -> Self {
        Classification { bucket: Bucket::HighConfidenceExecute, reason: None, winner: Some(w) }
    }
    fn llm(reason: AmbiguityReason) -> Self {
        Classification { bucket: Bucket::LowConfidenceLlmEligible, reason: Some(reason), winner: None }
    }
    fn clarifier_only(reason: AmbiguityReason) -> Self {
        Classification { bucket: Bucket::LowConfidenceClarifierOnly, reason: Some(reason), winner: None }
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
    /// Two fuzzy hits closer than this are `typo_ambiguous`.
    pub fuzzy_margin: f32,
}

/// High confidence only for: a unique exact/normalized/alias label match; a
/// unique ordinal or badge match; an explicit scope cue with a unique
/// target; a known command when no pool entry is a plausible match.
/// Everything else is low confidence with the reason that explains it.
pub fn classify(ev: &Evidence<'_>) -> Classification {
    let Evidence { pool, matches, input_is_deictic, fuzzy_margin } = *ev;
    if pool.is_empty() {
        return match matches.command {
            Some(c) => Classification::high(Winner::Command(c.index)),
            None => Classification::clarifier_only(AmbiguityReason::NoCandidate),
        };
    }
    let top = matches.top();
    let tier = matches.top_tier();
    let unique = top.len() == 1;
    let decisive = matches!(tier, Some(MatchTier::Label | MatchTier::Positional));

    if let Some(cmd) = matches.command {
        // Selection-like input with a unique winner is a selection, even
        // when it also names a command; a command wins only when no entry
        // is plausible; anything in between is a collision.
        if decisive && unique {
            return Classification::high(Winner::Entry(top[0].entry));
        }
        if matches.hits.is_empty() {
            return Classification::high(Winner::Command(cmd.index));
        }
        return Classification::llm(AmbiguityReason::CommandSelectionCollision);
    }

    // An explicit scope with a single candidate and an input that points at
    // it ("open it from chat") or matches it.
    if pool.cue.is_some() && pool.len() == 1 && (input_is_deictic || tier >= Some(MatchTier::Containment)) {
        return Classification::high(Winner::Entry(0));
    }

    let sources_in_top = {
        let mut s: Vec<_> = top.iter().map(|h| pool.entries[h.entry].source).collect();
        s.sort();
        s.dedup();
        s.len()
    };
    match tier {
        None if input_is_deictic => Classification::clarifier_only(AmbiguityReason::NoDeterministicMatch),
        None => Classification::llm(AmbiguityReason::NoDeterministicMatch),
        Some(MatchTier::Containment) if unique && pool.cue.is_some() => Classification::high(Winner::Entry(top[0].entry)),
        Some(MatchTier::Label | MatchTier::Positional | MatchTier::Containment) if !unique && sources_in_top > 1 && pool.cue.is_none() => {
            Classification::llm(AmbiguityReason::CrossSourceTie)
        }
        Some(MatchTier::Label | MatchTier::Positional | MatchTier::Containment) if !unique => {
            Classification::llm(AmbiguityReason::MultiMatchNoExactWinner)
        }
        // A single partial hit is not decisive: it only ranks the clarifier.
        Some(MatchTier::Containment) => Classification::llm(AmbiguityReason::NoDeterministicMatch),
        Some(MatchTier::Fuzzy) if top.len() >= 2 && top[0].score - top[1].score < fuzzy_margin => {
            Classification::llm(AmbiguityReason::TypoAmbiguous)
        }
        Some(MatchTier::Fuzzy) => Classification::llm(AmbiguityReason::NoDeterministicMatch),
        // The only case left: one decisive hit.
        Some(MatchTier::Label | MatchTier::Positional) => Classification::high(Winner::Entry(top[0].entry)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::{CommandHit, Hit, MatchKind};
    use crate::scope::{Entry, Source};
    use crate::types::{Candidate, Scope};

    fn pool_of<'a>(cands: &'a [(Candidate, Source)], cue: Option<Scope>) -> Pool<'a> {
        Pool {
            entries: cands.iter().enumerate().map(|(i, (c, s))| Entry { cand: c, source: *s, position: i }).collect(),
            cue,
            ordinal_source: Some(Source::ActiveOptions),
        }
    }

    fn hit(entry: usize, kind: MatchKind, score: f32) -> Hit {
        Hit { entry, kind, score }
    }

    fn cands(sources: &[Source]) -> Vec<(Candidate, Source)> {
        sources.iter().enumerate().map(|(i, s)| (Candidate::new(format!("c{i}"), format!("L{i}")), *s)).collect()
    }

    fn run(cands: &[(Candidate, Source)], cue: Option<Scope>, hits: Vec<Hit>, cmd: Option<usize>, deictic: bool) -> Classification {
        let pool = pool_of(cands, cue);
        let matches = Matches { hits, command: cmd.map(|index| CommandHit { index, exact: true }), fuzzy: None };
        classify(&Evidence { pool: &pool, matches: &matches, input_is_deictic: deictic, fuzzy_margin: 0.1 })
    }

    use AmbiguityReason as R;
    use Bucket as B;
    use Source::{ActiveOptions as O, Widget as W};

    #[test]
    fn classification_table() {
        let three = cands(&[O, O, O]);
        let mixed = cands(&[O, W]);
        let one = cands(&[O]);
        let none: Vec<(Candidate, Source)> = vec![];
        struct Case<'a> {
            name: &'a str,
            cands: &'a [(Candidate, Source)],
            cue: Option<Scope>,
            hits: Vec<Hit>,
            cmd: Option<usize>,
            deictic: bool,
            want: (Bucket, Option<AmbiguityReason>, Option<Winner>),
        }
        let cases = [
            Case {
                name: "unique exact",
                cands: &three,
                cue: None,
                hits: vec![hit(1, MatchKind::Exact, 1.0)],
                cmd: None,
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Entry(1))),
            },
            Case {
                name: "unique normalized beats weaker hits",
                cands: &three,
                cue: None,
                hits: vec![hit(1, MatchKind::Normalized, 1.0), hit(2, MatchKind::Containment, 0.5)],
                cmd: None,
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Entry(1))),
            },
            Case {
                name: "unique ordinal",
                cands: &three,
                cue: None,
                hits: vec![hit(2, MatchKind::Ordinal, 1.0)],
                cmd: None,
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Entry(2))),
            },
            Case {
                name: "two exact labels",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Exact, 1.0), hit(1, MatchKind::Exact, 1.0)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::MultiMatchNoExactWinner), None),
            },
            Case {
                name: "ordinal and badge disagree",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Ordinal, 1.0), hit(1, MatchKind::Badge, 0.5)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::MultiMatchNoExactWinner), None),
            },
            Case {
                name: "containment on two",
                cands: &three,
                cue: None,
                hits: vec![hit(1, MatchKind::Containment, 0.6), hit(2, MatchKind::Containment, 0.6)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::MultiMatchNoExactWinner), None),
            },
            Case {
                name: "single containment is not decisive",
                cands: &three,
                cue: None,
                hits: vec![hit(1, MatchKind::Containment, 0.6)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::NoDeterministicMatch), None),
            },
            Case {
                name: "single containment under a scope cue",
                cands: &three,
                cue: Some(Scope::Chat),
                hits: vec![hit(1, MatchKind::Containment, 0.6)],
                cmd: None,
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Entry(1))),
            },
            Case {
                name: "exact in options and widget",
                cands: &mixed,
                cue: None,
                hits: vec![hit(0, MatchKind::Exact, 1.0), hit(1, MatchKind::Exact, 1.0)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::CrossSourceTie), None),
            },
            Case {
                name: "close fuzzy pair",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Fuzzy, 0.82), hit(1, MatchKind::Fuzzy, 0.78)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::TypoAmbiguous), None),
            },
            Case {
                name: "clear fuzzy winner is still not decisive",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Fuzzy, 0.95), hit(1, MatchKind::Fuzzy, 0.71)],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::NoDeterministicMatch), None),
            },
            Case {
                name: "nothing matched",
                cands: &three,
                cue: None,
                hits: vec![],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::NoDeterministicMatch), None),
            },
            Case {
                name: "nothing to match with",
                cands: &three,
                cue: None,
                hits: vec![],
                cmd: None,
                deictic: true,
                want: (B::LowConfidenceClarifierOnly, Some(R::NoDeterministicMatch), None),
            },
            Case {
                name: "empty pool",
                cands: &none,
                cue: None,
                hits: vec![],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceClarifierOnly, Some(R::NoCandidate), None),
            },
            Case {
                name: "command, empty pool",
                cands: &none,
                cue: None,
                hits: vec![],
                cmd: Some(0),
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Command(0))),
            },
            Case {
                name: "command, nothing plausible",
                cands: &three,
                cue: None,
                hits: vec![],
                cmd: Some(3),
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Command(3))),
            },
            Case {
                name: "command and a unique exact option",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Exact, 1.0)],
                cmd: Some(0),
                deictic: false,
                want: (B::HighConfidenceExecute, None, Some(Winner::Entry(0))),
            },
            Case {
                name: "command and a partial option",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Containment, 0.5)],
                cmd: Some(0),
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::CommandSelectionCollision), None),
            },
            Case {
                name: "command and a fuzzy option",
                cands: &three,
                cue: None,
                hits: vec![hit(0, MatchKind::Fuzzy, 0.75)],
                cmd: Some(0),
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::CommandSelectionCollision), None),
            },
            Case {
                name: "scope cue with one deictic target",
                cands: &one,
                cue: Some(Scope::Chat),
                hits: vec![],
                cmd: None,
                deictic: true,
                want: (B::HighConfidenceExecute, None, Some(Winner::Entry(0))),
            },
            Case {
                name: "scope cue with one unrelated target",
                cands: &one,
                cue: Some(Scope::Chat),
                hits: vec![],
                cmd: None,
                deictic: false,
                want: (B::LowConfidenceLlmEligible, Some(R::NoDeterministicMatch), None),
            },
        ];
        for c in cases {
            let got = run(c.cands, c.cue, c.hits, c.cmd, c.deictic);
            assert_eq!((got.bucket, got.reason, got.winner), c.want, "case {:?}", c.name);
        }
    }
}
