//! brush-parser integration: parse a script into its AST, and turn parse
//! errors into bash-like messages (`bash: -c: line 1: syntax error near
//! unexpected token `then'`). The wording is close to bash's but the token
//! and line are brush-parser's guess; the status (2) is bash's.

use std::panic::{catch_unwind, AssertUnwindSafe};

use brush_parser::{ast, ParseError, Parser, ParserOptions, Token, TokenizerError};

/// Deepest nesting of brackets and compound keywords a script may have: the
/// parser is recursive, and a hostile script must not overflow the stack.
const MAX_NESTING: usize = 64;

/// The message for a script the parser gave up on: it made the parser
/// backtrack past its budget (brush-parser's PEG grammar can take time
/// exponential in the nesting of some unfinished constructs).
pub(crate) const TOO_COMPLEX: &str = "bash: -c: syntax error: the script is too complex to parse\n";

/// The parser options every parse uses: bash mode, extglob off (it is on
/// after `shopt -s extglob`, see [`options_with`]), and tilde expansion left
/// to the expander.
#[cfg(test)]
pub(crate) fn options() -> ParserOptions {
    options_with(false)
}

/// [`options`] with `extglob` as the shell has it.
pub(crate) fn options_with(extglob: bool) -> ParserOptions {
    ParserOptions {
        enable_extended_globbing: extglob,
        posix_mode: false,
        sh_mode: false,
        tilde_expansion_at_word_start: false,
        tilde_expansion_after_colon: false,
        ..ParserOptions::default()
    }
}

/// Parses a whole script. The error is the message for stderr (with its
/// newline); the status is 2.
pub(crate) fn parse_program(script: &str, options: &ParserOptions) -> Result<ast::Program, String> {
    parse_located(script, options).map_err(|(message, _)| message)
}

/// [`parse_program`], with the line the error is on (when known).
fn parse_located(script: &str, options: &ParserOptions) -> Result<ast::Program, (String, Option<usize>)> {
    parse_warning(script, options).map(|(program, _)| program)
}

/// Here-documents left open at the end of the script one parse may close
/// (each pending tag closes one; more is hostile text).
const MAX_OPEN_HEREDOCS: usize = 16;

/// [`parse_located`], and the warnings to print before running the
/// program: as bash does, a here-document still open at the end of the
/// script takes the rest of it as its body (`bash: line 3: warning:
/// here-document at line 1 delimited by end-of-file (wanted `EOF')`)
/// instead of being a syntax error; agents' here-documents are often cut
/// short.
fn parse_warning(script: &str, options: &ParserOptions) -> Result<(ast::Program, String), (String, Option<usize>)> {
    if let Some(message) = too_deep(script) {
        return Err((message, None));
    }
    let mut warnings = String::new();
    let mut closed = std::borrow::Cow::Borrowed(script);
    for _ in 0..MAX_OPEN_HEREDOCS {
        let result = catch_unwind(AssertUnwindSafe(|| Parser::new(closed.as_bytes(), options).parse_program()));
        let Ok(Err(ParseError::Tokenizing {
            inner: TokenizerError::UnterminatedHereDocuments(tags, positions), ..
        })) = &result
        else {
            return parse_result(script, result, options).map(|program| (program, warnings));
        };
        // The first open tag (brush lists them joined by ", "), as bash
        // names it: without its quotes.
        let tag: String =
            tags.split(", ").next().unwrap_or("").chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
        let at_line = positions.split(',').next().and_then(|line| line.trim().parse::<usize>().ok()).unwrap_or(1);
        let end_line = script.lines().count().max(1);
        warnings.push_str(&format!(
            "bash: line {end_line}: warning: here-document at line {at_line} delimited by end-of-file (wanted `{tag}')\n"
        ));
        let mut text = closed.into_owned();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&tag);
        text.push('\n');
        closed = std::borrow::Cow::Owned(text);
    }
    let result = catch_unwind(AssertUnwindSafe(|| Parser::new(closed.as_bytes(), options).parse_program()));
    parse_result(script, result, options).map(|program| (program, warnings))
}

