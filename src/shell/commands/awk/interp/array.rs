//! awk's associative arrays, and the bytes they hold against the run's
//! memory budget.

use super::*;

/// An associative array that remembers insertion order; `for (k in a)`
/// visits keys in that order (gawk leaves the order unspecified).
#[derive(Default, Debug)]
pub(super) struct Array {
    pub(super) index: FxHashMap<Rc<[u8]>, usize>,
    pub(super) slots: Vec<Option<(Rc<[u8]>, Value)>>,
}

impl Array {
    pub(super) fn len(&self) -> usize {
        self.index.len()
    }

    pub(super) fn get(&self, key: &[u8]) -> Option<&Value> {
        let &i = self.index.get(key)?;
        self.slots[i].as_ref().map(|(_, v)| v)
    }

    pub(super) fn contains(&self, key: &[u8]) -> bool {
        self.index.contains_key(key)
    }

    pub(super) fn set(&mut self, key: Rc<[u8]>, value: Value) -> R<()> {
        let added = key.len() + value_bytes(&value) + 32;
        if let Some(&i) = self.index.get(&key) {
            if let Some(slot) = self.slots[i].as_mut() {
                store(added, key.len() + value_bytes(&slot.1) + 32)?;
                slot.1 = value;
            }
            return Ok(());
        }
        store(added, 0)?;
        if self.index.len() >= MAX_ELEMENTS {
            return fail("array too large");
        }
        self.index.insert(key.clone(), self.slots.len());
        self.slots.push(Some((key, value)));
        Ok(())
    }

    pub(super) fn remove(&mut self, key: &[u8]) {
        if let Some(i) = self.index.remove(key) {
            if let Some((k, v)) = &self.slots[i] {
                let _ = store(0, k.len() + value_bytes(v) + 32);
            }
            self.slots[i] = None;
            if self.slots.len() > 32 && self.slots.len() > 2 * self.index.len() {
                self.compact();
            }
        }
    }

    pub(super) fn compact(&mut self) {
        self.slots.retain(Option::is_some);
        for (i, slot) in self.slots.iter().enumerate() {
            if let Some((k, _)) = slot {
                self.index.insert(k.clone(), i);
            }
        }
    }

    pub(super) fn clear(&mut self) {
        let held: usize = self.slots.iter().flatten().map(|(k, v)| k.len() + value_bytes(v) + 32).sum();
        let _ = store(0, held);
        self.index.clear();
        self.slots.clear();
    }

    pub(super) fn keys(&self) -> Vec<Rc<[u8]>> {
        self.slots.iter().flatten().map(|(k, _)| k.clone()).collect()
    }
}

thread_local! {
    /// Bytes this thread's awk run holds in its arrays, and its budget (the
    /// run's memory limit): set by [`Interp::new`].
    pub(super) static STORED: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, usize::MAX)) };
}

/// The bytes a value holds.
pub(super) fn value_bytes(value: &Value) -> usize {
    match value {
        Value::Str(s) | Value::StrNum(s) => s.len(),
        _ => 0,
    }
}

/// Accounts `added` bytes stored and `freed` released in the arrays;
/// refuses a store that would pass the budget.
pub(super) fn store(added: usize, freed: usize) -> R<()> {
    STORED.with(|cell| {
        let (held, budget) = cell.get();
        let next = held.saturating_sub(freed).saturating_add(added);
        if added > freed && next > budget {
            return fail("memory limit reached (arrays too large)");
        }
        cell.set((next, budget));
        Ok(())
    })
}
