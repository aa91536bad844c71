//! The rungs `decide` lists, one function each, in the ladder's order.
//!
//! Each rung opens its step in the trace (`Draft::begin`), closes it with
//! its outcome, and returns what the next rung reads
//! (`ControlFlow::Continue`) or the decision that ends the run
//! (`ControlFlow::Break`); `Err(DeadlinePassed)` when the caller's deadline
//! passed while it ran. The rules each rung applies live in their own
//! modules (`canon`, `exclusions`, `scope`, `replies`, `matching`,
//! `classify`, `clarifier`, `continuity`, `llm_rung`); a rung only reads
//! their results in order and turns the deciding one into a `Decision`
//! through the working state, `draft::Draft`.

use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::Arc;

use crate::canon;
use crate::clarifier::{self, Tie};
use crate::classify::{Classification, Evidence, Winner, by_position_unasked};
use crate::continuity::{self, Other};
use crate::cost::{DeadlinePassed, DeadlineWatch};
use crate::draft::{Ctx, Decided, Draft, Mode, Offer, reply_decision, unless_refused};
use crate::exclusions::{an_action_of_a_label, hard_exclusion, says_a_label};
use crate::intern;
use crate::llm_rung::{self, LlmStep};
use crate::matching::{self, CanonPool, Matches, Query};
use crate::meaning::Similar;
use crate::ports::Ports;
use crate::replies::{self, Answer, reading::Reading};
use crate::scope::{self, Cue, CueParse, Pool, Resolved};
use crate::text::words;
use crate::types::*;

/// What a rung returns: the decision that ends the run, or the working
/// state and what the next rung reads.
pub(crate) type Flow<'a, T> = Result<ControlFlow<Decided, (Draft<'a>, T)>, DeadlinePassed>;

/// The next rung's input, or the end of `decide` with the decision (or
/// the deadline) a rung came to.
macro_rules! next {
    ($rung:expr) => {
        match $rung? {
            std::ops::ControlFlow::Continue(next) => next,
            std::ops::ControlFlow::Break(decided) => return Ok(decided),
        }
    };
}
pub(crate) use next;

/// What the turn says: its canonical text, which every later rung reads,
/// and what it says as a reply, from its words alone.
pub(crate) struct Said {
    pub(crate) canonical: String,
    pub(crate) reading: Reading,
}

