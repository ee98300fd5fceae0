//! What a request path names: discovery, OpenAPI, or a resource request with its group,
//! version, namespace, resource, name and subresource.
//!
//! Mirrors apiserver `pkg/endpoints/request/requestinfo.go` (`RequestInfoFactory.NewRequestInfo`):
//! `/api/v1/…` is the core group; `/namespaces/<ns>/<resource>…` scopes a resource to a namespace,
//! except that `/namespaces/<name>` and its `status` and `finalize` are the namespace itself; a
//! `watch` segment after the version is the deprecated watch path.

use super::query::unescape;

/// A parsed request path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `/version`
    Version,
    /// `/healthz`, `/readyz`, `/livez` (and their sub-checks).
    Health,
    /// `/api`
    CoreVersions,
    /// `/apis`
    Groups,
    /// `/apis/<group>`
    Group(String),
    /// `/api/v1`, `/apis/<group>/<version>`: the group-version's resource list.
    GroupVersion {
        /// Empty for the core group.
        group: String,
        /// The version.
        version: String,
    },
    /// `/openapi/v3`
    OpenApiIndex,
    /// `/openapi/v3/<path>`: `api/v1` or `apis/<g>/<v>`.
    OpenApiDoc(String),
    /// `/openapi/v2`
    OpenApiV2,
    /// A resource request.
    Resource(ResourcePath),
    /// Anything else.
    Unknown,
}

/// `/apis/<group>/<version>[/namespaces/<ns>]/<resource>[/<name>[/<subresource>]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourcePath {
    /// Empty for the core group.
    pub group: String,
    /// The version.
    pub version: String,
    /// The namespace from the path; `None` for cluster-scoped paths and lists across namespaces.
    pub namespace: Option<String>,
    /// The plural resource name.
    pub resource: String,
    /// The object's name.
    pub name: Option<String>,
    /// `status`, `scale`, …
    pub subresource: Option<String>,
    /// The deprecated `/watch/` path form.
    pub watch_path: bool,
}

/// Parses a request path (without the query), percent-decoded first as Go's `URL.Path` is
/// before `requestinfo.go` splits it (`system%3Aauth` names `system:auth`; `%2F` separates). A
/// malformed escape names nothing (Go's server refuses the request line).
#[must_use]
pub fn parse(path: &str) -> Route {
    match unescape(path, false) {
        Ok(decoded) => parse_decoded(&decoded),
        Err(_) => Route::Unknown,
    }
}

fn parse_decoded(path: &str) -> Route {
    let trimmed = path.trim_matches('/');
    // The segments on the stack: every route has fewer than `buf` holds (only a long path,
    // which is a health check or nothing, takes a vector).
    let mut buf = [""; 12];
    let mut n = 0;
    for segment in trimmed.split('/') {
        if n == buf.len() {
            return route(&trimmed.split('/').collect::<Vec<_>>(), trimmed);
        }
        buf[n] = segment;
        n += 1;
    }
    route(&buf[..n], trimmed)
}

fn route(parts: &[&str], trimmed: &str) -> Route {
    if parts.iter().any(|p| p.is_empty()) && !trimmed.is_empty() {
        return Route::Unknown;
    }
    match parts {
        ["version"] => Route::Version,
        ["healthz" | "readyz" | "livez", ..] => Route::Health,
        ["api"] => Route::CoreVersions,
        ["apis"] => Route::Groups,
        ["openapi", "v3"] => Route::OpenApiIndex,
        ["openapi", "v2"] => Route::OpenApiV2,
        ["openapi", "v3", rest @ ..] if !rest.is_empty() => Route::OpenApiDoc(rest.join("/")),
        ["apis", group] if !group.is_empty() => Route::Group((*group).to_owned()),
        ["api", version] => Route::GroupVersion {
            group: String::new(),
            version: (*version).to_owned(),
        },
        ["apis", group, version] => Route::GroupVersion {
            group: (*group).to_owned(),
            version: (*version).to_owned(),
        },
        ["api", version, rest @ ..] => resource("", version, rest),
        ["apis", group, version, rest @ ..] => resource(group, version, rest),
        _ => Route::Unknown,
    }
}

