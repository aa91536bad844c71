//! The rollout trip and the replicas' guardrail windows
//! (`<prefix>{rollout}:...`), shared by every replica.

use super::{RedisStore, bulk_list};
use crate::store::{FailureKind, RolloutAction, StoreError};
use redis::{Script, Value};
use std::sync::LazyLock;
use std::time::Duration;

/// The rollout trip: `lua/rollout.lua` (its keys, arguments and answers are in
/// its header).
static ROLLOUT: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/rollout.lua")));

/// The replicas' guardrail windows: `lua/windows.lua` (its keys, arguments and
/// answers are in its header).
static WINDOWS: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/windows.lua")));
impl RedisStore {
    /// Reads (and, with `action`, sets or resets) the shared rollout trip.
    /// Returns the trip's JSON if one is set, and the reset epoch.
    pub(super) async fn rollout_call(&self, action: RolloutAction<'_>) -> Result<(Option<String>, i64), StoreError> {
        let mut inv = ROLLOUT.prepare_invoke();
        inv.key(self.rollout_key("trip")).key(self.rollout_key("epoch")).key(self.rollout_key("windows")).key(self.rollout_key("seen"));
        match action {
            RolloutAction::Read => inv.arg("read"),
            RolloutAction::Trip(json) => inv.arg("trip").arg(json),
            RolloutAction::Reset => inv.arg("reset"),
        };
        let v = self.script("rollout", inv).await?;
        let Value::Array(items) = v else { return Err(StoreError::new(FailureKind::ScriptError, "rollout: unexpected reply")) };
        let trip = match items.first() {
            Some(Value::BulkString(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        };
        let epoch = match items.get(1) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        };
        Ok((trip, epoch))
    }

    /// The key `<prefix>{rollout}:<name>`: every rollout key shares one hash
    /// tag, so each script touches one Cluster slot.
    fn rollout_key(&self, name: &str) -> String {
        format!("{}{{rollout}}:{name}", self.inner.prefix)
    }

    /// Publishes this replica's guardrail windows (`json`) and answers the
    /// other replicas' (those heard from within `keep_ms`); `None` when an
    /// operator reset the rollout since `epoch` (nothing was published).
    pub(super) async fn publish_windows(
        &self,
        replica: &str,
        json: &str,
        epoch: i64,
        now_ms: i64,
        keep_ms: u64,
    ) -> Result<Option<Vec<String>>, StoreError> {
        let mut inv = WINDOWS.prepare_invoke();
        inv.key(self.rollout_key("epoch"))
            .key(self.rollout_key("windows"))
            .key(self.rollout_key("seen"))
            .arg(replica)
            .arg(json)
            .arg(epoch)
            .arg(now_ms)
            .arg(keep_ms.max(1));
        // Off every request's path, once per evaluation, and bigger than a
        // session: a second, whatever `timeout_ms`.
        match self.run_within("share_windows", inv, self.inner.timeout.max(Duration::from_secs(1))).await? {
            Value::Nil | Value::Boolean(false) => Ok(None),
            v => Ok(Some(bulk_list(v).into_iter().flatten().map(|b| String::from_utf8_lossy(&b).into_owned()).collect())),
        }
    }
}
