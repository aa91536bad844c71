//! Repeated warnings, rate-limited: a fault that lasts (a store that
//! refuses writes, a full disk, a provider that is down) would otherwise
//! log one line per call, thousands a second. Each kind of warning is
//! written at most once per interval; the line carries `suppressed`, how
//! many of its kind were held back since the last one. The counts that
//! matter are metrics; the log says that, and why, it is happening.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

/// The interval of the daemon's repeated warnings.
pub const INTERVAL: Duration = Duration::from_secs(10);

/// Kinds remembered at most: past it, kinds not seen for an interval are
/// forgotten (a bounded map whatever the keys).
const KINDS_MAX: usize = 512;

/// A rate limit per kind of line.
#[derive(Debug)]
pub struct Throttle {
    interval: Duration,
    seen: Mutex<HashMap<String, Seen>>,
}

#[derive(Debug, Clone, Copy)]
struct Seen {
    last: Instant,
    suppressed: u64,
}

impl Throttle {
    pub fn new(interval: Duration) -> Self {
        Throttle { interval, seen: Mutex::new(HashMap::new()) }
    }

    /// Whether a line of `kind` may be written now: `Some(n)` when it may,
    /// `n` lines of its kind having been held back since the last one;
    /// `None` (and one more held back) when one was written less than an
    /// interval ago.
    pub fn admit(&self, kind: &str) -> Option<u64> {
        self.admit_at(kind, Instant::now())
    }

    fn admit_at(&self, kind: &str, now: Instant) -> Option<u64> {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = seen.get_mut(kind) {
            if now.duration_since(s.last) < self.interval {
                s.suppressed += 1;
                return None;
            }
            let held = s.suppressed;
            *s = Seen { last: now, suppressed: 0 };
            return Some(held);
        }
        if seen.len() >= KINDS_MAX {
            let interval = self.interval;
            seen.retain(|_, s| now.duration_since(s.last) < interval);
        }
        if seen.len() < KINDS_MAX {
            seen.insert(kind.to_string(), Seen { last: now, suppressed: 0 });
        }
        Some(0)
    }
}

/// The daemon's repeated warnings, one interval for all.
pub static WARNINGS: LazyLock<Throttle> = LazyLock::new(|| Throttle::new(INTERVAL));

/// `tracing::warn!` at most once per `INTERVAL` for `kind` (any string:
/// the same text is the same kind), with `suppressed = n` (lines of this
/// kind held back since the last one) added to the fields.
#[macro_export]
macro_rules! warn_every {
    ($kind:expr, $($rest:tt)+) => {
        if let Some(suppressed) = $crate::telemetry::throttle::WARNINGS.admit($kind) {
            tracing::warn!(suppressed, $($rest)+);
        }
    };
}

/// `tracing::error!` likewise.
#[macro_export]
macro_rules! error_every {
    ($kind:expr, $($rest:tt)+) => {
        if let Some(suppressed) = $crate::telemetry::throttle::WARNINGS.admit($kind) {
            tracing::error!(suppressed, $($rest)+);
        }
    };
}

/// `tracing::info!` likewise.
#[macro_export]
macro_rules! info_every {
    ($kind:expr, $($rest:tt)+) => {
        if let Some(suppressed) = $crate::telemetry::throttle::WARNINGS.admit($kind) {
            tracing::info!(suppressed, $($rest)+);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_kind_per_interval_with_the_count_held_back() {
        let t = Throttle::new(Duration::from_secs(10));
        let start = Instant::now();
        assert_eq!(t.admit_at("oom", start), Some(0));
        for i in 1..=5 {
            assert_eq!(t.admit_at("oom", start + Duration::from_secs(i)), None);
        }
        assert_eq!(t.admit_at("timeout", start + Duration::from_secs(1)), Some(0), "another kind has its own interval");
        assert_eq!(t.admit_at("oom", start + Duration::from_secs(10)), Some(5), "five held back");
        assert_eq!(t.admit_at("oom", start + Duration::from_secs(21)), Some(0));
    }

    #[test]
    fn the_kinds_remembered_are_bounded() {
        let t = Throttle::new(Duration::from_secs(10));
        let start = Instant::now();
        for i in 0..(3 * KINDS_MAX) {
            assert_eq!(t.admit_at(&format!("k{i}"), start), Some(0));
        }
        assert!(t.seen.lock().unwrap().len() <= KINDS_MAX);
        // An interval later, the old kinds make room for new ones.
        assert_eq!(t.admit_at("fresh", start + Duration::from_secs(11)), Some(0));
        assert_eq!(t.admit_at("fresh", start + Duration::from_secs(12)), None);
    }
}
