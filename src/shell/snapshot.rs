//! Session snapshots: a [`Shell`]'s state and the in-memory files of its
//! storage as bytes ([`Shell::snapshot`]), back to a session that goes on
//! as if nothing happened ([`Shell::restore`]), and a copy of a live
//! session that shares nothing mutable with it ([`Shell::fork`]).
//!
//! # The format (version 1)
//!
//! ```text
//! offset  size  field
//! 0       8     magic "AIKIDOSS"
//! 8       4     format version, little-endian (1)
//! 12      4     layout: CRC-32 of this build's encoding of an empty session
//! 16      8     payload length N, little-endian
//! 24      N     payload: postcard (serde) encoding of the session
//! 24+N    4     CRC-32 (IEEE) of bytes 0..24+N, little-endian
//! ```
//!
//! The payload is the shell's state (every field of the interpreter's
//! state type, through serde: variables with their attributes, arrays,
//! positional parameters, options, traps, the directory stack, `$?`,
//! `PIPESTATUS`, `$!`), the functions as the text `declare -f` prints
//! (parsed again on restore), and the storage's image
//! ([`crate::storage::SnapshotLayer`]). The checks on restore, in order:
//! length of the header, magic, version, the declared length against the
//! bytes given, the checksum, the layout, then the payload's decoding
//! (every count is checked against the bytes left before anything is
//! allocated) and its content (paths, names without NUL bytes, sizes
//! against the storage's and the session's limits, function texts that
//! parse). The first failure is the error; nothing is changed before every
//! check passed.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::state::{State, Value};
use super::{parse, stack, Shell, ShellOptions};
use crate::storage::{Image, LayerImage, MemoryStorage, Storage};

pub use crate::storage::SnapshotError;

/// The first bytes of every snapshot.
pub const MAGIC: &[u8; 8] = b"AIKIDOSS";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload: magic, version, layout, payload length.
const HEADER_LEN: usize = 24;
/// Bytes after the payload: the checksum.
const TRAILER_LEN: usize = 4;

/// What the payload holds.
#[derive(Serialize, Deserialize)]
struct Payload {
    state: State,
    /// Each function's name and its definition as `declare -f` prints it.
    functions: Vec<(String, String)>,
    storage: Image,
}

/// A CRC-32 of this build's encoding of an empty session: any field added
/// to or removed from the state changes it, so a snapshot of a build whose
/// state differs is refused by name rather than misread.
fn layout() -> u32 {
    static LAYOUT: OnceLock<u32> = OnceLock::new();
    *LAYOUT.get_or_init(|| {
        let mut state = State::new("/", &[]);
        state.vars = Arc::default();
        let payload = Payload { state, functions: Vec::new(), storage: Image::Referred };
        crc32fast::hash(&postcard::to_allocvec(&payload).expect("an empty session encodes"))
    })
}

fn encode(payload: &Payload) -> Result<Vec<u8>, SnapshotError> {
    let body = postcard::to_allocvec(payload)
        .map_err(|error| SnapshotError::Invalid(format!("the session cannot be encoded: {error}")))?;
    Ok(frame(&body))
}

/// The header, the payload and the checksum.
fn frame(payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len() + TRAILER_LEN);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&layout().to_le_bytes());
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(payload);
    let checksum = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

/// Checks the frame (header, length, checksum, layout) and decodes the
/// payload. Allocates at most what the bytes hold.
fn decode(bytes: &[u8]) -> Result<Payload, SnapshotError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(if MAGIC.starts_with(bytes) && !bytes.is_empty() {
            SnapshotError::Length { found: bytes.len() as u64, declared: (HEADER_LEN + TRAILER_LEN) as u64 }
        } else {
            SnapshotError::NotASnapshot
        });
    }
    if bytes.len() < HEADER_LEN + TRAILER_LEN {
        return Err(SnapshotError::Length { found: bytes.len() as u64, declared: (HEADER_LEN + TRAILER_LEN) as u64 });
    }
    let version = read_u32(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(SnapshotError::Version { found: version, supported: FORMAT_VERSION });
    }
    let declared = u64::from_le_bytes(bytes[16..24].try_into().expect("eight bytes"));
    let whole = declared.saturating_add((HEADER_LEN + TRAILER_LEN) as u64);
    if whole != bytes.len() as u64 {
        return Err(SnapshotError::Length { found: bytes.len() as u64, declared: whole });
    }
    let end = bytes.len() - TRAILER_LEN;
    if crc32fast::hash(&bytes[..end]) != read_u32(bytes, end) {
        return Err(SnapshotError::Checksum);
    }
    let found = read_u32(bytes, 12);
    if found != layout() {
        return Err(SnapshotError::Layout { found, expected: layout() });
    }
    match postcard::take_from_bytes::<Payload>(&bytes[HEADER_LEN..end]) {
        Ok((payload, [])) => Ok(payload),
        Ok((_, rest)) => Err(SnapshotError::Invalid(format!("{} bytes follow the session", rest.len()))),
        Err(error) => Err(SnapshotError::Invalid(format!("the session does not decode: {error}"))),
    }
}

