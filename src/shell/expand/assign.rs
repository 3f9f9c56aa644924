//! Assignments: `name=value`, `name[i]=value`, `name=(…)`, `+=`, through
//! namerefs, with the `readonly`, `-i`, `-u`/`-l` attributes and the memory
//! budget.

use super::*;

impl<E: ExpandEnv + ?Sized> Expander<'_, E> {
    /// Sets a scalar variable, honouring `readonly` and `declare -i`.
    pub(crate) fn set_var(&mut self, name: &str, value: String) -> Result<(), String> {
        self.assign(
            &Assign { name: name.to_string(), index: None, value: AssignValue::Scalar(value), append: false },
            false,
        )
    }

    /// Performs an assignment. `local` makes the name local first.
    /// Past the memory budget the assignment is made, reported, and the
    /// script stops at its next command ([`LimitHit::Memory`]).
    pub(crate) fn assign(&mut self, assign: &Assign, local: bool) -> Result<(), String> {
        self.assign_value(assign, local)?;
        let bytes = assign.name.len()
            + match &assign.value {
                AssignValue::Scalar(value) => value.len(),
                AssignValue::Array(items) => {
                    items.iter().map(|(key, value)| key.as_ref().map_or(0, String::len) + value.len() + 32).sum()
                }
            };
        self.runtime().note_stored(bytes, self.state()).map_err(|hit| format!("{}: {}", assign.name, hit.message()))
    }

    fn assign_value(&mut self, assign: &Assign, local: bool) -> Result<(), String> {
        if !local && self.state().vars.get(&assign.name).is_some_and(|v| v.nameref) {
            if let Some(target) = self.nameref_assign(assign)? {
                return self.assign_value(&target, false);
            }
            return Ok(());
        }
        if local {
            self.state_mut().make_local(&assign.name);
        }
        let existing = self.state().vars.get(&assign.name);
        if existing.is_some_and(|v| v.readonly) {
            return Err(format!("{}: readonly variable", assign.name));
        }
        let integer = existing.is_some_and(|v| v.integer);
        let case = existing.map_or(0, |v| v.case);
        let is_assoc = matches!(existing.map(|v| &v.value), Some(Value::Assoc(_)));
        match (&assign.index, &assign.value) {
            (None, AssignValue::Scalar(value)) => {
                let value = if integer {
                    let old = if assign.append {
                        self.state().get(&assign.name).unwrap_or("0").to_string()
                    } else {
                        String::new()
                    };
                    let n = self.arith_value(value).map_err(|e| e.to_string())?;
                    let base = if assign.append { self.arith_value(&old).unwrap_or(0) } else { 0 };
                    base.wrapping_add(n).to_string()
                } else if assign.append {
                    format!("{}{}", self.state().get(&assign.name).unwrap_or(""), value)
                } else {
                    value.clone()
                };
                let value = match case {
                    1 => value.to_uppercase(),
                    2 => value.to_lowercase(),
                    _ => value,
                };
                self.state_mut().set_scalar(&assign.name, value);
            }
            (Some(index), AssignValue::Scalar(value)) => {
                if is_assoc {
                    let key = index.clone();
                    let var = self.state_mut().vars_mut().get_mut(&assign.name).ok_or_else(String::new)?;
                    if let Value::Assoc(map) = &mut var.value {
                        let v = if assign.append {
                            format!("{}{}", map.get(&key).map_or("", String::as_str), value)
                        } else {
                            value.clone()
                        };
                        map.insert(key, v);
                    }
                } else {
                    let i = self.arith_value(index).map_err(|e| e.to_string())?;
                    let i = self
                        .state()
                        .resolve_index(&assign.name, i)
                        .ok_or_else(|| format!("{}[{}]: bad array subscript", assign.name, index))?;
                    let vars = self.state_mut().vars_mut();
                    let var = vars.entry(assign.name.clone()).or_insert_with(|| Var::string(String::new()));
                    if let Value::Str(s) = &var.value {
                        let mut map = std::collections::BTreeMap::new();
                        if !s.is_empty() || assign.index.is_some() {
                            map.insert(0, s.clone());
                        }
                        if s.is_empty() {
                            map.remove(&0);
                        }
                        var.value = Value::Indexed(map);
                    }
                    if let Value::Indexed(map) = &mut var.value {
                        let v = if assign.append {
                            format!("{}{}", map.get(&i).map_or("", String::as_str), value)
                        } else {
                            value.clone()
                        };
                        map.insert(i, v);
                    }
                }
            }
            (None, AssignValue::Array(elements)) => {
                if is_assoc {
                    let mut map = match (&existing.map(|v| &v.value), assign.append) {
                        (Some(Value::Assoc(m)), true) => m.clone(),
                        _ => indexmap::IndexMap::new(),
                    };
                    // `m=(k v k2 v2)` pairs keys and values (a key left
                    // alone gets ""); once the list starts with `[k]=v`,
                    // words without a key are ignored, as bash 5.2 does.
                    let pairs = matches!(elements.first(), Some((None, _)));
                    let mut pending: Option<&String> = None;
                    for (key, value) in elements {
                        match key {
                            Some(key) => {
                                map.insert(key.clone(), value.clone());
                            }
                            None if pairs => match pending.take() {
                                None => pending = Some(value),
                                Some(key) => {
                                    map.insert(key.clone(), value.clone());
                                }
                            },
                            None => {}
                        }
                    }
                    if let Some(key) = pending {
                        map.insert(key.clone(), String::new());
                    }
                    self.state_mut().set_value(&assign.name, Value::Assoc(map));
                } else {
                    let mut map = match (existing.map(|v| &v.value), assign.append) {
                        (Some(Value::Indexed(m)), true) => m.clone(),
                        (Some(Value::Str(s)), true) => std::iter::once((0, s.clone())).collect(),
                        _ => std::collections::BTreeMap::new(),
                    };
                    let mut next = map.keys().next_back().map_or(0, |k| k + 1);
                    for (key, value) in elements {
                        let i = match key {
                            Some(key) => {
                                // `a=([0]=1 [a[0]]=2)`: an index that reads the
                                // array sees the elements before it, as in bash.
                                if key.contains(assign.name.as_str()) {
                                    self.state_mut().set_value(&assign.name, Value::Indexed(map.clone()));
                                }
                                self.arith_value(key).map_err(|e| e.to_string())?
                            }
                            None => next,
                        };
                        map.insert(i, value.clone());
                        next = i + 1;
                    }
                    self.state_mut().set_value(&assign.name, Value::Indexed(map));
                }
            }
            (Some(_), AssignValue::Array(_)) => {
                return Err(format!("{}: cannot assign list to array member", assign.name));
            }
        }
        Ok(())
    }

    /// An assignment to a nameref, turned into one to the variable it names
    /// (`declare -n e='a[1]'; e=x` sets `a[1]`). A nameref that names nothing
    /// yet takes the value as its target, as bash does; `None` then.
    fn nameref_assign(&mut self, assign: &Assign) -> Result<Option<Assign>, String> {
        let target =
            self.state().resolve(&assign.name).map_err(|start| format!("warning: {start}: circular name reference"))?;
        if *target == *assign.name {
            // An empty nameref: `declare -n u; u=z` makes `u` refer to `z`.
            if let (None, AssignValue::Scalar(value)) = (&assign.index, &assign.value) {
                if let Some(var) = self.state_mut().vars_mut().get_mut(&assign.name) {
                    var.value = Value::Str(value.clone());
                }
                return Ok(None);
            }
            return Err(format!("{}: invalid use of a nameref", assign.name));
        }
        let target = target.into_owned();
        let mut redirected = assign.clone();
        match target.strip_suffix(']').and_then(|t| t.split_once('[')) {
            Some((base, index)) if assign.index.is_none() => {
                redirected.name = base.to_string();
                redirected.index = Some(index.to_string());
            }
            _ => redirected.name = target,
        }
        Ok(Some(redirected))
    }
}
