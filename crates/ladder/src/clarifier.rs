//! The clarifier: which candidates to offer, in which order, and the short
//! question that goes with them, in the request's language.

use super::classify::Classification;
use super::matching::{MatchKind, Matches, Query, Referents, Relation, Words};
use super::meaning::{Ranking, Similar};
use super::scope::Pool;
use super::types::{AmbiguityReason, Candidate, DecideRequest, Scope};
use serde::Deserialize;
use std::collections::BTreeMap;

pub const SHIPPED: &str = include_str!("clarifier.toml");

/// Which question a clarifier asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    Selection,
    Collision,
    NoCandidate,
    Scope(Scope),
    NeedMoreInfo,
    /// A high-risk candidate, listed first, to confirm.
    Confirmation,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageTemplates {
    pub selection: String,
    pub collision: String,
    pub no_candidate: String,
    pub scope_chat: String,
    pub scope_widget: String,
    pub scope_dashboard: String,
    pub scope_workspace: String,
    /// The input named two different scopes.
    pub scope_conflict: String,
    pub need_more_info: String,
    /// Asks to confirm a high-risk candidate; files without it use
    /// `selection`.
    #[serde(default)]
    pub confirmation: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Templates {
    by_language: BTreeMap<String, LanguageTemplates>,
}

impl Templates {
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let by_language: BTreeMap<String, LanguageTemplates> = toml::from_str(text).map_err(|e| e.to_string())?;
        if by_language.is_empty() {
            return Err("no language defined".into());
        }
        Ok(Templates { by_language })
    }

    pub fn shipped() -> Self {
        Self::from_toml(SHIPPED).expect("shipped clarifier templates parse (tested)")
    }

    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.by_language.keys().map(String::as_str)
    }

    pub fn has(&self, lang: &str) -> bool {
        self.by_language.contains_key(lang)
    }

    /// The question in `language` ("he-IL" uses "he"), else in `default`.
    pub fn question(&self, ask: Wording, language: &str, default: &str) -> String {
        let primary = language.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        let t = self.by_language.get(&primary).or_else(|| self.by_language.get(default)).or_else(|| self.by_language.values().next());
        let Some(t) = t else { return String::new() };
        match ask {
            Wording::Selection => &t.selection,
            Wording::Collision => &t.collision,
            Wording::NoCandidate => &t.no_candidate,
            Wording::NeedMoreInfo => &t.need_more_info,
            Wording::Confirmation => t.confirmation.as_ref().unwrap_or(&t.selection),
            Wording::Scope(Scope::Unspecified) => &t.scope_conflict,
            Wording::Scope(Scope::Chat) => &t.scope_chat,
            Wording::Scope(Scope::Widget) => &t.scope_widget,
            Wording::Scope(Scope::Dashboard) => &t.scope_dashboard,
            Wording::Scope(Scope::Workspace) => &t.scope_workspace,
        }
        .clone()
    }
}

/// A similarity gap this wide between two neighbours of the meaning
/// ranking (cosine, on unit vectors) makes the options above it far closer
/// than the rest: the clarifier offers those (at least two).
pub const FAR_CLOSER: f32 = 0.25;

/// Whether meaning ranks this unresolved turn's clarifier: where the
/// words point nowhere (`no_deterministic_match`), and where they tie
/// (`multi_match_no_exact_winner`, `cross_source_tie`: ordered, cut and
/// filled by meaning, [`word_tie`]). The words' own ranking stands for a
/// negation that excludes something, a relation, "a or b" and a typo; a
/// position outside the list; a confirmation of what the input names; and
/// a short reference by "one", "it" or "that" ("the red one", "wrong
/// one": what it means is on the screen, not in its words). Numbers in a
/// sentence that says more are values, not positions ([`numbers_are_values`]).
pub fn ranks_by_meaning(class: &Classification, matches: &Matches, query: &Query, lex: &crate::lexicon::Lexicon) -> bool {
    let r = &matches.reading;
    let words: Vec<&str> = crate::text::words(&query.core).collect();
    let a_reference = words.len() <= 3 && words.iter().any(|w| lex.deictic.contains(*w));
    let values = numbers_are_values(matches, &query.core);
    let reason = class.reason.unwrap_or(AmbiguityReason::NoDeterministicMatch);
    let ranked = match reason {
        AmbiguityReason::NoDeterministicMatch => !r.never_executes() || only_the_list(matches) || values,
        AmbiguityReason::MultiMatchNoExactWinner | AmbiguityReason::CrossSourceTie => {
            (r.named.len() < 2 || values) && (!r.never_executes() || only_the_list(matches) || values)
        }
        _ => false,
    };
    ranked && class.confirm.is_none() && (!r.out_of_range || values) && !a_reference
}