/// A parse's outcome as [`parse_located`] gives it.
fn parse_result(
    script: &str,
    result: std::thread::Result<Result<ast::Program, ParseError>>,
    options: &ParserOptions,
) -> Result<ast::Program, (String, Option<usize>)> {
    match result {
        Ok(Ok(program)) => Ok(program),
        Ok(Err(error)) => {
            let line = match &error {
                ParseError::ParsingNear(position) => Some(position.line),
                ParseError::Tokenizing { position: Some(position), .. } => Some(position.line),
                _ => None,
            };
            Err((describe(script, &error, options), line))
        }
        Err(_) => Err(("bash: -c: syntax error\n".to_string(), None)),
    }
}

/// The longest run of whole lines at the start of a script that parses
/// (the script as a whole does not): what `bash -c` would have run before
/// it met the error, and where it ends (a newline's index). Tries at most
/// 64 cut points, from the error's line (when known) or the end.
fn prefix_before(script: &str, options: &ParserOptions, error_line: Option<usize>) -> Option<(ast::Program, usize)> {
    let cuts = script.match_indices('\n').map(|(at, _)| at).collect::<Vec<_>>();
    // The newline ending line L is cuts[L - 1]; a prefix ends at the
    // error's line at the latest.
    let last = match error_line {
        Some(line) if line >= 1 => line.min(cuts.len()),
        Some(_) => return None,
        None => cuts.len(),
    };
    for &cut in cuts[..last].iter().rev().take(64) {
        if let Ok(program) = parse_program(&script[..cut], options) {
            return Some((program, cut));
        }
    }
    None
}

/// A script parsed as `bash -c` reads it: one complete command at a time,
/// so a `shopt -s extglob` changes how the lines after it parse. Each
/// [`Steps::next`] parses what is left with the options the shell has now.
pub(crate) struct Steps<'s> {
    script: &'s str,
    /// Where what is left starts (a newline, or 0).
    at: usize,
    done: bool,
    /// Warnings of the last parse (here-documents closed by the end of
    /// the script), for stderr before what it gave runs.
    warnings: String,
}

/// What to run next.
pub(crate) enum Step {
    /// The rest of the script, parsed whole.
    All(ast::Program),
    /// The complete commands before a syntax error. Run them; if the
    /// parser options have changed since, call [`Steps::next`] again, else
    /// report the message (status 2).
    Prefix(ast::Program, String),
    /// A syntax error with nothing runnable before it: report it.
    Error(String),
}

impl<'s> Steps<'s> {
    pub(crate) fn new(script: &'s str) -> Self {
        Steps { script, at: 0, done: false, warnings: String::new() }
    }

    /// The warnings of the step [`Steps::next`] gave last (once).
    pub(crate) fn take_warnings(&mut self) -> String {
        std::mem::take(&mut self.warnings)
    }

    /// The next step, parsed with `options`; `None` when the script is done.
    pub(crate) fn next(&mut self, options: &ParserOptions) -> Option<Step> {
        if self.done {
            return None;
        }
        // The lines already run become empty lines, so that line numbers
        // (messages, `$LINENO`) stay the script's.
        let owned;
        let text = if self.at == 0 {
            self.script
        } else {
            let lines = self.script[..self.at].matches('\n').count();
            owned = format!("{}{}", "\n".repeat(lines), &self.script[self.at..]);
            &owned
        };
        let padding = text.len() - (self.script.len() - self.at);
        match parse_warning(text, options) {
            Ok((program, warnings)) => {
                self.warnings = warnings;
                self.done = true;
                Some(Step::All(program))
            }
            // A script the parser gave up on runs nothing: its prefixes
            // could cost as much again.
            Err((message, _)) if message == TOO_COMPLEX => {
                self.done = true;
                Some(Step::Error(message))
            }
            Err((message, line)) => match prefix_before(text, options, line) {
                Some((program, cut)) if cut > padding => {
                    self.at += cut - padding;
                    Some(Step::Prefix(program, message))
                }
                _ => {
                    self.done = true;
                    Some(Step::Error(message))
                }
            },
        }
    }
}

/// A word's pieces; `None` when brush-parser refuses the word (it is then
/// taken literally).
pub(crate) fn parse_word(word: &str, options: &ParserOptions) -> Option<Vec<brush_parser::word::WordPieceWithSource>> {
    catch_unwind(AssertUnwindSafe(|| brush_parser::word::parse(word, options))).ok()?.ok()
}

