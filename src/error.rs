//! The one error type of the library, and the status code each variant maps to.
//!
//! Every message the library writes itself starts with one of the seed's
//! sentinel texts (`aikido/tools: unknown tool`, ...) and names the tool, so
//! that a model reading it can correct its call. A handler's own error text is
//! the one exception: it is passed through unchanged.

/// Makes [`Status`] and its lists from the table below, so that each status
/// is written once: its name, number and meaning. The C layer derives its
/// constants' names and its name table from the same variants
/// (`src/ffi/status.rs`).
macro_rules! statuses {
    ($($(#[doc = $doc:literal])* $variant:ident = $code:literal,)*) => {
        /// The outcome of a call, as a stable number. The C surface exposes
        /// these as `AIKIDO_*` constants; the values never change and are
        /// never reused.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(i32)]
        pub enum Status {
            $($(#[doc = $doc])* $variant = $code,)*
        }

        impl Status {
            /// Every status, in numeric order.
            pub const ALL: [Status; [$($code),*].len()] = [$(Status::$variant),*];

            /// The variant's name, e.g. `"UnknownTool"`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Status::$variant => stringify!($variant),)*
                }
            }
        }
    };
}

statuses! {
    /// Success.
    Ok = 0,
    /// The name is registered already.
    DuplicateTool = 1,
    /// No tool of that name.
    UnknownTool = 2,
    /// The call's arguments failed the check.
    InvalidArguments = 3,
    /// The handler panicked or threw, or the library itself panicked.
    ToolPanicked = 4,
    /// The handler reported an error.
    ToolFailed = 5,
    /// Caller misuse: NULL, invalid UTF-8, empty name, parameters not JSON.
    InvalidInput = 6,
    /// The environment's cancellation token had fired.
    Cancelled = 7,
    /// A storage operation failed (no such file, read-only, ...).
    Storage = 8,
}

impl Status {
    /// The status with this number, if there is one.
    pub fn from_code(code: i32) -> Option<Status> {
        Status::ALL.into_iter().find(|status| *status as i32 == code)
    }
}

/// Everything that can go wrong in registering, listing or dispatching a tool.
///
/// Each variant maps onto exactly one [`Status`] (see [`Error::status`]); the
/// `Display` text is the message meant for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `register` was given a name that is taken.
    #[error("aikido/tools: duplicate tool registration: a tool named \"{name}\" is already registered")]
    DuplicateTool {
        /// The name that was taken.
        name: String,
    },

    /// No tool of the called name is registered.
    #[error("aikido/tools: unknown tool \"{name}\"; {available}")]
    UnknownTool {
        /// The name that was called.
        name: String,
        /// Which tools exist, so that the model can pick one.
        available: String,
    },

    /// The arguments are not one JSON object, or lack a required field.
    #[error("aikido/tools: invalid tool arguments for tool \"{tool}\": {reason}")]
    InvalidArguments {
        /// The tool that was called.
        tool: String,
        /// What is wrong, naming the field where one is at fault.
        reason: String,
    },

    /// The handler panicked (or threw, or reported a panic through the C ABI),
    /// or the library panicked at its boundary.
    #[error("aikido/tools: tool panicked: {origin}: {message}")]
    ToolPanicked {
        /// Where the panic happened.
        origin: PanicOrigin,
        /// The panic value, as text.
        message: String,
    },

    /// The handler reported an error. The message is the handler's own text,
    /// unchanged.
    #[error("{message}")]
    ToolFailed {
        /// The tool that was called.
        tool: String,
        /// The handler's error text.
        message: String,
    },

    /// The caller misused the API: an empty name, parameters that are not
    /// JSON, a NULL or non-UTF-8 string through the C ABI.
    #[error("aikido/tools: invalid input: {0}")]
    InvalidInput(String),

    /// The environment's cancellation token had fired, so the handler did not run.
    #[error("aikido/tools: call cancelled: tool \"{tool}\" was not run because the call was cancelled")]
    Cancelled {
        /// The tool that was called.
        tool: String,
    },

    /// A part beyond the core could not do what was asked: today a storage
    /// operation (no such file, read-only, over a limit), which the storage
    /// maps its own error to. The message is that part's own, as a shell
    /// would print it, e.g. `/a/b: No such file or directory`.
    #[error("{message}")]
    OperationFailed {
        /// What failed, and where.
        message: String,
    },
}

/// Where a panic was caught.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanicOrigin {
    /// In the handler of this tool.
    Tool(String),
    /// In the library itself, inside this exported C function.
    Library(&'static str),
}

impl std::fmt::Display for PanicOrigin {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PanicOrigin::Tool(name) => write!(formatter, "tool \"{name}\""),
            PanicOrigin::Library(function) => write!(formatter, "libaikido itself panicked in {function}"),
        }
    }
}

impl Error {
    /// The status code this error maps to.
    pub fn status(&self) -> Status {
        match self {
            Error::DuplicateTool { .. } => Status::DuplicateTool,
            Error::UnknownTool { .. } => Status::UnknownTool,
            Error::InvalidArguments { .. } => Status::InvalidArguments,
            Error::ToolPanicked { .. } => Status::ToolPanicked,
            Error::ToolFailed { .. } => Status::ToolFailed,
            Error::InvalidInput(_) => Status::InvalidInput,
            Error::Cancelled { .. } => Status::Cancelled,
            Error::OperationFailed { .. } => Status::Storage,
        }
    }
}

/// Turns a panic payload into text, and drops the payload without letting a
/// second panic escape: dropping a payload can itself panic.
pub(crate) fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    let message = if let Some(text) = payload.downcast_ref::<&'static str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic value that is not text".to_owned()
    };
    if let Err(second) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(payload))) {
        // Leaking is the only safe thing left to do with a payload whose
        // destructor panics.
        std::mem::forget(second);
    }
    message
}