/// 1. Canonicalize once; every later rung uses this text.
pub(crate) fn canonicalize(mut draft: Draft<'_>) -> Flow<'_, Said> {
    let lex = &draft.ctx.policy.lexicon;
    let input = &draft.req.input;
    draft.begin("canonicalize");
    let canonical = canon::canonicalize(input, lex);
    draft.canonical = canonical.clone();
    draft.step("ok", format!("{} tokens", words(&canonical).count()));
    // A word the request's candidates show is theirs, never a slip of a
    // reply word: looked at only when a word would be respelled.
    let shown_words = std::cell::OnceCell::new();
    let shown = |t: &str| {
        shown_words
            .get_or_init(|| {
                let req = draft.req;
                let all = req.option_candidates().iter().chain(&req.recoverable_chat_options).chain(&req.widget_items).chain(&req.commands);
                all.flat_map(|c| {
                    let text = crate::text::fold(&crate::text::normalize(&replies::shown_text(c))).into_owned();
                    text.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect::<Vec<_>>()
                })
                .collect::<rustc_hash::FxHashSet<String>>()
            })
            .contains(t)
    };
    let reading = replies::reading::read_over(input, lex, &shown);
    Ok(Continue((draft, Said { canonical, reading })))
}

/// A question read as a reply first: one after a yes ("Sounds good. When
/// am I free that day?") or one for other options ("any other
/// options?"). The yes may stand, the request for others declines what
/// was proposed (the reply rung); if neither, the question escapes as it
/// would have at the exclusions.
#[derive(Clone, Copy)]
pub(crate) struct ReadFirst {
    question_after_yes: bool,
    only_for_others: bool,
}

/// 2. Hard exclusions: the only early escapes. A cancel that refuses what
///    was proposed ("no", "nope") is a reply, and one that says a label
///    whole ("Skip") is that request.
pub(crate) fn exclusions<'a>(mut draft: Draft<'a>, said: &Said) -> Flow<'a, ReadFirst> {
    let (req, lex) = (draft.req, &draft.ctx.policy.lexicon);
    let (canonical, reading) = (&said.canonical, &said.reading);
    draft.begin("exclusions");
    let exclusion = match hard_exclusion(&req.input, canonical, req, lex) {
        Some(EscapeReason::Cancel)
            if reading.declines() || says_a_label(req, canonical, lex) || an_action_of_a_label(req, canonical, lex) =>
        {
            None
        }
        e => e,
    };
    let only_for_others = reading.alternatives
        && !reading.refuses
        && reading.rest.iter().all(|w| lex.generic_nouns.contains(w) || lex.function_words.contains(w));
    // A question after a clause of its own that says something ("the
    // blue one - is it washable?") may follow a choice (the reply rung).
    // A function word of one language that a label says counts ("the van
    // - can I return it at the airport?" with "Van · Ford Transit").
    let says_something = |c: &crate::replies::reading::Clause| {
        !c.rest.is_empty()
            || c.words.iter().any(|w| {
                lex.function_words.contains(w.as_str())
                    && req.options.as_ref().is_some_and(|o| {
                        o.candidates
                            .iter()
                            .any(|cand| crate::text::words(&crate::canon::canonicalize(&cand.label, lex)).any(|l| l == w.as_str()))
                    })
            })
    };
    // Read only for a question (it may canonicalize the labels).
    let after_a_clause = || reading.clauses.len() > 1 && !reading.clauses[0].asks && says_something(&reading.clauses[0]);
    let question_after_yes = exclusion == Some(EscapeReason::QuestionIntent) && (reading.affirms || only_for_others || after_a_clause());
    draft.step(if question_after_yes { "question_after_yes" } else { exclusion.map_or("pass", EscapeReason::as_str) }, String::new());
    if let Some(reason) = exclusion.filter(|_| !question_after_yes) {
        return Ok(Break(escape(draft, reason)));
    }
    Ok(Continue((draft, ReadFirst { question_after_yes, only_for_others })))
}

/// An escape at the exclusions; a question says what it is about.
fn escape(draft: Draft<'_>, reason: EscapeReason) -> Decided {
    let (ctx, req) = (draft.ctx, draft.req);
    with_about(ctx, req, draft.escape(reason, None, Tier::Exclusions))
}

/// A question handed back, with the candidates it is about
/// (`about::attach`: from the same pool and cue, once the rungs decided,
/// and written only into `about` and its trace step: S8). Any other
/// decision as it is.
fn with_about(ctx: &Ctx<'_>, req: &DecideRequest, mut decided: Decided) -> Decided {
    crate::about::attach(ctx, req, &mut decided);
    decided
}

/// The pool a turn is read over: the scope cue's or the screen's
/// candidates, and the pool's canonical index (the memo's for a pool that
/// comes again), through which replies and matching read labels.
pub(crate) struct Scoped<'r> {
    cue: Option<Cue>,
    pool: Pool<'r>,
    index: Arc<CanonPool>,
}

