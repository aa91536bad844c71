//! "Not the pepperoni, the margherita": a clause that negates and one that names what is wanted (docs/replies.md).

use super::*;

/// A reply of clauses one of which negates and one names what is wanted
/// (a negation that also names the wanted option): the
/// wanted clause is read again without the options the negated clause
/// names; "the other" there is the one option left of two.
pub(in crate::replies) fn negated_then_wanted(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let negated: Vec<&reading::Clause> = r.clauses.iter().filter(|c| c.negated).collect();
    let wanted: Vec<&reading::Clause> = r.clauses.iter().filter(|c| !c.negated && (!c.rest.is_empty() || c.the_other)).collect();
    let (neg, want) = match (&negated[..], &wanted[..]) {
        ([neg], [want]) => (*neg, Some(*want)),
        // "Not the medium" alone, to "which one?" over two: the other.
        ([neg], []) if r.clauses.len() == 1 => (*neg, None),
        _ => return None,
    };
    if neg.rest.is_empty() || r.asks || r.abandons {
        return None;
    }
    // The options the negated clause names: each holds all its words (a
    // word, or a value it shows). The words and their values are read
    // once, an option's values only where its words fall short, and the
    // loop stops at the deadline (`option_entries`).
    let words: Vec<&String> =
        neg.rest.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str()) && !cx.lex.function_words.contains(*w)).collect();
    if words.is_empty() {
        return None;
    }
    let said: Vec<Vec<crate::values::Value>> = words.iter().map(|w| values(w)).collect();
    let named: Vec<usize> = cx
        .option_entries()
        .filter(|e| {
            let own = cx.words_of(*e);
            let mut shown: Option<Vec<crate::values::Value>> = None;
            words.iter().zip(&said).all(|(w, vs)| {
                own.contains(w)
                    || (!vs.is_empty() && {
                        let shown = shown.get_or_insert_with(|| cx.values_of(*e));
                        vs.iter().any(|v| shown.iter().any(|s| v.names(s)))
                    })
            })
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    let Some(want) = want else {
        // A negation an option's label says ("Don't Stop Me Now") may be
        // that label, no negation.
        let negates = |w: &String| cx.lex.negations.is_phrase(&[w.as_str()]);
        if cx.options().into_iter().any(|e| cx.words_of(e).iter().any(|w| negates(w) && neg.words.contains(w))) {
            return None;
        }
        return the_one_left(cx, &named);
    };
    if want.the_other && want.rest.is_empty() {
        let rest: Vec<usize> = cx.options().into_iter().filter(|e| !named.contains(e)).collect();
        return match rest[..] {
            [one] if cx.high_risk(one) => Some(Answered::of(Answer::Confirm { entry: one, kind: ReplyKind::Detail })),
            [one] => Some(Answered::of(Answer::Execute { entry: one, kind: ReplyKind::Detail, by: By::Screen })),
            _ => None,
        };
    }
    Some(Answered::of(Answer::Again { text: want.rest.join(" "), without: named, kind: ReplyKind::Detail }))
}

/// A negation alone ("not the medium") to a question that offered two
/// or more options the screen still shows: where it leaves exactly one
/// of them, that one, as "the other one" is (a `RISK_HIGH` one is
/// confirmed); else the ladder reads it (a negation offers the others).
fn the_one_left(cx: &Context<'_, '_>, named: &[usize]) -> Option<Answered> {
    let (q, by) = cx.question()?;
    let offered: Vec<usize> = q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect();
    if offered.len() < 2 || !named.iter().all(|e| offered.contains(e)) {
        return None;
    }
    let left: Vec<usize> = offered.into_iter().filter(|e| !named.contains(e)).collect();
    match left[..] {
        [one] if cx.high_risk(one) => Some(Answered::of(Answer::Confirm { entry: one, kind: ReplyKind::Detail })),
        [one] => Some(Answered::of(Answer::Execute { entry: one, kind: ReplyKind::Detail, by })),
        _ => None,
    }
}

/// Whether the reply says, without a negation before it, a word `entry`
/// shows after one ("no subtitles", "without ice", "non-smoking").
pub(in crate::replies) fn says_what_it_negates(cx: &Context<'_, '_>, entry: usize, r: &Reading) -> bool {
    let own = cx.words_of(entry);
    // "non" is the prefix of "non-smoking", no word of its own.
    let negates = |w: &str| cx.lex.negations.is_phrase(&[w]) || w == "non";
    let negated: Vec<&String> = own.windows(2).filter(|p| negates(&p[0])).map(|p| &p[1]).collect();
    !negated.is_empty()
        && r.clauses.iter().any(|c| c.words.iter().enumerate().any(|(i, w)| negated.contains(&w) && !(i > 0 && negates(&c.words[i - 1]))))
}
