//! Defaulting, and the removal of nulls that must not stay.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/defaulting/algorithm.go` (`Default`) and
//! `prunenulls.go` (`PruneNonNullableNullsWithoutDefaults`).
//!
//! The API server runs [`prune_non_nullable_nulls_without_defaults`] right after pruning (while
//! decoding) and [`apply_defaults`] afterwards; the pipeline module gets the same result folding
//! both into the pruning pass where it can (it applies each level of [`apply_defaults`] on the way
//! back up, once the level below is done). A `default: null` counts as no
//! default, as in Go (where it decodes to a nil `JSON.Object`).
//!
//! What differs from Go: recursion stops at [`crate::walk::MAX_DEPTH`] levels.

use serde_json::{Map, Value};

use crate::walk::node::SchemaNode;
use crate::walk::{MAX_DEPTH, META_FIELDS};
use crdkit_schema::Structural;

/// `x` is null and the schema does not allow that.
fn is_non_nullable_null<S: SchemaNode>(x: &Value, s: Option<&S>) -> bool {
    x.is_null() && s.is_some_and(|s| !s.nullable())
}

/// `x` is a null that [`prune_non_nullable_nulls_without_defaults`] removes.
pub(crate) fn is_dropped_null<S: SchemaNode>(x: &Value, s: Option<&S>) -> bool {
    x.is_null() && s.is_some_and(|s| !s.nullable() && s.default_value().is_none())
}

/// Sets the defaults of `schema` into `value`, deep-copying each default.
///
/// A property is defaulted when it is missing, or when it is `null` and not `nullable`; values of
/// `additionalProperties` and list items only in the latter case. Defaults are applied before the
/// value below them is visited, so defaults inside defaults apply too.
///
/// ```
/// use crdkit_apiextensions::default::apply_defaults;
/// use crdkit_schema::{Structural, Type};
/// use serde_json::json;
///
/// let mut replicas = Structural::of_type(Type::Integer);
/// replicas.generic.default = Some(json!(1));
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("replicas".into(), replicas);
///
/// let mut v = json!({"image": "x"});
/// apply_defaults(&mut v, &spec);
/// assert_eq!(v, json!({"image": "x", "replicas": 1}));
/// ```
pub fn apply_defaults(value: &mut Value, schema: &Structural) {
    default(value, schema, 0);
}

/// [`apply_defaults`] over any schema tree. Subtrees without defaults are skipped: there, the
/// algorithm only replaces nulls by nulls.
pub(crate) fn default<S: SchemaNode>(x: &mut Value, s: &S, depth: usize) {
    if depth > MAX_DEPTH || !s.defaults_below() {
        return;
    }
    match x {
        Value::Object(map) => object_defaults(map, s, depth, Below::All),
        Value::Array(items) => item_defaults(items, s.items(), depth, Below::All),
        _ => {}
    }
}

/// The values that [`object_defaults`] and [`item_defaults`] descend into once they have set
/// the defaults of their level.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Below {
    /// Every value (plain defaulting).
    All,
    /// The values they set: the others have been defaulted already (by the pruning pass).
    Set,
    /// As `Set`, and `apiVersion`, `kind` and `metadata`: the resource root, whose defaults
    /// the pruning pass leaves for after `metadata` is restored (as the API server orders it).
    SetAndMeta,
}

impl Below {
    fn descends(self, set: bool, k: &str) -> bool {
        match self {
            Below::All => true,
            Below::Set => set,
            Below::SetAndMeta => set || META_FIELDS.contains(&k),
        }
    }

    /// Whether to descend into property `k` (whose default, if any, was handled already).
    fn descends_property<S: SchemaNode>(self, k: &str, prop: &S) -> bool {
        match self {
            Below::All => true,
            Below::Set => false,
            Below::SetAndMeta => prop.default_value().is_none() && META_FIELDS.contains(&k),
        }
    }
}

