//! An OpenAPI v3 document from a CRD version's routes: kube-openapi `pkg/builder3/openapi.go`
//! (`BuildOpenAPISpecFromRoutes`: routes grouped by path, the parameters every operation of a
//! path shares hoisted to the path, request bodies per consumed media type, responses per
//! produced one, the 401 every operation answers, definitions with their dependencies, `$ref`s
//! wrapped by `WrapRefs`) with apiextensions-apiserver's `getOpenAPIV3Config`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::definitions::{self, V3_PREFIX};
use super::naming::operation_id;
use super::params::{In, Param};
use super::routes::{Builder, Route, Sample};

/// `{"title": "Kubernetes CRD Swagger", "version": "v0.1.0"}`.
pub(crate) fn info() -> Value {
    json!({"title": "Kubernetes CRD Swagger", "version": "v0.1.0"})
}

/// The document of the builder's routes.
pub(crate) fn build(b: &Builder) -> Value {
    let mut defs = Definitions {
        b,
        schemas: Map::new(),
    };
    let mut by_path: BTreeMap<&str, Vec<&Route>> = BTreeMap::new();
    for r in &b.routes {
        by_path.entry(&r.path).or_default().push(r);
    }
    let mut paths = Map::new();
    for (path, routes) in by_path {
        let common = common_parameters(&routes);
        let mut item = Map::new();
        let mut shared: Vec<&Param> = common.values().copied().collect();
        sort_params(&mut shared);
        if !shared.is_empty() {
            item.insert(
                "parameters".to_owned(),
                shared.iter().map(|p| parameter(p)).collect(),
            );
        }
        for r in routes {
            item.insert(r.method.to_owned(), operation(b, r, &common, &mut defs));
        }
        paths.insert(path.to_owned(), Value::Object(item));
    }
    json!({
        "openapi": "3.0.0",
        "info": info(),
        "paths": paths,
        "components": {"schemas": defs.schemas},
    })
}

/// `findCommonParameters`: the non-body parameters (by name and place) that every route of a
/// path has.
fn common_parameters<'r>(routes: &[&'r Route]) -> BTreeMap<(String, In), &'r Param> {
    let mut count: BTreeMap<(String, In), (usize, &Param)> = BTreeMap::new();
    for r in routes {
        for p in &r.params {
            let e = count.entry((p.name.clone(), p.place)).or_insert((0, p));
            e.0 += 1;
            // Go keeps the last route's parameter of a name.
            e.1 = p;
        }
    }
    count
        .into_iter()
        .filter(|((_, place), (n, _))| *n == routes.len() && *place != In::Body)
        .map(|(k, (_, p))| (k, p))
        .collect()
}

/// `sortParameters`: by name, then place.
pub(crate) fn sort_params(params: &mut [&Param]) {
    params.sort_by(|a, b| {
        (a.name.as_str(), a.place.as_str()).cmp(&(b.name.as_str(), b.place.as_str()))
    });
}

/// `buildParameter` (v3): `{"name", "in", "description", "required", "schema": {"type",
/// "uniqueItems"}}`.
fn parameter(p: &Param) -> Value {
    let mut m = Map::new();
    m.insert("name".to_owned(), json!(p.name));
    m.insert("in".to_owned(), json!(p.place.as_str()));
    if !p.description.is_empty() {
        m.insert("description".to_owned(), json!(p.description));
    }
    if p.required {
        m.insert("required".to_owned(), json!(true));
    }
    m.insert(
        "schema".to_owned(),
        json!({"type": p.ty, "uniqueItems": true}),
    );
    Value::Object(m)
}

/// `buildOperations`.
fn operation(
    b: &Builder,
    r: &Route,
    common: &BTreeMap<(String, In), &Param>,
    defs: &mut Definitions<'_>,
) -> Value {
    let (id, tags) = operation_id(&r.operation, &r.path);
    let mut op = Map::new();
    op.insert("description".to_owned(), json!(r.description));
    op.insert("operationId".to_owned(), json!(id));
    op.insert("tags".to_owned(), json!(tags));
    let mut own: Vec<&Param> = r
        .params
        .iter()
        .filter(|p| p.place != In::Body && !common.contains_key(&(p.name.clone(), p.place)))
        .collect();
    sort_params(&mut own);
    if !own.is_empty() {
        op.insert(
            "parameters".to_owned(),
            own.iter().map(|p| parameter(p)).collect(),
        );
    }
    if let (Some(sample), Some(body)) = (r.reads, r.params.iter().find(|p| p.place == In::Body)) {
        let schema = defs.reference(sample);
        let content: Map<String, Value> = r
            .consumes
            .iter()
            .map(|c| ((*c).to_owned(), json!({ "schema": schema })))
            .collect();
        let mut rb = Map::new();
        rb.insert("content".to_owned(), Value::Object(content));
        if body.required {
            rb.insert("required".to_owned(), json!(true));
        }
        op.insert("requestBody".to_owned(), Value::Object(rb));
    }
    let mut responses = Map::new();
    for (code, message, sample) in &r.responses {
        let schema = defs.reference(*sample);
        let content: Map<String, Value> = r
            .produces
            .iter()
            .map(|c| ((*c).to_owned(), json!({ "schema": schema })))
            .collect();
        responses.insert(
            code.to_string(),
            json!({"description": message, "content": content}),
        );
    }
    responses
        .entry("401")
        .or_insert_with(|| json!({"description": "Unauthorized"}));
    op.insert("responses".to_owned(), Value::Object(responses));
    op.insert("x-kubernetes-action".to_owned(), json!(r.action));
    op.insert(
        "x-kubernetes-group-version-kind".to_owned(),
        json!({"group": b.names.group, "version": b.names.version, "kind": b.names.kind}),
    );
    Value::Object(op)
}

/// The definitions a document refers to, built as they are first referenced.
struct Definitions<'b> {
    b: &'b Builder,
    schemas: Map<String, Value>,
}

impl Definitions<'_> {
    /// `toSchema`: a reference to the sample's definition, which is built with its dependencies.
    fn reference(&mut self, sample: Sample) -> Value {
        let name = self.b.sample_name(sample);
        self.build(&name);
        json!({ "$ref": format!("{V3_PREFIX}{name}") })
    }

    /// `buildDefinitionRecursively`.
    fn build(&mut self, name: &str) {
        let mut todo = vec![name.to_owned()];
        let mut seen = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if self.schemas.contains_key(&n) || !seen.insert(n.clone()) {
                continue;
            }
            let Some((schema, deps)) = self.b.definition(&n) else {
                continue;
            };
            self.schemas.insert(n, definitions::to_v3(&schema));
            todo.extend(deps);
        }
    }
}
