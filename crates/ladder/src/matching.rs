//! Matching the canonical input against the pool, in the spec's order:
//! exact label -> normalized label -> alias -> ordinal -> badge -> token
//! containment -> fuzzy. Each hit records its kind and score; each pool
//! entry keeps only its best hit.
//!
//! Fuzzy matching uses `rapidfuzz` (bit-parallel Levenshtein with the query
//! preprocessed once per request), and only runs when no stronger rung hit:
//! it ranks typo-heavy input, it never decides on its own.

use super::canon::{canonicalize, canonicalize_into, canonicalize_words_into};
use super::lexicon::Lexicon;
use super::scope::Pool;
use super::text::tokens;
use super::types::Candidate;
use rapidfuzz::distance::levenshtein::{Args, BatchComparator};

wire_enum! {
    "snake_case",
    /// Kinds of match, weakest first (the derived order is their strength).
    #[derive(PartialOrd, Ord)]
    pub enum MatchKind {
        Fuzzy,
        Containment,
        Badge,
        Ordinal,
        Alias,
        Normalized,
        Exact,
    }
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
    /// When the fuzzy rung ran: the `ranked` pool entries most similar to
    /// the input, most similar first, pool order for equal similarity (they
    /// rank the clarifier when nothing stronger matched).
    pub fuzzy: Option<Vec<usize>>,
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

    /// The match rung's trace detail: the first hits as
    /// `candidate:kind:score`, and whether a command matched.
    pub fn describe(&self, pool: &Pool<'_>) -> String {
        let mut parts: Vec<String> =
            self.hits.iter().take(5).map(|h| format!("{}:{}:{:.2}", pool.entries[h.entry].cand.id, h.kind.as_str(), h.score)).collect();
        if self.hits.len() > 5 {
            parts.push(format!("+{}", self.hits.len() - 5));
        }
        if self.command.is_some() {
            parts.push("command".into());
        }
        parts.join(" ")
    }
}

/// Matching thresholds and rules: the `[matching]` section of the
/// configuration, as it is.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatchParams {
    /// Normalized Levenshtein similarity a fuzzy hit needs.
    pub fuzzy_min_similarity: f32,
    /// Two fuzzy hits closer than this are `typo_ambiguous`.
    pub fuzzy_margin: f32,
}

impl Default for MatchParams {
    fn default() -> Self {
        MatchParams { fuzzy_min_similarity: 0.7, fuzzy_margin: 0.1 }
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

/// The raw input, compared case-insensitively with every label of the
/// pool: its ASCII check and lower-casing are done once, not per label.
struct RawInput<'a> {
    text: &'a str,
    /// `text` lower-cased, when it is not ASCII.
    lower: Option<String>,
}

impl<'a> RawInput<'a> {
    fn new(text: &'a str) -> Self {
        RawInput { text, lower: (!text.is_ascii()).then(|| text.to_lowercase()) }
    }

    /// Whether `label.trim()` equals the input, ignoring case (Unicode
    /// lower case), where `ascii` says whether `label` is ASCII (the caller
    /// knows it already).
    fn eq_label(&self, label: &str, ascii: bool) -> bool {
        // Only text starting or ending with white space (ASCII, or a
        // non-ASCII byte: Unicode white space) needs trimming.
        let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_whitespace() || !b.is_ascii());
        let label = if edge(label.as_bytes().first()) || edge(label.as_bytes().last()) { label.trim() } else { label };
        match &self.lower {
            // A non-ASCII label can equal ASCII input ("\u{212A}" lower-cases
            // to "k"), so only an ASCII one takes the byte comparison.
            None if ascii => label.eq_ignore_ascii_case(self.text),
            None => label.to_lowercase() == self.text.to_ascii_lowercase(),
            Some(lower) => label.to_lowercase() == *lower,
        }
    }
}

