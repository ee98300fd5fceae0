//! Patch metadata from the OpenAPI v3 documents the API server publishes
//! (`/openapi/v3/apis/<group>/<version>`, `components.schemas`).
//!
//! Reads `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key` beside a property
//! (before its `allOf: [{$ref}]` or `$ref` is followed), as apimachinery
//! `strategicpatch/meta.go` `PatchMetaFromOpenAPIV3` does. Where the two differ, the answers
//! follow `PatchMetaFromStruct`, which the API server itself uses (apiserver
//! `endpoints/handlers/patch.go` passes the Go object): a map (`additionalProperties`) answers
//! for every key with its value schema, a struct answers only for its properties, with the Go
//! texts (`unable to find api field in struct PodSpec for the json field "x"`), and a schema
//! with neither (`RawExtension`, `FieldsV1`, apiextensions `JSON`) is a struct without fields.
//! A list where the schema has none is taken as a list of that schema, as Go does for its
//! pointer fields (most optional fields) and `PatchMetaFromOpenAPIV3` for every field: OpenAPI
//! cannot tell pointers apart, so `$setElementOrder/<field>` of a non-pointer struct field is
//! accepted where Go's struct reader says `expected slice or array type, but got: struct`.

use std::fmt::Write as _;

use crdkit_apimachinery::gofmt::quote as go_quote;
use serde_json::{Map, Value};

use crate::error::PatchError;
use crate::meta::{LookupPatchMeta, PatchMeta};

const PATCH_STRATEGY: &str = "x-kubernetes-patch-strategy";
const PATCH_MERGE_KEY: &str = "x-kubernetes-patch-merge-key";
const REF_PREFIXES: [&str; 2] = ["#/components/schemas/", "#/definitions/"];

/// What a schema is, in the terms of Go's `reflect.Kind` that strategic merge patch uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// Properties, or no shape at all (`RawExtension`): Go's `struct`.
    Struct,
    /// `additionalProperties`: Go's `map`.
    Map,
    /// `type: array`: Go's `slice`.
    List,
    /// `string`, `integer`, `number` or `boolean`, with Go's kind (`string`, `int64`, ...).
    Primitive(&'static str),
}

impl FieldKind {
    /// Go's `reflect.Kind` name: `struct`, `map`, `slice`, `string`, `int32`, ...
    #[must_use]
    pub fn go_kind(self) -> &'static str {
        match self {
            FieldKind::Struct => "struct",
            FieldKind::Map => "map",
            FieldKind::List => "slice",
            FieldKind::Primitive(kind) => kind,
        }
    }
}

/// A position in an OpenAPI v3 document: [`LookupPatchMeta`] for the built-in kinds.
///
/// ```
/// use crdkit_patch::{LookupPatchMeta, OpenApiPatchMeta};
/// use serde_json::json;
///
/// let doc = json!({
///     "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {
///         "containers": {"type": "array",
///             "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}]},
///             "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"}}},
///     "io.k8s.api.core.v1.Container": {"type": "object", "properties": {"name": {"type": "string"}}},
/// });
/// let spec = OpenApiPatchMeta::new(doc.as_object().unwrap(), "io.k8s.api.core.v1.PodSpec").unwrap();
/// let (container, meta) = spec.lookup_slice("containers").unwrap();
/// assert_eq!((meta.strategies.as_slice(), meta.merge_key.as_str()), (&["merge".to_owned()][..], "name"));
/// assert_eq!(container.type_name(), "Container");
/// assert_eq!(spec.lookup_struct("nodeName").unwrap_err().to_string(),
///     r#"unable to find api field in struct PodSpec for the json field "nodeName""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OpenApiPatchMeta<'a> {
    schemas: &'a Map<String, Value>,
    schema: &'a Value,
    /// The Go type name: the definition's last segment (`PodSpec`), empty for inline schemas.
    type_name: &'a str,
}

impl<'a> OpenApiPatchMeta<'a> {
    /// The definition `name` of `schemas` (a document's `components.schemas`, or a v2
    /// document's `definitions`), e.g. `io.k8s.api.apps.v1.Deployment`.
    ///
    /// # Errors
    /// [`PatchError::Lookup`] when there is no such definition.
    pub fn new(schemas: &'a Map<String, Value>, name: &str) -> Result<Self, PatchError> {
        let Some((name, schema)) = schemas.get_key_value(name) else {
            return Err(PatchError::Lookup(format!(
                "unable to resolve {name} in OpenAPI V3"
            )));
        };
        Ok(OpenApiPatchMeta {
            schemas,
            schema,
            type_name: short_name(name),
        })
    }

    /// An inline schema whose `$ref`s point into `schemas`.
    ///
    /// # Errors
    /// [`PatchError::Lookup`] when its `$ref` does not resolve.
    pub fn from_schema(
        schemas: &'a Map<String, Value>,
        schema: &'a Value,
    ) -> Result<Self, PatchError> {
        OpenApiPatchMeta {
            schemas,
            schema,
            type_name: "",
        }
        .resolve()
    }

