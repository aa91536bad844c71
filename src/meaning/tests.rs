use super::*;

#[test]
fn the_shipped_model_loads_and_reads_english() {
    let m = shipped().expect("the shipped model");
    assert!(m.reads("en-US") && m.reads("") && !m.reads("he"));
    let mut v = vec![0.0; m.model.dim()];
    assert!(m.model.embed("move money between my accounts", &mut v));
    let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-3, "unit vector, got {norm}");
}

#[test]
fn a_damaged_model_file_is_refused_with_the_reason() {
    // Truncated: not even its header.
    assert!(read(&SHIPPED[..1_000]).unwrap_err().contains("not a model file"));
    // Truncated inside its tensors.
    assert!(read(&SHIPPED[..SHIPPED.len() - 10]).is_err());
    // One byte of the table changed: the content no longer hashes to what
    // the file says.
    let mut changed = SHIPPED.to_vec();
    let at = changed.len() - 200_000;
    changed[at] ^= 0x40;
    let e = read(&changed).unwrap_err();
    assert!(e.contains("checksum mismatch"), "{e}");
    // Not a model file at all.
    assert!(read(b"{\"hello\": 1}").is_err());
}

/// The shipped file with `from` replaced by `to` (of the same length) in
/// its header: a metadata byte changed, the file still well-formed.
fn shipped_with(from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let header_len = 8 + u64::from_le_bytes(SHIPPED[..8].try_into().unwrap()) as usize;
    let header = std::str::from_utf8(&SHIPPED[8..header_len]).unwrap();
    assert_eq!(header.matches(from).count(), 1, "{from} once in the header");
    let mut out = SHIPPED.to_vec();
    out[8..header_len].copy_from_slice(header.replace(from, to).as_bytes());
    out
}

#[test]
fn the_checksum_covers_the_metadata_too() {
    // One byte of a metadata entry the daemon reads (`languages`: "fn"
    // would rank no English request by meaning) or only carries along.
    for (from, to) in
        [(r#""languages":"en""#, r#""languages":"fn""#), ("static-minilm-wordnet/PROVENANCE", "static-minilm-wordnet/PROVENANCF")]
    {
        let e = read(&shipped_with(from, to)).unwrap_err();
        assert!(e.starts_with("checksum mismatch"), "{to}: {e}");
    }
    // A file of the format whose checksum left the metadata out.
    let e = read(&shipped_with(FORMAT, "ladderd-static-embedding/1")).unwrap_err();
    assert!(e.contains("leaves its metadata out") && e.contains("--repack"), "{e}");
    // The shipped file as it is reads, and its checksum is the one
    // build.py's `content_sha256` wrote.
    assert!(read(SHIPPED).is_ok());
}

#[test]
fn a_missing_or_damaged_model_refuses_the_configuration_naming_the_key() {
    let dir = std::env::temp_dir().join(format!("ladderd-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.safetensors");
    std::fs::write(&damaged, &SHIPPED[..SHIPPED.len() / 2]).unwrap();
    let copy = dir.join("copy.safetensors");
    std::fs::write(&copy, SHIPPED).unwrap();
    let fifo = dir.join("fifo.safetensors");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let sparse = dir.join("sparse.safetensors");
    std::fs::File::create(&sparse).unwrap().set_len(2 << 30).unwrap();
    let zero = std::path::PathBuf::from("/dev/zero");
    let refusals = [
        (dir.join("missing.safetensors"), "No such file"),
        (damaged, "not a model file"),
        (fifo, "a FIFO, not a regular file"),
        (zero, "a character device, not a regular file"),
        (dir.clone(), "a directory, not a regular file"),
        (sparse, "2147483648 bytes, over the 64 MiB a model file may have"),
    ];
    for (path, why) in refusals {
        let mut config = crate::config::Config::default();
        config.semantic.model = Some(path.clone());
        // Nothing here may wait: a FIFO read would never end.
        let e = within_a_minute(move || config.policy()).expect_err("refused");
        assert_eq!(e.problems[0].0, "semantic.model", "{e}");
        assert!(e.problems[0].1.contains(&path.display().to_string()), "{e}");
        assert!(e.problems[0].1.contains(why), "{}: {e}", path.display());
    }
    let mut config = crate::config::Config::default();
    config.semantic.model = Some(copy);
    assert!(config.policy().expect("a copy of the shipped model").meaning.is_some());
    let mut off = crate::config::Config::default();
    off.semantic.enabled = false;
    off.semantic.model = Some(dir.join("missing.safetensors"));
    assert!(off.policy().expect("off: the file is never read").meaning.is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `f`'s result, on a thread given a minute: a call that waits forever
/// fails the test instead of hanging it.
fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(std::time::Duration::from_secs(60)).expect("returned, without waiting on the file")
}

/// Set in the process `a_replaced_shipped_model_is_released` runs its
/// other half in.
const ALONE: &str = "LADDERD_TEST_MEANING_ALONE";
const ALONE_TEST: &str = "meaning::tests::alone_a_generation_on_another_model_releases_the_shipped_one";

#[test]
fn a_replaced_shipped_model_is_released() {
    // Every other test of this process may hold the shipped model at any
    // moment: the test runs alone, in a process of its own.
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([ALONE_TEST, "--exact", "--ignored", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("1 passed"), "{stdout}\n{stderr}");
}

#[tokio::test]
#[ignore = "run alone, in a process of its own, by a_replaced_shipped_model_is_released"]
async fn alone_a_generation_on_another_model_releases_the_shipped_one() {
    use crate::config::Config;
    assert_eq!(std::env::var(ALONE).as_deref(), Ok("1"), "run only by a_replaced_shipped_model_is_released");
    assert!(!shipped_held(), "nothing read it yet");
    let daemon = crate::daemon::Daemon::new(Config::default()).unwrap();
    assert!(shipped_held(), "the defaults rank with it");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.safetensors");
    std::fs::write(&copy, SHIPPED).unwrap();
    let mut other = Config::default();
    other.semantic.model = Some(copy);
    daemon.reload(other).unwrap();
    assert!(daemon.current().policy.meaning.is_some());
    assert!(!shipped_held(), "replaced by another file: released");
    daemon.reload(Config::default()).unwrap();
    assert!(shipped_held(), "wanted again: read again");
    let mut off = Config::default();
    off.semantic.enabled = false;
    daemon.reload(off).unwrap();
    assert!(!shipped_held(), "turned off: released");
}
