//! The field-path grammar of CRDs (`.spec.replicas`, `.metadata['app.kubernetes.io/name']`),
//! and resolving such a path against a schema. The one home of the grammar: the derive reads
//! paths at compile time with [`field_path_steps`], the run time resolves them with
//! [`valid_field_path`].
//!
//! Mirrors `ValidFieldPath` and `unescapeSingleQuote` of apiextensions-apiserver
//! `pkg/apiserver/schema/cel/validation.go`, used for selectable fields and for the `fieldPath` of
//! `x-kubernetes-validations`. Go tokenizes with a `bufio.Scanner` (tokens `.`, `[`, `]`, single-quoted
//! strings and the text between them); this does the same in one pass, a step at a time. One difference: where Go
//! would dereference the missing schema of `additionalProperties: true` and panic, this reports
//! "does not refer to a valid field".

use super::props::{JsonSchemaProps, SchemaOrBool};
use super::structural::Structural;
use crdkit_apimachinery::field::FieldPath;

/// The schema operations the path resolution needs, for both schema forms.
pub trait PathSchema {
    /// Whether `properties` is non-empty (Go's `Properties != nil` after `NewStructural`).
    fn has_properties(&self) -> bool;
    /// The schema of property `name`.
    fn property(&self, name: &str) -> Option<&Self>;
    /// Whether `additionalProperties` is set at all (schema or bool).
    fn has_additional_properties(&self) -> bool;
    /// The schema of `additionalProperties`, when it is a schema.
    fn additional_properties(&self) -> Option<&Self>;
}

impl PathSchema for Structural {
    fn has_properties(&self) -> bool {
        !self.properties.is_empty()
    }
    fn property(&self, name: &str) -> Option<&Self> {
        self.properties.get(name)
    }
    fn has_additional_properties(&self) -> bool {
        self.additional_properties.is_some()
    }
    fn additional_properties(&self) -> Option<&Self> {
        self.additional_properties_schema()
    }
}

impl PathSchema for JsonSchemaProps {
    fn has_properties(&self) -> bool {
        !self.properties.is_empty()
    }
    fn property(&self, name: &str) -> Option<&Self> {
        self.properties.get(name)
    }
    fn has_additional_properties(&self) -> bool {
        self.additional_properties.is_some()
    }
    fn additional_properties(&self) -> Option<&Self> {
        match &self.additional_properties {
            Some(SchemaOrBool::Schema(s)) => Some(s),
            _ => None,
        }
    }
}

/// `ValidFieldPath`: resolves `json_path` against `schema`, returning the path as a
/// [`FieldPath`] (properties as children, map keys as subscripts) and the schema found there
/// (`None` below `additionalProperties: true`). The error is Go's text, e.g.
/// `does not refer to a valid field`; callers prefix it (`is an invalid path: ...`).
///
/// `allow_array_notation: false` rejects `['key']` steps (selectable fields).
///
/// ```
/// use crdkit_schema::{valid_field_path, Structural, Type};
///
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("replicas".into(), Structural::of_type(Type::Integer));
/// let mut root = Structural::of_type(Type::Object);
/// root.properties.insert("spec".into(), spec);
/// let (path, found) = valid_field_path(".spec['replicas']", &root, true).unwrap();
/// assert_eq!(path.to_string(), "spec.replicas");
/// assert_eq!(found.unwrap().generic.ty, Some(Type::Integer));
/// assert_eq!(valid_field_path(".spec.nope", &root, true).unwrap_err().to_string(), "does not refer to a valid field");
/// ```
///
/// # Errors
/// When the path is malformed or names a field the schema does not have.
pub fn valid_field_path<'s, S: PathSchema>(
    json_path: &str,
    schema: &'s S,
    allow_array_notation: bool,
) -> Result<(FieldPath, Option<&'s S>), FieldPathError> {
    let mut path = FieldPath::nil();
    let mut current: Option<&'s S> = Some(schema);
    // Go resolves each name as soon as it is read, before it checks what follows (the `]` of
    // a bracket): the steps come one at a time, so the errors come in Go's order.
    for name in field_path_steps(json_path, allow_array_notation) {
        let name = name?;
        let s = current.ok_or(FieldPathError::NoSuchField)?;
        if s.has_properties() {
            path = path.child(&name);
            current = Some(s.property(&name).ok_or(FieldPathError::NoSuchField)?);
        } else if s.has_additional_properties() {
            path = path.key(&name);
            current = s.additional_properties();
        } else {
            return Err(FieldPathError::NoSuchField);
        }
    }
    Ok((path, current))
}

