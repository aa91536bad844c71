//! Reading a model's reply: the one JSON object in it, whichever way the
//! provider wrapped it. Every rule that reads an LLM reply (arbitration,
//! assistant drafts, extraction hints) starts here; it imports nothing. Its
//! errors name what is wrong and where, never what the reply says.

/// What is wrong with a reply that does not read as the object expected,
/// without its words: serde's own message quotes the values it met
/// (`invalid type: string "..."`), and a model's reply may echo the
/// user's input, which must not reach a trace, a record or a log.
pub fn parse_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Io => "unreadable",
        Category::Syntax => "not JSON",
        Category::Data => "a field missing or of the wrong type",
        Category::Eof => "cut short",
    };
    format!("{what} at line {} column {}", e.line(), e.column())
}

/// Extracts a JSON object from the content: the whole message, or the
/// first fenced block (```json ... ``` or ``` ... ```).
pub fn extract_json(content: &str) -> Option<&str> {
    let t = content.trim();
    if t.starts_with('{') && t.ends_with('}') {
        return Some(t);
    }
    let start = t.find("```")?;
    let after = &t[start + 3..];
    let body_start = after.find('\n').map(|i| i + 1).unwrap_or(0);
    let lang = after[..body_start].trim();
    if !(lang.is_empty() || lang.eq_ignore_ascii_case("json")) {
        return None;
    }
    let body = &after[body_start..];
    let end = body.find("```")?;
    let inner = body[..end].trim();
    (inner.starts_with('{') && inner.ends_with('}')).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::extract_json;

    #[test]
    fn the_object_is_found_bare_or_in_a_json_or_plain_fence() {
        let table: &[(&str, Option<&str>)] = &[
            (r#"  {"a":1}  "#, Some(r#"{"a":1}"#)),
            ("```json\n{\"a\":1}\n```", Some(r#"{"a":1}"#)),
            ("Sure! ```\n{\"a\":1}\n``` hope it helps", Some(r#"{"a":1}"#)),
            ("```python\n{\"a\":1}\n```", None),
            ("no json here", None),
            ("```json\nnot an object\n```", None),
        ];
        for (content, want) in table {
            assert_eq!(extract_json(content), *want, "content {content:?}");
        }
    }
}
