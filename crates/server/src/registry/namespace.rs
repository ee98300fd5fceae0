//! The core `v1` Namespace kind.
//!
//! Mirrors kubernetes `pkg/registry/core/namespace/strategy.go` (`PrepareForCreate`: phase
//! `Active` and the `kubernetes` finalizer; `PrepareForUpdate`: spec finalizers and status kept;
//! `Canonicalize`: the `kubernetes.io/metadata.name` label; the fields `metadata.name` and
//! `status.phase`), `pkg/apis/core/validation` (`ValidateNamespace`: the name is a DNS-1123
//! label) and `pkg/printers/internalversion` (the `NAME STATUS AGE` table). Decoding (unknown
//! fields, `metadata`) goes through crdkit's engine with a schema of the kind.

use serde_json::{Value, json};

use super::strategy::{ResourceInfo, Strategy, Subresources};
use super::table::{CREATION_DESCRIPTION, Table, column, name_column};
use crate::clock;
use crate::engine::{
    Admitted, CompiledSchema, FieldError, FieldManager, FieldPath, JsonSchemaProps,
    ResourceInfo as EngineInfo, Structural, dns1123_label,
};
use crate::http::status::{ApiError, ApiResult};

/// The label every namespace carries with its name.
pub const NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// The namespace kind's strategy.
pub struct NamespaceStrategy {
    info: ResourceInfo,
    schema: CompiledSchema,
    field_manager: std::sync::Arc<FieldManager>,
}

impl Default for NamespaceStrategy {
    fn default() -> Self {
        Self::new()
    }
}

