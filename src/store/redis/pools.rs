//! The option sets held for reuse (`PoolStore`): `<prefix>{<id>}:pools`
//! and its companions, bounded per session, least recently used first out.

use super::{RedisStore, corrupt, to_json, wall_ms};
use crate::store::{HeldSet, Holding, PoolStore, StoreError, content_digest};
use futures::future::BoxFuture;
use ladder::types::{Candidate, Scope};
use redis::{Script, Value};
use std::sync::{Arc, LazyLock};

/// Holds an option set: `lua/pool_put.lua` (its keys, arguments and answers are
/// in its header).
static POOL_PUT: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/pool_put.lua")));

/// Finds an option set and marks it used: `lua/pool_get.lua` (its keys,
/// arguments and answers are in its header).
static POOL_GET: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/pool_get.lua")));
/// Drops a session's option sets; answers how many there were:
/// `lua/pool_remove.lua` (its keys, arguments and answers are in its header).
static POOL_REMOVE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/pool_remove.lua")));
impl RedisStore {
    fn pool_keys(&self, session: &str) -> [String; 4] {
        let k = self.key(session);
        [format!("{k}:pools"), format!("{k}:poolc"), format!("{k}:poolz"), format!("{k}:poolv")]
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSet {
    version: String,
    scope: Scope,
    candidates: Arc<Vec<Candidate>>,
}

impl PoolStore for RedisStore {
    fn get<'a>(&'a self, session: &'a str, set: &'a str, version: &'a str) -> BoxFuture<'a, Result<Option<HeldSet>, StoreError>> {
        Box::pin(async move {
            let keys = self.pool_keys(session);
            let mut inv = POOL_GET.prepare_invoke();
            inv.key(&keys[0]).key(&keys[1]).key(&keys[2]).key(&keys[3]).arg(set).arg(wall_ms()).arg(self.inner.idle_ms);
            let Value::BulkString(blob) = self.script("pool_get", inv).await? else { return Ok(None) };
            let held: StoredSet = serde_json::from_slice(&blob).map_err(|e| corrupt(session, "pools", e))?;
            Ok((held.version == version).then_some((held.scope, held.candidates)))
        })
    }

    fn put<'a>(
        &'a self,
        session: &'a str,
        set: &'a str,
        version: &'a str,
        scope: Scope,
        candidates: Arc<Vec<Candidate>>,
    ) -> BoxFuture<'a, Result<Holding, StoreError>> {
        Box::pin(async move {
            let n = candidates.len();
            // Compared in the script, so that of replicas racing to hold
            // one version with different contents exactly one wins.
            let digest = content_digest(scope, &candidates);
            // Too large to hold, the set is still compared with the version
            // held (a version names one content whatever its size); its
            // JSON is not sent.
            let blob = if n > self.inner.pool_max_candidates {
                Vec::new()
            } else {
                to_json(&StoredSet { version: version.to_string(), scope, candidates })?
            };
            let keys = self.pool_keys(session);
            let mut inv = POOL_PUT.prepare_invoke();
            inv.key(&keys[0])
                .key(&keys[1])
                .key(&keys[2])
                .key(&keys[3])
                .arg(set)
                .arg(blob)
                .arg(n)
                .arg(wall_ms())
                .arg(self.inner.idle_ms)
                .arg(self.inner.pool_max_candidates)
                .arg(version)
                .arg(digest);
            Ok(match self.script("pool_put", inv).await? {
                Value::Int(-1) => Holding::OtherContent,
                Value::Int(-2) => Holding::TooLarge,
                _ => Holding::Held,
            })
        })
    }

    fn remove_session<'a>(&'a self, session: &'a str) -> BoxFuture<'a, Result<usize, StoreError>> {
        Box::pin(async move {
            let keys = self.pool_keys(session);
            let mut inv = POOL_REMOVE.prepare_invoke();
            inv.key(&keys[0]).key(&keys[1]).key(&keys[2]).key(&keys[3]);
            match self.script("pool_remove", inv).await? {
                Value::Int(n) => Ok(n.max(0) as usize),
                _ => Ok(0),
            }
        })
    }

    /// Held in the shared store, not in this process.
    fn held(&self) -> usize {
        0
    }
}
