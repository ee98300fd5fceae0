//! The documents of CRD versions, transcribed from apiextensions-apiserver
//! `pkg/controller/openapi/builder/builder_test.go` (Kubernetes 1.36): `TestNewBuilder`,
//! `TestCRDRouteParameterBuilder`, `TestBuildOpenAPIV2`, `TestBuildOpenAPIV3` and
//! `TestGetDefinitionRefPrefix`; then what kube-openapi's builders make of the routes.
//!
//! The "selectable fields disabled" cases are left out: `CustomResourceFieldSelectors` is GA
//! and locked on since 1.32, so 1.36 always publishes `x-kubernetes-selectable-fields`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crdkit_crd::openapi::{self, OpenApiError};
use crdkit_schema::crd::CustomResourceDefinition;

/// The test's CRD: `bar.k8s.io`, `Foo`/`foos`, namespaced, with the versions given.
fn foo(versions: Value) -> CustomResourceDefinition {
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.bar.k8s.io"},
        "spec": {"group": "bar.k8s.io", "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": versions}
    }))
    .expect("CRD")
}

fn version(name: &str, schema: Option<Value>, selectable: &[&str]) -> Value {
    let mut v = json!({"name": name, "served": true, "storage": true});
    if let Some(s) = schema {
        v["schema"] = json!({"openAPIV3Schema": s});
    }
    if !selectable.is_empty() {
        v["selectableFields"] = selectable.iter().map(|p| json!({"jsonPath": p})).collect();
    }
    v
}

