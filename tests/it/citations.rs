//! The repository holds what it cites. A comment, a doc page or a corpus
//! exception that points at a tracker's issue number or at a section of a
//! specification kept elsewhere sends its reader to something the
//! repository does not hold. It says the rule itself in a sentence, or
//! names a page of `docs/` (`docs/replies.md#refusals-stick-to-their-words`),
//! and that page and heading exist.
//!
//! A citation, case aside, anywhere in a line or wrapped onto the next
//! comment line ([`citations`]):
//!
//! - an issue by number: "issue" or "issues", a space, then a number
//!   (with or without `#`);
//! - a specification: "spec" or "specification" followed by a number or
//!   by "section"; its possessive; after "the"; or followed by a slash (a
//!   path into it);
//! - a bare section number with a letter ("section" then `4b`): that
//!   document numbered its sections so.
//!
//! Not a citation: anything inside a full URL (`https://...`, such as a
//! third-party crate's bug tracker), which a reader can follow; "spec" as
//! a name in code (`spec.name`, a slot spec, a Kubernetes `spec:` key).
//!
//! And what a file names in place of a citation leads somewhere: every
//! `docs/<page>.md`, and every relative link of a Markdown file, exists,
//! with the heading its `#anchor` names.
//!
//! Read: every text file of the repository, whatever folder it is in
//! (Rust, TOML, Markdown, protobuf, Python, TypeScript, shell, YAML, a
//! script without an extension, and the corpora's `exceptions.jsonl`
//! reasons; not the corpora themselves, which are data), skipping
//! version control, build output, installed dependencies, caches and
//! `proptest-regressions` ([`SKIP_DIRS`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Directories never read: build output, installed dependencies, caches,
/// and generated regression seeds; and any whose name starts with a dot
/// (version control, tools' caches: `.git`, `.pytest_cache`, `.venv`)
/// but the repository's own, [`DOT_DIRS`].
const SKIP_DIRS: &[&str] = &["target", "node_modules", "__pycache__", "venv", "proptest-regressions"];

/// The directories named with a dot that hold the repository's own files.
const DOT_DIRS: &[&str] = &[".cargo", ".ci"];

/// The extensions of the files read (besides `*exceptions.jsonl`).
const TEXT: &[&str] = &["rs", "toml", "md", "proto", "py", "ts", "sh", "yaml", "yml"];

