//! Our definitions (`PRELUDE`) and native functions over jaq: `range`,
//! `input`, math, `tostring`, `@` formats, regexes, dates, `env`…

use super::*;

/// The jq definitions we add or replace (jq 1.7's, with checks in the
/// generators).
pub(super) const PRELUDE: &str = r#"
def range($upto): range(0; $upto; 1);
def range($from; $upto): range($from; $upto; 1);
def repeat(f): def _repeat: _check | (f, _repeat); _repeat;
def getpath($p): _check | if $p == [] then . else .[$p[0]] | getpath($p[1:]) end;
def delpaths($ps): reduce ($ps | sort | reverse)[] as $p (.; getpath($p) |= empty);
def del(f): delpaths([path(f)]);
def recurse(f): def _recurse: _check | (., (f | _recurse)); _recurse;
def recurse(f; cond): def _recurse: _check | (., (f | select(cond) | _recurse)); _recurse;
def recurse: recurse(.[]?);
def while(cond; update): def _while: _check | if cond then ., (update | _while) else empty end; _while;
def until(cond; update): def _until: _check | if cond then . else (update | _until) end; _until;
def nan: _nan;
def infinite: _infinite;
def isnan: . < nan and nan < .;
def isinfinite: . == infinite or . == -infinite;
def isfinite: isnumber and (isinfinite | not);
def isnormal: isnumber and ((. == 0 or isnan or isinfinite) | not);
def finites: select(isfinite);
def normals: select(isnormal);
def tostring: _tostring;
def @text: _tostring;
def @json: tojson;
def @html: _format("html");
def @uri: _format("uri");
def @sh: _format("sh");
def @csv: _format("csv");
def @tsv: _format("tsv");
def @base64: _format("base64");
def @base64d: _format("base64d");
def @base32: _format("base32");
def @base32d: _format("base32d");
def join($x): reduce .[] as $i (null;
  (if . == null then "" else . + $x end) +
  ($i | if . == null then "" elif type == "string" then . else tojson end)) // "";
def from_entries: reduce .[] as $x ({};
  . + { ($x | if .key == null then .k // .name // .Name // .K // .Key else .key end
          | if type == "string" then . else tojson end):
        ($x | if has("value") then .value else .v end) });
def with_entries(f): to_entries | map(f) | from_entries;
def walk(f): def w: _check | if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def env: $ENV;
def leaf_paths: paths(scalars);
def flatten($d): _check | if $d < 0 then error("flatten depth must not be negative")
  else reduce .[] as $x ([]; if $x | type == "array" and $d > 0 then . + ($x | flatten($d - 1)) else . + [$x] end) end;
def flatten: flatten(1e9);
def toarray: if type == "array" then . else [.] end;
def ascii: [.] | implode;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init
  | foreach f as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input
  | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def halt_error($code): _halt_message, halt($code);
def halt_error: halt_error(5);
def have_literal_numbers: true;
def have_decnum: false;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def localtime: gmtime;
def strflocaltime(f): strftime(f);
def sqrt: _math1("sqrt");
def cbrt: _math1("cbrt");
def fabs: _math1("fabs");
def exp: _math1("exp");
def exp2: _math1("exp2");
def exp10: _math1("exp10");
def pow10: _math1("exp10");
def expm1: _math1("expm1");
def log: _math1("log");
def log2: _math1("log2");
def log10: _math1("log10");
def log1p: _math1("log1p");
def sin: _math1("sin");
def cos: _math1("cos");
def tan: _math1("tan");
def asin: _math1("asin");
def acos: _math1("acos");
def atan: _math1("atan");
def sinh: _math1("sinh");
def cosh: _math1("cosh");
def tanh: _math1("tanh");
def asinh: _math1("asinh");
def acosh: _math1("acosh");
def atanh: _math1("atanh");
def trunc: _math1("trunc");
def rint: _math1("rint");
def nearbyint: _math1("rint");
def significand: _math1("significand");
def logb: _math1("logb");
def gamma: _math1("lgamma");
def lgamma: _math1("lgamma");
def frexp: _frexp;
def modf: _modf;
def getpath_or_null(p): getpath(p);
"#;

