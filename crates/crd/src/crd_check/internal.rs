//! The CRD as the API server validates it: v1 defaults applied and converted to the internal form.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/v1/defaults.go` and
//! `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec` in
//! `v1/conversion.go`, plus `json.Marshal` of the internal Go structs, which is how Go prints a
//! bad value such as `spec.versions` (Go field names, declaration order, every field).

use std::fmt::Write as _;

use serde_json::Value;

use crdkit_apimachinery::field::BadValue;
use crdkit_apimachinery::gofmt;
use crdkit_schema::check::MAX_SCHEMA_DEPTH;
use crdkit_schema::crd::{
    CustomResourceColumnDefinition, CustomResourceConversion, CustomResourceDefinition,
    CustomResourceDefinitionVersion, CustomResourceSubresources, CustomResourceValidation,
    SelectableField,
};
use crdkit_schema::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};

/// A copy of `crd` with the v1 defaults applied and `null` defaults and examples removed (Go's
/// decoder turns a JSON `null` for a pointer field into "unset").
pub(super) fn prepare(crd: &CustomResourceDefinition) -> CustomResourceDefinition {
    let mut crd = crd.clone();
    crd.spec.names.set_defaults();
    let conversion = crd
        .spec
        .conversion
        .get_or_insert_with(|| CustomResourceConversion {
            strategy: "None".to_owned(),
            webhook: None,
        });
    if let Some(svc) = conversion
        .webhook
        .as_mut()
        .and_then(|w| w.client_config.as_mut())
        .and_then(|c| c.service.as_mut())
    {
        svc.port.get_or_insert(443);
    }
    for v in &mut crd.spec.versions {
        if let Some(s) = v
            .schema
            .as_mut()
            .and_then(|s| s.open_api_v3_schema.as_mut())
        {
            strip_nulls(s, 0);
        }
    }
    crd
}

fn strip_nulls(p: &mut JsonSchemaProps, depth: usize) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    if p.default.as_ref().is_some_and(Value::is_null) {
        p.default = None;
    }
    if p.example.as_ref().is_some_and(Value::is_null) {
        p.example = None;
    }
    let d = depth + 1;
    match &mut p.items {
        Some(SchemaOrArray::Schema(s)) => strip_nulls(s, d),
        Some(SchemaOrArray::Array(a)) => a.iter_mut().for_each(|s| strip_nulls(s, d)),
        None => {}
    }
    for s in p
        .all_of
        .iter_mut()
        .chain(&mut p.one_of)
        .chain(&mut p.any_of)
    {
        strip_nulls(s, d);
    }
    if let Some(n) = &mut p.not {
        strip_nulls(n, d);
    }
    for s in p
        .properties
        .values_mut()
        .chain(p.pattern_properties.values_mut())
        .chain(p.definitions.values_mut())
    {
        strip_nulls(s, d);
    }
    for x in [&mut p.additional_properties, &mut p.additional_items]
        .into_iter()
        .flatten()
    {
        if let SchemaOrBool::Schema(s) = x {
            strip_nulls(s, d);
        }
    }
    for x in p.dependencies.values_mut() {
        if let SchemaOrStringArray::Schema(s) = x {
            strip_nulls(s, d);
        }
    }
}

/// One version with the per-version fields that stay per version after conversion.
pub(super) struct VersionView<'a> {
    pub version: &'a CustomResourceDefinitionVersion,
    pub schema: Option<&'a CustomResourceValidation>,
    pub subresources: Option<&'a CustomResourceSubresources>,
    pub columns: &'a [CustomResourceColumnDefinition],
    pub selectable: &'a [SelectableField],
}

/// The internal spec: top-level fields where all versions agree, per-version fields otherwise.
pub(super) struct View<'a> {
    pub validation: Option<&'a CustomResourceValidation>,
    pub subresources: Option<&'a CustomResourceSubresources>,
    pub columns: &'a [CustomResourceColumnDefinition],
    pub selectable: Option<&'a [SelectableField]>,
    pub versions: Vec<VersionView<'a>>,
}

