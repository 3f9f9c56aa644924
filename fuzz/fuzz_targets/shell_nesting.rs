//! Deep nesting for the shell and its parsers (issue 11): structure-aware
//! inputs that repeat an opener thousands of times, the way a hostile model
//! would (`$(( !!!…1 ))`, `jq '.|.|…'`, nested `case`, `[[ ! ! … ]]`, awk
//! parentheses, `find \( \( …`). Each run happens on a thread with a 256 KiB
//! stack, as on a C host's worker thread: the shell must answer or refuse
//! with a message, never overflow the stack, panic or run past its limits.
//!
//! The input's bytes choose, in turn: a construct, a count (up to 65535,
//! from two bytes), and what goes inside; the remaining bytes are appended
//! as the innermost text, so libFuzzer can still explore freely.

#![no_main]

use std::sync::Arc;
use std::time::{Duration, Instant};

use aikido::shell::{Limits, Shell, ShellOptions};
use aikido::storage::{MemoryLimits, MemoryStorage};
use libfuzzer_sys::fuzz_target;

const MAX_OUTPUT: usize = 64 << 10;

/// (opener, closer, prefix, suffix): the script is
/// `prefix + opener×n + inner + closer×n + suffix`.
const CONSTRUCTS: &[(&str, &str, &str, &str)] = &[
    ("!", "", "echo $(( ", " ))"),
    ("(", ")", "echo $(( ", " ))"),
    ("- ", "", "echo $(( ", " ))"),
    ("1?", ":1", "echo $(( ", " ))"),
    ("a=", "", "echo $(( ", " ))"),
    (".|", "", "jq -n '", "'"),
    ("[", "]", "jq -n '", "'"),
    ("(", ")", "jq -n '", "'"),
    ("1+", "", "jq -n '", "'"),
    ("\"\\(", ")\"", "jq -n '", "'"),
    ("case a in a) ", ";; esac ", "", ""),
    ("{ ", "; } ", "", ""),
    ("( ", ") ", "", ""),
    ("$(", ")", "echo ", ""),
    ("${a:-", "}", "echo ", ""),
    ("if true; then ", "; fi ", "", ""),
    ("! ", "", "[[ ", " ]]"),
    ("( ", " )", "[[ ", " ]]"),
    ("a && ", "", "[[ ", " ]]"),
    ("\\( ", "\\) ", "find / ", ""),
    ("! ", "", "find / ", ""),
    ("\\( ", "\\) ", "expr ", ""),
    ("(", ")", "awk 'BEGIN { print ", " }'"),
    ("!", "", "awk 'BEGIN { print ", " }'"),
    ("{ ", "} ", "awk 'BEGIN { ", " }'"),
    ("if (1) ", "", "awk 'BEGIN { ", " print 1 }'"),
    ("{", "}", "echo a | sed -n '", "p'"),
    ("(", ")", "echo a | grep -E '", "'"),
    ("{a,", "}", "echo ", ""),
    // More of the jq, awk and arithmetic parsers' recursive rules.
    ("{a:", "}", "jq -n '", "'"),
    ("if . then ", " else . end", "jq -n '", "'"),
    ("try ", "", "jq -n '", "'"),
    ("reduce . as $x (", "; .)", "jq -n '", "'"),
    ("-", "", "jq -n '", "'"),
    ("def f: ", "; f", "jq -n '", "'"),
    ("1?", ":1", "awk 'BEGIN { print ", " }'"),
    ("a = ", "", "awk 'BEGIN { x = ", "; print x }'"),
    ("-", "", "awk 'BEGIN { print ", " }'"),
    ("while (0) ", "", "awk 'BEGIN { ", " print 1 }'"),
    ("$((", "))", "echo $(( ", " ))"),
    ("~", "", "echo $(( ", " ))"),
    ("((", "))", "", ""),
    ("[ ", " ]", "echo ", ""),
];

fuzz_target!(|raw: &[u8]| {
    if raw.len() < 3 {
        return;
    }
    let (opener, closer, prefix, suffix) = CONSTRUCTS[usize::from(raw[0]) % CONSTRUCTS.len()];
    let count = usize::from(u16::from_le_bytes([raw[1], raw[2]]));
    let inner = String::from_utf8_lossy(&raw[3..]);
    let inner = if inner.trim().is_empty() { "1".into() } else { inner };
    let mut script = String::with_capacity(prefix.len() + (opener.len() + closer.len()) * count + inner.len() + 8);
    script.push_str(prefix);
    for _ in 0..count {
        script.push_str(opener);
    }
    script.push_str(&inner);
    for _ in 0..count {
        script.push_str(closer);
    }
    script.push_str(suffix);

    let options = ShellOptions {
        limits: Limits {
            max_commands: 1000,
            max_loop_iterations: 1000,
            max_function_depth: 20,
            max_output_bytes: MAX_OUTPUT,
            max_duration: Duration::from_millis(500),
            ..Limits::default()
        },
        ..ShellOptions::default()
    };
    let storage = Arc::new(MemoryStorage::new(MemoryLimits { max_total_bytes: 4 << 20, max_file_bytes: 1 << 20, ..MemoryLimits::default() }));
    let started = Instant::now();
    let result = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || Shell::new(storage, options).run(&script, None))
        .expect("spawn")
        .join()
        .expect("the shell panicked");
    // A bounded run: the time limit plus what one parse may take.
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert!(result.stdout.len() <= MAX_OUTPUT, "stdout past the cap: {} bytes", result.stdout.len());
    assert!(result.stderr.len() <= MAX_OUTPUT + 256, "stderr past the cap: {} bytes", result.stderr.len());
    assert!((0..=255).contains(&result.exit_code), "exit code {}", result.exit_code);
});
