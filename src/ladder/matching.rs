//! Matching the canonical input against the pool, in the spec's order:
//! exact label -> normalized label -> alias -> ordinal -> badge -> token
//! containment -> fuzzy. Each hit records its kind and score; each pool
//! entry keeps only its best hit.
//!
//! Fuzzy matching uses `rapidfuzz` (bit-parallel Levenshtein with the query
//! preprocessed once per request), and only runs when no stronger rung hit:
//! it ranks typo-heavy input, it never decides on its own.

use super::canon::{canonicalize, canonicalize_into, tokens};
use super::lexicon::Lexicon;
use super::scope::Pool;
use super::types::Candidate;
use rapidfuzz::distance::levenshtein::BatchComparator;

/// Kinds of match, weakest first (the derived order is their strength).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    Fuzzy,
    Containment,
    Badge,
    Ordinal,
    Alias,
    Normalized,
    Exact,
}

/// Kinds that are equally decisive form one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchTier {
    Fuzzy,
    Containment,
    Positional,
    Label,
}

impl MatchKind {
    pub fn tier(self) -> MatchTier {
        match self {
            MatchKind::Fuzzy => MatchTier::Fuzzy,
            MatchKind::Containment => MatchTier::Containment,
            MatchKind::Badge | MatchKind::Ordinal => MatchTier::Positional,
            MatchKind::Alias | MatchKind::Normalized | MatchKind::Exact => MatchTier::Label,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Fuzzy => "fuzzy",
            MatchKind::Containment => "containment",
            MatchKind::Badge => "badge",
            MatchKind::Ordinal => "ordinal",
            MatchKind::Alias => "alias",
            MatchKind::Normalized => "normalized",
            MatchKind::Exact => "exact",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Index into `Pool::entries`.
    pub entry: usize,
    pub kind: MatchKind,
    /// In [0, 1]; comparable within a kind.
    pub score: f32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommandHit {
    /// Index into `DecideRequest::commands`.
    pub index: usize,
    /// The input is the command (or an alias) and nothing else.
    pub exact: bool,
}

/// The input prepared for matching.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// Canonical input without the scope cue.
    pub full: String,
    /// `full` without a leading selection verb ("open links panel d" ->
    /// "links panel d"); equal to `full` when there is no verb.
    pub core: String,
}

impl Query {
    pub fn new(full: String, lex: &Lexicon) -> Self {
        let toks: Vec<&str> = tokens(&full).collect();
        let core = match (!toks.is_empty()).then(|| lex.selection_verbs.match_at(&toks, 0)).flatten() {
            Some(n) if n < toks.len() => toks[n..].join(" "),
            _ => full.clone(),
        };
        Query { full, core }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Matches {
    /// Best first: strongest kind, then score, then pool order.
    pub hits: Vec<Hit>,
    pub command: Option<CommandHit>,
    /// Fuzzy similarity of every pool entry, when the fuzzy rung ran (it
    /// ranks the clarifier when nothing stronger matched).
    pub fuzzy: Option<Vec<f32>>,
}

impl Matches {
    pub fn top_tier(&self) -> Option<MatchTier> {
        self.hits.first().map(|h| h.kind.tier())
    }
    /// Hits in the strongest tier present.
    pub fn top(&self) -> &[Hit] {
        let Some(t) = self.top_tier() else { return &[] };
        let n = self.hits.iter().take_while(|h| h.kind.tier() == t).count();
        &self.hits[..n]
    }
}

/// Matching thresholds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchParams {
    /// Normalized Levenshtein similarity a fuzzy hit needs.
    pub fuzzy_min: f32,
}

impl Default for MatchParams {
    fn default() -> Self {
        MatchParams { fuzzy_min: 0.7 }
    }
}

fn is_badge_token(t: &str) -> bool {
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.is_alphanumeric(),
        _ => t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()),
    }
}

/// "second", "2nd", "3", "option two", "number 3", "the last one" -> 1-based
/// position, or -1 for last.
pub fn parse_ordinal(core: &str, lex: &Lexicon) -> Option<i32> {
    let toks: Vec<&str> = tokens(core).collect();
    let (mut i, mut end) = (0, toks.len());
    let prefixed = toks.len() > 1 && lex.ordinal_prefixes.contains(toks[0]);
    if prefixed {
        i = 1;
    }
    if end - i > 1 && lex.ordinal_suffixes.contains(toks[end - 1]) {
        end -= 1;
    }
    if end - i != 1 {
        return None;
    }
    let t = toks[i];
    if let Some(n) = lex.ordinals.get(t) {
        return Some(*n);
    }
    if prefixed && let Some(n) = lex.cardinals.get(t) {
        return Some(*n);
    }
    if t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse::<i32>().ok().filter(|n| *n > 0);
    }
    None
}

