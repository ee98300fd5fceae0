//! One version of a CRD as the API server serves it: objects admitted on create and update, in
//! the server's order, from any `CustomResourceDefinition` (read from a file or built by the
//! derive).
//!
//! The order is apiextensions-apiserver's: the request body is decoded (pruning, nulls, embedded
//! `ObjectMeta`, defaults: [`CompiledSchema::prune_and_default`]), the registry strategy applies
//! the status subresource (`pkg/registry/customresource/strategy.go`: create drops `status`,
//! an update of the main resource keeps the stored one; `status_strategy.go`: an update through
//! `/status` keeps everything but `status`), then validation runs (OpenAPI, scale paths, CEL
//! rules, ratcheting on update).

use std::fmt;

use serde_json::Value;

use crate::validate::{CompiledSchema, ResourceInfo};
use crdkit_apimachinery::field::FieldError;
use crdkit_schema::Structural;
use crdkit_schema::crd::CustomResourceDefinition;

/// A served version of a CRD, compiled once to admit many objects.
#[derive(Debug)]
pub struct Admission {
    api_version: String,
    kind: String,
    schema: CompiledSchema,
    status_subresource: bool,
}

/// What admitting an object found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Admitted {
    /// Fields the decoder pruned, as the API server's "unknown field" warnings name them.
    pub unknown_fields: Vec<String>,
    /// Every error, in the API server's order; empty when the object is accepted. A decoding
    /// error stands alone (the request is rejected before validation).
    pub errors: Vec<FieldError>,
    /// Whether `errors` is that decoding error (nothing was validated).
    pub decoding_failed: bool,
}

impl Admitted {
    /// Whether the API server accepts the object.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Why a CRD version cannot admit objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdmissionError {
    /// The CRD has no version of that name.
    NoSuchVersion(String),
    /// The version exists but is not served.
    NotServed(String),
    /// The version has no `openAPIV3Schema`.
    NoSchema(String),
    /// The schema does not convert to a structural schema.
    Schema(String),
    /// An update through `/status` of a version without the status subresource.
    NoStatusSubresource,
}

impl fmt::Display for AdmissionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdmissionError::NoSuchVersion(v) => write!(f, "the CRD has no version {v}"),
            AdmissionError::NotServed(v) => write!(f, "version {v} is not served"),
            AdmissionError::NoSchema(v) => write!(f, "version {v} has no schema"),
            AdmissionError::Schema(e) => write!(f, "the schema is not structural: {e}"),
            AdmissionError::NoStatusSubresource => f.write_str("there is no status subresource"),
        }
    }
}

impl std::error::Error for AdmissionError {}

impl Admission {
    /// Compiles version `version` of `crd`.
    ///
    /// # Errors
    /// When the version does not exist, is not served, or has no usable schema.
    pub fn new(crd: &CustomResourceDefinition, version: &str) -> Result<Admission, AdmissionError> {
        let v = crd
            .spec
            .versions
            .iter()
            .find(|v| v.name == version)
            .ok_or_else(|| AdmissionError::NoSuchVersion(version.to_owned()))?;
        if !v.served {
            return Err(AdmissionError::NotServed(version.to_owned()));
        }
        let props = v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .ok_or_else(|| AdmissionError::NoSchema(version.to_owned()))?;
        let structural =
            Structural::from_props(props).map_err(|e| AdmissionError::Schema(e.to_string()))?;
        // The core group (a built-in kind described as a CRD) has bare versions.
        let api_version = if crd.spec.group.is_empty() {
            v.name.clone()
        } else {
            format!("{}/{}", crd.spec.group, v.name)
        };
        let kind = crd.spec.names.kind.clone();
        let info = ResourceInfo {
            api_version: api_version.clone(),
            kind: kind.clone(),
            namespaced: None,
        };
        let subresources = v.subresources.as_ref();
        Ok(Admission {
            api_version,
            kind,
            schema: CompiledSchema::new(&structural)
                .with_resource(info)
                .with_scale(subresources.and_then(|s| s.scale.clone())),
            status_subresource: subresources.is_some_and(|s| s.status.is_some()),
        })
    }

    /// A resource without a CRD: objects of `api_version` and `kind` admitted against `schema`
    /// (its root) through the same pipeline, without subresources. This is how kubectl-validate
    /// validates Kubernetes' built-in kinds against their published OpenAPI schemas.
    #[must_use]
    pub fn for_schema(api_version: &str, kind: &str, schema: &Structural) -> Admission {
        let info = ResourceInfo {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            namespaced: None,
        };
        Admission {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            schema: CompiledSchema::new(schema).with_resource(info),
            status_subresource: false,
        }
    }

    /// `group/version`.
    #[must_use]
    pub fn api_version(&self) -> &str {
        &self.api_version
    }

    /// The kind of the objects.
    #[must_use]
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The compiled schema (pruning, defaulting and validation on their own).
    #[must_use]
    pub fn schema(&self) -> &CompiledSchema {
        &self.schema
    }

    /// Whether the version has the status subresource.
    #[must_use]
    pub fn has_status_subresource(&self) -> bool {
        self.status_subresource
    }

    /// Admits `obj` as a create: decoded in place (pruned, defaulted; `status` dropped under the
    /// status subresource), then validated.
    pub fn create(&self, obj: &mut Value) -> Admitted {
        match self.decode(obj) {
            Ok(unknown_fields) => self.create_decoded(obj, unknown_fields),
            Err(e) => decoding_failed(e),
        }
    }

