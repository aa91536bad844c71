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

/// The compiled-in model as read, with its word path.
fn shipped_static() -> Static {
    let s = read_from(SHIPPED, Some(SHIPPED)).expect("the shipped model");
    assert!(s.by_word.is_some(), "the shipped model is read word by word");
    s
}

/// Each of `texts` through the word path (`embed_labels`, in batches as
/// the ladder sends them) and through the model's own path (`embed`): the
/// same bits.
fn same_bits(m: &Static, texts: &[String]) -> Result<(), String> {
    let dim = m.dim();
    for batch in texts.chunks(16) {
        let refs: Vec<&str> = batch.iter().map(String::as_str).collect();
        let mut many = vec![1.0; dim * refs.len()];
        m.embed_labels(&refs, &mut many);
        for (text, row) in refs.iter().zip(many.chunks(dim)) {
            let mut one = vec![0.0; dim];
            m.embed(text, &mut one);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            if bits(row) != bits(&one) {
                return Err(format!("{text:?}: the word path's vector differs from the model's"));
            }
        }
    }
    Ok(())
}

/// Pieces of text that try the tokenizer's corners: accents and combining
/// marks, cased Greek (a final sigma), CJK (split per character), control
/// and zero-width characters, every kind of whitespace, the special
/// tokens, a word-piece prefix, punctuation inside words, and a word over
/// the tokenizer's 100 characters.
const PIECES: &[&str] = &[
    "Room",
    "2A",
    "09:00-10:00",
    "links",
    "panel",
    "Café",
    "NAÏVE",
    "e\u{301}",
    "\u{301}x",
    "ΣΊΣΥΦΟΣ",
    "οδός",
    "東京駅",
    "a\u{0}b",
    "\u{7f}",
    "\u{200b}",
    "[UNK]",
    "[CLS]x",
    "##ing",
    "don't",
    "U.S.A.",
    "$20",
    "·",
    "—",
    "😀",
    "ﬁle",
    "İstanbul",
    "ß",
    "x²",
    "supercalifragilisticexpialidocious",
    "Ab1",
    "QWERTYUIOPASDFGHJKLZXCVBNMQWERTYUIOPASDFGHJKLZXCVBNMQWERTYUIOPASDFGHJKLZXCVBNMQWERTYUIOPASDFGHJKLZXCVBNM",
    "unbelievable",
    "reschedule",
    "Mon",
    "4",
    "Aug",
    "(3 kids + 1 adult)",
    "report_final_v3.pdf",
];
const SPACES: &[&str] = &["\u{b}", "\u{c}", "\u{85}", " ", "  ", "\t", "\n", "\u{a0}", "\u{3000}", "\u{2009}", "", ". ", "\r\n"];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// A label embedded word by word is the model's own vector, bit for
    /// bit, whatever its words and whitespace, and whatever words the memo
    /// already holds (each case's texts go through it in turn).
    #[test]
    fn a_label_word_by_word_is_the_models_own_vector(
        texts in proptest::collection::vec(
            proptest::collection::vec((0..PIECES.len(), 0..SPACES.len()), 0..12),
            1..20,
        ),
        long in 0..600usize,
        any in proptest::collection::vec(proptest::prelude::any::<String>(), 0..4),
    ) {
        let m = &*SHIPPED_STATIC;
        let mut texts: Vec<String> = texts.iter().map(|t| t.iter().map(|(p, s)| format!("{}{}", PIECES[*p], SPACES[*s])).collect()).collect();
        // One text around the length the word path reads at most.
        texts.push("word ".repeat(long / 5 + 1)[..long.max(1)].to_string());
        // And any characters at all.
        texts.extend(any);
        proptest::prop_assert_eq!(same_bits(m, &texts), Ok(()));
    }
}

/// The word path, read once for the property's cases.
static SHIPPED_STATIC: std::sync::LazyLock<Static> = std::sync::LazyLock::new(shipped_static);

#[test]
fn every_label_of_the_corpora_word_by_word_is_the_models_own_vector() {
    let mut texts = std::collections::BTreeSet::new();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                        candidate_texts(&v, &mut texts);
                    }
                }
            }
        }
    }
    assert!(texts.len() > 5_000, "the corpora's candidates: {}", texts.len());
    let texts: Vec<String> = texts.into_iter().collect();
    same_bits(&SHIPPED_STATIC, &texts).unwrap();
}

/// The text the ladder embeds (`ladder::meaning::candidate_text`) of every
/// candidate in `v`.
fn candidate_texts(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(o) => {
            if let Ok(c) = serde_json::from_value::<ladder::types::Candidate>(v.clone())
                && o.contains_key("label")
            {
                let mut text = String::new();
                ladder::meaning::candidate_text(&c, &mut text);
                out.insert(text);
            }
            o.values().for_each(|x| candidate_texts(x, out));
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| candidate_texts(x, out)),
        _ => {}
    }
}

#[test]
fn the_word_memo_keeps_only_labels_within_its_bytes() {
    let m = shipped_static();
    let by_word = m.by_word.as_ref().unwrap();
    // A request is embedded by the model's own path: none of its words kept.
    let mut v = vec![0.0; m.dim()];
    assert!(m.embed("move money between my accounts", &mut v));
    assert_eq!(by_word.kept(), (0, 0));
    // Nor with the label memo off (labels through `embed_many`).
    let mut rows = vec![0.0; m.dim() * 2];
    m.embed_many(&["Room 2A", "Room 2B"], &mut rows);
    assert_eq!(by_word.kept(), (0, 0));
    // With it on, a label's words are kept once each.
    m.embed_labels(&["Room 2A", "Room 2B"], &mut rows);
    assert_eq!(by_word.kept().0, 3, "room, 2a, 2b");
    // Screens of words never seen: the memo never holds more than its
    // bytes, and forgets all to fill again.
    let mut most = 0;
    for screen in 0..800 {
        let labels: Vec<String> = (0..16).map(|i| format!("w{screen}x{i}{} label", "q".repeat(120))).collect();
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        let mut rows = vec![0.0; m.dim() * refs.len()];
        m.embed_labels(&refs, &mut rows);
        let (_, bytes) = by_word.kept();
        assert!(bytes <= words::WORDS_BYTES, "{bytes}");
        most = most.max(bytes);
    }
    assert!(most > words::WORDS_BYTES / 2, "filled to {most}");
}
