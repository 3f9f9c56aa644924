//! `curl`: the flags agents use, curl's exit codes and messages, through
//! the run's network policy (docs/SHELL.md, "Network").

use std::time::{Duration, Instant};

use crate::net::{parse_url, Exchange, NetError, Refusal, Request, Session, Url};

use super::super::super::command::{Context, Network};
use super::super::super::LimitHit;
use super::super::utils::encode_group;
use super::body::{copy, Coding, Sink, Stop};

/// What curl's `User-Agent` says by default.
const USER_AGENT: &str = "curl/8.14.1";

/// curl's parsed command line.
#[derive(Default)]
struct Options {
    urls: Vec<String>,
    outputs: Vec<Option<String>>,
    silent: bool,
    show_error: bool,
    fail: bool,
    fail_with_body: bool,
    location: bool,
    method: Option<String>,
    headers: Vec<String>,
    /// Pieces of `-d` & co., joined with `&`.
    data: Vec<Vec<u8>>,
    json: bool,
    get: bool,
    head: bool,
    include: bool,
    write_out: Option<String>,
    max_time: Option<Duration>,
    user: Option<String>,
    user_agent: Option<String>,
    referer: Option<String>,
    compressed: bool,
    verbose: bool,
    max_redirs: Option<u32>,
}

/// A failure with curl's exit code and its message (after `curl: (N) `).
struct Failure {
    code: i32,
    message: String,
    /// Printed even under `-s`: the policy's refusals, which real curl
    /// never meets, and which a script must see to change course.
    always: bool,
}

impl Failure {
    fn new(code: i32, message: impl Into<String>) -> Self {
        Failure { code, message: message.into(), always: false }
    }
}

fn usage(ctx: &mut Context<'_>, message: &str) -> Result<i32, LimitHit> {
    ctx.stderr
        .write_str(&format!("curl: {message}\ncurl: try 'curl --help' or 'curl --manual' for more information\n"))?;
    Ok(2)
}

/// Options that take a value, by long name, with their short letter.
const WITH_VALUE: &[(&str, char)] = &[
    ("request", 'X'),
    ("header", 'H'),
    ("data", 'd'),
    ("data-ascii", '\0'),
    ("data-raw", '\0'),
    ("data-binary", '\0'),
    ("data-urlencode", '\0'),
    ("json", '\0'),
    ("output", 'o'),
    ("write-out", 'w'),
    ("max-time", 'm'),
    ("user", 'u'),
    ("user-agent", 'A'),
    ("referer", 'e'),
    ("url", '\0'),
    ("max-redirs", '\0'),
    ("connect-timeout", '\0'),
    ("retry", '\0'),
    ("proxy", 'x'),
    ("form", 'F'),
    ("upload-file", 'T'),
    ("cookie", 'b'),
    ("cookie-jar", 'c'),
    ("max-filesize", '\0'),
];

/// Flags without a value, by long name, with their short letter.
const FLAGS: &[(&str, char)] = &[
    ("silent", 's'),
    ("show-error", 'S'),
    ("fail", 'f'),
    ("fail-with-body", '\0'),
    ("location", 'L'),
    ("get", 'G'),
    ("head", 'I'),
    ("include", 'i'),
    ("compressed", '\0'),
    ("verbose", 'v'),
    ("remote-name", 'O'),
    ("insecure", 'k'),
    ("no-progress-meter", '\0'),
    ("progress-bar", '#'),
    ("ipv4", '4'),
    ("ipv6", '6'),
    ("create-dirs", '\0'),
    ("globoff", 'g'),
    ("no-buffer", 'N'),
];