/// Whether the positions the input names are numbers said in a sentence
/// that says more than any candidate ("a table for 4 at red robin under
/// the name kevin at 7", "set the temperature to 75", "from the 4th to the
/// 11th"): a content word no candidate has, a position named (or one
/// outside the list), nothing excluded, and a number written in digits.
/// They are values, not positions, and what relates to them ("under the
/// name kevin at 7") relates to no option: for the clarifier's order only
/// (S8), meaning ranks it and the positions do not lead. "2 or 3", "the
/// fifth one" of three and "play the 2nd song" say nothing more, and keep
/// the words' rules.
pub fn numbers_are_values(m: &Matches, text: &str) -> bool {
    let r = &m.reading;
    r.words == Words::Unexplained
        && (r.out_of_range || r.named.iter().any(|(_, k)| *k == MatchKind::Ordinal))
        && r.negated.is_empty()
        && text.bytes().any(|b| b.is_ascii_digit())
}

/// A negation, a relation or a plural that names, excludes and relates to
/// nothing ("my card still hasn't shown up", "roll my 401k over", "show
/// me all of them"): what a person offers after it is the list, which
/// leaves the order open. Where the words point at candidates, one or a
/// set ("anything except sushi", "anything but ibuprofen" with two, "the
/// one next to the lasagna", "not the 4417 card"), they are what the
/// negation excludes or the relation's anchor, and the words' own rules
/// stand.
fn only_the_list(m: &Matches) -> bool {
    let r = &m.reading;
    r.negated.is_empty()
        && r.named.is_empty()
        && matches!(r.words, Words::None | Words::Unexplained)
        && m.hits.iter().all(|h| h.kind < MatchKind::Typo)
}

/// An unresolved turn: what the rules found, why it did not settle, and
/// the candidates the clarifier offers (and the LLM is shown), ranked.
pub struct Tie<'p> {
    pub pool: &'p Pool<'p>,
    pub matches: &'p Matches,
    pub query: &'p Query,
    pub class: Classification,
    pub reason: AmbiguityReason,
    pub items: Vec<TieItem>,
    /// The similarities meaning ranked by (none when by words).
    pub similar: Similar,
    /// How `items` were ranked (the trace's `rank` step).
    pub ranking: Ranking,
}

impl<'p> Tie<'p> {
    /// The tie of an unresolved turn, ranked (`rank`): `cap` candidates at
    /// most, of which the clarifier shows `shown`; `similar` is the
    /// input's similarity to each pool entry when the clarifier ranks by
    /// meaning (docs/meaning.md; S8: it orders and fills, never decides).
    pub fn new(
        pool: &'p Pool<'p>,
        matches: &'p Matches,
        query: &'p Query,
        class: Classification,
        req: &DecideRequest,
        (cap, shown): (usize, usize),
        similar: Similar,
    ) -> Self {
        let reason = class.reason.unwrap_or(AmbiguityReason::NoDeterministicMatch);
        let (items, ranking) = rank(pool, matches, reason, req, (cap, shown), &similar);
        Tie { pool, matches, query, class, reason, items, similar, ranking }
    }

    /// How `items` were ranked: by words alone, by words then meaning, or
    /// a word tie cut or filled by meaning.
    pub fn ranking(&self) -> Ranking {
        self.ranking
    }

    /// The first `n` options with their similarity (`id:score`), for the
    /// trace: ids and scores only, no user text.
    pub fn top_similarities(&self, n: usize) -> String {
        self.items.iter().take(n).filter_map(|t| Some(format!("{}:{:.2}", t.id, self.similar.of(t.entry?)?))).collect::<Vec<_>>().join(",")
    }

