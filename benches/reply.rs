//! What reading a reply costs a Decide (the goal: under 5 us added to a
//! Decide at 100 candidates).
//!
//! `cargo bench --bench reply`; pinned, as BENCHMARKS.md runs criterion:
//! `taskset -c 1 target/release/deps/reply-* --bench`.
//!
//! The pool: `ladderd_load::samples::pool(100)` (the pool `ladderd-load`
//! and `benches/ladder.rs` use) with a price on every candidate's sublabel,
//! so a comparison ("the cheaper one") has values to compare. The session:
//! "links panel" decided on it, a clarifier asking which of Links Panel D
//! and E (ladderd's own "which one?", kept in `ContinuityState::question`).
//! Then each reply turn, the whole `ladder::decide::decide` (embedded
//! default policy, LLM off, the pool's canonical index from the memo as for
//! a pool sent again), in group `reply`:
//!
//! - `reply/asked/<input>`: the session with the question pending;
//! - `reply/unasked/<input>`: the same session with the question cleared
//!   (nothing else changed): the difference is what a pending question
//!   changes, the reply rung's answer less the rungs it then skips (the
//!   rung itself runs on every turn, so this does not isolate it);
//! - `reply/new_session/<input>`: the same pool and input in a session of
//!   its own (no state at all);
//! - `reply/rung/<input>`: the rung alone, as `decide` runs it:
//!   `replies::reading::read` and `replies::answer` against the question;
//! - `reply/rung_unasked/<input>`: the same against the session with the
//!   question cleared (the rung runs on every turn; with nothing asked it
//!   passes);
//! - `reply/reading/<input>`: `replies::reading::read` alone, which every
//!   Decide runs, question or not.
//!
//! The inputs: "the second one" (a position in the question's order),
//! "yes" (an affirmation with two options offered), "the cheaper one" (a
//! comparison over the prices the two offered options show), "Sounds good.
//! When am I free that day?" (a question after a yes, read as a reply
//! first; with two options offered the yes picks neither and it escapes),
//! and "Links Panel D" (no reply: a request, the load
//! tool's `exact`). Each case's decision is printed once at start.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use futures::executor::block_on;
use ladder::continuity::{ContinuityState, Now, StateView, Ttl, Update};
use ladder::decide::{Mode, decide};
use ladder::intern::PoolMemo;
use ladder::policy::Policy;
use ladder::replies;
use ladder::scope::{self, Resolved};
use ladder::types::{Candidate, DecideRequest, OptionSet, Scope, ScopeRef};
use std::hint::black_box;
use std::time::Duration;
use support::{NoPorts, ctx};

#[path = "support/mod.rs"]
mod support;

// The daemon's allocator (src/main.rs), so the figures are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const POOL: usize = 100;

/// The question: "links panel" ties Links Panel D and Links Panel E.
const ASKING: &str = "links panel";

/// (name, reply).
const REPLIES: &[(&str, &str)] = &[
    ("second", "the second one"),
    ("yes", "yes"),
    ("cheaper", "the cheaper one"),
    ("yes_then_question", "Sounds good. When am I free that day?"),
    ("request", "Links Panel D"),
];

/// `samples::pool(100)`, each candidate with a price of its own.
fn pool() -> Vec<Candidate> {
    ladderd_load::samples::pool(POOL)
        .into_iter()
        .enumerate()
        .map(|(i, c)| Candidate { sublabel: format!("${}.99", 5 + (i * 7) % 40), ..Candidate::from(c) })
        .collect()
}

fn request(turn: &str, input: &str, candidates: Vec<Candidate>) -> DecideRequest {
    DecideRequest {
        session_id: "bench".into(),
        turn_id: turn.into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
        options: Some(OptionSet { option_set_id: "set-1".into(), scope: Scope::Chat, candidates: candidates.into(), ..Default::default() }),
        ..Default::default()
    }
}

