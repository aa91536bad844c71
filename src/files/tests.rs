use super::*;
use std::path::PathBuf;

/// `f`'s result, on a thread given a minute: a call that waits forever
/// fails the test instead of hanging it.
fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(Duration::from_secs(60)).expect("returned, without waiting on the file")
}

#[test]
fn what_is_not_a_regular_file_is_refused_by_its_kind_unread() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let socket = d.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let to_zero = d.join("to-zero");
    std::os::unix::fs::symlink("/dev/zero", &to_zero).unwrap();
    for (path, found) in [
        (fifo, "FIFO"),
        (PathBuf::from("/dev/zero"), "character device"),
        (to_zero, "character device"),
        (socket, "socket"),
        (d.to_path_buf(), "directory"),
    ] {
        for kind in [CONFIG, LEXICON, TEMPLATES, SECRET, MODEL] {
            // Nothing here may wait: a FIFO read would never end, nor
            // would one of /dev/zero without the bound.
            let p = path.clone();
            let e = within_a_minute(move || read(&p, &kind)).unwrap_err();
            assert!(matches!(e, FileError::NotRegular { found: f } if f == found), "{}: {e}", path.display());
            assert_eq!(e.to_string(), format!("a {found}, not a regular file"));
        }
    }
}

#[test]
fn a_file_over_its_kinds_bound_is_refused_by_its_size_unread() {
    let dir = tempfile::tempdir().unwrap();
    // Sparse: 2 GiB on disk is nothing, read whole it is 2 GiB of memory.
    let sparse = dir.path().join("sparse");
    std::fs::File::create(&sparse).unwrap().set_len(2 << 30).unwrap();
    let e = within_a_minute(move || read(&sparse, &MODEL)).unwrap_err();
    assert_eq!(e.to_string(), "2147483648 bytes, over the 64 MiB a model file may have");
    // One byte over a secret file's bound, and exactly at it.
    let over = dir.path().join("over");
    std::fs::write(&over, vec![b'k'; SECRET.max as usize + 1]).unwrap();
    assert_eq!(read(&over, &SECRET).unwrap_err().to_string(), "65537 bytes, over the 64 KiB a secret file may have");
    std::fs::write(&over, vec![b'k'; SECRET.max as usize]).unwrap();
    assert_eq!(read(&over, &SECRET).unwrap().len() as u64, SECRET.max);
}

#[test]
fn a_regular_file_is_read_through_a_symbolic_link_and_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lexicon.toml");
    std::fs::write(&file, "[en]\n").unwrap();
    let link = dir.path().join("..data");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    assert_eq!(read_text(&link, &LEXICON).unwrap(), "[en]\n");
    std::fs::write(&file, [0xff, 0xfe]).unwrap();
    assert!(matches!(read_text(&file, &LEXICON), Err(FileError::NotText)));
    let missing = read(&dir.path().join("missing"), &LEXICON).unwrap_err();
    assert!(missing.is_missing(), "{missing}");
    assert!(!FileError::NotRegular { found: "FIFO" }.is_missing());
    assert_eq!(
        read_text_at(&dir.path().join("missing"), &LEXICON).unwrap_err(),
        format!("{}: No such file or directory (os error 2)", dir.path().join("missing").display())
    );
}

#[test]
fn a_read_that_does_not_finish_by_its_deadline_is_given_up() {
    // A pipe whose writer stays open and writes nothing: the read never
    // ends on its own.
    let (reader, writer) = std::io::pipe().unwrap();
    let kind = Kind { deadline: Duration::from_millis(50), ..LEXICON };
    let e = within_a_minute(move || within(kind.deadline, move || bounded(reader, &kind))).unwrap_err();
    assert!(matches!(e, FileError::TimedOut(_)), "{e}");
    assert_eq!(e.to_string(), "not read within 0.05 s");
    // The reading thread ends once its file does.
    drop(writer);
}

