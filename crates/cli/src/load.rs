//! Reading manifests: YAML or JSON files with one or many documents, `kind: List` expanded, and
//! every failure reported with the file and the line.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use crdkit_apimachinery::strict::Duplicate;
use crdkit_apimachinery::strict::{Checked, KeySeed, YamlChecked};

/// One object read from a file, with where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The file as given on the command line (`-` for standard input).
    pub file: PathBuf,
    /// 1-based line of the document's first token (0 when unknown).
    pub line: u64,
    /// The object (an item of a `kind: List` is its own document).
    pub value: Value,
    /// The keys given more than once in the object; the last value is kept. See [`parse`].
    pub duplicates: Vec<Duplicate>,
}

/// A file that could not be read as manifests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file as given on the command line (`-` for standard input).
    pub file: PathBuf,
    /// 1-based line of the error; 0 when the whole file is at fault (unreadable, not UTF-8).
    pub line: u64,
    /// 1-based column of the error; 0 when unknown.
    pub column: u64,
    /// What is wrong, without the position (printed separately by `Display`).
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

impl Document {
    /// `file:line`, for messages about the object.
    #[must_use]
    pub fn position(&self) -> String {
        if self.line > 0 {
            format!("{}:{}", self.file.display(), self.line)
        } else {
            self.file.display().to_string()
        }
    }
}

/// Largest manifest file read, as the API server's request limit (3 MiB) with room for YAML.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Deepest nesting of arrays and objects read, in YAML as in JSON (serde_json's fixed limit): the
/// API server's decoders go to 10,000 levels, but no manifest needs more than a few dozen, and
/// prune, default, validate and CEL all recurse.
pub const MAX_DEPTH: usize = 127;

/// The stack `crdgen` runs on: reading, pruning, defaulting and validating recurse once per level
/// of an object (up to [`MAX_DEPTH`]), which takes a few MiB in debug builds; a main thread
/// may have only 1 MiB (Windows).
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Reads every document of a file (`-` is standard input).
///
/// # Errors
/// When the file cannot be read, is not UTF-8, or is not valid YAML/JSON.
pub(crate) fn load(path: &Path) -> Result<Vec<Document>, LoadError> {
    parse(&read_text(path)?, path)
}

/// The text of a file (`-` is standard input), checked for size and UTF-8.
///
/// # Errors
/// When the file cannot be read, is too large, is a directory, or is not UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String, LoadError> {
    let err = |line, column, message: String| LoadError {
        file: path.to_owned(),
        line,
        column,
        message,
    };
    let too_large = || err(0, 0, format!("file is larger than {MAX_FILE_BYTES} bytes"));
    let bytes = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::io::stdin().lock(), MAX_FILE_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| err(0, 0, format!("cannot read standard input: {e}")))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large());
        }
        bytes
    } else {
        let meta = std::fs::metadata(path).map_err(|e| err(0, 0, io_message(&e)))?;
        if meta.is_dir() {
            return Err(err(0, 0, "is a directory".to_owned()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(too_large());
        }
        std::fs::read(path).map_err(|e| err(0, 0, io_message(&e)))?
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let (line, column) = position(&String::from_utf8_lossy(valid), valid.len());
        err(
            line,
            column,
            "not UTF-8 text (a binary file, or UTF-16?)".to_owned(),
        )
    })?;
    Ok(text)
}