/// 3. Scope cue, parsed before any widget shortcut, and the pool.
pub(crate) fn scope<'a>(mut draft: Draft<'a>, said: &Said, first: ReadFirst, stop: &DeadlineWatch) -> Flow<'a, Scoped<'a>> {
    let (ctx, req, mode) = (draft.ctx, draft.req, draft.mode);
    let lex = &ctx.policy.lexicon;
    draft.begin("scope");
    let parsed = scope::find_cue(&said.canonical, lex);
    // A question read as a reply first that holds a scope cue escapes as
    // it would have at the exclusions, not on its cue.
    if first.question_after_yes && !matches!(parsed, CueParse::None) {
        return Ok(Break(escape(draft, EscapeReason::QuestionIntent)));
    }
    let cue = match parsed {
        CueParse::None => None,
        CueParse::One(c) => Some(c),
        CueParse::Conflict => {
            draft.step("conflicting_cues", String::new());
            return Ok(Break(draft.need_scope(Scope::Unspecified, EvidenceType::ScopeDisambiguationHint)));
        }
    };
    // Recoverable chat options an Enrich step supplied join the pool.
    let recoverable = matches!(mode, Mode::Enrich(c) if c.supplied.contains(&EvidenceType::ChatRecoverableOptions));
    let pool = match scope::resolve(req, cue.as_ref().map(|c| c.scope), recoverable) {
        Resolved::Pool(pool) => pool,
        Resolved::EmptyScope { scope, needed } => {
            draft.step("empty_scope", format!("{} cue with no candidates", scope.as_str()));
            return Ok(Break(draft.need_scope(scope, needed)));
        }
    };
    draft.scope = cue.as_ref().map(|c| c.scope);
    let cue_name = cue.as_ref().map_or("none", |c| c.scope.as_str());
    draft.record(|s| {
        s.record("ladder.candidate_count", pool.len());
        s.record("ladder.scope", cue_name);
        s.record("ladder.option_set_id", req.option_set_id());
    });
    draft.step(cue_name, format!("{} candidates", pool.len()));
    let options = req.options.as_ref().map(|o| &o.candidates);
    let index = intern::pool_index(ctx.pool_memo, &pool, options, lex, stop)?;
    Ok(Continue((draft, Scoped { cue, pool, index })))
}

/// What the rungs after the reply read: the pool (without the options a
/// reply refused), its index, the cue, and the words a reply left to read
/// again ("no, just freeze the card").
pub(crate) struct Replied<'r> {
    cue: Option<Cue>,
    pool: Pool<'r>,
    index: Arc<CanonPool>,
    again: Option<String>,
}

/// 3b. Replies: the turn read against what was asked (docs/replies.md),
///     the table of reply kinds run once. A reply that refuses and names
///     something else is read again by the rungs below over the pool
///     without what it refused.
pub(crate) fn reply<'a>(
    mut draft: Draft<'a>,
    said: &Said,
    first: ReadFirst,
    scoped: Scoped<'a>,
    stop: &DeadlineWatch,
) -> Flow<'a, Replied<'a>> {
    let (ctx, req) = (draft.ctx, draft.req);
    let p = ctx.policy;
    let Scoped { cue, mut pool, index } = scoped;
    draft.begin("reply");
    let answered = {
        let cx = replies::Context::new(req, &ctx.state, &pool, &index, &p.lexicon, &p.matching.high_risk_kinds, &said.canonical);
        replies::answer(&cx.until(stop), &said.reading)
    };
    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    let taken = match answered.answer {
        Answer::Execute { .. } => said.reading.affirms || answered.follow_up.is_some(),
        Answer::Escape { reason: EscapeReason::Declined, .. } => first.only_for_others,
        // A choice two options fit, then a question: which one is asked
        // first (`replies::a_choice_then_more`).
        Answer::Ask { kind: replies::ReplyKind::Detail, .. } => true,
        _ => false,
    };
    if first.question_after_yes && !taken {
        draft.step("pass", "a question: the yes does not stand".to_string());
        return Ok(Break(escape(draft, EscapeReason::QuestionIntent)));
    }
    draft.rejected_execute = answered.rejected.clone();
    let (text, without) = match answered.answer {
        Answer::Pass => {
            draft.step("pass", String::new());
            return Ok(Continue((draft, Replied { cue, pool, index, again: None })));
        }
        Answer::Again { text, without, kind } => {
            // What was read again, by its size and the options it leaves
            // out: the trace names rules and ids, never the input's words
            // (they leave the process in spans and decision records).
            let left_out: Vec<&str> = without.iter().map(|i| pool.entries[*i].cand.id.as_str()).collect();
            let without_ids = if left_out.is_empty() { String::new() } else { format!(" without {}", left_out.join(",")) };
            draft.step(kind.as_str(), format!("read again{without_ids}: {} tokens", words(&text).count()));
            (text, without)
        }
        answer => return Ok(Break(with_about(ctx, req, reply_decision(draft, &pool, answer, answered.follow_up)))),
    };
    let dropped: Vec<String> = without.iter().map(|i| pool.entries[*i].cand.id.clone()).collect();
    // Positions still count on the list as the user saw it.
    pool.shown_len = Some(pool.ordinal_len());
    pool.entries.retain(|e| !dropped.contains(&e.cand.id));
    let options = req.options.as_ref().map(|o| &o.candidates);
    let index = intern::pool_index(ctx.pool_memo, &pool, options, &p.lexicon, stop)?;
    Ok(Continue((draft, Replied { cue, pool, index, again: Some(text) })))
}

