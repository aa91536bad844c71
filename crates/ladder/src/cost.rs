//! Bounded work: what a request costs the matching rungs before they run
//! (`work`), and the caller's deadline, which their long loops check
//! (`DeadlineWatch`) so a call never outlives it by more than one slice of a
//! loop.

use crate::types::{Candidate, DecideRequest};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

/// The matching work a request asks for, in word comparisons: the words
/// of its input times the words of every candidate it could be matched
/// against (labels, sublabels, badges and aliases of the options, the
/// recoverable chat options, the widget items and the commands). The
/// rungs' cost grows with this product (each input word is looked up in,
/// or compared with, the pool's words), so a bound on it bounds a call's
/// CPU time whatever the shape (BENCHMARKS.md, "Hostile load", has the
/// costliest shapes under the default bound).
pub fn work(req: &DecideRequest) -> u64 {
    costs(req).work
}

/// What a request asks of the matching rungs, read in one pass over its
/// text: the `work` product, and the bytes of candidate text that is not
/// ASCII (what canonicalization folds at `BYTE_COST` a byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Costs {
    pub work: u64,
    pub non_ascii_bytes: u64,
}

/// `work` and the non-ASCII candidate text of `req`.
pub fn costs(req: &DecideRequest) -> Costs {
    costs_with(req, None)
}

/// `costs(req)`, with its options' part given when known (`ListCosts` of
/// the options' list, kept with an interned list: `PoolMemo::facts`).
pub fn costs_with(req: &DecideRequest, options: Option<ListCosts>) -> Costs {
    let input = scan(&req.input).0.max(1);
    let mut all = options.unwrap_or_else(|| list_costs(req.option_candidates()));
    for list in [&req.recoverable_chat_options, &req.widget_items, &req.commands] {
        let c = list_costs(list);
        all.words += c.words;
        all.non_ascii_bytes += c.non_ascii_bytes;
    }
    Costs { work: input.saturating_mul(all.words.max(1)), non_ascii_bytes: all.non_ascii_bytes }
}

/// A list's part of `Costs`: its candidates and their words (labels,
/// sublabels, badges, aliases), and their text that is not ASCII.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListCosts {
    pub words: u64,
    pub non_ascii_bytes: u64,
}

pub fn list_costs(list: &[Candidate]) -> ListCosts {
    let mut out = ListCosts::default();
    for c in list {
        out.words += 1;
        for s in [&c.label, &c.sublabel, &c.badge].into_iter().chain(&c.aliases) {
            let (w, n) = scan(s);
            out.words += w;
            out.non_ascii_bytes += n;
        }
    }
    out
}

/// The words of `s`, and its bytes when it is not ASCII.
fn scan(s: &str) -> (u64, u64) {
    match count_words(s.as_bytes()) {
        (n, true) => (n, 0),
        (n, false) => (n, s.len() as u64),
    }
}

/// `words(s).count()`, counted on the bytes (a word starts at a byte that
/// is not a space and begins the text or follows a space), and whether `s`
/// is ASCII. Eight bytes at a time, the last ones padded with spaces:
/// every label of every request is counted before the ladder runs, so
/// this loop is on every call's path, over every byte of its options.
fn count_words(s: &[u8]) -> (u64, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let (mut n, mut prev_space, mut high) = (0u64, 1u64, 0u64);
    let mut step = |x: u64| {
        high |= x;
        // The bytes equal to b' ': those that XOR to zero, found exactly
        // (no carry crosses a byte: the high bits are masked off first);
        // a 1 in the low bit of each.
        let y = x ^ (ONES * u64::from(b' '));
        let space = !(((y & LOW7) + LOW7) | y | LOW7) >> 7;
        // Bytes that are not spaces after one (the first byte's
        // predecessor: the last of the chunk before), summed into the top
        // byte (at most 8: no carry out).
        let starts = (space ^ ONES) & ((space << 8) | prev_space);
        n += starts.wrapping_mul(ONES) >> 56;
        prev_space = space >> 56;
    };
    let mut chunks = s.chunks_exact(8);
    for chunk in &mut chunks {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        step(u64::from_le_bytes(b));
    }
    // The last bytes, in registers (a copy into a buffer on the stack and
    // a load of it stalled): the last eight of a longer text shifted down,
    // or a short text byte by byte.
    let rest = chunks.remainder();
    let r = rest.len();
    if r > 0 {
        let spaces = (ONES * u64::from(b' ')) << (8 * r);
        let last = match s.last_chunk::<8>() {
            Some(b) => u64::from_le_bytes(*b) >> (8 * (8 - r)),
            None => rest.iter().rev().fold(0u64, |x, &b| (x << 8) | u64::from(b)),
        };
        step(last | spaces);
    }
    (n, high & (ONES << 7) == 0)
}