/// The names a field path selects, one step at a time, without a schema: the grammar of
/// `ValidFieldPath` (`.name` and `['quoted name']` with `unescapeSingleQuote`'s escapes). The
/// derive reads `fieldPath`s and selectable fields with it at compile time, and
/// [`valid_field_path`] resolves each step as it comes.
///
/// After an error the iterator ends.
///
/// ```
/// use crdkit_schema::field_path::field_path_steps;
///
/// let steps: Result<Vec<String>, _> = field_path_steps(r".spec['a.b\'c'].d", true).collect();
/// assert_eq!(steps.unwrap(), ["spec", "a.b'c", "d"]);
/// let err = field_path_steps(".spec[0]", true).collect::<Result<Vec<_>, _>>().unwrap_err();
/// assert_eq!(err.to_string(), "expected single quoted string but got 0");
/// ```
#[must_use]
pub fn field_path_steps(json_path: &str, allow_array_notation: bool) -> FieldPathSteps<'_> {
    FieldPathSteps {
        toks: Tokens { rest: json_path },
        allow_array_notation,
        close_pending: false,
        done: false,
    }
}

/// The iterator of [`field_path_steps`].
#[derive(Clone, Debug)]
pub struct FieldPathSteps<'a> {
    toks: Tokens<'a>,
    allow_array_notation: bool,
    /// The last name was in brackets: its `]` is checked when the next step is asked for,
    /// after the caller had the name (Go's order).
    close_pending: bool,
    done: bool,
}

impl FieldPathSteps<'_> {
    fn step(&mut self) -> Option<Result<String, FieldPathError>> {
        let end = || Some(Err(FieldPathError::UnexpectedEnd));
        if std::mem::take(&mut self.close_pending) {
            match self.toks.next() {
                None => return end(),
                Some("]") => {}
                Some(other) => {
                    return Some(Err(FieldPathError::ExpectedClosingBracket(
                        other.to_owned(),
                    )));
                }
            }
        }
        let tok = self.toks.next()?;
        Some(match tok {
            "[" => {
                if !self.allow_array_notation {
                    return Some(Err(FieldPathError::ArrayNotation));
                }
                let Some(tok) = self.toks.next() else {
                    return end();
                };
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Some(Err(FieldPathError::ExpectedQuotedString(tok.to_owned())));
                }
                self.close_pending = true;
                unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(FieldPathError::InvalidStringLiteral)
            }
            "." => match self.toks.next() {
                Some(name) => Ok(name.to_owned()),
                None => return end(),
            },
            other => Err(FieldPathError::ExpectedBracketOrDot(other.to_owned())),
        })
    }
}

impl Iterator for FieldPathSteps<'_> {
    type Item = Result<String, FieldPathError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let step = self.step();
        self.done = !matches!(step, Some(Ok(_)));
        step
    }
}

/// Why a JSON path is not a valid field path (apiextensions `ValidFieldPath`'s errors; `Display`
/// is Go's text).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldPathError {
    /// `.spec.nope`: a field the schema does not declare.
    NoSuchField,
    /// `.spec.`: the path ends inside a selection.
    UnexpectedEnd,
    /// `.spec['x']` where only dots are allowed.
    ArrayNotation,
    /// `.spec[x]`: a bracket without a single-quoted name.
    ExpectedQuotedString(String),
    /// `.spec['\q']`: an invalid escape in a quoted name.
    InvalidStringLiteral(String),
    /// `spec`: a step that starts with neither `.` nor `[`.
    ExpectedBracketOrDot(String),
    /// `.spec['x'.`: a quoted name not closed by `]`.
    ExpectedClosingBracket(String),
}

impl std::fmt::Display for FieldPathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoSuchField => f.write_str("does not refer to a valid field"),
            Self::UnexpectedEnd => f.write_str("unexpected end of JSON path"),
            Self::ArrayNotation => f.write_str("array notation is not allowed"),
            Self::ExpectedQuotedString(s) => {
                write!(f, "expected single quoted string but got {s}")
            }
            Self::InvalidStringLiteral(s) => write!(f, "invalid string literal: {s}"),
            Self::ExpectedBracketOrDot(s) => write!(f, "expected [ or . but got: {s}"),
            Self::ExpectedClosingBracket(s) => write!(f, "expected ] but got {s}"),
        }
    }
}

impl std::error::Error for FieldPathError {}

/// The tokens Go's scanner yields: `.`, `[`, `]`, a single-quoted string (up to the first `'`
/// not preceded by `\`, or to the end), or the text up to the next delimiter.
#[derive(Clone, Debug)]
struct Tokens<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let b = self.rest.as_bytes();
        if b.is_empty() {
            return None;
        }
        let len = if b[0] == b'\'' {
            (1..b.len())
                .find(|&i| b[i] == b'\'' && b[i - 1] != b'\\')
                .map_or(b.len(), |i| i + 1)
        } else {
            match b.iter().position(|c| matches!(c, b'.' | b'[' | b']')) {
                Some(0) => 1,
                Some(i) => i,
                None => b.len(),
            }
        };
        let (tok, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(tok)
    }
}