/// Reads given up that still hang are bounded: past `MAX_STALLED` of them,
/// no new reading thread is started, and reads resume once they end.
#[test]
fn past_max_stalled_hanging_reads_no_new_one_is_started() {
    static STALLED: AtomicUsize = AtomicUsize::new(0);
    let kind = Kind { deadline: Duration::from_millis(20), ..SECRET };
    let mut writers = Vec::new();
    for _ in 0..MAX_STALLED {
        let (reader, writer) = std::io::pipe().unwrap();
        writers.push(writer);
        let e = within_a_minute(move || within_counted(&STALLED, kind.deadline, move || bounded(reader, &kind))).unwrap_err();
        assert!(matches!(e, FileError::TimedOut(_)), "{e}");
    }
    let e = within_counted(&STALLED, kind.deadline, || Ok(())).unwrap_err();
    assert_eq!(e.to_string(), format!("not read: {MAX_STALLED} reads given up earlier still wait on the file system"));
    // The hanging reads end with their files: reads are tried again.
    drop(writers);
    let end = std::time::Instant::now() + Duration::from_secs(60);
    while STALLED.load(Ordering::Acquire) > 0 {
        assert!(std::time::Instant::now() < end, "the given-up reads never ended");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(within_counted(&STALLED, Duration::from_secs(60), || Ok(())).is_ok());
    // A given-up read that ends in a panic is no longer counted either;
    // reads that finish in time are never counted.
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let e = within_counted::<()>(&STALLED, Duration::from_millis(20), move || {
        let _ = wait.recv();
        panic!("in the reading thread")
    });
    assert!(matches!(e, Err(FileError::TimedOut(_))));
    assert_eq!(STALLED.load(Ordering::Acquire), 1);
    drop(release);
    while STALLED.load(Ordering::Acquire) > 0 {
        assert!(std::time::Instant::now() < end, "a panicked read stays counted");
        std::thread::sleep(Duration::from_millis(5));
    }
    for _ in 0..2 * MAX_STALLED {
        assert!(within_counted(&STALLED, Duration::from_secs(60), || Ok(())).is_ok());
    }
    assert_eq!(STALLED.load(Ordering::Acquire), 0);
}

#[test]
fn a_read_stops_one_byte_over_its_bound() {
    let kind = Kind { max: 1_000, ..SECRET };
    let e = bounded(std::io::repeat(7), &kind).unwrap_err();
    assert_eq!(e.to_string(), "more bytes, over the 1000 bytes a secret file may have");
    assert_eq!(bounded(&[7u8; 1_000][..], &kind).unwrap().len(), 1_000);
}

#[test]
fn sizes_are_said_in_the_largest_whole_unit() {
    assert_eq!(size(64 << 20), "64 MiB");
    assert_eq!(size(64 << 10), "64 KiB");
    assert_eq!(size(1 << 20), "1 MiB");
    assert_eq!(size(1_000), "1000 bytes");
    assert_eq!(size((1 << 20) + 1024), "1025 KiB");
}

/// docs/configuration.md states, at each key naming a file, its kind's
/// bound and deadline as the reader holds them.
#[test]
fn docs_state_each_kinds_bound_at_its_keys() {
    let doc = include_str!("../../docs/configuration.md");
    for (kind, keys) in KINDS {
        let bound = format!("at most {}, read within {} s", size(kind.max), kind.deadline.as_secs());
        for key in *keys {
            // A key's row in the table; the configuration file's paragraph
            // in the Files section, its lines joined.
            let line = if *key == "config" {
                doc.split("\n\n")
                    .find(|p| p.starts_with("The configuration file itself"))
                    .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            } else {
                doc.lines().find(|l| l.starts_with(&format!("| `{key}` |"))).map(str::to_string)
            };
            let line = line.unwrap_or_else(|| panic!("{key}: not in docs/configuration.md"));
            assert!(line.contains(&bound), "{key}: docs/configuration.md does not say {bound:?}:\n{line}");
        }
    }
    let joined = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(joined.contains(&format!("while {MAX_STALLED} such reads still wait")), "MAX_STALLED");
}