/// The object level of [`default`]: missing or non-nullable null properties with a default get
/// it, non-nullable null values of `additionalProperties` get its default (or stay null).
pub(crate) fn object_defaults<S: SchemaNode>(
    map: &mut Map<String, Value>,
    s: &S,
    depth: usize,
    below: Below,
) {
    for (k, prop, d) in s.defaulted_properties() {
        let set = match map.get_mut(k) {
            None => {
                map.insert(k.to_owned(), d.clone());
                true
            }
            Some(v) if is_non_nullable_null(v, Some(prop)) => {
                *v = d.clone();
                true
            }
            Some(_) => false,
        };
        if below != Below::All
            && below.descends(set, k)
            && let Some(v) = map.get_mut(k)
        {
            default(v, prop, depth + 1);
        }
    }
    let Some(ap) = s.additional() else {
        // Only properties have a schema: visit those with defaults below.
        match below {
            Below::All => {
                for (k, prop) in s.properties_with_defaults_below() {
                    if let Some(v) = map.get_mut(k) {
                        default(v, prop, depth + 1);
                    }
                }
            }
            Below::SetAndMeta if s.meta_fields_have_schema() => {
                for k in META_FIELDS {
                    if let Some(prop) = s.property(k)
                        && below.descends_property(k, prop)
                        && let Some(v) = map.get_mut(k)
                    {
                        default(v, prop, depth + 1);
                    }
                }
            }
            Below::Set | Below::SetAndMeta => {}
        }
        return;
    };
    let mut cursor = 0;
    for (k, v) in map.iter_mut() {
        if let Some(prop) = s.property_at(k, &mut cursor) {
            if below.descends_property(k, prop) {
                default(v, prop, depth + 1);
            }
        } else {
            let set = is_non_nullable_null(v, ap);
            if set {
                *v = ap
                    .and_then(SchemaNode::default_value)
                    .cloned()
                    .unwrap_or(Value::Null);
            }
            if let Some(ap) = ap
                && below.descends(set, k)
            {
                default(v, ap, depth + 1);
            }
        }
    }
}

/// The list level of [`default`]: non-nullable null items get the items' default (or stay
/// null).
pub(crate) fn item_defaults<S: SchemaNode>(
    items: &mut [Value],
    item_schema: Option<&S>,
    depth: usize,
    below: Below,
) {
    for v in items {
        let set = is_non_nullable_null(v, item_schema);
        if set {
            *v = item_schema
                .and_then(SchemaNode::default_value)
                .cloned()
                .unwrap_or(Value::Null);
        }
        if let Some(item) = item_schema
            && (below == Below::All || set)
        {
            default(v, item, depth + 1);
        }
    }
}

/// Removes `null`s that are neither `nullable` nor defaulted (those with a default are left for
/// [`apply_defaults`] to replace). Nulls without a schema (unknown or preserved fields) stay.
///
/// ```
/// use crdkit_apiextensions::default::prune_non_nullable_nulls_without_defaults;
/// use crdkit_schema::{Structural, Type};
/// use serde_json::json;
///
/// let mut bar = Structural::of_type(Type::String);
/// bar.generic.nullable = true;
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("bar".into(), bar);
/// spec.properties.insert("baz".into(), Structural::of_type(Type::String));
///
/// let mut v = json!({"bar": null, "baz": null});
/// prune_non_nullable_nulls_without_defaults(&mut v, &spec);
/// assert_eq!(v, json!({"bar": null}));
/// ```
pub fn prune_non_nullable_nulls_without_defaults(value: &mut Value, schema: &Structural) {
    prune_nulls(value, Some(schema), 0);
}

/// [`prune_non_nullable_nulls_without_defaults`] over any schema tree.
pub(crate) fn prune_nulls<S: SchemaNode>(x: &mut Value, s: Option<&S>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match x {
        Value::Object(map) => {
            map.retain(|k, v| {
                let sub = s.and_then(|s| s.field(k));
                let drop = is_dropped_null(v, sub);
                if !drop {
                    prune_nulls(v, sub, depth + 1);
                }
                !drop
            });
        }
        Value::Array(items) => {
            let item = s.and_then(SchemaNode::items);
            for v in items {
                prune_nulls(v, item, depth + 1);
            }
        }
        _ => {}
    }
}
