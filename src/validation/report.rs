//! What REPAIR mode reports: one [`Repair`] per change, and their JSON.
//! In every build (a [`crate::ToolResult`] carries them), with or without
//! the cargo feature `full-validation`.

use crate::json;

/// One change REPAIR mode made to a call's arguments before the handler ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// Where, as a JSON Pointer into the arguments the model sent.
    pub pointer: String,
    /// The JSON text the model sent there (always a string), e.g. `"200"`.
    pub from: String,
    /// The JSON text the handler received instead, e.g. `200`.
    pub to: String,
}

impl Repair {
    /// `{"pointer":"/limit","from":"200","to":200}`: `from` and `to` as the
    /// JSON values they are.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.pointer.len() + self.from.len() + self.to.len() + 32);
        out.push_str("{\"pointer\":");
        json::push_string(&mut out, &self.pointer);
        out.push_str(",\"from\":");
        out.push_str(&self.from);
        out.push_str(",\"to\":");
        out.push_str(&self.to);
        out.push('}');
        out
    }
}

/// Repairs as a JSON array of [`Repair::to_json`] objects.
pub fn repairs_json(repairs: &[Repair]) -> String {
    let items: Vec<String> = repairs.iter().map(Repair::to_json).collect();
    format!("[{}]", items.join(","))
}