pub(super) fn curl(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut options = Options::default();
    let mut words = args.iter();
    let mut only_urls = false;
    while let Some(word) = words.next() {
        if only_urls || !word.starts_with('-') || word == "-" {
            options.urls.push(word.clone());
            continue;
        }
        if word == "--" {
            only_urls = true;
            continue;
        }
        // (long name, the value written after it in the same word)
        let mut pending: Vec<(String, Option<String>)> = Vec::new();
        if let Some(long) = word.strip_prefix("--") {
            pending.push((long.to_string(), None));
        } else {
            let letters: Vec<char> = word[1..].chars().collect();
            let mut at = 0;
            while at < letters.len() {
                let letter = letters[at];
                if let Some((name, _)) = WITH_VALUE.iter().find(|(_, short)| *short == letter) {
                    let rest: String = letters[at + 1..].iter().collect();
                    pending.push((name.to_string(), (!rest.is_empty()).then_some(rest)));
                    break;
                }
                match FLAGS.iter().find(|(_, short)| *short == letter) {
                    Some((name, _)) => pending.push((name.to_string(), None)),
                    None => return usage(ctx, &format!("option -{letter}: is unknown")),
                }
                at += 1;
            }
        }
        for (name, attached) in pending {
            if WITH_VALUE.iter().any(|(long, _)| *long == name) {
                let value = match attached.or_else(|| words.next().cloned()) {
                    Some(value) => value,
                    None => return usage(ctx, &format!("option --{name}: requires parameter")),
                };
                if let Err(message) = take_value(ctx, &mut options, &name, value) {
                    return match message {
                        Taken::Usage(message) => usage(ctx, &message),
                        Taken::Fail(failure) => report(ctx, &options, failure),
                        Taken::Limit(hit) => Err(hit),
                    };
                }
            } else if FLAGS.iter().any(|(long, _)| *long == name) {
                take_flag(&mut options, &name);
            } else {
                return usage(ctx, &format!("option --{name}: is unknown"));
            }
        }
    }
    if options.urls.is_empty() {
        ctx.stderr
            .write_str("curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\n")?;
        return Ok(2);
    }
    let Some(network) = ctx.runner.network() else {
        let failure = Failure {
            code: 7,
            message: "the network is off in this shell: no network policy allows any URL".to_string(),
            always: true,
        };
        return report(ctx, &options, failure);
    };
    let mut status = 0;
    for index in 0..options.urls.len() {
        let output = options.outputs.get(index).cloned().flatten();
        status = match transfer(ctx, &options, &network, index, output) {
            Ok(code) => code,
            Err(Taken::Fail(failure)) => report(ctx, &options, failure)?,
            Err(Taken::Limit(hit)) => return Err(hit),
            Err(Taken::Usage(message)) => return usage(ctx, &message),
        };
    }
    Ok(status)
}

/// Why taking an option or making a transfer stopped.
enum Taken {
    Usage(String),
    Fail(Failure),
    Limit(LimitHit),
}

impl From<LimitHit> for Taken {
    fn from(hit: LimitHit) -> Self {
        Taken::Limit(hit)
    }
}

fn take_flag(options: &mut Options, name: &str) {
    match name {
        "silent" => options.silent = true,
        "show-error" => options.show_error = true,
        "fail" => options.fail = true,
        "fail-with-body" => options.fail_with_body = true,
        "location" => options.location = true,
        "get" => options.get = true,
        "head" => options.head = true,
        "include" => options.include = true,
        "compressed" => options.compressed = true,
        "verbose" => options.verbose = true,
        "remote-name" => {
            let at = options.outputs.iter().position(Option::is_none).unwrap_or(options.outputs.len());
            if at == options.outputs.len() {
                options.outputs.push(Some(String::new()));
            } else {
                options.outputs[at] = Some(String::new());
            }
        }
        // No progress meter is ever drawn; the address family, globbing
        // and buffering change nothing here; -k is refused when used (a
        // certificate is always checked).
        _ => {}
    }
}

