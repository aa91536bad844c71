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
//! A model file is read as every file a configuration names is
//! ([`crate::files`]): only from a regular file, of at most 64 MiB
//! ([`crate::files::MODEL`]), within 10 s; a FIFO, a device, a socket or a
//! directory is refused by its kind before anything is read, a larger file
//! by its size.

use ladder::meaning::{Embedder, Meaning};
use model2vec_rs::model::StaticModel;
use safetensors::SafeTensors;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};

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
    let m = read_from(SHIPPED, Some(SHIPPED))?.meaning();
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

/// The model in the file at `path`, read as every file a configuration
/// names is ([`crate::files`], kind [`crate::files::MODEL`]).
pub fn load(path: &Path) -> Result<Meaning, String> {
    let bytes = crate::files::read(path, &crate::files::MODEL).map_err(|e| format!("{}: {e}", path.display()))?;
    read(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The model in `bytes` (a model file), its checksum verified.
pub fn read(bytes: &[u8]) -> Result<Meaning, String> {
    Ok(read_from(bytes, None)?.meaning())
}

/// [`read`], with the file's bytes when they live as long as the program
/// (the compiled-in model: its table is read where it is, not copied).
fn read_from(bytes: &[u8], shipped: Option<&'static [u8]>) -> Result<Static, String> {
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
    let by_word = words::ByWord::new(&tensors, tokenizer, shipped);
    let languages = field("languages")?.split(',').map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
    Ok(Static { model, by_word, name: name.clone(), languages })
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

/// A model2vec static model as the ladder's [`Embedder`]: a request, and
/// any text with the label memo off, through the model's own path; labels
/// with the label memo on word by word where the model allows it
/// (`words`), to the same bits.
struct Static {
    model: StaticModel,
    by_word: Option<words::ByWord>,
    name: String,
    languages: Vec<String>,
}

impl Static {
    fn meaning(self) -> Meaning {
        let (name, languages) = (self.name.clone(), self.languages.clone());
        Meaning { model: Arc::new(self), name, languages }
    }
}

impl Embedder for Static {
    fn dim(&self) -> usize {
        self.model.dim()
    }

    fn embed(&self, text: &str, out: &mut [f32]) -> bool {
        let v = self.model.encode_single(text);
        if v.len() != out.len() || v.iter().all(|x| *x == 0.0) {
            out.fill(0.0);
            return false;
        }
        out.copy_from_slice(&v);
        true
    }

    fn embed_labels(&self, texts: &[&str], out: &mut [f32]) {
        let dim = self.dim();
        let mut done = vec![false; texts.len()];
        if let Some(by_word) = &self.by_word {
            by_word.embed_many(texts, out, &mut done);
        }
        for ((text, row), done) in texts.iter().zip(out.chunks_mut(dim)).zip(done) {
            if !done {
                self.embed(text, row);
            }
        }
    }
}

mod words;

#[cfg(test)]
mod tests;
