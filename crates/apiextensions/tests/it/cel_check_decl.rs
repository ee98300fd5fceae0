//! CEL declarations from schemas against the Go tests: apiserver `pkg/cel/escaping_test.go`
//! (`TestEscaping`, `TestUnescapeMalformed`) and apiextensions
//! `pkg/apiserver/schema/cel/model/schemas_test.go` (`TestEstimateMaxLengthJSON`,
//! `TestWithTypeAndObjectMetaNameLength`, `TestSchemaDeclTypes`), plus the OpenAPI → CEL
//! type table of the CRD documentation.

use crdkit_cel::decl::{DeclKind, DeclType, schema_decl_type};
use crdkit_cel::escaping::{escape, unescape};
use crdkit_cel::types::Type;
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::{Value, json};

fn structural(v: Value) -> Structural {
    let props: JsonSchemaProps = serde_json::from_value(v).unwrap();
    Structural::from_props(&props).unwrap()
}

#[test]
fn escaping_test() {
    let cases: &[(&str, Option<&str>)] = &[
        ("a.a", Some("a__dot__a")),
        ("a-a", Some("a__dash__a")),
        ("a__a", Some("a__underscores__a")),
        ("a.-/__a", Some("a__dot____dash____slash____underscores__a")),
        ("a._a", Some("a__dot___a")),
        ("a__.__a", Some("a__underscores____dot____underscores__a")),
        ("a___a", Some("a__underscores___a")),
        ("a____a", Some("a__underscores____underscores__a")),
        ("a__dot__a", Some("a__underscores__dot__underscores__a")),
        (
            "a__underscores__a",
            Some("a__underscores__underscores__underscores__a"),
        ),
        ("true", Some("__true__")),
        ("false", Some("__false__")),
        ("null", Some("__null__")),
        ("in", Some("__in__")),
        ("as", Some("__as__")),
        ("break", Some("__break__")),
        ("const", Some("__const__")),
        ("continue", Some("__continue__")),
        ("else", Some("__else__")),
        ("for", Some("__for__")),
        ("function", Some("__function__")),
        ("if", Some("__if__")),
        ("import", Some("__import__")),
        ("let", Some("__let__")),
        ("loop", Some("__loop__")),
        ("package", Some("__package__")),
        ("namespace", Some("__namespace__")),
        ("return", Some("__return__")),
        ("var", Some("__var__")),
        ("void", Some("__void__")),
        ("while", Some("__while__")),
        ("@", None),
        ("1up", None),
        ("\u{1f451}", None),
        ("has", Some("has")),
        ("all", Some("all")),
        ("exists", Some("exists")),
        ("exists_one", Some("exists_one")),
        ("filter", Some("filter")),
        ("size", Some("size")),
        ("contains", Some("contains")),
        ("startsWith", Some("startsWith")),
        ("endsWith", Some("endsWith")),
        ("matches", Some("matches")),
        ("duration", Some("duration")),
        ("timestamp", Some("timestamp")),
        ("getDate", Some("getDate")),
        ("getDayOfMonth", Some("getDayOfMonth")),
        ("getDayOfWeek", Some("getDayOfWeek")),
        ("getFullYear", Some("getFullYear")),
        ("getHours", Some("getHours")),
        ("getMilliseconds", Some("getMilliseconds")),
        ("getMinutes", Some("getMinutes")),
        ("getMonth", Some("getMonth")),
        ("getSeconds", Some("getSeconds")),
        ("_if", Some("_if")),
        ("_has", Some("_has")),
        ("_int", Some("_int")),
        ("_anything", Some("_anything")),
    ];
    for (unescaped, escaped) in cases {
        assert_eq!(escape(unescaped).as_deref(), *escaped, "{unescaped}");
        if let Some(e) = escaped {
            assert_eq!(unescape(e).as_deref(), Some(*unescaped), "{e}");
        }
    }
    for malformed in ["__int__extra", "__illegal__"] {
        assert_eq!(unescape(malformed), None, "{malformed}");
    }
}