fn eq_case_insensitive(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() { a.eq_ignore_ascii_case(b) } else { a.to_lowercase() == b.to_lowercase() }
}

/// Runs every matching rung over the pool and the commands.
pub fn run(raw: &str, q: &Query, pool: &Pool<'_>, commands: &[Candidate], lex: &Lexicon, params: MatchParams) -> Matches {
    let raw = raw.trim();
    let core_toks: Vec<&str> = tokens(&q.core).collect();
    let ordinal = parse_ordinal(&q.core, lex);
    let ordinal_pos = ordinal.and_then(|n| {
        let len = pool.ordinal_len();
        match n {
            -1 if len > 0 => Some(len - 1),
            n if n > 0 && (n as usize) <= len => Some(n as usize - 1),
            _ => None,
        }
    });
    let input_badge = core_toks.last().copied().filter(|t| is_badge_token(t));
    let canon = CanonPool::new(pool, lex);
    let mut offsets: Vec<(usize, usize)> = Vec::with_capacity(16);
    let mut hits: Vec<Hit> = Vec::new();

    for (idx, e) in pool.entries.iter().enumerate() {
        let label = canon.label(idx);
        let aliases = canon.aliases(idx);
        let hit = match_one(raw, q, label, e.cand, aliases.clone())
            .or_else(|| (ordinal_pos == Some(e.position) && pool.ordinal_source == Some(e.source)).then_some((MatchKind::Ordinal, 1.0)))
            .or_else(|| badge_hit(input_badge, &core_toks, label, e.cand, lex))
            .or_else(|| containment(&core_toks, label, aliases, &mut offsets));
        if let Some((kind, score)) = hit {
            hits.push(Hit { entry: idx, kind, score });
        }
    }

    let strong = hits.iter().any(|h| h.kind.tier() >= MatchTier::Containment);
    let mut fuzzy = None;
    if !strong && !q.core.is_empty() {
        // Levenshtein over characters; over bytes when everything is ASCII
        // (the same distances, without decoding UTF-8 for every label).
        let scores: Vec<f32> = if q.core.is_ascii() && canon.text.is_ascii() {
            let cmp = BatchComparator::new(q.core.bytes());
            canon.similarity(|s| cmp.normalized_similarity(s.bytes()))
        } else {
            let cmp = BatchComparator::new(q.core.chars());
            canon.similarity(|s| cmp.normalized_similarity(s.chars()))
        };
        for (idx, s) in scores.iter().enumerate() {
            if *s >= params.fuzzy_min {
                hits.push(Hit { entry: idx, kind: MatchKind::Fuzzy, score: *s });
            }
        }
        fuzzy = Some(scores);
    }

    hits.sort_by(|a, b| {
        b.kind.tier().cmp(&a.kind.tier()).then(b.score.total_cmp(&a.score)).then(b.kind.cmp(&a.kind)).then(a.entry.cmp(&b.entry))
    });
    Matches { hits, command: match_command(raw, q, commands, lex), fuzzy }
}

/// The canonical labels and aliases of a pool, computed once per request
/// into one buffer (every rung below reads them; none re-canonicalizes).
struct CanonPool {
    text: String,
    /// Per entry: its label's range in `text`, and its aliases' ranges as
    /// a range of `aliases`.
    entries: Vec<((usize, usize), (usize, usize))>,
    aliases: Vec<(usize, usize)>,
}

impl CanonPool {
    fn new(pool: &Pool<'_>, lex: &Lexicon) -> Self {
        let bytes: usize = pool.entries.iter().map(|e| e.cand.label.len() + e.cand.aliases.iter().map(String::len).sum::<usize>()).sum();
        let mut text = String::with_capacity(bytes);
        let mut entries = Vec::with_capacity(pool.entries.len());
        let mut aliases = Vec::new();
        let add = |s: &str, text: &mut String| {
            let start = text.len();
            canonicalize_into(s, lex, text);
            (start, text.len())
        };
        for e in &pool.entries {
            let label = add(&e.cand.label, &mut text);
            let first = aliases.len();
            for a in &e.cand.aliases {
                aliases.push(add(a, &mut text));
            }
            entries.push((label, (first, aliases.len())));
        }
        CanonPool { text, entries, aliases }
    }

    fn label(&self, idx: usize) -> &str {
        let (s, e) = self.entries[idx].0;
        &self.text[s..e]
    }

