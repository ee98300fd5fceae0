//! Whether a printer column's or the scale subresource's JSON path resolves in the schema the
//! way the derive's compile-time check resolves it through the generated types
//! (`crdkit_shape::check::resolve_path`); a path that may not is imported with
//! `allow_unresolved`, which leaves it unchecked as the API server does.

use crdkit_schema::props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};

/// One step of a path.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    Field(String),
    Elem,
}

/// Where a step leads, in the terms of the derive's shapes.
enum Node<'a> {
    /// A schema node of the CRD.
    Schema(&'a JsonSchemaProps),
    /// `metadata` (the derive's `ObjectMeta`).
    Meta(&'static [(&'static str, Leaf)]),
    /// A known leaf under `metadata`.
    Leaf(Leaf),
    /// What the types cannot show (`serde_json::Value`): resolves, unchecked.
    Unknown,
}

#[derive(Clone, Copy)]
enum Leaf {
    String,
    Date,
    Integer,
    Boolean,
    StringMap,
    StringList,
    Any,
    OwnerReferences,
}

const OBJECT_META: &[(&str, Leaf)] = &[
    ("annotations", Leaf::StringMap),
    ("creationTimestamp", Leaf::Date),
    ("deletionGracePeriodSeconds", Leaf::Integer),
    ("deletionTimestamp", Leaf::Date),
    ("finalizers", Leaf::StringList),
    ("generateName", Leaf::String),
    ("generation", Leaf::Integer),
    ("labels", Leaf::StringMap),
    ("managedFields", Leaf::Any),
    ("name", Leaf::String),
    ("namespace", Leaf::String),
    ("ownerReferences", Leaf::OwnerReferences),
    ("resourceVersion", Leaf::String),
    ("selfLink", Leaf::String),
    ("uid", Leaf::String),
];

const OWNER_REFERENCE: &[(&str, Leaf)] = &[
    ("apiVersion", Leaf::String),
    ("blockOwnerDeletion", Leaf::Boolean),
    ("controller", Leaf::Boolean),
    ("kind", Leaf::String),
    ("name", Leaf::String),
    ("uid", Leaf::String),
];

/// Whether `path` resolves from the version's root schema `root` to a value a column of type
/// `ty` (or the scale's `integer`/`string`) can show; the fields its filters test must
/// resolve too.
pub(crate) fn resolves(root: &JsonSchemaProps, path: &str, ty: &str) -> bool {
    let Some((steps, filters)) = parse(path) else {
        return false;
    };
    filters.iter().all(|f| walk(root, f).is_some())
        && walk(root, &steps).is_some_and(|end| fits(&end, ty))
}

fn walk<'a>(root: &'a JsonSchemaProps, steps: &[Step]) -> Option<Node<'a>> {
    let mut cur = Node::Schema(root);
    for (i, s) in steps.iter().enumerate() {
        cur = match (cur, s) {
            (Node::Unknown | Node::Leaf(Leaf::Any), _) => return Some(Node::Unknown),
            (Node::Schema(_), Step::Field(f)) if i == 0 && f == "metadata" => {
                Node::Meta(OBJECT_META)
            }
            (Node::Schema(_), Step::Field(f)) if i == 0 && (f == "apiVersion" || f == "kind") => {
                Node::Leaf(Leaf::String)
            }
            (Node::Schema(n), step) => schema_step(n, step)?,
            (Node::Meta(fields), Step::Field(f)) => {
                Node::Leaf(fields.iter().find(|(n, _)| n == f)?.1)
            }
            (Node::Leaf(Leaf::StringMap), Step::Field(_))
            | (Node::Leaf(Leaf::StringList), Step::Elem) => Node::Leaf(Leaf::String),
            (Node::Leaf(Leaf::OwnerReferences), Step::Elem) => Node::Meta(OWNER_REFERENCE),
            _ => return None,
        };
    }
    Some(cur)
}