/// Names of jaq natives we replace with our own.
pub(super) const REPLACED: &[&str] =
    &["range", "input", "ltrimstr", "rtrimstr", "keys_unsorted", "floor", "round", "ceil"];

pub(super) fn natives() -> Vec<Fun<JqData>> {
    let vv = || -> Box<[Bind]> { [Bind::Var(()), Bind::Var(())].into() };
    let list: Vec<jaq_core::native::Filter<jaq_core::RunPtr<JqData>>> = vec![
        ("input", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let mut inputs = global.inputs;
            match inputs.next() {
                Some(Ok(value)) => box_once(Ok(value)),
                Some(Err(message)) => fail(message),
                None => fail("No more inputs"),
            }
        }),
        ("ltrimstr", v(1), |mut cv: JCv<JqData>| {
            let prefix = cv.0.pop_var().0;
            match (text_of(cv.1.inner()), text_of(&prefix)) {
                (Some(text), Some(prefix)) if text.starts_with(&prefix) => ok(str_val(&text[prefix.len()..])),
                _ => box_once(Ok(cv.1)),
            }
        }),
        ("rtrimstr", v(1), |mut cv: JCv<JqData>| {
            let suffix = cv.0.pop_var().0;
            match (text_of(cv.1.inner()), text_of(&suffix)) {
                (Some(text), Some(suffix)) if text.ends_with(&suffix) => {
                    ok(str_val(&text[..text.len() - suffix.len()]))
                }
                _ => box_once(Ok(cv.1)),
            }
        }),
        // jaq-std defines these as `0 / 0` and `1 / 0`, which jq refuses.
        ("_nan", v(0), |_cv: JCv<JqData>| ok(Val::from(f64::NAN))),
        ("_infinite", v(0), |_cv: JCv<JqData>| ok(Val::from(f64::INFINITY))),
        ("floor", v(0), |cv: JCv<JqData>| rounding(cv.1.inner(), f64::floor)),
        ("ceil", v(0), |cv: JCv<JqData>| rounding(cv.1.inner(), f64::ceil)),
        ("round", v(0), |cv: JCv<JqData>| rounding(cv.1.inner(), f64::round)),
        ("keys_unsorted", v(0), |cv: JCv<JqData>| match cv.1.inner() {
            Val::Obj(map) => ok(Val::Arr(Rc::new(map.keys().cloned().collect()))),
            Val::Arr(items) => ok(Val::Arr(Rc::new((0..items.len()).map(Val::from).collect()))),
            other => fail(format!("{} ({}) has no keys", type_name(other), truncated(other))),
        }),
        ("length", v(0), |cv: JCv<JqData>| match length(cv.1.inner()) {
            Ok(value) => ok(value),
            Err(message) => fail(message),
        }),
        ("contains", v(1), |mut cv: JCv<JqData>| {
            let other = cv.0.pop_var().0;
            match contains(cv.1.inner(), &other) {
                Ok(b) => ok(Val::Bool(b)),
                Err(message) => fail(message),
            }
        }),
        ("has", v(1), |mut cv: JCv<JqData>| {
            let key = cv.0.pop_var().0;
            match has(cv.1.inner(), &key) {
                Ok(b) => ok(Val::Bool(b)),
                Err(message) => fail(message),
            }
        }),
        ("indices", v(1), |mut cv: JCv<JqData>| {
            let x = cv.0.pop_var().0;
            match indices(cv.1.inner(), &x) {
                Ok(value) => ok(value),
                Err(message) => fail(message),
            }
        }),
        ("bsearch", v(1), |mut cv: JCv<JqData>| {
            let x = cv.0.pop_var().0;
            match cv.1.inner() {
                Val::Arr(items) => {
                    let at = items.binary_search(&x).map_or_else(|i| -1 - i as isize, |i| i as isize);
                    ok(Val::from(at))
                }
                other => fail(format!("{} ({}) cannot be searched from", type_name(other), truncated(other))),
            }
        }),
        ("range", v(3), native_range),
        ("tojson", v(0), |cv: JCv<JqData>| match to_json(cv.1.inner()) {
            Ok(text) => ok(str_val(text)),
            Err(TooDeep) => fail("value nested too deeply for tojson"),
        }),
        ("_tostring", v(0), |cv: JCv<JqData>| match tostring(cv.1.inner()) {
            Ok(text) => ok(str_val(text)),
            Err(message) => fail(message),
        }),
        ("fromjson", v(0), |cv: JCv<JqData>| {
            let Some(text) = text_of(cv.1.inner()) else {
                return fail(format!(
                    "{} ({}) cannot be parsed as JSON",
                    type_name(cv.1.inner()),
                    truncated(cv.1.inner())
                ));
            };
            match parse_one(text.as_bytes()) {
                Ok(value) => ok(value),
                Err(message) => fail(format!("{message} (while parsing '{text}')")),
            }
        }),
        ("_format", v(1), |mut cv: JCv<JqData>| {
            let name = cv.0.pop_var().0;
            // A format writes at most six bytes for one (`&quot;`, `\u0000`).
            if measure(cv.1.inner(), usize::MAX, usize::MAX).1.saturating_mul(6) > memory_budget() {
                return box_once(memory_error("a formatted string").map_err(Exn::from));
            }
            match formats::format(&text_of(&name).unwrap_or_default(), cv.1.inner()) {
                Ok(value) => ok(value),
                Err(message) => fail(message),
            }
        }),
        ("matches", vv(), |cv: JCv<JqData>| regex_run(cv, false, true)),
        ("split_matches", vv(), |cv: JCv<JqData>| regex_run(cv, true, true)),
        ("split_", vv(), |cv: JCv<JqData>| regex_run(cv, true, false)),
        ("debug_empty", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let text = to_json(&Val::Arr(Rc::new(vec![str_val("DEBUG:"), cv.1.into_inner()]))).unwrap_or_default();
            global.stderr.borrow_mut().extend_from_slice(format!("{text}\n").as_bytes());
            Box::new(std::iter::empty())
        }),
        ("stderr_empty", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let text = to_json(cv.1.inner()).unwrap_or_default();
            global.stderr.borrow_mut().extend_from_slice(text.as_bytes());
            Box::new(std::iter::empty())
        }),
        ("_halt_message", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let text = match text_of(cv.1.inner()) {
                Some(text) => text,
                None => format!("{}\n", to_json(cv.1.inner()).unwrap_or_default()),
            };
            global.stderr.borrow_mut().extend_from_slice(text.as_bytes());
            Box::new(std::iter::empty())
        }),
        ("input_filename", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let name = global.location.borrow().name.clone();
            ok(name.map_or(Val::Null, str_val))
        }),
        ("input_line_number", v(0), |cv: JCv<JqData>| {
            let global: &Global = cv.0.data();
            let line = global.location.borrow().line;
            ok(Val::from(line))
        }),
        ("_math1", v(1), |mut cv: JCv<JqData>| {
            let name = text_of(&cv.0.pop_var().0).unwrap_or_default();
            math1_native(cv, &name)
        }),
        ("pow", v(2), |cv: JCv<JqData>| math2_native(cv, "pow")),
        ("atan2", v(2), |cv: JCv<JqData>| math2_native(cv, "atan2")),
        ("fmin", v(2), |cv: JCv<JqData>| math2_native(cv, "fmin")),
        ("fmax", v(2), |cv: JCv<JqData>| math2_native(cv, "fmax")),
        ("fmod", v(2), |cv: JCv<JqData>| math2_native(cv, "fmod")),
        ("hypot", v(2), |cv: JCv<JqData>| math2_native(cv, "hypot")),
        ("copysign", v(2), |cv: JCv<JqData>| math2_native(cv, "copysign")),
        ("ldexp", v(2), |cv: JCv<JqData>| math2_native(cv, "ldexp")),
        ("scalbln", v(2), |cv: JCv<JqData>| math2_native(cv, "ldexp")),
        ("remainder", v(2), |cv: JCv<JqData>| math2_native(cv, "remainder")),
        ("nextafter", v(2), |cv: JCv<JqData>| math2_native(cv, "nextafter")),
        ("tgamma", v(0), |cv: JCv<JqData>| math1_native(cv, "tgamma")),
        ("ilogb", v(0), |cv: JCv<JqData>| match cv.1.as_f64() {
            Some(x) => ok(Val::from(math1("logb", x) as isize)),
            None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
        }),
        ("escape_html", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "html")),
        ("unescape_html", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "htmld")),
        ("encode_uri", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "uri")),
        ("decode_uri", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "urid")),
        ("encode_base64", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "base64")),
        ("decode_base64", v(0), |cv: JCv<JqData>| format_native(cv.1.inner(), "base64d")),
        ("todateiso8601", v(0), |cv: JCv<JqData>| match time::strftime(cv.1.inner(), "%Y-%m-%dT%H:%M:%SZ") {
            Ok(text) => ok(str_val(text)),
            Err(message) => fail(message),
        }),
        ("fromdateiso8601", v(0), |cv: JCv<JqData>| {
            let Some(text) = text_of(cv.1.inner()) else {
                return fail("strptime/1 requires string inputs and arguments");
            };
            let format = "%Y-%m-%dT%H:%M:%SZ";
            match time::strptime(&text, format).map(|fields| time::mktime(&fields)) {
                Some(Ok(secs)) => ok(Val::from(secs as isize)),
                Some(Err(message)) => fail(message),
                None => fail(format!("date \"{text}\" does not match format \"{format}\"")),
            }
        }),
        ("_frexp", v(0), |cv: JCv<JqData>| match cv.1.as_f64() {
            Some(x) => {
                let (m, e) = frexp(x);
                ok(Val::Arr(Rc::new(vec![Val::from(m), Val::from(e as isize)])))
            }
            None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
        }),
        ("_modf", v(0), |cv: JCv<JqData>| match cv.1.as_f64() {
            Some(x) => {
                let int = x.trunc();
                let frac = if x.is_infinite() { 0.0f64.copysign(x) } else { x - int };
                ok(Val::Arr(Rc::new(vec![Val::from(frac), Val::from(int)])))
            }
            None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
        }),
        ("now", v(0), |_cv: JCv<JqData>| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            ok(Val::from(now.map_or(0.0, |d| d.as_secs_f64())))
        }),
        ("mktime", v(0), |cv: JCv<JqData>| match time::mktime(cv.1.inner()) {
            Ok(secs) => ok(Val::from(secs as isize)),
            Err(message) => fail(message),
        }),
        ("gmtime", v(0), |cv: JCv<JqData>| match cv.1.as_f64().map(time::gmtime) {
            Some(Ok(value)) => ok(value),
            Some(Err(message)) => fail(message),
            None => fail("gmtime() requires a number"),
        }),
        ("strftime", v(1), |mut cv: JCv<JqData>| {
            let format = cv.0.pop_var().0;
            let Some(format) = text_of(&format) else {
                return fail("strftime/1 requires a string format");
            };
            match time::strftime(cv.1.inner(), &format) {
                Ok(text) => ok(str_val(text)),
                Err(message) => fail(message),
            }
        }),
        ("strptime", v(1), |mut cv: JCv<JqData>| {
            let format = cv.0.pop_var().0;
            let (Some(text), Some(format)) = (text_of(cv.1.inner()), text_of(&format)) else {
                return fail("strptime/1 requires string inputs and arguments");
            };
            match time::strptime(&text, &format) {
                Some(value) => ok(value),
                None => fail(format!("date \"{text}\" does not match format \"{format}\"")),
            }
        }),
    ];
    let mut funs: Vec<Fun<JqData>> = list.into_iter().map(run::<JqData>).collect();
    // `_check` passes its input through, also as a path and in updates, so
    // that it can open every function body (see `rewrite_filter`).
    let check = jaq_core::Native::new(|cv| {
        let global = global_of(&cv.0);
        box_once(global.tick().map(|()| cv.1))
    })
    .with_paths(|cv| {
        let global = global_of(&cv.0);
        box_once(global.tick().map(|()| cv.1))
    })
    .with_update(|cv, update| {
        let global = global_of(&cv.0);
        match global.tick() {
            Ok(()) => update(cv.1),
            Err(exn) => box_once(Err(exn)),
        }
    });
    funs.push(("_check", v(0), check));
    funs
}