fn take_value(ctx: &mut Context<'_>, options: &mut Options, name: &str, value: String) -> Result<(), Taken> {
    match name {
        "request" => options.method = Some(value),
        "header" => options.headers.push(value),
        "data" | "data-ascii" => {
            let mut bytes = file_or_text(ctx, &value)?;
            if value.starts_with('@') {
                bytes.retain(|&b| b != b'\n' && b != b'\r');
            }
            options.data.push(bytes);
        }
        "data-raw" => options.data.push(value.into_bytes()),
        "data-binary" => options.data.push(file_or_text(ctx, &value)?),
        "json" => {
            options.json = true;
            let bytes = file_or_text(ctx, &value)?;
            match options.data.last_mut() {
                // --json pieces join with nothing between them.
                Some(last) if options.json => last.extend_from_slice(&bytes),
                _ => options.data.push(bytes),
            }
        }
        "data-urlencode" => options.data.push(urlencode_data(ctx, &value)?),
        "output" => {
            let at = options.outputs.iter().position(Option::is_none).unwrap_or(options.outputs.len());
            if at == options.outputs.len() {
                options.outputs.push(Some(value));
            } else {
                options.outputs[at] = Some(value);
            }
        }
        "write-out" => {
            options.write_out = Some(match value.strip_prefix('@') {
                Some(path) => String::from_utf8_lossy(&file_or_text(ctx, &format!("@{path}"))?).into_owned(),
                None => value,
            })
        }
        "max-time" => match value.parse::<f64>() {
            Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => {
                options.max_time = Some(Duration::from_secs_f64(seconds.min(1e9)))
            }
            _ => return Err(Taken::Usage("option --max-time: expected a proper numerical parameter".to_string())),
        },
        "max-redirs" => match value.parse::<i64>() {
            Ok(n) => options.max_redirs = Some(n.clamp(0, u32::MAX as i64) as u32),
            Err(_) => {
                return Err(Taken::Usage("option --max-redirs: expected a proper numerical parameter".to_string()))
            }
        },
        "user" => options.user = Some(value),
        "user-agent" => options.user_agent = Some(value),
        "referer" => options.referer = Some(value),
        "url" => options.urls.push(value),
        "connect-timeout" | "retry" | "max-filesize" => {}
        "proxy" => {
            return Err(Taken::Fail(Failure {
                code: 5,
                message: "no proxy in this shell: requests go only where the network policy allows".to_string(),
                always: true,
            }))
        }
        other => {
            return Err(Taken::Usage(format!("option --{other}: is not supported in this shell")));
        }
    }
    Ok(())
}

/// `@file` (`@-`: stdin) as its bytes, other text as itself.
fn file_or_text(ctx: &mut Context<'_>, value: &str) -> Result<Vec<u8>, Taken> {
    let Some(path) = value.strip_prefix('@') else { return Ok(value.as_bytes().to_vec()) };
    match ctx.read(path) {
        Ok(bytes) => Ok(bytes),
        Err(_) => {
            ctx.stderr.write_str(&format!(
                "Warning: Couldn't read data from file \"{path}\", this makes an empty \nWarning: POST.\n"
            ))?;
            Ok(Vec::new())
        }
    }
}

/// `--data-urlencode`'s forms: `content`, `=content`, `name=content`,
/// `@file`, `name@file`.
fn urlencode_data(ctx: &mut Context<'_>, value: &str) -> Result<Vec<u8>, Taken> {
    let (name, content) = match value.find(['=', '@']) {
        Some(at) if value.as_bytes()[at] == b'=' => (&value[..at], value.as_bytes()[at + 1..].to_vec()),
        Some(at) => (&value[..at], file_or_text(ctx, &value[at..])?),
        None => ("", value.as_bytes().to_vec()),
    };
    let encoded = percent_encode(&content);
    Ok(if name.is_empty() { encoded.into_bytes() } else { format!("{name}={encoded}").into_bytes() })
}

