//! The routes of one CRD version, as apiextensions-apiserver's `generateBuilder` and `buildRoute`
//! (`pkg/controller/openapi/builder/builder.go`) register them on a go-restful web service for
//! kube-openapi to turn into paths: one per verb of the resource and of its `status` and
//! `scale` subresources, with their parameters, media types, responses and metadata.

use serde_json::Value;

use super::definitions::{self, DELETE_OPTIONS, OBJECT_META, PATCH, SCALE, STATUS};
use super::kind::{self, Names};
use super::naming::{description, subresource, title};
use super::params::{self, In, NAMESPACE, PRETTY, Param};
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};

const JSON_YAML: &[&str] = &["application/json", "application/yaml"];
const PATCH_TYPES: &[&str] = &[
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
];

/// What a route reads or returns (go-restful's sample types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sample {
    Kind,
    List,
    Status,
    Patch,
    Scale,
    DeleteOptions,
}

/// One route: an operation on a path.
#[derive(Clone, Debug)]
pub(crate) struct Route {
    pub path: String,
    /// `get`, `post`, `put`, `delete` or `patch`.
    pub method: &'static str,
    /// `x-kubernetes-action`.
    pub action: &'static str,
    /// The operation name before `GetOperationIDAndTags` (`listNamespacedCronTab`).
    pub operation: String,
    pub description: String,
    /// In go-restful's order; the body parameter, when there is one, last.
    pub params: Vec<Param>,
    pub consumes: &'static [&'static str],
    pub produces: &'static [&'static str],
    pub responses: Vec<(u16, &'static str, Sample)>,
    /// The request body's sample, with the body parameter.
    pub reads: Option<Sample>,
}

/// A CRD version's routes and the definitions they bring.
pub(crate) struct Builder {
    pub names: Names,
    pub kind: Value,
    pub list: Value,
    pub routes: Vec<Route>,
}

impl Builder {
    /// `generateBuilder` and `newBuilder`.
    pub fn new(
        crd: &CustomResourceDefinition,
        v: &CustomResourceDefinitionVersion,
        v2: bool,
    ) -> Self {
        let names = Names::of(crd, &v.name);
        let kind = kind::kind_schema(&names, crd, v, v2);
        let list = kind::list_schema(&names, v, v2);
        let routes = routes(&names, v);
        Builder {
            names,
            kind,
            list,
            routes,
        }
    }

    /// The builder of a built-in resource, with its own kind and list schemas.
    pub fn builtin(
        names: Names,
        v: &CustomResourceDefinitionVersion,
        kind: Value,
        list: Value,
    ) -> Self {
        let routes = routes(&names, v);
        Builder {
            names,
            kind,
            list,
            routes,
        }
    }

    /// The definition name of a sample (`util.GetCanonicalTypeName` through the namer).
    pub fn sample_name(&self, s: Sample) -> String {
        match s {
            Sample::Kind => self.names.definition(&self.names.kind),
            Sample::List => self.names.definition(&self.names.list_kind),
            Sample::Status => STATUS.to_owned(),
            Sample::Patch => PATCH.to_owned(),
            Sample::Scale => SCALE.to_owned(),
            Sample::DeleteOptions => DELETE_OPTIONS.to_owned(),
        }
    }

    /// `GetDefinitions` of the builder's config: the kind (depending on `ObjectMeta`), the list
    /// kind, and the generated definitions, each with its dependencies.
    pub fn definition(&self, name: &str) -> Option<(Value, Vec<String>)> {
        if name == self.names.definition(&self.names.kind) {
            return Some((self.kind.clone(), vec![OBJECT_META.to_owned()]));
        }
        if name == self.names.definition(&self.names.list_kind) {
            return Some((self.list.clone(), Vec::new()));
        }
        definitions::get(name).map(|d| (d.schema.clone(), d.dependencies.clone()))
    }
}

struct RouteSpec<'a> {
    root: &'a str,
    sub: &'a str,
    method: &'static str,
    action: &'static str,
    verb: &'static str,
    sample: Sample,
}

fn spec<'a>(
    root: &'a str,
    sub: &'a str,
    method: &'static str,
    action: &'static str,
    verb: &'static str,
    sample: Sample,
) -> RouteSpec<'a> {
    RouteSpec {
        root,
        sub,
        method,
        action,
        verb,
        sample,
    }
}

