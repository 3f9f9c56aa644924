//! `wget`: the basics (`-q`, `-O FILE`, `-O -`, headers, POST data),
//! through the run's network policy; wget's exit codes (4 for the network,
//! 8 for an error response, 3 for a file).

use std::time::{Duration, Instant};

use crate::net::{parse_url, NetError, Refusal, Request};

use super::super::super::command::Context;
use super::super::super::LimitHit;
use super::body::{copy, Sink, Stop};

const USER_AGENT: &str = "Wget/1.25.0";

#[derive(Default)]
struct Options {
    urls: Vec<String>,
    output: Option<String>,
    quiet: bool,
    server_response: bool,
    headers: Vec<(String, String)>,
    method: Option<String>,
    body: Option<Vec<u8>>,
    user_agent: Option<String>,
    timeout: Option<Duration>,
    max_redirect: Option<u32>,
    prefix: Option<String>,
}

fn usage(ctx: &mut Context<'_>, message: &str) -> Result<i32, LimitHit> {
    ctx.stderr.write_str(&format!(
        "wget: {message}\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n"
    ))?;
    Ok(2)
}

pub(super) fn wget(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let mut options = Options::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let (name, attached) = match word.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name.to_string(), Some(value.to_string())),
            _ if word.starts_with("-")
                && !word.starts_with("--")
                && word.len() > 2
                && "OUTPe".contains(&word[1..2]) =>
            {
                (word[..2].to_string(), Some(word[2..].to_string()))
            }
            _ => (word.clone(), None),
        };
        let mut value = |ctx: &mut Context<'_>| -> Result<Option<String>, LimitHit> {
            match attached.clone().or_else(|| words.next().cloned()) {
                Some(value) => Ok(Some(value)),
                None => {
                    usage(ctx, &format!("option requires an argument -- '{}'", name.trim_start_matches('-')))?;
                    Ok(None)
                }
            }
        };
        match name.as_str() {
            "-q" | "--quiet" | "-nv" | "--no-verbose" => options.quiet = true,
            "-S" | "--server-response" => options.server_response = true,
            "-O" | "--output-document" => match value(ctx)? {
                Some(v) => options.output = Some(v),
                None => return Ok(2),
            },
            "-P" | "--directory-prefix" => match value(ctx)? {
                Some(v) => options.prefix = Some(v),
                None => return Ok(2),
            },
            "--header" => match value(ctx)? {
                Some(v) => {
                    if let Some((name, value)) = v.split_once(':') {
                        options.headers.push((name.trim().to_string(), value.trim().to_string()));
                    }
                }
                None => return Ok(2),
            },
            "-U" | "--user-agent" => match value(ctx)? {
                Some(v) => options.user_agent = Some(v),
                None => return Ok(2),
            },
            "--method" => match value(ctx)? {
                Some(v) => options.method = Some(v.to_ascii_uppercase()),
                None => return Ok(2),
            },
            "--post-data" | "--body-data" => match value(ctx)? {
                Some(v) => {
                    if name == "--post-data" {
                        options.method.get_or_insert_with(|| "POST".to_string());
                    }
                    options.body = Some(v.into_bytes());
                }
                None => return Ok(2),
            },
            "--post-file" | "--body-file" => match value(ctx)? {
                Some(path) => match ctx.read(&path) {
                    Ok(bytes) => {
                        if name == "--post-file" {
                            options.method.get_or_insert_with(|| "POST".to_string());
                        }
                        options.body = Some(bytes);
                    }
                    Err(error) => {
                        ctx.storage_error(&path, &error)?;
                        return Ok(3);
                    }
                },
                None => return Ok(2),
            },
            "-T" | "--timeout" => match value(ctx)?.map(|v| v.parse::<f64>()) {
                Some(Ok(seconds)) if seconds.is_finite() && seconds >= 0.0 => {
                    options.timeout = Some(Duration::from_secs_f64(seconds.min(1e9)))
                }
                Some(_) => return usage(ctx, "--timeout: Invalid time period"),
                None => return Ok(2),
            },
            "--max-redirect" => match value(ctx)?.map(|v| v.parse::<u32>()) {
                Some(Ok(n)) => options.max_redirect = Some(n),
                Some(Err(_)) => return usage(ctx, "--max-redirect: Invalid number"),
                None => return Ok(2),
            },
            "-t" | "--tries" => {
                if value(ctx)?.is_none() {
                    return Ok(2);
                }
            }
            "-c" | "--continue" | "--no-check-certificate" | "-nc" | "--no-clobber" => {}
            other if other.starts_with('-') && other != "-" => {
                return usage(ctx, &format!("unrecognized option '{other}'"));
            }
            url => options.urls.push(url.to_string()),
        }
    }
    if options.urls.is_empty() {
        return usage(ctx, "missing URL");
    }
    let Some(network) = ctx.runner.network() else {
        ctx.stderr.write_str("wget: the network is off in this shell: no network policy allows any URL\n")?;
        return Ok(4);
    };
    let mut status = 0;
    for url in options.urls.clone() {
        let code = fetch(ctx, &options, &network, &url)?;
        if code != 0 {
            status = code;
        }
    }
    Ok(status)
}

fn say(ctx: &mut Context<'_>, options: &Options, text: &str) -> Result<(), LimitHit> {
    if !options.quiet {
        ctx.stderr.write_str(text)?;
    }
    Ok(())
}