/// schemas_test.go `TestEstimateMaxLengthJSON`.
#[test]
fn estimate_max_length_json() {
    let array = |t: &str, f: &str, max: Option<i64>| {
        let mut items = json!({"type": t});
        if !f.is_empty() {
            items["format"] = json!(f);
        }
        let mut a = json!({"type": "array", "items": items});
        if let Some(m) = max {
            a["maxItems"] = json!(m);
        }
        a
    };
    let cases: Vec<(&str, Value, Option<i64>)> = vec![
        ("booleanArray", array("boolean", "", None), Some(629_145)),
        (
            "durationArray",
            array("string", "duration", None),
            Some(786_431),
        ),
        (
            "datetimeArray",
            array("string", "date-time", None),
            Some(142_987),
        ),
        ("dateArray", array("string", "date", None), Some(241_978)),
        ("numberArray", array("integer", "", None), Some(1_572_863)),
        ("stringArray", array("string", "", None), Some(1_048_575)),
        (
            "stringMap",
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            Some(393_215),
        ),
        (
            "objectOptionalPropertyArray",
            json!({"type": "array", "items": {"type": "object", "required": ["required"],
                "properties": {"required": {"type": "string"}, "optional": {"type": "string"}}}}),
            Some(185_042),
        ),
        (
            "arrayWithLength",
            array("integer", "int64", Some(10)),
            Some(10),
        ),
        (
            "stringWithLength",
            json!({"type": "string", "maxLength": 20}),
            Some(80),
        ),
        (
            "mapWithLength",
            json!({"type": "object", "additionalProperties": {"type": "string"},
                "format": "string", "maxProperties": 15}),
            Some(15),
        ),
        (
            "durationMaxSize",
            json!({"type": "string", "format": "duration"}),
            Some(32),
        ),
        (
            "dateSize",
            json!({"type": "string", "format": "date"}),
            Some(12),
        ),
        (
            "maxdatetimeSize",
            json!({"type": "string", "format": "date-time"}),
            Some(32),
        ),
        (
            "maxintOrStringSize",
            json!({"x-kubernetes-int-or-string": true}),
            Some(3_145_726),
        ),
        (
            "objectDefaultFieldArray",
            json!({"type": "array", "items": {"type": "object", "required": ["field"],
                "properties": {"field": {"type": "string", "default": "default"}}}}),
            Some(1_048_575),
        ),
        (
            "byteStringSize",
            json!({"type": "string", "format": "byte"}),
            Some(3_145_726),
        ),
        (
            "byteStringSetMaxLength",
            json!({"type": "string", "format": "byte", "maxLength": 20}),
            Some(20),
        ),
        (
            "Property under array",
            json!({"type": "array", "properties": {"field": {"type": "string", "default": "default"}}}),
            None,
        ),
        (
            "Items under object",
            json!({"type": "object", "items": {"type": "array", "required": ["field"],
                "properties": {"field": {"type": "string", "default": "default"}}}}),
            Some(0),
        ),
    ];
    for (name, schema, want) in cases {
        let decl = schema_decl_type(&structural(schema), false);
        assert_eq!(decl.map(|d| d.max_elements), want, "{name}");
    }
}

fn meta_max(decl: &DeclType, field: &str) -> i64 {
    let meta = &decl.field("metadata").unwrap().ty;
    meta.field(field).unwrap().ty.max_elements
}

/// schemas_test.go `TestWithTypeAndObjectMetaNameLength` (through the declarations).
#[test]
fn object_meta_name_length() {
    let meta = |name: Option<i64>, generate: Option<i64>| {
        let mut props = serde_json::Map::new();
        if let Some(n) = name {
            props.insert("name".into(), json!({"type": "string", "maxLength": n}));
        }
        if let Some(n) = generate {
            props.insert(
                "generateName".into(),
                json!({"type": "string", "maxLength": n}),
            );
        }
        if props.is_empty() {
            return json!({"type": "object"});
        }
        json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": props}}})
    };
    for (schema, name, generate) in [
        (meta(None, None), 253, 252),
        (meta(Some(10), None), 10, 252),
        (meta(None, Some(100)), 253, 100),
        (meta(Some(1000), Some(1000)), 253, 252),
    ] {
        let decl = schema_decl_type(&structural(schema.clone()), true).unwrap();
        assert_eq!(meta_max(&decl, "name"), name * 4, "{schema}");
        assert_eq!(meta_max(&decl, "generateName"), generate * 4, "{schema}");
    }
}

