//! Content negotiation: what the client accepts (`Accept`) and what it sent (`Content-Type`).
//!
//! Mirrors apiserver `pkg/endpoints/handlers/negotiation/negotiate.go` and the transformations
//! of `handlers/response.go`: JSON and YAML, `as=Table` and `as=PartialObjectMetadata[List]` of
//! `meta.k8s.io` `v1`/`v1beta1`, and aggregated discovery (`as=APIGroupDiscoveryList` of
//! `apidiscovery.k8s.io` `v2`/`v2beta1`). The clauses are read and ordered as munnerz/goautoneg
//! `ParseAccept` reads and orders them (by `q`, then concrete before wildcard types, media
//! types compared as written), and each is tried against JSON, YAML and protobuf in that order
//! (`NegotiateMediaTypeOptions`, `acceptMediaTypeOptions`, `RequestScope.AllowsMediaTypeTransform`).
//! Protobuf (`application/vnd.kubernetes.protobuf`) is served for the built-in kinds that have
//! a message (crdkit-protobuf); custom resources leave it out of their standard serializers, so
//! a client offering JSON after it gets JSON, one offering protobuf alone a 406. (What differs:
//! `PartialObjectMetadata` is not served in protobuf, and a `Table` asked for in YAML comes as
//! JSON.)

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

/// The encoding of an error (`ErrorNegotiated`): YAML when the client's `Accept` negotiates
/// to it, JSON otherwise (also for an `Accept` nothing satisfies; protobuf is not used).
#[must_use]
pub fn error_encoding(headers: &http::HeaderMap) -> Encoding {
    error_encoding_of(headers.get(http::header::ACCEPT))
}