/// `floor`, `ceil`, `round`: an integer when it fits, else the double (jaq
/// would make a 300-digit integer of `1e300 | floor`).
pub(super) fn rounding<'a>(value: &Val, f: fn(f64) -> f64) -> ValXs<'a, V> {
    if jaq_std::ValT::is_int(value) {
        return ok(value.clone());
    }
    match jaq_std::ValT::as_f64(value) {
        Some(x) => {
            let y = f(x);
            if y.is_finite() && y.abs() < 9.0e18 {
                ok(Val::from(y as isize))
            } else {
                ok(Val::from(y))
            }
        }
        None => fail(format!("{} ({}) number required", type_name(value), truncated(value))),
    }
}

pub(super) fn math1_native<'a>(cv: JCv<'a, JqData>, name: &str) -> ValXs<'a, V> {
    match cv.1.as_f64() {
        Some(x) => ok(Val::from(math1(name, x))),
        None => fail(format!("{} ({}) number required", type_name(cv.1.inner()), truncated(cv.1.inner()))),
    }
}

pub(super) fn math2_native<'a>(mut cv: JCv<'a, JqData>, name: &str) -> ValXs<'a, V> {
    let b = cv.0.pop_var().0;
    let a = cv.0.pop_var().0;
    match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) => ok(Val::from(math2(name, a, b))),
        _ => fail(format!("{name}/2 requires numbers")),
    }
}