    /// How many of the ranked options the clarifier may offer (before its
    /// cap, `clarifier.max_options`): all, or two when meaning found one or
    /// two far closer than every option after them (`FAR_CLOSER`).
    pub fn offered(&self) -> usize {
        let n = self.items.len();
        if self.similar.0.is_none() {
            return n;
        }
        let sims: Vec<Option<f32>> = self.items.iter().map(|t| t.entry.and_then(|e| self.similar.of(e))).collect();
        for k in 1..n.min(3) {
            if let (Some(a), Some(b)) = (sims[k - 1], sims[k])
                && a - b >= FAR_CLOSER
                && sims[k..].iter().all(|s| s.is_some_and(|s| s <= b))
            {
                return k.max(2).min(n);
            }
        }
        n
    }

    /// The ranked ids: the clarifier's order before any suggestion.
    pub fn ids(&self) -> Vec<String> {
        self.items.iter().map(|t| t.id.clone()).collect()
    }

    /// The question that goes with this tie.
    pub fn question(&self) -> Wording {
        if self.class.confirm.is_some() {
            return Wording::Confirmation;
        }
        match self.reason {
            AmbiguityReason::CommandSelectionCollision => Wording::Collision,
            AmbiguityReason::NoCandidate => Wording::NoCandidate,
            _ => Wording::Selection,
        }
    }
}

/// One candidate of an unresolved turn's tie, as the clarifier offers it
/// and the LLM is shown it.
#[derive(Debug, Clone)]
pub struct TieItem {
    pub id: String,
    pub label: String,
    pub kind: String,
    pub hint: String,
    /// The pool entry, `None` for a command in a collision.
    pub entry: Option<usize>,
}

/// Candidates worth offering, most plausible first; deterministic for equal
/// scores (pool order). What the input names comes first: the named
/// candidates of "a or b", the others of a negation, the neighbours of a
/// relation, the set the words point at; for a collision the command is part
/// of the tie.
///
/// With similarities (`similar`, given where [`ranks_by_meaning`]), what
/// the input names whole leads; where nothing else is named, the pool's
/// entries closest in meaning fill the open slots, from the whole screen;
/// a word tie is ordered by meaning, and filled when its word is weak
/// ([`word_tie`]). Elsewhere the set the words point at is the
/// clarifier's, as the words rank it. `cap` candidates at most, of which
/// the clarifier shows `shown`.
pub fn rank(
    pool: &Pool<'_>,
    m: &Matches,
    reason: AmbiguityReason,
    req: &DecideRequest,
    (cap, shown): (usize, usize),
    similar: &Similar,
) -> (Vec<TieItem>, Ranking) {
    let item = |i: usize| {
        let e = pool.entries[i];
        TieItem { id: e.cand.id.clone(), label: e.cand.label.clone(), kind: e.cand.kind.clone(), hint: hint(e.cand), entry: Some(i) }
    };
    let r = &m.reading;
    let word_set = match &r.words {
        Words::Shared { entries, .. } | Words::Split(entries) => Some(entries.as_slice()),
        _ => None,
    };
    let by_meaning = similar.0.is_some();
    let values = by_meaning && numbers_are_values(m, &req.input);
    if by_meaning && reason != AmbiguityReason::NoDeterministicMatch {
        let (order, ranking) = word_tie(pool, m, similar, (cap, shown), values);
        return (order.into_iter().map(item).take(cap).collect(), ranking);
    }
    let mut out: Vec<TieItem> = if r.never_executes() && !(by_meaning && (only_the_list(m) || values)) {
        structured(pool, r).into_iter().map(item).collect()
    } else if reason == AmbiguityReason::NoDeterministicMatch && by_meaning {
        // Nothing named: what the input names whole (a hit stronger than
        // word overlap) leads, closest in meaning first, and the entries
        // closest in meaning fill the open slots from the whole screen.
        let mut order: Vec<usize> = m
            .hits
            .iter()
            .filter(|h| h.kind > MatchKind::Containment && !(values && h.kind == MatchKind::Ordinal))
            .map(|h| h.entry)
            .collect();
        similar.sort(&mut order);
        order.truncate(cap);
        let rest = similar.rest(pool.len(), &order, cap - order.len());
        order.extend(rest);
        order.into_iter().map(item).collect()
    } else {
        match reason {
            AmbiguityReason::NoCandidate => Vec::new(),
            AmbiguityReason::MultiMatchNoExactWinner | AmbiguityReason::CrossSourceTie | AmbiguityReason::TypoAmbiguous
                if r.named.len() >= 2 =>
            {
                r.named_entries().map(item).collect()
            }
            AmbiguityReason::MultiMatchNoExactWinner | AmbiguityReason::CrossSourceTie | AmbiguityReason::TypoAmbiguous
                if word_set.is_some() || !r.named.is_empty() =>
            {
                // What is named, then what the words single out ("the 21st
                // one": the 21st, and "21st Century Breakdown").
                let mut order: Vec<usize> = r.named_entries().collect();
                let unique = match &r.words {
                    Words::Unique { entry, .. } => Some(*entry),
                    _ => None,
                };
                for e in word_set.unwrap_or(&[]).iter().chain(unique.as_ref()) {
                    if !order.contains(e) {
                        order.push(*e);
                    }
                }
                order.into_iter().map(item).collect()
            }
            AmbiguityReason::MultiMatchNoExactWinner | AmbiguityReason::CrossSourceTie => m.top().iter().map(|h| item(h.entry)).collect(),
            AmbiguityReason::TypoAmbiguous => m.hits.iter().filter(|h| h.kind == MatchKind::Fuzzy).map(|h| item(h.entry)).collect(),
            AmbiguityReason::CommandSelectionCollision => {
                let mut v: Vec<TieItem> = m.hits.iter().map(|h| item(h.entry)).collect();
                if let Some(c) = m.command {
                    let cmd = &req.commands[c.index];
                    v.push(TieItem {
                        id: cmd.id.clone(),
                        label: cmd.label.clone(),
                        kind: "command".into(),
                        hint: String::new(),
                        entry: None,
                    });
                }
                v
            }
            AmbiguityReason::NoDeterministicMatch => {
                // The hits, then the most similar entries (when the fuzzy rung
                // ranked them), else pool order.
                let mut order: Vec<usize> = m.hits.iter().map(|h| h.entry).take(cap).collect();
                let rest: Box<dyn Iterator<Item = usize>> = match &m.fuzzy {
                    Some(ranked) if !r.out_of_range => Box::new(ranked.iter().copied()),
                    _ => Box::new(ordinal_order(pool).into_iter().chain(0..pool.len())),
                };
                for i in rest {
                    if order.len() >= cap {
                        break;
                    }
                    if !order.contains(&i) {
                        order.push(i);
                    }
                }
                order.into_iter().map(item).collect()
            }
        }
    };
    out.truncate(cap);
    (out, if by_meaning { Ranking::Meaning } else { Ranking::Words })
}

