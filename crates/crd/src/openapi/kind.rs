//! The kind and list-kind definitions of a CRD version: `buildKubeNative`,
//! `addEmbeddedProperties`, `addTypeMetaProperties`, `buildListSchema` and
//! `buildSelectableFields` of apiextensions-apiserver `pkg/controller/openapi/builder/builder.go`.

use serde_json::{Map, Value, json};

use super::definitions::{
    self, LIST_META, LIST_META_DESCRIPTION, OBJECT_META, OBJECT_META_DESCRIPTION,
};
use super::schema::{publishable, to_kube_openapi, to_structural_openapi_v2};
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};

const EMBEDDED_API_VERSION: &str = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const EMBEDDED_KIND: &str = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The names a CRD version's documents are built from.
#[derive(Clone, Debug)]
pub(crate) struct Names {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub list_kind: String,
    pub plural: String,
    pub namespaced: bool,
    /// The definition-name prefix of built-in kinds (`io.k8s.api.core.v1`); CRD kinds derive
    /// theirs from the group (`gvkToModelName`).
    pub definition_prefix: Option<&'static str>,
}

impl Names {
    pub fn of(crd: &CustomResourceDefinition, version: &str) -> Names {
        let n = &crd.spec.names;
        Names {
            group: crd.spec.group.clone(),
            version: version.to_owned(),
            kind: n.kind.clone(),
            // What the API server's defaulting of the CRD fills in.
            list_kind: n.list_kind_or_default(),
            plural: n.plural.clone(),
            namespaced: crd.spec.scope == "Namespaced",
            definition_prefix: None,
        }
    }

    /// `gvkToModelName`: `com.example.stable.v1.CronTab` for `stable.example.com/v1` `CronTab`.
    pub fn definition(&self, kind: &str) -> String {
        if let Some(prefix) = self.definition_prefix {
            return format!("{prefix}.{kind}");
        }
        let group: Vec<&str> = self.group.split('.').rev().collect();
        format!("{}.{}.{kind}", group.join("."), self.version)
    }

    fn gvk(&self, kind: &str) -> Value {
        json!([{"group": self.group, "version": self.version, "kind": kind}])
    }
}

/// `buildKubeNative`: the CRD schema (v2-converted for `v2`) with `apiVersion`, `kind` and
/// `metadata` set at the root and in embedded resources; `{"type": "object"}` when there is no
/// schema to publish, and in v2 when unknown fields are kept at the root (kubectl's v2
/// validation would otherwise reject every field it does not see).
pub(crate) fn kind_schema(
    names: &Names,
    crd: &CustomResourceDefinition,
    v: &CustomResourceDefinitionVersion,
    v2: bool,
) -> Value {
    let props = v
        .schema
        .as_ref()
        .and_then(|s| s.open_api_v3_schema.as_ref());
    let schema = publishable(props);
    let mut ret = match schema {
        Some(s)
            if !(v2
                && (s.x_preserve_unknown_fields == Some(true)
                    || crd.spec.preserve_unknown_fields)) =>
        {
            let mut s = s;
            if v2 {
                to_structural_openapi_v2(&mut s);
            }
            let mut ret = to_kube_openapi(&s);
            set_property(
                &mut ret,
                "metadata",
                definitions::reference(OBJECT_META, v2, OBJECT_META_DESCRIPTION),
            );
            add_type_meta(&mut ret);
            add_embedded(&mut ret, v2);
            ret
        }
        _ => {
            let mut m = Map::new();
            m.insert("type".to_owned(), json!("object"));
            m
        }
    };
    ret.insert(
        "x-kubernetes-group-version-kind".to_owned(),
        names.gvk(&names.kind),
    );
    if let Some(fields) = selectable_fields(v) {
        ret.insert("x-kubernetes-selectable-fields".to_owned(), fields);
    }
    Value::Object(ret)
}

