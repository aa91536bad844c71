//! The executed decisions remembered with a session (`<prefix>{<id>}:executed`,
//! the last 16 with their cohorts), so that a `RecordOutcome` on another
//! replica than the one that decided still counts for the guardrails. The
//! writes that remember one are the session's (`lua/remember_executed.lua`
//! runs before `write`, `append` and `read_append`).

use super::{RedisStore, bulk_list};
use crate::store::StoreError;
use ladder::continuity::{Applied, Now, Ttl, Update};
use redis::Script;
use std::sync::LazyLock;

/// The executed decisions remembered for a session, newest first:
/// `lua/executed_list.lua` (its keys, arguments and answers are in its header).
static EXECUTED_LIST: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/executed_list.lua")));
impl RedisStore {
    /// `SessionStore::apply`, also remembering an executed decision's
    /// cohort with the session (in the same script), so an outcome recorded
    /// on another replica can be attributed. The last 16 per session are
    /// kept, expiring with the session.
    pub(super) async fn cas_noting(
        &self,
        id: &str,
        update: Update,
        now: Now,
        ttl: Ttl,
        executed: Option<(&str, &str)>,
    ) -> Result<Applied, StoreError> {
        self.cas(id, update, now, ttl, executed.map(|(d, c)| format!("{d}|{c}")).unwrap_or_default()).await
    }

    /// The cohort of an executed decision remembered for the session.
    pub(super) async fn cohort_of(&self, session: &str, decision_id: &str) -> Result<Option<String>, StoreError> {
        let mut inv = EXECUTED_LIST.prepare_invoke();
        inv.key(format!("{}:executed", self.key(session)));
        let items = bulk_list(self.script("executed_cohort", inv).await?);
        Ok(items.into_iter().flatten().find_map(|b| {
            let s = String::from_utf8_lossy(&b).into_owned();
            let (id, cohort) = s.split_once('|')?;
            (id == decision_id).then(|| cohort.to_string())
        }))
    }
}
