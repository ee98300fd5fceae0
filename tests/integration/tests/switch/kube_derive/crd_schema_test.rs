//! kube-rs `kube-derive/tests/crd_schema_test.rs`: every attribute of the derive on one
//! resource (names, metadata, `served`/`storage`/`deprecated`, selectable fields, printer
//! columns, scale), jiff's timestamps, enums in their layouts, sets, serde defaults, validator's
//! `length`; and its `Flattening`, `IntOrStringTest` and `DenyUnknown` resources.

use serde_json::json;

use super::{V0, at, compare, crdkit_crd, kube_crd};

fn default_value() -> String {
    "default_value".into()
}

fn default_nullable() -> Option<String> {
    Some("default_nullable".into())
}

mod kube_side {
    use std::collections::{HashMap, HashSet};

    use jiff::Timestamp;
    use kube::{CustomResource, KubeSchema};
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    use super::{default_nullable, default_value};

    #[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, KubeSchema)]
    #[kube(
        group = "clux.dev",
        version = "v1",
        kind = "Foo",
        category = "clux",
        namespaced,
        doc = "Custom resource representing a Foo",
        derive = "PartialEq",
        shortname = "fo",
        shortname = "f",
        served = false,
        storage = false,
        deprecated = "my warning",
        selectable = ".spec.nonNullable",
        selectable = ".spec.nullable",
        annotation("clux.dev", "cluxingv1"),
        annotation("clux.dev/firewall", "enabled"),
        label("clux.dev", "cluxingv1"),
        label("clux.dev/persistence", "disabled"),
        validation = "self.metadata.name == 'singleton'",
        status = "Status",
        printcolumn(json_path = ".spec.name", name = "Spec", type_ = "string"),
        scale(
            spec_replicas_path = ".spec.replicas",
            status_replicas_path = ".status.replicas",
            label_selector_path = ".status.labelSelector"
        )
    )]
    #[x_kube(validation = "has(self.nonNullable)")]
    #[serde(rename_all = "camelCase")]
    pub struct FooSpec {
        non_nullable: String,
        #[serde(default = "default_value")]
        non_nullable_with_default: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        nullable_skipped: Option<String>,
        nullable: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[serde(default = "default_nullable")]
        nullable_skipped_with_default: Option<String>,
        #[serde(default = "default_nullable")]
        nullable_with_default: Option<String>,
        timestamp: Timestamp,
        /// This is a complex enum with a description
        #[x_kube(validation = "!has(self.variantOne) || self.variantOne.int > 22")]
        complex_enum: ComplexEnum,
        /// This is a untagged enum with a description
        untagged_enum_person: UntaggedEnumPerson,
        #[validate(length(min = 1))]
        my_list: Vec<String>,
        set: HashSet<String>,
        #[serde(default = "FooSpec::default_value")]
        associated_default: bool,
        #[x_kube(merge_strategy = ListMerge::Set)]
        x_kubernetes_set: Vec<String>,
        optional_enum: Option<Gender>,
        /// Preferred gender
        optional_enum_with_doc: Option<Gender>,
    }

    impl FooSpec {
        fn default_value() -> bool {
            true
        }
    }

    #[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Status {
        replicas: usize,
        label_selector: String,
    }

    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
    #[kube(group = "clux.dev", version = "v1", kind = "Flattening")]
    pub struct FlatteningSpec {
        foo: String,
        #[serde(flatten)]
        arbitrary: HashMap<String, serde_json::Value>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(clippy::enum_variant_names)]
    pub enum ComplexEnum {
        /// First variant with an int
        VariantOne { int: i32 },
        /// Second variant with an String
        VariantTwo { str: String },
        /// Third variant which doesn't has an attribute
        VariantThree {},
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[serde(untagged)]
    pub enum UntaggedEnumPerson {
        GenderAndAge(GenderAndAge),
        GenderAndDateOfBirth(GenderAndDateOfBirth),
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct GenderAndAge {
        /// Gender of the person
        gender: Gender,
        /// Age of the person in years
        age: i32,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct GenderAndDateOfBirth {
        /// Gender of the person
        gender: Gender,
        /// Date of birth of the person as ISO 8601 date
        date_of_birth: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
    #[serde(rename_all = "PascalCase")]
    pub enum Gender {
        Female,
        Male,
        /// This variant has a comment!
        Other,
    }

    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
    #[kube(group = "clux.dev", version = "v1", kind = "IntOrStringTest")]
    pub struct IntOrStringTestSpec {
        pub required_int_or_string: k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
        pub optional_int_or_string:
            Option<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>,
    }

    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
    #[kube(group = "clux.dev", version = "v1", kind = "DenyUnknown")]
    pub struct DenyUnknownSpec {
        pub subitem: SubItemDenyUnknown,
    }

    #[derive(Deserialize, Serialize, Clone, Debug, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct SubItemDenyUnknown {
        pub one: String,
        pub two: bool,
        pub three: i32,
    }
}

// `allow_unresolved` warns that the printer column and `.spec.replicas` are not checked.
#[allow(deprecated)]
mod crdkit_side {
    use std::collections::{HashMap, HashSet};

    use jiff::Timestamp;
    use serde::{Deserialize, Serialize};

    use super::{default_nullable, default_value};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[crd(
        group = "clux.dev",
        version = "v1",
        kind = "Foo",
        category = "clux",
        namespaced,
        root_description = "Custom resource representing a Foo",
        derive(PartialEq),
        short_name = "fo",
        short_name = "f",
        served = false,
        // `storage = false` is kube-rs's, and the API server rejects the CRD ("must have
        // exactly one version marked as storage version"): crdkit refuses it at compile time.
        deprecated,
        deprecation_warning = "my warning",
        selectable_field = ".spec.nonNullable",
        selectable_field = ".spec.nullable",
        annotation("clux.dev", "cluxingv1"),
        annotation("clux.dev/firewall", "enabled"),
        label("clux.dev", "cluxingv1"),
        label("clux.dev/persistence", "disabled"),
        root_validation(rule = "self.metadata.name == 'singleton'"),
        status = Status,
        // `FooSpec` has neither `name` nor `replicas`.
        print_column(json_path = ".spec.name", name = "Spec", type = "string", allow_unresolved),
        scale(
            spec_replicas = ".spec.replicas",
            status_replicas = ".status.replicas",
            label_selector = ".status.labelSelector",
            allow_unresolved
        ),
        validation(rule = "has(self.nonNullable)")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct FooSpec {
        non_nullable: String,
        #[serde(default = "default_value")]
        non_nullable_with_default: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        nullable_skipped: Option<String>,
        nullable: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[serde(default = "default_nullable")]
        nullable_skipped_with_default: Option<String>,
        #[serde(default = "default_nullable")]
        nullable_with_default: Option<String>,
        timestamp: Timestamp,
        /// This is a complex enum with a description
        #[crd(validation(rule = "!has(self.variantOne) || self.variantOne.int > 22"))]
        complex_enum: ComplexEnum,
        /// This is a untagged enum with a description
        untagged_enum_person: UntaggedEnumPerson,
        #[validate(length(min = 1))]
        my_list: Vec<String>,
        set: HashSet<String>,
        #[serde(default = "FooSpec::default_value")]
        associated_default: bool,
        #[crd(list_type = "set")]
        x_kubernetes_set: Vec<String>,
        optional_enum: Option<Gender>,
        /// Preferred gender
        optional_enum_with_doc: Option<Gender>,
    }

    impl FooSpec {
        fn default_value() -> bool {
            true
        }
    }

    #[derive(crdkit::Schema, Clone, Debug, PartialEq, Deserialize, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Status {
        replicas: usize,
        label_selector: String,
    }

    #[derive(crdkit::CustomResource, Deserialize, Serialize, Clone, Debug)]
    #[crd(group = "clux.dev", version = "v1", kind = "Flattening")]
    pub struct FlatteningSpec {
        foo: String,
        #[serde(flatten)]
        arbitrary: HashMap<String, serde_json::Value>,
    }

    #[derive(crdkit::Schema, Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "camelCase")]
    #[allow(clippy::enum_variant_names)]
    pub enum ComplexEnum {
        /// First variant with an int
        VariantOne { int: i32 },
        /// Second variant with an String
        VariantTwo { str: String },
        /// Third variant which doesn't has an attribute
        VariantThree {},
    }

    #[derive(crdkit::Schema, Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "camelCase")]
    #[serde(untagged)]
    pub enum UntaggedEnumPerson {
        GenderAndAge(GenderAndAge),
        GenderAndDateOfBirth(GenderAndDateOfBirth),
    }

    #[derive(crdkit::Schema, Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "camelCase")]
    pub struct GenderAndAge {
        /// Gender of the person
        gender: Gender,
        /// Age of the person in years
        age: i32,
    }

    #[derive(crdkit::Schema, Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "camelCase")]
    pub struct GenderAndDateOfBirth {
        /// Gender of the person
        gender: Gender,
        /// Date of birth of the person as ISO 8601 date
        date_of_birth: String,
    }

    #[derive(crdkit::Schema, Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename_all = "PascalCase")]
    pub enum Gender {
        Female,
        Male,
        /// This variant has a comment!
        Other,
    }

    #[derive(crdkit::CustomResource, Deserialize, Serialize, Clone, Debug)]
    #[crd(group = "clux.dev", version = "v1", kind = "IntOrStringTest")]
    pub struct IntOrStringTestSpec {
        pub required_int_or_string: k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
        pub optional_int_or_string:
            Option<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>,
    }

    #[derive(crdkit::CustomResource, Deserialize, Serialize, Clone, Debug)]
    #[crd(group = "clux.dev", version = "v1", kind = "DenyUnknown")]
    pub struct DenyUnknownSpec {
        pub subitem: SubItemDenyUnknown,
    }

    #[derive(crdkit::Schema, Deserialize, Serialize, Clone, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct SubItemDenyUnknown {
        pub one: String,
        pub two: bool,
        pub three: i32,
    }
}

const NO_ROOT_DESCRIPTION: &str = "crdkit describes the root only when asked (`root_description`)";

#[test]
fn foo() {
    let spec = format!("{V0}.properties.spec.properties");
    compare(
        &kube_crd::<kube_side::Foo>(),
        &crdkit_crd::<crdkit_side::Foo>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("Foo")),
                None,
                "no title (module docs)",
            ),
            at(
                "spec.versions[0].storage",
                Some(json!(false)),
                Some(json!(true)),
                "kube-rs's test stores no version, which the API server rejects; crdkit refuses \
                 `storage = false` on a lone root at compile time",
            ),
            at(
                format!("{spec}.nullableSkipped.nullable"),
                Some(json!(true)),
                None,
                "`skip_serializing_if`: not nullable (module docs)",
            ),
            at(
                format!("{spec}.nullableSkippedWithDefault.nullable"),
                Some(json!(true)),
                None,
                "`skip_serializing_if`: not nullable (module docs)",
            ),
            at(
                format!("{spec}.set.x-kubernetes-list-type"),
                None,
                Some(json!("set")),
                "a `HashSet` holds each item once: crdkit says so, and the API server then \
                 rejects duplicates and merges the list as a set in server-side apply",
            ),
            at(
                format!("{V0}.properties.status.nullable"),
                Some(json!(true)),
                None,
                "the root never writes a null status (module docs)",
            ),
            at(
                format!("{V0}.properties.status.properties.replicas.format"),
                Some(json!("uint")),
                None,
                "`usize`: integer ranges (module docs)",
            ),
        ],
    );
}