fn resource(group: &str, version: &str, rest: &[&str]) -> Route {
    if rest.iter().any(|p| p.is_empty()) {
        return Route::Unknown;
    }
    let mut rest = rest;
    let mut watch_path = false;
    if rest.first() == Some(&"watch") {
        watch_path = true;
        rest = &rest[1..];
    }
    let mut namespace = None;
    if rest.first() == Some(&"namespaces")
        && rest.len() > 2
        && !matches!(rest[2], "status" | "finalize")
    {
        namespace = Some(rest[1].to_owned());
        rest = &rest[2..];
    }
    let r = match rest {
        [res] => ResourcePath {
            resource: (*res).to_owned(),
            ..ResourcePath::default()
        },
        [res, name] => ResourcePath {
            resource: (*res).to_owned(),
            name: Some((*name).to_owned()),
            ..ResourcePath::default()
        },
        [res, name, sub] => ResourcePath {
            resource: (*res).to_owned(),
            name: Some((*name).to_owned()),
            subresource: Some((*sub).to_owned()),
            ..ResourcePath::default()
        },
        _ => return Route::Unknown,
    };
    Route::Resource(ResourcePath {
        group: group.to_owned(),
        version: version.to_owned(),
        namespace,
        watch_path,
        ..r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(path: &str) -> ResourcePath {
        match parse(path) {
            Route::Resource(r) => r,
            other => panic!("{path}: {other:?}"),
        }
    }

    #[test]
    fn resource_paths() {
        let r = res("/apis/stable.example.com/v1/namespaces/default/crontabs/x/scale");
        assert_eq!(r.group, "stable.example.com");
        assert_eq!(r.namespace.as_deref(), Some("default"));
        assert_eq!(r.resource, "crontabs");
        assert_eq!(r.name.as_deref(), Some("x"));
        assert_eq!(r.subresource.as_deref(), Some("scale"));

        let r = res("/apis/stable.example.com/v1/crontabs");
        assert_eq!((r.namespace, r.name), (None, None));

        let r = res("/api/v1/namespaces/default");
        assert_eq!(
            (r.resource.as_str(), r.name.as_deref()),
            ("namespaces", Some("default"))
        );
        assert_eq!(r.namespace, None);
        let r = res("/api/v1/namespaces/default/status");
        assert_eq!(r.subresource.as_deref(), Some("status"));

        let r = res("/apis/g.io/v1/watch/namespaces/ns/things");
        assert!(r.watch_path);
        assert_eq!(r.namespace.as_deref(), Some("ns"));

        // Decoded before it is split, as Go's `URL.Path` (the Python client escapes `:`).
        let r = res("/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3Aauth%2Ddelegator");
        assert_eq!(r.name.as_deref(), Some("system:auth-delegator"));
        assert_eq!(
            res("/api/v1/namespaces/bi%67/configmaps")
                .namespace
                .as_deref(),
            Some("big")
        );
        let r = res("/api/v1/namespaces/ns%2Fconfigmaps/x");
        assert_eq!(
            (r.namespace.as_deref(), r.resource.as_str()),
            (Some("ns"), "configmaps")
        );
        assert_eq!(parse("/api/v1/namespaces/%zz/configmaps"), Route::Unknown);
        assert_eq!(parse("/api/v1/namespaces/a%2F%2Fb"), Route::Unknown);
    }

    #[test]
    fn other_paths() {
        assert_eq!(parse("/version"), Route::Version);
        assert_eq!(parse("/apis"), Route::Groups);
        assert_eq!(parse("/api"), Route::CoreVersions);
        assert_eq!(parse("/apis/g.io"), Route::Group("g.io".into()));
        assert_eq!(
            parse("/apis/g.io/v1"),
            Route::GroupVersion {
                group: "g.io".into(),
                version: "v1".into()
            }
        );
        assert_eq!(
            parse("/openapi/v3/apis/g.io/v1"),
            Route::OpenApiDoc("apis/g.io/v1".into())
        );
        assert_eq!(parse("/nope"), Route::Unknown);
        assert_eq!(parse("/apis/g/v1/a/b/c/d"), Route::Unknown);
        assert_eq!(parse("/apis/g/v1/a//b"), Route::Unknown);
        // Paths longer than the segments kept on the stack.
        let long = format!("/healthz{}", "/x".repeat(20));
        assert_eq!(parse(&long), Route::Health);
        assert_eq!(parse(&format!("{long}//")), Route::Health);
        assert_eq!(
            parse(&format!("/healthz{}//y", "/x".repeat(20))),
            Route::Unknown
        );
        assert_eq!(
            parse(&format!("/apis/g/v1{}", "/x".repeat(20))),
            Route::Unknown
        );
        assert_eq!(
            parse(&format!("/openapi/v3{}", "/x".repeat(11))),
            Route::OpenApiDoc(["x"; 11].join("/"))
        );
    }
}