/// `generateBuilder`'s list of routes.
fn routes(names: &Names, v: &CustomResourceDefinitionVersion) -> Vec<Route> {
    let base = if names.group.is_empty() {
        format!("/api/{}", names.version)
    } else {
        format!("/apis/{}/{}", names.group, names.version)
    };
    let mut root = format!("{base}/{}", names.plural);
    let mut out = Vec::new();
    if names.namespaced {
        let mut all = route(names, &spec(&root, "", "get", "list", "list", Sample::List));
        all.operation = format!("list{}ForAllNamespaces", names.kind);
        out.push(all);
        root = format!("{base}/namespaces/{{namespace}}/{}", names.plural);
    }
    let r = root.as_str();
    out.push(route(
        names,
        &spec(r, "", "get", "list", "list", Sample::List),
    ));
    out.push(reads(
        route(names, &spec(r, "", "post", "post", "create", Sample::Kind)),
        Sample::Kind,
    ));
    out.push(route(
        names,
        &spec(
            r,
            "",
            "delete",
            "deletecollection",
            "deletecollection",
            Sample::Status,
        ),
    ));
    out.push(route(
        names,
        &spec(r, "/{name}", "get", "get", "read", Sample::Kind),
    ));
    out.push(reads(
        route(
            names,
            &spec(r, "/{name}", "put", "put", "replace", Sample::Kind),
        ),
        Sample::Kind,
    ));
    out.push(route(
        names,
        &spec(r, "/{name}", "delete", "delete", "delete", Sample::Status),
    ));
    out.push(reads(
        route(
            names,
            &spec(r, "/{name}", "patch", "patch", "patch", Sample::Kind),
        ),
        Sample::Patch,
    ));
    let subresources = v.subresources.as_ref();
    let mut sub = |path: &str, sample: Sample| {
        out.push(route(names, &spec(r, path, "get", "get", "read", sample)));
        out.push(reads(
            route(names, &spec(r, path, "put", "put", "replace", sample)),
            sample,
        ));
        out.push(reads(
            route(names, &spec(r, path, "patch", "patch", "patch", sample)),
            Sample::Patch,
        ));
    };
    if subresources.is_some_and(|s| s.status.is_some()) {
        sub("/{name}/status", Sample::Kind);
    }
    if subresources.is_some_and(|s| s.scale.is_some()) {
        sub("/{name}/scale", Sample::Scale);
    }
    out
}

/// `RouteBuilder.Reads`: a required body parameter of the sample's type.
fn reads(mut r: Route, sample: Sample) -> Route {
    r.params.push(body(true));
    r.reads = Some(sample);
    r
}

fn body(required: bool) -> Param {
    Param {
        name: "body".to_owned(),
        description: String::new(),
        place: In::Body,
        ty: "string",
        required,
    }
}

/// `buildRoute`.
fn route(names: &Names, s: &RouteSpec<'_>) -> Route {
    let path = format!("{}{}", s.root, s.sub);
    let namespaced = if names.namespaced { "Namespaced" } else { "" };
    let mut params = vec![Param::query("pretty", PRETTY, "string")];
    if path.contains("{namespace}") {
        params.push(Param::path("namespace", NAMESPACE));
    }
    if path.contains("{name}") {
        params.push(Param::path("name", &format!("name of the {}", names.kind)));
    }
    if let Some(options) = params::options_of(s.action) {
        params.extend(params::object_params(options));
    }
    let mut reads = None;
    if s.action == "delete" {
        params.push(body(false));
        reads = Some(Sample::DeleteOptions);
    }
    let mut responses = vec![(200, "OK", s.sample)];
    match s.action {
        "post" => {
            responses.push((202, "Accepted", s.sample));
            responses.push((201, "Created", s.sample));
        }
        "delete" => responses.push((202, "Accepted", s.sample)),
        "put" => responses.push((201, "Created", s.sample)),
        _ => {}
    }
    Route {
        operation: format!(
            "{}{namespaced}{}{}",
            s.verb,
            names.kind,
            title(subresource(s.sub))
        ),
        description: description(&names.kind, s.sub, s.verb),
        path,
        method: s.method,
        action: s.action,
        params,
        consumes: if s.method == "patch" {
            PATCH_TYPES
        } else {
            JSON_YAML
        },
        produces: JSON_YAML,
        responses,
        reads,
    }
}
