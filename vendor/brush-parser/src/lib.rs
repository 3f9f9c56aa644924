//! Implements a tokenizer and parsers for POSIX / bash shell syntax.
//!
//! Vendored from brush-parser 0.4.0 and trimmed for libaikido: see
//! VENDORED.md. Changes from upstream are ours.

// Upstream's code is kept close to its original text, so its own lint
// choices stand rather than ours.
#![allow(clippy::all, clippy::pedantic, clippy::nursery)]

pub mod arithmetic;
pub mod ast;
pub mod test_command;
pub mod word;

mod error;
mod fuel;
mod parser;
mod source;
mod tokenizer;

pub use fuel::set_stack_floor;
pub use error::{ParseError, ParseErrorLocation, TestCommandParseError, WordParseError};

pub use parser::{Parser, ParserImpl, ParserOptions, SourceInfo, parse_tokens};

pub use source::{SourcePosition, SourcePositionOffset, SourceSpan};
pub use tokenizer::{
    Token, TokenLocation, TokenizerError, TokenizerOptions, tokenize_str,
    tokenize_str_with_options, uncached_tokenize_str, unquote_str,
};