/// A word tie ranked by meaning
/// (docs/meaning.md#what-it-does-and-what-it-never-does): what the input
/// names whole (a label, an alias, a position) leads, in the words' order;
/// then the set the words point at. A set larger than the clarifier shows is
/// cut by meaning, closest first, not by the screen's order; a weak one
/// ([`weak`]) is ordered by meaning and the closest options of the rest of
/// the screen fill the open slots beside it. A set the clarifier can show
/// whole, on all the input says, stays as the words rank it (an answer by
/// position counts in the screen's order). Positions that are `values`
/// ([`numbers_are_values`]) name nothing here.
fn word_tie(pool: &Pool<'_>, m: &Matches, similar: &Similar, (cap, shown): (usize, usize), values: bool) -> (Vec<usize>, Ranking) {
    let r = &m.reading;
    let position = |h: &&crate::matching::Hit| values && h.kind == MatchKind::Ordinal;
    let mut order: Vec<usize> = r.named.iter().filter(|(_, k)| !values || *k != MatchKind::Ordinal).map(|(e, _)| *e).collect();
    for h in m.hits.iter().filter(|h| h.kind >= MatchKind::Badge && !position(h)) {
        if !order.contains(&h.entry) {
            order.push(h.entry);
        }
    }
    let mut set: Vec<usize> = match &r.words {
        Words::Shared { entries, .. } | Words::Split(entries) => entries.clone(),
        Words::Unique { entry, .. } => vec![*entry],
        _ => m.top().iter().filter(|h| !position(h)).map(|h| h.entry).collect(),
    };
    set.retain(|e| !order.contains(e));
    let weak = weak(set.len(), m);
    if !weak && order.len() + set.len() <= shown {
        order.extend(set);
        return (order, Ranking::Words);
    }
    similar.sort(&mut set);
    order.extend(set);
    if weak {
        let rest = similar.rest(pool.len(), &order, cap.saturating_sub(order.len()));
        order.extend(rest);
    }
    (order, Ranking::TieMeaning)
}

