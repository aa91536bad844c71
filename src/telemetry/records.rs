//! Decision records: one JSON line per decision, enough to replay it
//! offline (`ladderd replay`). Written by a dedicated thread from a bounded
//! queue, so a slow disk never slows a decision: when the queue is full the
//! record is dropped and counted. The file is size-bounded with rotation
//! (`path`, `path.1`, ... `path.{max_files - 1}`).

use crate::config::Redaction;
use ladder::continuity::{ContinuityState, Cycle};
use ladder::policy::{LlmAnswer, SecondAnswer};
use ladder::ports::GuardClaim;
use ladder::types::{DecideRequest, Decision};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
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
    /// (its opaque label `c1` is `shown[0]`), when one ran (spec section
    /// 6b). Absent in records written before it existed: they still read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corroboration: Option<SecondAnswer>,
    pub events: Vec<(String, String)>,
    pub decision: Decision,
}

#[derive(Debug, Default)]
pub struct RecordStats {
    pub written: AtomicU64,
    pub dropped: AtomicU64,
    pub write_errors: AtomicU64,
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
    /// `max_files` files in all.
    pub fn open(path: &Path, max_bytes: u64, max_files: u32) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let size = file.metadata()?.len();
        let (tx, rx) = sync_channel::<String>(4096);
        let stats = Arc::new(RecordStats::default());
        let worker_stats = stats.clone();
        let path = path.to_path_buf();
        let worker = std::thread::Builder::new()
            .name("ladderd-records".into())
            .spawn(move || write_loop(rx, path, file, size, max_bytes.max(1024), max_files.max(1), worker_stats))?;
        Ok(DecisionLog { tx: std::sync::Mutex::new(Some(tx)), worker: std::sync::Mutex::new(Some(worker)), stats })
    }

    /// Queues one record; never blocks.
    pub fn write<T: Serialize>(&self, record: &T) {
        let guard = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        let Some(tx) = guard.as_ref() else { return };
        let line = match serde_json::to_string(record) {
            Ok(l) => l,
            Err(_) => {
                self.stats.write_errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
        };
        match tx.try_send(line) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                if self.stats.dropped.fetch_add(1, Ordering::Relaxed).is_multiple_of(1000) {
                    tracing::warn!("decision record queue full; records dropped");
                }
            }
        }
    }

    /// Writes what is queued and closes the file (at most `timeout`); later
    /// records are dropped.
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

fn write_loop(rx: Receiver<String>, path: PathBuf, file: File, mut size: u64, max_bytes: u64, max_files: u32, stats: Arc<RecordStats>) {
    let mut out = BufWriter::new(file);
    while let Ok(first) = rx.recv() {
        // Write what is waiting, then flush once.
        for line in std::iter::once(first).chain(rx.try_iter()) {
            let n = line.len() as u64 + 1;
            if size > 0 && size + n > max_bytes {
                let _ = out.flush();
                match rotate(&path, max_files) {
                    Ok(f) => {
                        out = BufWriter::new(f);
                        size = 0;
                    }
                    Err(e) => {
                        stats.write_errors.fetch_add(1, Ordering::Relaxed);
                        tracing::warn!(error = %e, "decision log rotation failed");
                    }
                }
            }
            match out.write_all(line.as_bytes()).and_then(|_| out.write_all(b"\n")) {
                Ok(()) => {
                    size += n;
                    stats.written.fetch_add(1, Ordering::Relaxed);
                }
                Err(_) => {
                    stats.write_errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        let _ = out.flush();
    }
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

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