impl NamespaceStrategy {
    /// The strategy.
    #[must_use]
    pub fn new() -> NamespaceStrategy {
        let props: JsonSchemaProps = serde_json::from_value(json!({
            "type": "object",
            "properties": {
                "spec": {"type": "object", "properties": {
                    "finalizers": {"type": "array", "items": {"type": "string"}}}},
                "status": {"type": "object", "properties": {
                    "phase": {"type": "string"},
                    "conditions": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
            },
        }))
        .unwrap_or_default();
        let structural = Structural::from_props(&props).unwrap_or_default();
        NamespaceStrategy {
            info: ResourceInfo {
                group: String::new(),
                version: "v1".to_owned(),
                resource: "namespaces".to_owned(),
                singular: "namespace".to_owned(),
                kind: "Namespace".to_owned(),
                list_kind: "NamespaceList".to_owned(),
                namespaced: false,
                short_names: vec!["ns".to_owned()],
                categories: Vec::new(),
                prefix: "/registry/namespaces/".to_owned(),
            },
            schema: CompiledSchema::new(&structural).with_resource(EngineInfo {
                api_version: "v1".to_owned(),
                kind: "Namespace".to_owned(),
                namespaced: Some(false),
            }),
            field_manager: std::sync::Arc::new(
                FieldManager::new(None, "v1", "Namespace").with_status_subresource(),
            ),
        }
    }

    fn admit(&self, obj: &mut Value) -> Admitted {
        match self.schema.prune_and_default(obj) {
            Err(e) => Admitted {
                unknown_fields: Vec::new(),
                errors: vec![e],
                decoding_failed: true,
            },
            Ok(unknown_fields) => {
                let mut errors = self.schema.validate(obj);
                let name = crate::object::name(obj);
                if !name.is_empty() {
                    let msgs = dns1123_label(name);
                    if !msgs.is_empty() {
                        // The name rule of namespaces (a label) replaces the generic one.
                        errors.retain(|e| e.field.to_string() != "metadata.name");
                        errors.push(FieldError::invalid(
                            &FieldPath::new("metadata").child("name"),
                            name,
                            msgs.join(","),
                        ));
                    }
                }
                Admitted {
                    unknown_fields,
                    errors,
                    ..Admitted::default()
                }
            }
        }
    }
}

/// `Canonicalize`: the name label.
fn canonicalize(obj: &mut Value) {
    let name = crate::object::name(obj).to_owned();
    let meta = crate::object::metadata_mut(obj);
    let labels = meta
        .entry("labels")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let Value::Object(l) = labels {
        l.insert(NAME_LABEL.to_owned(), Value::String(name));
    }
}

fn keep(new: &mut Value, old: &Value, path: &[&str]) {
    let old_v = path.iter().try_fold(old, |v, k| v.get(k)).cloned();
    let Value::Object(m) = new else { return };
    let (last, parents) = path.split_last().expect("non-empty path");
    let mut cur = m;
    for p in parents {
        let next = cur
            .entry((*p).to_owned())
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if !next.is_object() {
            *next = Value::Object(serde_json::Map::new());
        }
        let Value::Object(n) = next else { return };
        cur = n;
    }
    match old_v {
        Some(v) => {
            cur.insert((*last).to_owned(), v);
        }
        None => {
            cur.remove(*last);
        }
    }
}

impl Strategy for NamespaceStrategy {
    fn info(&self) -> &ResourceInfo {
        &self.info
    }

    fn subresources(&self) -> Subresources {
        Subresources {
            status: true,
            scale: None,
        }
    }

    fn uses_generation(&self) -> bool {
        false
    }

    fn verbs(&self) -> Option<&'static [&'static str]> {
        // No `deletecollection` (kubernetes `pkg/registry/core/namespace/storage`).
        crdkit_builtin::resources::find("", "v1", "namespaces").map(|r| r.verbs)
    }

    fn create(&self, obj: &mut Value) -> ApiResult<Admitted> {
        if let Value::Object(m) = obj {
            m.insert("status".to_owned(), json!({"phase": "Active"}));
        }
        let mut fins: Vec<String> = obj
            .get("spec")
            .and_then(|s| s.get("finalizers"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if !fins.iter().any(|f| f == "kubernetes") {
            fins.push("kubernetes".to_owned());
        }
        if let Value::Object(m) = obj {
            let spec = m.entry("spec").or_insert_with(|| json!({}));
            if !spec.is_object() {
                return Err(ApiError::bad_request(
                    "Namespace in version \"v1\" cannot be handled as a Namespace: spec must be an object",
                ));
            }
            spec["finalizers"] = json!(fins);
        }
        canonicalize(obj);
        Ok(self.admit(obj))
    }

    fn update(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        keep(new, old, &["spec", "finalizers"]);
        keep(new, old, &["status"]);
        canonicalize(new);
        Ok(self.admit(new))
    }

    fn update_status(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        let status = new.get("status").cloned();
        *new = old.clone();
        if let (Value::Object(m), Some(s)) = (&mut *new, status) {
            m.insert("status".to_owned(), s);
        }
        Ok(self.admit(new))
    }

    fn fields(&self, obj: &Value) -> std::collections::BTreeMap<String, String> {
        let mut f = std::collections::BTreeMap::new();
        f.insert(
            "metadata.name".to_owned(),
            crate::object::name(obj).to_owned(),
        );
        f.insert("status.phase".to_owned(), phase(obj).to_owned());
        f
    }

    fn field_label_supported(&self, label: &str) -> bool {
        matches!(label, "metadata.name" | "status.phase")
    }

    fn table(&self, objs: &[&Value], now: i64) -> Table {
        Table {
            columns: vec![
                name_column(),
                column("Status", "string", "", "The status of the namespace", 0),
                column("Age", "string", "", CREATION_DESCRIPTION, 0),
            ],
            rows: objs
                .iter()
                .map(|o| {
                    let age = crate::object::meta_str(o, "creationTimestamp")
                        .and_then(clock::parse)
                        .map_or_else(
                            || "<unknown>".to_owned(),
                            |t| clock::human_duration(now - t),
                        );
                    vec![json!(crate::object::name(o)), json!(phase(o)), json!(age)]
                })
                .collect(),
        }
    }

    fn mark_deleting(&self, obj: &mut Value, _now: i64) {
        if let Value::Object(m) = obj {
            let status = m.entry("status").or_insert_with(|| json!({}));
            if status.is_object() {
                status["phase"] = json!("Terminating");
            }
        }
    }

    fn has_finalizers(&self, obj: &Value) -> bool {
        !crate::object::finalizers(obj).is_empty()
            || obj
                .get("spec")
                .and_then(|s| s.get("finalizers"))
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
    }

    fn always_marks(&self) -> bool {
        true
    }

    fn field_manager(&self) -> std::sync::Arc<FieldManager> {
        std::sync::Arc::clone(&self.field_manager)
    }
}

fn phase(obj: &Value) -> &str {
    obj.get("status")
        .and_then(|s| s.get("phase"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_sets_phase_finalizer_and_label() {
        let s = NamespaceStrategy::new();
        let mut obj = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}, "spec": {"x": 1}});
        let a = s.create(&mut obj).unwrap();
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        assert_eq!(a.unknown_fields, ["spec.x"]);
        assert_eq!(obj["status"]["phase"], "Active");
        assert_eq!(obj["spec"]["finalizers"], json!(["kubernetes"]));
        assert_eq!(obj["metadata"]["labels"][NAME_LABEL], "team-a");
    }

    #[test]
    fn names_are_dns_labels() {
        let s = NamespaceStrategy::new();
        let mut obj =
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "Team.A"}});
        let a = s.create(&mut obj).unwrap();
        assert_eq!(a.errors.len(), 1, "{:?}", a.errors);
        assert!(
            a.errors[0].to_string().starts_with(
                "metadata.name: Invalid value: \"Team.A\": a lowercase RFC 1123 label"
            )
        );
    }

    #[test]
    fn update_keeps_status_and_spec_finalizers() {
        let s = NamespaceStrategy::new();
        let mut old = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}});
        s.create(&mut old).unwrap();
        let mut new = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a", "labels": {"x": "y"}}, "status": {"phase": "Terminating"}});
        s.update(&mut new, &old).unwrap();
        assert_eq!(new["status"]["phase"], "Active");
        assert_eq!(new["spec"]["finalizers"], json!(["kubernetes"]));
        assert_eq!(new["metadata"]["labels"]["x"], "y");
    }
}
