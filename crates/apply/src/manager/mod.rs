//! The API server's field manager: server-side apply and ownership tracking of writes for a
//! custom resource, with `metadata.managedFields`.
//!
//! Mirrors apimachinery `pkg/util/managedfields` as `NewDefaultCRDFieldManager` assembles it, a
//! chain of managers each adding one rule (outermost first):
//!
//! 1. `fieldmanager.go`: managed fields read from the live object (or, on writes, from the new one
//!    unless it resets them) and written back into the result;
//! 2. `versioncheck.go`: the applied object's apiVersion and kind are the request's;
//! 3. `lastappliedupdater.go`, `lastappliedmanager.go`: `kubectl` applies keep the client-side
//!    `last-applied-configuration` annotation up to date and may take over fields it listed;
//! 4. `skipnonapplied.go`: an object without managed fields gets a `before-first-apply` manager for
//!    what it holds before its first apply; writes to it are not tracked until then;
//! 5. `capmanagers.go`: at most ten update managers, the oldest merged into `ancient-changes`;
//! 6. `buildmanagerinfo.go`: managers identified by name, operation, API version, subresource;
//! 7. `managedfieldsupdater.go`: entry times, and updates merged into the manager's entry;
//! 8. `stripmeta.go`: apiVersion, kind and the server-owned metadata fields owned by nobody;
//! 9. `structuredmerge.go`: typing by the schema, then [`crate::merge::Updater`].

mod chain;
mod convert;
mod last_applied;
pub mod scale;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};

use crdkit_schema::Structural;
use crdkit_schema::crd::CustomResourceDefinition;

use crate::error::ApplyError;
use crate::fieldpath::{Path, PathElement, Set};
use crate::merge::Updater;
use crate::schema::Schema;
use crate::typed::TypedValue;

use crate::managed_fields::{self as entries, decode, encode, is_reset, object_managed_fields};
pub use crate::managed_fields::{Managed, ManagedFieldsEntry};
use chain::Run;
pub use convert::{GroupVersion, GroupVersionKind, VersionConverter};

/// The manager of what an object held before its first apply.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";
/// The bucket the oldest update managers are merged into.
pub const ANCIENT_CHANGES: &str = "ancient-changes";
/// How many update managers an object keeps before merging the oldest.
pub const MAX_UPDATE_MANAGERS: usize = 10;
/// The manager name an update works under before its fields join the real manager's entry.
pub(crate) const CURRENT_OPERATION: &str = "current-operation";

/// The server-side apply engine of one custom resource version.
///
/// ```
/// use crdkit_apply::FieldManager;
/// use crdkit_schema::{JsonSchemaProps, Structural};
/// use serde_json::json;
///
/// let props: JsonSchemaProps = serde_json::from_value(json!({
///     "type": "object",
///     "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}
/// })).unwrap();
/// let schema = Structural::from_props(&props).unwrap();
/// let fm = FieldManager::new(Some(&schema), "stable.example.com/v1", "CronTab");
/// let config = json!({
///     "apiVersion": "stable.example.com/v1", "kind": "CronTab",
///     "metadata": {"name": "c"}, "spec": {"replicas": 1}
/// });
/// let created = fm.apply(None, &config, "kubectl", false, None, "2024-01-01T00:00:00Z").unwrap();
/// assert_eq!(created["metadata"]["managedFields"][0]["manager"], "kubectl");
/// assert_eq!(created["metadata"]["managedFields"][0]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
///
/// // Another manager may not change a field kubectl applied, unless forced.
/// let mut scaled = config.clone();
/// scaled["spec"]["replicas"] = json!(3);
/// let err = fm.apply(Some(&created), &scaled, "hpa", false, None, "2024-01-01T00:00:01Z").unwrap_err();
/// assert_eq!(err.to_string(), r#"Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas"#);
/// assert_eq!(err.code(), 409);
/// ```
#[derive(Clone, Debug)]
pub struct FieldManager {
    gvk: GroupVersionKind,
    /// `gvk`'s `group/version`, and the empty object of the kind ([`FieldManager::new_object`]):
    /// every write asks for them.
    api_version: String,
    empty: Value,
    /// `empty` typed, made when a create first needs it (`None`: it does not type, and each
    /// create reports why).
    empty_typed: OnceLock<Option<TypedValue>>,
    converter: VersionConverter,
    /// Fields reset (owned by nobody) on the main resource, per API version.
    main_reset: BTreeMap<String, Set>,
    /// Fields reset on the `status` subresource, per API version.
    status_reset: BTreeMap<String, Set>,
    /// How many update managers an object keeps.
    max_update_managers: usize,
}

