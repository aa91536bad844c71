//! The semantic model the clarifier ranks with (`semantic.*`;
//! docs/meaning.md): a static embedding table read with `model2vec-rs`,
//! in process, on CPU, with no network.
//!
//! A model file is one safetensors file: the `embeddings` tensor (one row
//! per token of the tokenizer's vocabulary: float32, float16, or int8 with
//! a `weights` tensor of one scale per row) and, in its metadata, the
//! tokenizer (`tokenizer`, a `tokenizer.json`), the model2vec config
//! (`config`), what it is (`name`), the languages it reads (`languages`,
//! comma-separated) and `content_sha256`: the SHA-256 of the tensors'
//! bytes (`embeddings`, then `weights`), the tokenizer and the config,
//! verified at load. A float table is kept as int8 with a scale per row. The shipped model is
//! compiled in (`models/static-minilm-wordnet/`, with its provenance and
//! the script that rebuilds it), and its whole file is checked against
//! [`SHIPPED_SHA256`] too. A file that is missing, truncated, of another
//! format or whose checksum does not match is refused: the daemon does not
//! start (or a reload is refused) with a message naming `semantic.model`.

use ladder::meaning::{Embedder, Meaning};
use model2vec_rs::model::StaticModel;
use safetensors::SafeTensors;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The shipped model's file, compiled in.
static SHIPPED: &[u8] = include_bytes!("../models/static-minilm-wordnet/model.safetensors");

/// The SHA-256 of the shipped model's file (models/static-minilm-wordnet/PROVENANCE.md).
pub const SHIPPED_SHA256: &str = "4308531799874e11b0d5ddfcee86f8824d09faf135197dfca3192a7f29bcfe7c";

/// The format a model file's metadata names.
pub const FORMAT: &str = "ladderd-static-embedding/1";

/// The shipped model, read once per process (every configuration
/// generation shares it).
pub fn shipped() -> Result<Meaning, String> {
    static MODEL: OnceLock<Result<Meaning, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let sum = hex::encode(Sha256::digest(SHIPPED));
            if sum != SHIPPED_SHA256 {
                return Err(format!("the shipped model's checksum is {sum}, expected {SHIPPED_SHA256}: the build is damaged"));
            }
            read(SHIPPED)
        })
        .clone()
}

/// The model in the file at `path`.
pub fn load(path: &Path) -> Result<Meaning, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The model in `bytes` (a model file), its checksum verified.
pub fn read(bytes: &[u8]) -> Result<Meaning, String> {
    let (_, header) = SafeTensors::read_metadata(bytes).map_err(|e| format!("not a model file (safetensors): {e}"))?;
    let meta: HashMap<String, String> = header.metadata().clone().unwrap_or_default();
    let field = |k: &str| meta.get(k).ok_or_else(|| format!("not a model file: no `{k}` in its metadata"));
    if field("format")? != FORMAT {
        return Err(format!("format {:?}, expected {FORMAT:?}", meta["format"]));
    }
    let (tokenizer, config, name) = (field("tokenizer")?, field("config")?, field("name")?);
    let tensors = SafeTensors::deserialize(bytes).map_err(|e| format!("damaged tensors: {e}"))?;
    let table = tensors.tensor("embeddings").map_err(|e| format!("no embeddings: {e}"))?;
    let mut h = Sha256::new();
    h.update(table.data());
    if let Ok(scales) = tensors.tensor("weights") {
        h.update(scales.data());
    }
    h.update(tokenizer.as_bytes());
    h.update(config.as_bytes());
    let sum = hex::encode(h.finalize());
    if &sum != field("content_sha256")? {
        return Err(format!("checksum mismatch: the content hashes to {sum}, the file says {}", meta["content_sha256"]));
    }
    let model = StaticModel::from_bytes(tokenizer.as_bytes(), bytes, config.as_bytes(), Some(true))
        .map_err(|e| format!("cannot read the model: {e:#}"))?
        .quantize_int8();
    let languages = field("languages")?.split(',').map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
    Ok(Meaning { model: Arc::new(Static(model)), name: name.clone(), languages })
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
