//! Decision records: one JSON line per decision, enough to replay it
//! offline (`ladderd replay`). Written by a dedicated thread from a bounded
//! queue, so a slow disk never slows a decision: when the queue is full the
//! record is dropped and counted. The file is size-bounded with rotation
//! (`path`, `path.1`, ... `path.{max_files - 1}`).
//!
//! Nothing is lost silently: a record that cannot be written (no space,
//! an I/O error, a read-only file, its directory removed) is counted by
//! reason (`ladder_decision_records_dropped_total{reason}`) and logged once
//! per reason per interval; the file is reopened every second until
//! writing works again, and records resume.

use crate::config::Redaction;
use ladder::continuity::{ContinuityState, Cycle};
use ladder::policy::{LlmAnswer, SecondAnswer};
use ladder::ports::GuardClaim;
use ladder::types::{DecideRequest, Decision};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// The schema of decision records (`telemetry.decision_log`).
pub const RECORD_SCHEMA: &str = "ladder.record.v1";

/// One line of the decision log: enough to replay the decision offline.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct DecisionRecord {
    pub schema: String,
    pub ts_ms: i64,
    /// `decide` or `enrich`.
    pub call: super::Call,
    /// How user text was written (`off` records replay exactly).
    pub redaction: Redaction,
    pub canonical_input: String,
    pub request: DecideRequest,
    /// The session's continuity state as the ladder saw it.
    pub state: ContinuityState,
    /// For `enrich`: the cycle the step ran on.
    pub cycle: Option<Cycle>,
    pub guard: Option<GuardClaim>,
    pub llm_answer: Option<LlmAnswer>,
    /// The corroborating ask's answer and the real ids it showed in order
    /// (its opaque label `c1` is `shown[0]`), when one ran.
    /// Absent in records written before it existed: they still read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corroboration: Option<SecondAnswer>,
    pub events: Vec<(String, String)>,
    /// The decision; its `follow_up.text` redacted as the input is.
    pub decision: Decision,
    /// The length of the decision's follow-up text, in characters (what
    /// is left of it under `hash` and `drop`, with its kind); absent
    /// without a follow-up, and in records written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up_chars: Option<usize>,
}

/// Why a decision record was lost (`ladder_decision_records_dropped_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum DropReason {
    /// The writer fell behind: its queue (4,096 records) was full.
    QueueFull,
    /// No space left on the device (or over a quota).
    NoSpace,
    /// A read-only file system, or a file or directory we may not write.
    ReadOnly,
    /// The file's directory is gone.
    Missing,
    /// Any other I/O error.
    IoError,
    /// Written after the log was closed (shutdown).
    Closed,
}

impl DropReason {
    pub const ALL: &'static [DropReason] = <DropReason as strum::VariantArray>::VARIANTS;

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    fn of(e: &std::io::Error) -> Self {
        use std::io::ErrorKind as K;
        match (e.kind(), e.raw_os_error()) {
            // ENOSPC, EDQUOT
            (K::StorageFull | K::QuotaExceeded, _) | (_, Some(28 | 122)) => DropReason::NoSpace,
            // EROFS, EACCES, EPERM, EBADF (a file opened read-only)
            (K::ReadOnlyFilesystem | K::PermissionDenied, _) | (_, Some(30 | 13 | 1 | 9)) => DropReason::ReadOnly,
            (K::NotFound, _) | (_, Some(2 | 20)) => DropReason::Missing,
            _ => DropReason::IoError,
        }
    }
}

/// What happened to the records: written, and lost by reason.
#[derive(Debug, Default)]
pub struct RecordStats {
    pub written: AtomicU64,
    /// Records lost, all reasons together.
    pub dropped: AtomicU64,
    /// Records lost, by `DropReason` (its index).
    by_reason: [AtomicU64; DropReason::ALL.len()],
    /// Failed rotations (the record was then written to the current file).
    pub write_errors: AtomicU64,
}

impl RecordStats {
    /// Records lost for `reason`.
    pub fn dropped_for(&self, reason: DropReason) -> u64 {
        self.by_reason[reason as usize].load(Ordering::Relaxed)
    }

