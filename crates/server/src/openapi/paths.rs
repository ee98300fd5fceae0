//! The paths of one CRD version: `generateBuilder` and `buildRoute` of apiextensions-apiserver
//! `pkg/controller/openapi/builder/builder.go`, with the operation ids and tags of apiserver
//! `pkg/endpoints/openapi` (`GetOperationIDAndTags`) and the query parameters of the option
//! structs (`endpoints.AddObjectParams`), written inline in each operation as kube-openapi's
//! `builder3` does (kubectl's field-validation check reads them there).

use serde_json::{Map, Value, json};

use super::meta;
use super::naming::{description, operation_id};
use super::params::{action_parameters, query};
use crate::engine::{CustomResourceDefinition, CustomResourceDefinitionVersion};

/// The names a document is built from.
#[derive(Clone, Debug)]
pub(crate) struct Names {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub list_kind: String,
    pub plural: String,
    pub namespaced: bool,
    /// The definition-name prefix of built-in kinds (`io.k8s.api.core.v1`); CRD kinds derive
    /// theirs from the group.
    pub definition_prefix: Option<&'static str>,
}

impl Names {
    pub fn of(crd: &CustomResourceDefinition, version: &str) -> Names {
        let n = &crd.spec.names;
        Names {
            group: crd.spec.group.clone(),
            version: version.to_owned(),
            kind: n.kind.clone(),
            list_kind: if n.list_kind.is_empty() {
                format!("{}List", n.kind)
            } else {
                n.list_kind.clone()
            },
            plural: n.plural.clone(),
            namespaced: crd.spec.scope != "Cluster",
            definition_prefix: None,
        }
    }

    /// `com.example.stable.v1.CronTab` for `stable.example.com/v1` `CronTab`
    /// (kube-openapi `util.ToRESTFriendlyName`).
    pub fn definition(&self, kind: &str) -> String {
        if let Some(prefix) = self.definition_prefix {
            return format!("{prefix}.{kind}");
        }
        let group: Vec<&str> = self.group.split('.').rev().collect();
        format!("{}.{}.{kind}", group.join("."), self.version)
    }

    fn reference(&self, kind: &str) -> Value {
        json!({ "$ref": format!("#/components/schemas/{}", self.definition(kind)) })
    }

    fn gvk(&self) -> Value {
        json!({"group": self.group, "version": self.version, "kind": self.kind})
    }
}

/// What an operation returns and reads.
#[derive(Clone, Copy)]
enum Sample {
    Kind,
    List,
    Status,
    Scale,
}

struct Route<'a> {
    path: &'a str,
    method: &'static str,
    action: &'static str,
    verb: &'static str,
    sample: Sample,
    reads: Option<Sample>,
    patch: bool,
    operation: Option<String>,
}

