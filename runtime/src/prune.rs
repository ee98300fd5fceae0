//! Pruning of unknown fields.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/pruning/algorithm.go`
//! (`PruneWithOptions`) and the path bookkeeping of `pkg/apiserver/schema/options.go`.
//!
//! Fields that the schema does not specify are removed, except below
//! `x-kubernetes-preserve-unknown-fields: true` (where pruning starts again under every specified
//! property or `additionalProperties`) and for `apiVersion`, `kind` and `metadata` of the resource
//! root and of `x-kubernetes-embedded-resource` objects. Unknown fields *inside* `metadata` are
//! dropped by the ObjectMeta coercion in [`crate::objectmeta`], not here.
//!
//! What differs from Go: recursion stops at [`MAX_DEPTH`] levels (values below are left alone).

use serde_json::Value;

use crate::schema::{AdditionalProperties, Structural};

/// Nesting below which no algorithm of this crate descends (to never overflow the stack).
pub const MAX_DEPTH: usize = 1000;

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// How [`prune`] reports what it removes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PruneOptions {
    /// Return the paths of the pruned fields (`spec.foo`, `spec.list[0].bar`), as the API server
    /// does for its `unknown field` warnings; when false, [`prune`] returns an empty list.
    pub track_unknown_fields: bool,
}

impl PruneOptions {
    /// Track the pruned paths.
    #[must_use]
    pub const fn warnings() -> PruneOptions {
        PruneOptions {
            track_unknown_fields: true,
        }
    }

    /// Prune silently.
    #[must_use]
    pub const fn silent() -> PruneOptions {
        PruneOptions {
            track_unknown_fields: false,
        }
    }
}

/// Removes the fields of `value` that `schema` does not specify and returns their paths, sorted
/// (empty unless `opts.track_unknown_fields`).
///
/// With `is_resource_root`, `schema` is treated as `x-kubernetes-embedded-resource`, so the root's
/// `apiVersion`, `kind` and `metadata` are kept (and never reported).
///
/// ```
/// use crdkit_runtime::prune::{prune, PruneOptions};
/// use crdkit_runtime::schema::{Structural, Type};
/// use serde_json::json;
///
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("image".into(), Structural::of_type(Type::String));
/// let mut root = Structural::of_type(Type::Object);
/// root.properties.insert("spec".into(), spec);
///
/// let mut obj = json!({"kind": "CronTab", "spec": {"image": "x", "someRandomField": 42}});
/// let pruned = prune(&mut obj, &root, true, &PruneOptions::warnings());
/// assert_eq!(obj, json!({"kind": "CronTab", "spec": {"image": "x"}}));
/// assert_eq!(pruned, ["spec.someRandomField"]);
/// ```
pub fn prune(
    value: &mut Value,
    schema: &Structural,
    is_resource_root: bool,
    opts: &PruneOptions,
) -> Vec<String> {
    let mut p = Pruner {
        track: opts.track_unknown_fields,
        root_embedded: is_resource_root,
        path: String::new(),
        out: Vec::new(),
    };
    p.prune(value, Some(schema), 0);
    p.out.sort();
    p.out
}

/// The schema of values that are not properties: `Some(None)` for `additionalProperties: <bool>`
/// (Go's non-nil `AdditionalProperties` without a `Structural`).
pub(crate) fn additional(s: &Structural) -> Option<Option<&Structural>> {
    match &s.additional_properties {
        None => None,
        Some(AdditionalProperties::Schema(s)) => Some(Some(s)),
        Some(AdditionalProperties::Bool(_)) => Some(None),
    }
}

struct Pruner {
    track: bool,
    /// The root is treated as `x-kubernetes-embedded-resource` (without cloning the schema).
    root_embedded: bool,
    path: String,
    out: Vec<String>,
}

impl Pruner {
    fn push_key(&mut self, k: &str) -> usize {
        let len = self.path.len();
        if self.track {
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(k);
        }
        len
    }

    fn push_index(&mut self, i: usize) -> usize {
        let len = self.path.len();
        if self.track {
            use std::fmt::Write as _;
            let _ = write!(self.path, "[{i}]");
        }
        len
    }

    fn record(&mut self, k: &str) {
        if self.track {
            let len = self.push_key(k);
            self.out.push(self.path.clone());
            self.path.truncate(len);
        }
    }

    fn prune(&mut self, x: &mut Value, s: Option<&Structural>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(s) = s
            && s.extensions.preserve_unknown_fields
        {
            self.skip_prune(x, s, depth);
            return;
        }
        match x {
            Value::Object(map) => {
                let Some(s) = s else {
                    let keys: Vec<String> = map.keys().cloned().collect();
                    for k in keys {
                        self.record(&k);
                    }
                    map.clear();
                    return;
                };
                let mut unknown = Vec::new();
                let embedded = s.extensions.embedded_resource || (depth == 0 && self.root_embedded);
                for (k, v) in map.iter_mut() {
                    if embedded && META_FIELDS.contains(&k.as_str()) {
                        continue;
                    }
                    let sub = match s.properties.get(k) {
                        Some(prop) => Some(prop),
                        None => match additional(s) {
                            Some(ap) => ap,
                            None => {
                                if !META_FIELDS.contains(&k.as_str()) || !self.path.is_empty() {
                                    self.record(k);
                                }
                                unknown.push(k.clone());
                                continue;
                            }
                        },
                    };
                    let len = self.push_key(k);
                    self.prune(v, sub, depth + 1);
                    self.path.truncate(len);
                }
                for k in unknown {
                    map.remove(&k);
                }
            }
            Value::Array(items) => {
                let items_schema = s.and_then(|s| s.items.as_deref());
                for (i, v) in items.iter_mut().enumerate() {
                    let len = self.push_index(i);
                    self.prune(v, items_schema, depth + 1);
                    self.path.truncate(len);
                }
            }
            _ => {}
        }
    }

    fn skip_prune(&mut self, x: &mut Value, s: &Structural, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match x {
            Value::Object(map) => {
                let embedded = s.extensions.embedded_resource || (depth == 0 && self.root_embedded);
                for (k, v) in map.iter_mut() {
                    if embedded && META_FIELDS.contains(&k.as_str()) {
                        continue;
                    }
                    let sub = match s.properties.get(k) {
                        Some(prop) => Some(prop),
                        None => match additional(s) {
                            Some(ap) => ap,
                            None => continue,
                        },
                    };
                    let len = self.push_key(k);
                    self.prune(v, sub, depth + 1);
                    self.path.truncate(len);
                }
            }
            Value::Array(items) => {
                if let Some(item) = s.items.as_deref() {
                    for (i, v) in items.iter_mut().enumerate() {
                        let len = self.push_index(i);
                        self.skip_prune(v, item, depth + 1);
                        self.path.truncate(len);
                    }
                }
            }
            _ => {}
        }
    }
}
