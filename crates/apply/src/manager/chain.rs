//! The chain of managers one request goes through: tracked updates, applies, the
//! `before-first-apply` manager, kubectl's last-applied take-over, capped update managers.
//!
//! Mirrors apimachinery `pkg/util/managedfields/internal`: `skipnonapplied.go`,
//! `capmanagers.go`, `buildmanagerinfo.go`, `managedfieldsupdater.go`, `stripmeta.go`,
//! `structuredmerge.go` and `lastappliedmanager.go` (see the [`super`] module for the order).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde_json::{Value, json};

use super::{
    ANCIENT_CHANGES, BEFORE_FIRST_APPLY, CURRENT_OPERATION, FieldManager, GroupVersionKind,
    last_applied,
};
use crate::error::ApplyError;
use crate::fieldpath::serialize::remove_from_fields_v1;
use crate::fieldpath::{Path, PathElement, Set};
use crate::managed_fields::{
    self as entries, APPLY, Managed, ManagedFieldsEntry, UPDATE, identifier, object_managed_fields,
};
use crate::merge::{UpdateError, VersionedSet};
use crate::typed::{TypedValue, ValidationOptions};

/// One request through the chain of managers.
pub(super) struct Run<'a> {
    pub(super) fm: &'a FieldManager,
    pub(super) subresource: Option<&'a str>,
    pub(super) now: &'a str,
}

/// The fields nobody owns (`stripMetaManager`).
static STRIP: LazyLock<Set> = LazyLock::new(strip_set);

fn strip_set() -> Set {
    let mut s = Set::new();
    for p in [
        &["apiVersion"][..],
        &["kind"],
        &["metadata"],
        &["metadata", "name"],
        &["metadata", "namespace"],
        &["metadata", "creationTimestamp"],
        &["metadata", "selfLink"],
        &["metadata", "uid"],
        &["metadata", "clusterName"],
        &["metadata", "generation"],
        &["metadata", "managedFields"],
        &["metadata", "resourceVersion"],
    ] {
        s.insert(&Path(
            p.iter()
                .map(|f| PathElement::Field((*f).to_owned()))
                .collect(),
        ));
    }
    s
}

fn strip(managed: &mut Managed, manager: &str) {
    if let Some(vs) = managed.fields.get_mut(manager) {
        vs.set.remove(&STRIP);
        if vs.set.is_empty() {
            managed.fields.remove(manager);
        }
    }
}

