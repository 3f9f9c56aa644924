//! File tools over a storage, registered on a registry in one call:
//! `read_file`, `write_file`, `list_directory`, `edit_file`, `delete_path`.
//!
//! Each has an explicit schema; each failure is a message written for the
//! model, naming the tool and what to do next.

use std::sync::Arc;

use serde_json::Value;

use super::{FileKind, Storage, StorageError};
use crate::schema;
use crate::tool::{HandlerResult, ToolDefinition, ToolError, ToolResult};
use crate::{Environment, Error, Registry};

/// One file tool's work, given its storage and its parsed arguments.
type FileTool = fn(&dyn Storage, &Value) -> HandlerResult;

/// How many lines `read_file` returns when the call does not say.
pub const DEFAULT_READ_LINES: usize = 2000;

/// The most bytes `edit_file` builds, whatever the storage allows: a
/// `replace_all` that would grow a file past this (or past the storage's
/// own limit) is refused before the new content is built.
const MAX_EDITED_BYTES: u64 = 256 << 20;

/// Registers the five file tools on `registry`, acting on `storage`. Fails
/// like [`Registry::register`], e.g. when one of the names is taken; the
/// tools registered before the failure stay registered.
pub fn register_file_tools(registry: &Registry, storage: Arc<dyn Storage>) -> Result<(), Error> {
    let tools: [(ToolDefinition, FileTool); 5] = [
        (
            ToolDefinition::new("read_file", "Read a text file. Returns its lines; use offset and limit for long files.")
                .with_parameters(schema::object(
                    [
                        ("path", schema::string("Path of the file.")),
                        ("offset", schema::integer("First line to return, counting from 1. Default 1.")),
                        ("limit", schema::integer("How many lines to return. Default 2000.")),
                    ],
                    &["path"],
                )),
            read_file,
        ),
        (
            ToolDefinition::new(
                "write_file",
                "Create or replace a file with the given content. Missing folders are created.",
            )
            .with_parameters(schema::object(
                [("path", schema::string("Path of the file.")), ("content", schema::string("The whole new content."))],
                &["path", "content"],
            )),
            write_file,
        ),
        (
            ToolDefinition::new("list_directory", "List a folder: one entry a line, folders end with '/', symlinks with '@'.")
                .with_parameters(schema::object([("path", schema::string("Path of the folder."))], &["path"])),
            list_directory,
        ),
        (
            ToolDefinition::new(
                "edit_file",
                "Replace an exact piece of text in a file. old_text must occur exactly once, unless replace_all is true.",
            )
            .with_parameters(schema::object(
                [
                    ("path", schema::string("Path of the file.")),
                    ("old_text", schema::string("The text to replace, copied exactly, whitespace included.")),
                    ("new_text", schema::string("The text to put in its place.")),
                    ("replace_all", schema::boolean("Replace every occurrence. Default false.")),
                ],
                &["path", "old_text", "new_text"],
            )),
            edit_file,
        ),
        (
            ToolDefinition::new("delete_path", "Delete a file, a symlink or a folder.").with_parameters(schema::object(
                [
                    ("path", schema::string("Path to delete.")),
                    ("recursive", schema::boolean("Delete a folder with everything in it. Default false.")),
                ],
                &["path"],
            )),
            delete_path,
        ),
    ];
    for (definition, run) in tools {
        let name = definition.name.clone();
        let storage = storage.clone();
        registry.register(definition, move |arguments: &str, _: &Environment| {
            let arguments: Value = crate::json::parse_value(arguments.as_bytes())
                .map_err(|error| ToolError::failed(format!("{name}: the arguments could not be read: {error}")))?;
            run(storage.as_ref(), &arguments).map_err(|error| match error {
                ToolError::Failed(message) => ToolError::Failed(format!("{name}: {message}")),
                other => other,
            })
        })?;
    }
    Ok(())
}

fn text<'a>(arguments: &'a Value, field: &str) -> Result<&'a str, ToolError> {
    arguments[field].as_str().ok_or_else(|| ToolError::failed(format!("\"{field}\" must be a string")))
}