/// `unescapeSingleQuote`: `\a \b \f \n \r \t \v \' \\`; any other escaped character is an
/// error (Go reports the last one), and a backslash before a newline or at the end stays as is.
fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut err = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            None | Some('\n') => out.push('\\'),
            Some(d) => {
                chars.next();
                match d {
                    'a' => out.push('\u{7}'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'v' => out.push('\u{b}'),
                    '\'' => out.push('\''),
                    '\\' => out.push('\\'),
                    other => err = Some(format!("invalid escape char \\{other}")),
                }
            }
        }
    }
    err.map_or(Ok(out), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Type;

    fn schema() -> Structural {
        let mut spec = Structural::of_type(Type::Object);
        spec.properties
            .insert("a.b".into(), Structural::of_type(Type::String));
        spec.properties
            .insert("x".into(), Structural::of_type(Type::Integer));
        let mut labels = Structural::of_type(Type::Object);
        labels.additional_properties = Some(crate::AdditionalProperties::Schema(Box::new(
            Structural::of_type(Type::String),
        )));
        spec.properties.insert("labels".into(), labels);
        let mut any = Structural::of_type(Type::Object);
        any.additional_properties = Some(crate::AdditionalProperties::Bool(true));
        spec.properties.insert("any".into(), any);
        let mut root = Structural::of_type(Type::Object);
        root.properties.insert("spec".into(), spec);
        root
    }

    // Transcribed from the fieldPath cases of TestValidateFieldPath (validation_test.go).
    #[test]
    fn paths() {
        let s = schema();
        let ok = |p: &str, want: &str| {
            let (got, _) = valid_field_path(p, &s, true).unwrap_or_else(|e| panic!("{p}: {e}"));
            assert_eq!(got.to_string(), want, "{p}");
        };
        ok(".spec.x", "spec.x");
        ok(".spec['a.b']", "spec.a.b");
        ok(".spec.labels.foo", "spec.labels[foo]");
        ok(".spec.labels['foo.bar']", "spec.labels[foo.bar]");
        ok(".spec.any.foo", "spec.any[foo]");
        ok("", "<nil>");
        let err = |p: &str, want: &str| {
            assert_eq!(
                valid_field_path(p, &s, true).unwrap_err().to_string(),
                want,
                "{p}"
            );
        };
        err(".spec.y", "does not refer to a valid field");
        err("spec", "expected [ or . but got: spec");
        err(".spec.", "unexpected end of JSON path");
        err(".spec[", "unexpected end of JSON path");
        err(".spec['x'", "unexpected end of JSON path");
        err(".spec[x]", "expected single quoted string but got x");
        err(".spec['x')", "expected ] but got )");
        err(
            ".spec['\\q']",
            "invalid string literal: invalid escape char \\q",
        );
        err(".spec.x.y", "does not refer to a valid field");
        err(".spec.any.foo.bar", "does not refer to a valid field");
        err(".spec..x", "does not refer to a valid field");
        assert_eq!(
            valid_field_path(".spec['x']", &s, false).unwrap_err(),
            FieldPathError::ArrayNotation
        );
        assert!(
            valid_field_path(".spec.any.foo", &s, true)
                .unwrap()
                .1
                .is_none()
        );
    }

    #[test]
    fn steps_without_a_schema() {
        let steps = |p: &str, arrays: bool| -> Result<Vec<String>, String> {
            field_path_steps(p, arrays)
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())
        };
        assert_eq!(steps(".a['b.c'].d", true).unwrap(), ["a", "b.c", "d"]);
        assert_eq!(steps(r".a['x\ty\n']", true).unwrap(), ["a", "x\ty\n"]);
        assert_eq!(steps("", true).unwrap(), Vec::<String>::new());
        assert_eq!(
            steps(".a[0]", true).unwrap_err(),
            "expected single quoted string but got 0"
        );
        assert_eq!(
            steps(".a['b']", false).unwrap_err(),
            "array notation is not allowed"
        );
        assert_eq!(steps("a", true).unwrap_err(), "expected [ or . but got: a");
        assert_eq!(
            steps(".a['b'", true).unwrap_err(),
            "unexpected end of JSON path"
        );
        assert_eq!(steps(".a['b'.c", true).unwrap_err(), "expected ] but got .");
        assert_eq!(
            steps(r".a['\q']", true).unwrap_err(),
            r"invalid string literal: invalid escape char \q"
        );
    }

    // Go resolves a bracketed name before it looks for the `]`.
    #[test]
    fn errors_in_go_order() {
        let s = schema();
        assert_eq!(
            valid_field_path(".spec['y'x", &s, true).unwrap_err(),
            FieldPathError::NoSuchField
        );
        assert_eq!(
            valid_field_path(".spec['x'x", &s, true).unwrap_err(),
            FieldPathError::ExpectedClosingBracket("x".into())
        );
    }

    #[test]
    fn unescape() {
        assert_eq!(unescape_single_quote(r"a\'b\\c\n").unwrap(), "a'b\\c\n");
        assert_eq!(unescape_single_quote("a\\").unwrap(), "a\\");
        assert_eq!(
            unescape_single_quote(r"\x\y").unwrap_err(),
            r"invalid escape char \y"
        );
    }
}
