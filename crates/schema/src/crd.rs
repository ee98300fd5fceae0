//! `apiextensions.k8s.io/v1` CustomResourceDefinition as plain serde types.
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/v1/types.go`, without k8s-openapi
//! (which costs a minute of compile time); the `kube` feature of `crdkit` converts to it.

use serde::{Deserialize, Serialize};

use crate::JsonSchemaProps;
use crate::meta::ObjectMeta;

/// A CustomResourceDefinition.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinition {
    /// `apiextensions.k8s.io/v1`
    #[serde(default)]
    pub api_version: String,
    /// `CustomResourceDefinition`
    #[serde(default)]
    pub kind: String,
    /// `metadata`
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`
    #[serde(default)]
    pub spec: CustomResourceDefinitionSpec,
    /// `status`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<serde_json::Value>,
}

impl CustomResourceDefinition {
    /// The `apiVersion` of CRDs this crate writes.
    pub const API_VERSION: &'static str = "apiextensions.k8s.io/v1";
    /// The `kind` of CRDs.
    pub const KIND: &'static str = "CustomResourceDefinition";

    /// A CRD named `<plural>.<group>` with the given spec.
    #[must_use]
    pub fn new(spec: CustomResourceDefinitionSpec) -> Self {
        CustomResourceDefinition {
            api_version: Self::API_VERSION.to_owned(),
            kind: Self::KIND.to_owned(),
            metadata: ObjectMeta {
                name: Some(format!("{}.{}", spec.names.plural, spec.group)),
                ..ObjectMeta::default()
            },
            spec,
            status: None,
        }
    }

    /// The CRD as a JSON value with keys in sorted order, the form every writer starts from.
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        // Serializing these plain structs cannot fail: every map key is a string.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The CRD as YAML, keys sorted, in the style of `kubectl get -o yaml`.
    #[must_use]
    pub fn to_yaml(&self) -> String {
        crate::yaml::to_string(&self.to_value())
    }

    /// The CRD as indented JSON, keys sorted.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_value()).unwrap_or_default()
    }
}

/// `spec` of a CustomResourceDefinition.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionSpec {
    /// `group`
    #[serde(default)]
    pub group: String,
    /// `names`
    #[serde(default)]
    pub names: CustomResourceDefinitionNames,
    /// `Namespaced` or `Cluster`.
    #[serde(default)]
    pub scope: String,
    /// `versions`
    #[serde(default)]
    pub versions: Vec<CustomResourceDefinitionVersion>,
    /// `conversion`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversion: Option<CustomResourceConversion>,
    /// `preserveUnknownFields`
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preserve_unknown_fields: bool,
}

/// `spec.names`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionNames {
    /// `plural`
    #[serde(default)]
    pub plural: String,
    /// `singular`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub singular: String,
    /// `shortNames`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// `kind`
    #[serde(default)]
    pub kind: String,
    /// `listKind`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub list_kind: String,
    /// `categories`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

impl CustomResourceDefinitionNames {
    /// The v1 defaults of the names (apiextensions-apiserver `pkg/apis/apiextensions/v1/
    /// defaults.go`, `SetDefaults_CustomResourceDefinitionSpec`): `singular` the lower-cased
    /// kind and `listKind` the kind with `List`, where they are empty.
    pub fn set_defaults(&mut self) {
        self.singular = self.singular_or_default();
        self.list_kind = self.list_kind_or_default();
    }

    /// `singular`, or its default: the lower-cased kind.
    #[must_use]
    pub fn singular_or_default(&self) -> String {
        if self.singular.is_empty() {
            self.kind.to_lowercase()
        } else {
            self.singular.clone()
        }
    }

    /// `listKind`, or its default: the kind with `List` (none without a kind).
    #[must_use]
    pub fn list_kind_or_default(&self) -> String {
        if self.list_kind.is_empty() && !self.kind.is_empty() {
            format!("{}List", self.kind)
        } else {
            self.list_kind.clone()
        }
    }
}