    fn drop_one(&self, reason: DropReason) {
        self.dropped.fetch_add(1, Ordering::Relaxed);
        self.by_reason[reason as usize].fetch_add(1, Ordering::Relaxed);
    }
}

pub struct DecisionLog {
    tx: std::sync::Mutex<Option<SyncSender<String>>>,
    worker: std::sync::Mutex<Option<JoinHandle<()>>>,
    pub stats: Arc<RecordStats>,
}

impl std::fmt::Debug for DecisionLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecisionLog").finish_non_exhaustive()
    }
}

impl DecisionLog {
    /// Opens (appends to) `path`, rotating at `max_bytes`, keeping
    /// `max_files` files in all. A file that cannot be opened now is an
    /// error (the daemon refuses to start); later faults are counted.
    pub fn open(path: &Path, max_bytes: u64, max_files: u32) -> std::io::Result<Self> {
        Self::open_with(RealFiles, path, max_bytes, max_files)
    }

    /// `open` on a file system of the caller's (tests inject faults).
    pub fn open_with<F: Files>(mut files: F, path: &Path, max_bytes: u64, max_files: u32) -> std::io::Result<Self> {
        let (file, size) = files.open(path)?;
        let (tx, rx) = sync_channel::<String>(4096);
        let stats = Arc::new(RecordStats::default());
        let writer = Writer {
            files,
            path: path.to_path_buf(),
            file: Some(file),
            size,
            max_bytes: max_bytes.max(1024),
            max_files: max_files.max(1),
            stats: stats.clone(),
            broken: None,
            reopened_at: None,
        };
        let worker = std::thread::Builder::new().name("ladderd-records".into()).spawn(move || writer.write_until_closed(rx))?;
        Ok(DecisionLog { tx: std::sync::Mutex::new(Some(tx)), worker: std::sync::Mutex::new(Some(worker)), stats })
    }

    /// Queues one record; never blocks.
    pub fn write<T: Serialize>(&self, record: &T) {
        let guard = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        let Some(tx) = guard.as_ref() else {
            self.stats.drop_one(DropReason::Closed);
            return;
        };
        let line = match serde_json::to_string(record) {
            Ok(l) => l,
            Err(e) => {
                self.stats.drop_one(DropReason::IoError);
                crate::warn_every!("decision record lost: encode", error = %e, "decision record lost: it could not be encoded");
                return;
            }
        };
        match tx.try_send(line) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                self.stats.drop_one(DropReason::QueueFull);
                crate::warn_every!(
                    "decision records lost: queue_full",
                    reason = DropReason::QueueFull.as_str(),
                    dropped_total = self.stats.dropped.load(Ordering::Relaxed),
                    "decision records lost: the writer fell behind (queue full)"
                );
            }
            Err(TrySendError::Disconnected(_)) => self.stats.drop_one(DropReason::Closed),
        }
    }

    /// Writes what is queued and closes the file (at most `timeout`); later
    /// records are dropped (counted as `closed`).
    pub fn flush(&self, timeout: Duration) {
        self.tx.lock().unwrap_or_else(|p| p.into_inner()).take();
        let worker = self.worker.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(w) = worker {
            let deadline = std::time::Instant::now() + timeout;
            while !w.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if w.is_finished() {
                let _ = w.join();
            }
        }
    }
}

impl Drop for DecisionLog {
    fn drop(&mut self) {
        self.flush(Duration::from_secs(2));
    }
}

/// The file system the writer thread uses: the real one (`RealFiles`), or
/// one a test makes fail on demand.
pub trait Files: Send + 'static {
    type File: Write + Send;
    /// Opens `path` for appending (created if missing), with its size.
    fn open(&mut self, path: &Path) -> std::io::Result<(Self::File, u64)>;
    /// Shifts `path` to `path.1`, ... (the oldest beyond `max_files` goes)
    /// and opens a fresh, empty `path`.
    fn rotate(&mut self, path: &Path, max_files: u32) -> std::io::Result<Self::File>;
    /// Cuts `file` back to `len` bytes (a record written in part).
    fn truncate(&mut self, file: &mut Self::File, len: u64) -> std::io::Result<()>;
    /// Whether `file` is still the file at `path`: one removed or replaced
    /// under the writer (its directory deleted, a log rotation by another
    /// tool) is reopened, since what it holds can no longer be read.
    fn still_at(&mut self, file: &Self::File, path: &Path) -> bool;
}