/// What the input names over the pool.
pub(crate) struct Matched {
    query: Query,
    matches: Matches,
}

/// 4. Match. A scope cue keeps the decision to that scope's candidates
///    (S4): known commands are not among them.
pub(crate) fn matching<'a>(mut draft: Draft<'a>, said: &Said, replied: &Replied<'_>, stop: &DeadlineWatch) -> Flow<'a, Matched> {
    let (p, req) = (draft.ctx.policy, draft.req);
    let (lex, pool, index) = (&p.lexicon, &replied.pool, &*replied.index);
    draft.begin("match");
    let commands: &[Candidate] = if replied.cue.is_some() { &[] } else { &req.commands };
    let text = match (&replied.again, &replied.cue) {
        (Some(again), _) => again.clone(),
        (None, Some(cue)) => cue.rest.clone(),
        (None, None) => said.canonical.clone(),
    };
    // Said in other words than a label's own ("check me in", "without
    // onions"): read in the label's.
    let text = matching::in_the_labels_words(&text, index, lex).unwrap_or(text);
    let query = Query::new(text, lex);
    let rules = matching::Rules { lex, params: &p.matching, ranked: p.tie_len(), stop };
    let matches = matching::find(&req.input, &query, pool, index, commands, rules)?;
    // Two requests in order: the first, the rest handed back. Also as the
    // answer to "which one?" ("dishwasher first, then the washing
    // machine"); never to a yes-or-no question about one option.
    let asked_one = req.options.as_ref().is_some_and(|o| o.asked == Asked::Confirmation)
        || draft.ctx.state.question().is_some_and(|q| q.kind == crate::question::QuestionKind::Confirmation);
    let names_one = |q: &Query, m: &Matches| {
        let c = crate::classify::classify(&Evidence {
            pool,
            matches: m,
            input_is_deictic: q.core.is_empty() || lex.deictic.contains(&q.core),
            params: &p.matching,
        });
        matches!(c.winner, Some(Winner::Entry(_))) || c.confirm.is_some()
    };
    let first = matching::sequence::first_of(&req.input, (&query, &matches), asked_one, pool, index, commands, rules, &names_one)?;
    let mut aside = false;
    let (query, matches) = match first {
        Some((first, matches, rest)) => {
            draft.then = Some(rest);
            (first, matches)
        }
        // A choice, then a remark that names nothing and asks nothing
        // ("-1 pls, closer to the exit"): the choice.
        None => match matching::aside::first_of(&req.input, (&query, &matches), pool, index, commands, rules, &names_one)? {
            Some((first, matches)) => {
                aside = true;
                (first, matches)
            }
            None => (query, matches),
        },
    };
    let sequence = match &draft.then {
        Some(rest) => format!("; sequence: the first request, then {rest:?}"),
        None if aside => "; aside: the first clause, then a remark".to_string(),
        None => String::new(),
    };
    draft.step(format!("{} hits", matches.hits.len()), format!("{}{sequence}", matches.describe(pool)));
    Ok(Continue((draft, Matched { query, matches })))
}

