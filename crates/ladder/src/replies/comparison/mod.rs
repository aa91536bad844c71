//! "The cheaper one", "the earliest": the one extreme of a value the options show (docs/replies.md).

use super::*;

/// The options a comparison or a detail answer chooses among: the
/// question's (in its order), else the screen's.
pub(super) fn considered(cx: &Context<'_, '_>) -> (Vec<usize>, By) {
    match cx.question() {
        Some((q, by)) if q.kind == QuestionKind::Choice => {
            let asked: Vec<usize> = q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect();
            if asked.len() > 1 { (asked, by) } else { (cx.options(), By::Screen) }
        }
        _ => (cx.options(), By::Screen),
    }
}

/// A comparison (`Reading::comparison`): the one extreme of a value the
/// options show, or those that tie on it asked again.
pub(super) fn compare(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let code = r.comparison?;
    Some(comparing(cx, r, code))
}

fn comparing(cx: &Context<'_, '_>, r: &Reading, code: i32) -> Answered {
    let (entries, by) = considered(cx);
    if entries.len() < 2 || r.asks || (by == By::Screen && entries.len() > SCREEN_READ) {
        return Answered::pass();
    }
    // Words some of them show narrow what is compared ("the new taylor
    // swift album": the albums, not the single).
    let narrowing: Vec<&String> = r.rest.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str())).collect();
    let narrowed: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|e| {
            let own = cx.words_of(*e);
            narrowing.iter().all(|w| own.contains(w))
        })
        .collect();
    let entries = if narrowed.len() >= 2 && narrowed.len() < entries.len() { narrowed } else { entries };
    let dim_name = COMPARED.get((code / 2) as usize).copied().unwrap_or("");
    let most = code % 2 == 1;
    let dims: &[Dim] = match dim_name {
        "price" => &[Dim::Price],
        "clock" => &[Dim::Clock, Dim::Year, Dim::Day],
        "duration" => &[Dim::Duration],
        "size" => &[Dim::Bytes, Dim::Length, Dim::Volume, Dim::Mass, Dim::Count],
        "year" => &[Dim::Year, Dim::Day],
        "count" => &[Dim::Count],
        // How far: a length ("0.4 km"), else the time to get there ("3
        // min away").
        "distance" => &[Dim::Length, Dim::Duration],
        _ => &[],
    };
    let shown: Vec<Vec<Value>> = entries.iter().map(|e| cx.values_of(*e)).collect();
    // The first dimension every option shows.
    let Some(dim) = dims.iter().copied().find(|d| shown.iter().all(|vals| vals.iter().any(|v| v.dim == *d))) else {
        return Answered::pass();
    };
    // Where every option shows one of it beside its label, that one is
    // compared: a number in a title ("1989 (Taylor's Version)", "Room
    // 101") is the title's.
    let beside: Vec<Vec<Value>> = entries.iter().map(|e| values(&cx.pool.entries[*e].cand.sublabel)).collect();
    let shown = if beside.iter().all(|vals| vals.iter().filter(|v| v.dim == dim).count() == 1) { beside } else { shown };
    // Words naming another option than the extreme make it unclear.
    match values::extreme(&shown, dim, most).or_else(|| extreme_in_every_place(&shown, dim, most)) {
        Some(k) => {
            let entry = entries[k];
            let others_named = r
                .rest
                .iter()
                .any(|w| !cx.words_of(entry).contains(w) && entries.iter().any(|o| *o != entry && cx.words_of(*o).contains(w)));
            if others_named {
                return Answered::pass();
            }
            // A comparison describes; a high-risk option is confirmed.
            if cx.high_risk(entry) {
                return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Comparison });
            }
            Answered::of(Answer::Execute { entry, kind: ReplyKind::Comparison, by })
        }
        // A tie is asked again, among those that hold it.
        None => {
            let tied: Vec<usize> = values::holding_extreme(&shown, dim, most).into_iter().map(|k| entries[k]).collect();
            let entries = if tied.len() >= 2 { tied } else { entries };
            Answered::of(Answer::Ask { entries, kind: ReplyKind::Comparison })
        }
    }
}

/// Where every option shows the same number of values of `dim` (a
/// departure and an arrival: "07:10 → 09:55"), the one option that is the
/// extreme in each place alike ("the earliest": it leaves first and
/// arrives first). Options that lead in one place and not another make it
/// unclear: `None`.
fn extreme_in_every_place(shown: &[Vec<Value>], dim: Dim, most: bool) -> Option<usize> {
    let of_dim: Vec<Vec<&Value>> = shown.iter().map(|vals| vals.iter().filter(|v| v.dim == dim).collect()).collect();
    let places = of_dim.first()?.len();
    if places < 2 || of_dim.iter().any(|v| v.len() != places) {
        return None;
    }
    let mut lead = None;
    for place in 0..places {
        let column: Vec<Vec<Value>> = of_dim.iter().map(|v| vec![v[place].clone()]).collect();
        let k = values::extreme(&column, dim, most)?;
        if lead.is_some_and(|l| l != k) {
            return None;
        }
        lead = Some(k);
    }
    lead
}

#[cfg(test)]
mod tests;
