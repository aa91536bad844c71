//! Reading the files a configuration names, and the configuration file
//! itself: one reader for all of them, at start, on every reload and in
//! `ladderd config --check` alike.
//!
//! A file is read only if it is a regular file (symbolic links followed),
//! of at most its kind's size bound, within its kind's deadline
//! ([`Kind`]): a FIFO, a device, a socket or a directory is refused by its
//! kind before it is opened (a FIFO would wait for a writer forever,
//! `/dev/zero` never ends), a larger file by its size (a sparse file of
//! gigabytes would be read whole), and a read that does not finish in time
//! (a stalled network file system) is given up. The caller names the key
//! the file came from; the error ([`FileError`]) says what is wrong with
//! the file, never what it holds.
//!
//! The bound of each kind is stated at its keys in docs/configuration.md
//! (`tests::docs_state_each_kinds_bound_at_its_keys`).

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// A kind of file: what it is called, the most bytes it may have, and how
/// long reading it may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// What it is, in a message ("a model file").
    pub what: &'static str,
    pub max: u64,
    pub deadline: Duration,
}

/// How long reading a text file may take: a few MiB at most, read in
/// milliseconds from a local disk.
pub const TEXT_DEADLINE: Duration = Duration::from_secs(5);

/// The configuration file (`--config`, `LADDER_CONFIG`), at start and in
/// the reload watcher: every key with its default, as `ladderd config`
/// prints them, is 3.4 KiB.
pub const CONFIG: Kind = Kind { what: "a configuration file", max: 1 << 20, deadline: TEXT_DEADLINE };

/// `lexicon.path`: the shipped lexicon is 45 KiB; room for every phrase
/// list in dozens of languages.
pub const LEXICON: Kind = Kind { what: "a lexicon", max: 4 << 20, deadline: TEXT_DEADLINE };

/// `clarifier.templates_path`, `clarify.templates_path`: the shipped ones
/// are 1.6 and 2.4 KiB.
pub const TEMPLATES: Kind = Kind { what: "a template file", max: 1 << 20, deadline: TEXT_DEADLINE };

/// `llm.api_key_file`, `extract.agents[].api_key_file`, `admin.token_file`,
/// `sessions.redis.url_file`, `sessions.redis.password_file`: a key, a
/// token, a URL or a password (an admin token has at most 4,096
/// characters).
pub const SECRET: Kind = Kind { what: "a secret file", max: 64 << 10, deadline: TEXT_DEADLINE };

/// `semantic.model`: the shipped model is 7.8 MiB (8,182,052 bytes,
/// int8); this leaves room for a float32 table of the same vocabulary at
/// twice its dimensions (60 MB).
pub const MODEL: Kind = Kind { what: "a model file", max: 64 << 20, deadline: Duration::from_secs(10) };

/// Every kind, with the keys that name a file of it (`config`: the
/// configuration file).
pub const KINDS: &[(&Kind, &[&str])] = &[
    (&CONFIG, &["config"]),
    (&LEXICON, &["lexicon.path"]),
    (&TEMPLATES, &["clarifier.templates_path", "clarify.templates_path"]),
    (&SECRET, &["admin.token_file", "llm.api_key_file", "extract.agents", "sessions.redis.url_file", "sessions.redis.password_file"]),
    (&MODEL, &["semantic.model"]),
];