/// [`error_encoding`] of an `Accept` value.
#[must_use]
pub fn error_encoding_of(accept: Option<&http::HeaderValue>) -> Encoding {
    match output(accept.and_then(|v| v.to_str().ok())) {
        Ok(Output::Object(Encoding::Yaml)) => Encoding::Yaml,
        _ => Encoding::Json,
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

/// A clause of an `Accept` header, as goautoneg's `Accept`.
struct Clause<'a> {
    ty: &'a str,
    subtype: &'a str,
    q: f32,
    params: Vec<(&'a str, &'a str)>,
}

impl<'a> Clause<'a> {
    /// goautoneg `ParseAccept` of one comma-separated part: `None` for a media range that is
    /// not `type/subtype` or `*`; spaces (only) trimmed; `q` read as Go's `ParseFloat` (0 when
    /// it does not parse), other parameters kept, the last of a name winning.
    fn parse(part: &'a str) -> Option<Clause<'a>> {
        let mut it = part.trim_matches(' ').split(';');
        let range = it.next().unwrap_or("");
        let (ty, subtype) = match range.split_once('/') {
            Some((_, sub)) if sub.contains('/') => return None,
            Some((ty, sub)) => (ty.trim_matches(' '), sub.trim_matches(' ')),
            None if range.trim_matches(' ') == "*" => ("*", "*"),
            None => return None,
        };
        let mut clause = Clause {
            ty,
            subtype,
            q: 1.0,
            params: Vec::new(),
        };
        for (k, v) in it.filter_map(|p| p.split_once('=')) {
            match k.trim_matches(' ') {
                "q" => clause.q = v.parse().unwrap_or(0.0),
                k => clause.params.push((k, v.trim_matches(' '))),
            }
        }
        Some(clause)
    }

    fn param(&self, key: &str) -> Option<&'a str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// goautoneg's `Less`: a higher `q`, or a concrete type or subtype before a wildcard.
    fn before(&self, other: &Clause<'_>) -> bool {
        self.q > other.q
            || (self.ty != "*" && other.ty == "*")
            || (self.subtype != "*" && other.subtype == "*")
    }
}

/// Up to this many clauses `sort.Sort` is Go's insertion sort (`pdqsort`'s `maxInsertion`).
const INSERTION_SORTED: usize = 12;

/// The clauses of an `Accept` header in the order goautoneg sorts them: `sort.Sort`, which for
/// the dozen clauses a real header has is Go's insertion sort (stable under `before`). A longer
/// header (Go's order is then `pdqsort`'s, not stable) is sorted stably by `q` and wildcards, in
/// O(n log n): a hostile header of 100,000 clauses costs no more than parsing it.
fn clauses(accept: &str) -> Vec<Clause<'_>> {
    let mut clauses: Vec<Clause<'_>> = accept.split(',').filter_map(Clause::parse).collect();
    if clauses.len() > INSERTION_SORTED {
        clauses.sort_by(|a, b| {
            b.q.total_cmp(&a.q)
                .then((a.ty == "*").cmp(&(b.ty == "*")))
                .then((a.subtype == "*").cmp(&(b.subtype == "*")))
        });
        return clauses;
    }
    for i in 1..clauses.len() {
        let mut j = i;
        while j > 0 && clauses[j].before(&clauses[j - 1]) {
            clauses.swap(j, j - 1);
            j -= 1;
        }
    }
    clauses
}

/// Whether an `Accept` header (absent: `*/*`) takes JSON, read as goautoneg reads it, as kube-openapi
/// `handler3` asks its clauses (before the protobuf it also serves, not served here); `None`
/// when it has no clause at all (`handler3` then answers nothing).
#[must_use]
pub fn takes_json(accept: Option<&str>) -> Option<bool> {
    let clauses = clauses(accept.filter(|a| !a.is_empty()).unwrap_or("*/*"));
    (!clauses.is_empty()).then(|| {
        clauses.iter().any(|c| {
            (c.ty == "application" || c.ty == "*") && (c.subtype == "json" || c.subtype == "*")
        })
    })
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
    let Some(accept) = accept.filter(|a| !a.is_empty()) else {
        return Ok(Output::Object(Encoding::Json));
    };
    let serializers = [
        ("json", Encoding::Json),
        ("yaml", Encoding::Yaml),
        ("vnd.kubernetes.protobuf", Encoding::Protobuf),
    ];
    for clause in clauses(accept) {
        for (subtype, encoding) in serializers {
            let listed = (clause.ty == "application"
                && (clause.subtype == subtype || clause.subtype == "*"))
                || (clause.ty == "*" && clause.subtype == "*");
            if let Some(output) = listed
                .then(|| accepted(&clause, encoding, protobuf))
                .flatten()
            {
                return Ok(output);
            }
        }
    }
    Err(ApiError::not_acceptable(PRODUCED))
}

/// `acceptMediaTypeOptions` and `AllowsMediaTypeTransform` for a clause and a serializer: a
/// `stream` other than `watch` or on YAML (no stream serializer) refuses it; `as`, `g` or `v`
/// ask for a transformation, which must be one the server makes.
fn accepted(clause: &Clause<'_>, encoding: Encoding, protobuf: bool) -> Option<Output> {
    if clause
        .param("stream")
        .is_some_and(|s| !s.is_empty() && (s != "watch" || encoding == Encoding::Yaml))
    {
        return None;
    }
    let transform = (clause.param("as"), clause.param("g"), clause.param("v"));
    // `Table` and the other transformations have no protobuf form here; custom resources
    // have none at all.
    if encoding == Encoding::Protobuf && (!protobuf || transform != (None, None, None)) {
        return None;
    }
    let v1 = |v: &str| if v == "v1" { "v1" } else { "v1beta1" };
    match transform {
        (None, None, None) => Some(Output::Object(encoding)),
        (Some("Table"), Some("meta.k8s.io"), Some(v @ ("v1" | "v1beta1"))) => {
            Some(Output::Table(v1(v)))
        }
        (
            Some("PartialObjectMetadata" | "PartialObjectMetadataList"),
            Some("meta.k8s.io"),
            Some(v @ ("v1" | "v1beta1")),
        ) => Some(Output::PartialMetadata(v1(v))),
        (
            Some("APIGroupDiscoveryList"),
            Some("apidiscovery.k8s.io"),
            Some(v @ ("v2" | "v2beta1")),
        ) => Some(Output::Discovery(if v == "v2" { "v2" } else { "v2beta1" })),
        _ => None,
    }
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

    /// goautoneg's order and kube-apiserver's matching.
    #[test]
    fn clauses_are_ordered_and_matched_as_go_does() {
        let out = |a: &str| output(Some(a)).map_err(|e| e.code);
        let json = Ok(Output::Object(Encoding::Json));
        let yaml = Ok(Output::Object(Encoding::Yaml));
        assert_eq!(out("application/yaml;q=0.5, application/json"), json);
        assert_eq!(out("application/json;q=0.1, application/yaml"), yaml);
        // `Less` puts a concrete type before a wildcard whatever their q.
        assert_eq!(out("*/*, application/yaml;q=0.1"), yaml);
        assert_eq!(out("*"), json);
        assert_eq!(out("application/*"), json);
        // q=0, or a q that does not parse, is still acceptable (last).
        assert_eq!(out("application/json;q=0"), json);
        assert_eq!(out("application/yaml;q=x, application/json"), json);
        // Media types as written; only an empty header is the default.
        assert_eq!(out("Application/JSON"), Err(406));
        assert_eq!(out(" "), Err(406));
        assert_eq!(out("text/*, */json"), Err(406));
        // A hostile header of many clauses is sorted in O(n log n), in order.
        let many = (0..50_000)
            .map(|i| format!("a/b;q={i}"))
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(out(&many), Err(406));
        assert_eq!(out(&format!("{many},application/yaml;q=0.5")), yaml);
        // `stream` needs a stream serializer; `g` or `v` alone ask for a transformation.
        assert_eq!(out("application/yaml;stream=watch, application/json"), json);
        assert_eq!(out("application/json;stream=x"), Err(406));
        assert_eq!(out("application/json;v=v1, application/yaml"), yaml);
        assert_eq!(
            out("application/json;as=\"Table\";g=meta.k8s.io;v=v1"),
            Err(406)
        );
        assert_eq!(
            out("application/json;as=Table;g=meta.k8s.io;v=v1;as=Nope"),
            Err(406)
        );
        // A wildcard tries JSON, then YAML: a Table from `*/*`.
        assert_eq!(
            out("*/*;as=Table;g=meta.k8s.io;v=v1"),
            Ok(Output::Table("v1"))
        );
        // Protobuf for the kinds that have it, not for transformations.
        let pb = |a: &str| output_with(Some(a), true).map_err(|e| e.code);
        assert_eq!(
            pb("application/json;q=0.9, application/vnd.kubernetes.protobuf"),
            Ok(Output::Object(Encoding::Protobuf))
        );
        assert_eq!(
            pb("application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1"),
            Err(406)
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
