//! The `apiextensions.k8s.io/v1` CustomResourceDefinition kind.
//!
//! Mirrors apiextensions-apiserver `pkg/registry/customresourcedefinition/strategy.go`
//! (`PrepareForCreate`: status reset, stored versions; `PrepareForUpdate`: status kept,
//! generation on spec changes, the new storage version added to `storedVersions`;
//! `statusStrategy`), `etcd.go` (`Delete`: the `customresourcecleanup.apiextensions.k8s.io`
//! finalizer and the `Terminating` condition), `pkg/apis/apiextensions/v1/defaults.go`, the
//! validation of `pkg/apis/apiextensions/validation` through crdkit's `check_crd_full` plus the
//! update rules (immutable group, plural, and scope and kind once established; stored versions
//! kept in `spec.versions`), and the naming and establishing controllers
//! (`pkg/controller/status/naming_controller.go`, `pkg/controller/establish`), which here run
//! as part of the write so that a created CRD is served when the response arrives.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use serde_json::{Map, Value, json};

use super::served::Registry;
use super::strategy::{ResourceInfo, Strategy};
use super::table::{CREATION_DESCRIPTION, Table, column, name_column};
use crate::clock;
use crate::engine::{
    Admitted, BadValue, CustomResourceDefinition, FieldError, FieldManager, FieldPath,
    check_crd_full,
};
use crate::http::status::{ApiError, ApiResult};
use decode::{set_defaults, unknown_fields};

mod decode;

/// The finalizer that makes a deleted CRD wait for its objects to go.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// The CRD kind's strategy.
pub struct CrdStrategy {
    info: ResourceInfo,
    registry: Arc<RwLock<Registry>>,
    field_manager: Arc<FieldManager>,
}

impl CrdStrategy {
    /// The strategy; `registry` is read for name conflicts between CRDs of a group.
    #[must_use]
    pub fn new(registry: Arc<RwLock<Registry>>) -> CrdStrategy {
        CrdStrategy {
            info: ResourceInfo {
                group: "apiextensions.k8s.io".to_owned(),
                version: "v1".to_owned(),
                resource: "customresourcedefinitions".to_owned(),
                singular: "customresourcedefinition".to_owned(),
                kind: "CustomResourceDefinition".to_owned(),
                list_kind: "CustomResourceDefinitionList".to_owned(),
                namespaced: false,
                short_names: vec!["crd".to_owned(), "crds".to_owned()],
                categories: vec!["api-extensions".to_owned()],
                prefix: "/registry/apiextensions.k8s.io/customresourcedefinitions/".to_owned(),
            },
            registry,
            // Schemaless (deduced), with status reset as the CRD's status subresource does.
            field_manager: Arc::new(
                FieldManager::new(
                    None,
                    CustomResourceDefinition::API_VERSION,
                    CustomResourceDefinition::KIND,
                )
                .with_status_subresource(),
            ),
        }
    }

    /// Decodes a CRD body: the typed CRD with v1 defaults, and the fields it does not know.
    fn decode(obj: &Value) -> ApiResult<(CustomResourceDefinition, Vec<String>)> {
        let mut crd: CustomResourceDefinition = serde_json::from_value(obj.clone()).map_err(|e| {
            ApiError::bad_request(format!(
                "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: {e}"
            ))
        })?;
        let round = serde_json::to_value(&crd).unwrap_or(Value::Null);
        let mut unknown = Vec::new();
        unknown_fields(obj, &round, "", &mut unknown, 0);
        set_defaults(&mut crd);
        Ok((crd, unknown))
    }

    /// `status.acceptedNames` and the `NamesAccepted`/`Established` conditions for `crd`,
    /// keeping the transition times of conditions that do not change.
    fn names_status(
        &self,
        crd: &CustomResourceDefinition,
        old: Option<&Value>,
    ) -> Map<String, Value> {
        let names = serde_json::to_value(&crd.spec.names).unwrap_or(Value::Null);
        let conflict = self.name_conflict(crd);
        let now = clock::format(clock::now());
        let mut status = Map::new();
        let (accepted, established) = match &conflict {
            None => (
                condition(
                    "NamesAccepted",
                    "True",
                    "NoConflicts",
                    "no conflicts found",
                    &now,
                ),
                condition(
                    "Established",
                    "True",
                    "InitialNamesAccepted",
                    "the initial names have been accepted",
                    &now,
                ),
            ),
            Some((reason, message)) => (
                condition("NamesAccepted", "False", reason, message, &now),
                condition(
                    "Established",
                    "False",
                    "NotAccepted",
                    "not all names are accepted",
                    &now,
                ),
            ),
        };
        let old_accepted = old.and_then(|s| s.get("acceptedNames")).cloned();
        status.insert(
            "acceptedNames".to_owned(),
            if conflict.is_none() {
                names
            } else {
                old_accepted.unwrap_or_else(|| json!({"plural": "", "kind": ""}))
            },
        );
        let mut conditions = vec![accepted, established];
        // Keep lastTransitionTime (and other conditions, such as Terminating) from the old status.
        if let Some(old_conds) = old
            .and_then(|s| s.get("conditions"))
            .and_then(Value::as_array)
        {
            for c in &mut conditions {
                if let Some(prev) = old_conds.iter().find(|o| o.get("type") == c.get("type"))
                    && prev.get("status") == c.get("status")
                {
                    *c = prev.clone();
                }
            }
            for o in old_conds {
                if !conditions.iter().any(|c| c.get("type") == o.get("type")) {
                    conditions.push(o.clone());
                }
            }
        }
        status.insert("conditions".to_owned(), Value::Array(conditions));
        status
    }

