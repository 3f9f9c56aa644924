//! (to be written)

use crate::shell::command::CommandFn;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[];
