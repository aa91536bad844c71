//! A yes with more (`Decision.follow_up`, docs/replies.md): a reply that
//! says yes to the option proposed in a sentence of its own, then asks a
//! question ("Yes, what's their address?") or makes a request of its own
//! ("Sounds good. Can you also book a cab there?"), executes the option
//! and hands the rest back: the app answers the question, or sends the
//! request to `Decide` as the user's next turn. Half a turn is never
//! dropped.
//!
//! What follows never takes the yes back: a refusal, a correction, an
//! abandon, a request for other options or for more ("what about my
//! savings?", "anything else?"), or a value that differs from what the
//! option shows would, and such a reply is read as before. After a yes
//! that only acknowledges ("ok", "alright"), a new search does too ("Okay,
//! could you look in Walnut Creek?"). A `RISK_HIGH` option is never
//! executed on a yes that asks about it: the question is handed back and
//! the confirmation stays pending; nor on an acknowledgement alone ("ok,
//! noted") before a request or a question of the user's, which is a turn
//! of its own, as it is after an offer. Tests: `follow_up/tests.rs`.

use crate::lexicon::PhraseSet;
use crate::replies::reading::{Clause, Reading};
use crate::replies::{Answer, Answered, By, Context, ReplyKind, explains};
use crate::types::{EscapeReason, FollowUp, FollowUpKind};
use crate::values::{is_number_word, values};

/// What a reply says after its yes to the option proposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AfterYes {
    /// No yes in clauses of its own before something else: read as before.
    NoStandingYes,
    /// The yes, and nothing after it but more yeses.
    Nothing,
    /// The yes stands; the clauses from `from` on are the user's next
    /// turn, of this kind; `of_the_option`: a question about the option
    /// (not only of the user's own things).
    Then { from: usize, kind: FollowUpKind, of_the_option: bool },
    /// What follows takes the yes back.
    TakenBack,
    /// An acknowledgement of an offer, then a request or a question of
    /// the user's: no yes, the rest a turn of its own (docs/replies.md).
    NewTurn { question: bool },
}

fn has(c: &Clause, set: &PhraseSet) -> bool {
    let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
    (0..toks.len()).any(|i| set.match_at(&toks, i).is_some())
}

/// Whether the clause's yes is only an acknowledgement ("ok", "alright").
fn only_acknowledges(c: &Clause, cx: &Context<'_, '_>) -> bool {
    let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
    let mut any = false;
    let mut i = 0;
    while i < toks.len() {
        match cx.lex.affirmations.match_at(&toks, i) {
            Some(n) => {
                if !cx.lex.acknowledgements.is_phrase(&toks[i..i + n]) {
                    return false;
                }
                any = true;
                i += n;
            }
            None => i += 1,
        }
    }
    any
}

/// Whether `proposed` was offered, not asked to be confirmed: an item
/// shown alone or the app's "which one?" of one, never ladderd's question,
/// the app's `ASKED_CONFIRMATION` or an action shown alone ("Reserve
/// restaurant: Bergerac": "shall I?").
pub(super) fn is_an_offer(cx: &Context<'_, '_>, proposed: (usize, By, bool)) -> bool {
    let (entry, by, confirmed) = proposed;
    by != By::Ladder && !confirmed && !is_an_action(cx, entry)
}

/// Whether a clause says a verb outside its yes phrases ("fine, book
/// it", "ok, get it"): the next step on the option, not an
/// acknowledgement alone.
fn acts(cx: &Context<'_, '_>, c: &Clause) -> bool {
    let lex = cx.lex;
    let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
    let verb = |w: &str| {
        let w = [w];
        lex.everyday_verbs.is_phrase(&w) || lex.selection_verbs.is_phrase(&w) || lex.actions.contains(w[0])
    };
    let mut i = 0;
    while i < toks.len() {
        match lex.affirmations.match_at(&toks, i) {
            Some(n) => i += n,
            None if verb(toks[i]) => return true,
            None => i += 1,
        }
    }
    false
}

