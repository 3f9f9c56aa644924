//! `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum`
//! (GNU coreutils 9.1): print checksums, or check them with `-c`. The hashes
//! are RustCrypto's (`md-5`, `sha1`, `sha2`).
//!
//! Options: `-b`/`-t` (the `*`/space mark; no difference on Linux), `-c`,
//! `--tag`, `-z`, and in check mode `--quiet`, `--status`, `--strict`,
//! `-w`, `--ignore-missing`. File names with a backslash or a newline are
//! escaped with a leading `\`, as GNU does.

use sha2::digest::DynDigest;
use sha2::Digest;

use crate::shell::command::{error_reason, CommandFn, Context, ReadFailed};
use crate::shell::LimitHit;
use crate::storage::StorageError;

use super::text::common::{lines, parse, quotef, tick, usage, Arg, HasArg, Spec};

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[
    ("md5sum", md5sum),
    ("sha1sum", sha1sum),
    ("sha224sum", sha224sum),
    ("sha256sum", sha256sum),
    ("sha384sum", sha384sum),
    ("sha512sum", sha512sum),
];

#[derive(Clone, Copy)]
enum Algo {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

impl Algo {
    /// The name `--tag` prints.
    fn tag(self) -> &'static str {
        match self {
            Algo::Md5 => "MD5",
            Algo::Sha1 => "SHA1",
            Algo::Sha224 => "SHA224",
            Algo::Sha256 => "SHA256",
            Algo::Sha384 => "SHA384",
            Algo::Sha512 => "SHA512",
        }
    }

    /// Hex digits in a checksum.
    fn hex_len(self) -> usize {
        match self {
            Algo::Md5 => 32,
            Algo::Sha1 => 40,
            Algo::Sha224 => 56,
            Algo::Sha256 => 64,
            Algo::Sha384 => 96,
            Algo::Sha512 => 128,
        }
    }

    /// A checksum to be fed a piece at a time.
    fn start(self) -> Box<dyn DynDigest> {
        match self {
            Algo::Md5 => Box::new(md5::Md5::new()),
            Algo::Sha1 => Box::new(sha1::Sha1::new()),
            Algo::Sha224 => Box::new(sha2::Sha224::new()),
            Algo::Sha256 => Box::new(sha2::Sha256::new()),
            Algo::Sha384 => Box::new(sha2::Sha384::new()),
            Algo::Sha512 => Box::new(sha2::Sha512::new()),
        }
    }

    /// The checksum of an input read a piece at a time (a file of any size
    /// in bounded memory, as GNU's): `Ok(Err(_))` when it cannot be read.
    fn input_hex(self, ctx: &mut Context<'_>, path: &str) -> Result<Result<String, StorageError>, LimitHit> {
        let mut reader = match ctx.open(path) {
            Ok(reader) => reader,
            Err(error) => return Ok(Err(error)),
        };
        let mut hashing = self.start();
        loop {
            match reader.next_piece() {
                Ok(Some(piece)) => hashing.update(&piece),
                Ok(None) => return Ok(Ok(hex(hashing))),
                Err(ReadFailed::Limit(hit)) => return Err(hit),
                Err(ReadFailed::Storage(error)) => return Ok(Err(error)),
            }
            (ctx.check)()?;
        }
    }
}

