//! A new screen's labels embedded word by word: the vectors
//! `model2vec-rs` makes, bit for bit, in fewer instructions.
//!
//! A candidate's text is new on every new screen even where each of its
//! words is not ("Room 2A · 09:00" after "Room 2B · 09:00"). The model's
//! own path tokenizes the whole text, then sums the token rows in plain
//! code. This path keeps the token ids of each whitespace-separated word
//! of a label ([`WORDS_BYTES`] at most; the model's tokenizer reads a word
//! it has not kept), and sums the rows with [`dot::add_rows`] (AVX2 where
//! the CPU has it). A word's ids are the same alone as in its text: the
//! tokenizer's normalizer works a character at a time and its
//! pre-tokenizer splits at whitespace before anything else, so its words
//! never cross a space ([`is_space`]). The sum is the same operations in the same order
//! (`dot::add_rows`), and so are the mean and the unit length
//! (`dot::mean_units`); `tests.rs` compares the two paths' bits on generated texts and
//! on every label of the corpora.
//!
//! Only labels are kept, never a request's words: what a user types is
//! embedded by the model's own path and forgotten (docs/security.md).
//! A text longer than [`LONGEST`] bytes, where the model's truncation
//! could apply, takes the model's own path too.

use rustc_hash::FxHashMap;
use safetensors::{Dtype, SafeTensors};
use std::borrow::Cow;
use std::sync::RwLock;
use tokenizers::{ModelWrapper, Tokenizer};

/// Memory of the kept words' ids (their text, ids and map entry). When a
/// word would not fit, all are forgotten and the memo fills again: a
/// screen of words never seen costs what it did without the memo, plus
/// the tokenizer's slower reading of each new word.
pub const WORDS_BYTES: usize = 2 << 20;

/// Bytes of text this path reads: no longer text tokenizes to more than
/// the model's 512 tokens (a token is at least one character), and the
/// model's cut of a text at 512 tokens' worth of characters never applies.
pub const LONGEST: usize = 512;

/// What a kept word takes beyond its text and ids: the map's entry (two
/// boxed slices and the hash table's control byte, rounded up).
const ENTRY: usize = 48;

/// A static model's table, tokenizer and kept words.
pub(super) struct ByWord {
    tokenizer: Tokenizer,
    table: Cow<'static, [i8]>,
    /// Each row's scale (the file's `weights`).
    scales: Vec<f32>,
    dim: usize,
    unk: Option<u32>,
    kept: RwLock<Kept>,
}

#[derive(Default)]
struct Kept {
    ids: FxHashMap<Box<str>, Box<[u32]>>,
    bytes: usize,
}

impl ByWord {
    /// This path for a model file's `tensors` and `tokenizer` (its
    /// `tokenizer.json`), or `None` where its results could differ from
    /// the model's own: a table not of int8 rows with a float32 scale each,
    /// a token mapping, a tokenizer that is not WordPiece or has ids the
    /// table has no row for, or a special token with whitespace in it. `shipped` is the whole file when it
    /// lives as long as the program (the compiled-in model): its table is
    /// read where it is; a file's is copied.
    pub(super) fn new(tensors: &SafeTensors<'_>, tokenizer: &str, shipped: Option<&'static [u8]>) -> Option<ByWord> {
        let table = tensors.tensor("embeddings").ok()?;
        let weights = tensors.tensor("weights").ok()?;
        if table.dtype() != Dtype::I8 || weights.dtype() != Dtype::F32 || tensors.tensor("mapping").is_ok() {
            return None;
        }
        let [rows, dim] = table.shape().try_into().ok()?;
        if dim == 0 || weights.shape() != [rows] {
            return None;
        }
        let scales: Vec<f32> = weights.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let mut tokenizer = Tokenizer::from_bytes(tokenizer.as_bytes()).ok()?;
        tokenizer.with_truncation(None).ok()?;
        tokenizer.with_padding(None);
        // Every id the tokenizer can give has its row.
        if tokenizer.get_vocab_size(true) > rows {
            return None;
        }
        let ModelWrapper::WordPiece(wp) = tokenizer.get_model() else { return None };
        let unk = tokenizer.token_to_id(&wp.unk_token);
        if tokenizer.get_added_tokens_decoder().values().any(|t| t.content.contains(char::is_whitespace)) {
            return None;
        }
        let data = table.data();
        // Where the table lies in the compiled-in file, if it is that file's.
        let within = shipped.and_then(|file| {
            let at = (data.as_ptr() as usize).checked_sub(file.as_ptr() as usize)?;
            file.get(at..at + data.len())
        });
        let table = match within {
            Some(bytes) => Cow::Borrowed(bytemuck::cast_slice(bytes)),
            None => Cow::Owned(bytemuck::cast_slice(data).to_vec()),
        };
        Some(ByWord { tokenizer, table, scales, dim, unk, kept: RwLock::new(Kept::default()) })
    }

