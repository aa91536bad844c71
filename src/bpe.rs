//! Token counting for the semantic lane's budgets, with a real BPE
//! tokenizer (`tiktoken-rs`, `o200k_base`: the encoding of current OpenAI
//! models; close enough for budgeting other providers' models too).
//!
//! Building the tokenizer parses a large rank table (tens of ms, and about
//! 64 MB of heap), so it is built once, lazily, and only when an LLM
//! provider is configured (the LLM rung is its only user): `warm_up`
//! starts that off the startup path, at start or at the reload that
//! configures one, and the daemon reports SERVING without waiting for it.

use ladder::ports::TokenCounter;
use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();

fn bpe() -> Option<&'static CoreBPE> {
    BPE.get_or_init(|| match tiktoken_rs::o200k_base() {
        Ok(b) => Some(b),
        Err(e) => {
            tracing::error!(error = %e, "tokenizer unavailable; counting words instead");
            None
        }
    })
    .as_ref()
}

/// Builds the tokenizer on a background thread (named, so that its CPU is
/// told apart from the calls' in `top -H` and `/proc`).
pub fn warm_up() {
    if BPE.get().is_some() {
        return;
    }
    let spawned = std::thread::Builder::new().name("ladderd-tokenizer".into()).spawn(|| {
        bpe();
    });
    if let Err(e) = spawned {
        // Built on first use instead.
        tracing::debug!(error = %e, "tokenizer warm-up thread not started");
    }
}

/// Counts `o200k_base` tokens (words, if the tokenizer failed to build).
pub struct BpeCounter;

impl TokenCounter for BpeCounter {
    fn count(&self, text: &str) -> usize {
        match bpe() {
            Some(b) => b.encode_ordinary(text).len(),
            None => text.split_whitespace().count(),
        }
    }

    fn truncate(&self, text: &str, max: usize) -> String {
        let Some(b) = bpe() else {
            return text.split_whitespace().take(max).collect::<Vec<_>>().join(" ");
        };
        let toks = b.encode_ordinary(text);
        if toks.len() <= max {
            return text.to_string();
        }
        // A cut can split a multi-byte character's tokens; back off until
        // the prefix decodes.
        let mut n = max;
        while n > 0 {
            if let Ok(s) = b.decode(toks[..n].to_vec()) {
                return s;
            }
            n -= 1;
        }
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_cuts_real_tokens() {
        let c = BpeCounter;
        assert_eq!(c.count(""), 0);
        let text = "The quarterly revenue dashboard shows the links panel for team D.";
        let n = c.count(text);
        assert!(n > 5 && n < 30, "{n}");
        let cut = c.truncate(text, 4);
        assert_eq!(c.count(&cut), 4);
        assert!(text.starts_with(&cut));
        assert_eq!(c.truncate(text, 1000), text);
        let hebrew = "שלום לכולם, זה לוח הקישורים של הצוות";
        let cut = c.truncate(hebrew, 3);
        assert!(hebrew.starts_with(&cut), "cut on a character boundary: {cut:?}");
    }
}