/// Percent-encodes all but unreserved characters, as curl's escape does.
fn percent_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn base64(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        encode_group(chunk, &mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Prints `curl: (N) message` unless silenced, and returns N.
fn report(ctx: &mut Context<'_>, options: &Options, failure: Failure) -> Result<i32, LimitHit> {
    if failure.always || !options.silent || options.show_error {
        ctx.stderr.write_str(&format!("curl: ({}) {}\n", failure.code, failure.message))?;
    }
    Ok(failure.code)
}

/// curl's code and words for a network failure.
fn failure(error: NetError) -> Failure {
    match error {
        NetError::Refused(Refusal::Malformed(_)) => Failure::new(3, "URL using bad/illegal format or missing URL"),
        NetError::Refused(Refusal::Unsupported(scheme)) => {
            Failure::new(1, format!("Protocol \"{scheme}\" not supported or disabled in libcurl"))
        }
        NetError::Refused(refusal) => Failure { code: 7, message: refusal.to_string(), always: true },
        NetError::Resolve(host) => Failure::new(6, format!("Could not resolve host: {host}")),
        NetError::Connect { host, port, elapsed_ms } => Failure::new(
            7,
            format!("Failed to connect to {host} port {port} after {elapsed_ms} ms: Couldn't connect to server"),
        ),
        NetError::Timeout { elapsed_ms, received } => Failure::new(
            28,
            format!("Operation timed out after {elapsed_ms} milliseconds with {received} bytes received"),
        ),
        NetError::Tls(detail) if detail.contains("certificate") || detail.contains("Certificate") => {
            Failure::new(60, format!("SSL certificate problem: {detail}"))
        }
        NetError::Tls(detail) => Failure::new(35, format!("TLS connect error: {detail}")),
        NetError::Partial => Failure::new(18, "transfer closed with outstanding read data remaining"),
        NetError::Recv(detail) => Failure::new(56, format!("Recv failure: {detail}")),
        NetError::TooLarge { cap } => Failure {
            code: 63,
            message: format!("Exceeded the maximum allowed file size ({cap}): the network policy's response-size cap"),
            always: true,
        },
        NetError::Protocol(detail) if detail.contains("Empty reply") => Failure::new(52, "Empty reply from server"),
        NetError::Protocol(detail) => Failure::new(8, format!("Weird server reply: {detail}")),
    }
}

/// What `-w` reports of a transfer.
#[derive(Default)]
struct Report {
    code: u16,
    url: String,
    content_type: String,
    size: u64,
    redirects: u32,
    redirect_url: String,
    method: String,
    headers: Vec<(String, String)>,
    version: &'static str,
    exit: i32,
    error: String,
}

/// One URL, start to end; the exit code.
fn transfer(
    ctx: &mut Context<'_>,
    options: &Options,
    network: &Network,
    index: usize,
    output: Option<String>,
) -> Result<i32, Taken> {
    let started = Instant::now();
    let mut report = Report::default();
    let result = exchange(ctx, options, network, index, output, &mut report);
    let code = match result {
        Ok(code) => code,
        Err(Taken::Fail(failure)) => {
            report.exit = failure.code;
            report.error = failure.message.clone();
            let code = self::report(ctx, options, failure)?;
            write_out(ctx, options, &report, started)?;
            return Ok(code);
        }
        Err(other) => return Err(other),
    };
    report.exit = code;
    write_out(ctx, options, &report, started)?;
    Ok(code)
}

fn exchange(
    ctx: &mut Context<'_>,
    options: &Options,
    network: &Network,
    index: usize,
    output: Option<String>,
    report: &mut Report,
) -> Result<i32, Taken> {
    let session: &Session = &network.session;
    let policy = session.policy();
    let mut url =
        parse_url(&options.urls[index]).map_err(|refusal| Taken::Fail(failure(NetError::Refused(refusal))))?;
    url.set_fragment(None);
    let data: Option<Vec<u8>> = (!options.data.is_empty()).then(|| options.data.join(&b'&'));
    let mut body = None;
    if let Some(data) = data {
        if options.get {
            let query = String::from_utf8_lossy(&data).into_owned();
            let joined = match url.query() {
                Some(old) if !old.is_empty() => format!("{old}&{query}"),
                _ => query,
            };
            url.set_query(Some(&joined));
        } else {
            body = Some(data);
        }
    }
    let mut method = if options.head {
        "HEAD".to_string()
    } else if body.is_some() {
        "POST".to_string()
    } else {
        "GET".to_string()
    };
    if let Some(explicit) = &options.method {
        method = explicit.clone();
    }
    // Headers: curl's defaults, then the script's (`Name:` removes one,
    // `Name;` sends it empty).
    let mut headers: Vec<(String, String)> = vec![
        ("User-Agent".to_string(), options.user_agent.clone().unwrap_or_else(|| USER_AGENT.to_string())),
        ("Accept".to_string(), if options.json { "application/json" } else { "*/*" }.to_string()),
    ];
    if let Some(referer) = &options.referer {
        headers.push(("Referer".to_string(), referer.clone()));
    }
    let mut auth = None;
    if let Some(user) = &options.user {
        let pair = if user.contains(':') { user.clone() } else { format!("{user}:") };
        auth = Some(format!("Basic {}", base64(pair.as_bytes())));
    } else if !url.username().is_empty() || url.password().is_some() {
        let decode = |text: &str| percent_encoding::percent_decode_str(text).decode_utf8_lossy().into_owned();
        let pair = format!("{}:{}", decode(url.username()), decode(url.password().unwrap_or("")));
        auth = Some(format!("Basic {}", base64(pair.as_bytes())));
    }
    if let Some(auth) = &auth {
        headers.push(("Authorization".to_string(), auth.clone()));
    }
    if options.compressed {
        headers.push(("Accept-Encoding".to_string(), "deflate, gzip".to_string()));
    }
    if body.is_some() {
        let kind = if options.json { "application/json" } else { "application/x-www-form-urlencoded" };
        headers.push(("Content-Type".to_string(), kind.to_string()));
    }
    for line in &options.headers {
        let (name, value, remove) = match line.split_once(':') {
            Some((name, value)) => (name.trim(), value.trim(), value.trim().is_empty()),
            None => match line.strip_suffix(';') {
                Some(name) => (name.trim(), "", false),
                None => continue,
            },
        };
        headers.retain(|(kept, _)| !kept.eq_ignore_ascii_case(name));
        if !remove {
            headers.push((name.to_string(), value.to_string()));
        }
    }
    let max_redirects = options.max_redirs.unwrap_or(50).min(policy.max_redirects());
    let deadline = match options.max_time {
        Some(max) => Some(network.deadline.map_or(Instant::now() + max, |end| end.min(Instant::now() + max))),
        None => network.deadline,
    };
    let mut sink = match &output {
        None => Sink::Stdout,
        Some(name) if name.is_empty() => {
            let file = url.path_segments().and_then(|mut segments| segments.next_back()).unwrap_or("").to_string();
            if file.is_empty() {
                ctx.stderr.write_str("curl: Remote file name has no length!\n")?;
                return Ok(23);
            }
            Sink::file(ctx.path(&file))
        }
        Some(name) if name == "-" => Sink::Stdout,
        Some(name) => Sink::file(ctx.path(name)),
    };
    let original_host = url.host_str().map(str::to_string);
    loop {
        report.method = method.clone();
        report.url = url.to_string();
        let request = Request {
            method: method.clone(),
            url: url.clone(),
            headers: headers.clone(),
            body: body.clone(),
            deadline,
        };
        let mut response = session.send(&request).map_err(|error| Taken::Fail(failure(error)))?;
        report.code = response.status;
        report.version = response.version;
        report.headers = response.headers.clone();
        report.content_type = response.header("content-type").unwrap_or("").to_string();
        if options.verbose {
            verbose(ctx, &request, &response)?;
        }
        let location = response.header("location").map(str::to_string);
        let redirect = matches!(response.status, 301 | 302 | 303 | 307 | 308);
        if let (true, Some(location)) = (redirect, &location) {
            let next = url
                .join(location)
                .map_err(|_| Taken::Fail(failure(NetError::Refused(Refusal::Malformed(location.clone())))))?;
            report.redirect_url = next.to_string();
            if options.location {
                if options.include || options.head {
                    print_headers(ctx, &response)?;
                }
                // The redirect's body is read and dropped, as curl does.
                let _ = copy(ctx, &mut response, None, policy.max_response_bytes(), &mut Sink::Discard);
                if report.redirects >= max_redirects {
                    return Err(Taken::Fail(Failure::new(47, format!("Maximum ({max_redirects}) redirects followed"))));
                }
                report.redirects += 1;
                super::redirected(
                    response.status,
                    &next,
                    original_host.as_deref(),
                    &mut method,
                    &mut body,
                    &mut headers,
                );
                url = next;
                continue;
            }
        }
        let failed = response.status >= 400 && (options.fail || options.fail_with_body);
        if failed && !options.fail_with_body {
            return Err(Taken::Fail(Failure::new(
                22,
                format!("The requested URL returned error: {}", response.status),
            )));
        }
        if options.include || options.head {
            let mut head = Vec::new();
            header_block(&response, &mut head);
            match sink.write(ctx, &head) {
                Ok(()) => {}
                Err(Stop::Limit(hit)) => return Err(Taken::Limit(hit)),
                Err(_) => return Err(Taken::Fail(Failure::new(23, "Failure writing output to destination"))),
            }
        }
        if method != "HEAD" {
            let coding = if options.compressed { Coding::of(&response) } else { None };
            match copy(ctx, &mut response, coding, policy.max_response_bytes(), &mut sink) {
                Ok(size) => report.size = size,
                Err(Stop::Limit(hit)) => return Err(Taken::Limit(hit)),
                Err(Stop::Net(error)) => {
                    let _ = sink.flush(ctx);
                    return Err(Taken::Fail(failure(error)));
                }
                Err(Stop::Storage(error)) => {
                    let _ = error;
                    return Err(Taken::Fail(Failure::new(23, "Failure writing output to destination")));
                }
                Err(Stop::Decode(detail)) => {
                    return Err(Taken::Fail(Failure::new(
                        61,
                        format!("Error while processing content unencoding: {detail}"),
                    )));
                }
            }
        } else if let Sink::File { .. } = sink {
            sink.flush(ctx).map_err(|_| Taken::Fail(Failure::new(23, "Failure writing output to destination")))?;
        }
        if failed {
            return Err(Taken::Fail(Failure::new(
                22,
                format!("The requested URL returned error: {}", response.status),
            )));
        }
        return Ok(0);
    }
}

/// A header name as HTTP/1.1 servers write it: `Content-Type`.
fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        out.push(if upper { c.to_ascii_uppercase() } else { c });
        upper = c == '-';
    }
    out
}

