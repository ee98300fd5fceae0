//! `CoerceWithOptions`: the ObjectMeta round trip of every embedded resource.

use serde_json::{Map, Value};

use super::{get_object_meta, is_decoded};
use crate::walk::MAX_DEPTH;
use crate::walk::node::SchemaNode;
use crate::walk::trail::Trail;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_schema::Structural;

/// `CoerceWithOptions`: round-trips the `metadata` of embedded resources (and of the root if
/// `is_resource_root`) and checks that their `apiVersion` and `kind` are strings. Returns the
/// unknown metadata fields.
///
/// # Errors
/// The first `must be a string` or metadata decoding error, as `field.Invalid`.
pub fn coerce(
    path: &FieldPath,
    obj: &mut Value,
    s: &Structural,
    is_resource_root: bool,
    drop_invalid: bool,
) -> Result<Vec<String>, FieldError> {
    coerce_with(path, obj, s, is_resource_root, drop_invalid)
}

/// [`coerce`] over any schema tree; subtrees without embedded resources are skipped.
pub(crate) fn coerce_with<S: SchemaNode>(
    path: &FieldPath,
    obj: &mut Value,
    s: &S,
    is_resource_root: bool,
    drop_invalid: bool,
) -> Result<Vec<String>, FieldError> {
    let mut c = Coercer {
        base: path,
        root_embedded: is_resource_root,
        drop_invalid,
        unknown: Vec::new(),
    };
    c.node(&Trail::ROOT, obj, Some(s), 0)?;
    c.unknown.sort();
    Ok(c.unknown)
}

struct Coercer<'p> {
    base: &'p FieldPath,
    /// The root is treated as `x-kubernetes-embedded-resource` (without cloning the schema).
    root_embedded: bool,
    drop_invalid: bool,
    unknown: Vec<String>,
}

impl Coercer<'_> {
    fn node<S: SchemaNode>(
        &mut self,
        at: &Trail,
        x: &mut Value,
        s: Option<&S>,
        depth: usize,
    ) -> Result<(), FieldError> {
        let Some(s) = s else { return Ok(()) };
        let root_embedded = depth == 0 && self.root_embedded;
        if depth > MAX_DEPTH || !(s.has_embedded() || root_embedded) {
            return Ok(());
        }
        match x {
            Value::Object(map) => {
                if s.embedded_resource() || root_embedded {
                    self.embedded(at, map)?;
                }
                let mut cursor = 0;
                for (k, v) in map.iter_mut() {
                    if let Some(prop) = s.property_at(k, &mut cursor) {
                        self.node(&at.child(k), v, Some(prop), depth + 1)?;
                    } else if let Some(ap) = s.additional() {
                        self.node(&at.key(k), v, ap, depth + 1)?;
                    }
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter_mut().enumerate() {
                    self.node(&at.index(i), v, s.items(), depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn embedded(&mut self, at: &Trail, map: &mut Map<String, Value>) -> Result<(), FieldError> {
        for k in ["apiVersion", "kind"] {
            if let Some(v) = map.get(k)
                && !v.is_string()
            {
                if self.drop_invalid {
                    map.remove(k);
                } else {
                    return Err(FieldError::invalid(
                        &at.field_path(self.base).child(k),
                        BadValue::from(v),
                        "must be a string",
                    ));
                }
            }
        }
        let Some(meta) = map.get("metadata") else {
            return Ok(());
        };
        if is_decoded(meta) {
            return Ok(());
        }
        let path = at.field_path(self.base);
        match get_object_meta(meta, &path, self.drop_invalid) {
            Err(e) if !self.drop_invalid => Err(FieldError::invalid(
                &path.child("metadata"),
                BadValue::from(meta),
                e.message,
            )),
            Err(_) => Ok(()),
            Ok(m) => {
                self.unknown.extend(m.unknown_fields);
                map.insert("metadata".to_owned(), Value::Object(m.value));
                Ok(())
            }
        }
    }
}