/// The files read, sorted, relative to the repository root.
fn files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let skip = SKIP_DIRS.contains(&name.as_str()) || (name.starts_with('.') && !DOT_DIRS.contains(&name.as_str()));
                if !skip {
                    walk(&path, out);
                }
            } else if is_text(&path) {
                out.push(path);
            }
        }
    }
    fn is_text(path: &Path) -> bool {
        let name = path.file_name().unwrap().to_string_lossy();
        match path.extension() {
            Some(e) => name.ends_with("exceptions.jsonl") || TEXT.contains(&e.to_string_lossy().as_ref()),
            // A script: `.ci/run`.
            None => std::fs::read(path).is_ok_and(|b| b.starts_with(b"#!")),
        }
    }
    let root = Path::new(ROOT);
    let mut out = Vec::new();
    walk(root, &mut out);
    let mut rel: Vec<PathBuf> = out.into_iter().map(|p| p.strip_prefix(root).unwrap().to_path_buf()).collect();
    rel.sort();
    rel
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The words of `s` (ASCII lower case, so byte offsets are the line's),
/// each with its byte offset: runs of letters, digits and `_`.
fn words(s: &str) -> Vec<(usize, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_word(b[i]) {
            let start = i;
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
            out.push((start, &s[start..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// The citations in `text`: for each, its byte offset and the words that
/// make it. See the module's doc for what counts.
fn citations(text: &str) -> Vec<(usize, String)> {
    let lower = text.to_ascii_lowercase();
    let b = lower.as_bytes();
    let ws = words(&lower);
    let mut out = Vec::new();
    for (k, &(at, w)) in ws.iter().enumerate() {
        let end = at + w.len();
        let next = ws.get(k + 1).copied();
        // Only spaces (and what `sep` allows) between this word and the next.
        let gap_is =
            |sep: &[u8]| next.is_some_and(|(n, _)| n > end && b[end..n].iter().all(|c| c.is_ascii_whitespace() || sep.contains(c)));
        let spaced = next.is_some_and(|(n, _)| b[end..n].iter().any(u8::is_ascii_whitespace));
        let number_next = next.is_some_and(|(_, n)| n.as_bytes()[0].is_ascii_digit());
        let cited = match w {
            "issue" | "issues" => spaced && gap_is(b"#") && number_next,
            "spec" | "specification" => {
                let section_next = next.is_some_and(|(_, n)| n == "section" || n == "sections");
                (gap_is(b",:") && (number_next || section_next))
                    || lower[end..].starts_with("'s")
                    || lower[end..].starts_with('/')
                    || lower[..at].ends_with("the ")
            }
            "section" | "sections" => {
                // A number with a letter: 4b, 6b, 7b.
                gap_is(b"")
                    && next.is_some_and(|(_, n)| {
                        let digits = n.bytes().take_while(u8::is_ascii_digit).count();
                        digits > 0 && n.len() == digits + 1 && n.as_bytes()[digits].is_ascii_lowercase()
                    })
            }
            _ => false,
        };
        // Inside a URL: the run of non-space text it is in holds "://".
        let chunk = lower[..at].rfind(|c: char| c.is_ascii_whitespace()).map_or(0, |i| i + 1);
        if cited && !lower[chunk..at].contains("://") {
            let till = next.map_or(end, |(n, nw)| n + nw.len());
            out.push((at, text[at..till].to_string()));
        }
    }
    out
}

/// A line with the next line's text after it, without its indent and
/// comment leader, so that a citation wrapped over two lines is read whole.
fn with_next(line: &str, next: Option<&str>) -> String {
    let next = next.unwrap_or("").trim_start();
    let next = ["//!", "///", "//", "#", "*", "--"].iter().find_map(|l| next.strip_prefix(l)).unwrap_or(next);
    format!("{line} {}", next.trim_start())
}

#[test]
fn the_citation_reader_flags_citations_and_spares_urls_and_code() {
    // Built from parts, so that this file cites nothing itself.
    let (issue, section, spec) = (["iss", "ue"].concat(), ["sec", "tion"].concat(), ["sp", "ec"].concat());
    let upper = issue.to_uppercase();
    let cited = [
        format!("/// {upper} 31 item 4: a store"),
        format!("(an {issue}s 36 and 45 thing)"),
        format!("see {issue} #12"),
        format!("the principle ({spec} {section} 4b)"),
        format!("({spec} 6b)"),
        format!("{spec} {section}s 4 and 4b"),
        format!("{spec}, {section} 5"),
        format!("the {spec}'s thresholds"),
        format!("by the {spec}"),
        format!("(`{spec}/ladder.md`)"),
        format!("the rule of {section} 4c"),
    ];
    for c in &cited {
        assert!(!citations(c).is_empty(), "{c:?} is a citation");
    }
    let not_cited = [
        format!("https://github.com/tokio-rs/tokio/{issue}s/1234 (a crate's bug)"),
        format!("<https://example.com/{spec}/{section}-4b>"),
        format!("for {spec} in &req.slots {{ {spec}.name }}"),
        format!("{spec}:\n  template:"),
        format!("bad[\"{spec}\"][\"template\"]"),
        format!("the {issue} was fixed; one {issue} per file"),
        format!("a slot {spec} names its values"),
        format!("the [llm] {section} 2 keys"),
    ];
    for c in &not_cited {
        assert!(citations(c).is_empty(), "{c:?} is no citation: {:?}", citations(c));
    }
    // Wrapped over two comment lines.
    let wrapped = with_next(&format!("/// (as the {spec}"), Some(&format!("    /// {section} 4b says)")));
    assert!(!citations(&wrapped).is_empty(), "{wrapped:?}");
}

/// Nothing read cites an issue number or a section of a specification
/// the repository does not hold (the module's doc says what counts).
#[test]
fn the_repository_cites_nothing_it_does_not_hold() {
    let files = files();
    assert!(files.len() > 100, "{} files read", files.len());
    // Every folder that holds code or docs is read, the client packages'
    // and the models' included.
    for dir in [".ci", "benches", "clients", "crates", "deploy", "docs", "examples", "models", "proto", "src", "tests"] {
        assert!(files.iter().any(|f| f.starts_with(dir)), "nothing read under {dir}/");
    }
    let mut found = Vec::new();
    for rel in &files {
        let text = std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let read = with_next(line, lines.get(i + 1).copied());
            for (at, words) in citations(&read) {
                if at < line.len() {
                    found.push(format!("{}:{}: {words:?}", rel.display(), i + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "say the rule itself, or cite a docs/ page (docs/<page>.md#<heading>), in place of:\n{}", found.join("\n"));
}

/// GitHub's anchors of a Markdown file's headings (outside code blocks):
/// lower case, letters, digits, spaces, `-` and `_` kept, spaces made `-`;
/// a repeated heading gets `-1`, `-2`, ...
fn anchors(path: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let title = line[hashes..].trim().trim_end_matches('#').trim().to_lowercase();
        let slug: String =
            title.chars().filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_')).map(|c| if c == ' ' { '-' } else { c }).collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while out.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        out.insert(anchor);
    }
    out
}

/// What `line` of the file `rel` points at in the repository: each
/// `docs/<page>.md[#anchor]` it names, and in a Markdown file each
/// relative link target, as (path from the root, anchor).
fn pointers(rel: &Path, line: &str) -> Vec<(PathBuf, Option<String>)> {
    let anchor_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("docs/") {
        let before = rest[..i].chars().next_back();
        let tail = &rest[i + "docs/".len()..];
        rest = tail;
        if before.is_some_and(|c| anchor_char(c) || c == '/' || c == '.') {
            continue; // a longer path, or a URL
        }
        let name: String = tail.chars().take_while(|c| anchor_char(*c)).collect();
        let Some(after) = tail[name.len()..].strip_prefix(".md") else { continue };
        let anchor = after.strip_prefix('#').map(|a| a.chars().take_while(|c| anchor_char(*c)).collect::<String>());
        out.push((PathBuf::from(format!("docs/{name}.md")), anchor.filter(|a| !a.is_empty())));
    }
    if rel.extension().is_some_and(|e| e == "md") {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(close) = rest.find(')') else { break };
            let target = &rest[..close];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, anchor) = target.split_once('#').map_or((target, None), |(p, a)| (p, Some(a.to_string())));
            let dir = rel.parent().unwrap_or(Path::new(""));
            let joined = if path.is_empty() { rel.to_path_buf() } else { dir.join(path) };
            // `..` resolved by hand: the path need not exist to be named.
            let mut resolved = PathBuf::new();
            for part in joined.components() {
                match part {
                    std::path::Component::ParentDir => {
                        resolved.pop();
                    }
                    std::path::Component::CurDir => {}
                    other => resolved.push(other),
                }
            }
            out.push((resolved, anchor));
        }
    }
    out
}

/// Every docs page a file names (`docs/<page>.md`), and every relative
/// link of a Markdown file, exists; its `#anchor`, when it has one, is a
/// heading of that page (GitHub's anchor form). A citation that replaces
/// the rule must lead somewhere.
#[test]
fn every_docs_page_and_heading_named_exists() {
    let root = Path::new(ROOT);
    let mut checked = 0;
    let mut broken = Vec::new();
    for rel in files() {
        let text = std::fs::read_to_string(root.join(&rel)).unwrap();
        for (i, line) in text.lines().enumerate() {
            for (target, anchor) in pointers(&rel, line) {
                checked += 1;
                let path = root.join(&target);
                let has_heading =
                    |a: &String| target.extension().is_some_and(|e| e == "md") && path.is_file() && anchors(&path).contains(a);
                let heading_missing = anchor.as_ref().is_some_and(|a| !has_heading(a));
                if !path.exists() || heading_missing {
                    let shown = anchor.map_or(target.display().to_string(), |a| format!("{}#{a}", target.display()));
                    broken.push(format!("{}:{}: {shown}", rel.display(), i + 1));
                }
            }
        }
    }
    assert!(checked > 100, "{checked} pointers checked");
    assert!(broken.is_empty(), "no such page or heading:\n{}", broken.join("\n"));
}

#[test]
fn the_pointer_reader_finds_docs_pages_links_and_anchors() {
    let md = Path::new("docs/llm.md");
    let got = pointers(md, "see [Risk](deciding.md#risk), [up](../README.md) and docs/replies.md#refusals-stick-to-their-words.");
    let want = [
        (PathBuf::from("docs/replies.md"), Some("refusals-stick-to-their-words".to_string())),
        (PathBuf::from("docs/deciding.md"), Some("risk".to_string())),
        (PathBuf::from("README.md"), None),
    ];
    assert_eq!(got, want);
    assert_eq!(pointers(md, "[x](#corroboration-no-llm-execute-on-the-models-word-alone)")[0].0, PathBuf::from("docs/llm.md"));
    assert!(pointers(Path::new("src/a.rs"), "https://x.org/docs/a.md and crates/docs/b.md and [x](y.md)").is_empty());
    let llm = anchors(&Path::new(ROOT).join("docs/llm.md"));
    assert!(llm.contains("corroboration-no-llm-execute-on-the-models-word-alone"), "{llm:?}");
    assert!(anchors(&Path::new(ROOT).join("docs/continuity.md")).contains("need_more_info-and-enrich"));
}
