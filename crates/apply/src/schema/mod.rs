//! The type schema server-side apply merges by, compiled from a CRD's structural schema.
//!
//! Mirrors structured-merge-diff `schema/elements.go` (atoms: scalar, list, map) and how the API
//! server builds it for a custom resource: apiextensions-apiserver
//! `pkg/controller/openapi/builder/builder.go` (`BuildOpenAPIV3`: `metadata` as `ObjectMeta`,
//! `apiVersion` and `kind` at the root and in every `x-kubernetes-embedded-resource`) followed by
//! kube-openapi `pkg/schemaconv/openapi.go` (`ToSchemaFromOpenAPI`):
//!
//! | CRD schema | atom |
//! | --- | --- |
//! | `type: object` with `properties` | map with fields; unknown fields allowed (deduced) only under `x-kubernetes-preserve-unknown-fields` |
//! | `type: object` without `properties` or with `additionalProperties` | map whose values are of the `additionalProperties` type (deduced if absent) |
//! | `x-kubernetes-map-type: atomic` | the map is one value |
//! | `type: array` | list: `atomic` (default), `set` (associative without keys), `map` (associative by `x-kubernetes-list-map-keys`) |
//! | `integer`, `number` / `boolean` / `string` (no format or `byte`) | numeric / boolean / string scalar |
//! | other strings (`date-time`, ...), no `type` (`x-kubernetes-int-or-string`, preserved fields) | untyped scalar (any scalar); without `type` also an atomic list and a deduced map |
//!
//! The *deduced* type is structured-merge-diff's type for schemaless data: scalars, atomic lists,
//! and maps whose fields are again deduced.

use std::collections::BTreeMap;

use serde_json::Value;

use crdkit_schema::{AdditionalProperties, ListType, MapType, Structural, Type};

mod object_meta;

/// Index of a type in a [`Schema`].
pub(crate) type TypeId = usize;

/// `__untyped_atomic_`: any value, lists and maps atomic.
pub(crate) const UNTYPED_ATOMIC: TypeId = 0;
/// `__untyped_deduced_`: any value, maps granular with deduced values, lists atomic.
pub(crate) const DEDUCED: TypeId = 1;

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Numeric,
    String,
    Boolean,
    Untyped,
}

/// A list type.
#[derive(Clone, Debug)]
pub(crate) struct List {
    pub(crate) elem: Option<TypeId>,
    /// `associative` (a set, or a map by `keys`); otherwise atomic.
    pub(crate) associative: bool,
    pub(crate) keys: Vec<String>,
}

/// A field of a struct: its type and its default (used for absent keys of list maps).
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub(crate) ty: Option<TypeId>,
    pub(crate) default: Option<Value>,
}

/// A map or struct type.
#[derive(Clone, Debug, Default)]
pub(crate) struct MapT {
    pub(crate) fields: BTreeMap<String, Field>,
    /// The type of keys that are not fields; `None`: no such keys allowed.
    pub(crate) elem: Option<TypeId>,
    pub(crate) atomic: bool,
}

impl MapT {
    /// The type of the value at `key`: its field's type, else the element type.
    pub(crate) fn type_of(&self, key: &str) -> Option<TypeId> {
        match self.fields.get(key) {
            Some(f) => f.ty,
            None => self.elem,
        }
    }
}

/// The possible shapes of a value of a type.
#[derive(Clone, Debug, Default)]
pub(crate) struct Atom {
    pub(crate) scalar: Option<Scalar>,
    pub(crate) list: Option<List>,
    pub(crate) map: Option<MapT>,
}

/// A compiled type schema with its root type.
#[derive(Clone, Debug)]
pub struct Schema {
    atoms: Vec<Atom>,
    root: TypeId,
}

impl Schema {
    fn base() -> Schema {
        let untyped = Atom {
            scalar: Some(Scalar::Untyped),
            list: Some(List {
                elem: Some(UNTYPED_ATOMIC),
                associative: false,
                keys: Vec::new(),
            }),
            map: Some(MapT {
                fields: BTreeMap::new(),
                elem: Some(UNTYPED_ATOMIC),
                atomic: true,
            }),
        };
        let deduced = Atom {
            scalar: Some(Scalar::Untyped),
            list: Some(List {
                elem: Some(UNTYPED_ATOMIC),
                associative: false,
                keys: Vec::new(),
            }),
            map: Some(MapT {
                fields: BTreeMap::new(),
                elem: Some(DEDUCED),
                atomic: false,
            }),
        };
        Schema {
            atoms: vec![untyped, deduced],
            root: DEDUCED,
        }
    }

    /// The deduced schema: what the API server merges custom resources without a schema by.
    #[must_use]
    pub fn deduced() -> Schema {
        Schema::base()
    }

    /// The schema of a custom resource version as the API server builds it: `schema` (or the
    /// deduced type without one) with `metadata` (ObjectMeta), `apiVersion` and `kind` at the root
    /// and in embedded resources. `preserve_unknown_fields` is the CRD's
    /// `spec.preserveUnknownFields` (v1beta1 CRDs), which lets unknown fields in everywhere.
    #[must_use]
    pub fn for_custom_resource(
        schema: Option<&Structural>,
        preserve_unknown_fields: bool,
    ) -> Schema {
        let mut out = Schema::base();
        let Some(s) = schema else {
            return out;
        };
        let mut c = Compiler {
            schema: &mut out,
            object_meta: None,
            embedded: true,
            global_preserve: preserve_unknown_fields,
        };
        let root = c.compile(s, preserve_unknown_fields, true);
        out.root = root.unwrap_or(DEDUCED);
        out
    }

