//! Managed fields across the `/scale` subresource.
//!
//! Mirrors apimachinery `pkg/util/managedfields/scalehandler.go` and how apiextensions-apiserver
//! uses it for custom resources (`customresource_handler.go`: the replicas path of each version
//! from `subresources.scale.specReplicasPath`): a write to `/scale` is tracked on an
//! `autoscaling/v1` `Scale` whose managers own `.spec.replicas` where the custom object's managers
//! own the replicas path; the result is mapped back onto the custom object.

use std::collections::BTreeMap;

use crdkit_schema::crd::CustomResourceDefinition;
use crdkit_schema::{JsonSchemaProps, Structural};

use super::{FieldManager, GroupVersion};
use crate::fieldpath::{Path, PathElement, Set};
use crate::managed_fields::{Managed, ManagedFieldsEntry, decode, encode};
use crate::merge::VersionedSet;

/// `autoscaling/v1`.
pub const SCALE_GROUP_VERSION: &str = "autoscaling/v1";

fn replicas_in_scale() -> Path {
    Path(vec![
        PathElement::field("spec"),
        PathElement::field("replicas"),
    ])
}

/// The replicas path of each API version (`group/version`); `None` for versions without a scale
/// subresource (`ResourcePathMappings`).
pub type ResourcePathMappings = BTreeMap<String, Option<Path>>;

/// The replicas paths of a CRD's versions.
#[must_use]
pub fn crd_replicas_paths(crd: &CustomResourceDefinition) -> ResourcePathMappings {
    crd.spec
        .versions
        .iter()
        .map(|v| {
            let gv = GroupVersion {
                group: crd.spec.group.clone(),
                version: v.name.clone(),
            }
            .to_string();
            let path = v
                .subresources
                .as_ref()
                .and_then(|s| s.scale.as_ref())
                .map(|scale| {
                    Path(
                        scale
                            .spec_replicas_path
                            .trim_start_matches('.')
                            .split('.')
                            .map(PathElement::field)
                            .collect(),
                    )
                });
            (gv, path)
        })
        .collect()
}

/// The field manager of `autoscaling/v1` `Scale` objects (writes through `/scale`).
#[must_use]
pub fn scale_field_manager() -> FieldManager {
    let props: JsonSchemaProps = serde_json::from_value(serde_json::json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {"replicas": {"type": "integer", "format": "int32"}}},
            "status": {"type": "object", "properties": {
                "replicas": {"type": "integer", "format": "int32"},
                "selector": {"type": "string"}
            }}
        }
    }))
    .unwrap_or_default();
    let schema = Structural::from_props(&props).ok();
    FieldManager::new(schema.as_ref(), SCALE_GROUP_VERSION, "Scale")
}

/// Maps managed fields between a custom object and its `Scale` (`ScaleHandler`).
#[derive(Clone, Debug)]
pub struct ScaleHandler {
    parent: Vec<ManagedFieldsEntry>,
    group_version: String,
    mappings: ResourcePathMappings,
}

fn entries_of(managed: &Managed) -> Result<Vec<ManagedFieldsEntry>, String> {
    Ok(encode(managed)?.unwrap_or_default())
}

impl ScaleHandler {
    /// A handler for an object with managed fields `parent`, served at `group_version`.
    #[must_use]
    pub fn new(
        parent: Vec<ManagedFieldsEntry>,
        group_version: &str,
        mappings: ResourcePathMappings,
    ) -> ScaleHandler {
        ScaleHandler {
            parent,
            group_version: group_version.to_owned(),
            mappings,
        }
    }

    /// `ToSubresource`: the managers of the replicas path, owning `.spec.replicas` of the Scale.
    ///
    /// # Errors
    /// Managed fields of the parent that do not decode.
    pub fn to_subresource(&self) -> Result<Vec<ManagedFieldsEntry>, String> {
        let managed = decode(&self.parent)?;
        let mut out = Managed::default();
        for (manager, vs) in &managed.fields {
            let Some(Some(path)) = self.mappings.get(&vs.api_version) else {
                continue;
            };
            if vs.set.has(path) {
                out.fields.insert(
                    manager.clone(),
                    VersionedSet::new(
                        Set::from_paths([replicas_in_scale()]),
                        SCALE_GROUP_VERSION,
                        vs.applied,
                    ),
                );
                out.times.insert(
                    manager.clone(),
                    managed.times.get(manager).cloned().flatten(),
                );
            }
        }
        entries_of(&out)
    }

    /// `ToParent`: the parent's managed fields after a write to the Scale with `scale` managed
    /// fields: the replicas path moves to the Scale's managers.
    ///
    /// # Errors
    /// Managed fields that do not decode.
    pub fn to_parent(
        &self,
        scale: &[ManagedFieldsEntry],
    ) -> Result<Vec<ManagedFieldsEntry>, String> {
        let parent = decode(&self.parent)?;
        let mut scale_fields = decode(scale)?.fields;
        let mut out = Managed::default();
        let time = |m: &str| parent.times.get(m).cloned().flatten();
        for (manager, vs) in &parent.fields {
            let Some(path) = self.mappings.get(&vs.api_version) else {
                // A version without a mapping is dropped.
                continue;
            };
            let Some(path) = path.as_ref().filter(|p| vs.set.has(p)) else {
                out.fields.insert(manager.clone(), vs.clone());
                out.times.insert(manager.clone(), time(manager));
                continue;
            };
            if scale_fields.remove(manager).is_some() {
                // Still the Scale's manager of replicas: kept as it was.
                out.fields.insert(manager.clone(), vs.clone());
                out.times.insert(manager.clone(), time(manager));
            } else {
                let rest = vs.set.difference(&Set::from_paths([path.clone()]));
                if !rest.is_empty() {
                    out.fields.insert(
                        manager.clone(),
                        VersionedSet::new(rest, vs.api_version.clone(), vs.applied),
                    );
                    out.times.insert(manager.clone(), time(manager));
                }
            }
        }
        for (manager, vs) in scale_fields {
            if !vs.set.has(&replicas_in_scale()) {
                continue;
            }
            let path = self
                .mappings
                .get(&self.group_version)
                .cloned()
                .flatten()
                .unwrap_or_default();
            out.fields.insert(
                manager.clone(),
                VersionedSet::new(
                    Set::from_paths([path]),
                    self.group_version.clone(),
                    vs.applied,
                ),
            );
            out.times.insert(manager.clone(), time(&manager));
        }
        entries_of(&out)
    }
}
