//! Defaults must be pruned (and valid): `ValidateDefaults`.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/defaulting/validation.go` and, for the
//! pruning it needs, `pkg/apiserver/schema/pruning/algorithm.go` (`Prune` without recording
//! paths). Only the pruning check is done here; everything Go does after it (metadata coercion,
//! OpenAPI value validation and CEL of the default) is left to [`super::DefaultValidator`].

use serde_json::Value;

use super::{CheckOptions, DefaultNode};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_schema::{AdditionalProperties, Structural};

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// The errors of every default in `s`, the schema root at `path`.
pub(super) fn validate_defaults(
    path: &FieldPath,
    s: &Structural,
    require_pruned: bool,
    opts: &CheckOptions<'_>,
) -> Vec<FieldError> {
    // The root is a resource: validate it as an embedded one.
    let mut root = s.clone();
    root.extensions.embedded_resource = true;
    let mut w = Walk {
        require_pruned,
        opts,
        trail: Vec::new(),
        errs: Vec::new(),
    };
    w.walk(path, &root, &root, false);
    w.errs
}

struct Walk<'o, 'a> {
    require_pruned: bool,
    opts: &'o CheckOptions<'a>,
    /// From the closest resource root to the node (`None`: `items`).
    trail: Vec<Option<String>>,
    errs: Vec<FieldError>,
}

impl Walk<'_, '_> {
    fn walk(
        &mut self,
        path: &FieldPath,
        s: &Structural,
        resource_root: &Structural,
        inside_meta: bool,
    ) {
        let (resource_root, inside_meta, saved) = if s.extensions.embedded_resource {
            (s, false, Some(std::mem::take(&mut self.trail)))
        } else {
            (resource_root, inside_meta, None)
        };
        let (require_pruned, opts) = (self.require_pruned, self.opts);
        let errs = &mut self.errs;
        if let Some(default) = s.generic.default.as_ref().filter(|d| !d.is_null()) {
            if !inside_meta && require_pruned {
                let mut pruned = default.clone();
                prune(&mut pruned, Some(s), s.extensions.embedded_resource);
                if pruned != *default {
                    errs.push(FieldError::invalid(
                        &path.child("default"),
                        BadValue::from(default),
                        "must not have unknown fields",
                    ));
                }
            }
            if let Some(v) = opts.default_validator {
                errs.extend(v.validate_default(&DefaultNode {
                    path,
                    schema: s,
                    default,
                    inside_meta,
                    resource_root,
                    resource_trail: &self.trail,
                }));
            }
        }
        // additionalProperties is not followed, as in Go.
        if let Some(items) = &s.items {
            self.trail.push(None);
            self.walk(&path.child("items"), items, resource_root, inside_meta);
            self.trail.pop();
        }
        for (k, p) in &s.properties {
            let sub_meta = inside_meta
                || (s.extensions.embedded_resource && META_FIELDS.contains(&k.as_str()));
            self.trail.push(Some(k.clone()));
            self.walk(&path.child("properties").key(k), p, resource_root, sub_meta);
            self.trail.pop();
        }
        if let Some(saved) = saved {
            self.trail = saved;
        }
    }
}

/// `pruning.Prune`: drops the fields `s` does not specify, keeping `apiVersion`, `kind` and
/// `metadata` of resources untouched.
pub(super) fn prune(x: &mut Value, s: Option<&Structural>, is_resource_root: bool) {
    match s {
        Some(s) if is_resource_root && !s.extensions.embedded_resource => {
            let mut clone = s.clone();
            clone.extensions.embedded_resource = true;
            prune_at(x, Some(&clone));
        }
        Some(s) => prune_at(x, Some(s)),
        None if is_resource_root => {
            let s = Structural {
                extensions: crdkit_schema::Extensions {
                    embedded_resource: true,
                    ..Default::default()
                },
                ..Structural::default()
            };
            prune_at(x, Some(&s));
        }
        None => prune_at(x, None),
    }
}

fn additional(s: &Structural) -> Option<Option<&Structural>> {
    match &s.additional_properties {
        None => None,
        Some(AdditionalProperties::Bool(_)) => Some(None),
        Some(AdditionalProperties::Schema(a)) => Some(Some(a)),
    }
}

fn prune_at(x: &mut Value, s: Option<&Structural>) {
    if let Some(s) = s.filter(|s| s.extensions.preserve_unknown_fields) {
        skip_prune(x, s);
        return;
    }
    match x {
        Value::Object(map) => {
            let Some(s) = s else {
                map.clear();
                return;
            };
            map.retain(|k, v| {
                if s.extensions.embedded_resource && META_FIELDS.contains(&k.as_str()) {
                    return true;
                }
                if let Some(p) = s.properties.get(k) {
                    prune_at(v, Some(p));
                    true
                } else if let Some(ap) = additional(s) {
                    prune_at(v, ap);
                    true
                } else {
                    false
                }
            });
        }
        Value::Array(items) => {
            let item_schema = s.and_then(|s| s.items.as_deref());
            for v in items {
                prune_at(v, item_schema);
            }
        }
        _ => {}
    }
}

fn skip_prune(x: &mut Value, s: &Structural) {
    match x {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if s.extensions.embedded_resource && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(p) = s.properties.get(k) {
                    prune_at(v, Some(p));
                } else if let Some(ap) = additional(s) {
                    prune_at(v, ap);
                }
            }
        }
        Value::Array(items) => {
            // Go keeps skipping (not pruning) into the items.
            if let Some(item_schema) = s.items.as_deref() {
                for v in items {
                    skip_prune(v, item_schema);
                }
            }
        }
        _ => {}
    }
}
