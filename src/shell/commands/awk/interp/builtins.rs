//! The builtin functions (`length`, `substr`, `sub`, `sprintf`, `system`…).

use super::*;

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    // ---- builtins ----

    pub(super) fn str_arg(&mut self, e: &Expr) -> R<Rc<[u8]>> {
        let v = self.eval(e)?;
        Ok(self.to_str(&v))
    }

    #[inline(never)]
    pub(super) fn builtin(&mut self, b: Builtin, args: &[Expr]) -> R<Value> {
        let num = |n: f64| Ok(Value::Num(n));
        match b {
            Builtin::Length => {
                let Some(arg) = args.first() else {
                    self.rebuild_record();
                    return num(self.record.text.len() as f64);
                };
                // `length($0)`: the record's length, without a copy of it.
                if matches!(arg, Expr::Field(index) if matches!(**index, Expr::Num(n) if n == 0.0)) {
                    self.rebuild_record();
                    return num(self.record.text.len() as f64);
                }
                let cell = match arg {
                    Expr::Var(i) => self.globals.get(*i),
                    Expr::Local(i) => self.frames.last().and_then(|f| f.get(*i)),
                    _ => None,
                };
                if let Some(Cell::Arr(a)) = cell {
                    return num(a.borrow().len() as f64);
                }
                let s = self.str_arg(arg)?;
                num(s.len() as f64)
            }
            Builtin::Substr => {
                let s = self.str_arg(&args[0])?;
                let m = round_half_even(self.eval_num(&args[1])?);
                let end = match args.get(2) {
                    Some(n) => m + round_half_even(self.eval_num(n)?),
                    None => f64::INFINITY,
                };
                let start = m.max(1.0);
                let end = end.min(s.len() as f64 + 1.0);
                if start.is_nan() || end.is_nan() || end <= start {
                    return Ok(Value::str(b""));
                }
                Ok(Value::str(&s[start as usize - 1..end as usize - 1]))
            }
            Builtin::Index => {
                let s = self.str_arg(&args[0])?;
                let t = self.str_arg(&args[1])?;
                if t.is_empty() {
                    return num(0.0);
                }
                num(memchr::memmem::find(&s, &t).map_or(0.0, |i| (i + 1) as f64))
            }
            Builtin::Split => {
                let s = self.str_arg(&args[0])?;
                let arr_ref = match &args[1] {
                    Expr::Var(i) => ArrayRef::Global(*i),
                    Expr::Local(i) => ArrayRef::Local(*i),
                    _ => return fail("split: second argument is not an array"),
                };
                let splitter = match args.get(2) {
                    None => {
                        let fs = self.scalar_bytes(FS)?;
                        Rc::new(Splitter::build(&fs, false)?)
                    }
                    Some(Expr::Regex(i)) => Rc::new(Splitter::Regex(self.prog.regexes[*i].clone())),
                    Some(e) => {
                        let sep = self.str_arg(e)?;
                        Rc::new(Splitter::build(&sep, false)?)
                    }
                };
                let mut ranges = Vec::new();
                splitter.split(&s, &mut ranges);
                let arr = self.array(arr_ref)?;
                let mut arr = arr.borrow_mut();
                arr.clear();
                for (i, &(a, e)) in ranges.iter().enumerate() {
                    arr.set(Rc::from((i + 1).to_string().as_bytes()), Value::strnum(&s[a..e]))?;
                }
                num(ranges.len() as f64)
            }
            Builtin::Sub | Builtin::Gsub => {
                let re = self.regex_for(&args[0])?;
                let repl = self.str_arg(&args[1])?;
                let place = match args.get(2) {
                    Some(t) => self.place(t)?,
                    None => Place::Field(0),
                };
                let target = self.get_place(&place)?;
                let s = self.to_str(&target);
                let (out, count) = substitute(&re, &s, &repl, b == Builtin::Gsub)?;
                if count > 0 {
                    self.set_place(&place, Value::Str(Rc::from(out)))?;
                }
                num(count as f64)
            }
            Builtin::Match => {
                let s = self.str_arg(&args[0])?;
                let re = self.regex_for(&args[1])?;
                let (start, len) = match re.find(&s) {
                    Some(m) => ((m.start() + 1) as f64, (m.end() - m.start()) as f64),
                    None => (0.0, -1.0),
                };
                self.globals[RSTART] = Cell::Val(Value::Num(start));
                self.globals[RLENGTH] = Cell::Val(Value::Num(len));
                num(start)
            }
            Builtin::Sprintf => {
                let fmt = self.str_arg(&args[0])?;
                let mut values = Vec::with_capacity(args.len() - 1);
                for a in &args[1..] {
                    values.push(self.eval(a)?);
                }
                let out = sprintf(&fmt, &values, &self.convfmt).map_err(|m| Fatal::Error(format!("sprintf: {m}")))?;
                Ok(Value::Str(Rc::from(out)))
            }
            Builtin::Tolower | Builtin::Toupper => {
                let s = self.str_arg(&args[0])?;
                let out: Vec<u8> = if b == Builtin::Tolower { s.to_ascii_lowercase() } else { s.to_ascii_uppercase() };
                Ok(Value::Str(Rc::from(out)))
            }
            Builtin::Int => num(self.eval_num(&args[0])?.trunc()),
            Builtin::Sqrt => num(self.eval_num(&args[0])?.sqrt()),
            Builtin::Exp => num(self.eval_num(&args[0])?.exp()),
            Builtin::Log => num(self.eval_num(&args[0])?.ln()),
            Builtin::Sin => num(self.eval_num(&args[0])?.sin()),
            Builtin::Cos => num(self.eval_num(&args[0])?.cos()),
            Builtin::Atan2 => {
                let y = self.eval_num(&args[0])?;
                let x = self.eval_num(&args[1])?;
                num(y.atan2(x))
            }
            Builtin::Rand => {
                // xorshift64*: deterministic for a given seed.
                let mut x = self.rand_state;
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                self.rand_state = x;
                let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
                num(r as f64 / (1u64 << 53) as f64)
            }
            Builtin::Srand => {
                let previous = self.seed;
                self.seed = match args.first() {
                    Some(e) => self.eval_num(e)?,
                    None => 0.0,
                };
                self.rand_state = seed_state(self.seed);
                num(previous)
            }
            Builtin::System => {
                let cmd = self.str_arg(&args[0])?;
                self.flush_everything()?;
                let status = self.run_shell(&cmd, b"", None)?;
                num(f64::from(status))
            }
            Builtin::Close => {
                let name = self.str_arg(&args[0])?;
                num(self.close(&name)?)
            }
            Builtin::Fflush => {
                self.flush_everything()?;
                num(0.0)
            }
        }
    }
}

pub(super) fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// `sub`/`gsub`: the new string and the number of replacements. In the
/// replacement `&` is the match, `\&` a literal `&`, `\\` a backslash.
pub(super) fn substitute(re: &Regex, s: &[u8], repl: &[u8], global: bool) -> R<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(s.len());
    let mut last = 0;
    let mut count = 0;
    for m in re.find_iter(s) {
        out.extend_from_slice(&s[last..m.start()]);
        let matched = &s[m.start()..m.end()];
        let mut i = 0;
        while i < repl.len() {
            match repl[i] {
                b'\\' if i + 1 < repl.len() && (repl[i + 1] == b'&' || repl[i + 1] == b'\\') => {
                    out.push(repl[i + 1]);
                    i += 2;
                }
                b'&' => {
                    out.extend_from_slice(matched);
                    i += 1;
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        if out.len() > MAX_STRING {
            return fail("string too long");
        }
        last = m.end();
        count += 1;
        if !global {
            break;
        }
    }
    out.extend_from_slice(&s[last..]);
    Ok((out, count))
}