/// What the reply says after its yes to `entry` (the module's doc);
/// `offer`: the option was offered, not asked to be confirmed
/// ([`is_an_offer`]).
pub(super) fn after_the_yes(cx: &Context<'_, '_>, r: &Reading, entry: usize, offer: bool) -> AfterYes {
    let lex = cx.lex;
    // The yes: the clauses that open the reply, each a yes or the option's
    // own words ("Yes, two tickets." to two tickets), saying nothing
    // against itself; one of them says yes.
    let shown = cx.values_of(entry);
    let raw = cx.req.input.as_str();
    let text_of = |i: usize| &raw[r.clauses[i].start..r.clauses.get(i + 1).map_or(raw.len(), |n| n.start)];
    let stands = |i: usize| {
        let c = &r.clauses[i];
        let said = values(text_of(i));
        // A value the option shows is its own, however it is said ("two
        // tickets" to 2 tickets).
        // So is the noun a count of it says ("two people" to "Table for 2").
        let words: Vec<String> = if said.is_empty() {
            c.rest.clone()
        } else {
            c.rest.iter().filter(|w| !is_number_word(w) && !crate::values::counts_the_word(&said, w)).cloned().collect()
        };
        !c.asks
            && !has(c, &lex.negations)
            && !has(c, &lex.corrections)
            && explains(cx, entry, &words)
            && said.iter().all(|v| v.said_of(&shown))
    };
    let k = (0..r.clauses.len()).take_while(|i| stands(*i)).count();
    // "Thanks. I need a cab there.": a closing that opens the reply
    // acknowledges what was proposed, as "ok" does.
    let thanked = r.closes_first && !r.affirms;
    if !(thanked || r.clauses[..k].iter().any(|c| c.affirms)) || r.repeats {
        return AfterYes::NoStandingYes;
    }
    if k == r.clauses.len() {
        return AfterYes::Nothing;
    }
    // A detail said after the yes ("yes, for 3 people", "ok, at 7") is
    // part of it, not a turn of its own: what it changes is read as before.
    let detail_only = |i: usize| {
        let c = &r.clauses[i];
        let verb = |w: &String| {
            let w = [w.as_str()];
            lex.everyday_verbs.is_phrase(&w) || lex.selection_verbs.is_phrase(&w) || lex.actions.contains(w[0]) || lex.openers.is_phrase(&w)
        };
        !c.asks && !values(text_of(i)).is_empty() && c.rest.iter().filter(|w| !is_number_word(w)).count() <= 2 && !c.words.iter().any(verb)
    };
    if (k..r.clauses.len()).any(detail_only) {
        return AfterYes::NoStandingYes;
    }
    let later = &r.clauses[k..];
    let acknowledges = thanked || r.clauses[..k].iter().filter(|c| c.affirms).all(|c| only_acknowledges(c, cx));
    let rest = &raw[later[0].start..];
    let takes_back = |c: &Clause| {
        c.the_other
            || [&lex.negations, &lex.corrections, &lex.refusals, &lex.abandons, &lex.alternatives, &lex.asks_for_others]
                .iter()
                .any(|set| has(c, set))
            || (acknowledges && has(c, &lex.searches))
    };
    if later.iter().any(takes_back) || values(rest).iter().any(|v| v.conflicts(&shown)) {
        return AfterYes::TakenBack;
    }
    // After an offer, an acknowledgement alone ("ok", "great", "I see":
    // no yes that accepts, no word of the option) is no yes when a request
    // or a question of any kind follows: "great, could you also
    // check flights?" chooses no hotel. A closing after it ("ok, that's
    // all, thanks"), a later yes that accepts ("ok. it works for me") and
    // a clause that names the option ("great, book two rooms at the
    // Marina") leave it as it was.
    // "Okay thanks. I'd like a cab there.": an acknowledgement that
    // opens a closing is one as "ok" alone is.
    let thanked_only = thanked && {
        let closing = crate::text::fold(&crate::text::normalize(&raw[..r.clauses[0].start])).into_owned();
        let toks: Vec<&str> = closing.split(' ').filter(|t| !t.is_empty()).collect();
        !(0..toks.len()).any(|i| lex.acknowledgements.match_at(&toks, i).is_some())
    };
    let only_an_acknowledgement = !thanked_only && acknowledges && r.clauses[..k].iter().all(|c| c.rest.is_empty() && !acts(cx, c));
    let closes = |c: &Clause| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        crate::replies::reading::only_closings(&toks, lex) || (c.rest.is_empty() && !c.asks)
    };
    let label: Vec<&str> =
        cx.canon.label_words_of(entry).filter(|w| !lex.generic_nouns.contains(*w) && !lex.function_words.contains(*w)).collect();
    let names_it = |c: &Clause| c.rest.iter().any(|w| label.contains(&w.as_str()));
    let accepts_later = later.iter().any(|c| c.affirms && !only_acknowledges(c, cx));
    // To a `RISK_HIGH` option, a confirmation too: "ok, noted. check my
    // bill" to "Upgrade to Fiber 500?" takes in what was said and asks
    // for something else; it pays for nothing.
    let offer = offer || cx.high_risk(entry);
    if offer && only_an_acknowledgement && !accepts_later && !later.iter().all(closes) && !later.iter().any(names_it) {
        return AfterYes::NewTurn { question: later.iter().any(|c| asks(cx, c)) };
    }
    // To anything proposed, a confirmation too, an acknowledgement alone
    // then a question about something more ("ok cool. do u guys also do
    // tyre rotation?", "got it. do you have this laptop in silver?") asks
    // before it accepts: that question.
    let about_more =
        |c: &Clause| asks(cx, c) && (c.words.iter().any(|w| ALSO.contains(&w.as_str())) || has(c, &lex.asks_for_stock)) && !names_it(c);
    if only_an_acknowledgement && !accepts_later && later.iter().any(about_more) {
        return AfterYes::NewTurn { question: true };
    }
    // A later sentence that only says yes again ("Yep. That's what I
    // need.") is part of the yes.
    let Some(from) = (k..r.clauses.len()).find(|i| !stands(*i)) else { return AfterYes::Nothing };
    let asks = |c: &Clause| asks(cx, c);
    let kind = if r.clauses[from..].iter().any(asks) { FollowUpKind::Question } else { FollowUpKind::Request };
    // Saying the option's whole name with the yes chooses it ("Captain
    // Marvel sounds good. What time is it showing?").
    let said: Vec<&String> = r.clauses[..k].iter().flat_map(|c| &c.rest).collect();
    let named = !said.is_empty() && cx.canon.label_words_of(entry).all(|w| said.iter().any(|s| *s == w));
    // So does an acceptance in so many words ("that sounds good", "that
    // works for me"), not a word of reaction ("great", "sure") nor a
    // liking of the user's own ("I love folk art"); but no yes chooses an
    // item by asking for its facts ("... what's their phone number?").
    let accepts = r.clauses[..k].iter().any(|c| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        (0..toks.len())
            .any(|i| lex.affirmations.match_at(&toks, i).is_some_and(|n| n >= 2) && lex.first_person.match_at(&toks, i).is_none())
    });
    let asks_facts = r.clauses[k..].iter().any(|c| has(c, &lex.asks_for_facts));
    let named = named || (accepts && !asks_facts);
    let of_the_option = !named && r.clauses[from..].iter().any(|c| asks(c) && !of_own_things(cx, c));
    AfterYes::Then { from, kind, of_the_option }
}

