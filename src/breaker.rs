//! A consecutive-failure circuit breaker with a cool-down and one probe,
//! shared by the LLM client (`llm.breaker_*`) and the shared session store
//! (`sessions.redis.breaker_*`): after `threshold` failures in a row the
//! guarded calls are skipped for `cooldown`; then one call is let out as
//! the probe, and its result closes the breaker or opens it for another
//! cool-down. A probe that ends without a result (its caller gave up, the
//! future was cancelled) is released, so the next call can probe: the
//! breaker never stays stuck open.

use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

#[derive(Debug)]
struct State {
    consecutive: u32,
    open_until: Option<Instant>,
    probing: bool,
}

/// Consecutive-failure circuit breaker with a cool-down and one probe.
#[derive(Debug)]
pub struct Breaker {
    /// What it guards, for its log lines ("llm", "session store").
    name: &'static str,
    threshold: u32,
    cooldown: Duration,
    state: Mutex<State>,
}

impl Breaker {
    /// A breaker that opens after `threshold` consecutive failures (0: never).
    pub fn new(name: &'static str, threshold: u32, cooldown: Duration) -> Self {
        Breaker { name, threshold, cooldown, state: Mutex::new(State { consecutive: 0, open_until: None, probing: false }) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a call may go out now: `Some` admits it (after the
    /// cool-down, as the one probe), to be recorded when it ends.
    pub fn allow(&self) -> Option<Admission<'_>> {
        let admit = |probe| Some(Admission { breaker: self, probe, recorded: false });
        if self.threshold == 0 {
            return admit(false);
        }
        let mut s = self.lock();
        match s.open_until {
            Some(t) if Instant::now() < t => None,
            Some(_) if s.probing => None,
            Some(_) => {
                s.probing = true;
                admit(true)
            }
            None => admit(false),
        }
    }

    /// Like `allow`, but never lets the call out as the probe: for calls
    /// on a request's path when something else (a background task) probes,
    /// so that no request waits for a store that is known to be failing.
    pub fn allow_closed(&self) -> Option<Admission<'_>> {
        if self.threshold == 0 || self.lock().open_until.is_none() {
            return Some(Admission { breaker: self, probe: false, recorded: false });
        }
        None
    }

    fn record(&self, ok: bool) {
        if self.threshold == 0 {
            return;
        }
        let mut s = self.lock();
        s.probing = false;
        if ok {
            s.consecutive = 0;
            if s.open_until.take().is_some() {
                tracing::info!(breaker = self.name, "circuit breaker closed: calls go out again");
            }
            return;
        }
        s.consecutive = s.consecutive.saturating_add(1);
        if s.consecutive >= self.threshold {
            if s.open_until.is_none() {
                tracing::warn!(
                    breaker = self.name,
                    failures = s.consecutive,
                    cooldown_ms = self.cooldown.as_millis() as u64,
                    "circuit breaker open: calls are skipped, one probe per cool-down"
                );
            }
            s.open_until = Some(Instant::now() + self.cooldown);
        }
    }

    /// Whether calls are being skipped now (open, cool-down not over).
    pub fn is_open(&self) -> bool {
        self.lock().open_until.is_some_and(|t| Instant::now() < t)
    }

    /// Whether the breaker is open or waiting for its probe: calls that
    /// never probe (`allow_closed`) are skipped.
    pub fn is_tripped(&self) -> bool {
        self.lock().open_until.is_some()
    }

    /// How long until the next probe may go out, while the breaker is
    /// open (zero once the cool-down is over); `None` while it is closed.
    pub fn next_probe_in(&self) -> Option<Duration> {
        self.lock().open_until.map(|t| t.saturating_duration_since(Instant::now()))
    }

    /// The cool-down: how long calls are skipped before the next probe.
    pub fn cooldown(&self) -> Duration {
        self.cooldown
    }
}

/// A call the breaker let out. `record` says how it went; dropped without
/// it (the caller gave up, the future was cancelled), a probe is released so
/// the next call can probe again, and nothing is counted.
#[must_use = "record how the call went"]
pub struct Admission<'a> {
    breaker: &'a Breaker,
    probe: bool,
    recorded: bool,
}

impl Admission<'_> {
    pub fn record(mut self, ok: bool) {
        self.recorded = true;
        self.breaker.record(ok);
    }

    /// Whether this call is the probe after a cool-down.
    pub fn is_probe(&self) -> bool {
        self.probe
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        if self.probe && !self.recorded {
            self.breaker.lock().probing = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn breaker_opens_after_consecutive_failures_and_probes_once() {
        let b = Breaker::new("test", 3, Duration::from_secs(10));
        for _ in 0..3 {
            b.allow().expect("closed").record(false);
        }
        assert!(b.allow().is_none() && b.is_open());
        tokio::time::advance(Duration::from_secs(11)).await;
        let probe = b.allow().expect("one probe after the cool-down");
        assert!(probe.is_probe());
        assert!(b.allow().is_none(), "only one");
        probe.record(true);
        assert!(b.allow().is_some() && !b.is_open());
    }

    #[tokio::test(start_paused = true)]
    async fn a_cancelled_probe_never_leaves_the_breaker_stuck_open() {
        let b = Breaker::new("test", 1, Duration::from_secs(10));
        b.allow().expect("closed").record(false);
        tokio::time::advance(Duration::from_secs(11)).await;
        // The probe call is cancelled mid-flight (its caller's deadline).
        let cancelled = tokio::time::timeout(Duration::from_millis(5), async {
            let _probe = b.allow().expect("the probe");
            std::future::pending::<()>().await
        })
        .await;
        assert!(cancelled.is_err());
        // Before the fix the probe flag stayed set: no call ever again.
        let again = b.allow().expect("a new probe is let out");
        again.record(true);
        assert!(!b.is_open());
    }

    #[tokio::test(start_paused = true)]
    async fn calls_that_never_probe_are_skipped_until_the_probe_closes_the_breaker() {
        let b = Breaker::new("test", 2, Duration::from_secs(1));
        b.allow_closed().expect("closed").record(false);
        assert!(b.allow_closed().is_some(), "one failure is not enough");
        b.allow_closed().expect("closed").record(false);
        assert!(b.allow_closed().is_none() && b.is_tripped());
        tokio::time::advance(Duration::from_secs(2)).await;
        // The cool-down is over, but only the probe goes out.
        assert!(!b.is_open() && b.is_tripped());
        assert!(b.allow_closed().is_none());
        let probe = b.allow().expect("the probe");
        probe.record(false);
        assert!(b.allow_closed().is_none(), "a failed probe opens it again");
        tokio::time::advance(Duration::from_secs(2)).await;
        b.allow().expect("the next probe").record(true);
        assert!(b.allow_closed().is_some() && !b.is_tripped());
    }

    #[test]
    fn a_breaker_with_no_threshold_never_opens() {
        let b = Breaker::new("test", 0, Duration::from_secs(1));
        for _ in 0..100 {
            b.allow_closed().expect("always").record(false);
        }
        assert!(b.allow().is_some() && !b.is_tripped());
    }
}
