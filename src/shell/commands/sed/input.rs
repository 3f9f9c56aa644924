//! The input lines, across the files and stdin.

use super::*;

/// One input of sed: a file's bytes (for `-i`, which keeps them for the
/// backup), a file not opened yet, an open file read a piece at a time, or
/// stdin read line by line as it comes.
pub(super) enum Data<'s> {
    Bytes(Vec<u8>),
    Path,
    Open(Lines<'s>),
    Stdin,
}

/// The input: every file, read line by line across files. Stdin is read a
/// line at a time (so `q` stops reading it), with one line of look-ahead
/// when `$` or `n`/`N` ask whether the current line is the last.
pub(super) struct Input<'s> {
    /// (name as the user wrote it, shown by `F`; its data).
    pub(super) files: Vec<(String, Data<'s>)>,
    pub(super) file: usize,
    pub(super) pos: usize,
    pub(super) stdin: &'s Stdin,
    pub(super) storage: &'s dyn Storage,
    pub(super) cwd: &'s str,
    pub(super) max_memory: usize,
    /// Messages for files that could not be read, printed as they are met.
    pub(super) errors: Vec<String>,
    /// A line read ahead of the current one (from stdin).
    pub(super) peeked: Option<(Vec<u8>, bool)>,
    /// The buffer the next look-ahead is read into (a line's buffer is
    /// reused, not allocated per line).
    pub(super) spare: Vec<u8>,
    /// The limit that stopped a read of stdin: the run ends with it.
    pub(super) hit: Option<LimitHit>,
}

impl<'s> Input<'s> {
    pub(super) fn new(files: Vec<(String, Data<'s>)>, ctx: &Context<'s>) -> Self {
        Input {
            files,
            file: 0,
            pos: 0,
            stdin: ctx.stdin,
            storage: ctx.storage,
            cwd: ctx.cwd,
            max_memory: ctx.max_memory,
            errors: Vec::new(),
            peeked: None,
            spare: Vec::new(),
            hit: None,
        }
    }

    /// Puts the next line into `buf` (replacing what it held); whether
    /// it ended with a newline, None at the end (`buf` is then empty).
    pub(super) fn next_line(&mut self, buf: &mut Vec<u8>) -> Option<bool> {
        if let Some((mut line, newline)) = self.peeked.take() {
            std::mem::swap(buf, &mut line);
            self.spare = line;
            return Some(newline);
        }
        self.read_next(buf)
    }

    pub(super) fn read_next(&mut self, buf: &mut Vec<u8>) -> Option<bool> {
        buf.clear();
        while self.file < self.files.len() {
            match &mut self.files[self.file].1 {
                Data::Bytes(data) => {
                    if self.pos < data.len() {
                        let start = self.pos;
                        let (end, newline) = match memchr::memchr(b'\n', &data[start..]) {
                            Some(i) => (start + i, true),
                            None => (data.len(), false),
                        };
                        self.pos = end + 1;
                        buf.extend_from_slice(&data[start..end]);
                        return Some(newline);
                    }
                }
                Data::Stdin if self.hit.is_none() => match self.stdin.read_until(b'\n', buf) {
                    Ok(true) => {
                        let newline = buf.last() == Some(&b'\n');
                        if newline {
                            buf.pop();
                        }
                        return Some(newline);
                    }
                    Ok(false) => {}
                    Err(hit) => {
                        buf.clear();
                        self.hit = Some(hit);
                    }
                },
                Data::Stdin => {}
                Data::Path => {
                    let name = &self.files[self.file].0;
                    match Reader::file(self.storage, self.cwd, name) {
                        Ok(reader) => {
                            self.files[self.file].1 = Data::Open(Lines::new(reader, self.max_memory));
                            continue;
                        }
                        Err(error) => {
                            let reason = crate::shell::command::error_reason(&error);
                            self.errors.push(format!("can't read {name}: {reason}"));
                        }
                    }
                }
                Data::Open(lines) if self.hit.is_none() => match lines.next_line(b'\n') {
                    Ok(Some(line)) => {
                        buf.extend_from_slice(line);
                        return Some(lines.delimited());
                    }
                    Ok(None) => self.files[self.file].1 = Data::Bytes(Vec::new()),
                    Err(ReadFailed::Limit(hit)) => self.hit = Some(hit),
                    Err(ReadFailed::Storage(error)) => {
                        let reason = crate::shell::command::error_reason(&error);
                        self.errors.push(format!("read error on {}: {reason}", self.files[self.file].0));
                        self.files[self.file].1 = Data::Bytes(Vec::new());
                    }
                },
                Data::Open(_) => {}
            }
            self.file += 1;
            self.pos = 0;
        }
        None
    }

    pub(super) fn is_last(&mut self) -> bool {
        if self.peeked.is_none() {
            let mut buf = std::mem::take(&mut self.spare);
            self.peeked = self.read_next(&mut buf).map(|newline| (buf, newline));
        }
        self.peeked.is_none()
    }

    pub(super) fn name(&self) -> &str {
        self.files.get(self.file.min(self.files.len().saturating_sub(1))).map_or("-", |(name, _)| name.as_str())
    }
}