/// A set of top-level fields.
fn top_level(names: &[&str]) -> Set {
    Set::from_paths(
        names
            .iter()
            .map(|n| Path(vec![PathElement::Field((*n).to_owned())])),
    )
}

impl FieldManager {
    /// A field manager for objects of `api_version` (`group/version`) and `kind` with the
    /// structural `schema` of that version (`None`: merged as schemaless, all deduced), without
    /// a status subresource.
    #[must_use]
    pub fn new(schema: Option<&Structural>, api_version: &str, kind: &str) -> FieldManager {
        let gv = GroupVersion::parse(api_version).unwrap_or_default();
        let mut schemas = BTreeMap::new();
        schemas.insert(
            gv.version.clone(),
            Arc::new(Schema::for_custom_resource(schema, false)),
        );
        FieldManager::of(
            GroupVersionKind {
                group: gv.group.clone(),
                version: gv.version,
                kind: kind.to_owned(),
            },
            VersionConverter::new(&gv.group, kind, schemas),
            BTreeMap::new(),
            BTreeMap::new(),
        )
    }

    fn of(
        gvk: GroupVersionKind,
        converter: VersionConverter,
        main_reset: BTreeMap<String, Set>,
        status_reset: BTreeMap<String, Set>,
    ) -> FieldManager {
        let api_version = gvk.group_version().to_string();
        let empty = json!({"apiVersion": api_version, "kind": gvk.kind});
        FieldManager {
            gvk,
            api_version,
            empty,
            empty_typed: OnceLock::new(),
            converter,
            main_reset,
            status_reset,
            max_update_managers: MAX_UPDATE_MANAGERS,
        }
    }

    /// The field manager of `version` of a CRD, as the API server builds it: the schemas of every
    /// version (managers may own fields in any), and the reset fields of the status subresource
    /// (`status` on the main resource; `metadata` and `spec` on `/status`).
    ///
    /// A version without a usable structural schema is merged as schemaless; a CRD with
    /// `spec.conversion.strategy: Webhook` needs [`FieldManager::with_converter`] for managers of
    /// other versions (they are otherwise converted by changing `apiVersion` only).
    #[must_use]
    pub fn for_crd(crd: &CustomResourceDefinition, version: &str) -> FieldManager {
        let spec = &crd.spec;
        let mut schemas = BTreeMap::new();
        let mut main_reset = BTreeMap::new();
        let mut status_reset = BTreeMap::new();
        for v in &spec.versions {
            let structural = v
                .schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
                .and_then(|p| Structural::from_props(p).ok());
            schemas.insert(
                v.name.clone(),
                Arc::new(Schema::for_custom_resource(
                    structural.as_ref(),
                    spec.preserve_unknown_fields,
                )),
            );
            let has_status = v.subresources.as_ref().is_some_and(|s| s.status.is_some());
            let gv = GroupVersion {
                group: spec.group.clone(),
                version: v.name.clone(),
            }
            .to_string();
            if has_status {
                if v.name == version {
                    main_reset.insert(gv.clone(), top_level(&["status"]));
                }
                status_reset.insert(gv, top_level(&["metadata", "spec"]));
            }
        }
        FieldManager::of(
            GroupVersionKind {
                group: spec.group.clone(),
                version: version.to_owned(),
                kind: spec.names.kind.clone(),
            },
            VersionConverter::new(&spec.group, &spec.names.kind, schemas),
            main_reset,
            status_reset,
        )
    }

