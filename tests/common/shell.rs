//! Running scripts in the in-process shell, for the tests that hold it to
//! real bash (`tests/shell_interp/`, `tests/shell_agent_scripts.rs`):
//! each keeps its own seed storage and options and calls these.

use std::sync::Arc;

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::Storage;

/// Runs `script` in a fresh shell over `storage`: (stdout, stderr, status).
pub fn run_in(storage: Arc<dyn Storage>, options: ShellOptions, script: &str) -> (String, String, i32) {
    let mut shell = Shell::new(storage, options);
    let result = shell.run(script, None);
    (
        String::from_utf8_lossy(&result.stdout).into_owned(),
        String::from_utf8_lossy(&result.stderr).into_owned(),
        result.exit_code,
    )
}

/// Asserts that a run of `script` gave bash's stdout, stderr and status.
pub fn expect(script: &str, (out, err, status): (String, String, i32), stdout: &str, stderr: &str, code: i32) {
    assert_eq!(out, stdout, "stdout of {script:?}");
    assert_eq!(err, stderr, "stderr of {script:?}");
    assert_eq!(status, code, "status of {script:?}");
}