/// A flattened map: both keep unknown fields (structural schemas cannot have `properties` and
/// `additionalProperties` together).
#[test]
fn flattening() {
    compare(
        &kube_crd::<kube_side::Flattening>(),
        &crdkit_crd::<crdkit_side::Flattening>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("Flattening")),
                None,
                "no title (module docs)",
            ),
            at(
                format!("{V0}.description"),
                Some(json!(
                    "Auto-generated derived type for FlatteningSpec via `CustomResource`"
                )),
                None,
                NO_ROOT_DESCRIPTION,
            ),
        ],
    );
}

/// `Option<IntOrString>` is nullable int-or-string on both sides (kube-rs#1869).
#[test]
fn int_or_string() {
    let spec = format!("{V0}.properties.spec.properties");
    let description = "IntOrString is a type that can hold an int32 or a string.  When used in \
                       JSON or YAML marshalling and unmarshalling, it produces or consumes the \
                       inner type.  This allows you to have, for example, a JSON field that can \
                       accept a name or number.";
    compare(
        &kube_crd::<kube_side::IntOrStringTest>(),
        &crdkit_crd::<crdkit_side::IntOrStringTest>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("IntOrStringTest")),
                None,
                "no title (module docs)",
            ),
            at(
                format!("{V0}.description"),
                Some(json!(
                    "Auto-generated derived type for IntOrStringTestSpec via `CustomResource`"
                )),
                None,
                NO_ROOT_DESCRIPTION,
            ),
            at(
                format!("{spec}.required_int_or_string.description"),
                Some(json!(description)),
                None,
                "crdkit's `IntOrString` carries no description: the field's doc comment says \
                 what it holds",
            ),
            at(
                format!("{spec}.optional_int_or_string.description"),
                Some(json!(description)),
                None,
                "crdkit's `IntOrString` carries no description: the field's doc comment says \
                 what it holds",
            ),
        ],
    );
}

/// `deny_unknown_fields` is serde's business: neither side writes `additionalProperties:
/// false`, which structural schemas forbid (kube-rs#1828).
#[test]
fn deny_unknown_fields() {
    compare(
        &kube_crd::<kube_side::DenyUnknown>(),
        &crdkit_crd::<crdkit_side::DenyUnknown>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("DenyUnknown")),
                None,
                "no title (module docs)",
            ),
            at(
                format!("{V0}.description"),
                Some(json!(
                    "Auto-generated derived type for DenyUnknownSpec via `CustomResource`"
                )),
                None,
                NO_ROOT_DESCRIPTION,
            ),
        ],
    );
}
