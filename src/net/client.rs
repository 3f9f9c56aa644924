//! One run's way out: requests checked against the policy and sent by
//! ureq, whose resolver is ours, so the addresses checked are the very
//! addresses it connects to (no second lookup, no rebinding window). No
//! proxy from the environment, no redirect followed by ureq (the command
//! follows each hop, and each hop is checked again), no status as error.

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use ureq::config::Config;
use ureq::http;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
use url::Url;

use super::policy::{NetworkPolicy, Refusal};

/// What one run of a script may do on the network: its policy, and the
/// requests it has made so far (each redirect hop is one).
#[derive(Debug)]
pub struct Session {
    policy: Arc<NetworkPolicy>,
    requests: AtomicU32,
    agent: OnceLock<ureq::Agent>,
    /// The address the resolver let through last (for `curl -v`).
    last_address: Arc<Mutex<Option<SocketAddr>>>,
}

/// One request, as a command asks for it.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method, upper-case.
    pub method: String,
    /// The URL, parsed (the policy checks it again).
    pub url: Url,
    /// Headers the script set, in order (names as written).
    pub headers: Vec<(String, String)>,
    /// The body, if one is sent.
    pub body: Option<Vec<u8>>,
    /// A nearer end than the policy's timeout (`--max-time`, the run's clock).
    pub deadline: Option<Instant>,
}

/// Why a request failed, by kind; each command words it its own way.
#[derive(Debug)]
pub enum NetError {
    /// The policy refused the URL, method, address or request count.
    Refused(Refusal),
    /// The host name did not resolve.
    Resolve(String),
    /// No connection could be made.
    Connect {
        /// Host as in the URL.
        host: String,
        /// Port connected to.
        port: u16,
        /// Milliseconds spent.
        elapsed_ms: u128,
    },
    /// The timeout ran out.
    Timeout {
        /// Milliseconds spent.
        elapsed_ms: u128,
        /// Body bytes received.
        received: u64,
    },
    /// TLS failed: the handshake, or the server's certificate.
    Tls(String),
    /// The connection closed before the body's end.
    Partial,
    /// Reading failed otherwise (reset…).
    Recv(String),
    /// The response body passed the policy's cap.
    TooLarge {
        /// The cap, in bytes.
        cap: u64,
    },
    /// The server's reply was not HTTP as expected.
    Protocol(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Refused(refusal) => write!(f, "{refusal}"),
            NetError::Resolve(host) => write!(f, "could not resolve host: {host}"),
            NetError::Connect { host, port, .. } => write!(f, "failed to connect to {host} port {port}"),
            NetError::Timeout { elapsed_ms, .. } => write!(f, "timed out after {elapsed_ms} milliseconds"),
            NetError::Tls(detail) => write!(f, "TLS: {detail}"),
            NetError::Partial => f.write_str("the connection closed before the end of the body"),
            NetError::Recv(detail) => write!(f, "receive failure: {detail}"),
            NetError::TooLarge { cap } => {
                write!(f, "the response passed the network policy's size cap ({cap} bytes)")
            }
            NetError::Protocol(detail) => write!(f, "protocol error: {detail}"),
        }
    }
}

/// A response whose body is read as it comes, within the policy's cap.
pub struct Exchange {
    /// The status code.
    pub status: u16,
    /// `HTTP/1.1`, `HTTP/1.0`.
    pub version: &'static str,
    /// The response's headers, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The request's headers as sent, except that an attached header's
    /// value reads `[hidden by the network policy]`.
    pub sent: Vec<(String, String)>,
    /// The URL requested.
    pub url: Url,
    /// The address connected to, when known.
    pub address: Option<SocketAddr>,
    body: Box<dyn Read + Send>,
    cap: u64,
    received: u64,
    started: Instant,
}

impl std::fmt::Debug for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchange").field("status", &self.status).field("url", &self.url.as_str()).finish()
    }
}

/// What stands in for an attached header's value wherever a script could
/// read it.
pub const HIDDEN: &str = "[hidden by the network policy]";

impl Exchange {
    /// The first value of a header (name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// Body bytes received so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Reads the next piece of the body into `buf`: 0 at its end. Past the
    /// cap, fails with [`NetError::TooLarge`] before handing over the excess.
    pub fn read(&mut self, buf: &mut [u8]) -> Result<usize, NetError> {
        let n = match self.body.read(buf) {
            Ok(n) => n,
            Err(error) => return Err(self.body_error(error)),
        };
        self.received += n as u64;
        if self.received > self.cap {
            return Err(NetError::TooLarge { cap: self.cap });
        }
        Ok(n)
    }

