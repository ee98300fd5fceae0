//! The built-in definitions CRD documents refer to (`ObjectMeta`, `Status`, `Scale`, ...), read
//! once from `data/definitions.json`, and the schema walks kube-openapi applies to definitions:
//! `builder3/util.WrapRefs` (a `$ref` with siblings becomes `allOf: [{$ref}]` in v3) and
//! `handler.PruneDefaults` (no `default` anywhere in v2 definitions).
//!
//! The data is the v2 form of apiextensions-apiserver's generated definitions
//! (`pkg/generated/openapi`), with the `x-kubernetes-group-version-kind` that apiserver's
//! `DefinitionNamer` derives from client-go's scheme; [`KUBERNETES_VERSION`](super::KUBERNETES_VERSION)
//! says which release.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Map, Value};

/// `#/definitions/` (v2) or `#/components/schemas/` (v3).
pub(crate) const V2_PREFIX: &str = "#/definitions/";
pub(crate) const V3_PREFIX: &str = "#/components/schemas/";

pub(crate) const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
pub(crate) const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
pub(crate) const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
pub(crate) const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
pub(crate) const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
pub(crate) const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";
const TYPE_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta";

/// `metadata` of `PartialObjectMetadata` and `PartialObjectMetadataList` (their swagger docs),
/// the descriptions the builder gives `metadata`.
pub(crate) const OBJECT_META_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
pub(crate) const LIST_META_DESCRIPTION: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

#[derive(Deserialize)]
struct Data {
    definitions: BTreeMap<String, Definition>,
}

/// One generated definition: its schema (v2 form) and what it refers to.
#[derive(Deserialize)]
pub(crate) struct Definition {
    pub schema: Value,
    pub dependencies: Vec<String>,
}

fn data() -> &'static BTreeMap<String, Definition> {
    static DATA: OnceLock<BTreeMap<String, Definition>> = OnceLock::new();
    DATA.get_or_init(|| {
        // The file is part of this crate and checked by its tests: a parse failure is a build
        // defect, and an empty table only leaves references dangling.
        serde_json::from_str::<Data>(include_str!("data/definitions.json"))
            .map(|d| d.definitions)
            .unwrap_or_default()
    })
}

/// The generated definition of `name`, if it is one of the built-in ones.
pub(crate) fn get(name: &str) -> Option<&'static Definition> {
    data().get(name)
}

/// `TypeMeta`'s `apiVersion` or `kind` property (`getDefinition(typeMetaType)`), in the form of
/// the document (`v2`) it goes into.
pub(crate) fn type_meta_property(prop: &str) -> Value {
    get(TYPE_META)
        .and_then(|d| d.schema.get("properties"))
        .and_then(|p| p.get(prop))
        .cloned()
        .unwrap_or_else(|| serde_json::json!({"type": "string"}))
}

/// `{"$ref": "<prefix><name>"}` with a description.
pub(crate) fn reference(name: &str, v2: bool, description: &str) -> Value {
    let prefix = if v2 { V2_PREFIX } else { V3_PREFIX };
    let mut m = Map::new();
    m.insert("$ref".to_owned(), Value::String(format!("{prefix}{name}")));
    if !description.is_empty() {
        m.insert(
            "description".to_owned(),
            Value::String(description.to_owned()),
        );
    }
    Value::Object(m)
}

/// A definition's schema as v3 publishes it: references under `#/components/schemas/`, then
/// `WrapRefs`.
pub(crate) fn to_v3(schema: &Value) -> Value {
    let mut s = schema.clone();
    retarget_refs(&mut s);
    wrap_refs(&mut s);
    s
}

/// `#/definitions/X` to `#/components/schemas/X` in every `$ref` (`refForOpenAPIVersion`).
fn retarget_refs(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                if k == "$ref"
                    && let Value::String(r) = child
                    && let Some(rest) = r.strip_prefix(V2_PREFIX)
                {
                    *r = format!("{V3_PREFIX}{rest}");
                } else {
                    retarget_refs(child);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(retarget_refs),
        _ => {}
    }
}

/// The keys of a schema object that hold one sub-schema, a map of them, or a list of them
/// (kube-openapi `schemamutation.Walker`).
const ONE: &[&str] = &["not", "additionalProperties", "additionalItems", "items"];
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "definitions",
    "dependencies",
];
const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "items"];

/// Calls `f` on `schema` and every schema below it.
pub(crate) fn walk(schema: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Value::Object(m) = schema else {
        return;
    };
    f(m);
    for k in ONE {
        if let Some(child @ Value::Object(_)) = m.get_mut(*k) {
            walk(child, f);
        }
    }
    for k in MAP {
        if let Some(Value::Object(children)) = m.get_mut(*k) {
            for child in children.values_mut() {
                walk(child, f);
            }
        }
    }
    for k in LIST {
        if let Some(Value::Array(children)) = m.get_mut(*k) {
            for child in children {
                walk(child, f);
            }
        }
    }
}

/// `WrapRefs`: a `$ref` with anything beside it moves into `allOf: [{"$ref": ..}]` (replacing
/// any `allOf`), since OpenAPI v3.0 ignores a reference's siblings.
pub(crate) fn wrap_refs(schema: &mut Value) {
    walk(schema, &mut |m| {
        if m.len() > 1
            && let Some(r) = m.remove("$ref")
        {
            let mut only = Map::new();
            only.insert("$ref".to_owned(), r);
            m.insert("allOf".to_owned(), Value::Array(vec![Value::Object(only)]));
        }
    });
}

/// `PruneDefaultsSchema`: no `default` in the schema or below it.
pub(crate) fn prune_defaults(schema: &mut Value) {
    walk(schema, &mut |m| {
        m.remove("default");
    });
}