/// Why a file was not read. Never carries what the file holds.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// It cannot be looked at, opened or read (missing included).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file: refused by its kind, before it was opened.
    #[error("a {found}, not a regular file")]
    NotRegular { found: &'static str },
    /// Over its kind's bound (`len`: its size, when known before reading).
    #[error("{}, over the {} {what} may have", over(.len), size(*.max))]
    TooLarge { len: Option<u64>, max: u64, what: &'static str },
    /// Not read within its kind's deadline; the read goes on, on a thread
    /// of its own, until the file answers, and what it reads is dropped.
    #[error("not read within {} s", .0.as_secs_f64())]
    TimedOut(Duration),
    /// Not tried: [`MAX_STALLED`] reads given up earlier still hang (a
    /// file system that does not answer), each holding a thread.
    #[error("not read: {0} reads given up earlier still wait on the file system")]
    Stalled(usize),
    /// A text file whose bytes are not UTF-8.
    #[error("not UTF-8 text")]
    NotText,
}

impl FileError {
    /// Whether the file is not there (the reload watcher says so apart).
    pub fn is_missing(&self) -> bool {
        matches!(self, FileError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What is known of a file's size when it is found too large.
fn over(len: &Option<u64>) -> String {
    len.map_or_else(|| "more bytes".to_string(), |n| format!("{n} bytes"))
}

/// `max` bytes as docs/configuration.md states a bound: "64 MiB",
/// "64 KiB", or "1000 bytes".
pub fn size(max: u64) -> String {
    match max {
        m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("{} MiB", m >> 20),
        m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("{} KiB", m >> 10),
        m => format!("{m} bytes"),
    }
}

/// The bytes of the regular file at `path` (symbolic links followed), of
/// kind `kind`: its kind and size checked before it is opened and again
/// on what was opened, read within its deadline.
pub fn read(path: &Path, kind: &Kind) -> Result<Vec<u8>, FileError> {
    let (path, kind_) = (path.to_path_buf(), *kind);
    within(kind.deadline, move || read_now(&path, &kind_))
}

/// The text of the regular file at `path`, read as [`read`] does; UTF-8.
pub fn read_text(path: &Path, kind: &Kind) -> Result<String, FileError> {
    String::from_utf8(read(path, kind)?).map_err(|_| FileError::NotText)
}

/// [`read_text`], its error as the daemon reports it: the path, then what
/// is wrong (the caller names the key).
pub fn read_text_at(path: &Path, kind: &Kind) -> Result<String, String> {
    read_text(path, kind).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_now(path: &Path, kind: &Kind) -> Result<Vec<u8>, FileError> {
    // Its kind first, from the path alone: opening a FIFO, even without
    // reading it, can wait for a writer.
    regular(&std::fs::metadata(path)?, kind)?;
    let file = open_without_waiting(path)?;
    // Again on what was opened: the path may have been replaced meanwhile.
    regular(&file.metadata()?, kind)?;
    bounded(file, kind)
}

/// Refuses anything but a regular file within `kind`'s bound.
fn regular(meta: &std::fs::Metadata, kind: &Kind) -> Result<(), FileError> {
    let found = kind_of(&meta.file_type());
    if found != "regular file" {
        return Err(FileError::NotRegular { found });
    }
    if meta.len() > kind.max {
        return Err(FileError::TooLarge { len: Some(meta.len()), max: kind.max, what: kind.what });
    }
    Ok(())
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_char_device() {
            return "character device";
        }
        if t.is_block_device() {
            return "block device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    if t.is_dir() {
        "directory"
    } else if t.is_file() {
        "regular file"
    } else {
        "special file"
    }
}

/// Opens `path` for reading; on Unix without waiting (`O_NONBLOCK`, which
/// changes nothing for a regular file), should it have become a FIFO since
/// it was looked at.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// At most `kind.max` bytes of `r` (more is an error: never more than one
/// byte over is read).
fn bounded(r: impl Read, kind: &Kind) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    r.take(kind.max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > kind.max {
        return Err(FileError::TooLarge { len: None, max: kind.max, what: kind.what });
    }
    Ok(bytes)
}

/// How many reads given up at their deadline may still hang, each on a
/// thread of its own, before no new read is tried: a file system that
/// never answers, polled by the reload watcher every second, would
/// otherwise hold one more thread every few seconds for as long as it
/// lasts. Reads that finish in time are not counted: any number may run
/// at once.
pub const MAX_STALLED: usize = 8;

/// The reads given up at their deadline whose threads still wait.
static STALLED: AtomicUsize = AtomicUsize::new(0);

/// `f`'s result, run on a thread of its own and given up after
/// `deadline`: the caller never waits longer (looking at the file, opening
/// it and reading it may each stall on a network file system). A read
/// given up goes on until its file answers; what it makes is dropped.
fn within<T: Send + 'static>(deadline: Duration, f: impl FnOnce() -> Result<T, FileError> + Send + 'static) -> Result<T, FileError> {
    within_counted(&STALLED, deadline, f)
}

/// [`within`], the reads given up whose threads still wait counted in
/// `stalled`: while [`MAX_STALLED`] do, no new one is started.
fn within_counted<T: Send + 'static>(
    stalled: &'static AtomicUsize,
    deadline: Duration,
    f: impl FnOnce() -> Result<T, FileError> + Send + 'static,
) -> Result<T, FileError> {
    let now = stalled.load(Ordering::Acquire);
    if now >= MAX_STALLED {
        return Err(FileError::Stalled(now));
    }
    // Whichever of the caller (giving up) and the thread (ending, a panic
    // included) comes second sees the flag set: a read is counted only if
    // it was given up first, and uncounted when its thread ends.
    struct Ends {
        given_up: Arc<AtomicBool>,
        stalled: &'static AtomicUsize,
    }
    impl Drop for Ends {
        fn drop(&mut self) {
            if self.given_up.swap(true, Ordering::AcqRel) {
                self.stalled.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }
    let given_up = Arc::new(AtomicBool::new(false));
    let ends = Ends { given_up: given_up.clone(), stalled };
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new().name("ladderd-file-read".into()).spawn(move || {
        let read = f();
        drop(ends);
        let _ = tx.send(read);
    })?;
    match rx.recv_timeout(deadline) {
        Ok(read) => read,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            if !given_up.swap(true, Ordering::AcqRel) {
                stalled.fetch_add(1, Ordering::AcqRel);
            }
            Err(FileError::TimedOut(deadline))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(FileError::Io(std::io::Error::other("the read stopped"))),
    }
}

#[cfg(test)]
mod tests;
