//! Text commands: head, tail, wc, sort, uniq, cut, tr, rev, nl, paste,
//! fold and printf, with GNU coreutils semantics in the C locale. They work
//! on bytes, never assuming UTF-8.

use crate::shell::command::CommandFn;

mod column;
pub(super) mod common;
mod cut;
mod head_tail;
mod join;
mod misc;
mod printf;

pub(crate) use printf::format_all as printf_format;
mod sort;
mod tr;
mod uniq;
pub(super) mod version;
mod wc;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[
    ("head", head_tail::head),
    ("tail", head_tail::tail),
    ("wc", wc::wc),
    ("sort", sort::sort),
    ("uniq", uniq::uniq),
    ("cut", cut::cut),
    ("tr", tr::tr),
    ("printf", printf::printf),
    ("rev", misc::rev),
    ("nl", misc::nl),
    ("paste", misc::paste),
    ("fold", misc::fold),
    ("join", join::join),
    ("column", column::column),
];

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    /// Timing over 10 MiB (`cargo test --lib text::tests::big -- --ignored --nocapture`).
    #[test]
    #[ignore = "a timing printout over 10 MiB, not a check (speed is judged by `make bench`); run by hand"]
    fn big_inputs() {
        let storage = MemoryStorage::new(Default::default());
        let mut data = Vec::new();
        let mut n: u64 = 12345;
        while data.len() < 10 << 20 {
            n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            data.extend_from_slice(format!("{} word{} {}:x\n", n >> 40, n % 97, n % 1000).as_bytes());
        }
        storage.write("/big", &data).unwrap();
        for (name, args) in [
            ("wc", &["/big"][..]),
            ("wc", &["-l", "/big"]),
            ("sort", &["/big"]),
            ("sort", &["-n", "/big"]),
            ("sort", &["-k2,2", "-k1n", "/big"]),
            ("uniq", &["-c", "/big"]),
            ("cut", &["-d", " ", "-f2", "/big"]),
            ("tr", &["a-z", "A-Z"]),
            ("tail", &["-n", "5", "/big"]),
            ("rev", &["/big"]),
        ] {
            let stdin = if name == "tr" { String::from_utf8_lossy(&data).into_owned() } else { String::new() };
            let start = std::time::Instant::now();
            let (status, _, _) = run_for_test(&storage, name, args, &stdin);
            eprintln!("{name} {args:?}: {status} in {:?}", start.elapsed());
        }
    }
}