/// The files that `paths` name: a directory stands for the `.yaml`, `.yml` and `.json` files
/// below it, recursively, in name order (as kubectl's `-f DIR -R` and kubectl-validate read
/// them); files (and `-`) stay as given.
///
/// # Errors
/// When a path does not exist or a directory cannot be listed.
pub(crate) fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for p in paths {
        if p != Path::new("-") && p.is_dir() {
            let before = out.len();
            walk(p, &mut out)?;
            out[before..].sort();
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let err = |e: std::io::Error| LoadError {
        file: dir.to_owned(),
        line: 0,
        column: 0,
        message: io_message(&e),
    };
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let path = entry.map_err(err)?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
fn position(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() as u64 + 1,
        before[line_start..].chars().count() as u64 + 1,
    )
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// Parses the documents of `text`, read from `path`.
///
/// Text starting with `{` or `[` is JSON (as kubectl's `YAMLOrJSONDecoder` decides), else YAML;
/// a byte order mark is skipped.
///
/// Keys given twice in a mapping are not an error: the API server's decoders (sigs.k8s.io/yaml's
/// `YAMLToJSON` and sigs.k8s.io/json) keep the last value, and only report the duplicate as a
/// strict decoding error — a warning with `fieldValidation=Warn`, a rejection with `Strict`, and
/// nothing with `Ignore` (apimachinery `runtime/serializer/json`'s `unmarshal`). `crdgen`
/// reports unknown fields as warnings, as with `Warn`, and duplicates the same way: the last
/// value is kept in YAML and in JSON, and the paths are in [`Document::duplicates`].
///
/// # Errors
/// When `text` is not valid YAML or JSON.
pub fn parse(text: &str, path: &Path) -> Result<Vec<Document>, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start();
    let docs = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        parse_json(text, path)?
            .into_iter()
            .map(|d| (d, Vec::new()))
            .collect()
    } else {
        parse_yaml(text, path)?
    };
    let mut out = Vec::new();
    for (d, item_lines) in docs {
        expand_list(d, &item_lines, &mut out, path)?;
    }
    Ok(out)
}

fn parse_json(text: &str, path: &Path) -> Result<Vec<Document>, LoadError> {
    let mut out = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Checked>();
    loop {
        let offset = stream.byte_offset();
        match stream.next() {
            None => break,
            Some(Ok(doc)) => {
                let skipped = text[offset..].len() - text[offset..].trim_start().len();
                let line = text[..offset + skipped].matches('\n').count() as u64 + 1;
                out.push(Document {
                    file: path.to_owned(),
                    line,
                    value: doc.value,
                    duplicates: doc.duplicates,
                });
            }
            Some(Err(e)) => {
                let msg = strip_position(&e.to_string()).to_owned();
                let msg = if msg == "recursion limit exceeded" {
                    format!("nested deeper than {MAX_DEPTH} levels")
                } else {
                    msg
                };
                return Err(LoadError {
                    file: path.to_owned(),
                    line: e.line() as u64,
                    column: e.column() as u64,
                    message: format!("invalid JSON: {msg}"),
                });
            }
        }
    }
    Ok(out)
}

/// serde_json appends " at line L column C"; the position is printed separately.
fn strip_position(msg: &str) -> &str {
    msg.rfind(" at line ").map_or(msg, |i| &msg[..i])
}

/// How YAML is read: as kubectl reads it (YAML 1.1 booleans and octal numbers, keys named by
/// [`KeySeed`]), duplicate keys reach [`Checked`] (see [`parse`]), merge keys are expanded,
/// and the limits against alias bombs stay, but a file of the largest size read holds as many
/// documents and nodes as it likes (saphyr's defaults stop at 1,024 documents and 250,000 nodes,
/// a `kind: List` of a few thousand objects), nested as deep as JSON.
pub(crate) fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    budget.max_documents = 1 << 20;
    budget.max_nodes = 1 << 24;
    budget.max_events = 1 << 26;
    budget.max_total_scalar_bytes = budget
        .max_total_scalar_bytes
        .max(2 * MAX_FILE_BYTES as usize);
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    // kubectl reads YAML with go-yaml v2 (YAML 1.1): `010` is eight.
    options.legacy_octal_numbers = true;
    options
}

