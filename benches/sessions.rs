//! The session store's memory and per-request cost.
//!
//! `cargo bench --bench sessions`
//!
//! 1. Bytes per session, counted by a global allocator that tracks live
//!    heap bytes: 10,000 sessions of each shape inserted into a
//!    `MemoryStore` after 8,192 others (so the ones counted are packed, as
//!    every session past the 4,096 the store keeps open is), (heap after -
//!    heap before) / 10,000. Includes the key, the LRU node and the hash
//!    table slot. Shapes: a session after one
//!    executed turn; a typical one (five turns: a clarifier, its answer, two
//!    executions and their outcomes); and sessions whose last turn left an
//!    unresolved cycle open, which keeps its request for `Enrich` (10, 100
//!    and 1,000 candidates). Goal: typical under 2 KiB.
//! 2. RSS with 1,000,000 typical sessions: VmRSS of this process before and
//!    after inserting them (also the counted heap). Goal: under 3 GiB.
//! 3. Per-request store cost, `get` + `apply` of a turn (what `Decide` does
//!    with the store), on random existing sessions of a store holding 1,000
//!    and one holding 1,000,000 sessions; and on the 1,000,000-session store
//!    touching only 1,000 of them (same structure, warm caches: tells the
//!    structure's cost from cache misses). Goal: 1M within 10% of 1k.
//! 4. What a new session costs in a store that is full (at `sessions.max`,
//!    so each one evicts the least recently used): `apply` of a turn on a
//!    new id, at 1,000 and at 1,000,000 sessions.
//!
//! 5. Bytes per session as the daemon leaves it (past 8,192 others, as
//!    in 1), made by real `Decide` calls on a 100-candidate screen: empty (one executed turn),
//!    clarified (ladderd's clarifier pending) and replied (an execute, then
//!    a clarifier); each without a `turn_id`, and with a UUID one per call
//!    as the client packages send (the session then keeps its last turn
//!    for a repeated `Decide`). `SESSIONS_MILLION=clarified cargo bench
//!    --bench sessions` (or `replied`; with `SESSIONS_TURN_IDS=1`, a
//!    `turn_id` each) instead builds 1,000,000 of one shape and reports
//!    the process's RSS; `SESSIONS_SHAPES=1` runs only this part.
//!
//! Under `cargo test --benches` (no `--bench` argument) the sizes shrink so
//! the target still runs quickly.

use criterion::{BenchmarkId, Criterion, Throughput};
use futures::executor::block_on;
use ladder::continuity::{ActionEntry, Cycle, CycleChange, DecidedUpdate, Now, OutcomeUpdate, PendingClarifier, Ttl, Update};
use ladder::types::{Candidate, DecideRequest, OptionSet, Scope, ScopeRef};
use ladderd::store::{MemoryStore, SessionStore};
use mimalloc::MiMalloc as Inner;
use std::alloc::{GlobalAlloc, Layout};
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;

/// Counts live heap bytes (requested sizes, not the allocator's rounding:
/// RSS shows the rest), over the daemon's own allocator (mimalloc), so the
/// RSS figures are the daemon's.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { Inner.alloc(l) };
        if !p.is_null() {
            LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { Inner.dealloc(p, l) };
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { Inner.alloc_zeroed(l) };
        if !p.is_null() {
            LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { Inner.realloc(p, l, new) };
        if !q.is_null() {
            LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const TTL: Ttl = Ttl { ttl_turns: 3, ttl_seconds: 600 };
const NOW: Now = Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 };

/// A UUID-shaped session id (36 bytes), as apps send them.
fn session_id(i: u64) -> String {
    let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    format!("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", h >> 32, (h >> 16) & 0xffff, h & 0xfff, (h >> 20) & 0xfff, i)
}

fn scope() -> Option<ScopeRef> {
    Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() })
}

fn action(kind: &str, target: &str, outcome: &str) -> ActionEntry {
    ActionEntry {
        kind: serde_json::from_value(serde_json::json!(kind)).expect("an action kind"),
        target_ref: target.into(),
        source_scope: Scope::Chat,
        option_set_id: "set-42".into(),
        timestamp_ms: NOW.wall_ms,
        outcome: serde_json::from_value(serde_json::json!(outcome)).expect("an action outcome"),
        target_label: String::new(),
        chosen_by: 0,
    }
}

fn turn(resolved: Option<ActionEntry>, cycle: CycleChange, pending: PendingClarifier) -> Update {
    Update::Decided(DecidedUpdate {
        new_turn: true,
        options_context: Some(("set-42".into(), scope())),
        pending,
        keep_pending: false,
        resolved,
        cycle,
        ..Default::default()
    })
}

fn outcome(target: &str, kind: &str) -> Update {
    Update::Outcome(OutcomeUpdate { entry: action("outcome", target, kind), also_rejected: None })
}