/// A here-document body's pieces (quotes are literal there).
pub(crate) fn parse_heredoc(
    body: &str,
    options: &ParserOptions,
) -> Option<Vec<brush_parser::word::WordPieceWithSource>> {
    catch_unwind(AssertUnwindSafe(|| brush_parser::word::parse_heredoc(body, options))).ok()?.ok()
}

/// An arithmetic expression's tree.
pub(crate) fn parse_arith(text: &str) -> Option<ast::ArithmeticExpr> {
    catch_unwind(AssertUnwindSafe(|| brush_parser::arithmetic::parse(text))).ok()?.ok()
}

/// Whether `text` failed to parse as arithmetic because it nests deeper
/// than the parser's budget allows (not because of a syntax error).
pub(crate) fn arith_too_deep(text: &str) -> bool {
    matches!(
        catch_unwind(AssertUnwindSafe(|| brush_parser::arithmetic::parse(text))),
        Ok(Err(brush_parser::WordParseError::ArithmeticExpression(brush_parser::ParseErrorLocation::TooComplex)))
    )
}

/// What `bash -c` says of a malformed `[[ … ]]`. It reports it without
/// setting the status: the script ends with the last command's (0 when
/// none ran), where any other syntax error ends it with 2.
const BAD_CONDITIONAL: &str = "syntax error in conditional expression";

/// The status `bash -c` ends with for a syntax error reported as `message`.
pub(crate) fn error_status(message: &str, last_status: i32) -> i32 {
    if message.contains(BAD_CONDITIONAL) {
        last_status
    } else {
        2
    }
}

/// Whether a syntax error at `index` (in characters) lies in a `[[ … ]]`
/// that does not parse on its own: the last `[[` before it, up to the
/// `]]` after that.
fn in_bad_conditional(script: &str, index: usize, options: &ParserOptions) -> bool {
    let tokenizer = brush_parser::TokenizerOptions {
        enable_extended_globbing: options.enable_extended_globbing,
        posix_mode: options.posix_mode,
        sh_mode: options.sh_mode,
    };
    let Ok(Ok(tokens)) = catch_unwind(|| brush_parser::tokenize_str_with_options(script, &tokenizer)) else {
        return false;
    };
    let words: Vec<(&str, usize)> = tokens
        .iter()
        .filter_map(|token| match token {
            Token::Word(text, span) => Some((text.as_str(), span.start.index)),
            Token::Operator(..) => None,
        })
        .collect();
    let Some(open) = words.iter().rposition(|(text, start)| *text == "[[" && *start <= index) else {
        return false;
    };
    let Some((_, close)) = words[open..].iter().find(|(text, _)| *text == "]]") else {
        return false;
    };
    let byte = |chars: usize| script.char_indices().nth(chars).map_or(script.len(), |(at, _)| at);
    let text = &script[byte(words[open].1)..byte(close + 2)];
    !matches!(catch_unwind(AssertUnwindSafe(|| Parser::new(text.as_bytes(), options).parse_program())), Ok(Ok(_)))
}

fn describe(script: &str, error: &ParseError, options: &ParserOptions) -> String {
    match error {
        ParseError::ParsingNear(position) => {
            let token = token_at(script, position.index, options).unwrap_or_default();
            let line = position.line;
            if in_bad_conditional(script, position.index, options) {
                return format!("bash: -c: line {line}: {BAD_CONDITIONAL}\n");
            }
            let text = script.lines().nth(line.saturating_sub(1)).unwrap_or("");
            if token.is_empty() {
                format!("bash: -c: line {line}: syntax error: unexpected end of file\n")
            } else {
                format!(
                    "bash: -c: line {line}: syntax error near unexpected token `{token}'\nbash: -c: line {line}: `{text}'\n"
                )
            }
        }
        ParseError::TooComplex => TOO_COMPLEX.to_string(),
        ParseError::ParsingAtEndOfInput => {
            let line = script.lines().count().max(1);
            format!("bash: -c: line {line}: syntax error: unexpected end of file\n")
        }
        ParseError::Tokenizing { inner, position } => {
            // bash names the line where an unclosed quote opened.
            let line = match inner {
                TokenizerError::UnterminatedSingleQuote(start)
                | TokenizerError::UnterminatedAnsiCQuote(start)
                | TokenizerError::UnterminatedDoubleQuote(start)
                | TokenizerError::UnterminatedBackquote(start) => start.line,
                _ => position.as_ref().map_or(1, |p| p.line),
            };
            let wanted = match inner {
                TokenizerError::UnterminatedSingleQuote(_) | TokenizerError::UnterminatedAnsiCQuote(_) => "'",
                TokenizerError::UnterminatedDoubleQuote(_) => "\"",
                TokenizerError::UnterminatedBackquote(_) => "`",
                TokenizerError::UnterminatedCommandSubstitution | TokenizerError::UnterminatedExpansion => ")",
                TokenizerError::UnterminatedVariable => "}",
                TokenizerError::TooComplex => return TOO_COMPLEX.to_string(),
                TokenizerError::UnterminatedHereDocuments(tag, _) | TokenizerError::MissingHereTag(tag) => {
                    return format!(
                        "bash: -c: line {line}: warning: here-document delimited by end-of-file (wanted `{tag}')\nbash: -c: line {line}: syntax error: unexpected end of file\n"
                    );
                }
                _ => return format!("bash: -c: line {line}: syntax error: {inner}\n"),
            };
            format!("bash: -c: line {line}: unexpected EOF while looking for matching `{wanted}'\n")
        }
    }
}