/// The real file system.
pub struct RealFiles;

impl Files for RealFiles {
    type File = File;

    fn open(&mut self, path: &Path) -> std::io::Result<(File, u64)> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let size = file.metadata()?.len();
        Ok((file, size))
    }

    fn rotate(&mut self, path: &Path, max_files: u32) -> std::io::Result<File> {
        rotate(path, max_files)
    }

    fn truncate(&mut self, file: &mut File, len: u64) -> std::io::Result<()> {
        file.set_len(len)
    }

    #[cfg(unix)]
    fn still_at(&mut self, file: &File, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(open), Ok(named)) => open.ino() == named.ino() && open.dev() == named.dev(),
            _ => false,
        }
    }

    #[cfg(not(unix))]
    fn still_at(&mut self, _file: &File, path: &Path) -> bool {
        path.exists()
    }
}

fn rotated(path: &Path, i: u32) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{i}"));
    PathBuf::from(s)
}

fn rotate(path: &Path, max_files: u32) -> std::io::Result<File> {
    if max_files > 1 {
        for i in (1..max_files - 1).rev() {
            let from = rotated(path, i);
            if from.exists() {
                std::fs::rename(&from, rotated(path, i + 1))?;
            }
        }
        std::fs::rename(path, rotated(path, 1))?;
    }
    OpenOptions::new().create(true).write(true).truncate(true).open(path)
}

/// A file that cannot be written is tried again this often (reopened);
/// shorter in unit tests, which wait for it.
const REOPEN_EVERY: Duration = if cfg!(test) { Duration::from_millis(50) } else { Duration::from_secs(1) };

/// The writer thread: one record a write, so a failure loses exactly the
/// record it was writing (counted by reason), never a buffer of them; a
/// record written in part is cut off again, so the file holds whole lines
/// only. After a failure the file is closed and reopened at most every
/// `REOPEN_EVERY`: records resume as soon as writing works again (space
/// freed, the directory back), and until then each is counted as lost.
struct Writer<F: Files> {
    files: F,
    path: PathBuf,
    file: Option<F::File>,
    size: u64,
    max_bytes: u64,
    max_files: u32,
    stats: Arc<RecordStats>,
    /// Why records are being lost now (None: they are written).
    broken: Option<DropReason>,
    reopened_at: Option<std::time::Instant>,
}

impl<F: Files> Writer<F> {
    fn write_until_closed(mut self, rx: Receiver<String>) {
        while let Ok(first) = rx.recv() {
            // What is waiting is written now; the file is checked once a
            // batch (still the one at the path?).
            if let Some(f) = &self.file
                && !self.files.still_at(f, &self.path)
            {
                self.file = None;
                self.reopened_at = None;
            }
            for line in std::iter::once(first).chain(rx.try_iter()) {
                self.write(&line);
            }
            if let Some(f) = self.file.as_mut()
                && let Err(e) = f.flush()
            {
                self.failed(&e);
            }
        }
        if let Some(f) = self.file.as_mut() {
            let _ = f.flush();
        }
    }