fn fetch(
    ctx: &mut Context<'_>,
    options: &Options,
    network: &super::super::super::command::Network,
    text: &str,
) -> Result<i32, LimitHit> {
    let session = &network.session;
    let policy = session.policy();
    let mut url = match parse_url(text) {
        Ok(url) => url,
        Err(_) => {
            ctx.stderr.write_str(&format!("{text}: Invalid URL {text}: Unsupported scheme\n"))?;
            return Ok(1);
        }
    };
    url.set_fragment(None);
    let deadline = match options.timeout {
        Some(max) => Some(network.deadline.map_or(Instant::now() + max, |end| end.min(Instant::now() + max))),
        None => network.deadline,
    };
    let mut method = options.method.clone().unwrap_or_else(|| "GET".to_string());
    let mut body = options.body.clone();
    let mut headers = vec![
        ("User-Agent".to_string(), options.user_agent.clone().unwrap_or_else(|| USER_AGENT.to_string())),
        ("Accept".to_string(), "*/*".to_string()),
    ];
    if body.is_some() {
        headers.push(("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()));
    }
    for (name, value) in &options.headers {
        headers.retain(|(kept, _)| !kept.eq_ignore_ascii_case(name));
        headers.push((name.clone(), value.clone()));
    }
    let max_redirects = options.max_redirect.unwrap_or(20).min(policy.max_redirects());
    let mut redirects = 0;
    let first_host = url.host_str().map(str::to_string);
    loop {
        say(ctx, options, &format!("--  {url}\n"))?;
        let request = Request {
            method: method.clone(),
            url: url.clone(),
            headers: headers.clone(),
            body: body.clone(),
            deadline,
        };
        let mut response = match session.send(&request) {
            Ok(response) => response,
            Err(error) => return failed(ctx, &error),
        };
        let status = response.status;
        say(ctx, options, &format!("HTTP request sent, awaiting response... {status}\n"))?;
        if options.server_response {
            let mut text = format!("  {} {}\n", response.version, status);
            for (name, value) in &response.headers {
                text.push_str(&format!("  {name}: {value}\n"));
            }
            ctx.stderr.write_str(&text)?;
        }
        if matches!(status, 301 | 302 | 303 | 307 | 308) {
            if let Some(location) = response.header("location").map(str::to_string) {
                let Ok(next) = url.join(&location) else {
                    return failed(ctx, &NetError::Refused(Refusal::Malformed(location)));
                };
                if redirects >= max_redirects {
                    ctx.stderr.write_str(&format!("{max_redirects} redirections exceeded.\n"))?;
                    return Ok(8);
                }
                redirects += 1;
                say(ctx, options, &format!("Location: {next} [following]\n"))?;
                super::redirected(status, &next, first_host.as_deref(), &mut method, &mut body, &mut headers);
                url = next;
                continue;
            }
        }
        if status >= 400 {
            ctx.stderr.write_str(&format!("ERROR {status}.\n"))?;
            return Ok(8);
        }
        let name = match &options.output {
            Some(name) => name.clone(),
            None => {
                let last = url.path_segments().and_then(|mut s| s.next_back()).unwrap_or("").to_string();
                let last = if last.is_empty() { "index.html".to_string() } else { last };
                match &options.prefix {
                    Some(prefix) => format!("{}/{last}", prefix.trim_end_matches('/')),
                    None => last,
                }
            }
        };
        let mut sink = if name == "-" { Sink::Stdout } else { Sink::file(ctx.path(&name)) };
        if name != "-" {
            say(ctx, options, &format!("Saving to: '{name}'\n"))?;
        }
        return match copy(ctx, &mut response, None, policy.max_response_bytes(), &mut sink) {
            Ok(size) => {
                if name != "-" {
                    say(ctx, options, &format!("'{name}' saved [{size}]\n"))?;
                }
                Ok(0)
            }
            Err(Stop::Limit(hit)) => Err(hit),
            Err(Stop::Net(error)) => {
                let _ = sink.flush(ctx);
                failed(ctx, &error)
            }
            Err(Stop::Storage(error)) => {
                ctx.storage_error(&name, &error)?;
                Ok(3)
            }
            Err(Stop::Decode(detail)) => {
                ctx.error(detail)?;
                Ok(1)
            }
        };
    }
}

/// wget's words and code for a failure (always printed: even `-q` shows
/// why the policy refused).
fn failed(ctx: &mut Context<'_>, error: &NetError) -> Result<i32, LimitHit> {
    let (code, text) = match error {
        NetError::Refused(Refusal::Malformed(text)) => (1, format!("{text}: Invalid URL")),
        NetError::Refused(Refusal::Unsupported(scheme)) => (1, format!("Unsupported scheme '{scheme}'")),
        NetError::Refused(refusal) => (4, format!("wget: {refusal}")),
        NetError::Resolve(host) => (4, format!("wget: unable to resolve host address '{host}'")),
        NetError::Connect { host, port, .. } => (4, format!("failed: Connection refused ({host} port {port}).")),
        NetError::Timeout { .. } => (4, "Read error (Connection timed out) in headers.".to_string()),
        NetError::Tls(detail) => (5, format!("wget: TLS: {detail}")),
        NetError::TooLarge { cap } => {
            (4, format!("wget: the response passed the network policy's size cap ({cap} bytes)"))
        }
        other => (4, format!("Read error ({other}).")),
    };
    ctx.stderr.write_str(&format!("{text}\n"))?;
    Ok(code)
}
