//! The API server's request pipeline for a custom object, in its order.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/customresource_handler.go`:
//! `schemaCoercingDecoder.Decode` → `unstructuredSchemaCoercer.apply` (root `metadata` decoded
//! into `ObjectMeta`, [`prune`] with the root as embedded resource,
//! [`prune_non_nullable_nulls_without_defaults`], [`coerce`] of embedded resources, root
//! `apiVersion`/`kind`/`metadata` restored), then the versioning codec's `unstructuredDefaulter`
//! ([`apply_defaults`]); validation follows in the registry ([`CompiledSchema::validate`]). The
//! storage codec coerces `metadata` once more on the way to etcd, dropping unknown fields that
//! defaults put there; that pass is done here too, right after defaulting.
//!
//! What differs from Go: pruning and the removal of nulls happen in one pass, over the compiled
//! schema, whose flags let coercion and defaulting skip the subtrees that have nothing for them;
//! `metadata` already in its decoded form is left in place instead of being decoded into a copy.
//!
//! [`prune`]: crate::prune::prune
//! [`prune_non_nullable_nulls_without_defaults`]: crate::default::prune_non_nullable_nulls_without_defaults
//! [`coerce`]: crate::objectmeta::coerce
//! [`apply_defaults`]: crate::default::apply_defaults

use serde_json::Value;

use crate::default::{Below, default, object_defaults};
use crate::objectmeta::{coerce_with, get_object_meta, is_decoded};
use crate::prune::{Also, PruneOptions, prune_with};
use crate::validate::CompiledSchema;
use crate::walk::node::SchemaNode;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// The first step of `unstructuredSchemaCoercer.apply` alone, for objects that are not of the
/// schema's group and kind: `apiVersion` and `kind` must be strings, and root `metadata` is
/// decoded into `ObjectMeta` (unknown fields dropped and returned). Nothing is pruned or
/// defaulted.
///
/// # Errors
/// A `metadata`, `apiVersion` or `kind` the API server cannot decode.
pub(crate) fn decode_metadata(obj: &mut Value) -> Result<Vec<String>, FieldError> {
    let Value::Object(map) = obj else {
        return Ok(Vec::new());
    };
    for k in ["apiVersion", "kind"] {
        if let Some(v) = map.get(k)
            && !v.is_string()
        {
            return Err(FieldError::invalid(
                &FieldPath::new(k),
                BadValue::from(v),
                "must be a string",
            ));
        }
    }
    match map.get_mut("metadata") {
        Some(m) if !is_decoded(m) => {
            let decoded = get_object_meta(m, &FieldPath::nil(), false).map_err(|e| {
                FieldError::invalid(&FieldPath::new("metadata"), BadValue::from(&*m), e.message)
            })?;
            *m = Value::Object(decoded.value);
            Ok(decoded.unknown_fields)
        }
        _ => Ok(Vec::new()),
    }
}

impl CompiledSchema {
    /// Decodes `obj` as the API server does before validation: prunes unknown fields (also inside
    /// root and embedded `metadata`), drops non-nullable nulls without defaults, and applies
    /// defaults. Returns the unknown-field paths the API server warns about
    /// (`unknown field "spec.foo"`), sorted: `metadata` ones first, then the pruned ones, then
    /// those of embedded `metadata`.
    ///
    /// ```
    /// use crdkit_schema::{Structural, Type};
    /// use crdkit_apiextensions::validate::CompiledSchema;
    /// use serde_json::json;
    ///
    /// let mut spec = Structural::of_type(Type::Object);
    /// spec.properties.insert("image".into(), Structural::of_type(Type::String));
    /// let mut root = Structural::of_type(Type::Object);
    /// root.properties.insert("spec".into(), spec);
    ///
    /// let mut obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
    ///     "metadata": {"name": "my-new-cron-object", "bogus": 1},
    ///     "spec": {"image": "my-awesome-cron-image", "someRandomField": 42}});
    /// let unknown = CompiledSchema::new(&root).prune_and_default(&mut obj).unwrap();
    /// assert_eq!(unknown, ["metadata.bogus", "spec.someRandomField"]);
    /// assert_eq!(obj["spec"], json!({"image": "my-awesome-cron-image"}));
    /// assert_eq!(obj["metadata"], json!({"name": "my-new-cron-object"}));
    /// ```
    ///
    /// # Errors
    /// A `metadata`, `apiVersion` or `kind` the API server cannot decode (it rejects the request
    /// before validation).
    pub fn prune_and_default(&self, obj: &mut Value) -> Result<Vec<String>, FieldError> {
        self.decode(obj, true)
    }