/// Runs every matching rung over the pool and the commands. `ranked` is how
/// many entries the fuzzy rung ranks (`Matches::fuzzy`).
pub fn run(raw: &str, q: &Query, pool: &Pool<'_>, commands: &[Candidate], lex: &Lexicon, params: MatchParams, ranked: usize) -> Matches {
    let raw = raw.trim();
    let raw_input = RawInput::new(raw);
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
    let mut canon = CanonPool::with_capacity(pool);
    let mut seen = vec![false; core_toks.len()];
    let mut hits: Vec<Hit> = Vec::new();

    // One pass: each candidate is canonicalized and matched while its text
    // is in cache; the rungs read only its canonical form.
    for (idx, e) in pool.entries.iter().enumerate() {
        canon.push(e.cand, lex, &raw_input);
        let label = canon.label(idx);
        let aliases = canon.aliases(idx);
        let hit = match_one(canon.entries[idx].raw_eq, q, label, aliases.clone())
            .or_else(|| (ordinal_pos == Some(e.position) && pool.ordinal_source == Some(e.source)).then_some((MatchKind::Ordinal, 1.0)))
            .or_else(|| badge_hit(input_badge, &core_toks, label, canon.badge(idx)))
            .or_else(|| containment(&core_toks, canon.label_words(), aliases, &mut seen));
        if let Some((kind, score)) = hit {
            hits.push(Hit { entry: idx, kind, score });
        }
    }

    let strong = hits.iter().any(|h| h.kind.tier() >= MatchTier::Containment);
    let mut fuzzy = None;
    if !strong && !q.core.is_empty() {
        // Levenshtein over characters; over bytes when everything is ASCII
        // (the same distances, without decoding UTF-8 for every label).
        let mut best = FuzzyBest::new(ranked, params.fuzzy_min_similarity);
        if q.core.is_ascii() && canon.ascii {
            let cmp = BatchComparator::new(q.core.bytes());
            let bag = BagBound::new(q.core.as_bytes());
            canon.similarity(
                &mut best,
                |s| bag.upper(s.as_bytes()),
                |s, cutoff| cmp.normalized_similarity_with_args(s.bytes(), &Args::default().score_cutoff(cutoff)),
            );
        } else {
            let cmp = BatchComparator::new(q.core.chars());
            canon.similarity(
                &mut best,
                |_| 1.0,
                |s, cutoff| cmp.normalized_similarity_with_args(s.chars(), &Args::default().score_cutoff(cutoff)),
            );
        }
        hits.extend(best.hits);
        fuzzy = Some(best.ranked.into_iter().map(|(_, idx)| idx).collect());
    }

    hits.sort_by(|a, b| {
        b.kind.tier().cmp(&a.kind.tier()).then(b.score.total_cmp(&a.score)).then(b.kind.cmp(&a.kind)).then(a.entry.cmp(&b.entry))
    });
    Matches { hits, command: match_command(&raw_input, q, commands, lex), fuzzy }
}

/// The canonical labels, aliases and badges of a pool, computed once per
/// request into one buffer (every rung below reads them; none
/// re-canonicalizes).
struct CanonPool {
    text: String,
    entries: Vec<CanonEntry>,
    /// Ranges of `text`.
    aliases: Vec<(usize, usize)>,
    /// `text` is ASCII.
    ascii: bool,
    /// Ranges of `text`: the words of the last label pushed.
    label_words: Vec<(usize, usize)>,
}

struct CanonEntry {
    /// Range of `text`.
    label: (usize, usize),
    /// Range of `CanonPool::aliases`.
    aliases: (usize, usize),
    /// The candidate's explicit badge, canonical (a range of `text`), when
    /// it has one.
    badge: Option<(usize, usize)>,
    /// The raw input is the candidate's raw label, ignoring case.
    raw_eq: bool,
}

impl CanonPool {
    /// Room for the pool's labels (canonical text is seldom longer).
    fn with_capacity(pool: &Pool<'_>) -> Self {
        let bytes: usize = pool.entries.iter().map(|e| e.cand.label.len()).sum();
        CanonPool {
            text: String::with_capacity(bytes),
            entries: Vec::with_capacity(pool.entries.len()),
            aliases: Vec::new(),
            ascii: true,
            label_words: Vec::with_capacity(8),
        }
    }

    /// Canonicalizes the next candidate of the pool.
    fn push(&mut self, c: &Candidate, lex: &Lexicon, raw: &RawInput<'_>) {
        let text = &mut self.text;
        let start = text.len();
        let label_ascii = canonicalize_words_into(&c.label, lex, text, &mut self.label_words);
        // Canonical text of ASCII text is ASCII; of other text it may be.
        let mut ascii = label_ascii || text[start..].is_ascii();
        let label = (start, text.len());
        let mut add = |s: &str| {
            let start = text.len();
            ascii &= canonicalize_into(s, lex, text) || text[start..].is_ascii();
            (start, text.len())
        };
        let first = self.aliases.len();
        for a in &c.aliases {
            self.aliases.push(add(a));
        }
        let badge = (!c.badge.trim().is_empty()).then(|| add(&c.badge));
        self.ascii &= ascii;
        let raw_eq = !raw.text.is_empty() && raw.eq_label(&c.label, label_ascii);
        self.entries.push(CanonEntry { label, aliases: (first, self.aliases.len()), badge, raw_eq });
    }

