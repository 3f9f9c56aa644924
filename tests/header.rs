//! The committed header is exactly what build.rs generates with the pinned
//! cbindgen. When this fails, run `make header` and commit the result.

#[test]
fn committed_header_matches_the_generated_one() {
    let generated = std::fs::read_to_string(env!("AIKIDO_GENERATED_HEADER")).expect("build.rs wrote the header");
    let committed = include_str!("../include/aikido.h");
    if generated != committed {
        let line = generated.lines().zip(committed.lines()).position(|(a, b)| a != b);
        panic!(
            "include/aikido.h drifted from the Rust sources (first differing line: {}); run `make header`",
            line.map_or_else(|| "at the end".to_owned(), |index| (index + 1).to_string())
        );
    }
}

#[test]
fn cbindgen_is_pinned_to_one_version() {
    let manifest = include_str!("../Cargo.toml");
    assert!(
        manifest.lines().any(|line| line.starts_with("cbindgen = ") && line.contains("version = \"=")),
        "cbindgen must be pinned with an exact version (\"=x.y.z\") so the committed header is reproducible"
    );
}