    fn write(&mut self, line: &str) {
        if self.file.is_none() && self.reopened_at.is_none_or(|t| t.elapsed() >= REOPEN_EVERY) {
            self.reopened_at = Some(std::time::Instant::now());
            match self.files.open(&self.path) {
                Ok((f, size)) => {
                    self.file = Some(f);
                    self.size = size;
                }
                Err(e) => self.failed(&e),
            }
        }
        let Some(file) = self.file.as_mut() else {
            self.stats.drop_one(self.broken.unwrap_or(DropReason::IoError));
            return;
        };
        let n = line.len() as u64 + 1;
        if self.size > 0 && self.size + n > self.max_bytes {
            let _ = file.flush();
            match self.files.rotate(&self.path, self.max_files) {
                Ok(f) => {
                    *file = f;
                    self.size = 0;
                }
                Err(e) => {
                    self.stats.write_errors.fetch_add(1, Ordering::Relaxed);
                    crate::warn_every!("decision log rotation failed", error = %e, "decision log rotation failed");
                }
            }
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match file.write_all(&bytes) {
            Ok(()) => {
                self.size += n;
                self.stats.written.fetch_add(1, Ordering::Relaxed);
                if let Some(was) = self.broken.take() {
                    tracing::info!(after = was.as_str(), "decision records written again");
                }
            }
            Err(e) => {
                // Whole lines only: what went in of this one is cut off.
                let _ = self.files.truncate(file, self.size);
                self.failed(&e);
                self.stats.drop_one(self.broken.unwrap_or(DropReason::IoError));
            }
        }
    }

    /// Writing (or opening) failed: counted from now on under its reason,
    /// logged once per reason per interval; the file is reopened later.
    fn failed(&mut self, e: &std::io::Error) {
        let reason = DropReason::of(e);
        self.broken = Some(reason);
        self.file = None;
        self.reopened_at.get_or_insert_with(std::time::Instant::now);
        crate::warn_every!(
            &format!("decision records lost: {}", reason.as_str()),
            reason = reason.as_str(),
            error = %e,
            dropped_total = self.stats.dropped.load(Ordering::Relaxed),
            path = %self.path.display(),
            "decision records lost: the decision log cannot be written; retrying every second"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A file system that fails on demand: while `fault` is set, every
    /// open fails with it, and every write puts half its bytes in, then
    /// fails with it. One file, its bytes in `bytes`.
    #[derive(Clone, Default)]
    struct Faulty(Arc<Mutex<FaultyState>>);

    #[derive(Default)]
    struct FaultyState {
        fault: Option<std::io::Error>,
        bytes: Vec<u8>,
        opens: usize,
    }

    struct FaultyFile(Arc<Mutex<FaultyState>>);

    fn same(e: &std::io::Error) -> std::io::Error {
        match e.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code),
            None => std::io::Error::new(e.kind(), e.to_string()),
        }
    }

    impl Write for FaultyFile {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let mut s = self.0.lock().unwrap();
            if let Some(e) = &s.fault {
                let e = same(e);
                let half = buf.len() / 2;
                s.bytes.extend_from_slice(&buf[..half]);
                return Err(e);
            }
            s.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Files for Faulty {
        type File = FaultyFile;
        fn open(&mut self, _: &Path) -> std::io::Result<(FaultyFile, u64)> {
            let mut s = self.0.lock().unwrap();
            s.opens += 1;
            match &s.fault {
                Some(e) => Err(same(e)),
                None => Ok((FaultyFile(self.0.clone()), s.bytes.len() as u64)),
            }
        }
        fn rotate(&mut self, _: &Path, _: u32) -> std::io::Result<FaultyFile> {
            Ok(FaultyFile(self.0.clone()))
        }
        fn truncate(&mut self, _: &mut FaultyFile, len: u64) -> std::io::Result<()> {
            self.0.lock().unwrap().bytes.truncate(len as usize);
            Ok(())
        }
        fn still_at(&mut self, _: &FaultyFile, _: &Path) -> bool {
            true
        }
    }

    fn until(what: &str, f: impl Fn() -> bool) {
        let end = std::time::Instant::now() + Duration::from_secs(10);
        while !f() {
            assert!(std::time::Instant::now() < end, "{what}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// For each fault the writer meets (no space, a
    /// read-only file system, a file it may not write, its directory gone,
    /// any other I/O error), every record that was not written is counted
    /// under that reason, the file keeps whole lines only, and records
    /// resume (the file reopened) once writing works again.
    #[test]
    fn every_record_lost_to_a_write_fault_is_counted_by_reason_and_writing_resumes() {
        let cases = [
            (std::io::Error::from_raw_os_error(28), DropReason::NoSpace),
            (std::io::Error::from(std::io::ErrorKind::StorageFull), DropReason::NoSpace),
            (std::io::Error::from_raw_os_error(30), DropReason::ReadOnly),
            (std::io::Error::from_raw_os_error(13), DropReason::ReadOnly),
            (std::io::Error::from_raw_os_error(2), DropReason::Missing),
            (std::io::Error::from_raw_os_error(5), DropReason::IoError),
        ];
        for (fault, reason) in cases {
            let fs = Faulty::default();
            let log = DecisionLog::open_with(fs.clone(), Path::new("decisions.jsonl"), 1 << 20, 3).unwrap();
            let record = |i: usize| serde_json::json!({"i": i, "pad": "x".repeat(100)});
            for i in 0..10 {
                log.write(&record(i));
            }
            until("written", || log.stats.written.load(Ordering::Relaxed) == 10);
            fs.0.lock().unwrap().fault = Some(fault);
            for i in 10..30 {
                log.write(&record(i));
            }
            until("lost", || log.stats.dropped.load(Ordering::Relaxed) == 20);
            fs.0.lock().unwrap().fault = None;
            // Reopened on the next record once REOPEN_EVERY has passed.
            std::thread::sleep(REOPEN_EVERY + Duration::from_millis(20));
            for i in 30..40 {
                log.write(&record(i));
            }
            log.flush(Duration::from_secs(5));
            let s = &log.stats;
            assert_eq!(
                (s.written.load(Ordering::Relaxed), s.dropped_for(reason), s.dropped.load(Ordering::Relaxed)),
                (20, 20, 20),
                "{reason:?}"
            );
            let text = String::from_utf8(fs.0.lock().unwrap().bytes.clone()).unwrap();
            let kept: Vec<u64> =
                text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["i"].as_u64().unwrap()).collect();
            assert_eq!(kept, (0..10).chain(30..40).collect::<Vec<_>>(), "{reason:?}: whole lines, the lost ones absent");
            assert!(fs.0.lock().unwrap().opens >= 2, "{reason:?}: reopened");
        }
    }

    /// The directory of the log removed under the writer (the file itself
    /// still open: on Linux writes to it would succeed and vanish): records
    /// are counted as lost (`missing`) until it is back, then written to a
    /// new file there.
    #[test]
    fn records_written_after_the_logs_directory_was_removed_are_counted_until_it_is_back() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("records");
        std::fs::create_dir(&sub).unwrap();
        let path = sub.join("decisions.jsonl");
        let log = DecisionLog::open(&path, 1 << 20, 3).unwrap();
        for i in 0..5 {
            log.write(&serde_json::json!({"i": i}));
        }
        until("written", || log.stats.written.load(Ordering::Relaxed) == 5);
        std::fs::remove_dir_all(&sub).unwrap();
        for i in 5..12 {
            log.write(&serde_json::json!({"i": i}));
        }
        until("lost", || log.stats.dropped_for(DropReason::Missing) == 7);
        std::fs::create_dir(&sub).unwrap();
        std::thread::sleep(REOPEN_EVERY + Duration::from_millis(20));
        for i in 12..15 {
            log.write(&serde_json::json!({"i": i}));
        }
        log.flush(Duration::from_secs(5));
        assert_eq!((log.stats.written.load(Ordering::Relaxed), log.stats.dropped.load(Ordering::Relaxed)), (8, 7));
        let back = std::fs::read_to_string(&path).unwrap();
        assert_eq!(back.lines().count(), 3, "{back}");
    }

    #[test]
    fn records_rotate_and_stay_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("decisions.jsonl");
        let log = DecisionLog::open(&path, 2048, 3).unwrap();
        for i in 0..200 {
            log.write(&serde_json::json!({"i": i, "pad": "x".repeat(40)}));
        }
        log.flush(Duration::from_secs(5));
        let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 3, "{files:?}");
        for f in &files {
            assert!(std::fs::metadata(f).unwrap().len() <= 2048, "{f:?}");
        }
        let newest = std::fs::read_to_string(&path).unwrap();
        let last: serde_json::Value = serde_json::from_str(newest.lines().last().unwrap()).unwrap();
        assert_eq!(last["i"], 199, "nothing lost at the end");
        assert_eq!(log.stats.written.load(Ordering::Relaxed), 200);
    }
}