    fn label(&self, idx: usize) -> &str {
        let (s, e) = self.entries[idx].label;
        &self.text[s..e]
    }

    fn aliases(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        let (first, end) = self.entries[idx].aliases;
        self.aliases[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    /// The words of the last label pushed.
    fn label_words(&self) -> impl Iterator<Item = &[u8]> {
        self.label_words.iter().map(|&(s, e)| &self.text.as_bytes()[s..e])
    }

    fn badge(&self, idx: usize) -> Option<&str> {
        self.entries[idx].badge.map(|(s, e)| &self.text[s..e])
    }

    /// Feeds each entry's best similarity (of its label and aliases) to
    /// `best`, asking `sim` only for similarities `best` can still use:
    /// `upper(text)` is a cheap bound of `sim` that rules out most of a large
    /// pool, and `sim(text, cutoff)` is `None` below `cutoff` (rapidfuzz then
    /// skips texts whose length alone rules them out).
    fn similarity(&self, best: &mut FuzzyBest, upper: impl Fn(&str) -> f64, sim: impl Fn(&str, f64) -> Option<f64>) {
        let sim = |text: &str, cutoff: f64| if upper(text) < cutoff { None } else { sim(text, cutoff) };
        for idx in 0..self.entries.len() {
            let cutoff = best.cutoff();
            let score = self.aliases(idx).fold(sim(self.label(idx), cutoff), |acc, a| match (acc, sim(a, cutoff)) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            });
            if let Some(score) = score {
                best.offer(idx, score as f32);
            }
        }
    }
}

/// The fuzzy rung's results, built entry by entry in pool order: every hit
/// (similarity at least `min`) and the `len` most similar entries (pool
/// order for equal similarity). Ranking all entries and keeping the first
/// `len` gives the same list; this only needs exact similarities down to
/// `cutoff`.
struct FuzzyBest {
    len: usize,
    min: f32,
    hits: Vec<Hit>,
    /// (similarity, entry), most similar first, pool order for ties.
    ranked: Vec<(f32, usize)>,
}

impl FuzzyBest {
    fn new(len: usize, min: f32) -> Self {
        FuzzyBest { len, min, hits: Vec::new(), ranked: Vec::with_capacity(len + 1) }
    }

    /// The least similarity an entry offered next could still need to be
    /// known exactly, lowered by far more than f32 rounding (similarities
    /// are compared as f32) so nothing at the boundary is lost.
    fn cutoff(&self) -> f64 {
        let floor = match self.ranked.last() {
            Some(&(kth, _)) if self.ranked.len() == self.len => kth.min(self.min),
            _ if self.len == 0 => self.min,
            _ => return 0.0,
        };
        (f64::from(floor) - 1e-6).max(0.0)
    }

    /// Entries are offered once each, in pool order.
    fn offer(&mut self, entry: usize, score: f32) {
        if score >= self.min {
            self.hits.push(Hit { entry, kind: MatchKind::Fuzzy, score });
        }
        // After every entry at least as similar (they came earlier).
        let at = self.ranked.partition_point(|&(s, _)| s >= score);
        if at < self.len {
            self.ranked.insert(at, (score, entry));
            self.ranked.truncate(self.len);
        }
    }
}

/// An upper bound of the normalized Levenshtein similarity of ASCII text to
/// the query, from the bag distance (characters one side has more of than
/// the other; each needs an edit): one pass of counting, several times
/// cheaper than the distance itself, and in large pools most labels share
/// too few letters with a typo-only input to need it.
struct BagBound {
    counts: [u8; 128],
    len: usize,
}

impl BagBound {
    fn new(query: &[u8]) -> Self {
        let mut counts = [0u8; 128];
        for &b in query {
            let c = &mut counts[usize::from(b & 0x7f)];
            *c = c.saturating_add(1);
        }
        BagBound { counts, len: query.len() }
    }