/// 5. Classify: the one place confidence is decided.
pub(crate) fn classify<'a>(mut draft: Draft<'a>, replied: &Replied<'_>, matched: &Matched) -> Flow<'a, Classification> {
    let (p, pool) = (draft.ctx.policy, &replied.pool);
    let lex = &p.lexicon;
    draft.begin("classify");
    let core = &matched.query.core;
    let class = crate::classify::classify(&Evidence {
        pool,
        matches: &matched.matches,
        input_is_deictic: core.is_empty() || lex.deictic.contains(core),
        params: &p.matching,
    });
    draft.class = Some(class);
    let reason_name = class.reason.map_or("", AmbiguityReason::as_str);
    draft.record(|s| {
        s.record("ladder.confidence_bucket", class.bucket.as_str());
        s.record("ladder.ambiguity_reason", reason_name);
    });
    let detail = match (class.refused, class.confirm) {
        (Some(e), _) => format!("{reason_name}; {} does not account for the input", pool.entries[e].cand.id),
        (_, Some(e)) => format!("{reason_name}; {} is high risk: confirm it", pool.entries[e].cand.id),
        _ => reason_name.to_string(),
    };
    // The words a rule read as said for the winner, and which rule.
    let by = match class.winner {
        Some(Winner::Entry(e)) => matched.matches.reading.accounted_by(e),
        _ => String::new(),
    };
    let detail = if by.is_empty() {
        detail
    } else if detail.is_empty() {
        by
    } else {
        format!("{detail}; {by}")
    };
    draft.step(class.bucket.as_str(), detail);
    Ok(Continue((draft, class)))
}

