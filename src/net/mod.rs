//! Network for the shell, opt-in: the one door the library opens on
//! purpose. A [`NetworkPolicy`] says which URLs (by parsed, normalised
//! prefix), methods and addresses a shell's `curl` and `wget` may reach,
//! with per-request limits and headers the program attaches; a
//! [`Session`] is one run's use of it, sending requests through ureq with
//! every address checked where it is connected to. Without a policy a
//! shell has no network at all (see `docs/SHELL.md`, "Network").
//!
//! This part uses the core's nothing and the host's network only; the
//! shell uses it, never the other way round.

mod client;
mod policy;

pub use client::{Exchange, NetError, Request, Session, HIDDEN};
pub use policy::{
    parse_url, redacted, AttachedHeader, NetworkPolicy, PolicyError, Refusal, UrlPrefix, DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_REQUESTS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT,
};
pub use url::Url;