fn candidates(n: usize) -> Vec<Candidate> {
    (0..n).map(|i| Candidate::new(format!("cand-{i:05}"), format!("Revenue Forecast {i}"))).collect()
}

/// An unresolved cycle as `decide` opens it, keeping its request when the
/// pool is within `sessions.max_cycle_candidates`.
fn open_cycle(pool: usize) -> Update {
    let cands = candidates(pool);
    let request = DecideRequest {
        session_id: "x".into(),
        turn_id: "t".into(),
        input: "links panel".into(),
        active_scope: scope(),
        options: Some(OptionSet {
            option_set_id: "set-42".into(),
            scope: Scope::Chat,
            candidates: std::sync::Arc::new(cands.clone()),
            ..Default::default()
        }),
        ..Default::default()
    };
    let cycle = Cycle {
        llm_attempted: true,
        ordering: cands.iter().take(5).map(|c| c.id.clone()).collect(),
        fingerprint: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".into(),
        llm_calls: 1,
        request: Some(std::sync::Arc::new(request)),
        ..Cycle::new("5f0e6c1a-2b7d-4c1e-9a3f-0d2c4b6a8e10", "0123456789abcdef0123456789abcdef")
    };
    turn(None, CycleChange::Open(Box::new(cycle)), PendingClarifier::SelectionDisambiguation)
}

/// The updates that build one session of a shape.
fn shape(name: &str) -> Vec<Update> {
    match name {
        "one executed turn" => vec![turn(Some(action("execute", "links-panel-d", "decided")), CycleChange::Keep, PendingClarifier::None)],
        "typical (5 turns, cycle closed)" => vec![
            open_cycle(10),
            outcome("links-panel-e", "accepted"),
            turn(Some(action("execute", "sales-report-q3", "decided")), CycleChange::Close, PendingClarifier::None),
            outcome("sales-report-q3", "executed"),
            turn(Some(action("execute", "revenue-forecast-7", "decided")), CycleChange::Keep, PendingClarifier::None),
            outcome("revenue-forecast-7", "executed"),
        ],
        "open cycle, 10 candidates" => vec![turn(None, CycleChange::Keep, PendingClarifier::None), open_cycle(10)],
        "open cycle, 100 candidates" => vec![turn(None, CycleChange::Keep, PendingClarifier::None), open_cycle(100)],
        "open cycle, 1,000 candidates" => vec![turn(None, CycleChange::Keep, PendingClarifier::None), open_cycle(1_000)],
        other => unreachable!("{other}"),
    }
}

/// Inserts sessions `from..from + n`, each built by the updates of `shape`
/// (made afresh per session: an open cycle's request is its own, as in the
/// daemon, not one shared `Arc`).
fn fill(store: &MemoryStore, from: u64, n: u64, shape_name: &str) {
    for i in from..from + n {
        let id = session_id(i);
        for u in shape(shape_name) {
            block_on(store.apply(&id, u, NOW, TTL)).expect("the memory store never fails");
        }
    }
}

/// Twice the sessions a `MemoryStore` keeps open: made before the ones a
/// figure counts, so that those are packed, as every session past the
/// open ones is.
const KEPT_OPEN_TWICE: u64 = 2 * (ladderd::store::memory::OPEN_PER_SHARD * ladderd::store::memory::SHARDS) as u64;

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()))
        .unwrap_or(0)
}

fn bytes_per_session(full: bool) {
    let n: u64 = if full { 10_000 } else { 200 };
    let open: u64 = if full { KEPT_OPEN_TWICE } else { 0 };
    println!("bytes per session ({n} sessions of each shape in a MemoryStore past {open}; live heap bytes / sessions):");
    for name in [
        "one executed turn",
        "typical (5 turns, cycle closed)",
        "open cycle, 10 candidates",
        "open cycle, 100 candidates",
        "open cycle, 1,000 candidates",
    ] {
        let store = MemoryStore::new((open + n) as usize * 2, Duration::from_secs(1_800));
        fill(&store, n, open, name);
        let before = LIVE.load(Ordering::Relaxed);
        fill(&store, 0, n, name);
        let after = LIVE.load(Ordering::Relaxed);
        assert_eq!(store.len() as u64, open + n);
        let per = (after - before) as f64 / n as f64;
        println!("  {name:<34} {per:>10.0} B  ({:.2} KiB)", per / 1024.0);
        drop(store);
    }
}

