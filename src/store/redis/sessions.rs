//! A session's state in the store: read (with the changes logged since
//! applied), written with a compare-and-set, or logged without a read.
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
//! Round trips. The daemon plans each turn before reading
//! (`ladder::speculate::plan`, because `remote` is true): the ladder first
//! runs without the session's state. When it read nothing of it, the decision's
//! change is logged with one script and no read (`log_decided`). When it
//! read only facts (no open cycle on this evidence; whether the continuity
//! context is this option set and scope), the change is logged as
//! `Update::DecidedIf` in the same script as a read (`log_with_read`):
//! applied where the facts hold, which the read tells at once. A change
//! that opens a cycle does not need the first fact: on the evidence of the
//! session's open cycle it continues that one (`DecidedUpdate::continuing`),
//! and only the decision is made again, on the state read (still one). A
//! tie continuity may take is decided twice without the state, once as if
//! the session's context were the request's options
//! (`speculate::on_shown_options`), and both changes go in one entry: the
//! first whose facts hold applies (`otherwise`), and the read tells which.
//! Where none holds, the change applies nothing and the ladder runs again
//! on the state read, written with a compare-and-set (two). A turn headed
//! for the LLM takes its loop-guard claim in the read's script the same way
//! (`read_claiming`; after the continuity case, if there is one, as its
//! `otherwise`). Every read applies the logged changes in order, with
//! the core's `apply`, as a compare-and-set at that moment would have, so
//! the rules stay in one place; the next compare-and-set folds them into
//! the state. A log of `LOG_FOLD` changes is folded by a compare-and-set
//! in the background once the call that found it so has answered
//! (`fold_later`); at `LOG_MAX` (folds failing) a turn folds it first.

use super::{RedisStore, bulk_list, corrupt, to_json};
use crate::store::{FailureKind, ReadAppended, StoreError};
use ladder::continuity::{Applied, ContinuityState, CycleChange, DecidedUpdate, Now, Ttl, Update};
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

/// Appends a decision's session change to the session's log without reading the
/// session (a decision that did not depend on it): `lua/append.lua`, after
/// `lua/remember_executed.lua` (its keys, arguments and answers are in its
/// header).
static APPEND: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(include_str!("../lua/remember_executed.lua"), include_str!("../lua/append.lua"))));

/// Reads a session and appends a change to its log, in one step:
/// `lua/read_append.lua`, after `lua/remember_executed.lua` (its keys,
/// arguments and answers are in its header).
static READ_APPEND: LazyLock<Script> =
    LazyLock::new(|| Script::new(concat!(include_str!("../lua/remember_executed.lua"), include_str!("../lua/read_append.lua"))));

/// Removes a session's state (hash, executed list, log); answers 1 if it
/// existed: `lua/remove.lua` (its keys, arguments and answers are in its
/// header).
pub(super) static REMOVE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/remove.lua")));
/// Changes logged per session at most: past it, the next turn folds the
/// log in before answering (a second round trip). Reached only when the
/// background folds from `LOG_FOLD` on keep failing.
pub const LOG_MAX: usize = 64;

/// The log's length from which a write folds it in, after answering the
/// call that found it so (`fold_later`); `LOG_MAX` is reached only when
/// those folds keep failing.
pub const LOG_FOLD: usize = 16;
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

/// A session change logged without a read (`RedisStore::log_decided`,
/// `RedisStore::read_claiming`), applied (`ContinuityState::apply`) in
/// order whenever the session is read.
#[derive(serde::Serialize, serde::Deserialize)]
struct Logged {
    update: Update,
    mono_ms: u64,
    wall_ms: i64,
    ttl: Ttl,
    /// Tells this entry from an equal one: an entry sent again after a lost
    /// connection is found and not appended twice (absent in older logs).
    #[serde(default, skip_serializing_if = "is_zero")]
    nonce: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Logged {
    fn new(update: Update, now: Now, ttl: Ttl) -> Self {
        Logged { update, mono_ms: now.mono_ms, wall_ms: now.wall_ms, ttl, nonce: uuid::Uuid::new_v4().as_u64_pair().0 }
    }
}

impl RedisStore {
    /// Reads a session (with its open cycle's request when `with_request`).
    pub(super) async fn read(&self, id: &str, with_request: bool) -> Result<Option<Read>, StoreError> {
        let key = self.key(id);
        let mut inv = READ.prepare_invoke();
        inv.key(&key).key(format!("{key}:log")).arg(self.inner.idle_ms).arg(if with_request { "1" } else { "0" });
        let fields = bulk_list(self.script("read", inv).await?);
        parse_state(id, &fields, with_request)
    }

