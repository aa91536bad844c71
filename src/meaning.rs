//! The semantic model the clarifier ranks with (`semantic.*`;
//! docs/meaning.md): a static embedding table read with `model2vec-rs`,
//! in process, on CPU, with no network.
//!
//! A model file is one safetensors file: the `embeddings` tensor (one row
//! per token of the tokenizer's vocabulary: float32, float16, or int8 with
//! a `weights` tensor of one scale per row) and, in its metadata, the
//! tokenizer (`tokenizer`, a `tokenizer.json`), the model2vec config
//! (`config`), what it is (`name`), the languages it reads (`languages`,
//! comma-separated) and `content_sha256`: the SHA-256 of every tensor and
//! every other metadata entry ([`content_sha256`]), verified at load, so
//! that no byte the daemon reads (a changed `languages` included) goes
//! unchecked. A float table is kept as int8 with a scale per row. The shipped model is
//! compiled in (`models/static-minilm-wordnet/`, with its provenance and
//! the script that rebuilds it), and its whole file is checked against
//! [`SHIPPED_SHA256`] too. A file that is missing, truncated, of another
//! format or whose checksum does not match is refused: the daemon does not
//! start (or a reload is refused) with a message naming `semantic.model`.
//!
//! A model file is read only from a regular file, of at most
//! [`MAX_FILE_BYTES`], within [`READ_DEADLINE`]: a FIFO, a device, a
//! socket or a directory is refused by its kind before anything is read
//! (a FIFO would wait for a writer forever, `/dev/zero` never ends), a
//! larger file by its size (a sparse file of gigabytes would be read
//! whole), and a read that does not finish in time (a stalled network
//! file system) is given up.

use ladder::meaning::{Embedder, Meaning};
use model2vec_rs::model::StaticModel;
use safetensors::SafeTensors;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The shipped model's file, compiled in.
static SHIPPED: &[u8] = include_bytes!("../models/static-minilm-wordnet/model.safetensors");

/// The SHA-256 of the shipped model's file (models/static-minilm-wordnet/PROVENANCE.md).
pub const SHIPPED_SHA256: &str = "dfd26a337b42d269466b17f157a2f95d946aefae95a6fc1ed334de2f245a79c9";

/// The format a model file's metadata names.
pub const FORMAT: &str = "ladderd-static-embedding/2";

/// The format before `content_sha256` covered the metadata: refused, with
/// how to repack it.
const FORMAT_1: &str = "ladderd-static-embedding/1";

/// The shipped model, read once while anything holds it: every
/// configuration generation that uses it shares it, and once none does
/// (`semantic.model` names another file, or `semantic.enabled` is off) it
/// is released (its 44 MiB in memory) and read again if a later
/// generation wants it back.
pub fn shipped() -> Result<Meaning, String> {
    // Locked while it is read: two generations built at once read it once.
    let mut held = SHIPPED_HELD.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(h) = held.as_ref()
        && let Some(model) = h.model.upgrade()
    {
        return Ok(Meaning { model, name: h.name.clone(), languages: h.languages.clone() });
    }
    let sum = hex::encode(Sha256::digest(SHIPPED));
    if sum != SHIPPED_SHA256 {
        return Err(format!("the shipped model's checksum is {sum}, expected {SHIPPED_SHA256}: the build is damaged"));
    }
    let m = read(SHIPPED)?;
    *held = Some(Held { model: Arc::downgrade(&m.model), name: m.name.clone(), languages: m.languages.clone() });
    Ok(m)
}

/// Whether the shipped model is in memory now (a generation holds it).
pub fn shipped_held() -> bool {
    SHIPPED_HELD.lock().unwrap_or_else(|p| p.into_inner()).as_ref().is_some_and(|h| h.model.strong_count() > 0)
}

/// The shipped model as last read, not kept alive by this.
static SHIPPED_HELD: Mutex<Option<Held>> = Mutex::new(None);

struct Held {
    model: Weak<dyn Embedder>,
    name: String,
    languages: Vec<String>,
}

/// The largest model file read: the shipped one is 7.8 MiB (8,182,052
/// bytes, int8); this leaves room for a float32 table of the same
/// vocabulary at twice its dimensions (60 MB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// How long reading a model file may take (the shipped one's size reads
/// in milliseconds from a local disk).
pub const READ_DEADLINE: Duration = Duration::from_secs(10);