/// schemas_test.go `TestSchemaDeclTypes` and types_test.go: the object types of a resource
/// root named `CustomObject`.
#[test]
fn type_names() {
    let s = structural(
        json!({"type": "object", "required": ["name", "value"], "properties": {
        "name": {"type": "string", "maxLength": 256},
        "value": {"type": "integer", "format": "int64", "default": 1, "enum": [1, 2, 3]},
        "nested": {"type": "object", "properties": {
            "subname": {"type": "string"},
            "flags": {"type": "object", "additionalProperties": {"type": "boolean"}},
            "dates": {"type": "array", "items": {"type": "string", "format": "date-time"}}}},
        "metadata": {"type": "object", "additionalProperties": {"type": "object", "properties": {
            "key": {"type": "string"},
            "values": {"type": "array", "items": {"type": "string"}}}}}}}),
    );
    let mut decl = schema_decl_type(&s, true).unwrap();
    decl.assign_type_names("CustomObject");
    let Type::Object(root) = decl.cel_type() else {
        panic!("object")
    };
    assert_eq!(root.name, "CustomObject");
    let field = |o: &Type, f: &str| match o {
        Type::Object(o) => o.fields[f].clone(),
        _ => panic!("{o} is not an object"),
    };
    let root = Type::Object(root);
    assert_eq!(field(&root, "nested").to_string(), "CustomObject.nested");
    assert_eq!(
        field(&root, "metadata").to_string(),
        "CustomObject.metadata"
    );
    assert_eq!(field(&field(&root, "nested"), "subname"), Type::String);
    assert_eq!(
        field(&field(&root, "nested"), "flags"),
        Type::map(Type::String, Type::Bool)
    );
    assert_eq!(
        field(&field(&root, "nested"), "dates"),
        Type::list(Type::Timestamp)
    );
    // The resource root always has apiVersion, kind and metadata.name/generateName.
    let meta = field(&root, "metadata");
    assert_eq!(field(&meta, "generateName"), Type::String);
    assert_eq!(field(&root, "apiVersion"), Type::String);
    let value = &decl.field("value").unwrap();
    assert!(value.required && value.enum_values == vec![json!(1), json!(2), json!(3)]);
    // Lists of objects and maps of objects name their elements.
    let mut l = schema_decl_type(
        &structural(json!({"type": "array", "items": {"type": "object",
            "properties": {"m": {"type": "object", "additionalProperties": {"type": "object"}}}}})),
        false,
    )
    .unwrap();
    l.assign_type_names("selfType0");
    assert_eq!(l.cel_type().to_string(), "list(selfType0.@idx)");
    let DeclKind::List(item) = &l.kind else {
        panic!("list")
    };
    assert_eq!(
        item.field("m").unwrap().ty.cel_type().to_string(),
        "map(string, selfType0.@idx.m.@elem)"
    );
}

/// The docs' OpenAPI → CEL type table.
#[test]
fn openapi_to_cel_types() {
    let cel = |v: Value| schema_decl_type(&structural(v), false).map(|d| d.cel_type().to_string());
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            Some("object"),
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            Some("map(string, int)"),
        ),
        (
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
            Some("object"),
        ),
        (json!({"x-kubernetes-preserve-unknown-fields": true}), None),
        (json!({"x-kubernetes-int-or-string": true}), Some("dyn")),
        (
            json!({"type": "array", "items": {"type": "number"}}),
            Some("list(double)"),
        ),
        (
            json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}),
            Some("list(string)"),
        ),
        (
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}}}),
            Some("list(object)"),
        ),
        (json!({"type": "boolean"}), Some("bool")),
        (json!({"type": "integer", "format": "int32"}), Some("int")),
        (json!({"type": "string", "format": "byte"}), Some("bytes")),
        (
            json!({"type": "string", "format": "date"}),
            Some("timestamp"),
        ),
        (
            json!({"type": "string", "format": "date-time"}),
            Some("timestamp"),
        ),
        (
            json!({"type": "string", "format": "duration"}),
            Some("duration"),
        ),
        (json!({"type": "string", "format": "uuid"}), Some("string")),
    ];
    for (schema, want) in cases {
        assert_eq!(cel(schema.clone()).as_deref(), want, "{schema}");
    }
    // Unescapable property names are not visible; escapable ones are renamed.
    let o = schema_decl_type(
        &structural(json!({"type": "object", "properties": {
            "a:b": {"type": "string"}, "x-y": {"type": "string"}, "if": {"type": "string"}}})),
        false,
    )
    .unwrap();
    let DeclKind::Object { fields, .. } = &o.kind else {
        panic!("object")
    };
    assert_eq!(
        fields.keys().collect::<Vec<_>>(),
        vec!["__if__", "x__dash__y"]
    );
}
