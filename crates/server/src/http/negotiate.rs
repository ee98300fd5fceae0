//! Content negotiation: what the client accepts (`Accept`) and what it sent (`Content-Type`).
//!
//! Mirrors apiserver `pkg/endpoints/handlers/negotiation/negotiate.go` and the transformations
//! of `handlers/response.go`: JSON and YAML, `as=Table` and `as=PartialObjectMetadata[List]` of
//! `meta.k8s.io` `v1`/`v1beta1`, and aggregated discovery (`as=APIGroupDiscoveryList` of
//! `apidiscovery.k8s.io` `v2`/`v2beta1`). The first acceptable clause wins, in the client's order
//! (client-go sends no `q` weights). Protobuf (`application/vnd.kubernetes.protobuf`) is
//! served for the built-in kinds that have a message (crdkit-protobuf); for the others a client
//! offering JSON after it gets JSON, one offering protobuf alone gets 406. (kube-apiserver
//! answers a custom resource asked for protobuf first with a 406 even when JSON follows,
//! kubernetes/kubernetes#86253, an open bug; the fallback here is deliberate.)

use super::status::ApiError;

/// A response encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// `application/json`
    Json,
    /// `application/yaml`
    Yaml,
    /// `application/vnd.kubernetes.protobuf` (built-in kinds).
    Protobuf,
}

/// What the client asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The object (or list) itself.
    Object(Encoding),
    /// A `meta.k8s.io` `Table` (`v1` or `v1beta1`).
    Table(&'static str),
    /// `PartialObjectMetadata` (or its list) of `meta.k8s.io` `v1` or `v1beta1`.
    PartialMetadata(&'static str),
    /// Aggregated discovery (`v2` or `v2beta1`).
    Discovery(&'static str),
}

/// The encoding of an error answered before (or instead of) negotiation: YAML when the client
/// asks for it first, JSON otherwise.
#[must_use]
pub fn error_encoding(headers: &http::HeaderMap) -> Encoding {
    let accept = headers
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    if accept.is_some_and(|a| a.starts_with("application/yaml")) {
        Encoding::Yaml
    } else {
        Encoding::Json
    }
}

/// The media types of the API server's serializers, for 406 messages (`MediaTypesForSerializer`:
/// custom resources list protobuf too, though their objects have no protobuf form).
pub const PRODUCED: &[&str] = &[
    "application/json",
    "application/yaml",
    "application/vnd.kubernetes.protobuf",
];

/// The media types of the serializers that stream (watch), for 406 messages: YAML has none.
pub const STREAMED: &[&str] = &[
    "application/json;stream=watch",
    "application/vnd.kubernetes.protobuf;stream=watch",
];

struct Clause<'a> {
    ty: &'a str,
    params: Vec<(&'a str, &'a str)>,
}

impl<'a> Clause<'a> {
    fn parse(s: &'a str) -> Clause<'a> {
        let mut it = s.split(';');
        let ty = it.next().unwrap_or("").trim();
        let params = it
            .filter_map(|p| p.split_once('='))
            .map(|(k, v)| (k.trim(), v.trim().trim_matches('"')))
            .collect();
        Clause { ty, params }
    }

    fn param(&self, key: &str) -> Option<&'a str> {
        self.params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }
}

/// The output for an `Accept` header (absent means JSON), protobuf not offered.
///
/// # Errors
/// 406 when no clause is acceptable.
pub fn output(accept: Option<&str>) -> Result<Output, ApiError> {
    output_with(accept, false)
}

/// The output for an `Accept` header, protobuf offered when `protobuf` (a built-in kind).
///
/// # Errors
/// 406 when no clause is acceptable.
pub fn output_with(accept: Option<&str>, protobuf: bool) -> Result<Output, ApiError> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Ok(Output::Object(Encoding::Json));
    };
    for clause in accept.split(',').map(Clause::parse) {
        let encoding = match clause.ty.to_ascii_lowercase().as_str() {
            "application/json" | "application/*" | "*/*" | "*" => Encoding::Json,
            "application/yaml" => Encoding::Yaml,
            // `Table` and the other transformations have no protobuf form here.
            "application/vnd.kubernetes.protobuf" if protobuf && clause.param("as").is_none() => {
                Encoding::Protobuf
            }
            _ => continue,
        };
        match (clause.param("as"), clause.param("g"), clause.param("v")) {
            (None, _, _) => return Ok(Output::Object(encoding)),
            (Some("Table"), Some("meta.k8s.io"), Some(v @ ("v1" | "v1beta1"))) => {
                return Ok(Output::Table(if v == "v1" { "v1" } else { "v1beta1" }));
            }
            (
                Some("PartialObjectMetadata" | "PartialObjectMetadataList"),
                Some("meta.k8s.io"),
                Some(v @ ("v1" | "v1beta1")),
            ) => {
                return Ok(Output::PartialMetadata(if v == "v1" {
                    "v1"
                } else {
                    "v1beta1"
                }));
            }
            (
                Some("APIGroupDiscoveryList"),
                Some("apidiscovery.k8s.io"),
                Some(v @ ("v2" | "v2beta1")),
            ) => {
                return Ok(Output::Discovery(if v == "v2" { "v2" } else { "v2beta1" }));
            }
            _ => {}
        }
    }
    Err(ApiError::not_acceptable(PRODUCED))
}

