//! C handlers: how a C function becomes a tool's [`Handler`], and how it
//! writes its outcome through an `aikido_reply`.

use std::ffi::{c_char, c_void};
use std::mem::MaybeUninit;

use super::cancel::aikido_cancel;
use super::handle::{self, Handle};
use super::registry::aikido_environment;
use super::status::{
    aikido_status, AIKIDO_ERR_INVALID_INPUT, AIKIDO_ERR_TOOL_FAILED, AIKIDO_ERR_TOOL_PANICKED, AIKIDO_OK,
};
use super::{boundary, invalid, pair, text_slice};
use crate::environment::Environment;
use crate::tool::{Handler, HandlerResult, ToolError, ToolResult};

/// Where a handler writes its outcome. Opaque; valid only during the one
/// handler call that received it.
pub struct aikido_reply {
    _private: [u8; 0],
}

// SAFETY: aikido_reply is never constructed; its pointers are lent to a
// handler by CHandler::call, from a &mut Reply that outlives the call.
unsafe impl Handle for aikido_reply {
    type Target = Reply;
}

/// A tool's implementation in C. It writes its outcome into `reply` and
/// returns `AIKIDO_OK` (the reply's content is the result),
/// `AIKIDO_ERR_TOOL_FAILED` (the reply's error is shown to the model
/// unchanged) or `AIKIDO_ERR_TOOL_PANICKED` (the reply's error is the panic
/// value). `arguments` holds `arguments_len` bytes of checked JSON and is
/// NUL-terminated; it, `environment` and `reply` are valid for the call's
/// duration only. Handlers may run on many threads at once, and may call
/// back into the registry that runs them.
pub type aikido_handler = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        arguments: *const c_char,
        arguments_len: usize,
        environment: *const aikido_environment,
        reply: *mut aikido_reply,
    ) -> aikido_status,
>;

/// Frees a handler's userdata; libaikido calls it exactly once.
pub type aikido_userdata_free = Option<unsafe extern "C" fn(userdata: *mut c_void)>;

/// What a C handler wrote into its reply.
#[derive(Default)]
pub(crate) struct Reply {
    content: Option<String>,
    error: Option<String>,
    /// Why a set_* call refused its text; a handler that then returns that
    /// refusal's status, or a failure without text, is told why.
    refused: Option<String>,
}

impl Reply {
    /// Why the last set_* call refused its text, if one did.
    #[cfg(test)]
    pub(crate) fn refused_reason(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// The handler's outcome as the core sees it. The two ways a C handler
    /// can break its contract (a status it may not return, text the reply
    /// refused) are worded here, where the C names mean something, and reach
    /// the core as ordinary failures.
    fn outcome(self, status: aikido_status, tool: &str) -> HandlerResult {
        let refused_text = |reason: String| {
            ToolError::Failed(format!(
                "aikido/tools: tool failed: tool \"{tool}\" replied with text that was refused: {reason}"
            ))
        };
        match (status, self.error, self.refused) {
            (AIKIDO_OK, _, _) => Ok(ToolResult::new(self.content.unwrap_or_default())),
            (AIKIDO_ERR_TOOL_FAILED | AIKIDO_ERR_TOOL_PANICKED, None, Some(reason)) => Err(refused_text(reason)),
            (AIKIDO_ERR_TOOL_FAILED, error, _) => Err(ToolError::Failed(error.unwrap_or_default())),
            (AIKIDO_ERR_TOOL_PANICKED, error, _) => Err(ToolError::Panicked(
                error.unwrap_or_else(|| "the handler reported a panic without a message".to_owned()),
            )),
            (AIKIDO_ERR_INVALID_INPUT, _, Some(reason)) => Err(refused_text(reason)),
            (other, _, _) => Err(ToolError::Failed(format!(
                "aikido/tools: tool failed: tool \"{tool}\" returned status {other}, which a handler may not return \
                 (only AIKIDO_OK, AIKIDO_ERR_TOOL_FAILED or AIKIDO_ERR_TOOL_PANICKED)"
            ))),
        }
    }
}

/// A C function with its userdata. Dropping it frees the userdata: the
/// registry drops a tool after it is unregistered (or the registry freed)
/// and its last call has returned.
pub(crate) struct CHandler {
    function: unsafe extern "C" fn(
        *mut c_void,
        *const c_char,
        usize,
        *const aikido_environment,
        *mut aikido_reply,
    ) -> aikido_status,
    userdata: *mut c_void,
    userdata_free: aikido_userdata_free,
    /// The tool's name, for the messages about a handler that broke its contract.
    tool: Box<str>,
}

// SAFETY: the C contract requires handlers and their userdata to be usable
// from any thread at once (documented on aikido_registry_register).
unsafe impl Send for CHandler {}
// SAFETY: as for Send: the contract allows calls from many threads at once.
unsafe impl Sync for CHandler {}

impl CHandler {
    pub(crate) fn new(
        tool: &str,
        handler: aikido_handler,
        userdata: *mut c_void,
        userdata_free: aikido_userdata_free,
    ) -> Option<CHandler> {
        handler.map(|function| CHandler { function, userdata, userdata_free, tool: tool.into() })
    }