/// The model in the file at `path`.
pub fn load(path: &Path) -> Result<Meaning, String> {
    let bytes = read_file(path, MAX_FILE_BYTES, READ_DEADLINE).map_err(|e| format!("{}: {e}", path.display()))?;
    read(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The bytes of the regular file at `path` (symbolic links followed), of at
/// most `max` bytes, read within `deadline`.
fn read_file(path: &Path, max: u64, deadline: Duration) -> Result<Vec<u8>, String> {
    // Its kind first, from the path alone: opening a FIFO, even without
    // reading it, can wait for a writer.
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    regular(&meta, max)?;
    let file = open_without_waiting(path).map_err(|e| e.to_string())?;
    // Again on what was opened: the path may have been replaced meanwhile.
    regular(&file.metadata().map_err(|e| e.to_string())?, max)?;
    read_within(file, max, deadline)
}

/// Refuses anything but a regular file of at most `max` bytes.
fn regular(meta: &std::fs::Metadata, max: u64) -> Result<(), String> {
    let kind = kind(&meta.file_type());
    if kind != "regular file" {
        return Err(format!("a {kind}, not a regular file: a model is read only from a file"));
    }
    if meta.len() > max {
        return Err(format!("{} bytes, over the {max} a model file may have", meta.len()));
    }
    Ok(())
}

fn kind(t: &std::fs::FileType) -> &'static str {
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

/// At most `max` bytes of `r` (more is an error), read on a thread of its
/// own and given up after `deadline`: the caller never waits longer. A
/// read given up goes on until its file answers, and what it read is
/// dropped.
fn read_within<R: Read + Send + 'static>(r: R, max: u64, deadline: Duration) -> Result<Vec<u8>, String> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("ladderd-model-read".into())
        .spawn(move || {
            let mut bytes = Vec::new();
            let read = r.take(max + 1).read_to_end(&mut bytes).map(|_| bytes);
            let _ = tx.send(read);
        })
        .map_err(|e| format!("cannot start reading: {e}"))?;
    match rx.recv_timeout(deadline) {
        Ok(Ok(bytes)) if bytes.len() as u64 > max => Err(format!("over the {max} bytes a model file may have")),
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("not read within {} s", deadline.as_secs_f64())),
    }
}

/// The model in `bytes` (a model file), its checksum verified.
pub fn read(bytes: &[u8]) -> Result<Meaning, String> {
    let (_, header) = SafeTensors::read_metadata(bytes).map_err(|e| format!("not a model file (safetensors): {e}"))?;
    let meta: BTreeMap<String, String> = header.metadata().clone().unwrap_or_default().into_iter().collect();
    let field = |k: &str| meta.get(k).ok_or_else(|| format!("not a model file: no `{k}` in its metadata"));
    match field("format")?.as_str() {
        FORMAT => {}
        FORMAT_1 => {
            return Err(format!(
                "format {FORMAT_1:?}, whose checksum leaves its metadata out; expected {FORMAT:?}: repack it with \
                 `models/static-minilm-wordnet/build.sh --repack FILE`"
            ));
        }
        other => return Err(format!("format {other:?}, expected {FORMAT:?}")),
    }
    let (tokenizer, config, name) = (field("tokenizer")?, field("config")?, field("name")?);
    let tensors = SafeTensors::deserialize(bytes).map_err(|e| format!("damaged tensors: {e}"))?;
    tensors.tensor("embeddings").map_err(|e| format!("no embeddings: {e}"))?;
    let sum = content_sha256(&tensors, &meta);
    if &sum != field("content_sha256")? {
        return Err(format!("checksum mismatch: the content hashes to {sum}, the file says {}", meta["content_sha256"]));
    }
    let model = StaticModel::from_bytes(tokenizer.as_bytes(), bytes, config.as_bytes(), Some(true))
        .map_err(|e| format!("cannot read the model: {e:#}"))?
        .quantize_int8();
    let languages = field("languages")?.split(',').map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
    Ok(Meaning { model: Arc::new(Static(model)), name: name.clone(), languages })
}

/// The checksum a model file's `content_sha256` holds: SHA-256 over every
/// tensor in name order (its name, dtype, shape as comma-separated numbers,
/// and bytes), then every metadata entry but `content_sha256` in key order
/// (key, value); each item its length as 8 bytes little-endian, then its
/// bytes, so that no two files' items run together alike.
/// `models/static-minilm-wordnet/build.py` (`content_sha256`) writes it.
pub fn content_sha256(tensors: &SafeTensors<'_>, meta: &BTreeMap<String, String>) -> String {
    let mut h = Sha256::new();
    let mut field = |b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    let mut all = tensors.tensors();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, t) in &all {
        field(name.as_bytes());
        field(format!("{:?}", t.dtype()).as_bytes());
        field(t.shape().iter().map(usize::to_string).collect::<Vec<_>>().join(",").as_bytes());
        field(t.data());
    }
    for (k, v) in meta.iter().filter(|(k, _)| *k != "content_sha256") {
        field(k.as_bytes());
        field(v.as_bytes());
    }
    hex::encode(h.finalize())
}

/// A model2vec static model as the ladder's [`Embedder`].
struct Static(StaticModel);

impl Embedder for Static {
    fn dim(&self) -> usize {
        self.0.dim()
    }

    fn embed(&self, text: &str, out: &mut [f32]) -> bool {
        let v = self.0.encode_single(text);
        if v.len() != out.len() || v.iter().all(|x| *x == 0.0) {
            out.fill(0.0);
            return false;
        }
        out.copy_from_slice(&v);
        true
    }
}

#[cfg(test)]
mod tests;
