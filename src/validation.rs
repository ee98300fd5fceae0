//! Validation of a resource's objects as the API server does it (the `validation` feature): the
//! compiled schema of a [`ResourceDecl`], and [`Validate`], implemented for every generated root.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_shape::resource::{CrdError, CustomResource, ResourceDecl};

/// Errors of a custom object, as the API server reports them.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// The kind of the object.
    pub kind: String,
    /// Its `metadata.name`.
    pub name: String,
    /// Every error, in the API server's order.
    pub errors: Vec<FieldError>,
}

impl fmt::Display for Invalid {
    /// The API server's message: `CronTab.stable.example.com "x" is invalid: [..]`-style text as
    /// kubectl prints it (`The CronTab "x" is invalid: spec.replicas: ...`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "The {} {} is invalid: ",
            self.kind,
            crdkit_apimachinery::gofmt::quote(&self.name)
        )?;
        match self.errors.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                for e in many {
                    write!(f, "\n* {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Invalid {}

/// Why [`Validate::prune_and_default`] returned no object.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// The schema could not be built (a run-time part of it failed).
    #[error(transparent)]
    Crd(#[from] CrdError),
    /// The API server would reject the object before validation (malformed `metadata`, ...).
    #[error("{0}")]
    Rejected(FieldError),
    /// The pruned and defaulted object does not deserialize into the Rust type.
    #[error("the object does not deserialize after pruning and defaulting: {0}")]
    Deserialize(#[from] serde_json::Error),
}

/// The root schema of a resource version compiled for pruning, defaulting and validation of its
/// objects.
///
/// # Errors
/// When a run-time part of the schema fails (see [`ResourceDecl::schema`]).
pub fn compile(decl: &ResourceDecl) -> Result<CompiledSchema, CrdError> {
    let info = ResourceInfo {
        api_version: decl.api_version(),
        kind: decl.kind.to_owned(),
        namespaced: None,
    };
    Ok(CompiledSchema::new(&decl.schema()?).with_resource(info))
}

/// Validation of a custom resource's objects; `#[derive(CustomResource)]` implements it (with
/// the crate's `validation` feature) and adds the methods to the root type.
pub trait Validate: CustomResource {
    /// The compiled schema of this resource version, built once per process (the derive
    /// generates the cache).
    ///
    /// # Errors
    /// When a run-time part of the schema fails.
    fn compiled_schema() -> Result<&'static CompiledSchema, CrdError>;

    /// Validates the object as the API server does on create, without going through
    /// `serde_json::Value` (a serializer checks the values as they are written).
    ///
    /// # Errors
    /// Every validation error, or the schema's build error.
    fn validate(&self) -> Result<(), Invalid>
    where
        Self: Serialize,
    {
        let schema = Self::compiled_schema().map_err(|e| self.crd_invalid(&e))?;
        // CEL rules run on JSON values.
        let errors = if schema.has_cel_rules() {
            match serde_json::to_value(self) {
                Ok(v) => schema.validate(&v),
                Err(e) => vec![FieldError::internal(&FieldPath::nil(), e)],
            }
        } else {
            crdkit_apiextensions::validate::validate_typed(self, schema)
        };
        if errors.is_empty() {
            Ok(())
        } else {
            Err(self.invalid(errors))
        }
    }

    /// Validates the object as an update of `old`, as the API server does.
    ///
    /// # Errors
    /// Every validation error, or the schema's build error.
    fn validate_update(&self, old: &Self) -> Result<(), Invalid>
    where
        Self: Serialize,
    {
        let schema = Self::compiled_schema().map_err(|e| self.crd_invalid(&e))?;
        if !schema.has_cel_rules() && crdkit_apiextensions::validate::typed::is_valid(self, schema)
        {
            return Ok(());
        }
        let (new_v, old_v) = (serde_json::to_value(self), serde_json::to_value(old));
        let errors = match (new_v, old_v) {
            (Ok(n), Ok(o)) => schema.validate_update(&n, &o),
            (Err(e), _) | (_, Err(e)) => vec![FieldError::internal(&FieldPath::nil(), e)],
        };
        if errors.is_empty() {
            Ok(())
        } else {
            Err(self.invalid(errors))
        }
    }

    /// Prunes unknown fields from `value` and applies the schema's defaults, as the API server
    /// does when it receives the object, then deserializes it.
    ///
    /// # Errors
    /// When the API server would reject the object before validation, or the result does not
    /// deserialize into `Self`.
    fn prune_and_default(mut value: serde_json::Value) -> Result<Self, DecodeError>
    where
        Self: DeserializeOwned,
    {
        let schema = Self::compiled_schema()?;
        schema
            .prune_and_default(&mut value)
            .map_err(DecodeError::Rejected)?;
        Ok(serde_json::from_value(value)?)
    }

    #[doc(hidden)]
    fn invalid(&self, errors: Vec<FieldError>) -> Invalid
    where
        Self: Serialize,
    {
        let name = serde_json::to_value(self)
            .ok()
            .and_then(|v| {
                v.pointer("/metadata/name")
                    .and_then(|n| n.as_str().map(str::to_owned))
            })
            .unwrap_or_default();
        Invalid {
            kind: Self::KIND.to_owned(),
            name,
            errors,
        }
    }

    #[doc(hidden)]
    fn crd_invalid(&self, e: &CrdError) -> Invalid
    where
        Self: Serialize,
    {
        self.invalid(vec![FieldError::internal(&FieldPath::nil(), e)])
    }
}
