//! The awk grammar (POSIX, with gawk's common extensions) into a tree whose
//! variables are already resolved to slots: globals by index, function
//! parameters and locals by position in the frame.

use std::collections::HashMap;
use std::rc::Rc;

use regex::bytes::Regex;

use super::ere;
use super::lexer::{Builtin, Lexer, Tok};

/// Deepest nesting of expressions and statements the parser accepts; it
/// keeps the recursive evaluator well inside the stack.
const MAX_DEPTH: usize = 150;
/// Tallest expression tree (nesting plus operator chains such as
/// `1+1+…`): bounds the evaluator's recursion and the tree's drop.
const MAX_HEIGHT: usize = 500;

/// Slots of the special variables, in this order in every program.
pub const SPECIALS: &[&str] = &[
    "NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART", "RLENGTH", "CONVFMT", "OFMT",
    "ENVIRON", "ARGC", "ARGV",
];
pub const NR: usize = 0;
pub const NF: usize = 1;
pub const FNR: usize = 2;
pub const FS: usize = 3;
pub const OFS: usize = 4;
pub const ORS: usize = 5;
pub const RS: usize = 6;
pub const FILENAME: usize = 7;
pub const SUBSEP: usize = 8;
pub const RSTART: usize = 9;
pub const RLENGTH: usize = 10;
pub const CONVFMT: usize = 11;
pub const OFMT: usize = 12;
pub const ENVIRON: usize = 13;
pub const ARGC: usize = 14;
pub const ARGV: usize = 15;

/// An array operand: a global or a frame slot.
#[derive(Clone, Copy, Debug)]
pub enum ArrayRef {
    Global(usize),
    Local(usize),
}