/// One entry of `spec.versions`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionVersion {
    /// `name`
    #[serde(default)]
    pub name: String,
    /// `served`
    #[serde(default)]
    pub served: bool,
    /// `storage`
    #[serde(default)]
    pub storage: bool,
    /// `deprecated`
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    /// `deprecationWarning`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_warning: Option<String>,
    /// `schema`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<CustomResourceValidation>,
    /// `subresources`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subresources: Option<CustomResourceSubresources>,
    /// `additionalPrinterColumns`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    /// `selectableFields`
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectable_fields: Vec<SelectableField>,
}

/// `schema` of a version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CustomResourceValidation {
    #[serde(
        rename = "openAPIV3Schema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    /// `openApiV3Schema`
    pub open_api_v3_schema: Option<JsonSchemaProps>,
}

/// `subresources` of a version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CustomResourceSubresources {
    /// `status: {}` enables the status subresource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<serde_json::Map<String, serde_json::Value>>,
    /// `scale`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<CustomResourceSubresourceScale>,
}

/// `subresources.scale`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresourceScale {
    /// `specReplicasPath`
    #[serde(default)]
    pub spec_replicas_path: String,
    /// `statusReplicasPath`
    #[serde(default)]
    pub status_replicas_path: String,
    /// `labelSelectorPath`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector_path: Option<String>,
}

/// One of `additionalPrinterColumns`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceColumnDefinition {
    /// `name`
    #[serde(default)]
    pub name: String,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    #[serde(default, rename = "type")]
    pub ty: String,
    /// `format`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// `description`
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `priority`
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority: i32,
    /// `jsonPath`
    #[serde(default)]
    pub json_path: String,
}

/// One of `selectableFields`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectableField {
    /// `jsonPath`
    #[serde(default)]
    pub json_path: String,
}

/// `spec.conversion`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceConversion {
    /// `None` or `Webhook`.
    #[serde(default)]
    pub strategy: String,
    /// `webhook`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookConversion>,
}

/// `spec.conversion.webhook`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookConversion {
    /// `clientConfig`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_config: Option<WebhookClientConfig>,
    /// `conversionReviewVersions`
    #[serde(default)]
    pub conversion_review_versions: Vec<String>,
}

/// `spec.conversion.webhook.clientConfig`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookClientConfig {
    /// `url`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `service`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceReference>,
    /// Base64 of the PEM bundle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_bundle: Option<String>,
}

/// `spec.conversion.webhook.clientConfig.service`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServiceReference {
    /// `namespace`
    #[serde(default)]
    pub namespace: String,
    /// `name`
    #[serde(default)]
    pub name: String,
    /// `path`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// `port`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// Why a document is not a CustomResourceDefinition this crate reads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// Another `apiVersion`/`kind`.
    WrongKind {
        /// What the document is instead: its `apiVersion` and `kind` (`v1 ConfigMap`), or a
        /// note that it has no `kind`.
        found: String,
    },
    /// The document does not decode (a field of the wrong type, say).
    Decode(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::WrongKind { found } => write!(
                f,
                "expected a CustomResourceDefinition (apiextensions.k8s.io/v1 or v1beta1), found {found}"
            ),
            Self::Decode(m) => write!(f, "cannot decode the CustomResourceDefinition: {m}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl CustomResourceDefinition {
    /// Reads a CRD document: `apiextensions.k8s.io/v1`, or `v1beta1` converted to `v1` the way
    /// the API server converts it (apiextensions-apiserver `pkg/apis/apiextensions/v1beta1`
    /// defaults and conversion): the top-level `validation`, `subresources` and
    /// `additionalPrinterColumns` apply to every version, `version` becomes the only version when
    /// `versions` is empty, and `preserveUnknownFields` defaults to `true`.
    ///
    /// # Errors
    /// When the document is not a CRD or does not decode.
    // `inline`: the deserializer it instantiates (over half of this crate's machine code) is then
    // built by the crates that read CRDs (`crdgen`), not by every build of the derive.
    #[inline]
    pub fn from_value(mut v: serde_json::Value) -> Result<CustomResourceDefinition, ReadError> {
        let api_version = v
            .get("apiVersion")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let kind = v
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if kind != Self::KIND
            || !matches!(
                api_version.as_str(),
                "apiextensions.k8s.io/v1" | "apiextensions.k8s.io/v1beta1"
            )
        {
            let found = if kind.is_empty() {
                "a document without `kind`".to_owned()
            } else {
                format!("{api_version} {kind}")
            };
            return Err(ReadError::WrongKind { found });
        }
        if api_version.ends_with("v1beta1") {
            v1beta1_to_v1(&mut v);
        }
        decode(v)
    }
}

/// Decodes a CRD document; the error names the field that failed.
#[inline]
fn decode(v: serde_json::Value) -> Result<CustomResourceDefinition, ReadError> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        ReadError::Decode(if path == "." {
            inner.to_string()
        } else {
            format!("{path}: {inner}")
        })
    })
}