    fn aliases(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        let (first, end) = self.entries[idx].1;
        self.aliases[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    /// Per entry, the best similarity of its label and aliases.
    fn similarity(&self, sim: impl Fn(&str) -> f64) -> Vec<f32> {
        (0..self.entries.len()).map(|idx| self.aliases(idx).fold(sim(self.label(idx)) as f32, |acc, a| acc.max(sim(a) as f32))).collect()
    }
}

/// Exact, normalized and alias matches of one candidate.
fn match_one<'a>(
    raw: &str,
    q: &Query,
    label: &str,
    cand: &Candidate,
    mut aliases: impl Iterator<Item = &'a str>,
) -> Option<(MatchKind, f32)> {
    if !raw.is_empty() && eq_case_insensitive(raw, cand.label.trim()) {
        return Some((MatchKind::Exact, 1.0));
    }
    if !label.is_empty() && (label == q.core || label == q.full) {
        return Some((MatchKind::Normalized, 1.0));
    }
    aliases.any(|a| !a.is_empty() && (a == q.core || a == q.full)).then_some((MatchKind::Alias, 1.0))
}

/// "panel d" names the candidate whose trailing badge is "d", provided the
/// other words of the input (if any) share at least one word with its label.
fn badge_hit(input_badge: Option<&str>, core_toks: &[&str], label: &str, cand: &Candidate, lex: &Lexicon) -> Option<(MatchKind, f32)> {
    let ib = input_badge?;
    let explicit;
    let badge = if cand.badge.trim().is_empty() {
        let mut lt = tokens(label);
        let last = lt.next_back()?;
        lt.next()?; // a one-word label has no badge
        last
    } else {
        explicit = canonicalize(&cand.badge, lex);
        explicit.as_str()
    };
    if badge != ib {
        return None;
    }
    let others = &core_toks[..core_toks.len() - 1];
    let overlap = others.iter().filter(|t| tokens(label).any(|l| l == **t)).count();
    if !others.is_empty() && overlap == 0 {
        return None;
    }
    Some((MatchKind::Badge, if others.is_empty() { 0.5 } else { 0.5 + 0.5 * overlap as f32 / others.len() as f32 }))
}

/// Every input word is in the label, or every label word is in the input.
fn containment<'a>(
    core_toks: &[&str],
    label: &str,
    aliases: impl Iterator<Item = &'a str>,
    buf: &mut Vec<(usize, usize)>,
) -> Option<(MatchKind, f32)> {
    if core_toks.is_empty() {
        return None;
    }
    let mut best = contained(core_toks, label, buf);
    for a in aliases {
        let s = contained(core_toks, a, buf);
        best = match (best, s) {
            (Some(x), Some(y)) => Some(x.max(y)),
            (x, y) => x.or(y),
        };
    }
    best.map(|s| (MatchKind::Containment, s))
}