pub(super) fn format_native<'a>(value: &Val, name: &str) -> ValXs<'a, V> {
    match formats::format(name, value) {
        Ok(value) => ok(value),
        Err(message) => fail(message),
    }
}

/// `range($from; $upto; $by)`, checked on every value.
pub(super) fn native_range(mut cv: JCv<JqData>) -> ValXs<V> {
    let by = cv.0.pop_var().0;
    let upto = cv.0.pop_var().0;
    let from = cv.0.pop_var().0;
    let global: &Global = cv.0.data();
    let ints = (from.as_isize(), upto.as_isize(), by.as_isize());
    if let (Some(from), Some(upto), Some(by)) = ints {
        let mut next = Some(from);
        return Box::new(std::iter::from_fn(move || {
            let current = next?;
            let more = if by > 0 { current < upto } else { by < 0 && current > upto };
            if !more {
                return None;
            }
            let step = global.tick();
            next = if step.is_ok() { current.checked_add(by) } else { None };
            Some(step.map(|()| V::from(current)))
        }));
    }
    let (Some(from), Some(upto), Some(by)) = (from.as_f64(), upto.as_f64(), by.as_f64()) else {
        return fail("Range bounds must be numeric");
    };
    let mut current = from;
    let mut stopped = false;
    Box::new(std::iter::from_fn(move || {
        let more = if by > 0.0 { current < upto } else { by < 0.0 && current > upto };
        if stopped || !more {
            return None;
        }
        let value = current;
        current += by;
        let step = global.tick();
        stopped = step.is_err();
        Some(step.map(|()| V::from(value)))
    }))
}
