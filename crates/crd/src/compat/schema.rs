//! One version's schema, old and new side by side: each node's type, value validations,
//! extensions and rules, then its children (properties in name order, items, map values).

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Code, Finding, Severity};
use crdkit_schema::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};

pub(super) fn compare(
    version: &str,
    old: &JsonSchemaProps,
    new: &JsonSchemaProps,
    out: &mut Vec<Finding>,
) {
    Walk { version, out }.node(".", old, new, 0);
}

/// `.name` below `path` (`['a.b']` for names that are not plain).
pub(super) fn child(path: &str, name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let step = if plain {
        format!(".{name}")
    } else {
        format!("['{}']", name.replace('\'', "\\'"))
    };
    if path == "." {
        step
    } else {
        format!("{path}{step}")
    }
}

/// The items of a list below `path`.
pub(super) fn items(path: &str) -> String {
    if path == "." {
        "[*]".to_owned()
    } else {
        format!("{path}[*]")
    }
}

/// The values of a map below `path`.
pub(super) fn values(path: &str) -> String {
    child(path, "*").replace("['*']", ".*")
}

pub(super) fn items_schema(s: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &s.items {
        Some(SchemaOrArray::Schema(i)) => Some(i),
        _ => None,
    }
}

pub(super) fn values_schema(s: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &s.additional_properties {
        Some(SchemaOrBool::Schema(a)) => Some(a),
        _ => None,
    }
}

/// Whether fields a schema does not list are kept rather than pruned.
fn keeps_unknown(s: &JsonSchemaProps) -> bool {
    s.x_preserve_unknown_fields == Some(true) || s.additional_properties.is_some()
}

/// What validation ratcheting does to a value validation that is new or tighter: the API
/// server (on by default since Kubernetes 1.30, `CRDValidationRatcheting`) lets an update keep a
/// value that fails it as long as that value is unchanged, so stored objects keep working and
/// only requests that write such a value fail. Not ratcheted, and so still a break of stored
/// objects: `required`, list types and map keys, `allOf`/`anyOf`/`oneOf`/`not`, and rules that
/// use `oldSelf` (the docs' "Validation ratcheting" section).
pub(super) const RATCHETED: &str = "; ratcheted (Kubernetes 1.30+): stored objects that fail it keep updating while that value is unchanged";

/// Whether a rule refers to `oldSelf`, making it a transition rule, which ratcheting never
/// spares (cel-go's check records the reference; here, an identifier of that name). A rule
/// that does not parse refers to nothing.
fn uses_old_self(rule: &str) -> bool {
    crdkit_cel::parse(rule).is_ok_and(|ast| {
        ast.exprs
            .iter()
            .any(|e| matches!(&e.kind, crdkit_cel::ExprKind::Ident(n) if n == "oldSelf"))
    })
}

/// A JSON value as the messages show it.
pub(super) fn show(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// A number as the messages show it (`10`, `0.5`).
pub(super) fn num(f: f64) -> String {
    show(&crdkit_schema::props::go_number(f))
}

pub(super) struct Walk<'a> {
    pub(super) version: &'a str,
    pub(super) out: &'a mut Vec<Finding>,
}

