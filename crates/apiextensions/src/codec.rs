//! Reading a stored custom object at another version: the API server's codec around a
//! converter.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/customresource_handler.go` (the storage codec
//! of `crdConversionRESTOptionsGetter`: `schemaCoercingDecoder` and `unstructuredDefaulter` at
//! the stored version, then `schemaCoercingConverter`, which coerces the converted object to the
//! target version's schema) and `pkg/apiserver/conversion/converter.go` (`crConverter`: the
//! group-version checks) and `nop_converter.go` (the `None` strategy: only `apiVersion`
//! changes). With `None` and schemas that differ between versions, this is where data goes:
//! fields the target version does not specify are pruned, as the versioning page warns.
//!
//! ```
//! use crdkit_apiextensions::codec::Codec;
//! use crdkit_schema::crd::CustomResourceDefinition;
//! use serde_json::json;
//!
//! // The versioning page's two versions, here with different schemas.
//! let crd: CustomResourceDefinition = serde_json::from_value(json!({
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!              "names": {"plural": "crontabs", "kind": "CronTab"},
//!              "versions": [
//!         {"name": "v1beta1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
//!             "type": "object", "properties": {"hostPort": {"type": "string"}}}}},
//!         {"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {
//!             "type": "object", "properties": {"host": {"type": "string"},
//!                                               "port": {"type": "string", "default": "80"}}}}}]}
//! })).unwrap();
//! let codec = Codec::new(&crd).unwrap();
//! let stored = json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
//!                     "metadata": {"name": "local-crontab"}, "hostPort": "localhost:1234"});
//! let read = codec.convert_none(stored, "v1").unwrap();
//! // hostPort is pruned; port is not defaulted (reading applies the stored version's defaults).
//! assert_eq!(read, json!({"apiVersion": "example.com/v1", "kind": "CronTab",
//!                         "metadata": {"name": "local-crontab"}}));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::validate::{CompiledSchema, ResourceInfo};
use crdkit_apimachinery::field::FieldError;
use crdkit_schema::Structural;
use crdkit_schema::crd::CustomResourceDefinition;

