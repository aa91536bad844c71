//! "One more", "again": the execute just had, again (docs/replies.md).

use super::*;

/// "One more", "again": the execute just had, again, when it is on screen
/// and the reply names nothing else; with nothing had, "log another glass
/// of water" asks for the one option whose words it says.
/// "Do it again", "yes, one more": a repetition of the last execute,
/// whatever yes it says (`Reading::repeats`).
/// A word of repetition an option shows ("standard plus" over "Standard"
/// and "Standard Plus", "the encore set") is that option's word, not
/// "again": the ladder reads it.
pub(super) fn repeat(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    (r.repeats && !repetition_shown(cx, r)).then(|| repeating(cx, r))
}

/// Whether a phrase of repetition in the reply is words an option shows.
fn repetition_shown(cx: &Context<'_, '_>, r: &Reading) -> bool {
    let shown: Vec<Vec<String>> = cx.options().into_iter().map(|e| cx.words_of(e)).collect();
    r.clauses.iter().any(|c| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        (0..toks.len()).any(|i| {
            cx.lex.repetitions.match_at(&toks, i).is_some_and(|n| {
                let phrase = &toks[i..i + n];
                shown.iter().any(|own| own.windows(n).any(|w| w.iter().zip(phrase).all(|(a, b)| a == b)))
            })
        })
    })
}

fn repeating(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // Who it is for changes nothing of it ("one more for my sister"), nor
    // does the "and" it opens with, nor a sentence of its own that names
    // nothing on screen ("still can't hear it, more").
    let for_whom = beneficiaries(r);
    let again = |c: &reading::Clause| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        (0..toks.len()).any(|i| cx.lex.repetitions.match_at(&toks, i).is_some())
    };
    let aside: Vec<&String> = r.clauses.iter().filter(|c| !again(c) && !cx.names_something(&c.rest)).flat_map(|c| c.words.iter()).collect();
    let rest: Vec<&String> = r
        .rest
        .iter()
        .filter(|w| {
            !for_whom.contains(w)
                && !aside.contains(w)
                && !cx.lex.additive_openers.is_phrase(&[w.as_str()])
                && !cx.lex.conjunctions.is_phrase(&[w.as_str()])
        })
        .collect();
    let explained = |entry: usize| {
        let words = cx.words_of(entry);
        rest.iter().all(|w| words.contains(w) || cx.lex.generic_nouns.contains(w.as_str()) || EMPTY_IN_ANSWERS.contains(&w.as_str()))
    };
    let had = cx.state.last_execute().and_then(|had| cx.executed_entry(&had));
    let Some(entry) = had else {
        // Its whole label said ("log another glass of water": "Log water"),
        // and no word another option shows ("links plus report" names two).
        let whole = |e: usize| cx.canon.label_words_of(e).all(|w| rest.iter().any(|x| *x == w));
        let others = |e: usize| {
            let own = cx.words_of(e);
            cx.options().into_iter().any(|o| o != e && cx.words_of(o).iter().any(|w| !own.contains(w) && rest.contains(&w)))
        };
        let named: Vec<usize> = cx.options().into_iter().filter(|e| explained(*e) && whole(*e) && !others(*e)).collect();
        return match named[..] {
            [one] if !rest.is_empty() && r.values.is_empty() && !cx.high_risk(one) => {
                Answered::of(Answer::Execute { entry: one, kind: ReplyKind::Repeat, by: By::Screen })
            }
            _ => Answered::pass(),
        };
    };
    if !explained(entry) || !r.values.is_empty() {
        return Answered::pass();
    }
    if cx.high_risk(entry) {
        return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Repeat });
    }
    Answered::of(Answer::Execute { entry, kind: ReplyKind::Repeat, by: By::Ladder })
}

/// The words that say who a request is for: the noun after "for my",
/// "for his", ... ("for my sister"), or a name after "for".
pub(super) fn beneficiaries(r: &Reading) -> Vec<String> {
    let mut out = Vec::new();
    for c in &r.clauses {
        for w in c.words.windows(3) {
            if w[0] == "for" && matches!(w[1].as_str(), "my" | "his" | "her" | "our" | "their" | "your") {
                out.push(w[2].clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