    fn body_error(&self, error: std::io::Error) -> NetError {
        use std::io::ErrorKind;
        let text = error.to_string();
        match error.kind() {
            ErrorKind::TimedOut | ErrorKind::WouldBlock => {
                NetError::Timeout { elapsed_ms: self.started.elapsed().as_millis(), received: self.received }
            }
            ErrorKind::UnexpectedEof => NetError::Partial,
            ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
                NetError::Recv("Connection reset by peer".to_string())
            }
            _ if text.contains("timeout") || text.contains("timed out") => {
                NetError::Timeout { elapsed_ms: self.started.elapsed().as_millis(), received: self.received }
            }
            _ if text.contains("closed") || text.contains("EOF") || text.contains("eof") => NetError::Partial,
            _ => NetError::Recv(text),
        }
    }
}

/// The resolver ureq connects through: the system's lookup, then only the
/// addresses the policy allows, in the order found.
#[derive(Debug)]
struct CheckedResolver {
    policy: Arc<NetworkPolicy>,
    last: Arc<Mutex<Option<SocketAddr>>>,
}

/// The resolver's refusal, carried through ureq's error.
#[derive(Debug)]
struct AddressRefused(Refusal);

impl std::fmt::Display for AddressRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for AddressRefused {}

impl Resolver for CheckedResolver {
    fn resolve(
        &self,
        uri: &http::Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        // An address written in the URL needs no lookup (and no lookup thread).
        let literal =
            uri.host().and_then(|host| host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().ok());
        let found = match (literal, uri.port_u16().or_else(|| default_port(uri))) {
            (Some(ip), Some(port)) => {
                let mut found = self.empty();
                found.push(SocketAddr::new(ip, port));
                found
            }
            _ => DefaultResolver::default().resolve(uri, config, timeout)?,
        };
        let mut allowed = self.empty();
        let mut first_refusal = None;
        for address in found.iter() {
            match self.policy.check_address(address.ip()) {
                Ok(()) => allowed.push(*address),
                Err(refusal) => {
                    first_refusal.get_or_insert(refusal);
                }
            }
        }
        match (allowed.first(), first_refusal) {
            (Some(first), _) => {
                *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(*first);
                Ok(allowed)
            }
            (None, Some(refusal)) => Err(ureq::Error::Other(Box::new(AddressRefused(refusal)))),
            (None, None) => Err(ureq::Error::HostNotFound),
        }
    }
}

impl Session {
    /// A run's session under `policy`.
    pub fn new(policy: Arc<NetworkPolicy>) -> Self {
        Session { policy, requests: AtomicU32::new(0), agent: OnceLock::new(), last_address: Arc::default() }
    }

    /// The policy.
    pub fn policy(&self) -> &NetworkPolicy {
        &self.policy
    }

    fn agent(&self) -> &ureq::Agent {
        self.agent.get_or_init(|| {
            let config = Config::builder()
                .proxy(None)
                .max_redirects(0)
                .http_status_as_error(false)
                .allow_non_standard_methods(true)
                .user_agent(ureq::config::AutoHeaderValue::None)
                .accept(ureq::config::AutoHeaderValue::None)
                .accept_encoding(ureq::config::AutoHeaderValue::None)
                .build();
            let resolver = CheckedResolver { policy: self.policy.clone(), last: self.last_address.clone() };
            ureq::Agent::with_parts(config, DefaultConnector::default(), resolver)
        })
    }