    /// The schema of `schema` alone, as structured-merge-diff would convert an OpenAPI schema
    /// (no ObjectMeta or TypeMeta added): for merging plain documents.
    #[must_use]
    pub fn from_structural(schema: &Structural) -> Schema {
        let mut out = Schema::base();
        let mut c = Compiler {
            schema: &mut out,
            object_meta: None,
            embedded: false,
            global_preserve: false,
        };
        let root = c.compile(schema, false, false);
        out.root = root.unwrap_or(DEDUCED);
        out
    }

    pub(crate) fn root(&self) -> TypeId {
        self.root
    }

    pub(crate) fn atom(&self, t: TypeId) -> &Atom {
        &self.atoms[t]
    }

    fn push(&mut self, a: Atom) -> TypeId {
        self.atoms.push(a);
        self.atoms.len() - 1
    }
}

struct Compiler<'a> {
    schema: &'a mut Schema,
    /// ObjectMeta, compiled once when first needed.
    object_meta: Option<TypeId>,
    /// Whether to add TypeMeta and ObjectMeta as the CRD OpenAPI builder does.
    embedded: bool,
    /// The CRD's `spec.preserveUnknownFields`: every struct, ObjectMeta's too, takes unknown
    /// fields.
    global_preserve: bool,
}

impl Compiler<'_> {
    /// `parseSchema` of one node; `preserve` is inherited from the ancestors (`visitSpec`).
    fn compile(&mut self, s: &Structural, preserve: bool, root: bool) -> Option<TypeId> {
        let preserve = preserve || s.extensions.preserve_unknown_fields;
        let atom = match s.generic.ty {
            None => Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(self.list(s, preserve)),
                map: Some(self.map(s, preserve, root)),
            },
            Some(Type::Object) => Atom {
                map: Some(self.map(s, preserve, root)),
                ..Atom::default()
            },
            Some(Type::Array) => Atom {
                list: Some(self.list(s, preserve)),
                ..Atom::default()
            },
            Some(Type::Integer | Type::Number) => scalar(Scalar::Numeric),
            Some(Type::Boolean) => scalar(Scalar::Boolean),
            Some(Type::String) => match s.value_validation.format.as_deref() {
                None | Some("" | "byte") => scalar(Scalar::String),
                Some(_) => scalar(Scalar::Untyped),
            },
        };
        Some(self.schema.push(atom))
    }

    /// `parseObject`, with the builder's `metadata`/`apiVersion`/`kind` for the root and
    /// embedded resources.
    fn map(&mut self, s: &Structural, preserve: bool, root: bool) -> MapT {
        let mut fields = BTreeMap::new();
        for (name, p) in &s.properties {
            let ty = self.compile(p, preserve, false);
            fields.insert(
                name.clone(),
                Field {
                    ty,
                    default: p.generic.default.clone(),
                },
            );
        }
        if self.embedded && (root || s.extensions.embedded_resource) {
            let string = self.schema.push(scalar(Scalar::String));
            for name in ["apiVersion", "kind"] {
                fields.insert(
                    name.to_owned(),
                    Field {
                        ty: Some(string),
                        default: None,
                    },
                );
            }
            let meta = self.object_meta();
            fields.insert(
                "metadata".to_owned(),
                Field {
                    ty: Some(meta),
                    default: None,
                },
            );
        }
        let elem = match &s.additional_properties {
            // An object without properties, or anywhere below x-kubernetes-preserve-unknown-fields,
            // takes any field.
            None if preserve || fields.is_empty() => Some(DEDUCED),
            None | Some(AdditionalProperties::Bool(false)) => None,
            Some(AdditionalProperties::Bool(true)) => Some(DEDUCED),
            Some(AdditionalProperties::Schema(v)) => self.compile(v, preserve, false),
        };
        MapT {
            fields,
            elem,
            atomic: s.extensions.map_type == Some(MapType::Atomic),
        }
    }

    /// `parseList`: atomic unless `x-kubernetes-list-type` is `set` or `map`.
    fn list(&mut self, s: &Structural, preserve: bool) -> List {
        let elem = match &s.items {
            Some(items) => self.compile(items, preserve, false),
            None => Some(UNTYPED_ATOMIC),
        };
        let (associative, keys) = match s.extensions.list_type {
            Some(ListType::Set) => (true, Vec::new()),
            Some(ListType::Map) => (true, s.extensions.list_map_keys.clone()),
            // Atomic, unset, and any list type a later API server may add.
            _ => (false, Vec::new()),
        };
        List {
            elem,
            associative,
            keys,
        }
    }
}

pub(crate) fn scalar(s: Scalar) -> Atom {
    Atom {
        scalar: Some(s),
        ..Atom::default()
    }
}

pub(crate) fn fields(list: &[(&str, TypeId)]) -> BTreeMap<String, Field> {
    list.iter()
        .map(|(n, t)| {
            (
                (*n).to_owned(),
                Field {
                    ty: Some(*t),
                    default: None,
                },
            )
        })
        .collect()
}
