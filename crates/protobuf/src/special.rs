//! Messages whose JSON Go writes by hand (`MarshalJSON`/`UnmarshalJSON`), so that the codec
//! does not follow their protobuf fields: apimachinery `meta/v1/time.go`, `micro_time.go`,
//! `duration.go`, `helpers.go` (`FieldsV1`), `group_version.go`, `runtime/extension.go`,
//! `util/intstr/intstr.go`, `api/resource/quantity.go`, and apiextensions `v1/marshal.go`.

/// How a special message reads as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    /// `metav1.Time`: RFC 3339 seconds in UTC, `null` when zero; protobuf drops the nanos.
    Time,
    /// `metav1.MicroTime`: RFC 3339 with six fraction digits.
    MicroTime,
    /// `metav1.Duration`: Go's `time.Duration` text (`1h2m3s`).
    Duration,
    /// `resource.Quantity`: its string.
    Quantity,
    /// `intstr.IntOrString`: a number or a string by its `type`.
    IntOrString,
    /// `runtime.RawExtension`: embedded JSON, or a protobuf object (`k8s\0`).
    RawExtension,
    /// `metav1.FieldsV1`, apiextensions `JSON`: raw JSON bytes.
    RawJson,
    /// `ExtraValue`, `Verbs`: a list of strings (`repeated string items = 1`).
    StringList,
    /// `metav1.GroupVersion`: `group/version`.
    GroupVersion,
    /// `JSONSchemaPropsOrArray`: a schema or a list of schemas.
    PropsOrArray,
    /// `JSONSchemaPropsOrBool`: a schema or a boolean.
    PropsOrBool,
    /// `JSONSchemaPropsOrStringArray`: a schema or a list of property names.
    PropsOrStringArray,
}

impl Special {
    pub(crate) fn of(full_name: &str) -> Option<Self> {
        const META: &str = "k8s.io.apimachinery.pkg.apis.meta.v1.";
        if let Some(name) = full_name.strip_prefix(META) {
            return match name {
                "Time" => Some(Self::Time),
                "MicroTime" => Some(Self::MicroTime),
                "Duration" => Some(Self::Duration),
                "FieldsV1" => Some(Self::RawJson),
                "Verbs" => Some(Self::StringList),
                "GroupVersion" => Some(Self::GroupVersion),
                _ => None,
            };
        }
        match full_name {
            "k8s.io.apimachinery.pkg.api.resource.Quantity"
            | "k8s.io.apimachinery.pkg.api.resource.QuantityValue" => {
                return Some(Self::Quantity);
            }
            "k8s.io.apimachinery.pkg.util.intstr.IntOrString" => return Some(Self::IntOrString),
            "k8s.io.apimachinery.pkg.runtime.RawExtension" => return Some(Self::RawExtension),
            _ => {}
        }
        if full_name.ends_with(".ExtraValue") {
            return Some(Self::StringList);
        }
        let apiextensions = full_name
            .strip_prefix("k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.")
            .and_then(|rest| rest.split_once('.'))
            .map(|(_, name)| name);
        match apiextensions {
            Some("JSON") => Some(Self::RawJson),
            Some("JSONSchemaPropsOrArray") => Some(Self::PropsOrArray),
            Some("JSONSchemaPropsOrBool") => Some(Self::PropsOrBool),
            Some("JSONSchemaPropsOrStringArray") => Some(Self::PropsOrStringArray),
            _ => None,
        }
    }
}