    /// `unstructuredSchemaCoercer.apply` without defaulting: what `schemaCoercingConverter`
    /// does to an object converted to this schema's version (prunes unknown fields, also inside
    /// root and embedded `metadata`, drops non-nullable nulls without defaults). Returns the
    /// pruned paths, as [`prune_and_default`](Self::prune_and_default) does.
    ///
    /// # Errors
    /// A `metadata`, `apiVersion` or `kind` the API server cannot decode.
    pub fn coerce(&self, obj: &mut Value) -> Result<Vec<String>, FieldError> {
        self.decode(obj, false)
    }

    fn decode(&self, obj: &mut Value, defaults: bool) -> Result<Vec<String>, FieldError> {
        let mut unknown = Vec::new();
        let (mut api_version, mut kind, mut metadata) = (None, None, None);
        if let Value::Object(map) = &*obj {
            for (k, v) in map {
                match k.as_str() {
                    "apiVersion" => api_version = Some(v),
                    "kind" => kind = Some(v),
                    "metadata" => metadata = Some(v),
                    _ => {}
                }
            }
        }
        for (k, v) in [("apiVersion", api_version), ("kind", kind)] {
            if let Some(v) = v
                && !v.is_string()
            {
                return Err(FieldError::invalid(
                    &FieldPath::new(k),
                    BadValue::from(v),
                    "must be a string",
                ));
            }
        }
        let meta = match metadata {
            Some(m) if is_decoded(m) => None,
            Some(m) => {
                let decoded = get_object_meta(m, &FieldPath::nil(), false).map_err(|e| {
                    FieldError::invalid(&FieldPath::new("metadata"), BadValue::from(m), e.message)
                })?;
                unknown.extend(decoded.unknown_fields);
                Some(decoded.value)
            }
            None => None,
        };
        // Embedded resources are coerced between pruning and defaulting (which may then set
        // defaults inside their metadata): that takes separate passes.
        let embedded = self.root.has_embedded();
        let also = if embedded || !defaults {
            Also::DropNulls
        } else {
            Also::DropNullsAndDefault
        };
        unknown.extend(prune_with(
            obj,
            &self.root,
            true,
            &PruneOptions::warnings(),
            also,
        ));
        if embedded {
            unknown.extend(coerce_with(
                &FieldPath::nil(),
                obj,
                &self.root,
                false,
                false,
            )?);
        }
        if let (Some(meta), Value::Object(map)) = (meta, &mut *obj) {
            map.insert("metadata".to_owned(), Value::Object(meta));
        }
        if !defaults {
            return Ok(unknown);
        }
        if embedded {
            default(obj, &self.root, 0);
        } else if let Value::Object(map) = obj
            && self.root.defaults_below()
        {
            object_defaults(map, &self.root, 0, Below::SetAndMeta);
        }
        self.recoerce_defaulted_meta(obj)?;
        Ok(unknown)
    }

    /// The second `unstructuredSchemaCoercer.apply`, which the storage codec runs on the way to
    /// etcd (`schemaCoercingConverter`): root and embedded `metadata` are decoded into
    /// `ObjectMeta` again, so unknown fields that defaults put there are dropped, silently (test
    /// `test/integration/defaulting_test.go` `TestCustomResourceDefaultingOfMetaFields`).
    /// Validation, which runs in between, reads `metadata` as `ObjectMeta` and cannot tell the
    /// difference. Only defaults can have added anything since the first pass (a default with
    /// unknown fields outside `metadata` fails the CRD check), so schemas without defaults skip it.
    fn recoerce_defaulted_meta(&self, obj: &mut Value) -> Result<(), FieldError> {
        if !self.root.defaults_below() {
            return Ok(());
        }
        let root_meta_defaults = self
            .root
            .property("metadata")
            .is_some_and(|m| m.default_value().is_some() || m.defaults_below());
        if root_meta_defaults
            && let Value::Object(map) = &mut *obj
            && let Some(m) = map.get_mut("metadata")
            && !is_decoded(m)
        {
            let decoded = get_object_meta(m, &FieldPath::nil(), false).map_err(|e| {
                FieldError::invalid(&FieldPath::new("metadata"), BadValue::from(&*m), e.message)
            })?;
            *m = Value::Object(decoded.value);
        }
        if self.root.has_embedded() {
            coerce_with(&FieldPath::nil(), obj, &self.root, false, false)?;
        }
        Ok(())
    }

    /// [`prune_and_default`](Self::prune_and_default), then [`validate`](Self::validate).
    ///
    /// # Errors
    /// The decoding error, alone, as the API server rejects the request before validating.
    pub fn admit(&self, obj: &mut Value) -> Result<(Vec<String>, Vec<FieldError>), FieldError> {
        let unknown = self.prune_and_default(obj)?;
        Ok((unknown, self.validate(obj)))
    }
}
