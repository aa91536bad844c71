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

#[test]
fn a_missing_or_damaged_model_refuses_the_configuration_naming_the_key() {
    let dir = std::env::temp_dir().join(format!("ladderd-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.safetensors");
    std::fs::write(&damaged, &SHIPPED[..SHIPPED.len() / 2]).unwrap();
    let copy = dir.join("copy.safetensors");
    std::fs::write(&copy, SHIPPED).unwrap();
    for (path, ok) in [(dir.join("missing.safetensors"), false), (damaged, false), (copy, true)] {
        let mut config = crate::config::Config::default();
        config.semantic.model = Some(path.clone());
        match config.policy() {
            Ok(p) => assert!(ok && p.meaning.is_some(), "{} accepted", path.display()),
            Err(e) => {
                assert!(!ok, "{}: {e}", path.display());
                assert_eq!(e.problems[0].0, "semantic.model", "{e}");
                assert!(e.problems[0].1.contains(&path.display().to_string()), "{e}");
            }
        }
    }
    let mut off = crate::config::Config::default();
    off.semantic.enabled = false;
    off.semantic.model = Some(dir.join("missing.safetensors"));
    assert!(off.policy().expect("off: the file is never read").meaning.is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