/// Whether a tie of `set` candidates is weak evidence, so that meaning
/// fills the clarifier beside it: it leaves nothing to offer, or the
/// input says more than the words the set shares (a word no candidate
/// has: "my new card still hasn't shown up" ties a screen's card actions
/// on its common noun, "card", and says more). A tie on all the input
/// says ("a pizza" among three pizzas) is what was asked: not filled.
fn weak(set: usize, m: &Matches) -> bool {
    set == 0 || m.reading.words == Words::Unexplained
}

/// The list ordinals count in, in order.
fn ordinal_order(pool: &Pool<'_>) -> Vec<usize> {
    (0..pool.len()).filter(|i| Some(pool.entries[*i].source) == pool.ordinal_source).collect()
}

/// What a person offers after a negation, a relation or a plural: the
/// candidates named positively; else the ones not excluded; the neighbours
/// of a related candidate, then the candidate itself; else the list.
fn structured(pool: &Pool<'_>, r: &Referents) -> Vec<usize> {
    let list = {
        let mut l = ordinal_order(pool);
        l.extend((0..pool.len()).filter(|i| !l.contains(i)).collect::<Vec<_>>());
        l
    };
    let named: Vec<usize> = r.named_entries().collect();
    if let Some(rel) = r.relation {
        let anchors: Vec<usize> = named.iter().chain(&r.negated).copied().collect();
        if anchors.is_empty() {
            return list;
        }
        let mut out = Vec::new();
        for a in &anchors {
            let Some(at) = list.iter().position(|e| e == a) else { continue };
            let before = at.checked_sub(1).map(|i| list[i]);
            let after = list.get(at + 1).copied();
            let near = match rel {
                Relation::After => vec![after],
                Relation::Before => vec![before],
                Relation::Beside => vec![before, after],
            };
            out.extend(near.into_iter().flatten().filter(|e| !anchors.contains(e)));
        }
        out.extend(anchors);
        out.dedup();
        return out;
    }
    if !named.is_empty() {
        return named;
    }
    list.into_iter().filter(|e| !r.negated.contains(e)).collect()
}

/// A candidate's disambiguators for the prompt: sublabel, path, badge.
fn hint(c: &Candidate) -> String {
    [c.sublabel.as_str(), c.path.as_str(), c.badge.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(" · ")
}

/// The clarifier's display order: the suggestion (the LLM's pick) first,
/// then the ranking, at most `max` options.
pub fn display_order(mut ids: Vec<String>, suggested: Option<&str>, max: usize) -> Vec<String> {
    if let Some(s) = suggested {
        ids.retain(|id| id != s);
        ids.insert(0, s.to_string());
    }
    ids.truncate(max);
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggestion_comes_first_once_and_the_list_is_capped() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(display_order(ids(&["a", "b", "c"]), Some("c"), 5), ids(&["c", "a", "b"]));
        assert_eq!(display_order(ids(&["a", "b", "c"]), Some("z"), 2), ids(&["z", "a"]));
        assert_eq!(display_order(ids(&["a", "b", "c"]), None, 2), ids(&["a", "b"]));
    }

    #[test]
    fn language_falls_back_to_the_default() {
        let t = Templates::shipped();
        assert_eq!(t.question(Wording::Selection, "en-US", "en"), "Which one did you mean?");
        assert_eq!(t.question(Wording::Selection, "he", "en"), "לאיזו אפשרות התכוונת?");
        assert_eq!(t.question(Wording::Selection, "fr", "en"), "Which one did you mean?");
        assert_eq!(t.question(Wording::Selection, "", "he"), "לאיזו אפשרות התכוונת?");
    }

    #[test]
    fn every_shipped_question_is_one_short_sentence_ending_in_a_question_mark() {
        let t = Templates::shipped();
        for lang in t.languages() {
            for ask in [
                Wording::Selection,
                Wording::Collision,
                Wording::NoCandidate,
                Wording::NeedMoreInfo,
                Wording::Scope(Scope::Chat),
                Wording::Scope(Scope::Widget),
                Wording::Scope(Scope::Dashboard),
                Wording::Scope(Scope::Workspace),
                Wording::Scope(Scope::Unspecified),
            ] {
                let q = t.question(ask, lang, "en");
                assert!(q.ends_with('?') && q.matches('?').count() == 1, "{lang} {ask:?}: {q}");
                assert!(q.chars().count() <= 120, "{lang} {ask:?} too long");
            }
        }
    }
}