fn no_nul(what: &str, text: &str) -> Result<(), SnapshotError> {
    if text.contains('\0') {
        return Err(SnapshotError::Invalid(format!("{what} {:?} holds a NUL byte", text.replace('\0', "\\0"))));
    }
    Ok(())
}

/// Checks a decoded state: what no session can hold is refused.
fn check_state(state: &mut State, options: &ShellOptions) -> Result<(), SnapshotError> {
    no_nul("the working directory", &state.cwd)?;
    if !state.cwd.starts_with('/') || crate::storage::normalize(&state.cwd) != *state.cwd {
        return Err(SnapshotError::Invalid(format!("the working directory {:?} is not a normalised path", state.cwd)));
    }
    for (name, var) in state.vars.iter() {
        no_nul("the variable name", name)?;
        if name.is_empty() {
            return Err(SnapshotError::Invalid("a variable has an empty name".into()));
        }
        match &var.value {
            Value::Str(text) => no_nul("a value of", text)?,
            Value::Indexed(map) => map.values().try_for_each(|text| no_nul("an element of", text))?,
            Value::Assoc(map) => map.iter().try_for_each(|(key, text)| {
                no_nul("a key of", key)?;
                no_nul("an element of", text)
            })?,
        }
        if var.case > 2 {
            return Err(SnapshotError::Invalid(format!("the variable {name} has an unknown case attribute")));
        }
    }
    no_nul("$0", &state.arg0)?;
    state.positional.iter().try_for_each(|text| no_nul("a positional parameter", text))?;
    state.dir_stack.iter().try_for_each(|text| no_nul("a directory of the stack", text))?;
    if let Some(trap) = &state.exit_trap {
        no_nul("the EXIT trap", trap)?;
    }
    for (name, action) in state.traps.values() {
        no_nul("a trap's name", name)?;
        no_nul("a trap", action)?;
    }
    let bytes = state.bytes();
    if bytes > options.limits.max_memory_bytes {
        return Err(SnapshotError::TooLarge(format!(
            "the variables hold {bytes} bytes, past the session's limit of {}",
            options.limits.max_memory_bytes
        )));
    }
    // Between runs no function is running: nothing is hidden by a `local`.
    state.locals.clear();
    Ok(())
}

/// A function's body from the text `declare -f` printed for it.
fn parse_function(name: &str, text: &str, extglob: bool) -> Result<super::state::Function, SnapshotError> {
    no_nul("the function name", name)?;
    no_nul("the function", text)?;
    let mut last_error = String::new();
    // The text was printed with extglob as the definition had it; try the
    // session's setting first, then the other.
    for extglob in [extglob, !extglob] {
        let program = match parse::parse_program(text, &parse::options_with(extglob)) {
            Ok(program) => program,
            Err(message) => {
                last_error = message.trim_end().to_owned();
                continue;
            }
        };
        let mut commands = program.complete_commands.iter().flat_map(|list| list.0.iter());
        let (Some(item), None) = (commands.next(), commands.next()) else { continue };
        let pipeline = &item.0.first;
        if !item.0.additional.is_empty() || pipeline.bang || pipeline.timed.is_some() || pipeline.seq.len() != 1 {
            continue;
        }
        if let brush_parser::ast::Command::Function(definition) = &pipeline.seq[0] {
            if definition.fname.value == name {
                return Ok(Arc::new(definition.body.clone()));
            }
        }
    }
    Err(SnapshotError::Invalid(format!("the function {name:?} does not parse as one: {last_error}")))
}

/// Decodes and checks a snapshot into a state and the storage image.
fn open(bytes: &[u8], options: &ShellOptions) -> Result<(State, Image), SnapshotError> {
    let Payload { mut state, functions, storage } = decode(bytes)?;
    check_state(&mut state, options)?;
    let mut table = rustc_hash::FxHashMap::default();
    let extglob = state.options.extglob;
    // Deeply nested function texts are refused by the parser's own bound;
    // the stack they need is the run's (see stack.rs).
    let parsed = stack::run(|| -> Result<Vec<(String, super::state::Function)>, SnapshotError> {
        functions.iter().map(|(name, text)| Ok((name.clone(), parse_function(name, text, extglob)?))).collect()
    });
    let parsed =
        parsed.map_err(|error| SnapshotError::Invalid(format!("cannot start the restore's thread: {error}")))??;
    for (name, body) in parsed {
        if table.insert(name.clone(), body).is_some() {
            return Err(SnapshotError::Invalid(format!("the function {name:?} is defined twice")));
        }
    }
    state.functions = Arc::new(table);
    Ok((state, storage))
}

