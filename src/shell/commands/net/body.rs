//! A response body on its way to stdout or to a file of the storage, a
//! piece at a time: a pipe's reader that stops (`| head -1`) stops the
//! transfer, and the policy's cap stops it by name, never by memory.

use std::io::Read;

use crate::net::{Exchange, NetError};
use crate::storage::StorageError;

use super::super::super::command::Context;
use super::super::super::LimitHit;

/// How many bytes are read from the network at a time.
const PIECE: usize = 64 << 10;
/// How many bytes a file sink gathers before writing them to the storage.
const FILE_FLUSH: usize = 1 << 20;

/// Why a transfer stopped before the body's end.
#[derive(Debug)]
pub(super) enum Stop {
    /// The network (reset, timeout, cap…).
    Net(NetError),
    /// A limit of the run (broken pipe, output, time).
    Limit(LimitHit),
    /// The storage refused the file.
    Storage(StorageError),
    /// A compressed body that does not decompress.
    Decode(String),
}

/// Where the body goes.
pub(super) enum Sink {
    /// The command's stdout.
    Stdout,
    /// A file of the storage, by absolute path: created on the first write
    /// (or at the end for an empty body), appended after.
    File { path: String, created: bool, pending: Vec<u8> },
    /// Nowhere (a redirect's body).
    Discard,
}

impl Sink {
    /// A file sink for the absolute `path`.
    pub(super) fn file(path: String) -> Sink {
        Sink::File { path, created: false, pending: Vec::new() }
    }

    pub(super) fn write(&mut self, ctx: &mut Context<'_>, bytes: &[u8]) -> Result<(), Stop> {
        match self {
            Sink::Stdout => ctx.stdout.write(bytes).map_err(Stop::Limit),
            Sink::Discard => Ok(()),
            Sink::File { pending, .. } => {
                pending.extend_from_slice(bytes);
                if pending.len() >= FILE_FLUSH {
                    self.flush(ctx)?;
                }
                Ok(())
            }
        }
    }

    /// Writes what a file sink gathered (creating the file, even empty).
    pub(super) fn flush(&mut self, ctx: &mut Context<'_>) -> Result<(), Stop> {
        if let Sink::File { path, created, pending } = self {
            let result = if *created { ctx.storage.append(path, pending) } else { ctx.storage.write(path, pending) };
            result.map_err(Stop::Storage)?;
            *created = true;
            pending.clear();
        }
        Ok(())
    }
}

/// The content codings `--compressed` undoes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Coding {
    Gzip,
    Deflate,
}

impl Coding {
    /// The coding a response names in `Content-Encoding`, if we undo it.
    pub(super) fn of(exchange: &Exchange) -> Option<Coding> {
        match exchange.header("content-encoding")?.trim().to_ascii_lowercase().as_str() {
            "gzip" | "x-gzip" => Some(Coding::Gzip),
            "deflate" => Some(Coding::Deflate),
            _ => None,
        }
    }
}

/// The exchange as `io::Read`, keeping the network's own error.
struct Wire<'e> {
    exchange: &'e mut Exchange,
    error: Option<NetError>,
}

impl Read for Wire<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.exchange.read(buf).map_err(|error| {
            self.error = Some(error);
            std::io::Error::other("network")
        })
    }
}

/// Copies the body into `sink`, undoing `coding`; returns the bytes
/// delivered. The decoded size is held to the same cap as the wire's.
pub(super) fn copy(
    ctx: &mut Context<'_>,
    exchange: &mut Exchange,
    coding: Option<Coding>,
    cap: u64,
    sink: &mut Sink,
) -> Result<u64, Stop> {
    let mut wire = Wire { exchange, error: None };
    let mut reader: Box<dyn Read + '_> = match coding {
        None => Box::new(&mut wire),
        Some(Coding::Gzip) => Box::new(flate2::read::MultiGzDecoder::new(&mut wire)),
        Some(Coding::Deflate) => Box::new(flate2::read::ZlibDecoder::new(&mut wire)),
    };
    let mut buf = vec![0u8; PIECE];
    let mut delivered = 0u64;
    loop {
        (ctx.check)().map_err(Stop::Limit)?;
        let n = match reader.read(&mut buf) {
            Ok(n) => n,
            Err(error) => {
                drop(reader);
                return Err(match wire.error.take() {
                    Some(net) => Stop::Net(net),
                    None => Stop::Decode(error.to_string()),
                });
            }
        };
        if n == 0 {
            break;
        }
        delivered += n as u64;
        if delivered > cap {
            return Err(Stop::Net(NetError::TooLarge { cap }));
        }
        sink.write(ctx, &buf[..n])?;
    }
    drop(reader);
    sink.flush(ctx)?;
    Ok(delivered)
}
