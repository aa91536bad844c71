//! What a question is about (`Decision.about`;
//! docs/meaning.md#questions-what-they-are-about): on an `ESCAPE` with
//! `question_intent`, the candidates the question concerns, closest
//! first, at most [`MAX`]; empty when none is close. The app's chat uses
//! it to answer ("is the pool heated at night?" on a screen with "Pool &
//! spa hours" is about it).
//!
//! Ranked by the words, then by meaning: what the question names (a whole
//! label, an alias, a position, the words that single one out) leads, then
//! the few candidates whose labels share a word with it; then, with a
//! model that reads the request's language, the candidates at least
//! [`CLOSE`] in meaning, closest first. Without a model (or in a language
//! it does not read) only what the words name.
//!
//! S6 and S8: it is computed after the decision (the rungs that escape a
//! question hand it here: `rungs::with_about`), from the same pool and
//! rules, and written only into `about`; nothing reads it back. A
//! question is never executed, with or without it, and the outcome, the
//! target and the escape reason are those the ladder decided
//! (`decide/tests.rs`: `s8_meaning_never_decides`).

use crate::cost::DeadlineWatch;
use crate::draft::{Ctx, Decided};
use crate::intern;
use crate::matching::{self, CanonPool, MatchKind, Query};
use crate::meaning::Similar;
use crate::scope::{self, CueParse, Pool, Resolved};
use crate::types::{DecideRequest, EscapeReason, Outcome, Step};

/// At most this many candidates in `about`.
pub const MAX: usize = 3;

/// The least similarity (cosine, unit vectors) at which a candidate the
/// words do not name is close enough to be what a question is about.
/// Calibrated on CLINC150's train and validation splits with the shipped
/// model (docs/meaning.md, "Questions"): at 0.22, 64.8% of the
/// out-of-scope questions get no candidate, and 81.0% of the in-scope
/// ones hold their intent (0.20: about 58.5% and 82%; 0.25: 67.0% and 80%).
pub const CLOSE: f32 = 0.22;

/// Sets `about` on a decision that escapes a question, and says how in
/// the trace: an `about` step, `words` (the words named them all),
/// `meaning` (meaning added some) or `none`, with the ids and their
/// similarities. Any other decision is left as it is.
pub fn attach(ctx: &Ctx<'_>, req: &DecideRequest, decided: &mut Decided) {
    let d = &mut decided.decision;
    if d.outcome != Outcome::Escape || d.escape_reason != Some(EscapeReason::QuestionIntent) {
        return;
    }
    let started = std::time::Instant::now();
    let (ids, outcome, detail) = of(ctx, req, &decided.canonical_input);
    d.about = ids;
    d.trace.push(Step { rung: "about".into(), outcome: outcome.into(), detail, duration_us: started.elapsed().as_micros() as u64 });
}

/// The ids a question in `canonical` is about, how they were ranked, and
/// the trace's detail (ids and scores, no user text).
fn of(ctx: &Ctx<'_>, req: &DecideRequest, canonical: &str) -> (Vec<String>, &'static str, String) {
    let none = (Vec::new(), "none", String::new());
    let p = ctx.policy;
    let lex = &p.lexicon;
    let stop = DeadlineWatch::new(ctx.deadline);
    let cue = match scope::find_cue(canonical, lex) {
        CueParse::One(c) => Some(c),
        CueParse::None => None,
        CueParse::Conflict => return none,
    };
    let Resolved::Pool(pool) = scope::resolve(req, cue.as_ref().map(|c| c.scope), false) else { return none };
    if pool.is_empty() {
        return none;
    }
    let options = req.options.as_ref().map(|o| &o.candidates);
    let Ok(index) = intern::pool_index(ctx.pool_memo, &pool, options, lex, &stop) else { return none };
    let query = Query::new(cue.map_or_else(|| canonical.to_string(), |c| c.rest), lex);
    // The words as they are: no typo, joined-word or fuzzy reading (the
    // match rung's costliest, and a question's words name what they say).
    let params = matching::MatchParams { typo_max_edits: 0, joined_words: false, fuzzy_min_similarity: 2.0, ..p.matching.clone() };
    let rules = matching::Rules { lex, params: &params, ranked: 0, stop: &stop };
    let Some(matches) = named(req, &query, &pool, &index, rules) else { return none };
    let similar = match p.meaning.as_ref().filter(|m| m.reads(&req.language)) {
        Some(m) => Similar(m.similarities(&req.input, index.vectors(|| m.pool_vectors(&pool)))),
        None => Similar(None),
    };
    // What the words name: a hit that singles a candidate out, or
    // stronger; then the few whose labels share a word with the question
    // (a word most of the screen shares names nothing), closest first.
    let mut order: Vec<usize> = Vec::new();
    for h in matches.hits.iter().filter(|h| h.kind >= MatchKind::Typo) {
        if !order.contains(&h.entry) {
            order.push(h.entry);
        }
    }
    let mut shared: Vec<usize> =
        matches.hits.iter().filter(|h| h.kind == MatchKind::Containment && !order.contains(&h.entry)).map(|h| h.entry).collect();
    if shared.len() <= MAX {
        similar.sort(&mut shared);
        order.extend(shared);
    }
    order.truncate(MAX);
    let by_words = order.len();
    if similar.0.is_some() {
        let rest = similar.closest(pool.len(), &order, MAX - order.len(), CLOSE);
        order.extend(rest);
    }
    let detail = order
        .iter()
        .map(|e| match similar.of(*e) {
            Some(s) => format!("{}:{s:.2}", pool.entries[*e].cand.id),
            None => pool.entries[*e].cand.id.clone(),
        })
        .collect::<Vec<_>>()
        .join(",");
    let outcome = match order.len() {
        0 => "none",
        n if n == by_words => "words",
        _ => "meaning",
    };
    (order.into_iter().map(|e| pool.entries[e].cand.id.clone()).collect(), outcome, detail)
}