/// One line on what a case decides, so the figures can be read.
fn describe(policy: &Policy, state: &ContinuityState, now: Now, memo: &PoolMemo, req: &DecideRequest) -> String {
    let d = block_on(decide(&ctx(policy, state, now, Some(memo)), req, Mode::Turn, &NoPorts)).expect("no deadline").decision;
    let reply = d.trace.iter().find(|s| s.rung == "reply").map_or(String::new(), |s| s.outcome.clone());
    format!(
        "{:?} {} by {:?}; reply rung: {reply}",
        d.outcome,
        d.target_id.as_deref().or(d.escape_reason.map(|e| e.as_str())).unwrap_or(""),
        d.handled_by_tier
    )
}

fn reply(c: &mut Criterion) {
    let policy = Policy::defaults();
    let memo = PoolMemo::new(4 << 20);
    let candidates = pool();

    // The session: "links panel" asked about.
    let t1 = Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 };
    let now = Now { mono_ms: 2_000, wall_ms: 1_700_000_001_000 };
    let mut asked = ContinuityState::default();
    let first = ctx(&policy, &asked, t1, Some(&memo));
    let decided = block_on(decide(&first, &request("t1", ASKING, candidates.clone()), Mode::Turn, &NoPorts)).expect("no deadline");
    eprintln!("turn 1 {ASKING:?}: {:?}, asks {:?}", decided.decision.outcome, decided.decision.clarifier.as_ref().map(|c| &c.option_ids));
    asked.apply(Update::Decided(decided.update), t1, Ttl::default());
    let question = asked.question.clone().expect("ladderd asked which one");
    eprintln!("the question: {:?} of {:?}", question.kind, question.offered);
    let unasked = ContinuityState { question: None, ..asked.clone() };
    let new_session = ContinuityState::default();
    let states = [("asked", &asked), ("unasked", &unasked), ("new_session", &new_session)];

    let mut g = c.benchmark_group("reply");
    for (name, input) in REPLIES {
        let req = request("t2", input, candidates.clone());
        for (variant, state) in states {
            eprintln!("{variant}/{name}: {}", describe(&policy, state, now, &memo, &req));
            g.bench_with_input(BenchmarkId::new(variant, name), &req, |b, req| {
                let ctx = ctx(&policy, state, now, Some(&memo));
                b.iter(|| black_box(block_on(decide(&ctx, black_box(req), Mode::Turn, &NoPorts)).expect("no deadline")));
            });
        }
        // The rung alone, as decide runs it: the reading, then the answer.
        let Resolved::Pool(pool) = scope::resolve(&req, None, false) else { unreachable!("a chat pool") };
        let lex = &policy.lexicon;
        let canonical = ladder::canon::canonicalize(&req.input, lex);
        let hr = &policy.matching.high_risk_kinds;
        // The pool's canonical index, as decide has it (the memo's for a
        // pool sent again).
        let canon = ladder::matching::CanonPool::build(&pool, lex, &ladder::cost::DeadlineWatch::default()).expect("no deadline");
        // A pool sent again has its vocabulary (`intern::pool_index`).
        canon.build_vocab(&ladder::cost::DeadlineWatch::default()).expect("no deadline");
        for (variant, state) in [("rung", &asked), ("rung_unasked", &unasked)] {
            let view: StateView<'_> = state.into();
            let cx = replies::Context::new(&req, &view, &pool, &canon, lex, hr, &canonical);
            g.bench_with_input(BenchmarkId::new(variant, name), &req, |b, req| {
                b.iter(|| {
                    let reading = replies::reading::read(black_box(&req.input), lex);
                    black_box(replies::answer(black_box(&cx), &reading))
                });
            });
        }
        g.bench_with_input(BenchmarkId::new("reading", name), &req, |b, req| {
            b.iter(|| black_box(replies::reading::read(black_box(&req.input), lex)));
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = reply
}
criterion_main!(benches);