/// The kind of a request body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyType {
    /// `application/json` (also the default when no `Content-Type` is sent).
    Json,
    /// `application/yaml`
    Yaml,
    /// `application/merge-patch+json`
    MergePatch,
    /// `application/json-patch+json`
    JsonPatch,
    /// `application/strategic-merge-patch+json`
    StrategicMergePatch,
    /// `application/apply-patch+yaml` (also `+cbor`)
    ApplyPatch,
    /// `application/vnd.kubernetes.protobuf`
    Protobuf,
    /// Anything else.
    Other,
}

/// The body type of a `Content-Type` header.
#[must_use]
pub fn body_type(content_type: Option<&str>) -> BodyType {
    let Some(ct) = content_type else {
        return BodyType::Json;
    };
    const TYPES: [(&str, BodyType); 9] = [
        ("", BodyType::Json),
        ("application/json", BodyType::Json),
        ("application/yaml", BodyType::Yaml),
        ("application/merge-patch+json", BodyType::MergePatch),
        ("application/json-patch+json", BodyType::JsonPatch),
        (
            "application/strategic-merge-patch+json",
            BodyType::StrategicMergePatch,
        ),
        ("application/apply-patch+yaml", BodyType::ApplyPatch),
        ("application/apply-patch+cbor", BodyType::ApplyPatch),
        ("application/vnd.kubernetes.protobuf", BodyType::Protobuf),
    ];
    // Media types compare without regard to ASCII case (no lowercase copy per request).
    let ty = ct.split(';').next().unwrap_or("").trim();
    TYPES
        .iter()
        .find(|(t, _)| t.eq_ignore_ascii_case(ty))
        .map_or(BodyType::Other, |(_, b)| *b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_accept_headers() {
        let table = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        assert_eq!(output(Some(table)).unwrap(), Output::Table("v1"));
        let agg = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
        assert_eq!(output(Some(agg)).unwrap(), Output::Discovery("v2"));
        assert_eq!(
            output(Some("application/json, */*")).unwrap(),
            Output::Object(Encoding::Json)
        );
        assert_eq!(output(None).unwrap(), Output::Object(Encoding::Json));
        assert_eq!(
            output(Some("application/yaml")).unwrap(),
            Output::Object(Encoding::Yaml)
        );
        assert_eq!(
            output(Some("application/vnd.kubernetes.protobuf,application/json")).unwrap(),
            Output::Object(Encoding::Json)
        );
        assert_eq!(
            output(Some(
                "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
            ))
            .unwrap_err()
            .code,
            406
        );
        assert_eq!(
            output(Some("application/json;as=Table;v=v2;g=meta.k8s.io"))
                .unwrap_err()
                .code,
            406
        );
    }

    #[test]
    fn body_types() {
        assert_eq!(body_type(None), BodyType::Json);
        assert_eq!(
            body_type(Some("application/json; charset=utf-8")),
            BodyType::Json
        );
        assert_eq!(
            body_type(Some("application/merge-patch+json")),
            BodyType::MergePatch
        );
        assert_eq!(
            body_type(Some("application/vnd.kubernetes.protobuf")),
            BodyType::Protobuf
        );
        // Any ASCII case, surrounding space and parameters; an empty type is JSON.
        for (ct, want) in [
            (" Application/YAML ;x=y", BodyType::Yaml),
            ("APPLICATION/APPLY-PATCH+CBOR", BodyType::ApplyPatch),
            ("application/apply-patch+yaml", BodyType::ApplyPatch),
            ("application/json-patch+json", BodyType::JsonPatch),
            (
                "application/strategic-merge-patch+JSON",
                BodyType::StrategicMergePatch,
            ),
            (" ; charset=utf-8", BodyType::Json),
            ("application/jsonx", BodyType::Other),
            ("text/plain", BodyType::Other),
        ] {
            assert_eq!(body_type(Some(ct)), want, "{ct}");
        }
        let kubectl = "application/vnd.kubernetes.protobuf,application/json";
        assert_eq!(
            output_with(Some(kubectl), true).unwrap(),
            Output::Object(Encoding::Protobuf)
        );
    }
}