fn same_subresources(
    a: Option<&CustomResourceSubresources>,
    b: Option<&CustomResourceSubresources>,
) -> bool {
    match (a, b) {
        // `status` is an empty struct in Go: only its presence counts.
        (Some(a), Some(b)) => a.status.is_some() == b.status.is_some() && a.scale == b.scale,
        (a, b) => a.is_none() && b.is_none(),
    }
}

impl<'a> View<'a> {
    pub(super) fn of(crd: &'a CustomResourceDefinition) -> View<'a> {
        let vs = &crd.spec.versions;
        let mut view = View {
            validation: None,
            subresources: None,
            columns: &[],
            selectable: None,
            versions: vs
                .iter()
                .map(|v| VersionView {
                    version: v,
                    schema: v.schema.as_ref(),
                    subresources: v.subresources.as_ref(),
                    columns: &v.additional_printer_columns,
                    selectable: &v.selectable_fields,
                })
                .collect(),
        };
        let Some(first) = vs.first() else { return view };
        let same_schema = vs.iter().all(|v| v.schema == first.schema);
        if same_schema {
            view.validation = first.schema.as_ref();
            view.versions.iter_mut().for_each(|v| v.schema = None);
        }
        if vs
            .iter()
            .all(|v| same_subresources(v.subresources.as_ref(), first.subresources.as_ref()))
        {
            view.subresources = first.subresources.as_ref();
            view.versions.iter_mut().for_each(|v| v.subresources = None);
        }
        if vs
            .iter()
            .all(|v| v.additional_printer_columns == first.additional_printer_columns)
        {
            view.columns = &first.additional_printer_columns;
            view.versions.iter_mut().for_each(|v| v.columns = &[]);
        }
        // Selectable fields move with the schema only. `v1/conversion.go` moves them on their
        // own, and then rejects per-version schemas with top-level selectable fields (`may only
        // be set when validations.schema is included`): kubernetes/kubernetes#140689, fixed in
        // #140710. `TestSelectableFields` ("selectableFields with duplicate jsonPaths are
        // invalid") expects them checked per version, as here.
        if same_schema
            && vs
                .iter()
                .all(|v| v.selectable_fields == first.selectable_fields)
        {
            view.selectable = Some(&first.selectable_fields);
            view.versions.iter_mut().for_each(|v| v.selectable = &[]);
        }
        view
    }

    /// `getSubresourcesForVersion`.
    pub(super) fn subresources_for(&self, i: usize) -> Option<&'a CustomResourceSubresources> {
        if self.versions.iter().any(|v| v.subresources.is_some()) {
            self.versions.get(i).and_then(|v| v.subresources)
        } else {
            self.subresources
        }
    }

    /// `hasAnyStatusEnabled`.
    pub(super) fn any_status(&self) -> bool {
        self.subresources.is_some_and(|s| s.status.is_some())
            || self
                .versions
                .iter()
                .any(|v| v.subresources.is_some_and(|s| s.status.is_some()))
    }

    /// `HasSchemaWith`.
    pub(super) fn any_schema(&self, pred: impl Fn(&JsonSchemaProps) -> bool) -> bool {
        let top = self.validation.and_then(|v| v.open_api_v3_schema.as_ref());
        let per = self
            .versions
            .iter()
            .filter_map(|v| v.schema.and_then(|s| s.open_api_v3_schema.as_ref()));
        top.into_iter().chain(per).any(pred)
    }

    /// Go's printing of `spec.Versions` (internal structs) as a bad value.
    pub(super) fn versions_value(&self) -> BadValue {
        let mut s = String::from("[");
        for (i, v) in self.versions.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            version_json(v, &mut s);
        }
        s.push(']');
        BadValue::Raw(s)
    }
}

fn str_json(s: &str) -> String {
    gofmt::json(&Value::String(s.to_owned()))
}

fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> String) -> String {
    v.map_or_else(|| "null".to_owned(), f)
}