    /// This field manager with the reset fields of a status subresource on (for [`FieldManager::new`]).
    #[must_use]
    pub fn with_status_subresource(mut self) -> FieldManager {
        let gv = self.api_version.clone();
        self.main_reset.insert(gv.clone(), top_level(&["status"]));
        self.status_reset
            .insert(gv, top_level(&["metadata", "spec"]));
        self
    }

    /// This field manager converting between versions with `converter`.
    #[must_use]
    pub fn with_converter(mut self, converter: VersionConverter) -> FieldManager {
        self.converter = converter;
        self.empty_typed = OnceLock::new();
        self
    }

    /// This field manager keeping at most `n` update managers (the API server keeps
    /// [`MAX_UPDATE_MANAGERS`]).
    #[must_use]
    pub fn with_max_update_managers(mut self, n: usize) -> FieldManager {
        self.max_update_managers = n;
        self
    }

    /// The request's group, version and kind.
    #[must_use]
    pub fn gvk(&self) -> &GroupVersionKind {
        &self.gvk
    }

    /// An empty object of the kind (`creater.New`): what create and apply-create start from.
    #[must_use]
    pub fn new_object(&self) -> Value {
        self.empty.clone()
    }

    fn updater(&self, subresource: Option<&str>) -> Updater<'_> {
        let mut u = Updater::new(&self.converter);
        u.ignored_fields = match subresource {
            None | Some("") => Cow::Borrowed(&self.main_reset),
            Some("status") => Cow::Borrowed(&self.status_reset),
            Some(_) => Cow::Owned(BTreeMap::new()),
        };
        u
    }

    /// Server-side apply (`FieldManager.Apply`): `config` (an `application/apply-patch+yaml`
    /// body, decoded) applied by `manager` to `live` (`None`: the object does not exist and is
    /// created). Returns the new object with its `metadata.managedFields`; `now` (RFC 3339) is
    /// the time of the changed entries.
    ///
    /// The result is what the API server's field manager hands on: the caller still runs the
    /// registry (status or main resource strategy, defaulting, validation, name checks).
    ///
    /// # Errors
    /// [`ApplyError::Conflicts`] (409) unless `force`; [`ApplyError::BadRequest`] for a config of
    /// another apiVersion or kind or with `metadata.managedFields`; [`ApplyError::Internal`] for
    /// values that do not fit the schema and undecodable managed fields of `live`.
    pub fn apply(
        &self,
        live: Option<&Value>,
        config: &Value,
        manager: &str,
        force: bool,
        subresource: Option<&str>,
        now: &str,
    ) -> Result<Value, ApplyError> {
        let live = live.cloned().unwrap_or_else(|| self.new_object());
        let entries = object_managed_fields(&live).unwrap_or_default();
        let managed = decode(&entries)
            .map_err(|e| ApplyError::Internal(format!("failed to decode managed fields: {e}")))?;
        let run = Run {
            fm: self,
            subresource: subresource.filter(|s| !s.is_empty()),
            now: &normalize_time(now),
        };
        // versionCheckManager
        let gvk = GroupVersionKind::of(config);
        if gvk != self.gvk {
            return Err(ApplyError::BadRequest(format!(
                "invalid object type: {gvk}"
            )));
        }
        let (mut object, managed) =
            run.last_applied_apply(&live, config, managed, manager, force)?;
        // lastAppliedUpdater
        if manager == "kubectl" && last_applied::has_last_applied(&object) {
            last_applied::set_last_applied(&mut object, &last_applied::build_last_applied(config));
        }
        write_managed(&mut object, &managed)?;
        Ok(object)
    }

    /// Ownership after a write that is not an apply (create, update, JSON or merge patch) by
    /// `manager`, as `FieldManager.UpdateNoErrors`: `new` with its `metadata.managedFields` set;
    /// on a failure, `new` with the managed fields of `live`.
    #[must_use]
    pub fn update(
        &self,
        live: Option<&Value>,
        new: &Value,
        manager: &str,
        subresource: Option<&str>,
        now: &str,
    ) -> Value {
        self.update_owned(live, new.clone(), manager, subresource, now)
    }

    /// [`FieldManager::update`] taking `new`, which becomes the result (not copied).
    #[must_use]
    pub fn update_owned(
        &self,
        live: Option<&Value>,
        new: Value,
        manager: &str,
        subresource: Option<&str>,
        now: &str,
    ) -> Value {
        match self.update_or_give_back(live, new, manager, subresource, now) {
            Ok(v) => v,
            Err((_, mut out)) => {
                let entries = live.and_then(object_managed_fields);
                entries::set_object_managed_fields(&mut out, entries.as_deref());
                out
            }
        }
    }

    /// [`FieldManager::update`] with its failure (`FieldManager.Update`).
    ///
    /// # Errors
    /// [`ApplyError::Internal`] for objects that do not fit the schema.
    pub fn try_update(
        &self,
        live: Option<&Value>,
        new: &Value,
        manager: &str,
        subresource: Option<&str>,
        now: &str,
    ) -> Result<Value, ApplyError> {
        self.update_or_give_back(live, new.clone(), manager, subresource, now)
            .map_err(|(e, _)| e)
    }

    /// [`FieldManager::try_update`] on an owned `new`, handed back with the error (its
    /// `managedFields` may be gone: the caller replaces them).
    fn update_or_give_back(
        &self,
        live: Option<&Value>,
        mut new: Value,
        manager: &str,
        subresource: Option<&str>,
        now: &str,
    ) -> Result<Value, (ApplyError, Value)> {
        let subresource = subresource.filter(|s| !s.is_empty());
        // The live object is read, never changed: borrowed, not copied.
        let live = live.unwrap_or(&self.empty);
        let managed = decode_live_or_new(live, &new, subresource.is_some());
        entries::set_object_managed_fields(&mut new, None);
        let run = Run {
            fm: self,
            subresource,
            now: &normalize_time(now),
        };
        // A create by one manager is written in one walk (`Run::create`), where it can be.
        let new = if std::ptr::eq(live, &self.empty)
            && managed.fields.is_empty()
            && subresource.is_none()
            && new.get("apiVersion").and_then(Value::as_str) == Some(self.api_version.as_str())
            && new.get("kind") == self.empty.get("kind")
        {
            match run.create(new, manager) {
                Ok(object) => return Ok(object),
                Err(new) => new,
            }
        } else {
            new
        };
        // skipNonAppliedManager: untracked objects stay untracked until their first apply; a
        // create starts tracking.
        let (mut object, managed) = if managed.fields.is_empty() && has_uid(live) {
            (new, managed)
        } else {
            run.cap_update(live, new, managed, manager)?
        };
        if let Err(e) = write_managed(&mut object, &managed) {
            return Err((e, object));
        }
        Ok(object)
    }
}