/// A step through a schema node, as through the Rust type the importer writes for it.
fn schema_step<'a>(n: &'a JsonSchemaProps, step: &Step) -> Option<Node<'a>> {
    if is_value(n) {
        return Some(Node::Unknown);
    }
    match (step, n.ty.as_str()) {
        (Step::Elem, "array") => match &n.items {
            Some(SchemaOrArray::Schema(items)) => Some(Node::Schema(items)),
            _ => Some(Node::Unknown),
        },
        (Step::Field(f), "object") => {
            if let Some(p) = n.properties.get(f) {
                return Some(Node::Schema(p));
            }
            match &n.additional_properties {
                Some(SchemaOrBool::Schema(v)) if n.properties.is_empty() => Some(Node::Schema(v)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Nodes written as `serde_json::Value`.
fn is_value(n: &JsonSchemaProps) -> bool {
    !n.x_int_or_string
        && (n.ty.is_empty()
            || (n.ty == "object"
                && n.properties.is_empty()
                && (n.x_preserve_unknown_fields == Some(true)
                    || matches!(n.additional_properties, Some(SchemaOrBool::Bool(_))))))
}

/// Whether the value at the end fits the column type (`check::resolve_path`'s `Expect`).
fn fits(end: &Node<'_>, ty: &str) -> bool {
    let (t, string_like) = match end {
        Node::Unknown | Node::Leaf(Leaf::Any) => return true,
        Node::Meta(_) => ("object", false),
        Node::Leaf(Leaf::String) => ("string", true),
        Node::Leaf(Leaf::Date) => ("string", true),
        Node::Leaf(Leaf::Integer) => ("integer", false),
        Node::Leaf(Leaf::Boolean) => ("boolean", false),
        Node::Leaf(Leaf::StringMap | Leaf::OwnerReferences) => ("object", false),
        Node::Leaf(Leaf::StringList) => ("array", false),
        Node::Schema(n) if n.x_int_or_string => ("int-or-string", true),
        Node::Schema(n) => (n.ty.as_str(), n.ty == "string"),
    };
    match ty {
        "integer" => t == "integer",
        "number" => t == "integer" || t == "number",
        "boolean" => t == "boolean",
        "date" => string_like,
        _ => !matches!(t, "array" | "object"),
    }
}

/// kubectl's JSONPath as the derive reads a printer column (`.a.b[*]`, `['k']`,
/// `[?(@.type=="Ready")]`): the steps, and the steps of each field a filter tests.
fn parse(path: &str) -> Option<(Vec<Step>, Vec<Vec<Step>>)> {
    let rest = path.strip_prefix('.')?;
    let b: Vec<char> = rest.chars().collect();
    let (mut steps, mut filters) = (Vec::new(), Vec::new());
    let mut i = 0;
    let mut name = String::new();
    while i <= b.len() {
        let c = b.get(i).copied();
        match c {
            None | Some('.' | '[') => {
                if !name.is_empty() {
                    steps.push(Step::Field(std::mem::take(&mut name)));
                } else if (c == Some('.') && !(i > 0 && b[i - 1] == ']'))
                    || (c.is_none() && !steps.is_empty() && i > 0 && b[i - 1] == '.')
                {
                    return None;
                }
                if c == Some('[') {
                    let close = (i..b.len()).find(|&j| b[j] == ']')?;
                    let inner: String = b[i + 1..close].iter().collect();
                    let inner = inner.trim();
                    if let Some(q) = inner
                        .strip_prefix('\'')
                        .and_then(|s| s.strip_suffix('\''))
                        .or_else(|| inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
                    {
                        steps.push(Step::Field(q.to_owned()));
                    } else if inner == "*"
                        || inner
                            .chars()
                            .all(|c| c.is_ascii_digit() || c == '-' || c == ':')
                    {
                        steps.push(Step::Elem);
                    } else if let Some(f) =
                        inner.strip_prefix("?(").and_then(|f| f.strip_suffix(')'))
                    {
                        steps.push(Step::Elem);
                        for field in filter_fields(f) {
                            let mut s: Vec<Step> = steps.iter().map(clone_step).collect();
                            s.extend(field);
                            filters.push(s);
                        }
                    } else {
                        return None;
                    }
                    i = close;
                }
            }
            Some(ch) => name.push(ch),
        }
        i += 1;
    }
    Some((steps, filters))
}

fn clone_step(s: &Step) -> Step {
    match s {
        Step::Field(f) => Step::Field(f.clone()),
        Step::Elem => Step::Elem,
    }
}

/// The `@.a.b` operands of a filter.
fn filter_fields(filter: &str) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut rest = filter;
    while let Some(at) = rest.find('@') {
        let tail = &rest[at + 1..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '/')))
            .unwrap_or(tail.len());
        let steps: Vec<Step> = tail[..end]
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| Step::Field(s.to_owned()))
            .collect();
        if !steps.is_empty() {
            out.push(steps);
        }
        rest = &tail[end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> JsonSchemaProps {
        serde_json::from_value(serde_json::json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer"},
                "port": {"x-kubernetes-int-or-string": true},
                "any": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}},
            "status": {"type": "object", "properties": {
                "conditions": {"type": "array", "items": {"type": "object", "properties": {
                    "type": {"type": "string"}, "status": {"type": "string"}}}}}}}}))
        .unwrap()
    }

    #[test]
    fn paths_resolve_as_the_derive_resolves_them() {
        let s = schema();
        assert!(resolves(&s, ".spec.replicas", "integer"));
        assert!(!resolves(&s, ".spec.replicas", "boolean"));
        assert!(resolves(&s, ".spec.replicas", "string"));
        assert!(!resolves(&s, ".spec.port", "integer"));
        assert!(resolves(&s, ".spec.any.x.y", "integer"));
        assert!(!resolves(&s, ".spec.missing", "string"));
        assert!(resolves(&s, ".metadata.creationTimestamp", "date"));
        assert!(resolves(&s, ".metadata.labels['app']", "string"));
        assert!(resolves(
            &s,
            ".status.conditions[?(@.type==\"Ready\")].status",
            "string"
        ));
        assert!(!resolves(
            &s,
            ".status.conditions[?(@.kind==\"Ready\")].status",
            "string"
        ));
        assert!(!resolves(&s, ".status.conditions", "string"));
        assert!(!resolves(&s, "spec", "string"));
    }
}