fn num(f: f64) -> String {
    gofmt::json(&crdkit_schema::props::go_number(f))
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        return "null".to_owned();
    }
    format!("[{}]", items.iter().map(f).collect::<Vec<_>>().join(","))
}

fn object(fields: &[(&str, String)]) -> String {
    let mut s = String::from("{");
    for (i, (k, v)) in fields.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{k}\":{v}");
    }
    s.push('}');
    s
}

fn version_json(v: &VersionView<'_>, out: &mut String) {
    let ver = v.version;
    let sub = |s: &CustomResourceSubresources| {
        object(&[
            ("Status", opt(s.status.as_ref(), |_| "{}".to_owned())),
            (
                "Scale",
                opt(s.scale.as_ref(), |sc| {
                    object(&[
                        ("SpecReplicasPath", str_json(&sc.spec_replicas_path)),
                        ("StatusReplicasPath", str_json(&sc.status_replicas_path)),
                        (
                            "LabelSelectorPath",
                            opt(sc.label_selector_path.as_deref(), str_json),
                        ),
                    ])
                }),
            ),
        ])
    };
    out.push_str(&object(&[
        ("Name", str_json(&ver.name)),
        ("Served", ver.served.to_string()),
        ("Storage", ver.storage.to_string()),
        ("Deprecated", ver.deprecated.to_string()),
        (
            "DeprecationWarning",
            opt(ver.deprecation_warning.as_deref(), str_json),
        ),
        (
            "Schema",
            opt(v.schema, |s| {
                object(&[(
                    "OpenAPIV3Schema",
                    opt(s.open_api_v3_schema.as_ref(), props_json),
                )])
            }),
        ),
        ("Subresources", opt(v.subresources, sub)),
        (
            "AdditionalPrinterColumns",
            list(v.columns, |c| {
                object(&[
                    ("Name", str_json(&c.name)),
                    ("Type", str_json(&c.ty)),
                    ("Format", str_json(&c.format)),
                    ("Description", str_json(&c.description)),
                    ("Priority", c.priority.to_string()),
                    ("JSONPath", str_json(&c.json_path)),
                ])
            }),
        ),
        (
            "SelectableFields",
            list(v.selectable, |f| {
                object(&[("JSONPath", str_json(&f.json_path))])
            }),
        ),
    ]));
}

