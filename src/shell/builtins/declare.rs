//! Variables and their attributes: `declare`/`typeset`, `local`, `export`,
//! `readonly`, namerefs, and the `declare -p` listing.

use super::*;

/// A declaration builtin's argument (`declare`, `local`, `export`,
/// `readonly`): a plain word, or an assignment already expanded.
#[derive(Debug, Clone)]
pub(crate) enum DeclArg {
    Word(String),
    Assign(Assign),
}

pub(super) fn declaration_words<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {
    let args: Vec<DeclArg> = argv[1..].iter().map(|arg| DeclArg::Word(arg.clone())).collect();
    declaration(interp, &argv[0], &args)
}

/// A word that reads `name=value`, `name+=value` or `name[i]=value` after
/// expansion (`declare "$n=1"`) is an assignment.
pub(super) fn word_assignment(word: &str) -> Option<Assign> {
    let (lhs, value) = word.split_once('=')?;
    let (lhs, append) = match lhs.strip_suffix('+') {
        Some(lhs) => (lhs, true),
        None => (lhs, false),
    };
    let (name, index) = match lhs.strip_suffix(']').and_then(|l| l.split_once('[')) {
        Some((name, index)) => (name, Some(index.to_string())),
        None => (lhs, None),
    };
    is_name(name).then(|| Assign {
        name: name.to_string(),
        index,
        value: AssignValue::Scalar(value.to_string()),
        append,
    })
}