/// Every path of the version, with its operations and path-level parameters.
pub(crate) fn paths(names: &Names, v: &CustomResourceDefinitionVersion) -> Vec<(String, Value)> {
    let plural = &names.plural;
    let (g, ver) = (&names.group, &names.version);
    let base = if g.is_empty() {
        format!("/api/{ver}")
    } else {
        format!("/apis/{g}/{ver}")
    };
    let cluster_root = format!("{base}/{plural}");
    let root = if names.namespaced {
        format!("{base}/namespaces/{{namespace}}/{plural}")
    } else {
        cluster_root.clone()
    };
    let item = format!("{root}/{{name}}");
    let status = format!("{item}/status");
    let scale = format!("{item}/scale");
    let route = |path, method, action, verb, sample, reads, patch| Route {
        path,
        method,
        action,
        verb,
        sample,
        reads,
        patch,
        operation: None,
    };
    let mut routes = Vec::new();
    if names.namespaced {
        let mut all = route(
            &cluster_root,
            "get",
            "list",
            "list",
            Sample::List,
            None,
            false,
        );
        all.operation = Some(format!("list{}ForAllNamespaces", names.kind));
        routes.push(all);
    }
    routes.extend([
        route(&root, "get", "list", "list", Sample::List, None, false),
        route(
            &root,
            "post",
            "post",
            "create",
            Sample::Kind,
            Some(Sample::Kind),
            false,
        ),
        route(
            &root,
            "delete",
            "deletecollection",
            "deletecollection",
            Sample::Status,
            None,
            false,
        ),
        route(&item, "get", "get", "read", Sample::Kind, None, false),
        route(
            &item,
            "put",
            "put",
            "replace",
            Sample::Kind,
            Some(Sample::Kind),
            false,
        ),
        route(
            &item,
            "delete",
            "delete",
            "delete",
            Sample::Status,
            None,
            false,
        ),
        route(&item, "patch", "patch", "patch", Sample::Kind, None, true),
    ]);
    let subresources = v.subresources.as_ref();
    if subresources.is_some_and(|s| s.status.is_some()) {
        routes.extend([
            route(&status, "get", "get", "read", Sample::Kind, None, false),
            route(
                &status,
                "put",
                "put",
                "replace",
                Sample::Kind,
                Some(Sample::Kind),
                false,
            ),
            route(&status, "patch", "patch", "patch", Sample::Kind, None, true),
        ]);
    }
    if subresources.is_some_and(|s| s.scale.is_some()) {
        routes.extend([
            route(&scale, "get", "get", "read", Sample::Scale, None, false),
            route(
                &scale,
                "put",
                "put",
                "replace",
                Sample::Scale,
                Some(Sample::Scale),
                false,
            ),
            route(&scale, "patch", "patch", "patch", Sample::Scale, None, true),
        ]);
    }

    let mut out: Vec<(String, Map<String, Value>)> = Vec::new();
    for r in &routes {
        let op = operation(names, r);
        let entry = match out.iter_mut().find(|(p, _)| p == r.path) {
            Some((_, e)) => e,
            None => {
                out.push((r.path.to_owned(), path_parameters(names, r.path)));
                &mut out.last_mut().expect("just pushed").1
            }
        };
        entry.insert(r.method.to_owned(), op);
    }
    out.into_iter()
        .map(|(p, m)| (p, Value::Object(m)))
        .collect()
}

/// The parameters every operation of a path shares, hoisted to the path as `builder3` does.
fn path_parameters(names: &Names, path: &str) -> Map<String, Value> {
    let mut params = Vec::new();
    if path.contains("{name}") {
        params.push(json!({"name": "name", "in": "path", "description": format!("name of the {}", names.kind),
            "required": true, "schema": {"type": "string", "uniqueItems": true}}));
    }
    if path.contains("{namespace}") {
        params.push(json!({"name": "namespace", "in": "path",
            "description": "object name and auth scope, such as for teams and projects",
            "required": true, "schema": {"type": "string", "uniqueItems": true}}));
    }
    params.push(query(
        "pretty",
        "If 'true', then the output is pretty printed.",
        "string",
    ));
    let mut m = Map::new();
    m.insert("parameters".to_owned(), Value::Array(params));
    m
}