    /// Sends one request (no redirect followed): checks the method, the
    /// URL and the request count, attaches the policy's headers (replacing
    /// any of the same name the script set), connects only to allowed
    /// addresses, and returns the response with its body still to read.
    pub fn send(&self, request: &Request) -> Result<Exchange, NetError> {
        let policy = &self.policy;
        policy.check_method(&request.method).map_err(NetError::Refused)?;
        policy.check_parsed(&request.url).map_err(NetError::Refused)?;
        let used = self.requests.fetch_add(1, Ordering::Relaxed);
        if used >= policy.max_requests() {
            self.requests.fetch_sub(1, Ordering::Relaxed);
            return Err(NetError::Refused(Refusal::Requests(policy.max_requests())));
        }
        let started = Instant::now();
        let mut timeout = policy.timeout();
        if let Some(deadline) = request.deadline {
            timeout = timeout.min(deadline.saturating_duration_since(started)).max(Duration::from_millis(1));
        }
        let mut url = request.url.clone();
        // The user and password go as `Authorization`, which the command
        // builds (curl does): never in the request line.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let mut headers: Vec<(String, String)> = Vec::new();
        for (name, value) in &request.headers {
            headers.retain(|(kept, _)| !kept.eq_ignore_ascii_case(name));
            headers.push((name.clone(), value.clone()));
        }
        let attached: Vec<_> = policy.headers_for(&request.url).collect();
        headers.retain(|(name, _)| !attached.iter().any(|header| header.name.eq_ignore_ascii_case(name)));
        let mut sent = vec![("Host".to_string(), host_header(&url))];
        sent.extend(headers.iter().cloned());
        sent.extend(attached.iter().map(|header| (header.name.clone(), HIDDEN.to_string())));

        let mut builder = http::Request::builder().method(request.method.as_str()).uri(url.as_str());
        for (name, value) in headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .chain(attached.iter().map(|header| (header.name.as_str(), header.value())))
        {
            builder = builder.header(name, value);
        }
        let result = match &request.body {
            Some(body) => {
                let built = builder.body(body.as_slice()).map_err(|e| NetError::Protocol(e.to_string()))?;
                let built = self.agent().configure_request(built).timeout_global(Some(timeout)).build();
                self.agent().run(built)
            }
            None => {
                let built = builder.body(()).map_err(|e| NetError::Protocol(e.to_string()))?;
                let built = self.agent().configure_request(built).timeout_global(Some(timeout)).build();
                self.agent().run(built)
            }
        };
        let response = result.map_err(|error| self.request_error(error, &url, started))?;
        let status = response.status().as_u16();
        let version = match response.version() {
            http::Version::HTTP_10 => "HTTP/1.0",
            http::Version::HTTP_2 => "HTTP/2",
            _ => "HTTP/1.1",
        };
        let headers = response
            .headers()
            .iter()
            .map(|(name, value)| (name.as_str().to_string(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
            .collect();
        let address = *self.last_address.lock().unwrap_or_else(PoisonError::into_inner);
        let body = response.into_body().into_reader();
        Ok(Exchange {
            status,
            version,
            headers,
            sent,
            url: request.url.clone(),
            address,
            body: Box::new(body),
            cap: policy.max_response_bytes(),
            received: 0,
            started,
        })
    }

    fn request_error(&self, error: ureq::Error, url: &Url, started: Instant) -> NetError {
        let elapsed_ms = started.elapsed().as_millis();
        let host = url.host_str().unwrap_or("").to_string();
        let port = url.port_or_known_default().unwrap_or(0);
        match error {
            ureq::Error::Other(inner) => match inner.downcast::<AddressRefused>() {
                Ok(refused) => NetError::Refused(refused.0),
                Err(inner) => NetError::Recv(inner.to_string()),
            },
            ureq::Error::HostNotFound => NetError::Resolve(host),
            ureq::Error::Timeout(_) => NetError::Timeout { elapsed_ms, received: 0 },
            ureq::Error::ConnectionFailed => NetError::Connect { host, port, elapsed_ms },
            ureq::Error::Io(io) => match io.kind() {
                std::io::ErrorKind::ConnectionRefused
                | std::io::ErrorKind::AddrNotAvailable
                | std::io::ErrorKind::NetworkUnreachable
                | std::io::ErrorKind::HostUnreachable => NetError::Connect { host, port, elapsed_ms },
                std::io::ErrorKind::TimedOut => NetError::Timeout { elapsed_ms, received: 0 },
                std::io::ErrorKind::UnexpectedEof => NetError::Protocol("Empty reply from server".to_string()),
                std::io::ErrorKind::ConnectionReset => NetError::Recv("Connection reset by peer".to_string()),
                _ if io.to_string().contains("failed to lookup") => NetError::Resolve(host),
                _ => NetError::Recv(io.to_string()),
            },
            ureq::Error::Tls(detail) => NetError::Tls(detail.to_string()),
            ureq::Error::Rustls(error) => NetError::Tls(error.to_string()),
            ureq::Error::Protocol(error) => NetError::Protocol(error.to_string()),
            other => NetError::Recv(other.to_string()),
        }
    }
}

/// The port a scheme implies.
fn default_port(uri: &http::Uri) -> Option<u16> {
    match uri.scheme_str()? {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

/// `Host:` as sent: the host, and the port when not the scheme's default.
fn host_header(url: &Url) -> String {
    let host = url.host_str().unwrap_or("");
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    }
}