/// A finished checksum in lowercase hex.
fn hex(hashing: Box<dyn DynDigest>) -> String {
    let mut out = String::with_capacity(hashing.output_size() * 2);
    for byte in hashing.finalize().iter() {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

fn md5sum(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    sum(ctx, args, Algo::Md5)
}
fn sha1sum(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    sum(ctx, args, Algo::Sha1)
}
fn sha224sum(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    sum(ctx, args, Algo::Sha224)
}
fn sha256sum(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    sum(ctx, args, Algo::Sha256)
}
fn sha384sum(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    sum(ctx, args, Algo::Sha384)
}
fn sha512sum(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    sum(ctx, args, Algo::Sha512)
}

const SPEC: Spec = Spec {
    short: "bctwz",
    long: &[
        ("binary", "b", HasArg::No),
        ("check", "c", HasArg::No),
        ("tag", "tag", HasArg::No),
        ("text", "t", HasArg::No),
        ("zero", "z", HasArg::No),
        ("ignore-missing", "ignore-missing", HasArg::No),
        ("quiet", "quiet", HasArg::No),
        ("status", "status", HasArg::No),
        ("strict", "strict", HasArg::No),
        ("warn", "w", HasArg::No),
    ],
};

#[derive(Default)]
struct Flags {
    binary: bool,
    check: bool,
    tag: bool,
    zero: bool,
    ignore_missing: bool,
    quiet: bool,
    status: bool,
    strict: bool,
    warn: bool,
}

fn sum(ctx: &mut Context<'_>, args: &[String], algo: Algo) -> Result<i32, LimitHit> {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let mut flags = Flags::default();
    let mut files = Vec::new();
    for arg in parsed {
        match arg {
            Arg::Opt("b", _) => flags.binary = true,
            Arg::Opt("t", _) => flags.binary = false,
            Arg::Opt("c", _) => flags.check = true,
            Arg::Opt("tag", _) => flags.tag = true,
            Arg::Opt("z", _) => flags.zero = true,
            Arg::Opt("ignore-missing", _) => flags.ignore_missing = true,
            Arg::Opt("quiet", _) => flags.quiet = true,
            Arg::Opt("status", _) => flags.status = true,
            Arg::Opt("strict", _) => flags.strict = true,
            Arg::Opt("w", _) => flags.warn = true,
            Arg::Opt(..) => {}
            Arg::Operand(file) => files.push(file),
        }
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    if flags.check {
        if flags.tag {
            return usage(ctx, "the --tag option is meaningless when verifying checksums", 1);
        }
        let mut status = 0;
        for file in &files {
            status = status.max(check_file(ctx, algo, file, &flags)?);
        }
        return Ok(status);
    }
    for (only_check, name) in [
        (flags.ignore_missing, "--ignore-missing"),
        (flags.quiet, "--quiet"),
        (flags.status, "--status"),
        (flags.strict, "--strict"),
        (flags.warn, "--warn"),
    ] {
        if only_check {
            return usage(ctx, &format!("the {name} option is meaningful only when verifying checksums"), 1);
        }
    }
    let mut status = 0;
    for file in &files {
        let hex = match algo.input_hex(ctx, file)? {
            Ok(hex) => hex,
            Err(error) => {
                ctx.error(format!("{}: {}", quotef(file), error_reason(&error)))?;
                status = 1;
                continue;
            }
        };
        let (escaped, name) = escape_name(file, flags.zero);
        let prefix = if escaped { "\\" } else { "" };
        let end = if flags.zero { '\0' } else { '\n' };
        let line = if flags.tag {
            format!("{prefix}{} ({name}) = {hex}{end}", algo.tag())
        } else {
            let mark = if flags.binary { '*' } else { ' ' };
            format!("{prefix}{hex} {mark}{name}{end}")
        };
        ctx.stdout.write_str(&line)?;
    }
    Ok(status)
}

/// GNU's escaping of a printed name: `\` and newline (and CR) become `\\`
/// `\n` (`\r`), and the line then starts with a backslash. With `-z` names
/// are printed as they are.
fn escape_name(name: &str, zero: bool) -> (bool, String) {
    if zero || !name.contains(['\\', '\n', '\r']) {
        return (false, name.to_string());
    }
    let mut out = String::with_capacity(name.len() + 2);
    for ch in name.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    (true, out)
}

/// The reverse of [`escape_name`]; `None` for an unknown escape.
fn unescape_name(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next()? {
            '\\' => out.push('\\'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            _ => return None,
        }
    }
    Some(out)
}

/// One line of a checksum list: the expected hex and the file name.
fn parse_line(line: &str, algo: Algo) -> Option<(String, String)> {
    let line = line.trim_start_matches([' ', '\t']);
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let (hex, name) = if let Some(rest) = line.strip_prefix(algo.tag()).and_then(|r| r.strip_prefix(" (")) {
        // BSD style: `MD5 (name) = hex`.
        let (name, hex) = rest.rsplit_once(") = ")?;
        (hex.to_string(), name.to_string())
    } else {
        let hex = line.get(..algo.hex_len())?;
        let rest = &line[algo.hex_len()..];
        let rest = rest.strip_prefix([' ', '\t'])?;
        let name = rest.strip_prefix([' ', '*']).unwrap_or(rest);
        (hex.to_string(), name.to_string())
    };
    if hex.len() != algo.hex_len() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) || name.is_empty() {
        return None;
    }
    let name = if escaped { unescape_name(&name)? } else { name };
    Some((hex.to_ascii_lowercase(), name))
}

/// `-c FILE`: checks every line of one list. Returns its status.
fn check_file(ctx: &mut Context<'_>, algo: Algo, list: &str, flags: &Flags) -> Result<i32, LimitHit> {
    let shown = if list == "-" { "standard input".to_string() } else { list.to_string() };
    let data = match ctx.read(list) {
        Ok(data) => data,
        Err(error) => {
            ctx.error(format!("{}: {}", quotef(list), error_reason(&error)))?;
            return Ok(1);
        }
    };
    let (mut bad_lines, mut failed, mut unreadable, mut good_lines, mut matched) = (0, 0, 0, 0, 0);
    let mut counter = 0;
    let delim = if flags.zero { 0 } else { b'\n' };
    for (number, line) in lines(&data, delim).enumerate() {
        tick(ctx, &mut counter)?;
        let line = String::from_utf8_lossy(line);
        let line = line.strip_suffix('\r').unwrap_or(&line);
        if line.trim_start().starts_with('#') {
            continue;
        }
        let Some((hex, name)) = parse_line(line, algo) else {
            bad_lines += 1;
            if flags.warn {
                ctx.error(format!(
                    "{}: {}: improperly formatted {} checksum line",
                    quotef(&shown),
                    number + 1,
                    algo.tag()
                ))?;
            }
            continue;
        };
        good_lines += 1;
        let (escaped, printed) = escape_name(&name, false);
        let printed = if escaped { format!("\\{printed}") } else { printed };
        let actual = match algo.input_hex(ctx, &name)? {
            Ok(hex) => hex,
            Err(error) => {
                if flags.ignore_missing && matches!(error, crate::storage::StorageError::NotFound(_)) {
                    continue;
                }
                unreadable += 1;
                ctx.error(format!("{}: {}", quotef(&name), error_reason(&error)))?;
                if !flags.status {
                    ctx.stdout.write_str(&format!("{printed}: FAILED open or read\n"))?;
                }
                continue;
            }
        };
        if actual == hex {
            matched += 1;
            if !flags.status && !flags.quiet {
                ctx.stdout.write_str(&format!("{printed}: OK\n"))?;
            }
        } else {
            failed += 1;
            if !flags.status {
                ctx.stdout.write_str(&format!("{printed}: FAILED\n"))?;
            }
        }
    }
    if good_lines == 0 {
        ctx.error(format!("{}: no properly formatted checksum lines found", quotef(&shown)))?;
        return Ok(1);
    }
    if !flags.status {
        let plural = |n: i32, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
        if bad_lines > 0 {
            let what = plural(bad_lines, "line is", "lines are");
            ctx.error(format!("WARNING: {bad_lines} {what} improperly formatted"))?;
        }
        if unreadable > 0 {
            let what = plural(unreadable, "listed file could", "listed files could");
            ctx.error(format!("WARNING: {unreadable} {what} not be read"))?;
        }
        if failed > 0 {
            let what = plural(failed, "computed checksum", "computed checksums");
            ctx.error(format!("WARNING: {failed} {what} did NOT match"))?;
        }
        if flags.ignore_missing && matched == 0 && failed == 0 && unreadable == 0 {
            ctx.error(format!("{}: no file was verified", quotef(&shown)))?;
        }
    }
    let ok = failed == 0
        && unreadable == 0
        && !(flags.strict && bad_lines > 0)
        && !(flags.ignore_missing && matched == 0 && failed == 0);
    Ok(if ok { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use crate::shell::command::run_for_test;
    use crate::storage::{MemoryStorage, Storage};

    #[test]
    fn sums_match_coreutils() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/a", b"hello\n").unwrap();
        let (status, out, _) = run_for_test(&storage, "md5sum", &["a"], "");
        assert_eq!((status, out.as_str()), (0, "b1946ac92492d2347c6235b4d2611184  a\n"));
        let (_, out, _) = run_for_test(&storage, "sha256sum", &[], "hi\n");
        assert_eq!(out, "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4  -\n");
        let (_, out, _) = run_for_test(&storage, "sha1sum", &["--tag", "a"], "");
        assert_eq!(out, "SHA1 (a) = f572d396fae9206628714fb2ce00f72e94f2258f\n");
        let (_, out, _) = run_for_test(&storage, "md5sum", &["-b", "a"], "");
        assert_eq!(out, "b1946ac92492d2347c6235b4d2611184 *a\n");
        storage.write("/a\\b", b"").unwrap();
        let (_, out, _) = run_for_test(&storage, "md5sum", &["a\\b"], "");
        assert_eq!(out, "\\d41d8cd98f00b204e9800998ecf8427e  a\\\\b\n");
        let (status, _, err) = run_for_test(&storage, "md5sum", &["nosuch"], "");
        assert_eq!((status, err.as_str()), (1, "md5sum: nosuch: No such file or directory\n"));
    }

    #[test]
    fn check_mode_reports_like_coreutils() {
        let storage = MemoryStorage::new(Default::default());
        storage.write("/a", b"hello\n").unwrap();
        storage.write("/b", b"y\n").unwrap();
        let list = "b1946ac92492d2347c6235b4d2611184  a\n9dd4e461268c8034f5c8564e155c67a6  b\n\
                    9dd4e461268c8034f5c8564e155c67a6  gone\njunk\n";
        let (status, out, err) = run_for_test(&storage, "md5sum", &["-c"], list);
        assert_eq!(status, 1);
        assert_eq!(out, "a: OK\nb: FAILED\ngone: FAILED open or read\n");
        assert_eq!(
            err,
            "md5sum: gone: No such file or directory\n\
             md5sum: WARNING: 1 line is improperly formatted\n\
             md5sum: WARNING: 1 listed file could not be read\n\
             md5sum: WARNING: 1 computed checksum did NOT match\n"
        );
        let (status, out, _) = run_for_test(&storage, "md5sum", &["-c", "--quiet"], list);
        assert_eq!((status, out.as_str()), (1, "b: FAILED\ngone: FAILED open or read\n"));
        let ok = "MD5 (a) = B1946AC92492D2347C6235B4D2611184\n# comment\n";
        let (status, out, _) = run_for_test(&storage, "md5sum", &["-c"], ok);
        assert_eq!((status, out.as_str()), (0, "a: OK\n"));
        let (status, _, err) = run_for_test(&storage, "md5sum", &["-c"], "junk\n");
        assert_eq!(status, 1);
        assert_eq!(err, "md5sum: 'standard input': no properly formatted checksum lines found\n");
        let (status, out, err) = run_for_test(&storage, "md5sum", &["-c", "--status"], list);
        assert_eq!((status, out.as_str()), (1, ""));
        assert_eq!(err, "md5sum: gone: No such file or directory\n");
    }
}