fn v1beta1_to_v1(v: &mut serde_json::Value) {
    use serde_json::{Value, json};
    v["apiVersion"] = json!(CustomResourceDefinition::API_VERSION);
    let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let validation = spec.remove("validation");
    let subresources = spec.remove("subresources");
    let columns = spec.remove("additionalPrinterColumns");
    let version = spec.remove("version");
    if !spec.contains_key("preserveUnknownFields") {
        spec.insert("preserveUnknownFields".to_owned(), json!(true));
    }
    let versions = spec.entry("versions").or_insert_with(|| json!([]));
    if versions.as_array().is_some_and(Vec::is_empty)
        && let Some(name) = version
    {
        *versions = json!([{"name": name, "served": true, "storage": true}]);
    }
    if let Some(list) = versions.as_array_mut() {
        for ver in list.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(s) = &validation {
                ver.entry("schema").or_insert_with(|| s.clone());
            }
            if let Some(s) = &subresources {
                ver.entry("subresources").or_insert_with(|| s.clone());
            }
            if let Some(c) = &columns {
                ver.entry("additionalPrinterColumns")
                    .or_insert_with(|| c.clone());
            }
            // v1beta1 spells the column path `JSONPath`.
            if let Some(Value::Array(cols)) = ver.get_mut("additionalPrinterColumns") {
                for col in cols.iter_mut().filter_map(Value::as_object_mut) {
                    if let Some(p) = col.remove("JSONPath") {
                        col.insert("jsonPath".to_owned(), p);
                    }
                }
            }
        }
    }
    if let Some(conv) = spec.get_mut("conversion").and_then(Value::as_object_mut) {
        let cfg = conv.remove("webhookClientConfig");
        let review = conv.remove("conversionReviewVersions");
        if cfg.is_some() || review.is_some() {
            let review = review.unwrap_or_else(|| json!(["v1beta1"]));
            conv.insert(
                "webhook".to_owned(),
                json!({"clientConfig": cfg, "conversionReviewVersions": review}),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decode_errors_name_the_field() {
        let e = CustomResourceDefinition::from_value(json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {"group": "stable.example.com", "scope": "Namespaced",
                "names": {"plural": "crontabs", "kind": "CronTab"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object",
                        "properties": {"x": {"type": 5}}}}}]}
        }))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot decode the CustomResourceDefinition: spec.versions[0].schema.openAPIV3Schema.properties.x.type: invalid type: integer `5`, expected a string"
        );
    }

    #[test]
    fn reads_v1beta1_as_the_api_server_converts_it() {
        let crd = CustomResourceDefinition::from_value(json!({
            "apiVersion": "apiextensions.k8s.io/v1beta1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {
                "group": "stable.example.com", "version": "v1", "scope": "Namespaced",
                "names": {"plural": "crontabs", "kind": "CronTab"},
                "validation": {"openAPIV3Schema": {"type": "object"}},
                "additionalPrinterColumns": [{"name": "Age", "type": "date", "JSONPath": ".metadata.creationTimestamp"}],
            }
        }))
        .unwrap();
        assert!(crd.spec.preserve_unknown_fields);
        let v = &crd.spec.versions[0];
        assert_eq!((v.name.as_str(), v.served, v.storage), ("v1", true, true));
        assert!(v.schema.as_ref().unwrap().open_api_v3_schema.is_some());
        assert_eq!(
            v.additional_printer_columns[0].json_path,
            ".metadata.creationTimestamp"
        );
    }

    #[test]
    fn rejects_other_kinds() {
        let e = CustomResourceDefinition::from_value(json!({"apiVersion": "v1", "kind": "Pod"}))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected a CustomResourceDefinition (apiextensions.k8s.io/v1 or v1beta1), found v1 Pod"
        );
    }
}