    /// The first name of `crd` another CRD of its group already uses, with the reason and
    /// message of the `NamesAccepted` condition.
    fn name_conflict(&self, crd: &CustomResourceDefinition) -> Option<(String, String)> {
        let registry = self
            .registry
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let me = crd.metadata.name.as_deref().unwrap_or("");
        let n = &crd.spec.names;
        for other in registry.all() {
            if other.name == me || other.crd.spec.group != crd.spec.group {
                continue;
            }
            let on = &other.crd.spec.names;
            let mut taken = vec![on.plural.as_str(), on.singular.as_str()];
            taken.extend(on.short_names.iter().map(String::as_str));
            if taken.contains(&n.plural.as_str()) {
                return Some((
                    "PluralConflict".into(),
                    format!("\"{}\" is already in use", n.plural),
                ));
            }
            if !n.singular.is_empty() && taken.contains(&n.singular.as_str()) {
                return Some((
                    "SingularConflict".into(),
                    format!("\"{}\" is already in use", n.singular),
                ));
            }
            for s in &n.short_names {
                if taken.contains(&s.as_str()) {
                    return Some((
                        "ShortNamesConflict".into(),
                        format!("\"{s}\" is already in use"),
                    ));
                }
            }
            if on.kind == n.kind {
                return Some((
                    "KindConflict".into(),
                    format!("\"{}\" is already in use", n.kind),
                ));
            }
            if !n.list_kind.is_empty() && on.list_kind == n.list_kind {
                return Some((
                    "ListKindConflict".into(),
                    format!("\"{}\" is already in use", n.list_kind),
                ));
            }
        }
        None
    }

    /// Writes the typed CRD back into `obj`, keeping the request's metadata as decoded.
    fn encode(crd: &CustomResourceDefinition, obj: &mut Value) {
        let mut v = serde_json::to_value(crd).unwrap_or(Value::Null);
        if let (Value::Object(m), Some(meta)) = (&mut v, obj.get("metadata")) {
            m.insert("metadata".to_owned(), meta.clone());
            m.insert(
                "apiVersion".to_owned(),
                json!(CustomResourceDefinition::API_VERSION),
            );
            m.insert("kind".to_owned(), json!(CustomResourceDefinition::KIND));
        }
        *obj = v;
    }
}

fn condition(ty: &str, status: &str, reason: &str, message: &str, now: &str) -> Value {
    json!({"type": ty, "status": status, "lastTransitionTime": now, "reason": reason, "message": message})
}

fn storage_version(crd: &CustomResourceDefinition) -> Option<&str> {
    crd.spec
        .versions
        .iter()
        .find(|v| v.storage)
        .map(|v| v.name.as_str())
}

