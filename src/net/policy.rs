//! What a shell may reach: URL prefixes, methods, address ranges, limits,
//! and the headers the program attaches. Every check is on a parsed,
//! normalised URL (`url`, WHATWG) or on an address, never on text.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use ipnet::IpNet;
use url::{Host, Url};

/// Why a policy could not take a rule, or refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError(pub String);

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PolicyError {}

/// One allowed URL prefix, normalised: scheme, host, port and the path's
/// decoded segments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlPrefix {
    scheme: String,
    host: Host<String>,
    port: u16,
    segments: Vec<Vec<u8>>,
    /// As the program wrote it, normalised (for messages).
    text: String,
}

impl UrlPrefix {
    /// Reads a prefix such as `https://api.example.com/v1`: http or https,
    /// a host, no user, query or fragment.
    pub fn parse(prefix: &str) -> Result<UrlPrefix, PolicyError> {
        let bad = |why: &str| PolicyError(format!("URL prefix {prefix:?}: {why}"));
        let url = Url::parse(prefix).map_err(|error| bad(&error.to_string()))?;
        if url.scheme() != "http" && url.scheme() != "https" {
            return Err(bad("only http and https URLs can be allowed"));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(bad("a prefix has no user name or password (attach a header instead)"));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(bad("a prefix has no query or fragment"));
        }
        let (scheme, host, port) = origin(&url).ok_or_else(|| bad("no host"))?;
        let mut segments = path_segments(&url);
        // `/api/` and `/api` are the same prefix: the segment `api`.
        if segments.last().is_some_and(|last| last.is_empty()) {
            segments.pop();
        }
        Ok(UrlPrefix { scheme, host, port, segments, text: url.to_string() })
    }

    /// Whether `url` (already parsed and normalised) falls under this prefix:
    /// same scheme, host and port, and the prefix's path segments first.
    pub fn matches(&self, url: &Url) -> bool {
        let Some((scheme, host, port)) = origin(url) else { return false };
        if scheme != self.scheme || host != self.host || port != self.port {
            return false;
        }
        let segments = path_segments(url);
        segments.len() >= self.segments.len() && self.segments.iter().zip(&segments).all(|(a, b)| a == b)
    }
}

impl fmt::Display for UrlPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The scheme, the host (a domain without its trailing dot) and the port
/// (the scheme's default when none is written).
fn origin(url: &Url) -> Option<(String, Host<String>, u16)> {
    let host = match url.host()? {
        Host::Domain(domain) => Host::Domain(domain.strip_suffix('.').unwrap_or(domain).to_string()),
        Host::Ipv4(address) => Host::Ipv4(address),
        Host::Ipv6(address) => Host::Ipv6(address),
    };
    Some((url.scheme().to_string(), host, url.port_or_known_default()?))
}

/// The path's segments, each percent-decoded (the parser has already
/// removed dot segments, `%2e` ones included).
fn path_segments(url: &Url) -> Vec<Vec<u8>> {
    url.path()
        .strip_prefix('/')
        .unwrap_or(url.path())
        .split('/')
        .map(|segment| percent_encoding::percent_decode_str(segment).collect())
        .collect()
}

/// A header the program attaches to every request under a prefix (a
/// token): sent, never shown to the script.
#[derive(Clone, PartialEq, Eq)]
pub struct AttachedHeader {
    /// Where it is sent.
    pub prefix: UrlPrefix,
    /// The header's name, as given.
    pub name: String,
    value: String,
}

impl AttachedHeader {
    /// The value, for the client that sends it (never for a script).
    pub(crate) fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Debug for AttachedHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AttachedHeader({}, {}: <hidden>)", self.prefix, self.name)
    }
}

/// What the shells given this policy may reach with `curl` and `wget`.
/// Without one, a shell has no network at all.
///
/// A request is sent only when its URL, parsed and normalised, falls under
/// an allowed prefix, its method is allowed, and the address it connects
/// to is public or inside a named range; each redirect hop is checked the
/// same way. Loopback, private, link-local, shared (CGNAT), multicast and
/// reserved ranges, and the cloud metadata addresses, are refused unless
/// [`allow_address`](Self::allow_address) names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkPolicy {
    prefixes: Vec<UrlPrefix>,
    methods: Vec<String>,
    addresses: Vec<IpNet>,
    headers: Vec<AttachedHeader>,
    timeout: Duration,
    max_response_bytes: u64,
    max_requests: u32,
    max_redirects: u32,
}

