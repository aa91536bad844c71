//! Panics, reported through the log like everything else.
//!
//! No panic should be reachable from a request; if one is anyway, it must
//! cost a log line per interval, not a burst of raw text per request. The
//! default panic hook writes three lines of plain text to stderr on every
//! panic, outside the log formatter (not JSON when the log is), unthrottled
//! and uncounted: 5,000 requests that panicked wrote 15,001 lines in 0.8 s
//! with it. `install_hook` (at startup, `telemetry::init`) replaces it:
//!
//! - inside a call (the service boundary, `grpc::stack::CatchPanic`, polls
//!   the call within `in_call`), the hook only notes where it panicked
//!   (`caught`); the boundary catches the unwind, answers INTERNAL, counts
//!   it (`ladder_panics_total{call}`) and logs it once per place per
//!   interval;
//! - anywhere else (startup, a background task, a connection's task) it
//!   logs the panic through `tracing`, once per place per interval, whole:
//!   a process-level fault stays visible, with its reason.
//!
//! Without a subscriber to log to (before logging is set up, or in a
//! program that never sets it up) the default hook prints as before.

use std::any::Any;
use std::cell::Cell;
use std::panic::PanicHookInfo;
use std::sync::Once;

#[cfg(test)]
thread_local! {
    /// Panics on this thread the default hook printed (tests read it).
    pub static PRINTED: Cell<u32> = const { Cell::new(0) };
}

thread_local! {
    /// Whether this thread is polling a call under its boundary.
    static IN_CALL: Cell<bool> = const { Cell::new(false) };
    /// Where the last panic inside a call on this thread happened.
    static CAUGHT: Cell<Option<String>> = const { Cell::new(None) };
}

/// Runs `f` as part of a call: a panic in it is left to the call's
/// boundary to report (which must catch it on this thread and take
/// `caught`).
pub fn in_call<R>(f: impl FnOnce() -> R) -> R {
    /// Put back as it was, on return and on unwind alike.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            IN_CALL.set(self.0);
        }
    }
    let _restore = Restore(IN_CALL.replace(true));
    f()
}

/// Where the panic a boundary just caught on this thread happened
/// (`file:line:column`), as the hook noted it; `None` without the hook.
pub fn caught() -> Option<String> {
    CAUGHT.take()
}

/// A panic's message when it is a fixed text (`panic!("...")`, an
/// overflow, `Option::unwrap`): written in the code, safe to log. A
/// formatted message may quote the request (a string sliced off a char
/// boundary is quoted in it), and logs never carry user text: `None`.
pub fn fixed_text(payload: &(dyn Any + Send)) -> Option<&'static str> {
    payload.downcast_ref::<&'static str>().copied()
}

/// Replaces the default panic hook (see the module docs). Once per
/// process; later calls do nothing.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| hook(info, &*default)));
    });
}

fn hook(info: &PanicHookInfo<'_>, default: &(dyn Fn(&PanicHookInfo<'_>) + Send + Sync)) {
    let location = info.location().map_or_else(|| "unknown".to_string(), |l| l.to_string());
    if IN_CALL.get() {
        CAUGHT.set(Some(location));
        return;
    }
    let logged = tracing::dispatcher::get_default(|d| !d.is::<tracing::subscriber::NoSubscriber>());
    if !logged {
        #[cfg(test)]
        PRINTED.set(PRINTED.get() + 1);
        default(info);
        return;
    }
    let payload = info.payload();
    let panic = fixed_text(payload).or_else(|| payload.downcast_ref::<String>().map(String::as_str)).unwrap_or("(not text)");
    let thread = std::thread::current();
    crate::error_every!(
        &format!("panic at {location}"),
        location = %location,
        thread = thread.name().unwrap_or("unnamed"),
        panic,
        "a thread panicked outside a call"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_call_is_undone_on_return_and_on_unwind() {
        assert!(!IN_CALL.get());
        assert!(in_call(|| IN_CALL.get()));
        assert!(!IN_CALL.get());
        let unwound = std::panic::catch_unwind(|| in_call(|| std::panic::resume_unwind(Box::new("boom"))));
        assert!(unwound.is_err());
        assert!(!IN_CALL.get(), "restored after the unwind");
    }

    #[test]
    fn only_a_fixed_text_is_taken_for_a_loggable_message() {
        let fixed: Box<dyn Any + Send> = Box::new("attempt to subtract with overflow");
        assert_eq!(fixed_text(&*fixed), Some("attempt to subtract with overflow"));
        let formatted: Box<dyn Any + Send> = Box::new(format!("byte index 1 is not a char boundary; it is inside 'é' of `{}`", "é"));
        assert_eq!(fixed_text(&*formatted), None);
    }
}