    /// [`create`](Self::create) of an object [`decode`](Self::decode) already decoded, which
    /// found `unknown_fields`.
    pub fn create_decoded(&self, obj: &mut Value, unknown_fields: Vec<String>) -> Admitted {
        if self.status_subresource
            && let Value::Object(map) = obj
        {
            map.remove("status");
        }
        Admitted {
            unknown_fields,
            errors: self.schema.validate(obj),
            decoding_failed: false,
        }
    }

    /// Admits `new` as an update of the stored `old`: both decoded (the stored object went
    /// through the same decoding when it was written), `status` kept from `old` under the
    /// status subresource, then validated with transition rules and ratcheting.
    pub fn update(&self, new: &mut Value, old: &Value) -> Admitted {
        self.update_decoded(new, old, None)
    }

    /// [`update`](Self::update); `decoded` holds the unknown fields [`decode`](Self::decode)
    /// found when it already decoded `new`.
    pub fn update_decoded(
        &self,
        new: &mut Value,
        old: &Value,
        decoded: Option<Vec<String>>,
    ) -> Admitted {
        self.admit_update(new, old, decoded, |new, old| {
            if self.status_subresource {
                keep_old_status(new, old);
            }
            self.schema.validate_update(new, old)
        })
    }

    /// Admits `new` as an update of the stored `old` through the `/status` subresource: all of
    /// `old` but the `status` of `new`, then the status validation of
    /// [`CompiledSchema::validate_status_update`].
    ///
    /// # Errors
    /// [`AdmissionError::NoStatusSubresource`] when the version has no status subresource.
    pub fn update_status(&self, new: &mut Value, old: &Value) -> Result<Admitted, AdmissionError> {
        self.update_status_decoded(new, old, None)
    }

    /// [`update_status`](Self::update_status); `decoded` as for
    /// [`update_decoded`](Self::update_decoded).
    ///
    /// # Errors
    /// [`AdmissionError::NoStatusSubresource`] when the version has no status subresource.
    pub fn update_status_decoded(
        &self,
        new: &mut Value,
        old: &Value,
        decoded: Option<Vec<String>>,
    ) -> Result<Admitted, AdmissionError> {
        if !self.status_subresource {
            return Err(AdmissionError::NoStatusSubresource);
        }
        Ok(self.admit_update(new, old, decoded, |new, old| {
            take_new_status(new, old);
            self.schema.validate_status_update(new, old)
        }))
    }

    fn admit_update(
        &self,
        new: &mut Value,
        old: &Value,
        decoded: Option<Vec<String>>,
        validate: impl FnOnce(&mut Value, &Value) -> Vec<FieldError>,
    ) -> Admitted {
        let unknown_fields = match decoded.map_or_else(|| self.decode(new), Ok) {
            Ok(u) => u,
            Err(e) => return decoding_failed(e),
        };
        let mut old = old.clone();
        // An old object that no longer decodes is compared as it is.
        let _ = self.decode(&mut old);
        Admitted {
            unknown_fields,
            errors: validate(new, &old),
            decoding_failed: false,
        }
    }
}

impl Admission {
    /// The request body decoded: pruned, coerced and defaulted when it is of this resource's
    /// group and kind; else (an object of another kind sent to this resource, which validation
    /// then rejects) only its `metadata` is decoded, as `unstructuredSchemaCoercer.apply` and
    /// `unstructuredDefaulter` do (apiextensions `pkg/apiserver/customresource_handler.go`).
    /// Returns the unknown-field paths, as [`Admitted::unknown_fields`]. [`create`](Self::create)
    /// and [`update`](Self::update) run it first; a server runs it on its own before its field
    /// manager, as Go's codec decodes a body before `handlers/create.go` and `update.go` record
    /// the write. Decoding a decoded object changes nothing and finds no unknown field.
    ///
    /// # Errors
    /// A `metadata`, `apiVersion` or `kind` the API server cannot decode.
    pub fn decode(&self, obj: &mut Value) -> Result<Vec<String>, FieldError> {
        fn group(api_version: &str) -> &str {
            api_version.rsplit_once('/').map_or("", |(g, _)| g)
        }
        let own = obj.get("kind").and_then(Value::as_str) == Some(self.kind.as_str())
            && obj.get("apiVersion").and_then(Value::as_str).map(group)
                == Some(group(&self.api_version));
        if own {
            self.schema.prune_and_default(obj)
        } else {
            crate::pipeline::decode_metadata(obj)
        }
    }
}

/// The main resource cannot change `status` (`customResourceStrategy.PrepareForUpdate`).
fn keep_old_status(new: &mut Value, old: &Value) {
    let Value::Object(map) = new else { return };
    match old.get("status") {
        Some(status) => {
            map.insert("status".to_owned(), status.clone());
        }
        None => {
            map.remove("status");
        }
    }
}

/// `/status` changes nothing but `status` (`statusStrategy.PrepareForUpdate`).
fn take_new_status(new: &mut Value, old: &Value) {
    let status = new.get("status").cloned();
    // status_strategy.go: managedFields are kept, the field manager having recorded the
    // status write in them.
    let managed = new
        .get("metadata")
        .and_then(|m| m.get("managedFields"))
        .cloned();
    *new = old.clone();
    if let Some(Value::Object(meta)) = new.get_mut("metadata") {
        match managed {
            Some(m) if !m.is_null() => {
                meta.insert("managedFields".to_owned(), m);
            }
            _ => {
                meta.remove("managedFields");
            }
        }
    }
    if let Value::Object(map) = new {
        match status {
            Some(s) => {
                map.insert("status".to_owned(), s);
            }
            None => {
                map.remove("status");
            }
        }
    }
}

fn decoding_failed(e: FieldError) -> Admitted {
    Admitted {
        unknown_fields: Vec::new(),
        errors: vec![e],
        decoding_failed: true,
    }
}