/// Words by which a question is about something more than what was
/// proposed ("do you also do ...?", "... that too?").
const ALSO: &[&str] = &["also", "too", "aussi", "auch", "tambien", "ook", "anche", "tambem"];

/// Whether a clause asks a question (of the option or of the user's
/// own things), not to have something done.
fn asks(cx: &Context<'_, '_>, c: &Clause) -> bool {
    let lex = cx.lex;
    ((c.asks || has(c, &lex.asks_about) || asks_yes_or_no(cx, c) || asks_indirectly(c)) && !asks_to_do(cx, c))
        || has(c, &lex.asks_for_facts)
}

/// A choice that also asks (docs/replies.md): a first clause of
/// its own that accounts for one listed option (a position, or words and
/// values only it shows, in any form: "the blue one", "option 2", "green",
/// "wednesday at 11" for "Wed 11:00"), then a
/// question or a request ("- is it machine washable?", "and can you
/// gift-wrap it?"). It works as a yes does: the option executes and the
/// rest is handed back (`follow_up`). Listed: the options asked about
/// ("which one?", the app's or ladderd's), else a short plain screen.
/// Never on a negation, a refusal, a correction, a comparison, a yes (the
/// affirm room's), a word no listed option shows, two options named, or a
/// value that differs; a `RISK_HIGH` option is not executed: asked
/// about, the question is handed back (`question_intent`); with a request,
/// it is confirmed first. `by_position`: whether the choice read is a
/// position (the position room's row) or words (the detail room's).
pub(in crate::replies) fn a_choice_then_more(cx: &Context<'_, '_>, r: &Reading, by_position: bool) -> Option<Answered> {
    use crate::replies::{EMPTY_IN_ANSWERS, SCREEN_READ, THE_ONE, common_label_words, place, position_said};
    // A first clause that says a listed option's whole label, its own
    // "no" with it ("No extra bags, and email me the boarding pass"), is
    // that choice, never a refusal or a negation.
    let raw = cx.req.input.as_str();
    // Read only where the reply refuses (it says "no"), on what a short
    // screen or a question lists.
    let whole: Option<usize> = (r.refuses && r.clauses.len() >= 2 && (cx.question().is_some() || cx.pool.len() <= SCREEN_READ))
        .then(|| {
            let first = crate::canon::canonicalize(&raw[r.clauses[0].start..r.clauses[1].start], cx.lex);
            let first: Vec<&str> = first.split(' ').filter(|w| !w.is_empty()).collect();
            let mut saying =
                cx.options().into_iter().filter(|e| !first.is_empty() && cx.canon.label_words_of(*e).eq(first.iter().copied()));
            match (saying.next(), saying.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        })
        .flatten();
    let said_whole = whole.is_some();
    // "But" that opens the question ("the ridotto, but do I need an
    // ID?") corrects nothing of the choice; anywhere else ("do you have
    // it in green though?") it does.
    let opens_a_question = |c: &Clause| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        cx.lex.corrections.match_at(&toks, 0).is_some_and(|n| !(n..toks.len()).any(|i| cx.lex.corrections.match_at(&toks, i).is_some()))
            && asks(cx, c)
            && !c.negated
            && !has(c, &cx.lex.negations)
    };
    let corrects = r.corrects && !r.clauses.iter().all(|c| !has(c, &cx.lex.corrections) || opens_a_question(c));
    if r.clauses.len() < 2 || (r.refuses && !said_whole) || r.abandons || r.alternatives || corrects || r.repeats {
        return None;
    }
    // "ok the navy one then. do you have it in L?": an acknowledgement
    // before the choice, with nothing proposed, says yes to nothing.
    // A yes word inside the question ("does that one have a buffet?",
    // "serve un documento?") says yes to nothing.
    let mut yeses = r.clauses.iter().filter(|c| c.affirms && !c.asks).peekable();
    if yeses.peek().is_some() && !(yeses.all(|c| only_acknowledges(c, cx)) && super::proposal(cx).is_none()) {
        return None;
    }
    if r.not_that || r.the_other || r.comparison.is_some() || r.closes {
        return None;
    }
    let lex = cx.lex;
    // A clause that says something is too much ("..., the ICE is too
    // expensive") judges an option: the ladder reads it
    // (`matching::aside::judged_too_much`).
    if r.clauses.iter().skip(1).any(|c| c.words.windows(2).any(|w| lex.excess.contains(w[0].as_str()))) {
        return None;
    }
    // Acknowledgements in sentences of their own before the choice ("OK,
    // the van then - can I return it at the airport?") are skipped, with
    // nothing proposed (above).
    let k = r.clauses.iter().take_while(|c| c.affirms && c.rest.is_empty() && only_acknowledges(c, cx)).count();
    if r.clauses.len() < k + 2 {
        return None;
    }
    let first = &r.clauses[k];
    // A function word of one language that a listed option's label says
    // is that option's word ("the van" with "Van · Ford Transit": Dutch
    // "van" is "of").
    let label_word = |w: &String| cx.options().into_iter().any(|e| cx.canon.label_words_of(e).any(|l| l == w.as_str()));
    let shown_function_words: Vec<&String> = first.words.iter().filter(|w| lex.function_words.contains(*w) && label_word(w)).collect();
    if first.asks
        || (first.negated && !said_whole)
        || (first.rest.is_empty() && shown_function_words.is_empty())
        || (has(first, &lex.negations) && !said_whole)
        || asks(cx, first)
    {
        return None;
    }
    let (listed, by): (Vec<usize>, By) = match cx.question() {
        Some((q, _)) if q.kind == crate::question::QuestionKind::Confirmation => return None,
        Some((q, by)) => (q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect(), by),
        None => {
            let options = cx.options();
            if options.len() > SCREEN_READ {
                return None;
            }
            (options, By::Screen)
        }
    };
    if listed.len() < 2 {
        return None;
    }
    let choice = &raw[first.start..r.clauses[k + 1].start];
    let canonical = crate::canon::canonicalize(choice, lex);
    // A word an option shows is that option's, not a position's ("the
    // riverside one" over a sublabel "riverside").
    let position = position_said(cx, &canonical).filter(|said| {
        !said.words.iter().any(|w| !w.chars().all(|c| c.is_ascii_digit()) && listed.iter().any(|e| cx.words_of(*e).contains(w)))
    });
    if position.is_some() != by_position {
        return None;
    }
    let entry = match &position {
        // A plain position, counted as the options were listed; a number
        // that is a value ("+2", "$40") is none.
        Some(said) => {
            let digits = crate::matching::value_digits(choice);
            if said.words.iter().any(|w| digits.contains(&w.as_str())) {
                return None;
            }
            listed[place(said.n, listed.len())?]
        }
        // The whole label, said first (above).
        None if whole.is_some_and(|e| k == 0 && listed.contains(&e)) => whole?,
        // Words: every one a word of the option (or one that says only
        // "one", "the", the list's own noun), one of them its own.
        None => {
            let common = common_label_words(cx);
            let words: Vec<&String> = first
                .rest
                .iter()
                .filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str()) && !THE_ONE.contains(&w.as_str()) && !lex.function_words.contains(*w))
                .chain(shown_function_words.iter().copied())
                .collect();
            if words.is_empty() {
                return None;
            }
            // A noun of the kind the screen lists is its own where it is
            // the option's whole label ("delivery, how long will it
            // take?" over "Delivery" and "Pickup").
            let whole = |e: usize| {
                let mut label = cx.canon.label_words_of(e).filter(|l| !lex.function_words.contains(*l)).peekable();
                label.peek().is_some() && label.all(|l| words.iter().any(|w| w.as_str() == l))
            };
            // A value the option shows, said in another form ("wednesday
            // at 11" for "Wed 11:00"): its words are that option's.
            let said_values = crate::values::values_at(choice);
            let value_words: Vec<String> = said_values
                .iter()
                .flat_map(|(_, r)| crate::canon::canonicalize(&choice[r.clone()], lex).split(' ').map(str::to_string).collect::<Vec<_>>())
                .collect();
            let values_fit = |e: usize| {
                let shown = cx.values_of(e);
                !said_values.is_empty() && said_values.iter().all(|(v, _)| shown.iter().any(|s| v.names(s)))
            };
            let holds = |e: usize| {
                let own = cx.words_of(e);
                let fit = values_fit(e);
                words
                    .iter()
                    .all(|w| own.contains(w) || common.contains(w) || lex.generic_nouns.contains(*w) || (fit && value_words.contains(w)))
                    && (words.iter().any(|w| own.contains(w) && !common.contains(w) && !lex.generic_nouns.contains(*w)) || whole(e) || fit)
            };
            let named: Vec<usize> = listed.iter().copied().filter(|e| holds(*e)).collect();
            match named[..] {
                [one] => one,
                // A choice that two listed options fit, then a question
                // ("the salmon, is it spicy?" over "Grilled salmon" and
                // "Salmon poke bowl"): which one is asked first, among
                // those. Not where what follows tells them apart ("and a
                // coke, not diet").
                [_, _, ..] if r.clauses[k + 1..].iter().all(|c| asks(cx, c) && !c.negated) => {
                    let room = if by_position { ReplyKind::Position } else { ReplyKind::Detail };
                    return Some(Answered::of(Answer::Ask { entries: named, kind: room }));
                }
                _ => return None,
            }
        }
    };
    // Nothing in the reply names another listed option ("red, blue",
    // "pick c. also pick b."): two named are asked, never one executed.
    let own = cx.words_of(entry);
    let common = common_label_words(cx);
    // A generic noun counts too when another option's label says it
    // ("pick links. also pick report.").
    let another = |w: &String| {
        !own.contains(w)
            && !common.contains(w)
            && !lex.function_words.contains(w)
            && !lex.filler.is_phrase(&[w.as_str()])
            && listed.iter().any(|e| *e != entry && cx.words_of(*e).contains(w))
    };
    if r.clauses.iter().any(|c| c.words.iter().any(another)) {
        return None;
    }
    // A value the choice says that the option does not show changes it
    // (a position's number is its place).
    let shown = cx.values_of(entry);
    if position.is_none() && values(choice).iter().any(|v| !v.said_of(&shown)) {
        return None;
    }
    // A quantity names the option of its noun, never a bundle that says
    // more ("1 adult, thanks" is not "Group (1 adult + 1 senior)").
    if crate::values::says_less(&values(choice), &shown) {
        return None;
    }
    // Nor does what follows change what it shows ("the blue one - can you
    // make it for Friday?" where it shows Thursday).
    if values(&raw[r.clauses[k + 1].start..]).iter().any(|v| v.conflicts(&shown)) {
        return None;
    }
    let rest =
        raw[r.clauses[k + 1].start..].trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '—' | ',' | '.' | ';'));
    let question = r.clauses[k + 1..].iter().any(|c| asks(cx, c));
    let kind = if question { FollowUpKind::Question } else { FollowUpKind::Request };
    let room = if by_position { ReplyKind::Position } else { ReplyKind::Detail };
    if cx.high_risk(entry) {
        return Some(Answered::of(if kind == FollowUpKind::Question {
            Answer::Escape { reason: EscapeReason::QuestionIntent, kind: room }
        } else {
            Answer::Confirm { entry, kind: room }
        }));
    }
    // A remark after the choice ("first class, work is paying") asks
    // nothing of the app: no follow-up.
    let remark = !question
        && cx.pool.len() <= crate::matching::aside::SCREEN_READ
        && crate::matching::aside::remarks_only(rest, cx.pool, cx.canon, lex, cx.stop);
    let follow_up = (!remark).then(|| FollowUp { kind, text: rest.trim().to_string() });
    Some(Answered { answer: Answer::Execute { entry, kind: room, by }, rejected: None, follow_up })
}