/// `objectGVKNN`: `namespace/name; group/version, Kind=kind`.
fn object_gvknn(obj: &Value) -> String {
    let s = |p: &str| {
        obj.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    format!(
        "{}/{}; {}",
        s("/metadata/namespace"),
        s("/metadata/name"),
        GroupVersionKind::of(obj)
    )
}

impl Run<'_> {
    pub(super) fn gv(&self) -> &str {
        &self.fm.api_version
    }

    fn id(&self, manager: &str, operation: &str) -> String {
        let manager = if manager.is_empty() {
            "unknown"
        } else {
            manager
        };
        let api_version = if operation == UPDATE { self.gv() } else { "" };
        identifier(
            manager,
            operation,
            api_version,
            self.subresource.unwrap_or(""),
        )
    }

    /// `toVersioned` and `ObjectToTyped`.
    pub(super) fn typed(&self, obj: &Value, allow_duplicates: bool) -> Result<TypedValue, String> {
        let mut v = obj.clone();
        if let Some(m) = v.as_object_mut() {
            m.insert("apiVersion".to_owned(), json!(self.gv()));
        }
        self.typed_owned(v, allow_duplicates).map_err(|(e, _)| e)
    }

    /// [`Run::typed`] of a live object; the empty object a create starts from is typed once
    /// per field manager.
    fn typed_live<'l>(&'l self, live: &Value) -> Result<Cow<'l, TypedValue>, String> {
        if std::ptr::eq(live, &self.fm.empty)
            && let Some(tv) = self
                .fm
                .empty_typed
                .get_or_init(|| self.typed(&self.fm.empty, true).ok())
        {
            return Ok(Cow::Borrowed(tv));
        }
        self.typed(live, true).map(Cow::Owned)
    }

    /// [`Run::typed`] of an object already in the request's version, taken instead of copied;
    /// on failure, the object comes back with the error.
    fn typed_owned(&self, v: Value, allow_duplicates: bool) -> Result<TypedValue, (String, Value)> {
        let Some(schema) = self.fm.converter.schema(&self.fm.gvk.version) else {
            return Err((format!("no corresponding type for {}", self.fm.gvk), v));
        };
        if GroupVersionKind::of(&v).kind != self.fm.gvk.kind {
            return Err((
                format!("no corresponding type for {}", GroupVersionKind::of(&v)),
                v,
            ));
        }
        TypedValue::try_new(v, schema, ValidationOptions { allow_duplicates })
            .map_err(|(e, v)| (e.to_string(), v))
    }

    /// `Update` of a create by one manager (`live` the empty object of the kind, no managers
    /// kept, the main resource, `new` in the request's version): what the manager owns is all
    /// `new` sets below the root that is neither reset nor stripped, which the comparison with
    /// the empty object would find added. Written as its `FieldsV1` in one walk of the typed
    /// object: no comparison, no set, no table of managers to encode. `Err(new)` gives the object
    /// back where that walk cannot tell (the general path then runs, and reports what fails).
    pub(super) fn create(&self, new: Value, manager: &str) -> Result<Value, Value> {
        let new_typed = self.typed_owned(new, true).map_err(|(_, new)| new)?;
        if self.typed_live(&self.fm.empty).is_err() {
            return Err(new_typed.into_value());
        }
        let Some(mut fields) = new_typed.created_fields_v1() else {
            return Err(new_typed.into_value());
        };
        if let Some(reset) = self.fm.main_reset.get(self.gv()) {
            remove_from_fields_v1(&mut fields, reset, true);
        }
        remove_from_fields_v1(&mut fields, &STRIP, false);
        let entry = (!fields.is_empty()).then(|| ManagedFieldsEntry {
            manager: if manager.is_empty() {
                "unknown"
            } else {
                manager
            }
            .to_owned(),
            operation: UPDATE.to_owned(),
            api_version: self.gv().to_owned(),
            time: Some(self.now.to_owned()),
            fields_type: "FieldsV1".to_owned(),
            fields_v1: Some(Value::Object(fields)),
            subresource: String::new(),
        });
        let mut object = new_typed.into_value();
        entries::put_object_managed_fields(&mut object, entry.map(|e| vec![e]));
        Ok(object)
    }

    /// `capManagersManager.Update`.
    /// On a failure, `new` is handed back with the error.
    pub(super) fn cap_update(
        &self,
        live: &Value,
        new: Value,
        managed: Managed,
        manager: &str,
    ) -> Result<(Value, Managed), (ApplyError, Value)> {
        let id = self.id(manager, UPDATE);
        let (object, mut managed) = self.tracked_update(live, new, managed, &id)?;
        cap_update_managers(&mut managed, self.fm.max_update_managers);
        Ok((object, managed))
    }

    /// `managedFieldsUpdater.Update` over `stripMetaManager` and `structuredMergeManager`.
    fn tracked_update(
        &self,
        live: &Value,
        new: Value,
        managed: Managed,
        id: &str,
    ) -> Result<(Value, Managed), (ApplyError, Value)> {
        let new_error = |e: String, new: &Value| {
            ApplyError::Internal(format!(
                "failed to convert new object ({}) to smd typed: {e}",
                object_gvknn(new)
            ))
        };
        // An object already in the request's version is typed as it is: moved in and out, not
        // copied (a create's object is written back unchanged).
        let in_version = new.get("apiVersion").and_then(Value::as_str) == Some(self.gv());
        let (new_typed, kept) = if in_version {
            match self.typed_owned(new, true) {
                Ok(tv) => (tv, None),
                Err((e, new)) => return Err((new_error(e, &new), new)),
            }
        } else {
            match self.typed(&new, true) {
                Ok(tv) => (tv, Some(new)),
                Err(e) => return Err((new_error(e, &new), new)),
            }
        };
        let give_back = |e: ApplyError, kept: Option<Value>, new_typed: TypedValue| {
            (e, kept.unwrap_or_else(|| new_typed.into_value()))
        };
        let live_typed = match self.typed_live(live) {
            Ok(tv) => tv,
            Err(e) => {
                let e = ApplyError::Internal(format!(
                    "failed to convert live object ({}) to smd typed: {e}",
                    object_gvknn(live)
                ));
                return Err(give_back(e, kept, new_typed));
            }
        };
        let fields = match self.fm.updater(self.subresource).update(
            &live_typed,
            &new_typed,
            self.gv(),
            managed.fields,
            CURRENT_OPERATION,
        ) {
            Ok(fields) => fields,
            Err(e) => {
                let e = ApplyError::Internal(format!(
                    "failed to update ManagedFields ({}): {e}",
                    object_gvknn(kept.as_ref().unwrap_or(new_typed.value()))
                ));
                return Err(give_back(e, kept, new_typed));
            }
        };
        let mut managed = Managed {
            fields,
            times: managed.times,
        };
        strip(&mut managed, CURRENT_OPERATION);
        // What the write changed joins the manager's entry, which gets the time.
        if let Some(vs) = managed.fields.remove(CURRENT_OPERATION) {
            let merged = match managed.fields.get(id) {
                Some(previous) => {
                    VersionedSet::new(vs.set.union(&previous.set), vs.api_version, vs.applied)
                }
                None => vs,
            };
            managed.fields.insert(id.to_owned(), merged);
            managed
                .times
                .insert(id.to_owned(), Some(self.now.to_owned()));
        }
        let object = kept.unwrap_or_else(|| new_typed.into_value());
        Ok((object, managed))
    }

    /// `lastAppliedManager.Apply`: a conflicting `kubectl` apply is forced when every conflict
    /// is a field the `last-applied-configuration` annotation says kubectl set.
    pub(super) fn last_applied_apply(
        &self,
        live: &Value,
        config: &Value,
        managed: Managed,
        manager: &str,
        force: bool,
    ) -> Result<(Value, Managed), ApplyError> {
        let first = self.skip_non_applied_apply(live, config, managed.clone(), manager, force);
        if manager != "kubectl" {
            return first;
        }
        let Err(ApplyError::Conflicts(conflicts)) = first else {
            return first;
        };
        let typed = |obj: &Value| self.typed(obj, false);
        let Ok(allowed) = last_applied::allowed_conflicts(live, self.gv(), &typed) else {
            return Err(ApplyError::Conflicts(conflicts));
        };
        if !conflicts.to_set().difference(&allowed).is_empty() {
            let rest = conflicts
                .0
                .into_iter()
                .filter(|c| !allowed.has(&c.path))
                .collect();
            return Err(ApplyError::Conflicts(crate::merge::Conflicts(rest)));
        }
        self.skip_non_applied_apply(live, config, managed, manager, true)
    }

    /// `skipNonAppliedManager.Apply`: an object without managers first gets `before-first-apply`
    /// for what it holds.
    fn skip_non_applied_apply(
        &self,
        live: &Value,
        config: &Value,
        mut managed: Managed,
        manager: &str,
        force: bool,
    ) -> Result<(Value, Managed), ApplyError> {
        let mut live = live.clone();
        if managed.fields.is_empty() {
            let gvk = GroupVersionKind::of(config);
            let empty = json!({"apiVersion": gvk.group_version().to_string(), "kind": gvk.kind});
            let (l, m) = self
                .cap_update(&empty, live, managed, BEFORE_FIRST_APPLY)
                .map_err(|(e, _)| match e {
                    ApplyError::Internal(m) => ApplyError::Internal(format!(
                        "failed to create manager for existing fields: {m}"
                    )),
                    other => other,
                })?;
            live = l;
            managed = m;
        }
        self.tracked_apply(&live, config, managed, &self.id(manager, APPLY), force)
    }

    /// `managedFieldsUpdater.Apply` over `stripMetaManager` and `structuredMergeManager`.
    fn tracked_apply(
        &self,
        live: &Value,
        config: &Value,
        managed: Managed,
        id: &str,
        force: bool,
    ) -> Result<(Value, Managed), ApplyError> {
        let patch_gv = GroupVersionKind::of(config).group_version();
        if patch_gv != self.fm.gvk.group_version() {
            return Err(ApplyError::BadRequest(format!(
                "Incorrect version specified in apply patch. Specified patch version: {patch_gv}, expected: {}",
                self.fm.gvk.group_version()
            )));
        }
        if object_managed_fields(config).is_some() {
            return Err(ApplyError::BadRequest(
                "metadata.managedFields must be nil".to_owned(),
            ));
        }
        let patch_typed = self.typed(config, false).map_err(|e| {
            ApplyError::Internal(format!(
                "failed to create typed patch object ({}): {e}",
                object_gvknn(config)
            ))
        })?;
        let live_typed = self.typed(live, true).map_err(|e| {
            ApplyError::Internal(format!(
                "failed to create typed live object ({}): {e}",
                object_gvknn(live)
            ))
        })?;
        let (new, fields) = self
            .fm
            .updater(self.subresource)
            .apply(
                &live_typed,
                &patch_typed,
                self.gv(),
                managed.fields,
                id,
                force,
            )
            .map_err(|e| match e {
                UpdateError::Conflicts(c) => ApplyError::Conflicts(c),
                UpdateError::Failed(m) => ApplyError::Internal(m),
            })?;
        let mut managed = Managed {
            fields,
            times: managed.times,
        };
        strip(&mut managed, id);
        let object = match new {
            Some(new) => {
                let v = new.into_value();
                if !v.is_object() {
                    return Err(ApplyError::Internal(format!(
                        "failed to convert new typed object ({}) to object: failed to convert value to unstructured for type {}",
                        object_gvknn(config),
                        crdkit_apimachinery::gofmt::type_name(&v)
                    )));
                }
                managed
                    .times
                    .insert(id.to_owned(), Some(self.now.to_owned()));
                v
            }
            // Nothing changed: the live object, and no new time.
            None => {
                let mut v = live.clone();
                entries::set_object_managed_fields(&mut v, None);
                v
            }
        };
        Ok((object, managed))
    }
}