/// The message of a YAML error, without its position (printed separately).
fn yaml_message(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::budget::BudgetBreach;
    let mut inner = e;
    while let serde_saphyr::Error::WithSnippet { error, .. }
    | serde_saphyr::Error::AliasError { error, .. } = inner
    {
        inner = error;
    }
    if let serde_saphyr::Error::Budget { breach, .. } = inner {
        return match breach {
            BudgetBreach::Depth { .. } => format!("nested deeper than {MAX_DEPTH} levels"),
            BudgetBreach::Aliases { .. }
            | BudgetBreach::AliasAnchorRatio { .. }
            | BudgetBreach::Anchors { .. }
            | BudgetBreach::RecordedAnchorEvents { .. }
            | BudgetBreach::RecordedAnchorBytes { .. } => {
                "aliases expand to too much data (an alias bomb?)".to_owned()
            }
            b => format!("too large: {b:?}"),
        };
    }
    let msg = e.to_string();
    // The first line of saphyr's report is the message; the rest is a source snippet.
    let first = msg
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid YAML")
        .trim();
    let first = without_position(first);
    match first {
        "recursion limit exceeded" => return format!("nested deeper than {MAX_DEPTH} levels"),
        // The key of a mapping read as a string (sigs.k8s.io/yaml fails on them too).
        "expected string scalar" => {
            return "a mapping key must be a string, number or boolean, not a list or a mapping"
                .to_owned();
        }
        _ if first.starts_with("!!binary scalar is not valid UTF-8") => {
            return "a !!binary string must be UTF-8 text once decoded".to_owned();
        }
        _ if first.starts_with("cannot deserialize null into string") => {
            return "a mapping key must not be null".to_owned();
        }
        "recursive references require weak recursion types" => {
            return "an alias inside its own anchor (recursive data)".to_owned();
        }
        _ => {}
    }
    match first.strip_suffix(" rejected by the configured policy") {
        // `.nan`, `.inf` and `1e400`: JSON has no such numbers (sigs.k8s.io/yaml fails too).
        Some(float) => format!("{float}: JSON has no NaN or infinite numbers"),
        None => first.to_owned(),
    }
}

/// The documents of a YAML stream, each with the lines of its `items` (empty unless the stream
/// holds a list).
fn parse_yaml(text: &str, path: &Path) -> Result<Vec<(Document, Vec<u64>)>, LoadError> {
    let docs: Vec<serde_saphyr::Spanned<YamlChecked>> =
        serde_saphyr::from_multiple_with_options(text, yaml_options()).map_err(|e| {
            let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
            LoadError {
                file: path.to_owned(),
                line,
                column,
                message: format!("invalid YAML: {}", yaml_message(&e)),
            }
        })?;
    // Lists are rare: only then is the stream read a second time, for the lines of the items.
    let item_lines: Vec<ItemLines> = if docs.iter().any(|d| is_list(&d.value.0.value)) {
        serde_saphyr::from_multiple_with_options(text, yaml_options()).unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut item_lines = item_lines.into_iter().map(|l| l.0);
    Ok(docs
        .into_iter()
        .map(|d| (d, item_lines.next().unwrap_or_default()))
        .filter(|(d, _)| !d.value.0.value.is_null())
        .map(|(d, lines)| {
            let doc = Document {
                file: path.to_owned(),
                line: d.defined.line(),
                value: d.value.0.value,
                duplicates: d.value.0.duplicates,
            };
            (doc, lines)
        })
        .collect())
}

/// The lines of the elements of a document's top-level `items` list (empty for anything else).
#[derive(Default)]
struct ItemLines(Vec<u64>);

impl<'de> serde::Deserialize<'de> for ItemLines {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ItemLinesVisitor { top: true })
    }
}

/// Reads a document (`top`) looking for `items`, or the value of `items` collecting the line of
/// each element; everything else is skipped.
struct ItemLinesVisitor {
    top: bool,
}

impl<'de> serde::de::Visitor<'de> for ItemLinesVisitor {
    type Value = ItemLines;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML document")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<ItemLines, A::Error> {
        let mut lines = ItemLines::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            if self.top && key == "items" {
                lines = map.next_value_seed(ItemsSeed)?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(if self.top {
            lines
        } else {
            ItemLines::default()
        })
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<ItemLines, A::Error> {
        let mut lines = Vec::new();
        while let Some(item) = seq.next_element::<serde_saphyr::Spanned<serde::de::IgnoredAny>>()? {
            lines.push(item.defined.line());
        }
        Ok(ItemLines(if self.top { Vec::new() } else { lines }))
    }

    fn visit_bool<E>(self, _: bool) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
    fn visit_unit<E>(self) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
    fn visit_none<E>(self) -> Result<ItemLines, E> {
        Ok(ItemLines::default())
    }
}

/// The value of a top-level `items` key.
struct ItemsSeed;

impl<'de> serde::de::DeserializeSeed<'de> for ItemsSeed {
    type Value = ItemLines;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<ItemLines, D::Error> {
        d.deserialize_any(ItemLinesVisitor { top: false })
    }
}

/// saphyr starts its message with `error: line L column C: `; the position is printed separately.
fn without_position(msg: &str) -> &str {
    let m = msg.strip_prefix("error: ").unwrap_or(msg);
    match m
        .strip_prefix("line ")
        .and_then(|r| r.find(": ").map(|i| &r[i + 2..]))
    {
        Some(rest) if m[5..].starts_with(|c: char| c.is_ascii_digit()) => rest,
        _ => m,
    }
}

/// `kind: List` (and `*List` kinds) with `items`.
fn is_list(v: &Value) -> bool {
    v.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k == "List" || k.ends_with("List"))
        && v.get("items").is_some()
}