    /// Gives the userdata back to the caller without freeing it: for a
    /// registration that failed.
    pub(crate) fn release(mut self) {
        self.userdata_free = None;
    }
}

impl Drop for CHandler {
    fn drop(&mut self) {
        if let Some(free) = self.userdata_free {
            // SAFETY: the caller gave us this function for this userdata.
            unsafe { free(self.userdata) };
        }
    }
}

impl Handler for CHandler {
    fn call(&self, arguments: &str, environment: &Environment<'_>) -> HandlerResult {
        with_nul_terminated(arguments.as_bytes(), |arguments_ptr| {
            with_nul_terminated(environment.session_id.as_bytes(), |session_id| {
                let c_environment = aikido_environment {
                    session_id,
                    turn_id: *environment.turn_id.as_bytes(),
                    cancel: environment.cancel.map_or(std::ptr::null(), handle::from_ref::<aikido_cancel>),
                };
                let mut reply = Reply::default();
                // SAFETY: the pointers are valid for the call's duration, as
                // aikido_handler documents.
                let status = unsafe {
                    (self.function)(
                        self.userdata,
                        arguments_ptr,
                        arguments.len(),
                        &c_environment,
                        handle::from_mut::<aikido_reply>(&mut reply),
                    )
                };
                reply.outcome(status, &self.tool)
            })
        })
    }
}

/// Runs `visit` with a NUL-terminated copy of `bytes`: on the stack when it
/// is small, so that a typical call allocates nothing here.
fn with_nul_terminated<R>(bytes: &[u8], visit: impl FnOnce(*const c_char) -> R) -> R {
    const STACK: usize = 1024;
    if bytes.len() < STACK {
        let mut buffer = [MaybeUninit::<u8>::uninit(); STACK];
        // SAFETY: bytes.len() + 1 <= STACK, and the regions do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.as_mut_ptr().cast::<u8>(), bytes.len());
            buffer[bytes.len()].write(0);
        }
        visit(buffer.as_ptr().cast())
    } else {
        let mut owned = Vec::with_capacity(bytes.len() + 1);
        owned.extend_from_slice(bytes);
        owned.push(0);
        visit(owned.as_ptr().cast())
    }
}

/// Sets the handler's result text: `len` bytes of UTF-8 at `text`, holding no
/// NUL byte, copied. A later call replaces an earlier one. Returns
/// `AIKIDO_ERR_INVALID_INPUT`, leaving the text as it was, when `reply` is
/// NULL or the text is NULL (with a non-zero length), not UTF-8 or holds a
/// NUL; a handler that then fails without text, or returns that status, gets
/// a message saying its reply text was refused.
#[no_mangle]
pub unsafe extern "C" fn aikido_reply_set_content(
    reply: *mut aikido_reply,
    text: *const c_char,
    len: usize,
) -> aikido_status {
    // SAFETY: the caller passes the reply it was given and len readable bytes.
    boundary::status("aikido_reply_set_content", std::ptr::null_mut(), || unsafe {
        set_reply_text(reply, text, len, |reply, text| reply.content = Some(text))
    })
}

/// Sets the handler's error text (the failure shown to the model, or the
/// panic value); as `aikido_reply_set_content` otherwise.
#[no_mangle]
pub unsafe extern "C" fn aikido_reply_set_error(
    reply: *mut aikido_reply,
    text: *const c_char,
    len: usize,
) -> aikido_status {
    // SAFETY: as above.
    boundary::status("aikido_reply_set_error", std::ptr::null_mut(), || unsafe {
        set_reply_text(reply, text, len, |reply, text| reply.error = Some(text))
    })
}

/// # Safety
/// `reply` is NULL or the reply of a running handler call; `text` is NULL or
/// valid for reads of `len` bytes.
unsafe fn set_reply_text(
    reply: *mut aikido_reply,
    text: *const c_char,
    len: usize,
    store: impl FnOnce(&mut Reply, String),
) -> Result<(), crate::Error> {
    // SAFETY: reply is NULL or the reply of the running call, which nothing
    // else uses meanwhile (the handler's thread is inside this function).
    let reply = unsafe { handle::get_mut(reply) }.ok_or_else(|| invalid("reply is NULL"))?;
    // SAFETY: text is NULL or len readable bytes, by the C contract.
    let text = unsafe { text_slice(text, len, pair("text", "len")) }.inspect_err(|error| {
        reply.refused = Some(match error {
            crate::Error::InvalidInput(reason) => reason.clone(),
            other => other.to_string(),
        })
    })?;
    // Room for the NUL, so that handing the text to C later needs no second
    // allocation.
    let mut owned = String::with_capacity(text.len() + 1);
    owned.push_str(text);
    store(reply, owned);
    Ok(())
}