/// The one option on screen whose whole label the reply's opening yes
/// says ("Little sounds good."), when it says one.
pub(super) fn named_in_the_yes(cx: &Context<'_, '_>, r: &Reading) -> Option<usize> {
    let first = r.clauses.first().filter(|c| c.affirms && !c.rest.is_empty())?;
    let mut named = cx.option_entries().filter(|e| {
        let label: Vec<&str> = cx.canon.label_words_of(*e).collect();
        !label.is_empty() && label.iter().all(|w| first.rest.iter().any(|s| s == w)) && explains(cx, *e, &first.rest)
    });
    match (named.next(), named.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// Whether a clause asks to have something done, in a question's words
/// ("Can I book a visit?", "could you book me a cab there?"): a
/// request, not a question, unless it asks what, when, where...
fn asks_to_do(cx: &Context<'_, '_>, c: &Clause) -> bool {
    let words = opening(cx, c);
    let toks: Vec<&str> = words.iter().map(String::as_str).collect();
    // "Can I get ...", "could you add ...": the lexicon's openers of a
    // request; "can I bring my own snacks?" asks leave, "can it sync?" a
    // fact.
    let opens = cx.lex.openers.match_at(&toks, 0).is_some();
    opens && !asks_indirectly(c) && !toks.iter().any(|t| super::reading::WH.contains(t))
}

/// A clause's words from its first that is no word of going on ("and
/// can you add assembly?", "then can it sync with my watch?": the
/// question or the request opens after "and", "then").
fn opening<'c>(cx: &Context<'_, '_>, c: &'c Clause) -> &'c [String] {
    let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
    let mut i = 0;
    while let Some(n) = cx.lex.additive_openers.match_at(&toks, i).or_else(|| cx.lex.conjunctions.match_at(&toks, i)) {
        i += n;
    }
    &c.words[i.min(c.words.len())..]
}