/// The token that starts at byte `index` of the script (read with the
/// parse's `extglob`: with it, `@(a)` is one token; without, `(` is one).
fn token_at(script: &str, index: usize, options: &ParserOptions) -> Option<String> {
    let options = brush_parser::TokenizerOptions {
        enable_extended_globbing: options.enable_extended_globbing,
        posix_mode: options.posix_mode,
        sh_mode: options.sh_mode,
    };
    let tokens = catch_unwind(|| brush_parser::tokenize_str_with_options(script, &options)).ok()?.ok()?;
    tokens.iter().find_map(|token| {
        let (text, span) = match token {
            Token::Operator(text, span) | Token::Word(text, span) => (text, span),
        };
        (span.start.index == index).then(|| text.clone())
    })
}

/// A message when the script nests deeper than the parser may recurse.
fn too_deep(script: &str) -> Option<String> {
    let mut depth: usize = 0;
    let mut max: usize = 0;
    let bytes = script.as_bytes();
    let mut word_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'(' | b'{' | b'[' | b'`' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if word_start && b.is_ascii_alphabetic() {
            let end = bytes[i..].iter().position(|c| !c.is_ascii_alphanumeric()).map_or(bytes.len(), |n| i + n);
            match &script[i..end] {
                "if" | "while" | "until" | "for" | "case" | "select" => depth += 1,
                "fi" | "done" | "esac" => depth = depth.saturating_sub(1),
                _ => {}
            }
            i = end;
            word_start = false;
            max = max.max(depth);
            continue;
        }
        word_start = !b.is_ascii_alphanumeric() && b != b'_';
        max = max.max(depth);
        i += 1;
    }
    (max > MAX_NESTING).then(|| "bash: -c: syntax error: the script nests too deeply\n".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reports() {
        assert!(parse_program("echo hi | wc -l && true", &options()).is_ok());
        let error = parse_program("if then", &options()).unwrap_err();
        assert!(error.contains("syntax error"), "{error}");
        let error = parse_program("echo 'abc", &options()).unwrap_err();
        assert!(error.contains("unexpected EOF while looking for matching `''"), "{error}");
    }

    /// Inputs that made the parser panic (found by fuzzing); parsed here
    /// without `catch_unwind`, so a panic fails the test.
    #[test]
    fn the_parser_does_not_panic_on_cut_or_huge_input() {
        let cut = "cat <<EOF > /n&& \0alue: $1HOME:-none$($((2 * 7))\nEOF\ncat /n; echo ok\n";
        for script in [cut, "echo {1..99999999999999999999}", "echo ~+99999999999999999999", "99999999999>f echo"] {
            for end in (0..=script.len()).filter(|&end| script.is_char_boundary(end)) {
                let _ = Parser::new(&script.as_bytes()[..end], &options()).parse_program();
            }
            for word in script.split(' ') {
                let _ = brush_parser::word::parse(word, &options());
            }
        }
    }

    #[test]
    fn deep_nesting_is_refused() {
        let script = format!("{}{}", "(".repeat(5000), ")".repeat(5000));
        assert!(parse_program(&script, &options()).unwrap_err().contains("nests too deeply"));
        let script = "echo $(( 1 + (2 * 3) ))";
        assert!(parse_program(script, &options()).is_ok());
    }

    /// The parser's work stays within its budget for every construct nested
    /// deep, finished or not: each case here once took time doubling per
    /// level (`case` did, before its grammar was rewritten) or would, if a
    /// rule regressed. The budget is counted in token reads, so this test
    /// is exact, not timed.
    #[test]
    fn nesting_does_not_make_the_parser_give_up() {
        let openers = [
            ("case x in x) ", " ;; esac"),
            ("case x in (x|y) ", " esac"),
            ("if x; then ", "; fi"),
            ("if x; then x; else ", "; fi"),
            ("if x; then x; elif x; then ", "; fi"),
            ("if ", "; then x; fi"),
            ("while ", "; do x; done"),
            ("until x; do ", "; done"),
            ("for i in a b; do ", "; done"),
            ("for ((;;)); do ", "; done"),
            ("{ ", "; }"),
            ("( ", " )"),
            ("f() { ", "; }"),
            ("x && ", ""),
            ("x | ", ""),
            ("! ", ""),
            ("echo $( ", " )"),
            ("x=$( ", " )"),
        ];
        let depth = 40;
        let mut gave_up = Vec::new();
        for (open, close) in openers {
            for (open2, close2) in openers {
                let mut script = String::new();
                for level in 0..depth {
                    script.push_str(if level % 2 == 0 { open } else { open2 });
                }
                script.push_str("true");
                let unfinished = script.clone();
                for level in (0..depth).rev() {
                    script.push_str(if level % 2 == 0 { close } else { close2 });
                }
                for text in [&unfinished, &script] {
                    let result = Parser::new(text.as_bytes(), &options()).parse_program();
                    if matches!(result, Err(ParseError::TooComplex)) {
                        gave_up.push(text.clone());
                    }
                }
            }
        }
        assert!(gave_up.is_empty(), "gave up on {} scripts:\n{}", gave_up.len(), gave_up.join("\n"));
    }

    /// Words and arithmetic have no read budget (their grammars run over the
    /// text itself), so unmatched `(`s inside `$(` and `$((` must stay cheap by grammar:
    /// they once took time growing ~1.8x per `(` (the fuzz target met one
    /// that ran for minutes). A regression would take hours here, so the
    /// test fails when the parses have not finished after a minute, a
    /// thousand times what they need.
    #[test]
    fn unmatched_parentheses_in_words_stay_cheap() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for prefix in ["$(", "$((", "$( (", "\"$(", "${x:-$(", "`"] {
                for unit in ["(", "$(", "$((", "( ", "(x", "${", "$[", "\"$("] {
                    let word = format!("{prefix}{}", unit.repeat(40));
                    let _ = parse_word(&word, &options());
                    let _ = parse_heredoc(&word, &options());
                    let _ = parse_arith(&word);
                }
            }
            // Arithmetic: nested `a[` once cost about twelve times more per
            // level (every assignment operator parsed the same lvalue).
            for unit in ["a[", "(", "1?(", "x=(", "x+=a[", "++a[", "a[1]?", "a[("] {
                let _ = parse_arith(&unit.repeat(40));
                let _ = parse_arith(&format!("{}1{}", unit.repeat(40), "]".repeat(40)));
            }
            done.send(()).expect("the test waits");
        });
        assert!(
            finished.recv_timeout(std::time::Duration::from_secs(60)).is_ok(),
            "word or arithmetic parsing backtracks exponentially"
        );
    }

    /// The tokenizer looped forever, queueing a token per turn, when the
    /// input ended after a here-document operator whose tag is empty (the
    /// fuzz target found it). Fails after a minute rather than hanging.
    #[test]
    fn a_here_document_without_a_body_ends_the_parse() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let results = ["$(<< >; [ ", "$(x << >; [ ", "<< >; [ ", "cat <<"]
                .map(|script| Parser::new(script.as_bytes(), &options()).parse_program().is_err());
            done.send(results).expect("the test waits");
        });
        let results = finished.recv_timeout(std::time::Duration::from_secs(60)).expect("the tokenizer loops");
        assert_eq!(results, [true; 4], "each is a syntax error");
    }

    #[test]
    fn words_parse() {
        assert!(parse_word("a${b}c", &options()).is_some_and(|p| p.len() == 3));
        assert!(parse_arith("1 + 2").is_some());
    }
}
