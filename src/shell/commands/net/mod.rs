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

/// The request a followed redirect leads to (`status`, towards `next`),
/// alike in curl and wget: a 303, or a 301/302 after a POST, becomes a GET
/// (a HEAD stays one) without body or Content-Type, and the credentials the
/// script gave (Authorization, Cookie) go to the first host only.
#[cfg(feature = "network")]
fn redirected(
    status: u16,
    next: &crate::net::Url,
    first_host: Option<&str>,
    method: &mut String,
    body: &mut Option<Vec<u8>>,
    headers: &mut Vec<(String, String)>,
) {
    if status == 303 || (matches!(status, 301 | 302) && method == "POST") {
        if method != "HEAD" {
            *method = "GET".to_string();
        }
        *body = None;
        headers.retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
    }
    if next.host_str() != first_host {
        headers.retain(|(name, _)| !name.eq_ignore_ascii_case("authorization") && !name.eq_ignore_ascii_case("cookie"));
    }
}