    /// `1 - bag_distance / max(len)`, computed as rapidfuzz computes the
    /// similarity from the distance, so it is never below the similarity.
    fn upper(&self, text: &[u8]) -> f64 {
        let mut left = self.counts;
        let mut extra = 0usize;
        for &b in text {
            let c = &mut left[usize::from(b & 0x7f)];
            let has = u8::from(*c > 0);
            *c -= has;
            extra += usize::from(1 - has);
        }
        let shared = text.len() - extra;
        let bound = extra.max(self.len - shared);
        let max = self.len.max(text.len());
        if max == 0 { 1.0 } else { 1.0 - bound as f64 / max as f64 }
    }
}

/// Exact, normalized and alias matches of one candidate (`raw_eq`: the raw
/// input is its raw label, ignoring case).
fn match_one<'a>(raw_eq: bool, q: &Query, label: &str, mut aliases: impl Iterator<Item = &'a str>) -> Option<(MatchKind, f32)> {
    if raw_eq {
        return Some((MatchKind::Exact, 1.0));
    }
    if !label.is_empty() && (label == q.core || label == q.full) {
        return Some((MatchKind::Normalized, 1.0));
    }
    aliases.any(|a| !a.is_empty() && (a == q.core || a == q.full)).then_some((MatchKind::Alias, 1.0))
}

/// "panel d" names the candidate whose trailing badge is "d", provided the
/// other words of the input (if any) share at least one word with its label.
/// `explicit` is the candidate's own badge (canonical); without one, the
/// label's last word is its badge.
fn badge_hit(input_badge: Option<&str>, core_toks: &[&str], label: &str, explicit: Option<&str>) -> Option<(MatchKind, f32)> {
    let ib = input_badge?;
    match explicit {
        // The label's last word, when it has more than one (canonical text
        // has single spaces and none at the edges).
        None => {
            let head = label.strip_suffix(ib)?.strip_suffix(' ')?;
            if head.is_empty() {
                return None;
            }
        }
        Some(badge) if badge != ib => return None,
        Some(_) => {}
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
    label_words: impl Iterator<Item = &'a [u8]>,
    aliases: impl Iterator<Item = &'a str>,
    seen: &mut [bool],
) -> Option<(MatchKind, f32)> {
    if core_toks.is_empty() {
        return None;
    }
    let mut best = contained(core_toks, label_words, seen);
    for a in aliases {
        let s = contained(core_toks, words(a), seen);
        best = match (best, s) {
            (Some(x), Some(y)) => Some(x.max(y)),
            (x, y) => x.or(y),
        };
    }
    best.map(|s| (MatchKind::Containment, s))
}

/// The words of canonical text, as bytes.
fn words(canonical: &str) -> impl Iterator<Item = &[u8]> {
    canonical.as_bytes().split(|&b| b == b' ').filter(|w| !w.is_empty())
}

/// Jaccard score of input and label words when one side contains the
/// other. This runs for every candidate: one pass over the label's words,
/// marking the input words seen in `seen` (one flag per input word, reused
/// across candidates: no allocation per label).
fn contained<'a>(core_toks: &[&str], label_words: impl Iterator<Item = &'a [u8]>, seen: &mut [bool]) -> Option<f32> {
    seen.fill(false);
    let mut label_len = 0;
    let mut label_in_input = true;
    for word in label_words {
        label_len += 1;
        let mut found = false;
        for (t, s) in core_toks.iter().zip(seen.iter_mut()) {
            let t = t.as_bytes();
            if t.len() == word.len() && t[0] == word[0] && t == word {
                *s = true;
                found = true;
            }
        }
        label_in_input &= found;
    }
    if label_len == 0 {
        return None;
    }
    let common = seen.iter().filter(|s| **s).count();
    let input_in_label = common == core_toks.len();
    (input_in_label || label_in_input).then(|| common as f32 / (core_toks.len() + label_len - common) as f32)
}