/// 6. Collision guard: a high-confidence winner is either a selection or
///    a command escape; everything else is a tie that goes up the ladder,
///    ranked and in the cycle it belongs to.
pub(crate) fn collision<'a, 't>(
    mut draft: Draft<'a>,
    said: &Said,
    replied: &'t Replied<'_>,
    matched: &'t Matched,
    class: Classification,
) -> Flow<'a, Tie<'t>> {
    let (ctx, req) = (draft.ctx, draft.req);
    let p = ctx.policy;
    let (pool, matches) = (&replied.pool, &matched.matches);
    // Of two requests in order, what the first says: "accept it first,
    // then tell them I can only stay 30 minutes" changes nothing the
    // invite shows.
    let first_only = draft.then.as_ref().map(|_| replies::reading::read(&matched.query.full, &p.lexicon));
    let reading = first_only.as_ref().unwrap_or(&said.reading);
    draft.begin("collision");
    match class.winner {
        // A high-risk option picked by position executes only in reply
        // to a question that showed it: on a plain screen it is
        // confirmed first.
        Some(Winner::Entry(i))
            if pool.entries[i].cand.is_high_risk(&p.matching.high_risk_kinds)
                && (draft.then.is_some() || by_position_unasked(matches, i, &pool.entries[i].cand.id, req, || ctx.state.question())) =>
        {
            let id = pool.entries[i].cand.id.clone();
            let why = match draft.then.take() {
                Some(_) => format!("{id} is the first of two requests: confirm it"),
                None => format!("{id} picked by position, never asked about: confirm it"),
            };
            return Ok(Break(draft.confirm_high_risk(Offer::among(vec![id.clone()]), id, why)));
        }
        // A correction with a value changes a detail of what it names
        // ("actually, make it for 1"), and so does a value that differs
        // from one it shows ("one ticket" to "2 tickets"): never an
        // execute.
        Some(Winner::Entry(i)) if reading.changes_a_detail() || replies::changes_what_it_shows(reading, pool.entries[i].cand) => {
            let id = pool.entries[i].cand.id.clone();
            draft.step("changes_a_detail", id.clone());
            draft.begin("fallback");
            return Ok(Break(draft.fallback(Offer::among(vec![id]), None, LlmReport::default())));
        }
        Some(Winner::Entry(i)) => {
            let e = pool.entries[i];
            let fits: Vec<usize> = matches.hits.iter().filter(|h| h.kind > matching::MatchKind::Fuzzy).map(|h| h.entry).collect();
            return Ok(Break(unless_refused(draft, pool, i, &fits, |mut draft| {
                draft.event("deterministic_high_confidence_execute", e.cand.id.clone());
                draft.step("selection", e.cand.id.clone());
                draft.execute(e.cand.id.clone(), e.source, Decider::Deterministic, Tier::Deterministic)
            })));
        }
        Some(Winner::Command(i)) => {
            draft.step("command", req.commands[i].id.clone());
            return Ok(Break(draft.escape(EscapeReason::Command, Some(req.commands[i].id.clone()), Tier::Command)));
        }
        None => {}
    }
    let query = &matched.query;
    let similar = match clarifier::ranks_by_meaning(&class, matches, query, &p.lexicon) {
        true => similar(ctx, req, replied.again.as_deref().unwrap_or(&req.input), pool, &replied.index),
        false => Similar(None),
    };
    let tie = Tie::new(pool, matches, query, class, req, (p.tie_len(), p.clarifier_max_options), similar);
    draft.open_cycle(&tie);
    let sources: std::collections::BTreeSet<&str> =
        tie.items.iter().map(|t| t.entry.map_or("commands", |i| pool.entries[i].source.as_str())).collect();
    let sources = sources.into_iter().collect::<Vec<_>>().join(",");
    draft.record(|s| {
        s.record("ladder.sources_in_tie", sources.as_str());
    });
    draft.event("deterministic_low_confidence_tie", tie.reason.as_str().to_string());
    draft.step("unresolved", class.reason.map_or("", AmbiguityReason::as_str).to_string());
    Ok(Continue((draft, tie)))
}

/// The input's similarity to each entry of `pool`, when the clarifier
/// ranks by meaning (docs/meaning.md): a model configured, and a request
/// in a language it reads. The pool's vectors are kept with its canonical
/// index (a screen sent again is embedded once), each label's with the
/// label (a label seen on another screen is embedded once:
/// `intern::pool_vectors`). S8: only the clarifier's options, their order
/// and the LLM's list read them.
fn similar(ctx: &Ctx<'_>, req: &DecideRequest, text: &str, pool: &Pool<'_>, index: &CanonPool) -> Similar {
    let Some(m) = ctx.policy.meaning.as_ref().filter(|m| m.reads(&req.language)) else { return Similar(None) };
    let vectors = index.vectors(|| intern::pool_vectors(ctx.pool_memo, m, pool));
    Similar(m.similarities(text, vectors))
}

/// 6b. Rank: how the tie was ranked (S8: the order and the options
///     only), with the first options' similarities: ids and scores, no
///     user text.
pub(crate) fn rank<'a>(mut draft: Draft<'a>, tie: &Tie<'_>) -> Flow<'a, ()> {
    draft.begin("rank");
    draft.step(tie.ranking().as_str(), tie.top_similarities(3));
    Ok(Continue((draft, ())))
}