impl Shell {
    /// The session as bytes (the format is in the [module docs](self)):
    /// its state, and the files of its storage when they live in memory (a
    /// [`MemoryStorage`] whole, an overlay's or dry run's upper layer with
    /// its deletions); a storage that keeps its files elsewhere (a host
    /// folder, a read-only view) is referred to, not copied. Nothing runs
    /// between two runs, so no job is lost: each run ends its own jobs.
    pub fn snapshot(&self) -> Result<Vec<u8>, SnapshotError> {
        let fresh;
        let state = match &self.state {
            Some(state) => state,
            None => {
                fresh = State::new(&self.options.cwd, &self.options.env);
                &fresh
            }
        };
        let mut functions: Vec<(String, String)> = state
            .functions
            .iter()
            .map(|(name, body)| (name.clone(), super::builtins::function_text(name, body)))
            .collect();
        functions.sort_unstable();
        let storage = match self.storage.snapshot_layer() {
            Some(layer) => layer.image().0,
            None => Image::Referred,
        };
        encode(&Payload { state: state.clone(), functions, storage })
    }

    /// The session a [`snapshot`](Shell::snapshot) holds, over `storage`,
    /// each run bounded by `options` (the snapshot does not carry them).
    /// When the snapshot holds files, `storage` must keep its files in
    /// memory as the snapshotted one did (a [`MemoryStorage`] for a memory
    /// storage's files, an overlay or dry run for an upper layer): its
    /// content is replaced, after every check passed; a snapshot that
    /// refers to its storage leaves `storage` as it is. Bad bytes (another
    /// version, truncated, changed, hostile) are a [`SnapshotError`] and
    /// change nothing.
    pub fn restore(bytes: &[u8], storage: Arc<dyn Storage>, options: ShellOptions) -> Result<Shell, SnapshotError> {
        let (state, image) = open(bytes, &options)?;
        if !matches!(image, Image::Referred) {
            let found = image.kind();
            let layer = storage
                .snapshot_layer()
                .ok_or(SnapshotError::StorageKind { found, given: "a storage that keeps no files in memory" })?;
            layer.load(LayerImage(image))?;
        }
        Ok(Shell { storage, options, state: Some(state) })
    }

    /// [`restore`](Shell::restore) into a new [`MemoryStorage`] with the
    /// snapshotted storage's limits: for a snapshot of a session over a
    /// memory storage. The storage is [`Shell::storage`].
    pub fn restore_in_memory(bytes: &[u8], options: ShellOptions) -> Result<Shell, SnapshotError> {
        let (state, image) = open(bytes, &options)?;
        let storage = MemoryStorage::from_image(image)?;
        Ok(Shell { storage: Arc::new(storage), options, state: Some(state) })
    }

    /// Restores only the state of a snapshot over `storage`, leaving the
    /// storage's files as they are (the `bash` tool's sessions share one
    /// storage, restored once).
    pub(crate) fn restore_state(
        bytes: &[u8],
        storage: Arc<dyn Storage>,
        options: ShellOptions,
    ) -> Result<Shell, SnapshotError> {
        let (state, _) = open(bytes, &options)?;
        Ok(Shell { storage, options, state: Some(state) })
    }

    /// A copy of this session that shares nothing mutable with it: the same
    /// state, and a fork of the storage's in-memory files (file contents
    /// are shared until either side writes them; see
    /// [`SnapshotLayer::fork`](crate::storage::SnapshotLayer::fork)). A
    /// storage that keeps its files elsewhere (a host folder) is shared:
    /// put an [`Overlay`](crate::storage::Overlay) over it to make forks
    /// independent. Cheaper than a snapshot: nothing is encoded.
    pub fn fork(&self) -> Shell {
        let storage = match self.storage.snapshot_layer() {
            Some(layer) => layer.fork(),
            None => self.storage.clone(),
        };
        let state = match &self.state {
            Some(state) => state.clone(),
            None => State::new(&self.options.cwd, &self.options.env),
        };
        Shell { storage, options: self.options.clone(), state: Some(state) }
    }

    /// The storage the session runs over.
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }
}

/// Loads the files of a snapshot into `storage` (which keeps them in
/// memory), leaving every session's state alone; for a storage shared by
/// many sessions, restored once.
pub(crate) fn restore_files(bytes: &[u8], storage: &dyn Storage, options: &ShellOptions) -> Result<(), SnapshotError> {
    let (_, image) = open(bytes, options)?;
    match (image, storage.snapshot_layer()) {
        (Image::Referred, _) => Ok(()),
        (image, Some(layer)) => layer.load(LayerImage(image)),
        (image, None) => {
            Err(SnapshotError::StorageKind { found: image.kind(), given: "a storage that keeps no files in memory" })
        }
    }
}

/// `payload` framed as a snapshot of this build (header, length, layout,
/// checksum), so that a fuzzer's bytes reach the payload's decoder and
/// checks past the checksum.
#[doc(hidden)]
pub fn frame_for_fuzzing(payload: &[u8]) -> Vec<u8> {
    frame(payload)
}