fn reason(status: u16) -> &'static str {
    ureq_status_reason(status)
}

/// The canonical reason phrase of a status (the server's own is not kept).
fn ureq_status_reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        410 => "Gone",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// The status line and headers as curl -i prints them (CRLF ends).
fn header_block(response: &Exchange, out: &mut Vec<u8>) {
    let reason = reason(response.status);
    let line = if reason.is_empty() {
        format!("{} {}\r\n", response.version, response.status)
    } else {
        format!("{} {} {}\r\n", response.version, response.status, reason)
    };
    out.extend_from_slice(line.as_bytes());
    for (name, value) in &response.headers {
        out.extend_from_slice(format!("{}: {}\r\n", title_case(name), value).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
}

fn print_headers(ctx: &mut Context<'_>, response: &Exchange) -> Result<(), LimitHit> {
    let mut head = Vec::new();
    header_block(response, &mut head);
    ctx.stdout.write(&head)
}

/// `-v`: what was sent and received, on stderr; attached headers' values
/// never appear.
fn verbose(ctx: &mut Context<'_>, request: &Request, response: &Exchange) -> Result<(), LimitHit> {
    let url = &request.url;
    let host = url.host_str().unwrap_or("");
    let port = url.port_or_known_default().unwrap_or(0);
    let mut text = String::new();
    if let Some(address) = response.address {
        text.push_str(&format!("*   Trying {address}...\n* Connected to {host} ({}) port {port}\n", address.ip()));
    }
    let mut target = url.path().to_string();
    if let Some(query) = url.query() {
        target.push('?');
        target.push_str(query);
    }
    text.push_str(&format!("> {} {target} HTTP/1.1\n", request.method));
    for (name, value) in &response.sent {
        text.push_str(&format!("> {name}: {value}\n"));
    }
    if let Some(body) = &request.body {
        text.push_str(&format!("> Content-Length: {}\n", body.len()));
    }
    text.push_str(">\n");
    let reason = reason(response.status);
    text.push_str(&format!("< {} {} {reason}\n", response.version, response.status));
    for (name, value) in &response.headers {
        text.push_str(&format!("< {}: {value}\n", title_case(name)));
    }
    text.push_str("<\n");
    ctx.stderr.write_str(&text)
}

/// `-w`: the format with its variables and escapes.
fn write_out(ctx: &mut Context<'_>, options: &Options, report: &Report, started: Instant) -> Result<(), LimitHit> {
    let Some(format) = &options.write_out else { return Ok(()) };
    let mut out = String::new();
    let mut to_stderr = false;
    let chars: Vec<char> = format.chars().collect();
    let mut at = 0;
    let mut pieces: Vec<(bool, String)> = Vec::new();
    while at < chars.len() {
        let c = chars[at];
        if c == '\\' && at + 1 < chars.len() {
            match chars[at + 1] {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '\\' => out.push('\\'),
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            at += 2;
            continue;
        }
        if c == '%' && chars.get(at + 1) == Some(&'%') {
            out.push('%');
            at += 2;
            continue;
        }
        let rest: String = chars[at..].iter().collect();
        if let Some(after) = rest.strip_prefix("%{") {
            if let Some(end) = after.find('}') {
                let name = &after[..end];
                at += 2 + name.chars().count() + 1;
                match name {
                    "stderr" | "stdout" => {
                        pieces.push((to_stderr, std::mem::take(&mut out)));
                        to_stderr = name == "stderr";
                    }
                    _ => match variable(name, report, started) {
                        Some(value) => out.push_str(&value),
                        None => ctx.stderr.write_str(&format!("curl: unknown --write-out variable: '{name}'\n"))?,
                    },
                }
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("%header{") {
            if let Some(end) = after.find('}') {
                let name = &after[..end];
                at += 8 + name.chars().count() + 1;
                let value = report.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name));
                out.push_str(value.map_or("", |(_, value)| value.as_str()));
                continue;
            }
        }
        out.push(c);
        at += 1;
    }
    pieces.push((to_stderr, out));
    for (stderr, text) in pieces {
        if stderr {
            ctx.stderr.write_str(&text)?;
        } else {
            ctx.stdout.write_str(&text)?;
        }
    }
    Ok(())
}

fn variable(name: &str, report: &Report, started: Instant) -> Option<String> {
    Some(match name {
        "http_code" | "response_code" => format!("{:03}", report.code),
        "url_effective" | "url" => report.url.clone(),
        "content_type" => report.content_type.clone(),
        "size_download" => report.size.to_string(),
        "num_redirects" => report.redirects.to_string(),
        "redirect_url" => report.redirect_url.clone(),
        "method" => report.method.clone(),
        "exitcode" => report.exit.to_string(),
        "errormsg" => report.error.clone(),
        "http_version" => report.version.trim_start_matches("HTTP/").to_string(),
        "scheme" => Url::parse(&report.url).map(|url| url.scheme().to_ascii_uppercase()).unwrap_or_default(),
        "time_total" => format!("{:.6}", started.elapsed().as_secs_f64()),
        _ => return None,
    })
}
