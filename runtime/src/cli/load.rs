//! Reading manifests: YAML or JSON files with one or many documents, `kind: List` expanded, and
//! every failure reported with the file and the line.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One object read from a file, with where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The file as given on the command line (`-` for standard input).
    pub file: PathBuf,
    /// 1-based line of the document's first token (0 when unknown).
    pub line: u64,
    /// The object (an item of a `kind: List` is its own document).
    pub value: Value,
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

/// Reads every document of a file (`-` is standard input).
///
/// # Errors
/// When the file cannot be read, is not UTF-8, or is not valid YAML/JSON.
pub fn load(path: &Path) -> Result<Vec<Document>, LoadError> {
    let err = |line, column, message: String| LoadError {
        file: path.to_owned(),
        line,
        column,
        message,
    };
    let text = if path == Path::new("-") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut s)
            .map_err(|e| err(0, 0, format!("cannot read standard input: {e}")))?;
        s
    } else {
        let meta = std::fs::metadata(path).map_err(|e| err(0, 0, io_message(&e)))?;
        if meta.is_dir() {
            return Err(err(0, 0, "is a directory".to_owned()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(err(
                0,
                0,
                format!("file is larger than {MAX_FILE_BYTES} bytes"),
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| err(0, 0, io_message(&e)))?;
        String::from_utf8(bytes).map_err(|e| err(0, 0, format!("not UTF-8: {e}")))?
    };
    parse(&text, path)
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
/// # Errors
/// When `text` is not valid YAML or JSON.
pub fn parse(text: &str, path: &Path) -> Result<Vec<Document>, LoadError> {
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
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    loop {
        let offset = stream.byte_offset();
        match stream.next() {
            None => break,
            Some(Ok(value)) => {
                let skipped = text[offset..].len() - text[offset..].trim_start().len();
                let line = text[..offset + skipped].matches('\n').count() as u64 + 1;
                out.push(Document {
                    file: path.to_owned(),
                    line,
                    value,
                });
            }
            Some(Err(e)) => {
                return Err(LoadError {
                    file: path.to_owned(),
                    line: e.line() as u64,
                    column: e.column() as u64,
                    message: format!("invalid JSON: {}", strip_position(&e.to_string())),
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

/// The documents of a YAML stream, each with the lines of its `items` (empty unless the stream
/// holds a list).
fn parse_yaml(text: &str, path: &Path) -> Result<Vec<(Document, Vec<u64>)>, LoadError> {
    let docs: Vec<serde_saphyr::Spanned<Value>> =
        serde_saphyr::from_multiple(text).map_err(|e| {
            let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
            let msg = e.to_string();
            // The first line of saphyr's report is the message; the rest is a source snippet.
            let first = msg
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid YAML")
                .trim();
            LoadError {
                file: path.to_owned(),
                line,
                column,
                message: format!("invalid YAML: {}", without_position(first)),
            }
        })?;
    // Lists are rare: only then is the stream read a second time, for the lines of the items.
    let item_lines: Vec<ItemLines> = if docs.iter().any(|d| is_list(&d.value)) {
        serde_saphyr::from_multiple(text).unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut item_lines = item_lines.into_iter().map(|l| l.0);
    Ok(docs
        .into_iter()
        .map(|d| (d, item_lines.next().unwrap_or_default()))
        .filter(|(d, _)| !d.value.is_null())
        .map(|(d, lines)| {
            let doc = Document {
                file: path.to_owned(),
                line: d.defined.line(),
                value: d.value,
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
        while let Some(key) = map.next_key::<String>()? {
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
            for (i, item) in items.iter().enumerate() {
                out.push(Document {
                    file: d.file.clone(),
                    line: item_lines.get(i).copied().unwrap_or(d.line),
                    value: item.clone(),
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
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(parse(&text, p()).is_err());
        let yaml = format!("a: {}", "[".repeat(100_000));
        assert!(parse(&yaml, p()).is_err());
    }
}