/// What the question's words name, as `matching::find` reads them (hits
/// by index into `pool`), read over the candidates that share a word with
/// it: a label, an alias or a badge the question says has its words, and
/// whether a word singles one out or is shared depends only on the
/// candidates that have it. Reading a handful instead of the screen is
/// most of what `about` saves (the word match is its costliest part), and
/// where they only share words, those are read without the match rung
/// ([`shared_only`]). A position or a number counts in the whole list,
/// and more than half of the screen sharing a word saves nothing: those
/// read the whole pool. `None` when the deadline passed.
fn named(req: &DecideRequest, query: &Query, pool: &Pool<'_>, index: &CanonPool, rules: matching::Rules<'_>) -> Option<matching::Matches> {
    let toks: Vec<&str> = crate::text::words(&query.full).collect();
    let counts =
        toks.iter().enumerate().any(|(i, t)| t.bytes().any(|b| b.is_ascii_digit()) || rules.lex.ordinals.value_at(&toks, i).is_some());
    index.build_vocab(rules.stop).ok()?;
    let sharing = if counts { None } else { index.entries_with_any(toks.iter().copied()).filter(|s| 2 * s.len() <= pool.len()) };
    let Some(sharing) = sharing else { return matching::find(&req.input, query, pool, index, &[], rules).ok() };
    if sharing.is_empty() {
        return Some(matching::Matches::default());
    }
    if let Some(hits) = shared_only(&toks, &sharing, pool, index, rules.lex) {
        return Some(matching::Matches { hits, ..Default::default() });
    }
    read_among(req, query, pool, &sharing, rules)
}

/// `matching::find` over the entries of `pool` that are `sharing` (by
/// index), its hits by index into `pool`; `None` when the deadline passed.
fn read_among(
    req: &DecideRequest,
    query: &Query,
    pool: &Pool<'_>,
    sharing: &[usize],
    rules: matching::Rules<'_>,
) -> Option<matching::Matches> {
    let entries = sharing.iter().map(|&i| pool.entries[i]).collect();
    let sub = Pool { entries, cue: pool.cue, ordinal_source: pool.ordinal_source, shown_len: Some(pool.ordinal_len()) };
    let canon = CanonPool::build(&sub, rules.lex, rules.stop).ok()?;
    let mut matches = matching::find(&req.input, query, &sub, &canon, &[], rules).ok()?;
    for h in &mut matches.hits {
        h.entry = sharing[h.entry];
    }
    Some(matches)
}

