//! A quick drift check of the committed header, without cbindgen: every C
//! function and status constant `src/ffi` exports is declared in
//! `include/aikido.h`, and the header declares no function `src/ffi` lacks.
//! The exact, byte-for-byte check is `tests/header.sh`, which runs the
//! pinned cbindgen (`scripts/gen-header --check`). When either fails, run
//! `make header` and commit the result.

use std::collections::BTreeSet;

/// The `src/ffi` sources (its folders too), each as (file name, text); its
/// tests left out.
fn ffi_sources() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("src/ffi is readable") {
            let path = entry.expect("src/ffi lists").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") && !path.ends_with("tests.rs") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).expect("source is readable")));
            }
        }
    }
    let mut sources = Vec::new();
    walk(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/ffi")), &mut sources);
    sources.sort();
    sources
}

fn exported_functions() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (_, text) in ffi_sources() {
        let mut exported = false;
        for line in text.lines().map(str::trim) {
            if line == "#[no_mangle]" || line == "#[unsafe(no_mangle)]" {
                exported = true;
            } else if exported && line.contains("extern \"C\" fn ") {
                let name = line.split("fn ").nth(1).and_then(|rest| rest.split(['(', '<']).next());
                names.insert(name.expect("a function has a name").to_owned());
                exported = false;
            }
        }
    }
    names
}

fn header() -> &'static str {
    include_str!("../include/aikido.h")
}

/// Names of the functions the header declares (a declaration starts at the
/// left margin; comments and examples are indented or start with `/*`).
fn declared_functions() -> BTreeSet<String> {
    header()
        .lines()
        .filter(|line| !line.starts_with([' ', '*', '/', '#', '\t']) && line.contains('('))
        .filter_map(|line| line.split('(').next()?.rsplit([' ', '*']).next().map(str::to_owned))
        .filter(|name| name.starts_with("aikido_"))
        .collect()
}

#[test]
fn every_exported_function_is_declared_and_no_other() {
    let exported = exported_functions();
    let declared = declared_functions();
    assert!(exported.len() > 40, "found only {} exported functions in src/ffi", exported.len());
    let missing: Vec<_> = exported.difference(&declared).collect();
    let stale: Vec<_> = declared.difference(&exported).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "include/aikido.h drifted from src/ffi: not declared {missing:?}, declared but gone {stale:?}; run `make header`"
    );
}

#[test]
fn every_status_constant_is_defined() {
    let mut checked = 0;
    for (_, text) in ffi_sources() {
        for line in text.lines().filter(|line| line.starts_with("pub const AIKIDO_")) {
            let name = line["pub const ".len()..].split(':').next().expect("a constant has a name");
            assert!(
                header().lines().any(|l| l.starts_with(&format!("#define {name} "))),
                "include/aikido.h lacks {name}; run `make header`"
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "found only {checked} constants");
}

#[test]
fn cbindgen_is_pinned_to_one_version() {
    let manifest = include_str!("../scripts/gen-header/Cargo.toml");
    assert!(
        manifest.lines().any(|line| line.starts_with("cbindgen = ") && line.contains("version = \"=")),
        "cbindgen must be pinned with an exact version (\"=x.y.z\") so the committed header is reproducible"
    );
    assert!(
        !include_str!("../Cargo.toml").contains("cbindgen"),
        "the library must not depend on cbindgen: the header is generated only when asked (`make header`)"
    );
}