/// Arithmetic operators.
#[derive(Clone, Copy, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// An expression.
#[derive(Debug)]
pub enum Expr {
    Num(f64),
    Str(Rc<[u8]>),
    /// A regex literal on its own: `$0 ~ /re/`.
    Regex(usize),
    Var(usize),
    Local(usize),
    Field(Box<Expr>),
    Index(ArrayRef, Box<[Expr]>),
    In(Box<[Expr]>, ArrayRef),
    Assign(Box<Expr>, Box<Expr>),
    AugAssign(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Pos(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `a ~ b` (false) and `a !~ b` (true).
    Match(bool, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    IncDec {
        target: Box<Expr>,
        delta: f64,
        post: bool,
    },
    Call(usize, Box<[Expr]>),
    Builtin(Builtin, Box<[Expr]>),
    /// `getline [var] [< file]`.
    Getline {
        var: Option<Box<Expr>>,
        file: Option<Box<Expr>>,
    },
    /// `cmd | getline [var]`: a line of the command's output.
    PipeGetline {
        cmd: Box<Expr>,
        var: Option<Box<Expr>>,
    },
    /// A parenthesised expression (kept so `print (a)(b)` and grouping
    /// in `print (x) > "f"` stay distinguishable while parsing).
    Group(Box<Expr>),
}

impl Expr {
    fn is_lvalue(&self) -> bool {
        matches!(self, Expr::Var(_) | Expr::Local(_) | Expr::Field(_) | Expr::Index(..))
    }
}

/// Where `print` and `printf` write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirect {
    Truncate,
    Append,
    Pipe,
}

/// A statement.
#[derive(Debug)]
pub enum Stmt {
    Expr(Expr),
    Print(Vec<Expr>, Option<(Redirect, Expr)>),
    Printf(Vec<Expr>, Option<(Redirect, Expr)>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    Do(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Box<Stmt>>, Box<Stmt>),
    ForIn(Expr, ArrayRef, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    Delete(ArrayRef, Option<Box<[Expr]>>),
}

/// When a rule runs.
#[derive(Debug)]
pub enum Pattern {
    All,
    Expr(Expr),
    Range(Expr, Expr),
}

/// A pattern-action rule; no action means `print $0`.
#[derive(Debug)]
pub struct Item {
    pub pattern: Pattern,
    pub action: Option<Vec<Stmt>>,
}

/// A user function.
#[derive(Debug)]
pub struct Function {
    pub name: String,
    pub nparams: usize,
    pub body: Vec<Stmt>,
}

/// A parsed program.
#[derive(Debug, Default)]
pub struct Program {
    pub begin: Vec<Vec<Stmt>>,
    pub end: Vec<Vec<Stmt>>,
    pub items: Vec<Item>,
    pub functions: Vec<Function>,
    pub globals: Vec<String>,
    pub regexes: Vec<Regex>,
}

/// A syntax error: its line and message.
#[derive(Debug)]
pub struct SyntaxError {
    pub line: usize,
    pub message: String,
}

type PResult<T> = Result<T, SyntaxError>;

#[derive(Clone)]
struct State<'s> {
    lexer: Lexer<'s>,
    tok: Tok,
    tok_start: usize,
    tok_line: usize,
}

struct Parser<'s> {
    st: State<'s>,
    globals: HashMap<String, usize>,
    global_names: Vec<String>,
    functions: HashMap<String, usize>,
    function_defs: Vec<Option<Function>>,
    function_names: Vec<String>,
    called_at: Vec<usize>,
    params: Option<Vec<String>>,
    regexes: Vec<Regex>,
    /// `>` ends the expression (unparenthesised `print` arguments).
    no_gt: bool,
    /// `in` is not an operator (the head of `for (x in a)`).
    depth: usize,
    height: usize,
    in_function: bool,
    loop_depth: usize,
}

/// Parses a whole program.
pub fn parse(src: &[u8]) -> PResult<Program> {
    let lexer = Lexer::new(src);
    let mut p = Parser {
        st: State { lexer, tok: Tok::Newline, tok_start: 0, tok_line: 1 },
        globals: HashMap::new(),
        global_names: Vec::new(),
        functions: HashMap::new(),
        function_defs: Vec::new(),
        function_names: Vec::new(),
        called_at: Vec::new(),
        params: None,
        regexes: Vec::new(),
        no_gt: false,
        depth: 0,
        height: 0,
        in_function: false,
        loop_depth: 0,
    };
    for name in SPECIALS {
        p.global(name);
    }
    p.advance()?;
    p.program()
}

impl<'s> Parser<'s> {
    fn err<T>(&self, message: impl Into<String>) -> PResult<T> {
        Err(SyntaxError { line: self.st.tok_line, message: message.into() })
    }

    fn syntax<T>(&self) -> PResult<T> {
        let near = match &self.st.tok {
            Tok::Eof => "end of file".to_string(),
            Tok::Newline => "end of line".to_string(),
            t => describe(t),
        };
        self.err(format!("syntax error at or near {near}"))
    }

    fn advance(&mut self) -> PResult<()> {
        let line = self.st.lexer.line;
        match self.st.lexer.next_token() {
            Ok((tok, start)) => {
                // A newline token belongs to the line it ends.
                self.st.tok_line = if tok == Tok::Newline { line } else { self.st.lexer.line };
                self.st.tok = tok;
                self.st.tok_start = start;
                Ok(())
            }
            Err(message) => Err(SyntaxError { line: self.st.lexer.line, message }),
        }
    }

    fn is(&self, t: &Tok) -> bool {
        &self.st.tok == t
    }

    fn eat(&mut self, t: &Tok) -> PResult<bool> {
        if self.is(t) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, t: &Tok) -> PResult<()> {
        if self.eat(t)? {
            Ok(())
        } else {
            self.syntax()
        }
    }

    fn newlines(&mut self) -> PResult<()> {
        while self.is(&Tok::Newline) {
            self.advance()?;
        }
        Ok(())
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        self.height += 1;
        if self.depth > MAX_DEPTH || self.height > MAX_HEIGHT || crate::shell::stack::too_deep() {
            return self.err("program nested too deeply");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
        self.height -= 1;
    }

    /// One more operator in a chain (`a + b + c`): the tree grows taller.
    fn grow(&mut self) -> PResult<()> {
        self.height += 1;
        if self.height > MAX_HEIGHT {
            return self.err("expression too long");
        }
        Ok(())
    }

    fn global(&mut self, name: &str) -> usize {
        if let Some(&i) = self.globals.get(name) {
            return i;
        }
        let i = self.global_names.len();
        self.global_names.push(name.to_string());
        self.globals.insert(name.to_string(), i);
        i
    }

    fn variable(&mut self, name: &str) -> PResult<Expr> {
        if self.functions.contains_key(name) {
            return self.err(format!("function `{name}' used as a variable"));
        }
        if let Some(params) = &self.params {
            if let Some(i) = params.iter().position(|p| p == name) {
                return Ok(Expr::Local(i));
            }
        }
        Ok(Expr::Var(self.global(name)))
    }

    fn array_ref(&mut self, name: &str) -> PResult<ArrayRef> {
        Ok(match self.variable(name)? {
            Expr::Local(i) => ArrayRef::Local(i),
            Expr::Var(i) => ArrayRef::Global(i),
            _ => unreachable!("variable() returns Var or Local"),
        })
    }

    fn function_index(&mut self, name: &str) -> usize {
        if let Some(&i) = self.functions.get(name) {
            return i;
        }
        let i = self.function_defs.len();
        self.function_defs.push(None);
        self.function_names.push(name.to_string());
        self.called_at.push(self.st.tok_line);
        self.functions.insert(name.to_string(), i);
        i
    }

    fn regex(&mut self, pattern: &[u8]) -> PResult<usize> {
        match ere::compile(pattern) {
            Ok(re) => {
                self.regexes.push(re);
                Ok(self.regexes.len() - 1)
            }
            Err(e) => self.err(e),
        }
    }

    // ---- program structure ----

    fn program(mut self) -> PResult<Program> {
        let mut prog = Program::default();
        loop {
            while self.is(&Tok::Newline) || self.is(&Tok::Semi) {
                self.advance()?;
            }
            match self.st.tok.clone() {
                Tok::Eof => break,
                Tok::Begin => {
                    self.advance()?;
                    if !self.is(&Tok::LBrace) {
                        return self.syntax();
                    }
                    prog.begin.push(self.block()?);
                }
                Tok::End => {
                    self.advance()?;
                    if !self.is(&Tok::LBrace) {
                        return self.syntax();
                    }
                    prog.end.push(self.block()?);
                }
                Tok::Function => self.function()?,
                Tok::LBrace => {
                    let action = self.block()?;
                    prog.items.push(Item { pattern: Pattern::All, action: Some(action) });
                }
                _ => {
                    let first = self.expr()?;
                    let pattern = if self.eat(&Tok::Comma)? {
                        self.newlines()?;
                        Pattern::Range(first, self.expr()?)
                    } else {
                        Pattern::Expr(first)
                    };
                    let action = if self.is(&Tok::LBrace) { Some(self.block()?) } else { None };
                    prog.items.push(Item { pattern, action });
                }
            }
            // A rule without an action ends at a newline, a `;` or the end.
            let bare = matches!(prog.items.last(), Some(Item { action: None, .. }));
            if bare && !matches!(self.st.tok, Tok::Newline | Tok::Semi | Tok::Eof) {
                return self.syntax();
            }
        }
        for (i, def) in self.function_defs.iter().enumerate() {
            if def.is_none() {
                return Err(SyntaxError {
                    line: self.called_at[i],
                    message: format!("function `{}' never defined", self.function_names[i]),
                });
            }
        }
        prog.functions = self.function_defs.into_iter().flatten().collect();
        prog.globals = self.global_names;
        prog.regexes = self.regexes;
        Ok(prog)
    }

    fn function(&mut self) -> PResult<()> {
        self.advance()?;
        let name = match self.st.tok.clone() {
            Tok::Name(n) | Tok::FuncName(n) => n,
            _ => return self.syntax(),
        };
        if self.globals.contains_key(&name) {
            return self.err(format!("function name `{name}' previously defined as a variable"));
        }
        self.advance()?;
        let index = self.function_index(&name);
        if self.function_defs[index].is_some() {
            return self.err(format!("function `{name}' redefined"));
        }
        self.expect(&Tok::LParen)?;
        let mut params = Vec::new();
        self.newlines()?;
        while let Tok::Name(p) = self.st.tok.clone() {
            if params.contains(&p) || p == name {
                return self.err(format!("function `{name}': duplicate parameter `{p}'"));
            }
            params.push(p);
            self.advance()?;
            self.newlines()?;
            if !self.eat(&Tok::Comma)? {
                break;
            }
            self.newlines()?;
        }
        self.expect(&Tok::RParen)?;
        self.newlines()?;
        if !self.is(&Tok::LBrace) {
            return self.syntax();
        }
        let nparams = params.len();
        self.params = Some(params);
        self.in_function = true;
        let body = self.block();
        self.params = None;
        self.in_function = false;
        self.function_defs[index] = Some(Function { name, nparams, body: body? });
        Ok(())
    }

    /// `{ statements }`; the current token is `{`.
    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect(&Tok::LBrace)?;
        self.enter()?;
        let mut stmts = Vec::new();
        loop {
            while self.is(&Tok::Newline) || self.is(&Tok::Semi) {
                self.advance()?;
            }
            if self.eat(&Tok::RBrace)? {
                break;
            }
            if self.is(&Tok::Eof) {
                return self.syntax();
            }
            stmts.push(self.statement()?);
        }
        self.leave();
        Ok(stmts)
    }

    /// The end of a simple statement: `;`, a newline, or (not consumed)
    /// `}` or the end of the program.
    fn terminator(&mut self) -> PResult<()> {
        match self.st.tok {
            Tok::Semi | Tok::Newline => self.advance(),
            Tok::RBrace | Tok::Eof => Ok(()),
            _ => self.syntax(),
        }
    }

    /// A statement that is the body of `if`, `while`, `for` or `do`.
    fn body(&mut self) -> PResult<Stmt> {
        self.newlines()?;
        if self.eat(&Tok::Semi)? {
            return Ok(Stmt::Block(Vec::new()));
        }
        self.statement()
    }

    fn loop_body(&mut self) -> PResult<Stmt> {
        self.loop_depth += 1;
        let body = self.body();
        self.loop_depth -= 1;
        body
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let stmt = self.statement_inner();
        self.leave();
        stmt
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        match self.st.tok.clone() {
            Tok::LBrace => Ok(Stmt::Block(self.block()?)),
            Tok::If => {
                self.advance()?;
                self.expect(&Tok::LParen)?;
                let cond = self.expr_nl()?;
                self.expect(&Tok::RParen)?;
                let then = self.body()?;
                // Look past newlines (and one `;`) for an `else`.
                let saved = self.st.clone();
                while self.is(&Tok::Newline) || self.is(&Tok::Semi) {
                    self.advance()?;
                }
                if self.eat(&Tok::Else)? {
                    let other = self.body()?;
                    Ok(Stmt::If(cond, Box::new(then), Some(Box::new(other))))
                } else {
                    self.st = saved;
                    Ok(Stmt::If(cond, Box::new(then), None))
                }
            }
            Tok::While => {
                self.advance()?;
                self.expect(&Tok::LParen)?;
                let cond = self.expr_nl()?;
                self.expect(&Tok::RParen)?;
                if self.is(&Tok::Semi) {
                    self.advance()?;
                    return Ok(Stmt::While(cond, Box::new(Stmt::Block(Vec::new()))));
                }
                let body = self.loop_body()?;
                Ok(Stmt::While(cond, Box::new(body)))
            }
            Tok::Do => {
                self.advance()?;
                let body = self.loop_body()?;
                while self.is(&Tok::Newline) || self.is(&Tok::Semi) {
                    self.advance()?;
                }
                self.expect(&Tok::While)?;
                self.expect(&Tok::LParen)?;
                let cond = self.expr_nl()?;
                self.expect(&Tok::RParen)?;
                self.terminator()?;
                Ok(Stmt::Do(Box::new(body), cond))
            }
            Tok::For => self.for_statement(),
            Tok::Semi => {
                self.advance()?;
                Ok(Stmt::Block(Vec::new()))
            }
            _ => {
                let s = self.simple_statement()?;
                self.terminator()?;
                Ok(s)
            }
        }
    }

    fn for_statement(&mut self) -> PResult<Stmt> {
        self.advance()?;
        self.expect(&Tok::LParen)?;
        // `for (name in array)`?
        if let Tok::Name(var) = self.st.tok.clone() {
            let saved = self.st.clone();
            self.advance()?;
            if self.eat(&Tok::In)? {
                if let Tok::Name(arr) = self.st.tok.clone() {
                    self.advance()?;
                    if self.eat(&Tok::RParen)? {
                        let var = self.variable(&var)?;
                        let arr = self.array_ref(&arr)?;
                        let body = self.loop_body()?;
                        return Ok(Stmt::ForIn(var, arr, Box::new(body)));
                    }
                }
            }
            self.st = saved;
        }
        let init = if self.is(&Tok::Semi) { None } else { Some(Box::new(self.simple_statement()?)) };
        self.newlines()?;
        self.expect(&Tok::Semi)?;
        self.newlines()?;
        let cond = if self.is(&Tok::Semi) { None } else { Some(self.expr_nl()?) };
        self.expect(&Tok::Semi)?;
        self.newlines()?;
        let step = if self.is(&Tok::RParen) { None } else { Some(Box::new(self.simple_statement()?)) };
        self.newlines()?;
        self.expect(&Tok::RParen)?;
        if self.is(&Tok::Semi) {
            self.advance()?;
            return Ok(Stmt::For(init, cond, step, Box::new(Stmt::Block(Vec::new()))));
        }
        let body = self.loop_body()?;
        Ok(Stmt::For(init, cond, step, Box::new(body)))
    }

    fn simple_statement(&mut self) -> PResult<Stmt> {
        match self.st.tok.clone() {
            Tok::Print | Tok::Printf => {
                let is_printf = self.is(&Tok::Printf);
                self.advance()?;
                let args = self.print_args()?;
                let dest = match self.st.tok {
                    Tok::Gt => Some(Redirect::Truncate),
                    Tok::Append => Some(Redirect::Append),
                    Tok::Pipe => Some(Redirect::Pipe),
                    _ => None,
                };
                let dest = match dest {
                    Some(r) => {
                        self.advance()?;
                        // The target is a concatenation without `>`.
                        let saved = self.no_gt;
                        self.no_gt = true;
                        let target = self.concat();
                        self.no_gt = saved;
                        Some((r, target?))
                    }
                    None => None,
                };
                if is_printf {
                    if args.is_empty() {
                        return self.err("printf: no format");
                    }
                    Ok(Stmt::Printf(args, dest))
                } else {
                    Ok(Stmt::Print(args, dest))
                }
            }
            // `next` is allowed in functions too (gawk checks at run time).
            Tok::Next => {
                self.advance()?;
                Ok(Stmt::Next)
            }
            Tok::Nextfile => {
                self.advance()?;
                Ok(Stmt::NextFile)
            }
            Tok::Exit => {
                self.advance()?;
                let code = if self.ends_simple() { None } else { Some(self.expr()?) };
                Ok(Stmt::Exit(code))
            }
            Tok::Return => {
                if !self.in_function {
                    return self.err("return used outside function context");
                }
                self.advance()?;
                let value = if self.ends_simple() { None } else { Some(self.expr()?) };
                Ok(Stmt::Return(value))
            }
            Tok::Break | Tok::Continue => {
                let is_break = self.is(&Tok::Break);
                if self.loop_depth == 0 {
                    return self
                        .err(format!("{} is not allowed outside a loop", if is_break { "break" } else { "continue" }));
                }
                self.advance()?;
                Ok(if is_break { Stmt::Break } else { Stmt::Continue })
            }
            Tok::Delete => {
                self.advance()?;
                let Tok::Name(name) = self.st.tok.clone() else {
                    return self.syntax();
                };
                self.advance()?;
                let arr = self.array_ref(&name)?;
                if self.eat(&Tok::LBracket)? {
                    let subs = self.expr_list_until(&Tok::RBracket)?;
                    Ok(Stmt::Delete(arr, Some(subs.into_boxed_slice())))
                } else {
                    Ok(Stmt::Delete(arr, None))
                }
            }
            _ => Ok(Stmt::Expr(self.expr()?)),
        }
    }

    fn ends_simple(&self) -> bool {
        matches!(self.st.tok, Tok::Semi | Tok::Newline | Tok::RBrace | Tok::Eof)
    }

    fn ends_print(&self) -> bool {
        self.ends_simple() || matches!(self.st.tok, Tok::Gt | Tok::Append | Tok::Pipe)
    }

    /// `print` arguments: `expr, expr…` or `(expr, expr…)`.
    fn print_args(&mut self) -> PResult<Vec<Expr>> {
        if self.ends_print() {
            return Ok(Vec::new());
        }
        if self.is(&Tok::LParen) {
            let saved = self.st.clone();
            let saved_regexes = self.regexes.len();
            self.advance()?;
            if let Ok(list) = self.expr_list_until(&Tok::RParen) {
                if self.ends_print() {
                    return Ok(list);
                }
            }
            self.st = saved;
            self.regexes.truncate(saved_regexes);
        }
        let saved = self.no_gt;
        self.no_gt = true;
        let result = self.expr_list_plain();
        self.no_gt = saved;
        result
    }

    fn expr_list_plain(&mut self) -> PResult<Vec<Expr>> {
        let mut list = vec![self.expr()?];
        while self.eat(&Tok::Comma)? {
            self.newlines()?;
            list.push(self.expr()?);
        }
        Ok(list)
    }

    /// A comma-separated list closed by `close` (newlines allowed).
    fn expr_list_until(&mut self, close: &Tok) -> PResult<Vec<Expr>> {
        let saved = self.no_gt;
        self.no_gt = false;
        let result = (|| {
            let mut list = Vec::new();
            self.newlines()?;
            if self.eat(close)? {
                return Ok(list);
            }
            loop {
                list.push(self.expr()?);
                self.newlines()?;
                if self.eat(close)? {
                    return Ok(list);
                }
                self.expect(&Tok::Comma)?;
                self.newlines()?;
            }
        })();
        self.no_gt = saved;
        result
    }

    /// An expression where newlines around it are allowed (inside parens).
    fn expr_nl(&mut self) -> PResult<Expr> {
        self.newlines()?;
        let saved = self.no_gt;
        self.no_gt = false;
        let e = self.expr();
        self.no_gt = saved;
        let e = e?;
        self.newlines()?;
        Ok(e)
    }

    // ---- expressions, lowest precedence first ----

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = self.ternary();
        self.leave();
        e
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let cond = self.or()?;
        if self.eat(&Tok::Question)? {
            self.newlines()?;
            let a = self.expr()?;
            self.newlines()?;
            self.expect(&Tok::Colon)?;
            self.newlines()?;
            let b = self.expr()?;
            return Ok(Expr::Cond(Box::new(cond), Box::new(a), Box::new(b)));
        }
        let op = match self.st.tok {
            Tok::Assign => None,
            Tok::AddAssign => Some(BinOp::Add),
            Tok::SubAssign => Some(BinOp::Sub),
            Tok::MulAssign => Some(BinOp::Mul),
            Tok::DivAssign => Some(BinOp::Div),
            Tok::ModAssign => Some(BinOp::Mod),
            Tok::PowAssign => Some(BinOp::Pow),
            _ => return Ok(cond),
        };
        if !cond.is_lvalue() {
            // `x /= 2` style ambiguity aside, only lvalues can be assigned.
            return self.syntax();
        }
        self.advance()?;
        self.newlines()?;
        let value = self.expr()?;
        Ok(match op {
            None => Expr::Assign(Box::new(cond), Box::new(value)),
            Some(op) => Expr::AugAssign(op, Box::new(cond), Box::new(value)),
        })
    }

    fn or(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.or_chain();
        self.height = height;
        result
    }

    fn or_chain(&mut self) -> PResult<Expr> {
        let mut left = self.and()?;
        while self.eat(&Tok::Or)? {
            self.grow()?;
            self.newlines()?;
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.and_chain();
        self.height = height;
        result
    }

    fn and_chain(&mut self) -> PResult<Expr> {
        let mut left = self.in_expr()?;
        while self.eat(&Tok::And)? {
            self.grow()?;
            self.newlines()?;
            let right = self.in_expr()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn in_expr(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.in_expr_chain();
        self.height = height;
        result
    }

    fn in_expr_chain(&mut self) -> PResult<Expr> {
        let mut left = self.match_expr()?;
        while self.is(&Tok::In) {
            self.grow()?;
            self.advance()?;
            let Tok::Name(name) = self.st.tok.clone() else {
                return self.syntax();
            };
            self.advance()?;
            let arr = self.array_ref(&name)?;
            let subs = match left {
                Expr::Group(inner) => vec![*inner],
                other => vec![other],
            };
            left = Expr::In(subs.into_boxed_slice(), arr);
        }
        Ok(left)
    }

    fn match_expr(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.match_expr_chain();
        self.height = height;
        result
    }

    fn match_expr_chain(&mut self) -> PResult<Expr> {
        let mut left = self.comparison()?;
        loop {
            let negated = match self.st.tok {
                Tok::Tilde => false,
                Tok::NoMatch => true,
                _ => return Ok(left),
            };
            self.grow()?;
            self.advance()?;
            let right = self.comparison()?;
            left = Expr::Match(negated, Box::new(left), Box::new(right));
        }
    }

    fn comparison(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.comparison_chain();
        self.height = height;
        result
    }

    /// Comparisons chain to the left (`1 < 2 < 3`), as in mawk.
    fn comparison_chain(&mut self) -> PResult<Expr> {
        let mut left = self.pipe_getline()?;
        loop {
            let op = match self.st.tok {
                Tok::Lt => CmpOp::Lt,
                Tok::Le => CmpOp::Le,
                Tok::Ne => CmpOp::Ne,
                Tok::Eq => CmpOp::Eq,
                Tok::Gt if !self.no_gt => CmpOp::Gt,
                Tok::Ge => CmpOp::Ge,
                _ => return Ok(left),
            };
            self.grow()?;
            self.advance()?;
            let right = self.pipe_getline()?;
            left = Expr::Cmp(op, Box::new(left), Box::new(right));
        }
    }

    /// `cmd | getline [var]`: the command runs in the shell.
    fn pipe_getline(&mut self) -> PResult<Expr> {
        let mut left = self.concat()?;
        while self.is(&Tok::Pipe) {
            let saved = self.st.clone();
            self.advance()?;
            if !self.eat(&Tok::Getline)? {
                self.st = saved;
                break;
            }
            let var = self.getline_var()?;
            left = Expr::PipeGetline { cmd: Box::new(left), var };
        }
        Ok(left)
    }

    /// The variable after `getline`, if one follows: a name, an element or a field.
    fn getline_var(&mut self) -> PResult<Option<Box<Expr>>> {
        if !matches!(self.st.tok, Tok::Name(_) | Tok::Dollar) {
            return Ok(None);
        }
        let target = self.primary()?;
        if !target.is_lvalue() {
            return self.syntax();
        }
        Ok(Some(Box::new(target)))
    }

    /// Whether the current token starts the right side of a concatenation
    /// (`-`, `+` and `!` never do: `a -1` is a subtraction).
    fn starts_concat_operand(&self) -> bool {
        matches!(
            self.st.tok,
            Tok::Number(_)
                | Tok::Str(_)
                | Tok::Name(_)
                | Tok::FuncName(_)
                | Tok::Builtin(_)
                | Tok::Dollar
                | Tok::LParen
                | Tok::Incr
                | Tok::Decr
        )
    }

    fn concat(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.concat_chain();
        self.height = height;
        result
    }

    fn concat_chain(&mut self) -> PResult<Expr> {
        let mut left = self.additive()?;
        while self.starts_concat_operand() {
            self.grow()?;
            let right = self.additive()?;
            left = Expr::Concat(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn additive(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.additive_chain();
        self.height = height;
        result
    }

    fn additive_chain(&mut self) -> PResult<Expr> {
        let mut left = self.multiplicative()?;
        loop {
            let op = match self.st.tok {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                _ => return Ok(left),
            };
            self.grow()?;
            self.advance()?;
            let right = self.multiplicative()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn multiplicative(&mut self) -> PResult<Expr> {
        let height = self.height;
        let result = self.multiplicative_chain();
        self.height = height;
        result
    }

    fn multiplicative_chain(&mut self) -> PResult<Expr> {
        let mut left = self.unary()?;
        loop {
            let op = match self.st.tok {
                Tok::Star => BinOp::Mul,
                Tok::Slash => BinOp::Div,
                Tok::Percent => BinOp::Mod,
                _ => return Ok(left),
            };
            self.grow()?;
            self.advance()?;
            let right = self.unary()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = match self.st.tok {
            Tok::Not => {
                self.advance()?;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Tok::Minus => {
                self.advance()?;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Tok::Plus => {
                self.advance()?;
                Ok(Expr::Pos(Box::new(self.unary()?)))
            }
            _ => self.power(),
        };
        self.leave();
        e
    }

    fn power(&mut self) -> PResult<Expr> {
        let base = self.postfix()?;
        if self.eat(&Tok::Caret)? {
            // Right associative; the exponent may carry a sign.
            let exponent = self.unary()?;
            return Ok(Expr::Binary(BinOp::Pow, Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let e = self.primary()?;
        if e.is_lvalue() {
            let delta = match self.st.tok {
                Tok::Incr => 1.0,
                Tok::Decr => -1.0,
                _ => return Ok(e),
            };
            self.advance()?;
            return Ok(Expr::IncDec { target: Box::new(e), delta, post: true });
        }
        Ok(e)
    }

    fn primary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = self.primary_inner();
        self.leave();
        e
    }

    fn primary_inner(&mut self) -> PResult<Expr> {
        match self.st.tok.clone() {
            Tok::Number(n) => {
                self.advance()?;
                Ok(Expr::Num(n))
            }
            Tok::Str(s) => {
                self.advance()?;
                Ok(Expr::Str(Rc::from(s)))
            }
            Tok::Slash | Tok::DivAssign => {
                let start = self.st.tok_start;
                let tok = self
                    .st
                    .lexer
                    .read_regex(start)
                    .map_err(|message| SyntaxError { line: self.st.tok_line, message })?;
                let Tok::Regex(pattern) = tok else { return self.syntax() };
                let index = self.regex(&pattern)?;
                self.advance()?;
                Ok(Expr::Regex(index))
            }
            Tok::Dollar => {
                self.advance()?;
                let operand = match self.st.tok {
                    Tok::Incr | Tok::Decr => {
                        let delta = if self.is(&Tok::Incr) { 1.0 } else { -1.0 };
                        self.advance()?;
                        let target = self.primary()?;
                        if !target.is_lvalue() {
                            return self.syntax();
                        }
                        Expr::IncDec { target: Box::new(target), delta, post: false }
                    }
                    Tok::Minus => {
                        self.advance()?;
                        Expr::Neg(Box::new(self.primary()?))
                    }
                    Tok::Not => {
                        self.advance()?;
                        Expr::Not(Box::new(self.primary()?))
                    }
                    _ => self.primary()?,
                };
                Ok(Expr::Field(Box::new(operand)))
            }
            Tok::Incr | Tok::Decr => {
                let delta = if self.is(&Tok::Incr) { 1.0 } else { -1.0 };
                self.advance()?;
                let target = self.primary()?;
                if !target.is_lvalue() {
                    return self.syntax();
                }
                Ok(Expr::IncDec { target: Box::new(target), delta, post: false })
            }
            Tok::Not | Tok::Minus | Tok::Plus => self.unary(),
            Tok::LParen => {
                self.advance()?;
                let list = self.expr_list_until(&Tok::RParen)?;
                match list.len() {
                    0 => self.syntax(),
                    1 => Ok(Expr::Group(Box::new(list.into_iter().next().unwrap_or(Expr::Num(0.0))))),
                    _ => {
                        // `(a, b) in arr`.
                        if !self.is(&Tok::In) {
                            return self.syntax();
                        }
                        self.advance()?;
                        let Tok::Name(name) = self.st.tok.clone() else {
                            return self.syntax();
                        };
                        self.advance()?;
                        let arr = self.array_ref(&name)?;
                        Ok(Expr::In(list.into_boxed_slice(), arr))
                    }
                }
            }
            Tok::Name(name) => {
                self.advance()?;
                if self.eat(&Tok::LBracket)? {
                    let arr = self.array_ref(&name)?;
                    let subs = self.expr_list_until(&Tok::RBracket)?;
                    if subs.is_empty() {
                        return self.syntax();
                    }
                    return Ok(Expr::Index(arr, subs.into_boxed_slice()));
                }
                self.variable(&name)
            }
            Tok::FuncName(name) => {
                if self.globals.contains_key(&name) && self.params.as_ref().is_none_or(|p| !p.contains(&name)) {
                    return self.err(format!("`{name}' is a variable, not a function"));
                }
                let index = self.function_index(&name);
                self.advance()?;
                self.expect(&Tok::LParen)?;
                let args = self.expr_list_until(&Tok::RParen)?;
                Ok(Expr::Call(index, args.into_boxed_slice()))
            }
            Tok::Builtin(b) => self.builtin(b),
            Tok::Getline => {
                self.advance()?;
                let var = self.getline_var()?;
                let file = if self.eat(&Tok::Lt)? { Some(Box::new(self.primary()?)) } else { None };
                Ok(Expr::Getline { var, file })
            }
            _ => self.syntax(),
        }
    }

    fn builtin(&mut self, b: Builtin) -> PResult<Expr> {
        self.advance()?;
        if b == Builtin::Length && !self.is(&Tok::LParen) {
            return Ok(Expr::Builtin(b, Box::new([])));
        }
        if !self.is(&Tok::LParen) {
            return self.syntax();
        }
        self.advance()?;
        let args = self.expr_list_until(&Tok::RParen)?;
        let args: Vec<Expr> = args
            .into_iter()
            .map(|a| match a {
                Expr::Group(inner) => *inner,
                other => other,
            })
            .collect();
        let (min, max) = match b {
            Builtin::Length => (0, 1),
            Builtin::Substr => (2, 3),
            Builtin::Index => (2, 2),
            Builtin::Split => (2, 3),
            Builtin::Sub | Builtin::Gsub => (2, 3),
            Builtin::Match => (2, 2),
            Builtin::Sprintf => (1, usize::MAX),
            Builtin::Tolower | Builtin::Toupper => (1, 1),
            Builtin::Int | Builtin::Sqrt | Builtin::Exp | Builtin::Log | Builtin::Sin | Builtin::Cos => (1, 1),
            Builtin::Atan2 => (2, 2),
            Builtin::Rand => (0, 0),
            Builtin::Srand => (0, 1),
            Builtin::System => (1, 1),
            Builtin::Close => (1, 1),
            Builtin::Fflush => (0, 1),
        };
        if args.len() < min || args.len() > max {
            return self.err(format!(
                "{} arguments to {}",
                if args.len() < min { "too few" } else { "too many" },
                builtin_name(b)
            ));
        }
        if b == Builtin::Split && !matches!(args[1], Expr::Var(_) | Expr::Local(_)) {
            return self.err("split: second argument is not an array");
        }
        if matches!(b, Builtin::Sub | Builtin::Gsub) && args.len() == 3 && !args[2].is_lvalue() {
            return self.err(format!("{}: third argument is not a variable", builtin_name(b)));
        }
        Ok(Expr::Builtin(b, args.into_boxed_slice()))
    }
}

/// The name a builtin is written as.
pub fn builtin_name(b: Builtin) -> &'static str {
    match b {
        Builtin::Length => "length",
        Builtin::Substr => "substr",
        Builtin::Index => "index",
        Builtin::Split => "split",
        Builtin::Sub => "sub",
        Builtin::Gsub => "gsub",
        Builtin::Match => "match",
        Builtin::Sprintf => "sprintf",
        Builtin::Tolower => "tolower",
        Builtin::Toupper => "toupper",
        Builtin::Int => "int",
        Builtin::Sqrt => "sqrt",
        Builtin::Exp => "exp",
        Builtin::Log => "log",
        Builtin::Sin => "sin",
        Builtin::Cos => "cos",
        Builtin::Atan2 => "atan2",
        Builtin::Rand => "rand",
        Builtin::Srand => "srand",
        Builtin::System => "system",
        Builtin::Close => "close",
        Builtin::Fflush => "fflush",
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Number(n) => format!("{n}"),
        Tok::Str(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
        Tok::Regex(s) => format!("/{}/", String::from_utf8_lossy(s)),
        Tok::Name(n) | Tok::FuncName(n) => n.clone(),
        Tok::Builtin(b) => builtin_name(*b).to_string(),
        other => {
            let text = match other {
                Tok::LBrace => "{",
                Tok::RBrace => "}",
                Tok::LParen => "(",
                Tok::RParen => ")",
                Tok::LBracket => "[",
                Tok::RBracket => "]",
                Tok::Semi => ";",
                Tok::Comma => ",",
                Tok::Plus => "+",
                Tok::Minus => "-",
                Tok::Star => "*",
                Tok::Slash => "/",
                Tok::Percent => "%",
                Tok::Caret => "^",
                Tok::Not => "!",
                Tok::Gt => ">",
                Tok::Lt => "<",
                Tok::Pipe => "|",
                Tok::Question => "?",
                Tok::Colon => ":",
                Tok::Tilde => "~",
                Tok::NoMatch => "!~",
                Tok::Dollar => "$",
                Tok::Ge => ">=",
                Tok::Le => "<=",
                Tok::Eq => "==",
                Tok::Ne => "!=",
                Tok::And => "&&",
                Tok::Or => "||",
                Tok::Incr => "++",
                Tok::Decr => "--",
                Tok::AddAssign => "+=",
                Tok::SubAssign => "-=",
                Tok::MulAssign => "*=",
                Tok::DivAssign => "/=",
                Tok::ModAssign => "%=",
                Tok::PowAssign => "^=",
                Tok::Assign => "=",
                Tok::Append => ">>",
                Tok::Begin => "BEGIN",
                Tok::End => "END",
                Tok::Function => "function",
                Tok::If => "if",
                Tok::Else => "else",
                Tok::While => "while",
                Tok::For => "for",
                Tok::Do => "do",
                Tok::Break => "break",
                Tok::Continue => "continue",
                Tok::Next => "next",
                Tok::Nextfile => "nextfile",
                Tok::Exit => "exit",
                Tok::Return => "return",
                Tok::Delete => "delete",
                Tok::In => "in",
                Tok::Getline => "getline",
                Tok::Print => "print",
                Tok::Printf => "printf",
                _ => "?",
            };
            text.to_string()
        }
    }
}