/// 7. Continuity: may resolve a remaining tie under its strict rules;
///    "the other one" is the other of two. Continuity never executes a
///    high-risk candidate: it is offered for confirmation instead. The
///    resolver's answer, before the loop guard's say, is kept for the
///    LLM's veto (`Draft::settle`).
pub(crate) fn continuity<'a>(mut draft: Draft<'a>, tie: &Tie<'_>) -> Flow<'a, continuity::Resolution> {
    let (ctx, req) = (draft.ctx, draft.req);
    let pool = tie.pool;
    draft.begin("continuity");
    let suggestion = draft.guard_suggestion().map(str::to_string);
    let resolved = continuity::resolve(&ctx.state, req, tie);
    // How the turn reached an option: the resolver, or "the other one".
    let (i, by_the_other) = match continuity::guarded(resolved, tie, suggestion.as_deref()) {
        Ok(i) => (i, false),
        Err(why) => {
            if why == continuity::REFUSED
                && let Some(i) = continuity::label_winner(tie)
            {
                draft.refuse(pool.entries[i].cand.id.clone());
            }
            match continuity::the_other(&ctx.state, req, tie, &ctx.policy.lexicon) {
                Ok(Other::One(i)) => (i, true),
                // The options but the one just had: a question, not the LLM's.
                Ok(Other::Among(rest)) => {
                    let ids: Vec<String> = rest.iter().map(|i| pool.entries[*i].cand.id.clone()).collect();
                    draft.step("the_others", ids.join(","));
                    draft.begin("fallback");
                    return Ok(Break(draft.fallback(Offer::among(ids), None, LlmReport::default())));
                }
                Err(_) => {
                    draft.step("pass", why.to_string());
                    return Ok(Continue((draft, resolved)));
                }
            }
        }
    };
    let e = pool.entries[i];
    if e.cand.is_high_risk(&ctx.policy.matching.high_risk_kinds) {
        let id = e.cand.id.clone();
        return Ok(Break(draft.confirm_high_risk(Offer::of(tie), id.clone(), id)));
    }
    let step = if by_the_other { "the_other" } else { "resolved" };
    let execute = move |mut draft: Draft<'_>| {
        draft.event("deterministic_continuity_resolve", e.cand.id.clone());
        draft.step(step, e.cand.id.clone());
        draft.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity)
    };
    // The resolver has checked refusals itself; "the other one" has not.
    Ok(Break(if by_the_other { unless_refused(draft, pool, i, &[], execute) } else { execute(draft) }))
}

/// 7b. An answer to "which one?" by a detail only one offered option
///     shows, where the screen left the tie (the detail room of the
///     replies, docs/replies.md); the same words again (the session's
///     open cycle on this evidence) answer nothing.
pub(crate) fn detail<'a>(mut draft: Draft<'a>, said: &Said, replied: &Replied<'_>, stop: &DeadlineWatch) -> Flow<'a, ()> {
    let (ctx, req) = (draft.ctx, draft.req);
    let p = ctx.policy;
    let answer = if draft.continues_a_cycle() {
        Answer::Pass
    } else {
        let cx =
            replies::Context::new(req, &ctx.state, &replied.pool, &replied.index, &p.lexicon, &p.matching.high_risk_kinds, &said.canonical);
        replies::detail(&cx.until(stop), &said.reading).answer
    };
    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    match answer {
        Answer::Pass => Ok(Continue((draft, ()))),
        answer => {
            draft.begin("detail");
            Ok(Break(reply_decision(draft, &replied.pool, answer, None)))
        }
    }
}

/// 8. The LLM rung: the one call site, only for LLM-eligible ties.
pub(crate) async fn llm<'a, P: Ports>(mut draft: Draft<'a>, ports: &P, tie: &Tie<'_>) -> (Draft<'a>, LlmStep) {
    draft.begin("llm");
    let llm = match tie.class.bucket {
        Bucket::LowConfidenceLlmEligible => llm_rung::run(&mut draft, ports, tie).await,
        _ => LlmStep::NotEligible,
    };
    draft.step(llm.name(), llm.detail());
    (draft, llm)
}

/// 9. Policy and fallback: turn what the LLM rung did into a safe
///    decision.
pub(crate) fn fallback(mut draft: Draft<'_>, llm: LlmStep, tie: &Tie<'_>, resolved: continuity::Resolution) -> Decided {
    draft.begin("fallback");
    draft.settle(llm, tie, resolved)
}