fn operation(names: &Names, r: &Route<'_>) -> Value {
    let sub = subresource(r.path);
    let op_name = r.operation.clone().unwrap_or_else(|| {
        let ns = if names.namespaced { "Namespaced" } else { "" };
        format!("{}{ns}{}{}", r.verb, names.kind, title(sub))
    });
    let (id, tag) = operation_id(&op_name, r.path);
    let mut op = Map::new();
    op.insert("tags".to_owned(), json!([tag]));
    op.insert(
        "description".to_owned(),
        Value::String(description(names, sub, r.verb)),
    );
    op.insert("operationId".to_owned(), Value::String(id));
    let params = action_parameters(r.action);
    if !params.is_empty() {
        op.insert("parameters".to_owned(), Value::Array(params));
    }
    if r.patch {
        let patch = json!({"schema": {"$ref": format!("#/components/schemas/{}", meta::PATCH)}});
        op.insert(
            "requestBody".to_owned(),
            json!({"content": {
                "application/json-patch+json": patch,
                "application/merge-patch+json": patch,
                "application/apply-patch+yaml": patch,
            }, "required": true}),
        );
    } else if let Some(reads) = r.reads {
        op.insert(
            "requestBody".to_owned(),
            json!({"content": {"*/*": {"schema": sample_ref(names, reads)}}, "required": true}),
        );
    } else if r.action == "delete" || r.action == "deletecollection" {
        op.insert(
            "requestBody".to_owned(),
            json!({"content": {"*/*": {"schema": {"$ref": format!("#/components/schemas/{}", meta::DELETE_OPTIONS)}}}}),
        );
    }
    let body = sample_ref(names, r.sample);
    let content =
        json!({"application/json": {"schema": body}, "application/yaml": {"schema": body}});
    let mut responses = Map::new();
    responses.insert(
        "200".to_owned(),
        json!({"description": "OK", "content": content}),
    );
    match r.action {
        "post" => {
            responses.insert(
                "201".to_owned(),
                json!({"description": "Created", "content": content}),
            );
            responses.insert(
                "202".to_owned(),
                json!({"description": "Accepted", "content": content}),
            );
        }
        "delete" => {
            responses.insert(
                "202".to_owned(),
                json!({"description": "Accepted", "content": content}),
            );
        }
        "put" => {
            responses.insert(
                "201".to_owned(),
                json!({"description": "Created", "content": content}),
            );
        }
        _ => {}
    }
    responses.insert("401".to_owned(), json!({"description": "Unauthorized"}));
    op.insert("responses".to_owned(), Value::Object(responses));
    op.insert("x-kubernetes-action".to_owned(), json!(r.action));
    let gvk = if matches!(r.sample, Sample::Scale) {
        json!({"group": "autoscaling", "version": "v1", "kind": "Scale"})
    } else {
        names.gvk()
    };
    op.insert("x-kubernetes-group-version-kind".to_owned(), gvk);
    Value::Object(op)
}

fn sample_ref(names: &Names, s: Sample) -> Value {
    match s {
        Sample::Kind => names.reference(&names.kind),
        Sample::List => names.reference(&names.list_kind),
        Sample::Status => json!({"$ref": format!("#/components/schemas/{}", meta::STATUS)}),
        Sample::Scale => json!({"$ref": format!("#/components/schemas/{}", meta::SCALE)}),
    }
}

/// `""` for `/…/{name}` and the collection, `scale` for `/…/{name}/scale`.
fn subresource(path: &str) -> &str {
    match path.rsplit_once("/{name}/") {
        Some((_, sub)) => sub,
        None => "",
    }
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openapi::naming::{description, operation_id};

    #[test]
    fn operation_ids_follow_the_api_server() {
        assert_eq!(
            operation_id(
                "listNamespacedCronTab",
                "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs"
            ),
            (
                "listStableExampleComV1NamespacedCronTab".to_owned(),
                "stableExampleCom_v1".to_owned()
            )
        );
        assert_eq!(
            operation_id(
                "patchApiextensionsV1CustomResourceDefinition",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"
            )
            .1,
            "apiextensions_v1"
        );
        assert_eq!(
            operation_id("readNamespace", "/api/v1/namespaces/{name}").0,
            "readCoreV1Namespace"
        );
    }

    #[test]
    fn descriptions_follow_the_api_server() {
        let n = Names {
            group: "stable.example.com".into(),
            version: "v1".into(),
            kind: "CronTab".into(),
            list_kind: "CronTabList".into(),
            plural: "crontabs".into(),
            namespaced: true,
            definition_prefix: None,
        };
        assert_eq!(description(&n, "", "create"), "create a CronTab");
        assert_eq!(description(&n, "", "list"), "list objects of kind CronTab");
        assert_eq!(
            description(&n, "scale", "patch"),
            "partially update scale of the specified CronTab"
        );
        assert_eq!(
            description(&n, "", "deletecollection"),
            "delete collection of CronTab"
        );
        assert_eq!(n.definition("CronTab"), "com.example.stable.v1.CronTab");
    }
}