/// `now` as the API server prints times (RFC 3339, seconds, UTC), or as given.
fn normalize_time(now: &str) -> String {
    crdkit_apimachinery::goparse::parse_rfc3339(now).map_or_else(
        |_| now.to_owned(),
        crdkit_apimachinery::goparse::format_rfc3339,
    )
}

fn has_uid(obj: &Value) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("uid"))
        .and_then(Value::as_str)
        .is_some_and(|u| !u.is_empty())
}

fn write_managed(object: &mut Value, managed: &Managed) -> Result<(), ApplyError> {
    let encoded = encode(managed).map_err(|e| {
        ApplyError::Internal(format!(
            "failed to encode managed fields: failed to convert back managed fields to API: {e}"
        ))
    })?;
    entries::put_object_managed_fields(object, encoded);
    Ok(())
}

/// `decodeLiveOrNew`: a subresource write keeps the live object's managed fields; otherwise the
/// new object's, unless they are empty or do not decode (then the live ones), or reset them.
fn decode_live_or_new(live: &Value, new: &Value, subresource: bool) -> Managed {
    let live_managed = || {
        object_managed_fields(live)
            .and_then(|e| decode(&e).ok())
            .unwrap_or_default()
    };
    if subresource {
        return live_managed();
    }
    let new_entries = object_managed_fields(new);
    if is_reset(new_entries.as_deref()) {
        return Managed::default();
    }
    match new_entries.map(|e| decode(&e)) {
        Some(Ok(m)) if !m.fields.is_empty() => m,
        _ => live_managed(),
    }
}