/// A command matches only when the input names the whole command (verb and
/// object, or an alias), never on a shared verb alone.
fn match_command(raw: &RawInput<'_>, q: &Query, commands: &[Candidate], lex: &Lexicon) -> Option<CommandHit> {
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
            let exact = (!raw.text.is_empty() && raw.eq_label(name, name.is_ascii())) || c == q.full || c == q.core;
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
    use crate::scope::{Entry, Source};

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
        let m = run(input, &q, &p, commands, &lex, MatchParams::default(), 12);
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
    fn fuzzy_ranks_entries_only_when_nothing_stronger_matched() {
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

    /// The definitions the fast paths above must agree with.
    mod reference {
        use super::super::tokens;

        pub fn eq_case_insensitive(a: &str, b: &str) -> bool {
            if a.is_ascii() && b.is_ascii() { a.eq_ignore_ascii_case(b) } else { a.to_lowercase() == b.to_lowercase() }
        }

        pub fn contained(core: &[&str], label: &str) -> Option<f32> {
            let words: Vec<&str> = tokens(label).collect();
            if words.is_empty() {
                return None;
            }
            let common = core.iter().filter(|t| words.contains(t)).count();
            let label_in_input = words.iter().all(|w| core.contains(w));
            (common == core.len() || label_in_input).then(|| common as f32 / (core.len() + words.len() - common) as f32)
        }

        pub fn derived_badge(label: &str) -> Option<&str> {
            let words: Vec<&str> = tokens(label).collect();
            (words.len() >= 2).then(|| words[words.len() - 1])
        }
    }

    proptest::proptest! {
        #[test]
        fn contained_agrees_with_its_definition(core in "(links|panel|d|e|sales|report| ){0,30}", label in "(links|panel|d|e|sales|report| ){0,30}") {
            let lex = Lexicon::shipped();
            let (core, label) = (canonicalize(&core, &lex), canonicalize(&label, &lex));
            let core: Vec<&str> = tokens(&core).collect();
            let mut seen = vec![false; core.len()];
            proptest::prop_assert_eq!(contained(&core, words(&label), &mut seen), reference::contained(&core, &label));
        }

        #[test]
        fn a_derived_badge_is_the_last_word_of_a_longer_label(label in "(links|panel|d|dd|e|1|12| ){0,20}", badge in "(d|e|1|12)") {
            let lex = Lexicon::shipped();
            let label = canonicalize(&label, &lex);
            let got = badge_hit(Some(&badge), &[badge.as_str()], &label, None).is_some();
            proptest::prop_assert_eq!(got, reference::derived_badge(&label) == Some(badge.as_str()));
        }

        /// The fuzzy rung skips similarities it cannot use; its hits and
        /// ranking must be those of scoring every entry in full.
        #[test]
        fn fuzzy_ranking_equals_scoring_every_entry(
            input in "(lnks|panle|sales|reprot|d|e|q|2024| ){1,6}",
            labels in proptest::collection::vec(("(links|panel|sales|report|dashboard|d|e|q|2024| ){0,5}", proptest::collection::vec("(links|panel|sales|rep|d| ){0,3}", 0..2)), 0..40),
            ranked in 0usize..8,
            min in 0.0f32..1.0,
        ) {
            let lex = Lexicon::shipped();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, (l, a))| Candidate { aliases: a.clone(), ..Candidate::new(format!("c{i}"), l.clone()) }).collect();
            let q = Query::new(canonicalize(&input, &lex), &lex);
            let p = pool(&cands);
            let m = run(&input, &q, &p, &[], &lex, MatchParams { fuzzy_min_similarity: min, ..MatchParams::default() }, ranked);
            proptest::prop_assume!(m.fuzzy.is_some());

            let sim = |s: &str| rapidfuzz::distance::levenshtein::normalized_similarity(q.core.chars(), canonicalize(s, &lex).chars()) as f32;
            let scores: Vec<f32> = cands.iter().map(|c| c.aliases.iter().fold(sim(&c.label), |acc, a| acc.max(sim(a)))).collect();
            let mut order: Vec<usize> = (0..cands.len()).collect();
            order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b)));
            let want_hits: Vec<(usize, f32)> = order.iter().filter(|i| scores[**i] >= min).map(|i| (*i, scores[*i])).collect();
            let got_hits: Vec<(usize, f32)> = m.hits.iter().map(|h| (h.entry, h.score)).collect();
            proptest::prop_assert_eq!(got_hits, want_hits);
            order.truncate(ranked);
            proptest::prop_assert_eq!(m.fuzzy.unwrap(), order);
        }

        #[test]
        fn the_bag_bound_is_never_below_the_similarity(a in "[ -~]{0,20}", b in "[ -~]{0,30}") {
            let sim = rapidfuzz::distance::levenshtein::normalized_similarity(a.bytes(), b.bytes());
            proptest::prop_assert!(BagBound::new(a.as_bytes()).upper(b.as_bytes()) >= sim);
        }

        #[test]
        fn raw_input_equals_labels_as_eq_case_insensitive_does(raw in "\\PC{0,8}", label in "(\\PC|\u{212A}|K| ){0,8}") {
            let raw = raw.trim();
            proptest::prop_assert_eq!(RawInput::new(raw).eq_label(&label, label.is_ascii()), reference::eq_case_insensitive(raw, label.trim()));
        }
    }
}