    /// Applies `update` with compare-and-set, retrying on the state that
    /// won a race. Returns the result and the state written.
    pub(super) async fn cas(&self, id: &str, update: Update, now: Now, ttl: Ttl, executed: String) -> Result<Applied, StoreError> {
        // Enrich needs the open cycle's request, which reads leave behind.
        let with_request = matches!(update, Update::BeginEnrich { .. });
        let cached = if with_request { None } else { self.seen().get(id).cloned() };
        let base: Option<Read> = match cached {
            Some((version, logged, state)) => Some(Read { version: version.into(), logged, state: ContinuityState::clone(&state) }),
            None => self.read(id, with_request).await?,
        };
        self.cas_from(id, update, now, ttl, executed, base).await
    }

    /// `cas` from the session as read (`base`, `None` when absent).
    async fn cas_from(
        &self,
        id: &str,
        update: Update,
        now: Now,
        ttl: Ttl,
        executed: String,
        mut base: Option<Read>,
    ) -> Result<Applied, StoreError> {
        let key = self.key(id);
        let executed_key = format!("{key}:executed");
        let with_request = matches!(update, Update::BeginEnrich { .. });
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

    /// Writes a decision's session change without reading the session: for
    /// a decision the state did not decide (`speculate::without_state`), so one
    /// round trip. The change is appended to the session's log and applied,
    /// in order, by whoever reads the session next (`ContinuityState::apply`,
    /// as a compare-and-set would have applied it now). A full log
    /// (`LOG_MAX`) is folded into the state with this change by a
    /// compare-and-set instead. An execution's cohort is remembered as in
    /// `apply_noting`.
    pub(super) async fn append_decided(
        &self,
        id: &str,
        update: DecidedUpdate,
        now: Now,
        ttl: Ttl,
        executed: Option<(&str, &str)>,
    ) -> Result<(), StoreError> {
        let note = executed.map(|(d, c)| format!("{d}|{c}")).unwrap_or_default();
        let close = match update.cycle {
            CycleChange::Keep => "",
            CycleChange::Close => "close",
            // A cycle's request is written with it: read and compare-and-set.
            CycleChange::Open(_) => return self.cas(id, Update::Decided(update), now, ttl, note).await.map(|_| ()),
        };
        let key = self.key(id);
        let entry = Logged::new(Update::Decided(update), now, ttl);
        let json = to_json(&entry)?;
        let mut inv = APPEND.prepare_invoke();
        inv.key(&key)
            .key(format!("{key}:executed"))
            .key(format!("{key}:log"))
            .arg(json)
            .arg(self.inner.idle_ms)
            .arg(&note)
            .arg(close)
            .arg(LOG_MAX)
            .arg(LOG_FOLD);
        let reply = bulk_list(self.script("append", inv).await?);
        // Whatever this replica held of the session is behind it now.
        self.seen().pop(id);
        match reply.first() {
            Some(Some(b)) if b == b"1" => Ok(()),
            // Appended: fold the log in after answering.
            Some(Some(b)) if b == b"2" => {
                let read = parse_state(id, &reply[1..], false)?;
                self.remember_read(id, read);
                self.fold_later(id, now, ttl);
                Ok(())
            }
            // Full (folds behind): fold with this change now.
            _ => {
                let base = parse_state(id, &reply[1..], false)?;
                self.cas_from(id, entry.update, now, ttl, note, base).await.map(|_| ())
            }
        }
    }

    /// Reads a session and claims the loop guard for `guard_key` in the
    /// same round trip (an LLM turn whose claim `speculate::without_state`
    /// found: two round trips with the decision's write). The claim is
    /// appended to the session's log; replicas racing on one cycle append
    /// in some order, and applying the log in that order gives exactly one
    /// of them `GuardClaimed`. Returns the state before the claim, and what
    /// the claim did with the state remembered after it for the write that
    /// follows (`None` when the log was full: no claim was taken, claim
    /// with `apply` as usual).
    pub(super) async fn append_claim(
        &self,
        id: &str,
        guard_key: &str,
        cycle_id: &str,
        now: Now,
        ttl: Ttl,
    ) -> Result<ReadAppended, StoreError> {
        let claim = Update::ClaimGuard { guard_key: guard_key.to_string(), cycle_id: cycle_id.to_string() };
        self.read_appending(id, claim, None, String::new(), now, ttl).await
    }

    /// Logs a decision's change made without the session's state
    /// (`speculate::without_state`), reading the session in the same
    /// round trip: `entry` is an `Update::DecidedIf` (its facts widened by
    /// `DecidedUpdate::continuing`, with the other case as `otherwise` when
    /// there is one), applied when the log is applied; the state before it
    /// comes back, so the caller tells at once which case applied.
    /// `executed`: the decision id and cohort of an execution among the
    /// cases, remembered as `apply_noting` does (under its own decision id:
    /// if that case does not apply, nothing ever refers to it). Returns the
    /// session as read before the entry, and what the entry did (`None`:
    /// the log was full, nothing was appended: decide on the state read and
    /// write with `apply_noting`, which then needs no read).
    pub(super) async fn append_with_read(
        &self,
        id: &str,
        mut entry: Update,
        executed: Option<(&str, &str)>,
        now: Now,
        ttl: Ttl,
    ) -> Result<ReadAppended, StoreError> {
        // A cycle's request goes in its own field, not in the log.
        let pending = match take_request(&mut entry) {
            Some((r, key)) => Some((to_json(&*r)?, key)),
            None => None,
        };
        let note = executed.map(|(d, c)| format!("{d}|{c}")).unwrap_or_default();
        self.read_appending(id, entry, pending, note, now, ttl).await
    }

    /// Reads a session and appends `update` to its log in one script
    /// (`READ_APPEND`). Returns the state before the update and what it did
    /// (`None` when the log was full and nothing was appended); remembers
    /// the state after it for the write that follows (also returned).
    async fn read_appending(
        &self,
        id: &str,
        update: Update,
        pending: Option<(Vec<u8>, String)>,
        executed: String,
        now: Now,
        ttl: Ttl,
    ) -> Result<ReadAppended, StoreError> {
        let entry = Logged::new(update, now, ttl);
        let json = to_json(&entry)?;
        let key = self.key(id);
        let (request, cycle) = pending.unwrap_or_default();
        let mut inv = READ_APPEND.prepare_invoke();
        inv.key(&key)
            .key(format!("{key}:log"))
            .key(format!("{key}:executed"))
            .arg(json)
            .arg(self.inner.idle_ms)
            .arg(LOG_MAX)
            .arg(request)
            .arg(cycle)
            .arg(executed);
        let mut reply = bulk_list(self.script("read_append", inv).await?);
        let appended = matches!(reply.first(), Some(Some(b)) if b == b"1");
        if !appended {
            let read = parse_state(id, &reply[1..], false)?;
            return Ok((self.remember_read(id, read), None));
        }
        // The update is the log's last entry: the state before it is the rest.
        reply.pop();
        let before = parse_state(id, &reply[1..], false)?;
        let (version, logged) = before.as_ref().map_or((String::new(), 0), |b| (b.version.clone(), b.logged));
        let mut after = before.as_ref().map(|b| b.state.clone()).unwrap_or_default();
        let applied = after.apply(entry.update, now, ttl);
        let after = Arc::new(after);
        self.seen().put(id.into(), (version.into(), logged + 1, after.clone()));
        Ok((before.map(|b| Arc::new(b.state)), Some((applied, after))))
    }

    /// Keeps a session as read for the write that follows; returns it.
    /// The loop-guard claim `read_claiming` logged was not used: the
    /// ladder, on the state it read, decided without the LLM. The next
    /// compare-and-set then writes over `before`, the state before the
    /// claim, which drops the claim with the log it folds, as if it had
    /// never been taken (unless another call logged after it: it then
    /// stays, a claim no LLM call followed, which only guards). `after` is
    /// the state `read_claiming` remembered: when another call on this
    /// replica has read or written the session since, its state stands.
    pub(super) fn drop_claim(&self, id: &str, before: Option<Arc<ContinuityState>>, after: &Arc<ContinuityState>) {
        let mut seen = self.seen();
        if let Some(entry) = seen.get_mut(id).filter(|e| Arc::ptr_eq(&e.2, after)) {
            entry.2 = before.unwrap_or_default();
        }
    }

    /// Folds the session's log into its state with a compare-and-set from
    /// the state this replica remembers, in the background: the call that
    /// found the log long has answered without waiting (one round trip);
    /// at most one such write per session at a time, each bounded like
    /// any store call.
    pub fn fold_later(&self, id: &str, now: Now, ttl: Ttl) {
        if !self.inner.folding.lock().unwrap_or_else(|p| p.into_inner()).insert(id.into()) {
            return;
        }
        let store = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            if let Err(e) = store.cas(&id, Update::Fold, now, ttl, String::new()).await {
                tracing::debug!(error = %e, "session log not folded");
            }
            store.inner.folding.lock().unwrap_or_else(|p| p.into_inner()).remove(id.as_str());
        });
    }

