//! Generates the C header from the `ffi` module with cbindgen.
//!
//! The header is written to `$OUT_DIR/aikido.h`, and its path is passed to
//! the crate's tests as `AIKIDO_GENERATED_HEADER`: `tests/header.rs` fails
//! when the committed `include/aikido.h` differs. `make header` (which sets
//! `AIKIDO_UPDATE_HEADER=1`) writes the committed copy.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=AIKIDO_UPDATE_HEADER");

    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version parts");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version parts");
    let patch = env::var("CARGO_PKG_VERSION_PATCH").expect("cargo sets the version parts");

    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml is valid");
    config.after_includes = Some(format!(
        "\n#define AIKIDO_VERSION \"{version}\"\n#define AIKIDO_VERSION_MAJOR {major}\n\
         #define AIKIDO_VERSION_MINOR {minor}\n#define AIKIDO_VERSION_PATCH {patch}\n"
    ));

    let header = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("aikido.h");
    // Only `src/ffi` (and the modules it declares) is read: the C surface is
    // there and nowhere else, so public Rust items elsewhere (an awk
    // interpreter's constants, say) never leak into the header.
    cbindgen::Builder::new()
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write_to_file(&header);
    println!("cargo:rustc-env=AIKIDO_GENERATED_HEADER={}", header.display());
    if env::var_os("AIKIDO_UPDATE_HEADER").is_some() {
        std::fs::copy(&header, crate_dir.join("include/aikido.h")).expect("include/aikido.h is writable");
    }

    // A versioned soname, as a shared library on Linux should have. Versions
    // 0.x break at every minor step, so the soname carries the minor too.
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let soname = if major == "0" { format!("libaikido.so.0.{minor}") } else { format!("libaikido.so.{major}") };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
}