/// The kind's definition with the descriptions of `kind`, `apiVersion` and `metadata` wiped,
/// as the Go tests do ("we trust that they match here").
fn wiped(def: &Value) -> Value {
    let mut d = def.clone();
    if d["properties"].get("kind").is_some() {
        for f in ["kind", "apiVersion", "metadata"] {
            if let Some(p) = d["properties"][f].as_object_mut() {
                p.remove("description");
            }
        }
    }
    d
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

const META_V2: &str = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// `TestNewBuilder`: (name, schema, wanted kind definition, wanted list items, version).
#[test]
fn new_builder() {
    let gvk = |v: &str| json!([{"group": "bar.k8s.io", "kind": "Foo", "version": v}]);
    let meta = json!({"type": "string"});
    let with_meta = |props: Value, v: &str| {
        let mut p = props;
        p["apiVersion"] = meta.clone();
        p["kind"] = meta.clone();
        p["metadata"] = json!({"$ref": META_V2});
        json!({"type": "object", "properties": p, "x-kubernetes-group-version-kind": gvk(v)})
    };
    let ios = |extra: Value| {
        let mut m = json!({"x-kubernetes-int-or-string": true});
        if let (Some(m), Some(e)) = (m.as_object_mut(), extra.as_object()) {
            m.extend(e.clone());
        }
        m
    };
    let min42 = json!({"minimum": 42.0});
    let cases: Vec<(&str, Option<Value>, Value, &str)> = vec![
        (
            "nil",
            None,
            json!({"type": "object", "x-kubernetes-group-version-kind": gvk("v1")}),
            "v1",
        ),
        (
            "with properties",
            Some(
                json!({"type": "object", "properties": {"spec": {"type": "object"}, "status": {"type": "object"}}}),
            ),
            with_meta(
                json!({"spec": {"type": "object"}, "status": {"type": "object"}}),
                "v1",
            ),
            "v1",
        ),
        (
            "type only",
            Some(json!({"type": "object"})),
            with_meta(json!({}), "v1"),
            "v1",
        ),
        (
            "preserve unknown at root v2",
            Some(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
            json!({"type": "object", "x-kubernetes-group-version-kind": gvk("v1")}),
            "v1",
        ),
        (
            "with extensions",
            Some(json!({"type": "object", "properties": {
                "int-or-string-1": ios(json!({"anyOf": [{"type": "integer"}, {"type": "string"}]})),
                "int-or-string-2": ios(json!({"allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"anyOf": [min42]}]})),
                "int-or-string-3": ios(json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "allOf": [{"anyOf": [min42]}]})),
                "int-or-string-4": ios(json!({"anyOf": [min42]})),
                "int-or-string-5": ios(json!({"anyOf": [min42], "allOf": [min42]})),
                "int-or-string-6": ios(json!({})),
                "preserve-unknown-fields": {"x-kubernetes-preserve-unknown-fields": true},
                "embedded-object": {"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, "type": "object"},
            }})),
            with_meta(
                json!({
                    "int-or-string-1": ios(json!({})),
                    "int-or-string-2": ios(json!({})),
                    "int-or-string-3": ios(json!({})),
                    "int-or-string-4": ios(json!({})),
                    "int-or-string-5": ios(json!({})),
                    "int-or-string-6": ios(json!({})),
                    "preserve-unknown-fields": {"x-kubernetes-preserve-unknown-fields": true},
                    "embedded-object": {"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
                }),
                "v1",
            ),
            "v1",
        ),
        (
            // Go builds version v2 of a CRD listing only v1; here the CRD has v2.
            "include selectable fields with different version",
            Some(
                json!({"type": "object", "properties": {"spec": {"type": "object"}, "status": {"type": "object"}}}),
            ),
            with_meta(
                json!({"spec": {"type": "object"}, "status": {"type": "object"}}),
                "v2",
            ),
            "v2",
        ),
    ];
    for (name, schema, want, v) in cases {
        let crd = foo(json!([version(v, schema, &[])]));
        let doc = openapi::build_v2(&crd, v).expect(name);
        let def = &doc["definitions"][format!("io.k8s.bar.{v}.Foo")];
        assert_eq!(
            keys(&def["properties"]),
            keys(&want["properties"]),
            "{name}"
        );
        assert_eq!(wiped(def), want, "{name}");
        let list = &doc["definitions"][format!("io.k8s.bar.{v}.FooList")];
        assert_eq!(
            keys(&list["properties"]),
            ["apiVersion", "items", "kind", "metadata"]
                .map(String::from)
                .into(),
            "{name}"
        );
        assert_eq!(list["properties"]["apiVersion"]["type"], "string");
        assert_eq!(list["properties"]["kind"]["type"], "string");
        assert_eq!(
            list["properties"]["metadata"]["$ref"],
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
        );
        assert_eq!(
            list["properties"]["items"]["items"],
            json!({"$ref": format!("#/definitions/io.k8s.bar.{v}.Foo")}),
            "{name}"
        );
    }
}

/// `TestCRDRouteParameterBuilder`: which paths, which path parameters, which actions, which
/// media types, for both scopes.
#[test]
fn crd_route_parameter_builder() {
    type Expect = (&'static str, bool, bool, &'static [&'static str]);
    let namespaced: &[Expect] = &[
        ("/apis/foo-group/foo-version/foos", false, false, &["list"]),
        (
            "/apis/foo-group/foo-version/namespaces/{namespace}/foos",
            true,
            false,
            &["deletecollection", "list", "post"],
        ),
        (
            "/apis/foo-group/foo-version/namespaces/{namespace}/foos/{name}",
            true,
            true,
            &["delete", "get", "patch", "put"],
        ),
        (
            "/apis/foo-group/foo-version/namespaces/{namespace}/foos/{name}/scale",
            true,
            true,
            &["get", "patch", "put"],
        ),
        (
            "/apis/foo-group/foo-version/namespaces/{namespace}/foos/{name}/status",
            true,
            true,
            &["get", "patch", "put"],
        ),
    ];
    let cluster: &[Expect] = &[
        (
            "/apis/foo-group/foo-version/foos",
            false,
            false,
            &["deletecollection", "list", "post"],
        ),
        (
            "/apis/foo-group/foo-version/foos/{name}",
            false,
            true,
            &["delete", "get", "patch", "put"],
        ),
        (
            "/apis/foo-group/foo-version/foos/{name}/scale",
            false,
            true,
            &["get", "patch", "put"],
        ),
        (
            "/apis/foo-group/foo-version/foos/{name}/status",
            false,
            true,
            &["get", "patch", "put"],
        ),
    ];
    for (scope, cases) in [("Namespaced", namespaced), ("Cluster", cluster)] {
        let crd: CustomResourceDefinition = serde_json::from_value(json!({
            "metadata": {"name": "foos.foo-group"},
            "spec": {"group": "foo-group", "scope": scope, "names": {"kind": "Foo", "plural": "foos"},
                "versions": [{"name": "foo-version", "subresources": {"status": {}, "scale": {}}}]}
        }))
        .unwrap();
        let swagger = openapi::build_v2(&crd, "foo-version").unwrap();
        let paths = swagger["paths"].as_object().unwrap();
        assert_eq!(paths.len(), cases.len(), "{scope}");
        for (path, want_namespace, want_name, want_actions) in cases {
            let item = &paths[*path];
            let params = item["parameters"].as_array().cloned().unwrap_or_default();
            let has_namespace = params.iter().any(|p| {
                p["$ref"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("#/parameters/namespace-"))
            });
            let has_name = params
                .iter()
                .any(|p| p["in"] == "path" && p["name"] == "name");
            assert_eq!(has_namespace, *want_namespace, "{path}");
            assert_eq!(has_name, *want_name, "{path}");
            let mut actions = BTreeSet::new();
            for method in ["get", "post", "put", "patch", "delete"] {
                let Some(op) = item.get(method) else {
                    continue;
                };
                let action = op["x-kubernetes-action"].as_str().unwrap();
                actions.insert(action);
                let consumes = if action == "patch" {
                    json!([
                        "application/json-patch+json",
                        "application/merge-patch+json",
                        "application/apply-patch+yaml"
                    ])
                } else {
                    json!(["application/json", "application/yaml"])
                };
                assert_eq!(op["consumes"], consumes, "{path} {method}");
            }
            assert_eq!(
                actions,
                want_actions.iter().copied().collect::<BTreeSet<_>>(),
                "{path}"
            );
        }
    }
}

/// (name, schema, spec.preserveUnknownFields, selectable fields, wanted kind definition).
type BuildCase = (&'static str, Option<Value>, bool, Vec<&'static str>, Value);

/// The cases of `TestBuildOpenAPIV2` (`v2`) and `TestBuildOpenAPIV3`.
fn build_cases(v2: bool) -> Vec<BuildCase> {
    let gvk = json!([{"group": "bar.k8s.io", "kind": "Foo", "version": "v1"}]);
    let meta = if v2 {
        json!({"$ref": META_V2})
    } else {
        json!({"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]})
    };
    let with_meta = |props: Value| {
        let mut p = props;
        p["apiVersion"] = json!({"type": "string"});
        p["kind"] = json!({"type": "string"});
        p["metadata"] = meta.clone();
        json!({"type": "object", "properties": p, "x-kubernetes-group-version-kind": gvk})
    };
    let bare = json!({"type": "object", "x-kubernetes-group-version-kind": gvk});
    let spec_status = json!({"type": "object", "properties": {"spec": {"type": "object"}, "status": {"type": "object"}}});
    let with_default = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"field": {"type": "string", "default": "foo"}}}, "status": {"type": "object"}}});
    let mut selectable = with_meta(json!({"foo": {"type": "string"}}));
    selectable["x-kubernetes-selectable-fields"] = json!([{"fieldPath": "foo"}]);
    if v2 {
        vec![
            ("nil", None, false, vec![], bare.clone()),
            (
                "with properties",
                Some(spec_status.clone()),
                false,
                vec![],
                with_meta(json!({"spec": {"type": "object"}, "status": {"type": "object"}})),
            ),
            (
                "with invalid-typed properties",
                Some(
                    json!({"type": "object", "properties": {"spec": {"type": "bug"}, "status": {"type": "object"}}}),
                ),
                false,
                vec![],
                bare.clone(),
            ),
            (
                "with non-structural schema",
                Some(json!({"type": "object", "properties": {"foo": {"type": "array"}}})),
                false,
                vec![],
                bare.clone(),
            ),
            (
                "with spec.preseveUnknownFields=true",
                Some(json!({"type": "object", "properties": {"foo": {"type": "string"}}})),
                true,
                vec![],
                bare,
            ),
            (
                "v2",
                Some(
                    json!({"type": "object", "properties": {"foo": {"type": "string", "oneOf": [{"pattern": "a"}, {"pattern": "b"}]}}}),
                ),
                false,
                vec![],
                with_meta(json!({"foo": {"type": "string"}})),
            ),
            (
                "with selectable fields enabled",
                Some(json!({"type": "object", "properties": {"foo": {"type": "string"}}})),
                false,
                vec!["foo"],
                selectable,
            ),
        ]
    } else {
        let mut selectable = with_meta(
            json!({"spec": {"type": "object", "properties": {"field": {"type": "string", "default": "foo"}}}, "status": {"type": "object"}}),
        );
        selectable["x-kubernetes-selectable-fields"] = json!([{"fieldPath": "spec.field"}]);
        vec![
            ("nil", None, false, vec![], bare),
            (
                "with properties",
                Some(spec_status),
                false,
                vec![],
                with_meta(json!({"spec": {"type": "object"}, "status": {"type": "object"}})),
            ),
            (
                "with v3 nullable field",
                Some(
                    json!({"type": "object", "properties": {"spec": {"type": "object", "nullable": true}, "status": {"type": "object"}}}),
                ),
                false,
                vec![],
                with_meta(
                    json!({"spec": {"type": "object", "nullable": true}, "status": {"type": "object"}}),
                ),
            ),
            (
                "with default not pruned for v3",
                Some(with_default.clone()),
                false,
                vec![],
                with_meta(
                    json!({"spec": {"type": "object", "properties": {"field": {"type": "string", "default": "foo"}}}, "status": {"type": "object"}}),
                ),
            ),
            (
                "with selectable fields enabled",
                Some(with_default),
                false,
                vec!["spec.field"],
                selectable,
            ),
        ]
    }
}

fn build_crd(
    schema: Option<Value>,
    preserve: bool,
    selectable: &[&str],
) -> CustomResourceDefinition {
    let mut crd = foo(json!([version("v1", schema, selectable)]));
    crd.spec.preserve_unknown_fields = preserve;
    crd
}

#[test]
fn build_openapi_v2() {
    let cases = build_cases(true);
    assert_eq!(cases.len(), 7);
    for (name, schema, preserve, selectable, want) in cases {
        let doc = openapi::build_v2(&build_crd(schema, preserve, &selectable), "v1").unwrap();
        let def = &doc["definitions"]["io.k8s.bar.v1.Foo"];
        assert_eq!(
            keys(&def["properties"]),
            keys(&want["properties"]),
            "{name}"
        );
        assert_eq!(wiped(def), want, "{name}");
    }
}

#[test]
fn build_openapi_v3() {
    let cases = build_cases(false);
    assert_eq!(cases.len(), 5);
    for (name, schema, preserve, selectable, want) in cases {
        let doc = openapi::build_v3(&build_crd(schema, preserve, &selectable), "v1").unwrap();
        let schemas = &doc["components"]["schemas"];
        let list_ref = schemas["io.k8s.bar.v1.FooList"]["properties"]["items"]["items"]["$ref"]
            .as_str()
            .unwrap();
        assert!(
            list_ref.starts_with("#/components/schemas/") && !list_ref.contains("#/definitions/"),
            "{name}: {list_ref}"
        );
        let def = &schemas["io.k8s.bar.v1.Foo"];
        assert_eq!(
            keys(&def["properties"]),
            keys(&want["properties"]),
            "{name}"
        );
        assert_eq!(wiped(def), want, "{name}");
    }
}

/// `TestGetDefinitionRefPrefix`: references inside the built-in definitions follow the document.
#[test]
fn definition_ref_prefix() {
    let crd = build_crd(Some(json!({"type": "object"})), false, &[]);
    let v2 = openapi::build_v2(&crd, "v1").unwrap();
    let v3 = openapi::build_v3(&crd, "v1").unwrap();
    let entry = "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry";
    let v2_ref = v2["definitions"][entry]["properties"]["time"]["$ref"]
        .as_str()
        .unwrap();
    let v3_ref = v3["components"]["schemas"][entry]["properties"]["time"]["allOf"][0]["$ref"]
        .as_str()
        .unwrap();
    assert!(v2_ref.starts_with("#/definitions/"), "{v2_ref}");
    assert!(v3_ref.starts_with("#/components/schemas/"), "{v3_ref}");
}

#[test]
fn an_unknown_version_is_an_error() {
    let crd = build_crd(None, false, &[]);
    assert_eq!(
        openapi::build_v3(&crd, "v9"),
        Err(OpenApiError::NoSuchVersion {
            crd: "foos.bar.k8s.io".into(),
            version: "v9".into()
        })
    );
}

/// v2 shares parameters under `#/parameters/<name>-<hash of Go's JSON of the parameter>`, so
/// equal texts get equal names across documents: these are the names kube-apiserver's own
/// `/openapi/v2` gives the same parameters (`pretty-tJGM1-ng`, `namespace-vgWSWtn3`, ...),
/// which pins the transcribed descriptions byte for byte. `name`, `dryRun` and
/// `fieldValidation` stay inline (kubectl looks for the last two there), and so do bodies of
/// the CRD's own kinds.
#[test]
fn shared_parameters_have_the_api_servers_names() {
    let crd: CustomResourceDefinition = serde_json::from_value(json!({
        "metadata": {"name": "foos.bar.k8s.io"},
        "spec": {"group": "bar.k8s.io", "scope": "Namespaced", "names": {"kind": "Foo", "plural": "foos"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.r", "statusReplicasPath": ".status.r"}}}]}
    }))
    .unwrap();
    let doc = openapi::build_v2(&crd, "v1").unwrap();
    let names = keys(&doc["parameters"]);
    let want: BTreeSet<String> = [
        "allowWatchBookmarks-HC2hJt-J",
        "body-2Y1dVQaQ",
        "body-78PwaGsr",
        "continue-QfD61s0i",
        "fieldManager-7c6nTn1T",
        "fieldManager-Qy4HdaTW",
        "fieldSelector-xIcQKXFG",
        "force-tOGGb0Yi",
        "gracePeriodSeconds--K5HaBOS",
        "ignoreStoreReadErrorWithClusterBreakingPotential-QbNkfIqj",
        "labelSelector-5Zw57w4C",
        "limit-1NfNmdNH",
        "namespace-vgWSWtn3",
        "orphanDependents-uRB25kX5",
        "pretty-tJGM1-ng",
        "propagationPolicy-6jk3prlO",
        "resourceVersion-5WAnf1kx",
        "resourceVersionMatch-t8XhRHeC",
        "sendInitialEvents-rLXlEK_k",
        // New in 1.36 (ListOptions.shardSelector).
        "shardSelector-Kgyki_3_",
        "timeoutSeconds-yvYezaOC",
        "watch-XNNPZGbK",
    ]
    .map(String::from)
    .into();
    assert_eq!(names, want);
    assert_eq!(
        doc["parameters"]["body-2Y1dVQaQ"],
        json!({"name": "body", "in": "body",
            "schema": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"}})
    );
    let item = &doc["paths"]["/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}"];
    let patch = item["patch"]["parameters"].as_array().unwrap();
    let inline: Vec<&str> = patch.iter().filter_map(|p| p["name"].as_str()).collect();
    assert_eq!(inline, ["dryRun", "fieldValidation"]);
    // The create body is the kind itself: inline, required.
    let post = &doc["paths"]["/apis/bar.k8s.io/v1/namespaces/{namespace}/foos"]["post"];
    assert_eq!(
        post["parameters"][0],
        json!({"name": "body", "in": "body", "required": true,
            "schema": {"$ref": "#/definitions/io.k8s.bar.v1.Foo"}})
    );
}

/// What kube-openapi's v3 builder makes of the routes: parameters every operation of a path
/// has move to the path (all of them on the all-namespaces list), request bodies per consumed
/// media type, responses per produced one and the 401 of every operation.
#[test]
fn v3_operations() {
    let crd = foo(json!([version("v1", Some(json!({"type": "object"})), &[])]));
    let doc = openapi::build_v3(&crd, "v1").unwrap();
    let paths = &doc["paths"];
    let all = &paths["/apis/bar.k8s.io/v1/foos"];
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|p| p["name"].as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        names(&all["parameters"]),
        [
            "allowWatchBookmarks",
            "continue",
            "fieldSelector",
            "labelSelector",
            "limit",
            "pretty",
            "resourceVersion",
            "resourceVersionMatch",
            "sendInitialEvents",
            "shardSelector",
            "timeoutSeconds",
            "watch"
        ]
    );
    assert!(all["get"].get("parameters").is_none());
    assert_eq!(all["get"]["operationId"], "listBarV1FooForAllNamespaces");
    assert_eq!(all["get"]["tags"], json!(["bar_v1"]));

    let collection = &paths["/apis/bar.k8s.io/v1/namespaces/{namespace}/foos"];
    assert_eq!(names(&collection["parameters"]), ["namespace", "pretty"]);
    let post = &collection["post"];
    assert_eq!(
        names(&post["parameters"]),
        ["dryRun", "fieldManager", "fieldValidation"]
    );
    let kind_ref = json!({"schema": {"$ref": "#/components/schemas/io.k8s.bar.v1.Foo"}});
    assert_eq!(
        post["requestBody"],
        json!({"content": {"application/json": kind_ref, "application/yaml": kind_ref}, "required": true})
    );
    assert_eq!(
        keys(&post["responses"]),
        ["200", "201", "202", "401"].map(String::from).into()
    );
    assert_eq!(
        post["responses"]["401"],
        json!({"description": "Unauthorized"})
    );
    // deletecollection takes ListOptions and no body.
    let dc = &collection["delete"];
    assert_eq!(dc["operationId"], "deleteBarV1CollectionNamespacedFoo");
    assert!(dc.get("requestBody").is_none());
    assert!(names(&dc["parameters"]).contains(&"labelSelector".to_owned()));
    assert!(!names(&dc["parameters"]).contains(&"gracePeriodSeconds".to_owned()));

    let item = &paths["/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}"];
    assert_eq!(names(&item["parameters"]), ["name", "namespace", "pretty"]);
    assert_eq!(item["parameters"][0]["description"], "name of the Foo");
    let delete = &item["delete"];
    assert_eq!(delete["description"], "delete a Foo");
    let opts = json!({"schema": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"}});
    assert_eq!(
        delete["requestBody"],
        json!({"content": {"application/json": opts, "application/yaml": opts}})
    );
    let patch = &item["patch"];
    assert_eq!(
        keys(&patch["requestBody"]["content"]),
        [
            "application/apply-patch+yaml",
            "application/json-patch+json",
            "application/merge-patch+json"
        ]
        .map(String::from)
        .into()
    );
    assert_eq!(
        names(&patch["parameters"]),
        ["dryRun", "fieldManager", "fieldValidation", "force"]
    );
    assert_eq!(
        patch["x-kubernetes-group-version-kind"],
        json!({"group": "bar.k8s.io", "version": "v1", "kind": "Foo"})
    );
    // The shared definitions a document needs, and no others (no Scale without scale).
    let schemas = keys(&doc["components"]["schemas"]);
    assert!(schemas.contains("io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo"));
    assert!(!schemas.contains("io.k8s.api.autoscaling.v1.Scale"));
    assert_eq!(
        doc["components"]["schemas"]["io.k8s.apimachinery.pkg.apis.meta.v1.Status"]["x-kubernetes-group-version-kind"],
        json!([{"group": "", "kind": "Status", "version": "v1"}])
    );
}

/// Two CRDs of one group-version share a document; the group's other CRDs and versions stay
/// out of it.
#[test]
fn group_version_documents_merge_the_crds_serving_them() {
    let a =
        foo(json!([version("v1", None, &[]), {"name": "v2", "served": false, "storage": false}]));
    let mut b: CustomResourceDefinition = serde_json::from_value(json!({
        "metadata": {"name": "bars.bar.k8s.io"},
        "spec": {"group": "bar.k8s.io", "scope": "Cluster", "names": {"kind": "Bar", "plural": "bars"},
            "versions": [{"name": "v1", "served": true, "storage": true}]}
    }))
    .unwrap();
    let doc = openapi::try_group_version("bar.k8s.io", "v1", &[&a, &b]).unwrap();
    let schemas = keys(&doc["components"]["schemas"]);
    assert!(schemas.contains("io.k8s.bar.v1.Foo") && schemas.contains("io.k8s.bar.v1.Bar"));
    assert!(
        doc["paths"]
            .get("/apis/bar.k8s.io/v1/bars/{name}")
            .is_some()
    );
    assert_eq!(
        openapi::served_group_versions(&[&a, &b]),
        [("bar.k8s.io".to_owned(), "v1".to_owned())]
    );
    let none = openapi::try_group_version("bar.k8s.io", "v2", &[&a, &b]).unwrap();
    assert_eq!(none["paths"], json!({}));
    // A second Foo with another schema is a conflict.
    b.spec.names.kind = "Foo".into();
    b.spec.names.plural = "foos2".into();
    b.spec.versions[0].schema =
        serde_json::from_value(json!({"openAPIV3Schema": {"type": "object"}})).unwrap();
    assert!(matches!(
        openapi::try_group_version("bar.k8s.io", "v1", &[&a, &b]),
        Err(OpenApiError::Conflict { .. })
    ));
}