fn stored_versions(status: Option<&Value>) -> Vec<String> {
    status
        .and_then(|s| s.get("storedVersions"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// `ValidateCustomResourceDefinitionStoredVersions` for an update: every stored version is
/// still in `spec.versions`.
fn stored_versions_errors(crd: &CustomResourceDefinition, stored: &[String]) -> Vec<FieldError> {
    let at = FieldPath::new("status").child("storedVersions");
    if stored.is_empty() {
        return vec![FieldError::invalid(
            &at,
            BadValue::Json(Value::Null),
            "must have at least one stored version",
        )];
    }
    let mut errs = Vec::new();
    for (i, v) in stored.iter().enumerate() {
        if !crd.spec.versions.iter().any(|sv| &sv.name == v) {
            errs.push(FieldError::invalid(
                &at.index(i),
                v.as_str(),
                "must appear in spec.versions",
            ));
        }
    }
    if let Some(sv) = storage_version(crd)
        && !stored.iter().any(|s| s == sv)
    {
        errs.push(FieldError::invalid(
            &at,
            BadValue::Json(json!(stored)),
            format!("must have the storage version {sv}"),
        ));
    }
    errs
}

fn immutable(path: &FieldPath, new: &str, old: &str, errs: &mut Vec<FieldError>) {
    if new != old {
        errs.push(FieldError::invalid(path, new, "field is immutable"));
    }
}

impl Strategy for CrdStrategy {
    fn info(&self) -> &ResourceInfo {
        &self.info
    }

    fn subresources(&self) -> super::strategy::Subresources {
        super::strategy::Subresources {
            status: true,
            scale: None,
        }
    }

    fn create(&self, obj: &mut Value) -> ApiResult<Admitted> {
        let (mut crd, unknown_fields) = Self::decode(obj)?;
        let mut status = self.names_status(&crd, None);
        status.insert(
            "storedVersions".to_owned(),
            json!(storage_version(&crd).into_iter().collect::<Vec<_>>()),
        );
        crd.status = Some(Value::Object(status));
        let errors = check_crd_full(&crd);
        Self::encode(&crd, obj);
        Ok(Admitted {
            unknown_fields,
            errors,
            ..Admitted::default()
        })
    }

    fn update(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        let (mut crd, unknown_fields) = Self::decode(new)?;
        let (old_crd, _) = Self::decode(old)?;
        let old_status = old.get("status");
        let mut stored = stored_versions(old_status);
        if let Some(sv) = storage_version(&crd)
            && !stored.iter().any(|s| s == sv)
        {
            stored.push(sv.to_owned());
        }
        let mut status = self.names_status(&crd, old_status);
        status.insert("storedVersions".to_owned(), json!(stored));
        crd.status = Some(Value::Object(status));
        let mut errors = Vec::new();
        let spec = FieldPath::new("spec");
        immutable(
            &spec.child("group"),
            &crd.spec.group,
            &old_crd.spec.group,
            &mut errors,
        );
        immutable(
            &spec.child("names").child("plural"),
            &crd.spec.names.plural,
            &old_crd.spec.names.plural,
            &mut errors,
        );
        if condition_true(old_status, "Established") {
            immutable(
                &spec.child("scope"),
                &crd.spec.scope,
                &old_crd.spec.scope,
                &mut errors,
            );
            immutable(
                &spec.child("names").child("kind"),
                &crd.spec.names.kind,
                &old_crd.spec.names.kind,
                &mut errors,
            );
        }
        errors.extend(
            check_crd_full(&crd)
                .into_iter()
                .filter(|e| !e.field.to_string().starts_with("status.storedVersions")),
        );
        errors.extend(stored_versions_errors(&crd, &stored));
        Self::encode(&crd, new);
        Ok(Admitted {
            unknown_fields,
            errors,
            ..Admitted::default()
        })
    }

    fn update_status(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        let status = new.get("status").cloned();
        let (_, unknown_fields) = Self::decode(new)?;
        *new = old.clone();
        if let Value::Object(m) = new {
            match status {
                Some(s) => m.insert("status".to_owned(), s),
                None => m.remove("status"),
            };
        }
        let (crd, _) = Self::decode(new)?;
        let errors = stored_versions_errors(&crd, &stored_versions(new.get("status")));
        Ok(Admitted {
            unknown_fields,
            errors,
            ..Admitted::default()
        })
    }

    fn fields(&self, obj: &Value) -> BTreeMap<String, String> {
        let mut f = BTreeMap::new();
        f.insert(
            "metadata.name".to_owned(),
            crate::object::name(obj).to_owned(),
        );
        f
    }

    fn table(&self, objs: &[&Value], _now: i64) -> Table {
        Table {
            columns: vec![
                name_column(),
                column("Created At", "date", "", CREATION_DESCRIPTION, 0),
            ],
            rows: objs
                .iter()
                .map(|o| {
                    vec![
                        json!(crate::object::name(o)),
                        json!(crate::object::meta_str(o, "creationTimestamp").unwrap_or("")),
                    ]
                })
                .collect(),
        }
    }

    fn mark_deleting(&self, obj: &mut Value, now: i64) {
        let mut fins = crate::object::finalizers(obj);
        if !fins.iter().any(|f| f == CLEANUP_FINALIZER) {
            fins.push(CLEANUP_FINALIZER.to_owned());
        }
        crate::object::set_finalizers(obj, &fins);
        set_condition(
            obj,
            condition(
                "Terminating",
                "True",
                "InstanceDeletionPending",
                "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
                &clock::format(now),
            ),
        );
    }

    fn always_marks(&self) -> bool {
        true
    }

    fn field_manager(&self) -> Arc<FieldManager> {
        Arc::clone(&self.field_manager)
    }
}

/// Whether a condition of a CRD `status` is `True`.
#[must_use]
pub fn condition_true(status: Option<&Value>, ty: &str) -> bool {
    super::custom_resource::condition_status(status, ty) == Some("True")
}

/// Sets (or replaces, by type) a condition in `obj`'s `status.conditions`.
pub fn set_condition(obj: &mut Value, cond: Value) {
    let Value::Object(m) = obj else { return };
    let status = m
        .entry("status")
        .or_insert_with(|| Value::Object(Map::new()));
    if !status.is_object() {
        *status = Value::Object(Map::new());
    }
    let Value::Object(s) = status else { return };
    let conds = s
        .entry("conditions")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !conds.is_array() {
        *conds = Value::Array(Vec::new());
    }
    let Value::Array(list) = conds else { return };
    match list.iter_mut().find(|c| c.get("type") == cond.get("type")) {
        Some(c) => *c = cond,
        None => list.push(cond),
    }
}

#[cfg(test)]
mod tests;