/// What the question's words name among `sharing` (the entries that
/// share a word with it) when they only share words, read without
/// `matching::find` (most of what a question's `about` costs): `None`,
/// and `find` reads it, unless
///
/// - no word shared with an entry is in a phrase that says more than a
///   word of content (a way of asking or choosing, a conjunction, a
///   negation), points, or is any other word the lexicon has;
/// - no entry's whole label or alias is said, no entry has every word
///   the question says outside the lexicon, and no word is a single
///   letter (a badge), a value (a month, a time: a value is read as the
///   options that show it), a position or relation, or a word of an
///   option's kind.
///
/// Then the entries that share a word other than a function word are
/// named alike (`Containment`), as `find` names them: the more of the
/// question's words an entry has, the earlier; pool order among equals.
fn shared_only(
    toks: &[&str],
    sharing: &[usize],
    pool: &Pool<'_>,
    index: &CanonPool,
    lex: &crate::lexicon::Lexicon,
) -> Option<Vec<matching::Hit>> {
    let function = |w: &str| lex.function_words.contains(w);
    let outside: Vec<&str> = toks.iter().copied().filter(|w| !function(w) && !lex.words.contains(*w)).collect();
    if lex.words.is_empty() || outside.is_empty() || toks.iter().any(|t| t.chars().count() < 2) {
        return None;
    }
    // A position anywhere ("the last one", "the one after") counts in the
    // whole list: the match rung reads it. The words inside any other
    // phrase the rules may read as something else than a word of content
    // (a negation, a way of asking or choosing, a conjunction) and the
    // words that point are marked.
    let positions = [&lex.ordinals, &lex.from_the_end, &lex.relations, &lex.others];
    let others = [
        &lex.negations,
        &lex.conjunctions,
        &lex.partitives,
        &lex.plurals,
        &lex.selection_verbs,
        &lex.everyday_verbs,
        &lex.request_openers,
        &lex.question_openers,
        &lex.polite_openers,
    ];
    let mut says_more = vec![false; toks.len()];
    for i in 0..toks.len() {
        if positions.iter().any(|set| set.match_at(toks, i).is_some()) {
            return None;
        }
        if let Some(n) = others.iter().filter_map(|set| set.match_at(toks, i)).max() {
            says_more[i..i + n].fill(true);
        }
        if lex.deictic.contains(toks[i]) || lex.ordinal_suffixes.contains(toks[i]) {
            says_more[i] = true;
        }
    }
    // A word of an option's kind ("the panel ones") may be read for every
    // option of that kind (the `kind` rule): the match rung reads it.
    let mut kinds: Vec<&str> = Vec::new();
    for kind in index.distinct_kinds(pool) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let of_a_kind = |t: &str| kinds.iter().flat_map(|k| k.split(' ')).any(|k| !k.is_empty() && matching::same_or_plural(k, t));
    // A value (a month, a time) is read as the options that show it.
    if toks.iter().any(|t| !function(t) && of_a_kind(t)) || !crate::values::values(&toks.join(" ")).is_empty() {
        return None;
    }
    let said = |form: &str| {
        let f: Vec<&str> = form.split(' ').filter(|w| !w.is_empty()).collect();
        !f.is_empty() && toks.windows(f.len()).any(|w| w == f.as_slice())
    };
    let mut hits: Vec<(usize, usize)> = Vec::new();
    // Which words outside the lexicon some option has.
    let mut explained = vec![false; outside.len()];
    for &e in sharing {
        if index.forms(e).any(|(form, _)| said(form)) {
            return None;
        }
        let own: Vec<&str> = index.label_words_of(e).chain(index.alias_words_of(e)).collect();
        // A word it shares that the lexicon has, outside the phrases
        // above, may or may not be a word of content to the rules.
        let shares = |t: &&str, more: &bool| own.contains(t) && (*more || lex.words.contains(*t) && !function(t));
        if outside.iter().all(|w| own.contains(w)) || toks.iter().zip(&says_more).any(|(t, more)| shares(t, more)) {
            return None;
        }
        let mut n = 0;
        for (w, seen) in outside.iter().zip(&mut explained) {
            if own.contains(w) {
                n += 1;
                *seen = true;
            }
        }
        if n > 0 {
            hits.push((e, n));
        }
    }
    // Where some word of content is on no option, the more of them an
    // option has, the earlier; where the options together have them all,
    // the rules rank them alike (pool order), so only equal counts are
    // read here.
    if explained.iter().all(|x| *x) && hits.windows(2).any(|p| p[0].1 != p[1].1) {
        return None;
    }
    hits.sort_by_key(|&(e, n)| (std::cmp::Reverse(n), e));
    Some(hits.into_iter().map(|(entry, _)| matching::Hit { entry, kind: MatchKind::Containment, score: 0.0 }).collect())
}

#[cfg(test)]
mod tests;