/// The defaults of a new policy.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default response-size cap: 10 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 10 << 20;
/// Default requests per run (each redirect hop is one).
pub const DEFAULT_MAX_REQUESTS: u32 = 50;
/// Default redirects followed by one command.
pub const DEFAULT_MAX_REDIRECTS: u32 = 10;

impl Default for NetworkPolicy {
    fn default() -> Self {
        NetworkPolicy::new()
    }
}

impl NetworkPolicy {
    /// A policy that allows nothing yet: no prefix, methods GET and HEAD,
    /// public addresses only, a 30 s timeout, a 10 MiB response cap, 50
    /// requests per run, 10 redirects per command.
    pub fn new() -> Self {
        NetworkPolicy {
            prefixes: Vec::new(),
            methods: vec!["GET".to_string(), "HEAD".to_string()],
            addresses: Vec::new(),
            headers: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            max_requests: DEFAULT_MAX_REQUESTS,
            max_redirects: DEFAULT_MAX_REDIRECTS,
        }
    }

    /// Allows the URLs under `prefix` (scheme, host, port, path prefix on
    /// segment boundaries: `/api` allows `/api/x`, not `/apiary`).
    pub fn allow_url(&mut self, prefix: &str) -> Result<&mut Self, PolicyError> {
        self.prefixes.push(UrlPrefix::parse(prefix)?);
        Ok(self)
    }

