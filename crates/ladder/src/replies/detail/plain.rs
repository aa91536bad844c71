//! "The original despacito", "the plain one": of options that are one
//! and the same with extras, the one without (docs/replies.md).

use super::*;

/// "The plain one" in a turn that says nothing a reply says: read before
/// a closing or a position could take the turn.
pub(in crate::replies) fn the_plain_one_asked(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.is_reply_shaped() { None } else { the_plain_one(cx, r) }
}

/// "The plain one" in a reply ("no, the original one"): read after the
/// refusals, abandons and comparisons it may hold.
pub(in crate::replies) fn the_plain_one_in_a_reply(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if r.is_reply_shaped() { the_plain_one(cx, r) } else { None }
}

/// "The original despacito": among the options (a short screen) that show
/// the reply's other words, the one whose label every other's holds and
/// adds to ("Despacito" beside "Despacito - Remix" and "Despacito
/// (Acoustic)").
fn the_plain_one(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    // The lexicon's `plain` words ("original", "regular", "die normale").
    let is_plain = |w: &str| cx.lex.plain.contains(w);
    let plain: Vec<&String> = r.rest.iter().filter(|w| is_plain(w)).collect();
    if plain.len() != 1 || r.asks || !r.values.is_empty() {
        return None;
    }
    let words: Vec<&String> = r.rest.iter().filter(|w| !is_plain(w) && !EMPTY_IN_ANSWERS.contains(&w.as_str())).collect();
    let options = cx.options();
    if options.len() > SCREEN_READ {
        return None;
    }
    let kin: Vec<usize> = options.into_iter().filter(|e| words.iter().all(|w| cx.words_of(*e).contains(w))).collect();
    if kin.len() < 2 {
        return None;
    }
    let label = |e: usize| cx.canon.label_words_of(e).map(str::to_string).collect::<Vec<String>>();
    let base: Vec<usize> = kin
        .iter()
        .copied()
        .filter(|b| {
            let mine = label(*b);
            kin.iter().filter(|o| *o != b).all(|o| {
                let theirs = label(*o);
                theirs.len() > mine.len() && mine.iter().all(|w| theirs.contains(w))
            })
        })
        .collect();
    let [entry] = base[..] else { return None };
    Some(Answered::of(if cx.high_risk(entry) {
        Answer::Confirm { entry, kind: ReplyKind::Detail }
    } else {
        Answer::Execute { entry, kind: ReplyKind::Detail, by: By::Screen }
    }))
}