fn count(arguments: &Value, field: &str, default: usize) -> Result<usize, ToolError> {
    match &arguments[field] {
        Value::Null => Ok(default),
        value => value
            .as_u64()
            .filter(|&number| number > 0)
            .map(|number| usize::try_from(number).unwrap_or(usize::MAX))
            .ok_or_else(|| ToolError::failed(format!("\"{field}\" must be a positive whole number"))),
    }
}

fn flag(arguments: &Value, field: &str) -> Result<bool, ToolError> {
    match &arguments[field] {
        Value::Null => Ok(false),
        Value::Bool(value) => Ok(*value),
        _ => Err(ToolError::failed(format!("\"{field}\" must be true or false"))),
    }
}

/// A storage error as the model should read it, with a hint where one helps.
fn storage_failure(error: StorageError) -> ToolError {
    let hint = match error {
        StorageError::NotFound(_) => "; list_directory shows what exists",
        StorageError::IsADirectory(_) => "; use list_directory for folders",
        StorageError::NotEmpty(_) => "; set recursive to true to delete it with its contents",
        _ => "",
    };
    ToolError::failed(format!("{error}{hint}"))
}

fn read_text(storage: &dyn Storage, path: &str) -> Result<String, ToolError> {
    let data = storage.read(path).map_err(storage_failure)?;
    String::from_utf8(data).map_err(|error| {
        ToolError::failed(format!("{path} is not a text file ({} bytes of binary data)", error.as_bytes().len()))
    })
}

fn read_file(storage: &dyn Storage, arguments: &Value) -> HandlerResult {
    let path = text(arguments, "path")?;
    let offset = count(arguments, "offset", 1)?;
    let limit = count(arguments, "limit", DEFAULT_READ_LINES)?;
    let content = read_text(storage, path)?;
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    if offset > lines.len().max(1) {
        return Err(ToolError::failed(format!("{path} has {} lines; offset {offset} is past its end", lines.len())));
    }
    let end = (offset - 1).saturating_add(limit).min(lines.len());
    let mut out: String = lines[offset - 1..end].concat();
    if end < lines.len() {
        out.push_str(&format!("\n[{} more lines; read on with offset {}]", lines.len() - end, end + 1));
    }
    Ok(ToolResult::new(out))
}

fn write_file(storage: &dyn Storage, arguments: &Value) -> HandlerResult {
    let path = text(arguments, "path")?;
    let content = text(arguments, "content")?;
    if let Some((folder, _)) = super::parent(&super::normalize(path)) {
        storage.mkdir(folder, true).map_err(storage_failure)?;
    }
    storage.write(path, content.as_bytes()).map_err(storage_failure)?;
    Ok(ToolResult::new(format!("wrote {} bytes to {}", content.len(), super::normalize(path))))
}

fn list_directory(storage: &dyn Storage, arguments: &Value) -> HandlerResult {
    let path = text(arguments, "path")?;
    let entries = storage.list(path).map_err(storage_failure)?;
    if entries.is_empty() {
        return Ok(ToolResult::new(format!("{} is empty", super::normalize(path))));
    }
    let lines: Vec<String> = entries
        .into_iter()
        .map(|entry| match entry.kind {
            FileKind::Directory => format!("{}/", entry.name),
            FileKind::Symlink => format!("{}@", entry.name),
            FileKind::File => entry.name,
        })
        .collect();
    Ok(ToolResult::new(lines.join("\n")))
}