impl Walk<'_> {
    pub(super) fn push(&mut self, severity: Severity, code: Code, path: &str, message: String) {
        self.out.push(Finding {
            severity,
            code,
            version: Some(self.version.to_owned()),
            path: path.to_owned(),
            message,
        });
    }

    fn node(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps, depth: usize) {
        if depth > crdkit_schema::check::MAX_SCHEMA_DEPTH {
            return;
        }
        if self.types(path, o, n) {
            return;
        }
        if o.nullable && !n.nullable {
            self.push(
                Severity::BreaksStoredObjects,
                Code::NullableRemoved,
                path,
                "nullable turned off: null values are dropped or rejected".to_owned(),
            );
        }
        self.enums(path, o, n);
        self.bounds(path, o, n);
        for r in n.required.iter().filter(|r| !o.required.contains(r)) {
            self.push(
                Severity::BreaksStoredObjects,
                Code::RequiredAdded,
                &child(path, r),
                "required now: objects without it are invalid, and updates of stored ones fail \
                 (required fields are not ratcheted)"
                    .to_owned(),
            );
        }
        if o.pattern != n.pattern && !n.pattern.is_empty() {
            let message = if o.pattern.is_empty() {
                format!("pattern {:?} added", n.pattern)
            } else {
                format!("pattern changed from {:?} to {:?}", o.pattern, n.pattern)
            };
            self.push(
                Severity::BreaksClients,
                Code::PatternChanged,
                path,
                message + RATCHETED,
            );
        }
        if o.format != n.format && !n.format.is_empty() {
            let message = if o.format.is_empty() {
                format!("format {:?} added", n.format)
            } else {
                format!("format changed from {:?} to {:?}", o.format, n.format)
            };
            self.push(
                Severity::BreaksClients,
                Code::FormatChanged,
                path,
                message + RATCHETED,
            );
        }
        if o.all_of != n.all_of || o.any_of != n.any_of || o.one_of != n.one_of || o.not != n.not {
            self.push(
                Severity::BreaksStoredObjects,
                Code::JunctorChanged,
                path,
                "allOf, anyOf, oneOf or not changed: existing objects may fail them (not ratcheted)"
                    .to_owned(),
            );
        }
        self.rules(path, o, n);
        self.extensions(path, o, n);
        self.defaults(path, o, n);
        self.children(path, o, n, depth);
    }

    /// Reports a changed type; whether the node differs so much that nothing below it is
    /// compared.
    fn types(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps) -> bool {
        let any = |t: &str| if t.is_empty() { "any" } else { t }.to_owned();
        if o.x_int_or_string && !n.x_int_or_string {
            self.push(
                Severity::BreaksStoredObjects,
                Code::TypeChanged,
                path,
                format!("no longer an integer or a string: only {}", any(&n.ty)),
            );
            return true;
        }
        if o.ty != n.ty && !o.x_int_or_string && !n.x_int_or_string {
            self.push(
                Severity::BreaksStoredObjects,
                Code::TypeChanged,
                path,
                format!("type changed from {} to {}", any(&o.ty), any(&n.ty)),
            );
            return true;
        }
        if o.x_embedded_resource != n.x_embedded_resource {
            let message = if n.x_embedded_resource {
                "an embedded resource now: apiVersion, kind and metadata are required and checked"
            } else {
                "no longer an embedded resource: its apiVersion, kind and metadata are pruned unless specified"
            };
            self.push(
                Severity::BreaksStoredObjects,
                Code::TypeChanged,
                path,
                message.to_owned(),
            );
        }
        false
    }

    fn rules(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps) {
        let old_rules: BTreeSet<&str> = o.x_validations.iter().map(|r| r.rule.as_str()).collect();
        let new_rules: BTreeSet<&str> = n.x_validations.iter().map(|r| r.rule.as_str()).collect();
        for (i, r) in n.x_validations.iter().enumerate() {
            if old_rules.contains(r.rule.as_str()) {
                continue;
            }
            if uses_old_self(&r.rule) {
                self.push(
                    Severity::BreaksStoredObjects,
                    Code::RuleAdded,
                    path,
                    format!(
                        "rule {i} is new: {:?} (a transition rule: it applies to updates, and \
                         is not ratcheted); updates of existing objects may fail it",
                        r.rule
                    ),
                );
            } else {
                self.push(
                    Severity::BreaksClients,
                    Code::RuleAdded,
                    path,
                    format!("rule {i} is new: {:?}{RATCHETED}", r.rule),
                );
            }
        }
        for r in &o.x_validations {
            if !new_rules.contains(r.rule.as_str()) {
                self.push(
                    Severity::Info,
                    Code::RuleRemoved,
                    path,
                    format!("rule removed: {:?}", r.rule),
                );
            }
        }
    }

    fn extensions(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps) {
        let list_type = |s: &JsonSchemaProps| s.x_list_type.clone().unwrap_or("atomic".into());
        let (olt, nlt) = (list_type(o), list_type(n));
        if olt != nlt {
            // A set or map enforces the uniqueness of items (or keys); others only change how
            // server-side apply merges.
            let severity = if matches!(nlt.as_str(), "set" | "map") {
                Severity::BreaksStoredObjects
            } else {
                Severity::BreaksClients
            };
            let ratcheting = if severity == Severity::BreaksStoredObjects {
                " (not ratcheted)"
            } else {
                ""
            };
            self.push(
                severity,
                Code::ListTypeChanged,
                path,
                format!("x-kubernetes-list-type changed from {olt} to {nlt}{ratcheting}"),
            );
        } else if nlt == "map" && o.x_list_map_keys != n.x_list_map_keys {
            self.push(
                Severity::BreaksStoredObjects,
                Code::ListTypeChanged,
                path,
                format!(
                    "x-kubernetes-list-map-keys changed from {:?} to {:?} (not ratcheted)",
                    o.x_list_map_keys, n.x_list_map_keys
                ),
            );
        }
        let map_type = |s: &JsonSchemaProps| s.x_map_type.clone().unwrap_or("granular".into());
        let (omt, nmt) = (map_type(o), map_type(n));
        if omt != nmt && (o.ty == "object" || n.ty == "object") {
            self.push(
                Severity::BreaksClients,
                Code::MapTypeChanged,
                path,
                format!("x-kubernetes-map-type changed from {omt} to {nmt}: server-side apply merges it differently"),
            );
        }
        if o.x_preserve_unknown_fields == Some(true) && n.x_preserve_unknown_fields != Some(true) {
            self.push(
                Severity::BreaksStoredObjects,
                Code::PruningEnabled,
                path,
                "x-kubernetes-preserve-unknown-fields turned off: fields the schema does not specify are pruned".to_owned(),
            );
        }
    }

    fn defaults(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps) {
        let present = |d: &Option<Value>| d.as_ref().filter(|v| !v.is_null()).cloned();
        match (present(&o.default), present(&n.default)) {
            (Some(od), Some(nd)) if od != nd => self.push(
                Severity::BreaksClients,
                Code::DefaultChanged,
                path,
                format!("default changed from {} to {}", show(&od), show(&nd)),
            ),
            (Some(od), None) => self.push(
                Severity::BreaksClients,
                Code::DefaultChanged,
                path,
                format!("default {} removed", show(&od)),
            ),
            (None, Some(nd)) => self.push(
                Severity::Info,
                Code::DefaultAdded,
                path,
                format!("default {} added", show(&nd)),
            ),
            _ => {}
        }
    }

    fn children(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps, depth: usize) {
        for (k, op) in &o.properties {
            let at = child(path, k);
            match n.properties.get(k) {
                Some(np) => self.node(&at, op, np, depth + 1),
                None if keeps_unknown(n) => self.push(
                    Severity::Info,
                    Code::FieldRemoved,
                    &at,
                    "no longer specified; its values are kept but no longer validated".to_owned(),
                ),
                None => self.push(
                    Severity::BreaksStoredObjects,
                    Code::FieldRemoved,
                    &at,
                    "removed: values stored in it are pruned".to_owned(),
                ),
            }
        }
        if let (Some(oi), Some(ni)) = (items_schema(o), items_schema(n)) {
            self.node(&items(path), oi, ni, depth + 1);
        }
        match (values_schema(o), values_schema(n)) {
            (Some(ov), Some(nv)) => self.node(&values(path), ov, nv, depth + 1),
            (Some(_), None) | (None, None)
                if o.additional_properties.is_some() && !keeps_unknown(n) && o.ty == "object" =>
            {
                self.push(
                    Severity::BreaksStoredObjects,
                    Code::FieldRemoved,
                    &values(path),
                    "no longer a map: keys other than its properties are pruned".to_owned(),
                );
            }
            _ => {}
        }
    }
}