/// Why an object cannot be read at another version.
#[derive(Clone, Debug, PartialEq)]
pub enum ConvertError {
    /// The target is not a version of the CRD: `request to convert CR to an invalid
    /// group/version: example.com/v3`.
    InvalidTarget(String),
    /// The object's `apiVersion` is not a version of the CRD: `request to convert CR from an
    /// invalid group/version: example.com/v0`.
    InvalidSource(String),
    /// The object is not of the CRD's kind.
    WrongKind {
        /// The CRD's kind.
        want: String,
        /// The object's.
        got: String,
    },
    /// A version's schema is not structural (the API server would not serve the CRD).
    Schema(String),
    /// The object's `metadata`, `apiVersion` or `kind` does not decode.
    Decode(FieldError),
    /// The converter failed (a webhook's message).
    Converter(String),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::InvalidTarget(gv) => {
                write!(f, "request to convert CR to an invalid group/version: {gv}")
            }
            ConvertError::InvalidSource(gv) => {
                write!(
                    f,
                    "request to convert CR from an invalid group/version: {gv}"
                )
            }
            ConvertError::WrongKind { want, got } => {
                write!(f, "the object's kind is {got:?}, not {want:?}")
            }
            ConvertError::Schema(e) => write!(f, "the schema is not structural: {e}"),
            ConvertError::Decode(e) => e.fmt(f),
            ConvertError::Converter(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ConvertError {}

/// The compiled schemas of every version of a CRD, to read objects at any version.
#[derive(Debug)]
pub struct Codec {
    group: String,
    kind: String,
    preserve_unknown_fields: bool,
    /// By version name; `None` for a version without a schema.
    schemas: BTreeMap<String, Option<CompiledSchema>>,
}

impl Codec {
    /// Compiles the schema of each version of `crd`.
    ///
    /// # Errors
    /// [`ConvertError::Schema`] when a schema is not structural.
    pub fn new(crd: &CustomResourceDefinition) -> Result<Codec, ConvertError> {
        let mut schemas = BTreeMap::new();
        for v in &crd.spec.versions {
            let compiled = match v
                .schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
            {
                Some(props) => {
                    let structural = Structural::from_props(props)
                        .map_err(|e| ConvertError::Schema(e.to_string()))?;
                    let info = ResourceInfo {
                        api_version: format!("{}/{}", crd.spec.group, v.name),
                        kind: crd.spec.names.kind.clone(),
                        namespaced: None,
                    };
                    Some(CompiledSchema::new(&structural).with_resource(info))
                }
                None => None,
            };
            schemas.insert(v.name.clone(), compiled);
        }
        Ok(Codec {
            group: crd.spec.group.clone(),
            kind: crd.spec.names.kind.clone(),
            preserve_unknown_fields: crd.spec.preserve_unknown_fields,
            schemas,
        })
    }

    /// `group/version` of version `version`.
    #[must_use]
    pub fn api_version(&self, version: &str) -> String {
        format!("{}/{version}", self.group)
    }

    /// `crConverter.ConvertToVersion`'s checks: the object is of the CRD's kind, and both its
    /// version and `to` are versions of the CRD (served or not). Returns the object's version.
    ///
    /// # Errors
    /// [`ConvertError::InvalidTarget`], [`ConvertError::InvalidSource`],
    /// [`ConvertError::WrongKind`].
    pub fn check(&self, obj: &Value, to: &str) -> Result<String, ConvertError> {
        let text = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or_default();
        if !self.schemas.contains_key(to) {
            return Err(ConvertError::InvalidTarget(self.api_version(to)));
        }
        let (group, version) = text("apiVersion")
            .rsplit_once('/')
            .unwrap_or(("", text("apiVersion")));
        if group != self.group || !self.schemas.contains_key(version) {
            return Err(ConvertError::InvalidSource(text("apiVersion").to_owned()));
        }
        if text("kind") != self.kind {
            return Err(ConvertError::WrongKind {
                want: self.kind.clone(),
                got: text("kind").to_owned(),
            });
        }
        Ok(version.to_owned())
    }

    /// The storage decoder and defaulter: `obj` as read from storage at its own version,
    /// pruned and coerced to that version's schema, with its defaults applied.
    ///
    /// # Errors
    /// [`ConvertError::Decode`] when its `metadata`, `apiVersion` or `kind` does not decode.
    pub fn decode(&self, obj: &mut Value, version: &str) -> Result<(), ConvertError> {
        match self.schemas.get(version).and_then(Option::as_ref) {
            Some(s) if !self.preserve_unknown_fields => s.prune_and_default(obj),
            // `preserveUnknownFields: true`: nothing is pruned, and the CRD cannot have defaults.
            _ => crate::pipeline::decode_metadata(obj),
        }
        .map(drop)
        .map_err(ConvertError::Decode)
    }

    /// `schemaCoercingConverter` after a converter: `obj`, now at `version`, pruned and coerced
    /// to that version's schema (not defaulted).
    ///
    /// # Errors
    /// [`ConvertError::Decode`] when its `metadata`, `apiVersion` or `kind` does not decode.
    pub fn coerce(&self, obj: &mut Value, version: &str) -> Result<(), ConvertError> {
        match self.schemas.get(version).and_then(Option::as_ref) {
            Some(s) if !self.preserve_unknown_fields => s.coerce(obj),
            _ => crate::pipeline::decode_metadata(obj),
        }
        .map(drop)
        .map_err(ConvertError::Decode)
    }

    /// Reads the stored `obj` at version `to` with the `None` strategy (`nopConverter`): decoded
    /// at its own version, `apiVersion` set, coerced to `to`'s schema.
    ///
    /// # Errors
    /// The [`check`](Self::check) and decoding errors.
    pub fn convert_none(&self, mut obj: Value, to: &str) -> Result<Value, ConvertError> {
        let from = self.check(&obj, to)?;
        self.decode(&mut obj, &from)?;
        if let Value::Object(map) = &mut obj {
            map.insert("apiVersion".to_owned(), Value::from(self.api_version(to)));
        }
        self.coerce(&mut obj, to)?;
        Ok(obj)
    }
}
