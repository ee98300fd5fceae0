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

use serde_json::{Map, Value};

use crate::default::{Below, is_dropped_null, item_defaults, object_defaults, prune_nulls};
pub use crate::walk::MAX_DEPTH;
use crate::walk::META_FIELDS;
use crate::walk::node::SchemaNode;
use crate::walk::trail::Trail;
use crdkit_schema::Structural;

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
/// use crdkit_apiextensions::prune::{prune, PruneOptions};
/// use crdkit_schema::{Structural, Type};
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
    prune_with(value, schema, is_resource_root, opts, Also::Nothing)
}

/// What [`prune_with`] does besides pruning, in the same pass.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Also {
    Nothing,
    /// [`prune_non_nullable_nulls_without_defaults`](crate::default::prune_non_nullable_nulls_without_defaults),
    /// which the API server runs right after pruning (neither looks at what the other changes
    /// below a field).
    DropNulls,
    /// `DropNulls`, then [`apply_defaults`](crate::default::apply_defaults) on the way back up:
    /// a level's defaults are set once the fields below it are done, which is what a later pass
    /// would find. The level of a resource root is left to the caller, to be done once its
    /// `metadata` is restored ([`Below::SetAndMeta`]).
    DropNullsAndDefault,
}

/// [`prune`] over any schema tree, with what else `also` says.
pub(crate) fn prune_with<S: SchemaNode>(
    value: &mut Value,
    schema: &S,
    is_resource_root: bool,
    opts: &PruneOptions,
    also: Also,
) -> Vec<String> {
    let mut p = Pruner {
        track: opts.track_unknown_fields,
        root_embedded: is_resource_root,
        drop_nulls: also != Also::Nothing,
        defaults: also == Also::DropNullsAndDefault,
        out: Vec::new(),
    };
    p.prune(value, Some(schema), &Trail::ROOT, 0);
    p.out.sort();
    p.out
}

struct Pruner {
    track: bool,
    /// The root is treated as `x-kubernetes-embedded-resource` (without cloning the schema).
    root_embedded: bool,
    drop_nulls: bool,
    defaults: bool,
    out: Vec<String>,
}

/// The fields to remove from an object once its entries have been visited: the unknown ones
/// (removed as `prune` does), then the nulls (removed as `prune_nulls` does, keeping the order).
#[derive(Default)]
struct Removals {
    unknown: Vec<String>,
    nulls: Vec<String>,
}

impl Removals {
    // By reference: moved, the two vectors are copied whole right after being written in pieces,
    // which stalls.
    fn apply(&self, map: &mut Map<String, Value>) {
        for k in &self.unknown {
            map.remove(k);
        }
        if !self.nulls.is_empty() {
            map.retain(|k, _| !self.nulls.contains(k));
        }
    }
}

impl Pruner {
    /// The defaults of an object whose fields are done (but those of the resource root, see
    /// [`Also::DropNullsAndDefault`]).
    fn object_defaults<S: SchemaNode>(&self, map: &mut Map<String, Value>, s: &S, depth: usize) {
        if self.defaults && s.defaults_below() && !(depth == 0 && self.root_embedded) {
            object_defaults(map, s, depth, Below::Set);
        }
    }

    /// The defaults of a list whose items are done.
    fn item_defaults<S: SchemaNode>(&self, items: &mut [Value], s: &S, depth: usize) {
        if self.defaults && s.defaults_below() {
            item_defaults(items, s.items(), depth, Below::Set);
        }
    }

    fn record(&mut self, at: &Trail, k: &str) {
        if self.track {
            self.out.push(at.child(k).dotted());
        }
    }

    /// Whether the field `k` that pruning keeps is a null to drop (then noted in `removals`).
    #[inline]
    fn drops_null<S: SchemaNode>(
        &self,
        k: &str,
        v: &Value,
        sub: Option<&S>,
        removals: &mut Removals,
    ) -> bool {
        let drop = self.drop_nulls && is_dropped_null(v, sub);
        if drop {
            removals.nulls.push(k.to_owned());
        }
        drop
    }