/// `capUpdateManagers`: beyond `max` update managers, the oldest are merged into an
/// `ancient-changes` entry per API version.
pub(super) fn cap_update_managers(managed: &mut Managed, max: usize) {
    let mut updaters: Vec<String> = managed
        .fields
        .iter()
        .filter(|(_, vs)| !vs.applied)
        .map(|(m, _)| m.clone())
        .collect();
    if updaters.len() <= max {
        return;
    }
    let secs = |m: &String| entries::seconds(managed.times.get(m).and_then(Option::as_ref));
    updaters.sort_by(|a, b| secs(a).cmp(&secs(b)).then_with(|| a.cmp(b)));
    let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for manager in &updaters {
        if length <= max {
            break;
        }
        let Some(vs) = managed.fields.get(manager).cloned() else {
            continue;
        };
        let time = managed.times.get(manager).cloned().flatten();
        let version = vs.api_version.clone();
        let bucket = identifier(ANCIENT_CHANGES, UPDATE, &version, "");
        if let Some(first) = first_of_version.get(&version) {
            if !managed.fields.contains_key(&bucket)
                && let Some(s) = managed.fields.remove(first)
            {
                managed.fields.insert(bucket.clone(), s);
            }
            let union = managed
                .fields
                .get(&bucket)
                .map_or_else(|| vs.set.clone(), |b| vs.set.union(&b.set));
            managed.fields.insert(
                bucket.clone(),
                VersionedSet::new(union, version, vs.applied),
            );
            managed.fields.remove(manager);
            length -= 1;
            managed.times.insert(bucket, time);
        } else {
            first_of_version.insert(version, manager.clone());
        }
    }
}