/// Builds the 1M-session store, reporting RSS and heap.
fn million(n: u64) -> MemoryStore {
    let rss0 = rss_kb();
    let heap0 = LIVE.load(Ordering::Relaxed);
    let store = MemoryStore::new(n as usize + n as usize / 10, Duration::from_secs(1_800));
    let t = std::time::Instant::now();
    fill(&store, 0, n, "typical (5 turns, cycle closed)");
    let rss1 = rss_kb();
    let heap1 = LIVE.load(Ordering::Relaxed);
    assert_eq!(store.len() as u64, n);
    println!(
        "{n} typical sessions: RSS {} MiB -> {} MiB (+{:.0} MiB, {:.0} B per session); live heap +{:.0} MiB ({:.0} B per session); built in {:.1} s",
        rss0 / 1024,
        rss1 / 1024,
        (rss1 - rss0) as f64 / 1024.0,
        (rss1 - rss0) as f64 * 1024.0 / n as f64,
        (heap1 - heap0) as f64 / 1048576.0,
        (heap1 - heap0) as f64 / n as f64,
        t.elapsed().as_secs_f64()
    );
    store
}

/// `get` + `apply(turn)` on pseudo-random existing sessions: `(held,
/// touched, store)` runs over the first `touched` of the `held` sessions (a
/// big store with a small hot set tells the structure's cost from the
/// cache misses of touching cold sessions).
fn store_cost(c: &mut Criterion, stores: &[(u64, u64, &MemoryStore)]) {
    let mut g = c.benchmark_group("store");
    g.throughput(Throughput::Elements(1));
    let update = turn(Some(action("execute", "links-panel-d", "decided")), CycleChange::Keep, PendingClarifier::None);
    for (held, touched, store) in stores {
        // Ids inline in one array: one cache line per lookup on the bench's side.
        let ids: Vec<[u8; 36]> = (0..*touched).map(|i| session_id(i).into_bytes().try_into().expect("36-byte ids")).collect();
        let mut state: u64 = 1;
        let name = if held == touched { format!("{held} sessions") } else { format!("{held} sessions, {touched} hot") };
        g.bench_function(BenchmarkId::new("get+apply", name), |b| {
            b.iter(|| {
                // A 64-bit LCG picks the session: in the big store nearly
                // every access is to a different, cache-cold session.
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let id = std::str::from_utf8(&ids[((state >> 24) % touched) as usize]).expect("ascii ids");
                let s = block_on(store.get(id, NOW)).expect("never fails");
                black_box(s);
                black_box(block_on(store.apply(id, update.clone(), NOW, TTL)).expect("never fails"));
            })
        });
    }
    g.finish();
}

/// `apply(turn)` on a new session id, in stores filled to their bound
/// (`(max, store)`): each call creates a session and evicts one.
fn new_session_cost(c: &mut Criterion, stores: &[(u64, &MemoryStore)]) {
    let mut g = c.benchmark_group("store");
    g.throughput(Throughput::Elements(1));
    let update = turn(Some(action("execute", "links-panel-d", "decided")), CycleChange::Keep, PendingClarifier::None);
    for (max, store) in stores {
        // New ids, past every id `fill` used.
        let mut next: u64 = 1 << 40;
        let evicted = store.evictions();
        g.bench_function(BenchmarkId::new("new session, full", format!("{max} sessions")), |b| {
            b.iter_batched(
                || {
                    next += 1;
                    session_id(next)
                },
                |id| black_box(block_on(store.apply(&id, update.clone(), NOW, TTL)).expect("never fails")),
                criterion::BatchSize::SmallInput,
            )
        });
        assert!(store.evictions() > evicted, "each new session evicts one");
        println!("  held {} sessions at sessions.max = {max}", store.len());
    }
    g.finish();
}

/// The shapes of a session as the daemon leaves it, each made by real
/// `Decide` calls on the load tool's 100-candidate screen, taken off the
/// wire as the daemon takes it (its option list interned and shared by
/// every session, so not counted in any):
/// - empty: one turn that executed (nothing pending);
/// - clarified: one turn that ended in ladderd's clarifier (the question
///   it asked, and the open cycle the loop guard keeps);
/// - replied: a turn that executed, then one that ended in a clarifier:
///   the most the reply rung keeps (a last execute and a question).
const DAEMON_SHAPES: [(&str, &[&str]); 3] = [
    ("empty (one executed turn)", &["Links Panel D"]),
    ("clarified (ladderd's clarifier)", &["links panel"]),
    ("replied (an execute, then a clarifier)", &["Links Panel D", "links panel"]),
];