/// `buildListSchema`: `<ListKind> is a list of <Kind>`.
pub(crate) fn list_schema(names: &Names, v: &CustomResourceDefinitionVersion, v2: bool) -> Value {
    let item = definitions::reference(&names.definition(&names.kind), v2, "");
    let mut s = Map::new();
    s.insert("type".to_owned(), json!("object"));
    s.insert(
        "description".to_owned(),
        json!(format!("{} is a list of {}", names.list_kind, names.kind)),
    );
    s.insert("required".to_owned(), json!(["items"]));
    set_property(
        &mut s,
        "items",
        json!({"type": "array", "items": item, "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", names.plural)}),
    );
    set_property(
        &mut s,
        "metadata",
        definitions::reference(LIST_META, v2, LIST_META_DESCRIPTION),
    );
    add_type_meta(&mut s);
    s.insert(
        "x-kubernetes-group-version-kind".to_owned(),
        names.gvk(&names.list_kind),
    );
    if let Some(fields) = selectable_fields(v) {
        s.insert("x-kubernetes-selectable-fields".to_owned(), fields);
    }
    Value::Object(s)
}

/// `buildSelectableFields`: the version's selectable fields without their leading dot.
fn selectable_fields(v: &CustomResourceDefinitionVersion) -> Option<Value> {
    if v.selectable_fields.is_empty() {
        return None;
    }
    let fields = v.selectable_fields.iter().map(|f| {
        let path = f.json_path.strip_prefix('.').unwrap_or(&f.json_path);
        json!({ "fieldPath": path })
    });
    Some(Value::Array(fields.collect()))
}

/// `spec.Schema.SetProperty`: sets (or replaces) one property.
fn set_property(s: &mut Map<String, Value>, name: &str, schema: Value) {
    let props = s
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(props) = props {
        props.insert(name.to_owned(), schema);
    }
}

/// `addTypeMetaProperties`: `apiVersion` and `kind` as `TypeMeta` defines them.
fn add_type_meta(s: &mut Map<String, Value>) {
    for prop in ["apiVersion", "kind"] {
        set_property(s, prop, definitions::type_meta_property(prop));
    }
}

fn is_true(s: &Map<String, Value>, ext: &str) -> bool {
    s.get(ext) == Some(&Value::Bool(true))
}

/// `addEmbeddedProperties`: embedded resources get `apiVersion`, `kind` and `metadata`, with
/// `kind` and `apiVersion` required; in v2 not where unknown fields are kept, since kubectl's
/// v2 validation would then reject the unknown ones.
fn add_embedded(s: &mut Map<String, Value>, v2: bool) {
    if let Some(Value::Object(props)) = s.get_mut("properties") {
        for child in props.values_mut() {
            if let Value::Object(c) = child {
                add_embedded(c, v2);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(c)) = s.get_mut(key) {
            add_embedded(c, v2);
        }
    }
    if v2 && is_true(s, "x-kubernetes-preserve-unknown-fields") {
        return;
    }
    if !is_true(s, "x-kubernetes-embedded-resource") {
        return;
    }
    let mut api_version = definitions::type_meta_property("apiVersion");
    let mut kind = definitions::type_meta_property("kind");
    api_version["description"] = json!(EMBEDDED_API_VERSION);
    kind["description"] = json!(EMBEDDED_KIND);
    set_property(s, "apiVersion", api_version);
    set_property(s, "kind", kind);
    set_property(
        s,
        "metadata",
        definitions::reference(OBJECT_META, v2, OBJECT_META_DESCRIPTION),
    );
    let required = s
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(req) = required {
        let has = |req: &[Value], k: &str| req.iter().any(|r| r == k);
        let (has_kind, has_api_version) = (has(req, "kind"), has(req, "apiVersion"));
        if !has_kind {
            req.push(json!("kind"));
        }
        if !has_api_version {
            req.push(json!("apiVersion"));
        }
    }
}
