//! A session's state in the store: read (with any changes an older daemon
//! logged applied), and written with a compare-and-set.
//!
//! Atomicity. The state's rules stay in one place, the pure core
//! (`ContinuityState::apply`): an update is applied here to the state as
//! last read, and written by one Lua script that checks the version it was
//! read at (compare-and-set). When another replica wrote in between, the
//! script answers with the current state instead, and the update is applied
//! again to that: two replicas racing for one loop-guard claim therefore see
//! exactly one `GuardClaimed`. Versions are random tokens plus the log's
//! length, so a session that expired and was created again never matches
//! an old version, and neither does one a change was logged to since.
//!
//! Round trips. A turn reads the session (one script), the ladder runs
//! once on the state read, and its change is written with a
//! compare-and-set (a second): BENCHMARKS.md ("Shared state") measured the
//! one-round-trip plan this replaced, which ran the ladder up to four
//! times and cost more CPU than the round trip it saved.
//!
//! The log. Daemons before that change appended some changes to a log
//! (`:log`, a cycle's request then in `pq` / `pk`) instead of a
//! compare-and-set. A read still applies such a log in order, with the
//! core's `apply`, and the next compare-and-set folds it into the state:
//! replicas of both kinds share one store while a deployment rolls.

use super::{RedisStore, bulk_list, corrupt, to_json};
use crate::store::{FailureKind, StoreError};
use ladder::continuity::{Applied, ContinuityState, CycleChange, Now, Ttl, Update};
use ladder::types::DecideRequest;
use redis::Script;
use std::sync::{Arc, LazyLock};

/// Reads a session and keeps it alive (where the store takes writes):
/// `lua/read.lua` (its keys, arguments and answers are in its header).
static READ: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/read.lua")));

/// Compare-and-set of one session: `lua/write.lua`, after
/// `lua/remember_executed.lua` (its keys, arguments and answers are in its
/// header).
static WRITE: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(include_str!("../lua/remember_executed.lua"), include_str!("../lua/write.lua"))));

/// Removes a session's state (hash, executed list, log); answers 1 if it
/// existed: `lua/remove.lua` (its keys, arguments and answers are in its
/// header).
pub(super) static REMOVE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/remove.lua")));
/// Writes that lost a race are retried on the state that won, this often.
const MAX_ATTEMPTS: usize = 8;
/// The state as read: its version (the hash's token and how many logged
/// changes followed it), and the state with those changes applied (with the
/// open cycle's request when it was asked for).
pub(super) struct Read {
    version: String,
    logged: usize,
    state: ContinuityState,
}

/// A session change an older daemon logged without a compare-and-set (the
/// module's doc), applied (`ContinuityState::apply`) in order whenever the
/// session is read.
#[derive(serde::Deserialize)]
struct Logged {
    update: Update,
    mono_ms: u64,
    wall_ms: i64,
    ttl: Ttl,
}

impl RedisStore {
    /// Reads a session, without its open cycle's request (only `Enrich`
    /// needs it, and its compare-and-set gets it: `cas`).
    pub(super) async fn read(&self, id: &str) -> Result<Option<Read>, StoreError> {
        let key = self.key(id);
        let mut inv = READ.prepare_invoke();
        inv.key(&key).key(format!("{key}:log")).arg(self.inner.idle_ms);
        let fields = bulk_list(self.script("read", inv).await?);
        parse_state(id, &fields, false)
    }

