//! `curl` and `wget`: the shell's network, through the run's network
//! policy (`crate::net`). Without the `network` feature the table has
//! neither; with it and no policy, both say the network is off.

use super::super::command::CommandFn;

#[cfg(feature = "network")]
mod body;
#[cfg(feature = "network")]
mod curl;
#[cfg(feature = "network")]
mod wget;

/// The commands of this group.
#[cfg(feature = "network")]
pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("curl", curl::curl), ("wget", wget::wget)];
/// The commands of this group: none without the `network` feature.
#[cfg(not(feature = "network"))]
pub(super) const COMMANDS: &[(&str, CommandFn)] = &[];