    /// `fold_later` when the log this replica last read of the session
    /// has `LOG_FOLD` entries or more.
    pub(super) fn fold_long_log(&self, id: &str, now: Now, ttl: Ttl) {
        let long = self.seen().peek(id).is_some_and(|e| e.1 >= LOG_FOLD);
        if long {
            self.fold_later(id, now, ttl);
        }
    }

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

/// Takes the request of the cycle a logged change opens out of it (with
/// that cycle's guard key), out of every case it has: the cases of one
/// turn are about one request, kept once, outside the log.
fn take_request(entry: &mut Update) -> Option<(Arc<DecideRequest>, String)> {
    let (update, otherwise) = match entry {
        Update::Decided(d) => (d, None),
        Update::DecidedIf { update, otherwise, .. } => (update, otherwise.as_deref_mut()),
        _ => return None,
    };
    let here = match &mut update.cycle {
        CycleChange::Open(c) => c.request.take().map(|r| (r, c.guard_key.clone())),
        _ => None,
    };
    let further = otherwise.and_then(take_request);
    here.or(further)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_turn_keeps_its_request_out_of_the_log_in_every_case() {
        use ladder::continuity::{Cycle, Fact};
        let request = Arc::new(DecideRequest { input: "links panel".into(), ..Default::default() });
        let opens = |id: &str| DecidedUpdate {
            cycle: CycleChange::Open(Box::new(Cycle { request: Some(request.clone()), ..Cycle::new(id, "k") })),
            ..Default::default()
        };
        let inner = Update::DecidedIf { facts: vec![Fact::NoCycle("k".into())], update: opens("c1"), otherwise: None };
        let mut entry = Update::DecidedIf { facts: vec![], update: opens("c2"), otherwise: Some(Box::new(inner)) };
        let (taken, key) = take_request(&mut entry).expect("a request");
        assert_eq!((taken.input.as_str(), key.as_str()), ("links panel", "k"));
        let json = String::from_utf8(serde_json::to_vec(&entry).unwrap()).unwrap();
        assert!(!json.contains("links panel"), "{json}");
        assert!(take_request(&mut entry).is_none());
    }
}