    /// The vector of each of `texts` into the rows of `out`, as the
    /// model's `encode_single` makes it, with `done[i]` true; false for a
    /// text this path leaves to the model (longer than [`LONGEST`]),
    /// whose row the caller fills.
    pub(super) fn embed_many(&self, texts: &[&str], out: &mut [f32], done: &mut [bool]) {
        let mut learned: Vec<(Box<str>, Box<[u32]>)> = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        let mut rows: Vec<(&[i8], f32)> = Vec::new();
        let mut counts = vec![0; texts.len()];
        {
            let kept = self.kept.read().unwrap_or_else(|p| p.into_inner());
            for (((text, row), done), count) in texts.iter().zip(out.chunks_mut(self.dim)).zip(done.iter_mut()).zip(&mut counts) {
                *done = text.len() <= LONGEST;
                if !*done {
                    continue;
                }
                ids.clear();
                for word in text.split(is_space).filter(|w| !w.is_empty()) {
                    if let Some(known) = kept.ids.get(word) {
                        ids.extend_from_slice(known);
                    } else if let Some((_, known)) = learned.iter().find(|(w, _)| &**w == word) {
                        ids.extend_from_slice(known);
                    } else {
                        let read = self.read(word);
                        ids.extend_from_slice(&read);
                        learned.push((word.into(), read));
                    }
                }
                rows.clear();
                rows.extend(
                    ids.iter()
                        .filter(|id| Some(**id) != self.unk)
                        .map(|&id| id as usize)
                        .map(|id| (&self.table[id * self.dim..(id + 1) * self.dim], self.scales[id])),
                );
                row.fill(0.0);
                dot::add_rows(row, &rows);
                *count = rows.len();
            }
        }
        // The rows of texts left to the model are overwritten by it.
        let filled = out.len().min(texts.len() * self.dim);
        dot::mean_units(&mut out[..filled], self.dim, &counts);
        if !learned.is_empty() {
            let mut kept = self.kept.write().unwrap_or_else(|p| p.into_inner());
            for (word, ids) in learned {
                let bytes = word.len() + 4 * ids.len() + ENTRY;
                if kept.bytes + bytes > WORDS_BYTES {
                    *kept = Kept::default();
                }
                if bytes <= WORDS_BYTES && kept.ids.insert(word, ids).is_none() {
                    kept.bytes += bytes;
                }
            }
        }
    }

    /// A word's ids, read by the tokenizer (none if it reads nothing).
    fn read(&self, word: &str) -> Box<[u32]> {
        self.tokenizer.encode_fast(word, false).map(|e| e.get_ids().into()).unwrap_or_default()
    }

    /// How many words are kept, and their bytes.
    #[cfg(test)]
    pub(super) fn kept(&self) -> (usize, usize) {
        let kept = self.kept.read().unwrap_or_else(|p| p.into_inner());
        (kept.ids.len(), kept.bytes)
    }
}

/// A character the tokenizer reads as a space between words: whitespace
/// but for the control characters among it (a vertical tab, a form feed,
/// U+0085), which its normalizer deletes, joining the text on either side.
fn is_space(c: char) -> bool {
    c.is_whitespace() && (!c.is_control() || matches!(c, '\t' | '\n' | '\r'))
}
