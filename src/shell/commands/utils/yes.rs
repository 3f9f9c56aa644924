//! `yes [STRING]...`: the operands joined by spaces (or `y`), forever.
//!
//! Pipelines are buffered today (each stage runs to its end before the next
//! starts), so `yes` cannot see its reader stop: it fills its stream up to
//! the run's output limit and the script ends there with the limit's message
//! (`yes | head -n 3` included). Streaming pipelines will let it stop at a
//! closed pipe as GNU's does.

use crate::shell::command::Context;
use crate::shell::LimitHit;

use super::super::text::common::{parse, usage, Arg, Spec};

/// Bytes written per call: whole lines, at least this many.
const CHUNK: usize = 64 * 1024;

pub(super) fn yes(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    // GNU yes takes only --help and --version; `-x` is an invalid option,
    // and `--` ends the options.
    let parsed = match parse(&Spec { short: "", long: &[] }, args) {
        Ok(parsed) => parsed,
        Err(message) => return usage(ctx, &message, 1),
    };
    let words: Vec<String> = parsed
        .into_iter()
        .filter_map(|arg| match arg {
            Arg::Operand(word) => Some(word),
            Arg::Opt(..) => None,
        })
        .collect();
    let mut line = if words.is_empty() { "y".to_string() } else { words.join(" ") };
    line.push('\n');
    let mut chunk = Vec::with_capacity(CHUNK + line.len());
    while chunk.len() < CHUNK {
        chunk.extend_from_slice(line.as_bytes());
    }
    loop {
        (ctx.check)()?;
        // Past the cap the write keeps what fits and reports the limit.
        ctx.stdout.write(&chunk)?;
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::command::{Context, Output, Runner};
    use crate::shell::LimitHit;
    use crate::storage::MemoryStorage;

    struct NoRunner;
    impl Runner for NoRunner {
        fn run(&mut self, _: &[String], _: &[u8], _: &mut Output, _: &mut Output) -> Result<i32, LimitHit> {
            Ok(127)
        }
    }

    fn run_capped(args: &[&str], cap: usize) -> (Result<i32, LimitHit>, Vec<u8>) {
        let storage = MemoryStorage::new(Default::default());
        let mut stdout = Output::new(cap);
        let mut stderr = Output::new(1 << 16);
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let result = {
            let mut ctx = Context {
                name: "yes",
                storage: &storage,
                cwd: "/",
                stdin: &crate::shell::command::Stdin::default(),
                stdout: &mut stdout,
                stderr: &mut stderr,
                var: &|_| None,
                runner: &mut NoRunner,
                check: &|| Ok(()),
                max_memory: usize::MAX,
            };
            super::yes(&mut ctx, &args)
        };
        (result, stdout.take())
    }

    #[test]
    fn fills_the_stream_to_its_cap_and_stops_at_the_limit() {
        let (result, out) = run_capped(&[], 1000);
        assert_eq!(result, Err(LimitHit::Output));
        assert_eq!(out.len(), 1000);
        assert!(out.starts_with(b"y\ny\ny\n"));
        let (result, out) = run_capped(&["a", "b"], 100);
        assert_eq!(result, Err(LimitHit::Output));
        assert!(out.starts_with(b"a b\na b\n"));
        let (result, out) = run_capped(&["--", "-x"], 10);
        assert_eq!(result, Err(LimitHit::Output));
        assert_eq!(out, b"-x\n-x\n-x\n-");
        let (result, out) = run_capped(&["-x"], 10);
        assert_eq!(result, Ok(1));
        assert!(out.is_empty());
    }
}