/// `json.Marshal` of the internal `JSONSchemaProps`.
pub(super) fn props_json(p: &JsonSchemaProps) -> String {
    let schemas = |m: &std::collections::BTreeMap<String, JsonSchemaProps>| {
        if m.is_empty() {
            return "null".to_owned();
        }
        let fields: Vec<(String, String)> = m
            .iter()
            .map(|(k, v)| (str_json(k), props_json(v)))
            .collect();
        format!(
            "{{{}}}",
            fields
                .iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect::<Vec<_>>()
                .join(",")
        )
    };
    let or_bool = |x: &SchemaOrBool| match x {
        SchemaOrBool::Bool(b) => {
            object(&[("Allows", b.to_string()), ("Schema", "null".to_owned())])
        }
        SchemaOrBool::Schema(s) => {
            object(&[("Allows", "true".to_owned()), ("Schema", props_json(s))])
        }
    };
    let int = |i: &i64| i.to_string();
    let strings = |v: &[String]| list(v, |s| str_json(s));
    let deps = if p.dependencies.is_empty() {
        "null".to_owned()
    } else {
        let fields: Vec<String> = p
            .dependencies
            .iter()
            .map(|(k, d)| {
                let (schema, property) = match d {
                    SchemaOrStringArray::Schema(s) => (props_json(s), "null".to_owned()),
                    SchemaOrStringArray::Array(a) => ("null".to_owned(), strings(a)),
                };
                format!(
                    "{}:{}",
                    str_json(k),
                    object(&[("Schema", schema), ("Property", property)])
                )
            })
            .collect();
        format!("{{{}}}", fields.join(","))
    };
    object(&[
        ("ID", str_json(&p.id)),
        ("Schema", str_json(&p.schema)),
        ("Ref", opt(p.reference.as_deref(), str_json)),
        ("Description", str_json(&p.description)),
        ("Type", str_json(&p.ty)),
        ("Nullable", p.nullable.to_string()),
        ("Format", str_json(&p.format)),
        ("Title", str_json(&p.title)),
        ("Default", opt(p.default.as_ref(), gofmt::json)),
        ("Maximum", opt(p.maximum, num)),
        ("ExclusiveMaximum", p.exclusive_maximum.to_string()),
        ("Minimum", opt(p.minimum, num)),
        ("ExclusiveMinimum", p.exclusive_minimum.to_string()),
        ("MaxLength", opt(p.max_length.as_ref(), int)),
        ("MinLength", opt(p.min_length.as_ref(), int)),
        ("Pattern", str_json(&p.pattern)),
        ("MaxItems", opt(p.max_items.as_ref(), int)),
        ("MinItems", opt(p.min_items.as_ref(), int)),
        ("UniqueItems", p.unique_items.to_string()),
        ("MultipleOf", opt(p.multiple_of, num)),
        ("Enum", list(&p.enum_values, gofmt::json)),
        ("MaxProperties", opt(p.max_properties.as_ref(), int)),
        ("MinProperties", opt(p.min_properties.as_ref(), int)),
        ("Required", strings(&p.required)),
        ("Items", opt(p.items.as_ref(), items_json)),
        ("AllOf", list(&p.all_of, props_json)),
        ("OneOf", list(&p.one_of, props_json)),
        ("AnyOf", list(&p.any_of, props_json)),
        ("Not", opt(p.not.as_deref(), props_json)),
        ("Properties", schemas(&p.properties)),
        (
            "AdditionalProperties",
            opt(p.additional_properties.as_ref(), or_bool),
        ),
        ("PatternProperties", schemas(&p.pattern_properties)),
        ("Dependencies", deps),
        ("AdditionalItems", opt(p.additional_items.as_ref(), or_bool)),
        ("Definitions", schemas(&p.definitions)),
        (
            "ExternalDocs",
            opt(p.external_docs.as_ref(), |d| {
                object(&[
                    ("Description", str_json(&d.description)),
                    ("URL", str_json(&d.url)),
                ])
            }),
        ),
        ("Example", opt(p.example.as_ref(), gofmt::json)),
        (
            "XPreserveUnknownFields",
            opt(p.x_preserve_unknown_fields, |b| b.to_string()),
        ),
        ("XEmbeddedResource", p.x_embedded_resource.to_string()),
        ("XIntOrString", p.x_int_or_string.to_string()),
        ("XListMapKeys", strings(&p.x_list_map_keys)),
        ("XListType", opt(p.x_list_type.as_deref(), str_json)),
        ("XMapType", opt(p.x_map_type.as_deref(), str_json)),
        (
            "XValidations",
            list(&p.x_validations, |r| {
                object(&[
                    ("Rule", str_json(&r.rule)),
                    ("Message", str_json(&r.message)),
                    ("MessageExpression", str_json(&r.message_expression)),
                    ("Reason", opt(r.reason.as_deref(), str_json)),
                    ("FieldPath", str_json(&r.field_path)),
                    (
                        "OptionalOldSelf",
                        opt(r.optional_old_self, |b| b.to_string()),
                    ),
                ])
            }),
        ),
    ])
}

/// `json.Marshal` of the internal `*JSONSchemaPropsOrArray`.
pub(super) fn items_json(items: &SchemaOrArray) -> String {
    match items {
        SchemaOrArray::Schema(s) => object(&[
            ("Schema", props_json(s)),
            ("JSONSchemas", "null".to_owned()),
        ]),
        SchemaOrArray::Array(a) => object(&[
            ("Schema", "null".to_owned()),
            ("JSONSchemas", list(a, props_json)),
        ]),
    }
}