/// Jaccard score of input and label tokens when one side contains the
/// other. This runs for every candidate: the label is split once, into a
/// buffer of offsets reused across candidates (no allocation per label).
fn contained(core_toks: &[&str], label: &str, buf: &mut Vec<(usize, usize)>) -> Option<f32> {
    buf.clear();
    let mut start = None;
    for (i, b) in label.bytes().enumerate() {
        match (b == b' ', start) {
            (true, Some(s)) => {
                buf.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        buf.push((s, label.len()));
    }
    if buf.is_empty() {
        return None;
    }
    let tok = |r: &(usize, usize)| &label[r.0..r.1];
    let common = core_toks.iter().filter(|t| buf.iter().any(|r| tok(r) == **t)).count();
    let input_in_label = common == core_toks.len();
    let label_in_input = buf.iter().all(|r| core_toks.contains(&tok(r)));
    (input_in_label || label_in_input).then(|| common as f32 / (core_toks.len() + buf.len() - common) as f32)
}

/// A command matches only when the input names the whole command (verb and
/// object, or an alias), never on a shared verb alone.
fn match_command(raw: &str, q: &Query, commands: &[Candidate], lex: &Lexicon) -> Option<CommandHit> {
    let full: Vec<&str> = tokens(&q.full).collect();
    let mut best: Option<(CommandHit, usize)> = None;
    for (index, cmd) in commands.iter().enumerate() {
        let names = std::iter::once(cmd.label.as_str()).chain(cmd.aliases.iter().map(String::as_str));
        for name in names {
            let c = canonicalize(name, lex);
            let ct: Vec<&str> = tokens(&c).collect();
            if ct.is_empty() {
                continue;
            }
            let exact = eq_case_insensitive(raw, name.trim()) || c == q.full || c == q.core;
            let contained = ct.len() >= 2 && full.windows(ct.len()).any(|w| w == ct.as_slice());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::scope::{Entry, Source};

    fn pool(cands: &[Candidate]) -> Pool<'_> {
        Pool {
            entries: cands.iter().enumerate().map(|(position, cand)| Entry { cand, source: Source::ActiveOptions, position }).collect(),
            cue: None,
            ordinal_source: Some(Source::ActiveOptions),
        }
    }

    fn panels() -> Vec<Candidate> {
        vec![Candidate::new("p", "Links Panels"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")]
    }

    fn run_on(input: &str, cands: &[Candidate], commands: &[Candidate]) -> (Matches, Vec<String>) {
        let lex = Lexicon::shipped();
        let q = Query::new(canonicalize(input, &lex), &lex);
        let p = pool(cands);
        let m = run(input, &q, &p, commands, &lex, MatchParams::default());
        let ids = m.hits.iter().map(|h| format!("{}:{}", p.entries[h.entry].cand.id, h.kind.as_str())).collect();
        (m, ids)
    }

    #[test]
    fn matching_table() {
        let table: &[(&str, &[&str])] = &[
            ("Links Panel D", &["d:exact"]),
            ("open links panel d", &["d:normalized"]),
            ("LINKS-PANEL-E!", &["e:normalized"]),
            ("the second one", &["d:ordinal"]),
            ("2nd", &["d:ordinal"]),
            ("#3", &["e:ordinal"]),
            ("option three", &["e:ordinal"]),
            ("the last one", &["e:ordinal"]),
            ("panel d", &["d:badge"]),
            ("can you ope panel d pls", &["d:badge"]),
            ("links panel", &["d:containment", "e:containment"]),
            ("links panle d", &["d:badge"]),
            ("lnks panle", &["e:fuzzy", "p:fuzzy"]),
            ("sales report", &[]),
            ("fifth", &[]),
        ];
        for (input, want) in table {
            let (_, ids) = run_on(input, &panels(), &[]);
            assert_eq!(ids, *want, "input {input:?}");
        }
    }

    #[test]
    fn aliases_match_like_labels() {
        let mut c = panels();
        c[0].aliases.push("all the links".into());
        let (_, ids) = run_on("all links", &c, &[]);
        assert_eq!(ids, ["p:alias"]);
    }

    #[test]
    fn explicit_badge_wins_over_derived() {
        let mut c = vec![Candidate::new("x", "Revenue chart")];
        c[0].badge = "R".into();
        let (_, ids) = run_on("chart r", &c, &[]);
        assert_eq!(ids, ["x:badge"]);
    }

    #[test]
    fn badge_needs_a_shared_word_when_input_has_other_words() {
        let (_, ids) = run_on("sales d", &panels(), &[]);
        assert!(ids.iter().all(|i| !i.ends_with(":badge")), "{ids:?}");
    }

    #[test]
    fn fuzzy_scores_every_entry_when_nothing_stronger_matched() {
        let (m, _) = run_on("lnks panle", &panels(), &[]);
        assert_eq!(m.fuzzy.as_ref().map(Vec::len), Some(3));
        let (m, _) = run_on("links panel d", &panels(), &[]);
        assert!(m.fuzzy.is_none());
    }

    #[test]
    fn commands_match_only_when_named_whole() {
        let cmds = vec![Candidate::new("settings", "Open Settings"), Candidate::new("recent", "Open Recent")];
        let table: &[(&str, Option<(&str, bool)>)] = &[
            ("open recent", Some(("recent", true))),
            ("Open Recent", Some(("recent", true))),
            ("please open recent now", Some(("recent", false))),
            ("open sales report", None),
            ("open", None),
            ("settings", None),
            ("recent", None),
        ];
        for (input, want) in table {
            let (m, _) = run_on(input, &panels(), &cmds);
            let got = m.command.map(|c| (cmds[c.index].id.as_str(), c.exact));
            assert_eq!(got, *want, "input {input:?}");
        }
    }

    #[test]
    fn ordinal_table() {
        let lex = Lexicon::shipped();
        let table = [
            ("first", Some(1)),
            ("second one", Some(2)),
            ("3rd option", Some(3)),
            ("number 4", Some(4)),
            ("option two", Some(2)),
            ("two", None),
            ("last one", Some(-1)),
            ("0", None),
            ("second panel", None),
            ("12345", None),
        ];
        for (input, want) in table {
            assert_eq!(parse_ordinal(input, &lex), want, "input {input:?}");
        }
    }
}