/// Whether `s` is a valid variable name.
pub(crate) fn is_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `declare`, `typeset`, `local`, `export`, `readonly` with their arguments.
pub(crate) fn declaration<E: BuiltinEnv + ?Sized>(interp: &mut E, name: &str, args: &[DeclArg]) -> Res {
    let mut array = false;
    let mut assoc = false;
    let mut integer = None;
    let mut export = (name == "export").then_some(true);
    let mut readonly = name == "readonly";
    let mut print = false;
    let mut functions = false;
    // `-F`: names only (`-f` prints the definitions).
    let mut names_only = false;
    let mut export_functions = false;
    let mut global = false;
    let mut case: Option<u8> = None;
    let mut nameref: Option<bool> = None;
    let mut status = 0;
    let converted: Vec<DeclArg> = args
        .iter()
        .map(|arg| match arg {
            DeclArg::Word(w) if !w.starts_with(['-', '+']) => {
                word_assignment(w).map_or_else(|| arg.clone(), DeclArg::Assign)
            }
            other => other.clone(),
        })
        .collect();
    let mut items: Vec<&DeclArg> = Vec::new();
    let mut any_flag = false;
    for arg in &converted {
        match arg {
            DeclArg::Word(word)
                if (word.starts_with('-') || word.starts_with('+')) && word.len() > 1 && items.is_empty() =>
            {
                let on = word.starts_with('-');
                any_flag = true;
                for flag in word[1..].chars() {
                    match flag {
                        'a' => array = on,
                        'A' => assoc = on,
                        'i' => integer = Some(on),
                        'x' => export = Some(on),
                        'r' => readonly = on,
                        'p' => print = true,
                        // `export -f NAME`: marks functions (a child shell
                        // sees them already); nothing is printed.
                        'f' if name == "export" => export_functions = true,
                        'f' => functions = true,
                        'F' => {
                            functions = true;
                            names_only = true;
                        }
                        'g' => global = true,
                        'u' => case = Some(if on { 1 } else { 0 }),
                        'l' => case = Some(if on { 2 } else { 0 }),
                        // `export -n NAME` takes the export away.
                        'n' if name == "export" => export = Some(!on),
                        'n' => nameref = Some(on),
                        't' => {}
                        _ => {
                            interp.error(format_args!("{name}: {word}: invalid option"))?;
                            return Ok(2);
                        }
                    }
                }
            }
            other => items.push(other),
        }
    }
    if export_functions {
        for item in &items {
            if let DeclArg::Word(f) = item {
                if !interp.state().functions.contains_key(f.as_str()) {
                    interp.error(format_args!("export: {f}: not a function"))?;
                    status = 1;
                }
            }
        }
        return Ok(status);
    }
    let in_function = !interp.state().locals.is_empty();
    if name == "local" && !in_function {
        interp.error("local: can only be used in a function")?;
        return Ok(1);
    }
    let local = (name == "local" || (matches!(name, "declare" | "typeset") && in_function)) && !global;
    if functions {
        let mut text = String::new();
        for item in &items {
            if let DeclArg::Word(f) = item {
                match interp.state().functions.get(f.as_str()) {
                    Some(_) if names_only => text.push_str(&format!("{f}\n")),
                    Some(body) => text.push_str(&function_text(f, body)),
                    None => status = 1,
                }
            }
        }
        if items.is_empty() {
            let mut names: Vec<&String> = interp.state().functions.keys().collect();
            names.sort();
            for f in names {
                if names_only {
                    text.push_str(&format!("declare -f {f}\n"));
                } else if let Some(body) = interp.state().functions.get(f.as_str()) {
                    text.push_str(&function_text(f, body));
                }
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(status);
    }
    if items.is_empty() && !print && !any_flag && matches!(name, "declare" | "typeset") {
        // `declare` alone lists as `set` does: every variable, then every
        // function's definition.
        let mut text = String::new();
        let mut names: Vec<&String> = interp.state().vars.keys().collect();
        names.sort();
        for n in names {
            if let Some(var) = interp.state().vars.get(n) {
                text.push_str(&declare_line(n, var, false));
            }
        }
        let mut functions: Vec<&String> = interp.state().functions.keys().collect();
        functions.sort();
        for f in functions {
            if let Some(body) = interp.state().functions.get(f.as_str()) {
                text.push_str(&function_text(f, body));
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(0);
    }
    if items.is_empty() && name == "local" {
        // `local` alone lists the function's own variables.
        let mut text = String::new();
        let mut seen = std::collections::HashSet::new();
        if let Some(scope) = interp.state().locals.last() {
            for (n, _) in scope {
                if seen.insert(n.as_str()) {
                    if let Some(var) = interp.state().vars.get(n) {
                        text.push_str(&declare_line(n, var, true));
                    }
                }
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(0);
    }
    if print || (items.is_empty() && name != "local") {
        let mut text = String::new();
        if items.is_empty() {
            let mut names: Vec<&String> = interp.state().vars.keys().collect();
            names.sort();
            for n in names {
                let Some(var) = interp.state().vars.get(n) else { continue };
                let wanted = match name {
                    "export" => var.exported,
                    "readonly" => var.readonly,
                    _ => {
                        (!array || matches!(var.value, Value::Indexed(_)))
                            && (!assoc || matches!(var.value, Value::Assoc(_)))
                            && (export != Some(true) || var.exported)
                            && (!readonly || var.readonly)
                            && (nameref != Some(true) || var.nameref)
                            && (integer != Some(true) || var.integer)
                    }
                };
                if wanted {
                    text.push_str(&declare_line(n, var, true));
                }
            }
        } else {
            for item in &items {
                let n = match item {
                    DeclArg::Word(w) => w.as_str(),
                    DeclArg::Assign(a) => a.name.as_str(),
                };
                match interp.state().vars.get(n) {
                    Some(var) => text.push_str(&declare_line(n, var, true)),
                    None => {
                        interp.error(format_args!("declare: {n}: not found"))?;
                        status = 1;
                    }
                }
            }
        }
        interp.out(text.as_bytes())?;
        return Ok(status);
    }
    for item in items {
        let (var_name, assign) = match item {
            DeclArg::Word(w) => (w.as_str(), None),
            DeclArg::Assign(a) => (a.name.as_str(), Some(a)),
        };
        if !is_name(var_name) {
            interp.error(format_args!("{name}: `{var_name}': not a valid identifier"))?;
            status = 1;
            continue;
        }
        if local {
            // A second `local x` in the same function keeps x's value.
            let again = interp.state().locals.last().is_some_and(|frame| frame.iter().any(|(n, _)| n == var_name));
            interp.state_mut().make_local(var_name);
            if assign.is_none() && !again && !interp.state().locals.is_empty() {
                // `local x` hides the outer value: x is unset until assigned.
                if !array && !assoc {
                    interp.state_mut().unset(var_name);
                }
            }
        }
        if interp.state().vars.get(var_name).is_some_and(|v| v.readonly) && assign.is_some() {
            interp.error(format_args!("{var_name}: readonly variable"))?;
            status = 1;
            continue;
        }
        if let Some(on) = nameref {
            match declare_nameref(interp, name, var_name, assign, on)? {
                0 => set_flags(interp, var_name, export, readonly),
                s => status = s,
            }
            continue;
        }
        // Without -n, a nameref's attributes and value go to the variable
        // it names (a local is the function's own new variable).
        let resolved = if local { var_name.to_string() } else { interp.state().resolved(var_name).into_owned() };
        let var_name = resolved.as_str();
        if array || assoc {
            let wanted_assoc = assoc;
            let current = interp.state().vars.get(var_name).map(|v| &v.value);
            // An array keeps its kind: bash refuses to turn one into the other.
            match current {
                Some(Value::Assoc(_)) if !wanted_assoc && !local => {
                    interp.error(format_args!("{name}: {var_name}: cannot convert associative to indexed array"))?;
                    status = 1;
                    continue;
                }
                Some(Value::Indexed(_)) if wanted_assoc && !local => {
                    interp.error(format_args!("{name}: {var_name}: cannot convert indexed to associative array"))?;
                    status = 1;
                    continue;
                }
                _ => {}
            }
            let convert = match current {
                None => true,
                Some(Value::Assoc(_)) => !wanted_assoc,
                Some(Value::Indexed(_)) => wanted_assoc,
                Some(Value::Str(_)) => true,
            };
            if convert {
                let value = if wanted_assoc {
                    // A scalar becomes element "0", as in bash.
                    let mut map = indexmap::IndexMap::new();
                    if let Some(Value::Str(s)) = current {
                        map.insert("0".to_string(), s.clone());
                    }
                    Value::Assoc(map)
                } else {
                    let mut map = std::collections::BTreeMap::new();
                    if let Some(Value::Str(s)) = current {
                        map.insert(0, s.clone());
                    }
                    Value::Indexed(map)
                };
                interp.state_mut().set_value(var_name, value);
            }
        }
        if let Some(on) = integer {
            if let Some(var) = interp.state_mut().vars_mut().get_mut(var_name) {
                var.integer = on;
            } else if on {
                interp
                    .state_mut()
                    .vars_mut()
                    .insert(var_name.to_string(), Var { integer: true, ..Var::string(String::new()) });
                interp.state_mut().unset(var_name);
                // bash keeps the attribute on an unset variable; we create it empty.
                interp
                    .state_mut()
                    .vars_mut()
                    .insert(var_name.to_string(), Var { integer: true, ..Var::string(String::new()) });
            }
        }
        if let Some(case) = case {
            match interp.state_mut().vars_mut().get_mut(var_name) {
                Some(var) => var.case = case,
                None if case != 0 => {
                    interp
                        .state_mut()
                        .vars_mut()
                        .insert(var_name.to_string(), Var { case, ..Var::string(String::new()) });
                }
                None => {}
            }
        }
        if let Some(assign) = assign {
            if let Err(message) = interp.assign(assign, false) {
                interp.error(message)?;
                status = 1;
                continue;
            }
        }
        set_flags(interp, var_name, export, readonly);
    }
    Ok(status)
}

/// `declare -x`/`-r` on a variable; `-r` on one that does not exist
/// makes it (empty: bash keeps it declared but unset), so that it cannot be
/// assigned afterwards.
pub(super) fn set_flags<E: BuiltinEnv + ?Sized>(interp: &mut E, var_name: &str, export: Option<bool>, readonly: bool) {
    if readonly && !interp.state().vars.contains_key(var_name) {
        interp.state_mut().vars_mut().insert(var_name.to_string(), Var::string(String::new()));
    }
    if let Some(var) = interp.state_mut().vars_mut().get_mut(var_name) {
        if let Some(on) = export {
            var.exported = on;
        }
        if readonly {
            var.readonly = true;
        }
    }
}

/// `declare -n ref[=target]` (and `+n`): makes `ref` a nameref, with bash's
/// checks on the target's name. The status.
pub(super) fn declare_nameref<E: BuiltinEnv + ?Sized>(
    interp: &mut E,
    builtin: &str,
    var_name: &str,
    assign: Option<&Assign>,
    on: bool,
) -> Result<i32, Flow> {
    if !on {
        if let Some(var) = interp.state_mut().vars_mut().get_mut(var_name) {
            var.nameref = false;
        }
        if let Some(assign) = assign {
            if let Err(message) = interp.assign(assign, false) {
                interp.error(message)?;
                return Ok(1);
            }
        }
        return Ok(0);
    }
    let target = match assign.map(|a| (&a.index, &a.value)) {
        None => None,
        Some((None, AssignValue::Scalar(value))) => Some(value.clone()),
        Some(_) => {
            interp.error(format_args!("{builtin}: {var_name}: reference variable cannot be an array"))?;
            return Ok(1);
        }
    };
    // `ref=1; declare -n ref`: the value it has must name a variable too.
    let current = match (&target, interp.state().vars.get(var_name).map(|v| &v.value)) {
        (None, Some(Value::Str(value))) if !value.is_empty() => Some(value.clone()),
        _ => None,
    };
    if let Some(target) = target.as_ref().or(current.as_ref()) {
        let base = target.strip_suffix(']').and_then(|t| t.split_once('[')).map_or(target.as_str(), |(b, _)| b);
        if !is_name(base) {
            interp.error(format_args!("{builtin}: `{target}': invalid variable name for name reference"))?;
            return Ok(1);
        }
        if target == var_name {
            interp.error(format_args!("{builtin}: {var_name}: nameref variable self references not allowed"))?;
            return Ok(1);
        }
    }
    if matches!(interp.state().vars.get(var_name).map(|v| &v.value), Some(Value::Indexed(_) | Value::Assoc(_))) {
        interp.error(format_args!("{builtin}: {var_name}: reference variable cannot be an array"))?;
        return Ok(1);
    }
    let vars = interp.state_mut().vars_mut();
    match vars.get_mut(var_name) {
        Some(var) => {
            var.nameref = true;
            if let Some(target) = target {
                var.value = Value::Str(target);
            }
        }
        None => {
            vars.insert(var_name.to_string(), Var { nameref: true, ..Var::string(target.unwrap_or_default()) });
        }
    }
    Ok(0)
}

/// `declare -p` style line for a variable (`set` style when `declare` is false).
pub(super) fn declare_line(name: &str, var: &Var, declare: bool) -> String {
    let value = match &var.value {
        Value::Str(s) => double_quote(s),
        Value::Indexed(map) => {
            let items: Vec<String> = map.iter().map(|(k, v)| format!("[{k}]={}", double_quote(v))).collect();
            format!("({})", items.join(" "))
        }
        Value::Assoc(map) => {
            let items: Vec<String> = crate::shell::state::bash_order(map)
                .into_iter()
                .map(|(k, v)| format!("[{k}]={} ", double_quote(v)))
                .collect();
            format!("({})", items.concat())
        }
    };
    if !declare {
        let value = match &var.value {
            Value::Str(s) => single_quote_if_needed(s),
            _ => value,
        };
        return format!("{name}={value}\n");
    }
    format!("declare {} {name}={value}\n", attribute_string(var))
}

pub(super) fn attribute_string(var: &Var) -> String {
    match var.attribute_letters() {
        letters if letters.is_empty() => "--".to_string(),
        letters => format!("-{letters}"),
    }
}

/// A function's definition as bash prints it (`declare -f`, `type`):
/// `name () ` and its body, laid out by the parser's printer.
pub(crate) fn function_text(name: &str, body: &crate::shell::state::Function) -> String {
    format!("{name} () \n{body}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_name("_a1"));
        assert!(!is_name("1a"));
    }
}