    /// The nulls of a field that pruning does not descend into (`apiVersion`, `kind` and
    /// `metadata` of an embedded resource). Without a schema, no null below it goes.
    fn meta_field_nulls<S: SchemaNode>(
        &self,
        k: &str,
        v: &mut Value,
        s: &S,
        depth: usize,
        removals: &mut Removals,
    ) {
        if !self.drop_nulls || !s.meta_fields_have_schema() {
            return;
        }
        let sub = s.field(k);
        if !self.drops_null(k, v, sub, removals) && sub.is_some() {
            prune_nulls(v, sub, depth + 1);
        }
    }

    /// Prunes below a field's value (scalars have nothing to prune).
    #[inline]
    fn descend<S: SchemaNode>(&mut self, v: &mut Value, sub: Option<&S>, at: &Trail, depth: usize) {
        if v.is_object() || v.is_array() {
            self.prune(v, sub, at, depth + 1);
        }
    }

    fn prune<S: SchemaNode>(&mut self, x: &mut Value, s: Option<&S>, at: &Trail, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(s) = s
            && s.preserve_unknown_fields()
        {
            self.skip_prune(x, s, at, depth);
            return;
        }
        match x {
            Value::Object(map) => {
                let Some(s) = s else {
                    if self.track {
                        for k in map.keys() {
                            self.out.push(at.child(k).dotted());
                        }
                    }
                    map.clear();
                    return;
                };
                let mut removals = Removals::default();
                let embedded = s.embedded_resource() || (depth == 0 && self.root_embedded);
                let mut cursor = 0;
                for (k, v) in map.iter_mut() {
                    if embedded && META_FIELDS.contains(&k.as_str()) {
                        self.meta_field_nulls(k, v, s, depth, &mut removals);
                        continue;
                    }
                    let sub = match s.property_at(k, &mut cursor) {
                        Some(prop) => Some(prop),
                        None => match s.additional() {
                            Some(ap) => ap,
                            None => {
                                if !META_FIELDS.contains(&k.as_str()) || !at.dotted_is_empty() {
                                    self.record(at, k);
                                }
                                removals.unknown.push(k.clone());
                                continue;
                            }
                        },
                    };
                    if !self.drops_null(k, v, sub, &mut removals) {
                        self.descend(v, sub, &at.child(k), depth);
                    }
                }
                removals.apply(map);
                self.object_defaults(map, s, depth);
            }
            Value::Array(items) => {
                let items_schema = s.and_then(SchemaNode::items);
                for (i, v) in items.iter_mut().enumerate() {
                    self.descend(v, items_schema, &at.index(i), depth);
                }
                if let Some(s) = s {
                    self.item_defaults(items, s, depth);
                }
            }
            _ => {}
        }
    }

    fn skip_prune<S: SchemaNode>(&mut self, x: &mut Value, s: &S, at: &Trail, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match x {
            Value::Object(map) => {
                let mut removals = Removals::default();
                let embedded = s.embedded_resource() || (depth == 0 && self.root_embedded);
                let mut cursor = 0;
                for (k, v) in map.iter_mut() {
                    if embedded && META_FIELDS.contains(&k.as_str()) {
                        self.meta_field_nulls(k, v, s, depth, &mut removals);
                        continue;
                    }
                    let sub = match s.property_at(k, &mut cursor) {
                        Some(prop) => Some(prop),
                        None => match s.additional() {
                            Some(ap) => ap,
                            // Kept as is: no schema below, so no nulls to drop either.
                            None => continue,
                        },
                    };
                    if !self.drops_null(k, v, sub, &mut removals) {
                        self.descend(v, sub, &at.child(k), depth);
                    }
                }
                removals.apply(map);
                self.object_defaults(map, s, depth);
            }
            Value::Array(items) => {
                if let Some(item) = s.items() {
                    for (i, v) in items.iter_mut().enumerate() {
                        self.skip_prune(v, item, &at.index(i), depth + 1);
                    }
                }
                self.item_defaults(items, s, depth);
            }
            _ => {}
        }
    }
}