    /// Applies `update` with compare-and-set, retrying on the state that
    /// won a race. Returns the result and the state written.
    pub(super) async fn cas(&self, id: &str, update: Update, now: Now, ttl: Ttl, executed: String) -> Result<Applied, StoreError> {
        // Enrich needs the open cycle's request, which reads leave behind.
        let with_request = matches!(update, Update::BeginEnrich { .. });
        let cached = if with_request { None } else { self.seen().get(id).cloned() };
        // Nothing remembered (a new session, or one this replica has not
        // read): written as if absent, which it is for a new session; a
        // session that exists answers the write with its state, and the
        // update is applied again to that (no read first either way).
        let mut base =
            cached.map(|(version, logged, state)| Read { version: version.into(), logged, state: ContinuityState::clone(&state) });
        let key = self.key(id);
        let executed_key = format!("{key}:executed");
        let opens = matches!(&update, Update::Decided(d) if matches!(d.cycle, CycleChange::Open(_)));
        for _ in 0..MAX_ATTEMPTS {
            let expected = base.as_ref().map_or(String::new(), |b| b.version.clone());
            let logged = base.as_ref().map_or(0, |b| b.logged);
            let loaded_request = base.as_ref().and_then(|b| b.state.cycle.as_ref()).and_then(|c| c.request.clone());
            let mut state = base.map(|b| b.state).unwrap_or_default();
            let applied = state.apply(update.clone(), now, ttl);
            // A turn the session applied last: nothing to write.
            if matches!(applied, Applied::Replay(_)) {
                return Ok(applied);
            }
            let version = uuid::Uuid::new_v4().simple().to_string();
            let open = state.open_cycle();
            let (mode, request, cycle_id) = match open {
                Some(c) => match &c.request {
                    Some(r) if !loaded_request.as_ref().is_some_and(|l| Arc::ptr_eq(l, r)) => ("set", to_json(&**r)?, c.id.clone()),
                    // Opened without a request (too large to keep): Enrich
                    // must refuse it, whatever an older cycle left.
                    None if opens => ("del", Vec::new(), c.id.clone()),
                    _ => ("keep", Vec::new(), c.id.clone()),
                },
                None => ("del", Vec::new(), String::new()),
            };
            let guard_key = open.map_or("", |c| c.guard_key.as_str());
            let st = encode_state(&state)?;
            let mut inv = WRITE.prepare_invoke();
            inv.key(&key)
                .key(&executed_key)
                .key(format!("{key}:log"))
                .arg(&expected)
                .arg(&version)
                .arg(&st)
                .arg(mode)
                .arg(request)
                .arg(&cycle_id)
                .arg(self.inner.idle_ms)
                .arg(if with_request { "1" } else { "0" })
                .arg(&executed)
                .arg(logged)
                .arg(guard_key);
            let reply = bulk_list(self.script("write", inv).await?);
            if matches!(reply.first(), Some(Some(b)) if b == b"1") {
                self.remember(id, version, state);
                return Ok(applied);
            }
            // Lost a race: apply again to the state that won.
            base = parse_state(id, &reply[1..], with_request)?;
        }
        let e = StoreError::new(FailureKind::Contended, format!("session {id:?} is being written by too many calls at once"));
        self.inner.health.failed("write", &e);
        Err(e)
    }

    fn remember(&self, id: &str, version: String, mut state: ContinuityState) {
        // Cached without the cycle's request: reads never carry it either.
        if let Some(c) = state.cycle.as_mut() {
            c.request = None;
        }
        self.seen().put(id.into(), (version.into(), 0, Arc::new(state)));
    }

    /// Keeps a session as read for the write that follows; returns it.
    pub(super) fn remember_read(&self, id: &str, read: Option<Read>) -> Option<Arc<ContinuityState>> {
        match read {
            Some(r) => {
                let state = Arc::new(r.state);
                self.seen().put(id.into(), (r.version.into(), r.logged, state.clone()));
                Some(state)
            }
            None => {
                self.seen().pop(id);
                None
            }
        }
    }
}

fn encode_state(state: &ContinuityState) -> Result<Vec<u8>, StoreError> {
    // The request lives in its own field (`rq`), written once per cycle.
    let mut s = state.clone();
    if let Some(c) = s.cycle.as_mut() {
        c.request = None;
    }
    to_json(&s)
}

/// `[v, st, rq, rc, pq, pk, log...]` as read (the requests only when asked
/// for): the state with the logged changes applied in order, with the open
/// cycle's request (written with the cycle, `rq`, or logged with it, `pq`);
/// `None` when there is neither state nor log.
fn parse_state(id: &str, fields: &[Option<Vec<u8>>], with_request: bool) -> Result<Option<Read>, StoreError> {
    let log = fields.get(6..).unwrap_or_default();
    let (version, mut state) = match (fields.first(), fields.get(1)) {
        (Some(Some(v)), Some(Some(st))) => {
            (String::from_utf8_lossy(v).into_owned(), serde_json::from_slice(st).map_err(|e| corrupt(id, "st", e))?)
        }
        _ if log.is_empty() => return Ok(None),
        _ => (String::new(), ContinuityState::default()),
    };
    for entry in log.iter().flatten() {
        let e: Logged = serde_json::from_slice(entry).map_err(|e| corrupt(id, "log", e))?;
        state.apply(e.update, Now { mono_ms: e.mono_ms, wall_ms: e.wall_ms }, e.ttl);
    }
    if with_request && let Some(c) = state.cycle.as_mut() {
        // `rq` belongs to a cycle by its id, `pq` by its evidence.
        let owns = |owner: usize, mine: &str| matches!(fields.get(owner), Some(Some(o)) if !mine.is_empty() && o == mine.as_bytes());
        let found = [(2, owns(3, &c.id), "rq"), (4, owns(5, &c.guard_key), "pq")].into_iter().find(|f| f.1);
        if let Some((rq, _, name)) = found
            && let Some(Some(rq)) = fields.get(rq)
        {
            let req: DecideRequest = serde_json::from_slice(rq).map_err(|e| corrupt(id, name, e))?;
            c.request = Some(Arc::new(req));
        }
    }
    Ok(Some(Read { version, logged: log.len(), state }))
}