/// "Can you tell me if they serve liquor?", "find out whether it is
/// furnished", "I'd like to know the name of it": a question asked as a
/// request.
fn asks_indirectly(c: &Clause) -> bool {
    let w = |i: usize| c.words.get(i).map_or("", String::as_str);
    let asking = |i: usize| matches!(w(i), "check" | "know" | "ask" | "out" | "me") && matches!(w(i + 1), "if" | "whether");
    (0..c.words.len()).any(|i| asking(i) || (w(i) == "tell" && w(i + 1) == "me") || (w(i) == "to" && w(i + 1) == "know"))
}

/// Whether a clause is a yes-or-no question without its question mark
/// ("Are pets allowed.", "Do they have parking").
fn asks_yes_or_no(cx: &Context<'_, '_>, c: &Clause) -> bool {
    let words = opening(cx, c);
    words
        .first()
        .is_some_and(|w| matches!(w.as_str(), "is" | "are" | "do" | "does" | "did" | "will" | "would" | "can" | "could" | "has" | "have"))
        && words.get(1).is_some_and(|w| !matches!(w.as_str(), "you" | "u"))
}

/// Whether a clause asks only of the user's own things ("when am I free
/// that day?", "tell me what time I am available"), not of the option:
/// it speaks of the user, of no third party, and asks no fact of one.
fn of_own_things(cx: &Context<'_, '_>, c: &Clause) -> bool {
    let lex = cx.lex;
    let own = |w: &str| {
        PHRASING.contains(&w) || [&lex.asks_about, &lex.first_person, &lex.own_things, &lex.openers].iter().any(|set| set.is_phrase(&[w]))
    };
    has(c, &lex.first_person) && !has(c, &lex.third_person) && !has(c, &lex.asks_for_facts) && c.rest.iter().all(|w| own(w))
}

