//! kube-rs `examples/crd_derive_schema.rs`: defaulting and nullability, list types, and CEL
//! rules (`KubeSchema` with `#[x_kube(validation = ..)]`, crdkit's `validation(..)`).

use serde_json::json;

use super::{V0, at, compare, crdkit_crd, kube_crd};

fn default_value() -> String {
    "default_value".into()
}

fn default_legal() -> Option<String> {
    Some("legal".into())
}

fn default_nullable() -> Option<String> {
    Some("default_nullable".into())
}

mod kube_side {
    use kube::{CustomResource, KubeSchema};
    use schemars::json_schema;
    use serde::{Deserialize, Serialize};

    use super::{default_legal, default_nullable, default_value};

    #[derive(
        CustomResource, KubeSchema, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone,
    )]
    #[kube(
        group = "clux.dev",
        version = "v1",
        kind = "Foo",
        namespaced,
        derive = "PartialEq",
        derive = "Default",
        validation = "self.metadata.name != 'forbidden'"
    )]
    #[serde(rename_all = "camelCase")]
    #[x_kube(validation = "self.nonNullable == oldSelf.nonNullable")]
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
        /// Default listable field
        #[serde(default)]
        default_listable: Vec<u32>,
        #[serde(default)]
        #[schemars(schema_with = "set_listable_schema")]
        set_listable: Vec<u32>,
        #[serde(default = "default_legal")]
        #[x_kube(
            validation = Rule::new("self != 'illegal'").message(Message::Expression("'string cannot be illegal'".into())).reason(Reason::FieldValueForbidden),
            validation = Rule::new("self != 'not legal'").reason(Reason::FieldValueInvalid),
        )]
        cel_validated: Option<String>,
        /// Immutable field that uses optionalOldSelf
        #[serde(default)]
        #[x_kube(
            validation = Rule::new("oldSelf.optMap(o, o == self).orValue(true)").optional_old_self(true).message("Immutable after creation")
        )]
        immutable: Option<String>,
        #[x_kube(validation = Rule::new("self == oldSelf").message("is immutable"))]
        foo_sub_spec: Option<FooSubSpec>,
        #[serde(default = "FooSpec::default_value")]
        associated_default: bool,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone)]
    pub struct FooSubSpec {
        /// Heterogenous CEL rule set
        #[x_kube(validation = "self != 'not legal'", validation = Rule::new("self != 'not that'"))]
        #[x_kube(validation = ("self != 'also not that'", "some pretty good reason"))]
        field: String,
        other: Option<String>,
    }

    impl FooSpec {
        fn default_value() -> bool {
            true
        }
    }

    fn set_listable_schema(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
        json_schema!({
            "type": "array",
            "items": {
                "format": "u32",
                "minimum": 0,
                "type": "integer"
            },
            "x-kubernetes-list-type": "set"
        })
    }
}

mod crdkit_side {
    use serde::{Deserialize, Serialize};

    use super::{default_legal, default_nullable, default_value};

    #[derive(
        crdkit::CustomResource, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone,
    )]
    #[crd(
        group = "clux.dev",
        version = "v1",
        kind = "Foo",
        namespaced,
        derive(PartialEq, Default),
        root_validation(rule = "self.metadata.name != 'forbidden'"),
        validation(rule = "self.nonNullable == oldSelf.nonNullable")
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
        /// Default listable field
        #[serde(default)]
        default_listable: Vec<u32>,
        #[serde(default)]
        #[crd(list_type = "set")]
        set_listable: Vec<u32>,
        #[serde(default = "default_legal")]
        #[crd(
            validation(
                rule = "self != 'illegal'",
                message_expression = "'string cannot be illegal'",
                reason = "FieldValueForbidden"
            ),
            validation(rule = "self != 'not legal'", reason = "FieldValueInvalid")
        )]
        cel_validated: Option<String>,
        /// Immutable field that uses optionalOldSelf
        #[serde(default)]
        #[crd(validation(
            rule = "oldSelf.optMap(o, o == self).orValue(true)",
            optional_old_self,
            message = "Immutable after creation"
        ))]
        immutable: Option<String>,
        #[crd(validation(rule = "self == oldSelf", message = "is immutable"))]
        foo_sub_spec: Option<FooSubSpec>,
        #[serde(default = "FooSpec::default_value")]
        associated_default: bool,
    }

    #[derive(crdkit::Schema, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone)]
    pub struct FooSubSpec {
        /// Heterogenous CEL rule set
        #[crd(
            validation(rule = "self != 'not legal'"),
            validation(rule = "self != 'not that'"),
            validation(rule = "self != 'also not that'", message = "some pretty good reason")
        )]
        field: String,
        other: Option<String>,
    }

    impl FooSpec {
        fn default_value() -> bool {
            true
        }
    }
}

/// The defaults (serde's, written by both), the list types and every CEL rule agree; what
/// differs is the recurring set (module docs).
#[test]
fn crd_derive_schema() {
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
                format!("{V0}.description"),
                Some(json!(
                    "Auto-generated derived type for FooSpec via `CustomResource`"
                )),
                None,
                "crdkit describes the root only when asked (`root_description`)",
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
                format!("{spec}.defaultListable.items.format"),
                Some(json!("uint32")),
                None,
                "integer ranges (module docs)",
            ),
            at(
                format!("{spec}.defaultListable.items.maximum"),
                None,
                Some(json!(4_294_967_295_u64)),
                "integer ranges (module docs)",
            ),
            at(
                format!("{spec}.setListable.items.format"),
                Some(json!("u32")),
                None,
                "kube-rs's hand-written schema (`schema_with`) says `u32`, a format the API \
                 server ignores; crdkit's `list_type = \"set\"` keeps the type's schema",
            ),
            at(
                format!("{spec}.setListable.items.maximum"),
                None,
                Some(json!(4_294_967_295_u64)),
                "integer ranges (module docs)",
            ),
        ],
    );
}
