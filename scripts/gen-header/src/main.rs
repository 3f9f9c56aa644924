//! Generates libaikido's C header from the `ffi` module with the pinned
//! cbindgen.
//!
//! `aikido-gen-header` rewrites `include/aikido.h`; `aikido-gen-header
//! --check` writes nothing and fails (exit 1, naming the first differing
//! line) when the committed copy differs from what the Rust sources give.
//! `make header` and `tests/header.sh` run it.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("usage: aikido-gen-header [--check] (unknown argument {other:?})");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let generated = generate(&root);
    let committed_path = root.join("include/aikido.h");
    if !check {
        if let Err(error) = std::fs::write(&committed_path, &generated) {
            eprintln!("gen-header: cannot write {}: {error}", committed_path.display());
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    if committed == generated {
        return ExitCode::SUCCESS;
    }
    let line = generated.lines().zip(committed.lines()).position(|(a, b)| a != b);
    eprintln!(
        "include/aikido.h drifted from the Rust sources (first differing line: {}); run `make header`",
        line.map_or_else(|| "at the end".to_owned(), |index| (index + 1).to_string())
    );
    ExitCode::FAILURE
}

/// The header for the crate at `root`, as text.
fn generate(root: &Path) -> String {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the crate's Cargo.toml is readable");
    let version = package_version(&manifest).expect("Cargo.toml's [package] has a version");
    let mut parts = version.split(['.', '-', '+']);
    let (major, minor, patch) = (parts.next().unwrap_or("0"), parts.next().unwrap_or("0"), parts.next().unwrap_or("0"));

    let mut config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml is valid");
    config.after_includes = Some(format!(
        "\n#define AIKIDO_VERSION \"{version}\"\n#define AIKIDO_VERSION_MAJOR {major}\n\
         #define AIKIDO_VERSION_MINOR {minor}\n#define AIKIDO_VERSION_PATCH {patch}\n"
    ));
    // Only `src/ffi` (and the modules it declares) is read: the C surface is
    // there and nowhere else, so public Rust items elsewhere (an awk
    // interpreter's constants, say) never leak into the header.
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_src(root.join("src/ffi/mod.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("cbindgen writes UTF-8")
}

/// The `version = "…"` of the manifest's `[package]` table.
fn package_version(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(value) = line.strip_prefix("version = \"") {
                return value.split('"').next().map(str::to_owned);
            }
        }
    }
    None
}