/// A list stands for its items, each at its own line when `item_lines` has it (else the list's).
fn expand_list(
    d: Document,
    item_lines: &[u64],
    out: &mut Vec<Document>,
    path: &Path,
) -> Result<(), LoadError> {
    if !is_list(&d.value) {
        out.push(d);
        return Ok(());
    }
    match d.value.get("items") {
        Some(Value::Array(items)) => {
            // Duplicate keys of an item are its own; the list's (`kind` twice) go to the first.
            let mut list_duplicates: Vec<Duplicate> = d
                .duplicates
                .iter()
                .filter(|p| !p.path.starts_with("items["))
                .cloned()
                .collect();
            for (i, item) in items.iter().enumerate() {
                let prefix = format!("items[{i}].");
                let mut duplicates = std::mem::take(&mut list_duplicates);
                duplicates.extend(d.duplicates.iter().filter_map(|p| {
                    let path = p.path.strip_prefix(&prefix)?.to_owned();
                    Some(Duplicate {
                        path,
                        key: p.key.clone(),
                    })
                }));
                out.push(Document {
                    file: d.file.clone(),
                    line: item_lines.get(i).copied().unwrap_or(d.line),
                    value: item.clone(),
                    duplicates,
                });
            }
            Ok(())
        }
        Some(Value::Null) => Ok(()),
        _ => Err(LoadError {
            file: path.to_owned(),
            line: d.line,
            column: 0,
            message: "`items` of a List must be a list".to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("x.yaml")
    }

    #[test]
    fn multi_document_yaml_with_lines() {
        let docs = parse("a: 1\n---\n# comment\nb: 2\n---\n", p()).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].value, serde_json::json!({"a": 1}));
        assert_eq!(docs[1].line, 4);
    }

    #[test]
    fn lists_expand() {
        let docs = parse("kind: List\nitems:\n- a: 1\n- b: 2\n", p()).unwrap();
        assert_eq!(
            docs.iter().map(|d| d.value.clone()).collect::<Vec<_>>(),
            vec![serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]
        );
        // Each item at its own line, also after other documents and inside nested lists.
        let text = "a: 1\n---\n---\nkind: List\nmetadata: {items: [x]}\nitems:\n- a: [1, 2]\n  items:\n  - z\n\n- b: 2\n---\nkind: PodList\nitems: []\n";
        let docs = parse(text, p()).unwrap();
        assert_eq!(
            docs.iter().map(|d| d.line).collect::<Vec<_>>(),
            vec![1, 7, 11]
        );
    }

    #[test]
    fn json_streams_and_errors_have_positions() {
        let docs = parse("{\"a\": 1}\n\n{\"b\": 2}", p()).unwrap();
        assert_eq!(docs[1].line, 3);
        let e = parse("{\"a\": 1,\n \"b\": }", p()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 7));
        assert!(
            e.to_string().starts_with("x.yaml:2:7: invalid JSON: "),
            "{e}"
        );
    }

    #[test]
    fn bad_yaml_reports_the_line() {
        let e = parse("a: 1\nb: [1, 2\nc: 3\n", p()).unwrap_err();
        assert!(e.line >= 2, "{e}");
        assert!(e.to_string().contains("invalid YAML"), "{e}");
    }

    #[test]
    fn yaml_and_json_nest_equally_deep() {
        let nested = |depth: usize, yaml: bool| {
            let (open, close) = if yaml {
                ("{a: ", "}")
            } else {
                ("{\"a\": ", "}")
            };
            let inner = format!("{}1{}", open.repeat(depth - 1), close.repeat(depth - 1));
            if yaml {
                format!("a: {inner}\n")
            } else {
                format!("{{\"a\": {inner}}}")
            }
        };
        // Debug builds take a few MiB of stack for this: `cli::main` runs on a large stack.
        let check = move || {
            for yaml in [true, false] {
                assert!(parse(&nested(MAX_DEPTH, yaml), p()).is_ok(), "yaml: {yaml}");
                let e = parse(&nested(MAX_DEPTH + 1, yaml), p()).unwrap_err();
                assert!(
                    e.message
                        .ends_with(&format!("nested deeper than {MAX_DEPTH} levels")),
                    "{e}"
                );
            }
        };
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn(check)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn many_documents_and_large_lists() {
        // saphyr's default budget stops at 1,024 documents and 250,000 nodes.
        let text = "a: 1\n---\n".repeat(3000);
        assert_eq!(parse(&text, p()).unwrap().len(), 3000);
        let items = "- {apiVersion: v1, kind: ConfigMap, data: {a: b, c: d}}\n".repeat(40_000);
        let docs = parse(&format!("kind: List\nitems:\n{items}"), p()).unwrap();
        assert_eq!(docs.len(), 40_000);
        assert_eq!(docs[39_999].line, 40_002);
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_and_are_reported() {
        let yaml = "a: 1\nb: {c: [{d: 1, d: 2}]}\na: 3\n";
        let json = r#"{"a": 1, "b": {"c": [{"d": 1, "d": 2}]}, "a": 3}"#;
        for text in [yaml, json] {
            let docs = parse(text, p()).unwrap();
            assert_eq!(
                docs[0].value,
                serde_json::json!({"a": 3, "b": {"c": [{"d": 2}]}})
            );
            let paths: Vec<&str> = docs[0].duplicates.iter().map(|d| d.path.as_str()).collect();
            assert_eq!(paths, ["b.c[0].d", "a"], "{text}");
            let keys: Vec<&str> = docs[0].duplicates.iter().map(|d| d.key.as_str()).collect();
            assert_eq!(keys, ["d", "a"], "{text}");
        }
        let list = "kind: List\nitems:\n- {a: 1}\n- {a: 1, a: 2}\n";
        let docs = parse(list, p()).unwrap();
        assert!(docs[0].duplicates.is_empty());
        assert_eq!(
            docs[1].duplicates,
            [Duplicate {
                path: "a".to_owned(),
                key: "a".to_owned()
            }]
        );
    }

    #[test]
    fn byte_order_marks_and_odd_keys() {
        let e = parse("\u{feff}{\"a\": 1,}", p()).unwrap_err();
        assert!(e.message.contains("invalid JSON: trailing comma"), "{e}");
        // Keys as kubectl sends them: resolved as YAML 1.1 (go-yaml v2), named by
        // sigs.k8s.io/yaml; quoted ones as written.
        let docs = parse(
            "\u{feff}a: {1: x, on: w, 0x10: z, \"y\": 1, n: 2, 1.50: v, 010: o, 1e10: e}\n",
            p(),
        )
        .unwrap();
        assert_eq!(
            docs[0].value,
            serde_json::json!({"a": {"1": "x", "true": "w", "16": "z", "y": 1, "false": 2,
                "1.5": "v", "8": "o", "1e+10": "e"}})
        );
        // Values too: YAML 1.1 booleans and octal numbers; an integral float is an integer
        // once Go's JSON encoder has written it (`8`), unless it is 1e21 or more.
        let docs = parse(
            "b: [yes, No, off, 012, 0o12, 1_000, 0x1F, 8.0, 1e3, -0.0, 1.5, 1e21]\n",
            p(),
        )
        .unwrap();
        assert_eq!(
            docs[0].value,
            serde_json::json!({"b": [true, false, false, 10, 10, 1000, 31, 8, 1000, 0, 1.5, 1e21]})
        );
        assert!(docs[0].value["b"][7].is_i64() && docs[0].value["b"][11].is_f64());
        assert!(parse("a: {~: 1}", p()).is_err());
        assert!(parse("? [a]\n: 1\n", p()).is_err());
        assert!(parse("a: .inf\n", p()).is_err());
        assert!(parse("a: &x [*x]\n", p()).is_err());
    }

    #[test]
    fn positions_count_characters() {
        assert_eq!(position("ab\ncé\nx", 6), (2, 3));
        assert_eq!(position("", 0), (1, 1));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(parse(&text, p()).is_err());
        let yaml = format!("a: {}", "[".repeat(100_000));
        assert!(parse(&yaml, p()).is_err());
    }
}