/// Words a question of the user's own things is phrased in ("can you
/// tell me when I am free", "check whether I have time").
const PHRASING: &[&str] = &[
    "tell",
    "know",
    "let",
    "check",
    "see",
    "show",
    "find",
    "out",
    "look",
    "can",
    "could",
    "would",
    "will",
    "please",
    "is",
    "are",
    "am",
    "do",
    "does",
    "did",
    "whether",
    "if",
    "have",
    "got",
    "going",
    "there",
    "anything",
    "something",
    "else",
    "time",
    "up",
    "whats",
    "whens",
    "hows",
    "whos",
    "wheres",
    "like",
];

/// Whether the option is an action ("Reserve restaurant: Bergerac", "Buy
/// 2 tickets"): its label opens with a verb. Shown alone, an action is
/// proposed ("shall I?"); an item alone ("Bergerac, 2 pm") is offered.
fn is_an_action(cx: &Context<'_, '_>, entry: usize) -> bool {
    let lex = cx.lex;
    cx.canon.label_words_of(entry).next().is_some_and(|w| lex.actions.contains(w) || lex.selection_verbs.is_phrase(&[w]))
}

/// The answer to a yes to `entry` that stands before a follow-up: the
/// execute with the rest handed back, or, for a high-risk option asked
/// about, the question handed back first.
pub(super) fn answer(
    cx: &Context<'_, '_>,
    r: &Reading,
    proposed: (usize, By, bool),
    from: usize,
    kind: FollowUpKind,
    of_the_option: bool,
) -> Answered {
    let (entry, by, confirmed) = proposed;
    let raw = cx.req.input.as_str();
    let (yes, rest) = raw.split_at(r.clauses[from].start);
    // A high-risk option is not executed on a yes that asks about it; an
    // item offered alone ("Blueface, March 12th") is not chosen by "great,
    // what time does it start?": the interest is no choice yet. Either
    // way the question is handed back, and what was asked stays.
    let offered = by == By::Screen || (by == By::App && !confirmed);
    if kind == FollowUpKind::Question && (cx.high_risk(entry) || (of_the_option && offered && !is_an_action(cx, entry))) {
        return Answered::of(Answer::Escape { reason: EscapeReason::QuestionIntent, kind: ReplyKind::Affirm });
    }
    // The yes itself changes nothing the option shows ("yes, for 3
    // people. ..." is asked).
    let shown = cx.values_of(entry);
    if values(yes).iter().any(|v| !v.said_of(&shown)) {
        return Answered::of(Answer::Ask { entries: vec![entry], kind: ReplyKind::Affirm });
    }
    if crate::replies::says_what_it_negates(cx, entry, r) {
        return Answered::pass();
    }
    if cx.high_risk(entry) && !confirmed {
        return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Affirm });
    }
    let follow_up = FollowUp { kind, text: rest.trim().to_string() };
    Answered { answer: Answer::Execute { entry, kind: ReplyKind::Affirm, by }, rejected: None, follow_up: Some(follow_up) }
}

#[cfg(test)]
mod tests;