/// What a byte of text to canonicalize costs, in word comparisons: text
/// from the request (labels, slot values) is canonicalized (NFKC, case,
/// folding) before it is compared, about 90 ns a byte for accented text
/// against about 27 ns a word comparison (BENCHMARKS.md, "Hostile load").
/// `Extract` charges it against the work limit; a `Decide` with this much
/// text runs off the worker threads.
pub const BYTE_COST: u64 = 4;

/// The caller's deadline as the ladder's loops see it: `passed` reads the
/// clock only every `EVERY` calls (a loop step is a candidate or a word,
/// tens of nanoseconds), and once it has passed it stays passed.
#[derive(Debug, Default)]
pub struct DeadlineWatch {
    at: Option<Instant>,
    calls: AtomicU32,
    passed: AtomicBool,
}

const EVERY: u32 = 64;

impl DeadlineWatch {
    pub fn new(at: Option<Instant>) -> Self {
        DeadlineWatch { at, ..DeadlineWatch::default() }
    }

    /// A deadline that never passes (no caller waiting on one).
    pub const fn never() -> Self {
        DeadlineWatch { at: None, calls: AtomicU32::new(0), passed: AtomicBool::new(false) }
    }

    /// Whether the deadline has passed, reading the clock every `EVERY`
    /// calls: for the inner loops.
    pub fn passed(&self) -> bool {
        if self.passed.load(Ordering::Relaxed) {
            return true;
        }
        if self.at.is_none() || self.calls.fetch_add(1, Ordering::Relaxed) % EVERY != EVERY - 1 {
            return false;
        }
        self.passed_now()
    }

    /// Whether the deadline has passed, reading the clock now: between
    /// rungs and phases.
    pub fn passed_now(&self) -> bool {
        if self.passed.load(Ordering::Relaxed) {
            return true;
        }
        let passed = self.at.is_some_and(|at| Instant::now() >= at);
        self.passed.store(passed, Ordering::Relaxed);
        passed
    }
}

/// The ladder stopped because the caller's deadline passed: there is no
/// decision (the caller is gone) and nothing to apply to the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the deadline passed while the ladder ran")]
pub struct DeadlinePassed;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::words;
    use crate::types::{Candidate, OptionSet};
    use std::time::Duration;

    #[test]
    fn work_is_input_words_times_pool_words() {
        let mut r = DecideRequest { input: "open the links panel".into(), ..Default::default() };
        r.options = Some(OptionSet {
            candidates: vec![Candidate::new("a", "Links Panel D"), Candidate::new("b", "Sales")].into(),
            ..Default::default()
        });
        // (3 + 1) + (1 + 1) pool words, 4 input words.
        assert_eq!(work(&r), 4 * 6);
        r.input = String::new();
        assert_eq!(work(&r), 6, "an empty input still scans the pool once");
    }

    proptest::proptest! {
        /// The byte count of words is `words(s).count()`.
        #[test]
        fn eight_bytes_at_a_time_count_what_tokens_count(s in "( |a|~|é|\\x{7f}|\\x{a0}){0,70}") {
            proptest::prop_assert_eq!(count_words(s.as_bytes()), (words(&s).count() as u64, s.is_ascii()));
        }

        #[test]
        fn words_are_counted_as_tokens_are(input in "( |a|b|é){0,12}", label in "( |x|y|ü|  ){0,40}") {
            let r = DecideRequest {
                input: input.clone(),
                options: Some(OptionSet { candidates: vec![Candidate::new("a", label.clone())].into(), ..Default::default() }),
                ..Default::default()
            };
            let want = (words(&input).count() as u64).max(1) * (words(&label).count() as u64 + 1);
            proptest::prop_assert_eq!(work(&r), want);
            let non_ascii = if label.is_ascii() { 0 } else { label.len() as u64 };
            proptest::prop_assert_eq!(costs(&r).non_ascii_bytes, non_ascii);
        }
    }

    #[test]
    fn a_deadline_in_the_past_is_seen_within_one_slice_and_stays_passed() {
        let d = DeadlineWatch::new(Some(Instant::now() - Duration::from_millis(1)));
        let first = (0..EVERY).position(|_| d.passed());
        assert_eq!(first, Some(EVERY as usize - 1));
        assert!(d.passed() && d.passed_now());
        let none = DeadlineWatch::new(None);
        assert!((0..10 * EVERY).all(|_| !none.passed()) && !none.passed_now());
        let later = DeadlineWatch::new(Some(Instant::now() + Duration::from_secs(3600)));
        assert!((0..10 * EVERY).all(|_| !later.passed()));
    }
}
