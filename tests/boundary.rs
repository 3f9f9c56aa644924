//! Every exported C function runs inside the panic boundary.
//!
//! Forgetting the boundary on one function is the known bug class of C-ABI
//! crates: a panic there would unwind into C. This test reads the sources:
//! every `#[no_mangle]` function must be an `extern "C"` function in
//! src/ffi whose body is one call of `boundary::status` or `boundary::value`,
//! and the functions the header declares must be exactly those.

use std::collections::BTreeSet;
use std::path::Path;

/// The exported functions of one source file, with whether each is wrapped.
fn exported_functions(source: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("#[no_mangle]") {
        rest = &rest[at + "#[no_mangle]".len()..];
        let signature_start = rest.find("extern \"C\" fn ").expect("#[no_mangle] on an extern \"C\" fn");
        let after = &rest[signature_start + "extern \"C\" fn ".len()..];
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let body = &after[after.find('{').expect("a function body")..];
        // The first statement of the body, comments skipped.
        let first =
            body[1..].lines().map(str::trim).find(|line| !line.is_empty() && !line.starts_with("//")).unwrap_or("");
        let wrapped = first.starts_with("boundary::status(") || first.starts_with("boundary::value(");
        found.push((name, wrapped));
    }
    found
}

#[test]
fn every_exported_function_is_wrapped_and_declared_in_the_header() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut exported = BTreeSet::new();
    let mut unwrapped = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            for (name, wrapped) in exported_functions(&source) {
                assert!(
                    path.starts_with(root.join("src/ffi")),
                    "{name} is exported from {}, outside src/ffi",
                    path.display()
                );
                if !wrapped {
                    unwrapped.push(name.clone());
                }
                exported.insert(name);
            }
        }
    }
    assert!(unwrapped.is_empty(), "exported functions outside the panic boundary: {unwrapped:?}");

    let header = std::fs::read_to_string(root.join("include/aikido.h")).unwrap();
    let declared: BTreeSet<String> = header
        .lines()
        .filter(|line| !line.starts_with(' ') && !line.starts_with('#') && !line.starts_with('/'))
        .filter_map(|line| {
            let open = line.find('(')?;
            let name = line[..open].rsplit([' ', '*']).next()?;
            name.starts_with("aikido_").then(|| name.to_owned())
        })
        .collect();
    assert_eq!(declared, exported, "the header's functions and the exported functions differ");
    // The sources are read whatever the features: every function counts.
    assert!(exported.len() >= 56, "the C surface lost functions: {}", exported.len());
}

#[test]
fn the_checker_notices_an_unwrapped_function() {
    let source = "#[no_mangle]\npub extern \"C\" fn aikido_bad() -> usize {\n    // a comment\n    42\n}\n\
                  #[no_mangle]\npub unsafe extern \"C\" fn aikido_good() {\n    boundary::value(|| ())\n}\n";
    assert_eq!(exported_functions(source), vec![("aikido_bad".to_owned(), false), ("aikido_good".to_owned(), true)]);
}