    /// Allows a method besides GET and HEAD (`POST`, `PUT`…).
    pub fn allow_method(&mut self, method: &str) -> Result<&mut Self, PolicyError> {
        if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_') {
            return Err(PolicyError(format!("method {method:?}: not a method name")));
        }
        let method = method.to_ascii_uppercase();
        if !self.methods.contains(&method) {
            self.methods.push(method);
        }
        Ok(self)
    }

    /// Allows the addresses of a range (`127.0.0.1/32`, `10.0.0.0/8`,
    /// `::1`, `fd00::/8`; a bare address is a range of one).
    pub fn allow_address(&mut self, range: &str) -> Result<&mut Self, PolicyError> {
        let net = match range.parse::<IpNet>() {
            Ok(net) => net,
            Err(_) => match range.parse::<IpAddr>() {
                Ok(address) => IpNet::from(address),
                Err(_) => return Err(PolicyError(format!("address range {range:?}: not an address or CIDR range"))),
            },
        };
        self.addresses.push(net.trunc());
        Ok(self)
    }

    /// Attaches `name: value` to every request under `prefix`. The script
    /// never sees the value: not in its environment, not in `curl -v`, and
    /// a header of the same name it sets is replaced.
    pub fn attach_header(&mut self, prefix: &str, name: &str, value: &str) -> Result<&mut Self, PolicyError> {
        let prefix = UrlPrefix::parse(prefix)?;
        let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(token) {
            return Err(PolicyError(format!("header name {name:?}: not a header name")));
        }
        if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(PolicyError(format!("header {name}: its value holds a line break or NUL")));
        }
        self.headers.push(AttachedHeader { prefix, name: name.to_string(), value: value.to_string() });
        Ok(self)
    }

    /// Sets the time one request may take, from connecting to the body's
    /// last byte (at least 1 ms).
    pub fn set_timeout(&mut self, timeout: Duration) -> &mut Self {
        self.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// Sets the most bytes of one response body.
    pub fn set_max_response_bytes(&mut self, bytes: u64) -> &mut Self {
        self.max_response_bytes = bytes;
        self
    }

    /// Sets the most requests of one run of a script (each redirect hop
    /// counts).
    pub fn set_max_requests(&mut self, requests: u32) -> &mut Self {
        self.max_requests = requests;
        self
    }

    /// Sets the most redirects one command follows.
    pub fn set_max_redirects(&mut self, redirects: u32) -> &mut Self {
        self.max_redirects = redirects;
        self
    }

    /// The per-request timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The response-size cap.
    pub fn max_response_bytes(&self) -> u64 {
        self.max_response_bytes
    }

    /// The requests allowed per run.
    pub fn max_requests(&self) -> u32 {
        self.max_requests
    }

    /// The redirects one command follows.
    pub fn max_redirects(&self) -> u32 {
        self.max_redirects
    }

    /// The allowed prefixes.
    pub fn prefixes(&self) -> &[UrlPrefix] {
        &self.prefixes
    }

    /// The allowed methods, upper-case.
    pub fn methods(&self) -> &[String] {
        &self.methods
    }

    /// The address ranges named.
    pub fn addresses(&self) -> &[IpNet] {
        &self.addresses
    }

    /// Parses `text` as a URL (WHATWG) and checks it: http or https, and
    /// under an allowed prefix. The URL returned is the one to request,
    /// without its fragment.
    pub fn check_url(&self, text: &str) -> Result<Url, Refusal> {
        let mut url = parse_url(text)?;
        url.set_fragment(None);
        self.check_parsed(&url)?;
        Ok(url)
    }

    /// Checks an already parsed URL against the prefixes.
    pub fn check_parsed(&self, url: &Url) -> Result<(), Refusal> {
        if url.scheme() != "http" && url.scheme() != "https" {
            return Err(Refusal::Unsupported(url.scheme().to_string()));
        }
        if self.prefixes.iter().any(|prefix| prefix.matches(url)) {
            Ok(())
        } else {
            Err(Refusal::Url(redacted(url)))
        }
    }

    /// Checks a method (upper-cased first).
    pub fn check_method(&self, method: &str) -> Result<(), Refusal> {
        let upper = method.to_ascii_uppercase();
        if self.methods.contains(&upper) {
            Ok(())
        } else {
            Err(Refusal::Method(method.to_string()))
        }
    }

    /// Checks the address a connection would go to: inside a named range,
    /// or public. An IPv4 address inside IPv6 (mapped, NAT64, 6to4) is
    /// checked as the IPv4 address too.
    pub fn check_address(&self, address: IpAddr) -> Result<(), Refusal> {
        let named = |address: IpAddr| self.addresses.iter().any(|net| net.contains(&address));
        let canonical = canonical(address);
        if named(address) || named(canonical) {
            return Ok(());
        }
        match special_range(canonical).or_else(|| embedded_ipv4(address).and_then(|v4| special_range(IpAddr::V4(v4)))) {
            Some(range) => Err(Refusal::Address(address, range)),
            None => Ok(()),
        }
    }

    /// The headers attached to `url`: every one whose prefix matches.
    pub fn headers_for<'a>(&'a self, url: &'a Url) -> impl Iterator<Item = &'a AttachedHeader> + 'a {
        self.headers.iter().filter(move |header| header.prefix.matches(url))
    }

    /// Whether a header of this name is one the policy attaches somewhere
    /// (its value is then hidden from `curl -v`).
    pub fn attaches(&self, name: &str) -> bool {
        self.headers.iter().any(|header| header.name.eq_ignore_ascii_case(name))
    }
}

/// Parses a URL the way the policy reads it; a URL without a scheme is
/// `http://`, as curl reads it.
pub fn parse_url(text: &str) -> Result<Url, Refusal> {
    let with_scheme = if text.contains("://") { text.to_string() } else { format!("http://{text}") };
    let url = Url::parse(&with_scheme).map_err(|_| Refusal::Malformed(text.to_string()))?;
    if url.host().is_none() {
        return Err(Refusal::Malformed(text.to_string()));
    }
    Ok(url)
}

/// The URL for a message: without its password.
pub fn redacted(url: &Url) -> String {
    let mut shown = url.clone();
    if shown.password().is_some() {
        let _ = shown.set_password(Some("***"));
    }
    shown.to_string()
}

/// Why the policy refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The text is not a URL with a host.
    Malformed(String),
    /// Not http or https.
    Unsupported(String),
    /// No allowed prefix covers the URL.
    Url(String),
    /// The method is not allowed.
    Method(String),
    /// The address connected to is in a refused range.
    Address(IpAddr, &'static str),
    /// The run used all its requests.
    Requests(u32),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Malformed(text) => write!(f, "malformed URL: {text}"),
            Refusal::Unsupported(scheme) => write!(f, "Protocol \"{scheme}\" not supported"),
            Refusal::Url(url) => write!(f, "the network policy refused {url}: no allowed URL prefix covers it"),
            Refusal::Method(method) => write!(f, "the network policy refused the method {method}"),
            Refusal::Address(address, range) => {
                write!(f, "the network policy refused the address {address} ({range}; not an allowed address range)")
            }
            Refusal::Requests(max) => {
                write!(f, "the network policy's request limit ({max} per run) is reached")
            }
        }
    }
}