fn edit_file(storage: &dyn Storage, arguments: &Value) -> HandlerResult {
    let path = text(arguments, "path")?;
    let old_text = text(arguments, "old_text")?;
    let new_text = text(arguments, "new_text")?;
    let replace_all = flag(arguments, "replace_all")?;
    if old_text.is_empty() {
        return Err(ToolError::failed("\"old_text\" is empty; copy the text to replace from the file"));
    }
    let content = read_text(storage, path)?;
    let found = content.matches(old_text).count();
    match found {
        0 => Err(ToolError::failed(format!(
            "old_text was not found in {path}; read the file and copy the text exactly, whitespace included"
        ))),
        many if many > 1 && !replace_all => Err(ToolError::failed(format!(
            "old_text occurs {many} times in {path}; include more surrounding text to make it unique, or set replace_all"
        ))),
        _ => {
            // The size of the result, known before it is built.
            let replaced = if replace_all { found as u128 } else { 1 };
            let size = content.len() as u128 - replaced * old_text.len() as u128 + replaced * new_text.len() as u128;
            let limit = storage.file_size_limit(path).map_or(MAX_EDITED_BYTES, |limit| limit.min(MAX_EDITED_BYTES));
            if size > u128::from(limit) {
                let error = StorageError::TooLarge { path: super::normalize(path), limit };
                return Err(ToolError::failed(format!("{error}; the edit would make it {size} bytes, nothing was changed")));
            }
            let edited = if replace_all { content.replace(old_text, new_text) } else { content.replacen(old_text, new_text, 1) };
            storage.write(path, edited.as_bytes()).map_err(storage_failure)?;
            let noun = if found == 1 { "occurrence" } else { "occurrences" };
            Ok(ToolResult::new(format!("replaced {found} {noun} in {}", super::normalize(path))))
        }
    }
}