/// A daemon with the embedded defaults holding up to `max` sessions, and
/// a call that decides one turn on it: with a `turn_id` of its own (a
/// UUID, as the client packages send: the session keeps the turn for a
/// repeated `Decide`), or none.
fn daemon_turns(max: usize, turn_ids: bool) -> impl FnMut(&str, &str) -> ladder::types::Outcome {
    use prost::Message;
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let mut config = ladderd::config::Config::default();
    config.sessions.max = max;
    // The guardrails remember the last 100,000 decisions whatever the
    // sessions: a bounded cost of the daemon's, not a session's.
    config.guardrails.enabled = false;
    let daemon = ladderd::daemon::Daemon::new(config).expect("the default configuration");
    let mut screen = ladderd_load::samples::panels_request("", "");
    screen.options.as_mut().expect("options").candidates = ladderd_load::samples::pool(100);
    move |session: &str, input: &str| {
        let g = daemon.current();
        let turn_id = if turn_ids { uuid::Uuid::new_v4().to_string() } else { String::new() };
        let m = ladderd::pb::DecideRequest { session_id: session.into(), turn_id, input: input.into(), ..screen.clone() };
        let wire = m.encode_to_vec();
        let at = ladderd::grpc::wire::options("/ladder.v1.Arbiter/Decide", &wire).expect("options sent once");
        let req = ladderd::grpc::options::decide_input(&g, m, Some(&wire[at]), None).expect("a valid request");
        rt.block_on(daemon.decide(&g, req, None)).expect("decided").outcome
    }
}

/// Bytes per session of each daemon shape: live heap bytes / sessions.
fn daemon_shapes(full: bool) {
    let n: u64 = if full { 20_000 } else { 100 };
    let open: u64 = if full { KEPT_OPEN_TWICE } else { 0 };
    println!(
        "bytes per session as the daemon leaves it ({n} sessions of each shape past {open}, 100 candidates; live heap bytes / sessions):"
    );
    for ((name, inputs), turn_ids) in DAEMON_SHAPES.iter().flat_map(|s| [(s, false), (s, true)]) {
        let name = format!("{name}{}", if turn_ids { ", a turn_id each" } else { "" });
        let mut turn = daemon_turns((open + n) as usize * 2, turn_ids);
        // The screen's list interned and its canonical index built.
        turn("warm-up", inputs[0]);
        for i in 0..open {
            for input in *inputs {
                turn(&session_id(n + i), input);
            }
        }
        let before = LIVE.load(Ordering::Relaxed);
        let mut outcomes = std::collections::BTreeSet::new();
        for i in 0..n {
            for input in *inputs {
                outcomes.insert(format!("{:?}", turn(&session_id(i), input)));
            }
        }
        let per = (LIVE.load(Ordering::Relaxed) - before) as f64 / n as f64;
        println!("  {name:<40} {per:>8.0} B  (outcomes {outcomes:?})");
    }
}

/// `SESSIONS_MILLION=clarified|replied`: 1,000,000 sessions of that shape
/// through the daemon, and the process's RSS before and after (the
/// baseline included: this process holds nothing else).
fn daemon_million(shape: &str) {
    let (name, inputs) = DAEMON_SHAPES.iter().find(|(n, _)| n.starts_with(shape)).expect("empty, clarified or replied");
    let n = 1_000_000u64;
    let rss0 = rss_kb();
    let live0 = LIVE.load(Ordering::Relaxed);
    let turn_ids = std::env::var_os("SESSIONS_TURN_IDS").is_some();
    let name = format!("{name}{}", if turn_ids { ", a turn_id each" } else { "" });
    let mut turn = daemon_turns(n as usize, turn_ids);
    let t = std::time::Instant::now();
    for i in 0..n {
        for input in *inputs {
            turn(&session_id(i), input);
        }
    }
    let rss1 = rss_kb();
    println!(
        "{n} sessions, {name}: RSS {} MiB -> {} MiB ({:.0} B per session; live heap {:.0} B per session); built in {:.0} s",
        rss0 / 1024,
        rss1 / 1024,
        (rss1 - rss0) as f64 * 1024.0 / n as f64,
        (LIVE.load(Ordering::Relaxed) - live0) as f64 / n as f64,
        t.elapsed().as_secs_f64()
    );
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    if let Ok(shape) = std::env::var("SESSIONS_MILLION") {
        daemon_million(&shape);
        return;
    }
    if std::env::var_os("SESSIONS_SHAPES").is_some() {
        daemon_shapes(full);
        return;
    }
    // The million first, while RSS is still the process's baseline.
    let big_n: u64 = if full { 1_000_000 } else { 2_000 };
    let big = million(big_n);
    bytes_per_session(full);
    daemon_shapes(full);
    let small = MemoryStore::new(1_100, Duration::from_secs(1_800));
    fill(&small, 0, 1_000, "typical (5 turns, cycle closed)");
    let mut c = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5)).configure_from_args();
    store_cost(&mut c, &[(1_000, 1_000, &small), (big_n, big_n, &big), (big_n, 1_000, &big)]);
    // Filled to their bounds (`small` holds 1,100, `big` a tenth more than
    // `big_n`): the new sessions now evict.
    fill(&small, 1_000, 100, "one executed turn");
    fill(&big, big_n, big_n / 10, "one executed turn");
    new_session_cost(&mut c, &[(1_100, &small), (big_n + big_n / 10, &big)]);
    c.final_summary();
}
