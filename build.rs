//! Gives the shared library a versioned soname on Linux.
//!
//! The C header is not generated here (every build of the crate would then
//! compile cbindgen and syn): `make header` runs `scripts/gen-header`, which
//! rewrites the committed `include/aikido.h`, and `tests/header.sh` fails
//! when that copy drifts from the Rust sources.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");

    // A versioned soname, as a shared library on Linux should have. Versions
    // 0.x break at every minor step, so the soname carries the minor too.
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version parts");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version parts");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let soname = if major == "0" { format!("libaikido.so.0.{minor}") } else { format!("libaikido.so.{major}") };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
}