/// An IPv4-mapped IPv6 address as its IPv4 address; any other as is.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

/// The IPv4 address carried inside an IPv6 one by NAT64 (`64:ff9b::/96`),
/// 6to4 (`2002::/16`) or the old compatible form (`::a.b.c.d`).
fn embedded_ipv4(address: IpAddr) -> Option<Ipv4Addr> {
    let IpAddr::V6(v6) = address else { return None };
    let s = v6.segments();
    let last = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    match s {
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(last),
        [0x2002, high, low, ..] => Some(Ipv4Addr::new((high >> 8) as u8, high as u8, (low >> 8) as u8, low as u8)),
        [0, 0, 0, 0, 0, 0, _, _] => Some(last),
        _ => None,
    }
}

/// The refused range an address falls in, by name; `None` for a public one.
fn special_range(address: IpAddr) -> Option<&'static str> {
    match address {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            if v4 == Ipv4Addr::new(169, 254, 169, 254) || v4 == Ipv4Addr::new(100, 100, 100, 200) {
                return Some("cloud metadata");
            }
            Some(match (a, b, c) {
                (127, ..) => "loopback",
                (0, ..) => "unspecified",
                (10, ..) | (172, 16..=31, _) | (192, 168, _) => "private",
                (169, 254, _) => "link-local",
                (100, 64..=127, _) => "shared (carrier-grade NAT)",
                (192, 0, 0) | (198, 18..=19, _) => "reserved",
                (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
                (224..=239, ..) => "multicast",
                (240..=255, ..) => "reserved",
                _ => return None,
            })
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            if v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
                return Some("cloud metadata");
            }
            Some(match s[0] {
                _ if v6.is_loopback() => "loopback",
                _ if v6.is_unspecified() => "unspecified",
                0xfc00..=0xfdff => "private (unique local)",
                0xfe80..=0xfebf => "link-local",
                0xfec0..=0xfeff => "site-local",
                0xff00..=0xffff => "multicast",
                0x2001 if s[1] == 0 => "Teredo",
                0x2001 if s[1] == 0xdb8 => "documentation",
                0x0100 if s[1..4] == [0, 0, 0] => "discard",
                _ => return None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(prefixes: &[&str]) -> NetworkPolicy {
        let mut policy = NetworkPolicy::new();
        for prefix in prefixes {
            policy.allow_url(prefix).unwrap();
        }
        policy
    }

    fn allowed(policy: &NetworkPolicy, url: &str) -> bool {
        policy.check_url(url).is_ok()
    }

    #[test]
    fn prefixes_match_the_normalised_url_on_segment_boundaries() {
        let p = policy(&["https://api.example.com/v1/"]);
        for url in [
            "https://api.example.com/v1",
            "https://api.example.com/v1/users?x=1#f",
            "https://API.Example.COM/v1/users",
            "https://api.example.com:443/v1/users",
            "https://api.example.com./v1/users",
            "https://api.example.com/v2/../v1/x",
            "https://api.example.com/v2/%2e%2e/v1/x",
            "https://api.example.com/%76%31/x",
            "https://api.example.com/./v1//x",
        ] {
            assert!(allowed(&p, url), "{url} should be allowed");
        }
        for url in [
            "https://api.example.com/v1x",
            "https://api.example.com/v10/a",
            "https://api.example.com/v1/../v2",
            "https://api.example.com/v1/%2e%2e/v2",
            "https://api.example.com/v1%2F..%2Fv2",
            "http://api.example.com/v1/",
            "https://api.example.com:8443/v1/",
            "https://api.example.com@evil.example/v1/",
            "https://api.example.com.evil.example/v1/",
            "https://evil.example/https://api.example.com/v1/",
            "ftp://api.example.com/v1/",
            "https://api.example.co/v1/",
        ] {
            assert!(!allowed(&p, url), "{url} should be refused");
        }
        let api = policy(&["http://h.example/api"]);
        assert!(allowed(&api, "http://h.example/api"));
        assert!(allowed(&api, "http://h.example/api/"));
        assert!(!allowed(&api, "http://h.example/apiary"));
        assert!(!allowed(&api, "http://h.example/"));
    }

    #[test]
    fn hosts_in_every_spelling() {
        let p = policy(&["http://127.0.0.1:8080/"]);
        for url in
            ["http://2130706433:8080/", "http://0x7f.0.0.1:8080/", "http://0177.0.0.1:8080/x", "http://127.1:8080/"]
        {
            assert!(allowed(&p, url), "{url}");
        }
        assert!(!allowed(&p, "http://[::ffff:127.0.0.1]:8080/"), "a mapped address is another host");
        let v6 = policy(&["http://[::1]/"]);
        assert!(allowed(&v6, "http://[0:0:0:0:0:0:0:1]:80/a"));
        let idn = policy(&["https://bücher.example/"]);
        assert!(allowed(&idn, "https://xn--bcher-kva.example/x"));
        assert!(allowed(&idn, "https://BÜCHER.example/x"));
        assert!(allowed(&policy(&["http://h.example/"]), "h.example/x"), "no scheme is http, as in curl");
    }

    #[test]
    fn prefixes_refuse_what_cannot_be_a_prefix() {
        let mut p = NetworkPolicy::new();
        assert!(p.allow_url("ftp://x.example/").is_err());
        assert!(p.allow_url("http://user:pw@x.example/").is_err());
        assert!(p.allow_url("http://x.example/?q=1").is_err());
        assert!(p.allow_url("not a url").is_err());
        assert!(p.allow_address("10.0.0.0/33").is_err());
        assert!(p.allow_method("GET /").is_err());
        assert!(p.attach_header("http://x.example/", "Bad Name", "v").is_err());
        assert!(p.attach_header("http://x.example/", "X", "a\r\nb: c").is_err());
    }

    #[test]
    fn addresses_in_special_ranges_are_refused_unless_named() {
        let mut p = NetworkPolicy::new();
        for address in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.100.200",
            "0.0.0.0",
            "::1",
            "::",
            "fe80::1",
            "fd00:ec2::254",
            "fc00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "224.0.0.1",
        ] {
            let ip: IpAddr = address.parse().unwrap();
            assert!(p.check_address(ip).is_err(), "{address} should be refused");
        }
        for address in ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "8.8.8.8"] {
            assert!(p.check_address(address.parse().unwrap()).is_ok(), "{address}");
        }
        p.allow_address("127.0.0.1/32").unwrap();
        assert!(p.check_address("127.0.0.1".parse().unwrap()).is_ok());
        assert!(p.check_address("::ffff:127.0.0.1".parse().unwrap()).is_ok());
        assert!(p.check_address("127.0.0.2".parse().unwrap()).is_err());
        assert!(p.check_address("::1".parse().unwrap()).is_err());
        let refusal = p.check_address("169.254.169.254".parse().unwrap()).unwrap_err();
        assert!(refusal.to_string().contains("cloud metadata"), "{refusal}");
    }

    #[test]
    fn methods_default_to_get_and_head() {
        let mut p = NetworkPolicy::new();
        assert!(p.check_method("GET").is_ok() && p.check_method("head").is_ok());
        assert!(p.check_method("POST").is_err());
        p.allow_method("post").unwrap();
        assert!(p.check_method("POST").is_ok());
    }

    #[test]
    fn headers_attach_by_prefix_and_never_print() {
        let mut p = policy(&["https://a.example/"]);
        p.attach_header("https://a.example/api", "Authorization", "Bearer s3cret").unwrap();
        let url = p.check_url("https://a.example/api/x").unwrap();
        assert_eq!(p.headers_for(&url).map(|h| h.value()).collect::<Vec<_>>(), ["Bearer s3cret"]);
        let other = p.check_url("https://a.example/apix").unwrap();
        assert_eq!(p.headers_for(&other).count(), 0);
        assert!(!format!("{p:?}").contains("s3cret"));
    }
}