fn delete_path(storage: &dyn Storage, arguments: &Value) -> HandlerResult {
    let path = text(arguments, "path")?;
    storage.remove(path, flag(arguments, "recursive")?).map_err(storage_failure)?;
    Ok(ToolResult::new(format!("deleted {}", super::normalize(path))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;
    use crate::ToolCall;

    fn setup() -> (Registry, Arc<MemoryStorage>) {
        let storage = Arc::new(MemoryStorage::default());
        storage.mkdir("/src", true).unwrap();
        storage.write("/src/lib.rs", b"fn a() {}\nfn b() {}\nfn a2() {}\n").unwrap();
        let registry = Registry::new();
        register_file_tools(&registry, storage.clone()).unwrap();
        (registry, storage)
    }

    fn call(registry: &Registry, name: &str, arguments: &str) -> Result<String, String> {
        registry
            .dispatch(&ToolCall::new(name, arguments), &Environment::default())
            .map(|result| result.content)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn the_five_tools_are_registered_with_schemas() {
        let (registry, _) = setup();
        let names: Vec<String> = registry.definitions().into_iter().map(|definition| definition.name).collect();
        assert_eq!(names, ["read_file", "write_file", "list_directory", "edit_file", "delete_path"]);
        assert!(registry.definitions().iter().all(|definition| definition.parameters.is_some()));
        assert!(call(&registry, "read_file", "{}").unwrap_err().contains("missing required field \"path\""));
    }

    /// serde_json's `Value` reader turns `{"$serde_json::private::RawValue":
    /// "\"/x\""}` into the string `/x` (its `raw_value` hook): the tools
    /// must read what the model sent, an object, and refuse it.
    #[test]
    fn serde_json_private_keys_are_read_as_written() {
        let (registry, storage) = setup();
        let smuggled = r#"{"path":{"$serde_json::private::RawValue":"\"/x\""},"content":"hi"}"#;
        let error = call(&registry, "write_file", smuggled).unwrap_err();
        assert!(error.contains("path"), "{error}");
        assert!(storage.read("/x").is_err());
    }

    #[test]
    fn files_are_read_written_listed_edited_and_deleted() {
        let (registry, storage) = setup();
        assert_eq!(
            call(&registry, "read_file", r#"{"path":"/src/lib.rs","offset":2,"limit":1}"#).unwrap(),
            "fn b() {}\n\n[1 more lines; read on with offset 3]"
        );
        assert_eq!(
            call(&registry, "write_file", r#"{"path":"/docs/new/readme.md","content":"hi"}"#).unwrap(),
            "wrote 2 bytes to /docs/new/readme.md"
        );
        assert_eq!(storage.read("/docs/new/readme.md").unwrap(), b"hi");
        assert_eq!(call(&registry, "list_directory", r#"{"path":"/"}"#).unwrap(), "docs/\nsrc/");
        assert_eq!(
            call(&registry, "edit_file", r#"{"path":"/src/lib.rs","old_text":"fn a","new_text":"fn z"}"#).unwrap_err(),
            "edit_file: old_text occurs 2 times in /src/lib.rs; include more surrounding text to make it unique, or set replace_all"
        );
        assert_eq!(
            call(&registry, "edit_file", r#"{"path":"/src/lib.rs","old_text":"fn a()","new_text":"fn z()"}"#).unwrap(),
            "replaced 1 occurrence in /src/lib.rs"
        );
        assert_eq!(storage.read("/src/lib.rs").unwrap(), b"fn z() {}\nfn b() {}\nfn a2() {}\n");
        assert_eq!(
            call(&registry, "delete_path", r#"{"path":"/docs"}"#).unwrap_err(),
            "delete_path: /docs: Directory not empty; set recursive to true to delete it with its contents"
        );
        assert_eq!(call(&registry, "delete_path", r#"{"path":"/docs","recursive":true}"#).unwrap(), "deleted /docs");
        assert_eq!(
            call(&registry, "read_file", r#"{"path":"/docs/new/readme.md"}"#).unwrap_err(),
            "read_file: /docs/new/readme.md: No such file or directory; list_directory shows what exists"
        );
        assert_eq!(
            call(&registry, "read_file", r#"{"path":"/src/lib.rs","limit":"ten"}"#).unwrap_err(),
            "read_file: \"limit\" must be a positive whole number"
        );
    }

    #[test]
    fn huge_offsets_and_limits_do_not_overflow() {
        let (registry, _) = setup();
        let max = u64::MAX;
        assert_eq!(
            call(&registry, "read_file", &format!(r#"{{"path":"/src/lib.rs","offset":2,"limit":{max}}}"#)).unwrap(),
            "fn b() {}\nfn a2() {}\n"
        );
        assert!(call(&registry, "read_file", &format!(r#"{{"path":"/src/lib.rs","offset":{max},"limit":{max}}}"#))
            .unwrap_err()
            .contains("past its end"));
    }

    #[test]
    fn replace_all_is_refused_before_the_result_is_built() {
        let storage = Arc::new(MemoryStorage::new(crate::storage::MemoryLimits {
            max_total_bytes: 1 << 20,
            max_file_bytes: 1 << 20,
            ..crate::storage::MemoryLimits::default()
        }));
        storage.write("/a.txt", &[b'a'; 1000]).unwrap();
        let registry = Registry::new();
        register_file_tools(&registry, storage.clone()).unwrap();
        // 1,000 occurrences times 10,000 bytes: 10 MB, past the 1 MiB limit.
        let arguments =
            serde_json::json!({"path": "/a.txt", "old_text": "a", "new_text": "b".repeat(10_000), "replace_all": true});
        assert_eq!(
            call(&registry, "edit_file", &arguments.to_string()).unwrap_err(),
            "edit_file: /a.txt: File too large (the limit is 1048576 bytes); the edit would make it 10000000 bytes, nothing was changed"
        );
        assert_eq!(storage.read("/a.txt").unwrap(), [b'a'; 1000]);
        // Without a storage limit, the tools' own cap holds.
        let unlimited = Arc::new(MemoryStorage::default());
        unlimited.write("/a.txt", &vec![b'a'; 1 << 16]).unwrap();
        let registry = Registry::new();
        register_file_tools(&registry, unlimited).unwrap();
        assert!(call(&registry, "edit_file", &arguments.to_string()).unwrap_err().contains("File too large"));
        // Within the limit, the edit is made.
        let arguments = serde_json::json!({"path": "/a.txt", "old_text": "a", "new_text": "bb", "replace_all": true});
        let registry = Registry::new();
        register_file_tools(&registry, storage.clone()).unwrap();
        assert_eq!(
            call(&registry, "edit_file", &arguments.to_string()).unwrap(),
            "replaced 1000 occurrences in /a.txt"
        );
        assert_eq!(storage.read("/a.txt").unwrap().len(), 2000);
    }

    #[test]
    fn errors_name_the_path_asked_for() {
        let (registry, _) = setup();
        assert_eq!(
            call(&registry, "read_file", r#"{"path":"../../etc/passwd"}"#).unwrap_err(),
            "read_file: /etc/passwd: No such file or directory; list_directory shows what exists"
        );
    }
}