    /// The schema at this position (references followed).
    #[must_use]
    pub fn schema(&self) -> &'a Value {
        self.schema
    }

    /// The Go type name (`PodSpec`), empty for a schema written inline.
    #[must_use]
    pub fn type_name(&self) -> &'a str {
        self.type_name
    }

    /// Whether the schema is a struct, a map, a list or a primitive.
    #[must_use]
    pub fn kind(&self) -> FieldKind {
        let s = self.schema;
        if s.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty())
        {
            return FieldKind::Struct;
        }
        if matches!(
            s.get("additionalProperties"),
            Some(Value::Object(_) | Value::Bool(true))
        ) {
            return FieldKind::Map;
        }
        let format = s.get("format").and_then(Value::as_str);
        match s.get("type").and_then(Value::as_str) {
            Some("array") => FieldKind::List,
            _ if s.get("items").is_some() => FieldKind::List,
            Some("string") => FieldKind::Primitive("string"),
            Some("boolean") => FieldKind::Primitive("bool"),
            Some("integer") if format == Some("int32") => FieldKind::Primitive("int32"),
            Some("integer") => FieldKind::Primitive("int64"),
            Some("number") if format == Some("float") => FieldKind::Primitive("float32"),
            Some("number") => FieldKind::Primitive("float64"),
            _ => FieldKind::Struct,
        }
    }

    /// A schema below this one, its `allOf[0]` and `$ref` followed.
    fn child(&self, schema: &'a Value) -> Result<Self, PatchError> {
        OpenApiPatchMeta {
            schemas: self.schemas,
            schema,
            type_name: "",
        }
        .resolve()
    }

    /// Go's `resolve`: the first of `allOf`, then its `$ref`.
    fn resolve(mut self) -> Result<Self, PatchError> {
        if let Some(first) = self
            .schema
            .get("allOf")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            self.schema = first;
        }
        if let Some(reference) = self.schema.get("$ref").and_then(Value::as_str) {
            let found = REF_PREFIXES
                .iter()
                .find_map(|p| reference.strip_prefix(p))
                .and_then(|name| self.schemas.get_key_value(name));
            let Some((name, schema)) = found else {
                return Err(PatchError::Lookup(format!(
                    "unable to resolve {reference} in OpenAPI V3"
                )));
            };
            self.schema = schema;
            self.type_name = short_name(name);
        }
        Ok(self)
    }
}

/// `io.k8s.api.core.v1.PodSpec` → `PodSpec`, the Go type's name.
fn short_name(definition: &str) -> &str {
    definition.rsplit('.').next().unwrap_or(definition)
}

fn patch_meta(field: &Value) -> PatchMeta {
    let get = |k| field.get(k).and_then(Value::as_str).unwrap_or_default();
    PatchMeta::new(get(PATCH_STRATEGY), get(PATCH_MERGE_KEY))
}

impl LookupPatchMeta for OpenApiPatchMeta<'_> {
    fn lookup_struct(&self, key: &str) -> Result<(Self, PatchMeta), PatchError> {
        match self.kind() {
            FieldKind::Map => {
                let value = match self.schema.get("additionalProperties") {
                    Some(v @ Value::Object(_)) => v,
                    _ => &EMPTY,
                };
                Ok((self.child(value)?, PatchMeta::default()))
            }
            FieldKind::Struct => {
                let field = self.schema.get("properties").and_then(|p| p.get(key));
                let Some(field) = field else {
                    let mut message = String::new();
                    let _ = write!(
                        message,
                        "unable to find api field in struct {} for the json field {}",
                        self.type_name,
                        go_quote(key)
                    );
                    return Err(PatchError::Lookup(message));
                };
                Ok((self.child(field)?, patch_meta(field)))
            }
            kind => Err(PatchError::Lookup(format!(
                "merging an object in json but data type is not map or struct, instead is: {}",
                kind.go_kind()
            ))),
        }
    }

    fn lookup_slice(&self, key: &str) -> Result<(Self, PatchMeta), PatchError> {
        let (field, meta) = self.lookup_struct(key)?;
        if field.kind() != FieldKind::List {
            // A list where the schema has none: a list of that schema, as Go's pointer fields
            // (`*T` takes a list of `T`) and PatchMetaFromOpenAPIV3 have it.
            return Ok((field, meta));
        }
        let items = field.child(field.schema.get("items").unwrap_or(&EMPTY))?;
        if items.kind() == FieldKind::List {
            return Err(PatchError::Lookup("unexpected slice of slice".to_owned()));
        }
        Ok((items, meta))
    }

    fn name(&self) -> String {
        self.kind().go_kind().to_owned()
    }
}

/// The schema of a value nothing is known about.
static EMPTY: Value = Value::Null;
