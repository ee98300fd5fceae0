//! The HTTP API, request by request, as kubectl and kube-rs send them (research report §2–4).

use serde_json::{Value, json};

use crate::common::{AGG, CRDS, CT, Http, TABLE, manifest_docs, manifest_json, server, stored};

fn crontab(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": name}, "spec": spec})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_and_health() {
    let s = server().await;
    let h = Http::of(&s);
    let v = h.get("/version").await.expect(200).json();
    assert_eq!(
        (v["major"].as_str(), v["minor"].as_str()),
        (Some("1"), Some("32"))
    );
    assert_eq!(h.get("/healthz").await.expect(200).body, "ok");
    // Served since the built-in kinds (kubectl 1.27/1.28 need it; see `builtin_api`).
    assert_eq!(h.get("/openapi/v2?timeout=32s").await.status, 200);
    let e = h.get("/nope").await.expect(404).json();
    assert_eq!(
        e["message"],
        "the server could not find the requested resource"
    );
    assert_eq!(h.send("POST", "/version", &[], None).await.status, 405);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_aggregated_and_legacy() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-subresources.yaml").await;
    let r = h.get_as("/apis?timeout=32s", AGG).await.expect(200);
    assert_eq!(
        r.header("content-type"),
        Some("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
    );
    let d = r.json();
    assert_eq!(d["kind"], "APIGroupDiscoveryList");
    let group = d["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["metadata"]["name"] == "stable.example.com")
        .expect("CRD group listed");
    let res = &group["versions"][0]["resources"][0];
    assert_eq!(res["resource"], "crontabs");
    assert_eq!(res["singularResource"], "crontab");
    assert_eq!(res["shortNames"], json!(["ct"]));
    assert_eq!(res["categories"], json!(["all"]));
    assert_eq!(res["scope"], "Namespaced");
    assert_eq!(res["responseKind"]["kind"], "CronTab");
    assert_eq!(group["versions"][0]["freshness"], "Current");
    let subs: Vec<&str> = res["subresources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["subresource"].as_str().unwrap())
        .collect();
    assert_eq!(subs, ["status", "scale"]);
    assert_eq!(res["subresources"][1]["responseKind"]["kind"], "Scale");

    let core = h.get_as("/api?timeout=32s", AGG).await.expect(200).json();
    assert_eq!(core["items"][0]["metadata"]["name"], "");
    let core_resources: Vec<&str> = core["items"][0]["versions"][0]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["resource"].as_str().unwrap())
        .collect();
    // The core group of Kubernetes 1.35, as its discovery lists it.
    assert_eq!(
        core_resources,
        [
            "bindings",
            "componentstatuses",
            "configmaps",
            "endpoints",
            "events",
            "limitranges",
            "namespaces",
            "nodes",
            "persistentvolumeclaims",
            "persistentvolumes",
            "pods",
            "podtemplates",
            "replicationcontrollers",
            "resourcequotas",
            "secrets",
            "serviceaccounts",
            "services"
        ]
    );

    // Legacy documents.
    let groups = h.get("/apis").await.expect(200);
    assert_eq!(groups.header("content-type"), Some("application/json"));
    let groups = groups.json();
    assert_eq!(groups["kind"], "APIGroupList");
    assert!(
        groups["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "stable.example.com"
                && g["preferredVersion"]["groupVersion"] == "stable.example.com/v1")
    );
    let list = h
        .get("/apis/stable.example.com/v1")
        .await
        .expect(200)
        .json();
    let names: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["crontabs", "crontabs/status", "crontabs/scale"]);
    assert_eq!(list["resources"][2]["group"], "autoscaling");
    assert_eq!(
        h.get("/api").await.expect(200).json()["versions"],
        json!(["v1"])
    );
    assert_eq!(
        h.get("/apis/stable.example.com").await.expect(200).json()["kind"],
        "APIGroup"
    );
    assert_eq!(h.get("/apis/nope.example.com/v1").await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_index_documents_and_hash() {
    let s = server().await;
    let h = Http::of(&s);
    let index = h.get("/openapi/v3?timeout=32s").await.expect(200).json();
    assert!(
        index["paths"]["api/v1"]["serverRelativeURL"]
            .as_str()
            .unwrap()
            .starts_with("/openapi/v3/api/v1?hash=")
    );
    assert!(index["paths"].get("apis/stable.example.com/v1").is_none());
    h.crd("resourcedefinition-validation.yaml").await;
    let index = h.get("/openapi/v3").await.expect(200).json();
    let url = index["paths"]["apis/stable.example.com/v1"]["serverRelativeURL"]
        .as_str()
        .unwrap()
        .to_owned();
    let doc = h.get(&url).await.expect(200).json();
    let schema = &doc["components"]["schemas"]["com.example.stable.v1.CronTab"];
    assert_eq!(
        schema["properties"]["spec"]["properties"]["replicas"]["maximum"],
        10
    );
    // The hash changes with the schema.
    let mut crd = h
        .get(&format!("{CRDS}/crontabs.stable.example.com"))
        .await
        .expect(200)
        .json();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["replicas"]
        ["maximum"] = json!(20);
    h.put(&format!("{CRDS}/crontabs.stable.example.com"), &crd)
        .await
        .expect(200);
    let index = h.get("/openapi/v3").await.expect(200).json();
    let url2 = index["paths"]["apis/stable.example.com/v1"]["serverRelativeURL"]
        .as_str()
        .unwrap();
    assert_ne!(url, url2);
    // The old hash: a 301 to the current URL (kube-openapi `handler3`), without a body.
    let moved = h.get(&url).await.expect(301);
    assert_eq!(moved.header("location"), Some(url2));
    assert!(moved.body.is_empty());
    // The current one: cached for a year, revalidated by its ETag.
    let r = h.get(url2).await.expect(200);
    assert_eq!(r.header("cache-control"), Some("public, immutable"));
    assert_eq!(r.header("vary"), Some("Accept"));
    assert!(r.header("expires").unwrap().ends_with(" UTC"));
    let etag = r.header("etag").unwrap().to_owned();
    assert_eq!(Some(etag.trim_matches('"')), url2.split("hash=").nth(1));
    for inm in [etag.clone(), format!("W/{etag}, \"other\""), "*".to_owned()] {
        let r = h
            .send("GET", url2, &[("if-none-match", &inm)], None)
            .await
            .expect(304);
        assert!(
            r.body.is_empty() && r.header("content-type").is_none(),
            "{inm}"
        );
        assert_eq!(r.header("etag"), Some(etag.as_str()));
    }
    h.send("GET", url2, &[("if-none-match", "\"other\"")], None)
        .await
        .expect(200);
    // Without a hash: not cached, still tagged.
    let path = url2.split('?').next().unwrap();
    let r = h.get(path).await.expect(200);
    assert!(r.header("cache-control").is_none() && r.header("etag").is_some());
    // A document only in JSON here: another Accept is an empty 406.
    let r = h.get_as(url2, "text/html").await.expect(406);
    assert!(r.body.is_empty() && r.header("content-type").is_none());
    assert_eq!(r.header("vary"), Some("Accept"));
    h.get_as(url2, "text/html, */*;q=0.5").await.expect(200);
    // An Accept with no clause at all: `handler3` writes nothing but the `Vary`.
    let r = h.get_as(url2, "foo").await.expect(200);
    assert!(r.body.is_empty() && r.header("vary") == Some("Accept"));
    // An unknown group-version: an empty 404.
    let r = h
        .get("/openapi/v3/apis/nope.example.com/v1")
        .await
        .expect(404);
    assert!(r.body.is_empty(), "{}", r.text());
    // The index, as kube-aggregator serves it: `ServeContent`'s sniffed type, modified now,
    // no ETag (only `*` or a future `If-Modified-Since` is a 304; the current second is not).
    let r = h.get("/openapi/v3").await.expect(200);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    assert!(r.header("etag").is_none());
    assert!(r.header("last-modified").unwrap().ends_with(" GMT"));
    for (name, value) in [
        ("if-none-match", "*"),
        ("if-modified-since", "Fri, 01 Jan 2100 00:00:00 GMT"),
    ] {
        h.send("GET", "/openapi/v3", &[(name, value)], None)
            .await
            .expect(304);
    }
    let now = r.header("last-modified").unwrap().to_owned();
    for (name, value) in [
        ("if-none-match", "\"x\""),
        ("if-modified-since", "Mon, 01 Jan 2001 00:00:00 GMT"),
        ("if-modified-since", now.as_str()),
    ] {
        h.send("GET", "/openapi/v3", &[(name, value)], None)
            .await
            .expect(200);
    }
    let doc = h.get(url2).await.expect(200).json();
    assert_eq!(
        doc["components"]["schemas"]["com.example.stable.v1.CronTab"]["properties"]["spec"]["properties"]
            ["replicas"]["maximum"],
        20
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crd_create_checks_and_status() {
    let s = server().await;
    let h = Http::of(&s);
    let crd = h.crd("resourcedefinition.yaml").await;
    assert_eq!(crd["status"]["acceptedNames"]["kind"], "CronTab");
    assert_eq!(crd["status"]["storedVersions"], json!(["v1"]));
    assert_eq!(crd["spec"]["names"]["listKind"], "CronTabList");
    assert_eq!(crd["metadata"]["generation"], 1);
    // Same name again.
    let e = h
        .post(CRDS, &manifest_json("resourcedefinition.yaml"))
        .await
        .expect(409)
        .json();
    assert_eq!(e["reason"], "AlreadyExists");
    assert_eq!(
        e["message"],
        "customresourcedefinitions.apiextensions.k8s.io \"crontabs.stable.example.com\" already exists"
    );
    // crdgen check's errors as a 422.
    let mut bad = manifest_json("resourcedefinition.yaml");
    bad["metadata"]["name"] = json!("things.stable.example.com");
    bad["spec"]["names"] = json!({"plural": "things", "kind": "Thing"});
    bad["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["replicas"] =
        json!({});
    let e = h.post(CRDS, &bad).await.expect(422).json();
    assert_eq!(e["reason"], "Invalid");
    assert_eq!(e["details"]["kind"], "CustomResourceDefinition");
    assert_eq!(
        e["details"]["causes"][0],
        json!({"reason": "FieldValueRequired", "message": "Required value: must not be empty for specified object fields",
            "field": "spec.validation.openAPIV3Schema.properties[spec].properties[replicas].type"})
    );
    // Strict field validation of CRDs.
    let mut unknown = manifest_json("resourcedefinition.yaml");
    unknown["metadata"]["name"] = json!("others.stable.example.com");
    unknown["spec"]["names"] = json!({"plural": "others", "kind": "Other"});
    unknown["spec"]["bogus"] = json!(true);
    let e = h
        .post(&format!("{CRDS}?fieldValidation=Strict"), &unknown)
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        "strict decoding error: unknown field \"spec.bogus\""
    );
    // Names conflicting with another CRD of the group are not accepted.
    let mut clash = manifest_json("resourcedefinition.yaml");
    clash["metadata"]["name"] = json!("crontabz.stable.example.com");
    clash["spec"]["names"] =
        json!({"plural": "crontabz", "kind": "CronTabZ", "shortNames": ["ct"]});
    let c = h.post(CRDS, &clash).await.expect(201).json();
    let accepted = c["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "NamesAccepted")
        .unwrap()
        .clone();
    assert_eq!(accepted["status"], "False");
    assert_eq!(accepted["message"], "\"ct\" is already in use");
    assert_eq!(
        h.get("/apis/stable.example.com/v1/namespaces/default/crontabz")
            .await
            .status,
        404
    );
    // The CRD table.
    let t = h.get_as(CRDS, TABLE).await.expect(200).json();
    assert_eq!(t["columnDefinitions"][1]["name"], "Created At");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_resource_crud_and_errors() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-validation.yaml").await;
    let created = h
        .post(
            &format!("{CT}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict"),
            &manifest_json("my-crontab-valid.yaml"),
        )
        .await
        .expect(201)
        .json();
    assert_eq!(created["metadata"]["namespace"], "default");
    assert_eq!(created["metadata"]["generation"], 1);
    assert!(created["metadata"]["uid"].as_str().unwrap().len() == 36);
    let rv = created["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let got = h
        .get(&format!("{CT}/my-new-cron-object"))
        .await
        .expect(200)
        .json();
    assert_eq!(got, created);
    // Not found, already exists.
    let e = h.get(&format!("{CT}/nope")).await.expect(404).json();
    assert_eq!(
        e["message"],
        "crontabs.stable.example.com \"nope\" not found"
    );
    assert_eq!(
        e["details"],
        json!({"name": "nope", "group": "stable.example.com", "kind": "crontabs"})
    );
    let e = h
        .post(CT, &manifest_json("my-crontab-valid.yaml"))
        .await
        .expect(409)
        .json();
    assert_eq!(
        e["message"],
        "crontabs.stable.example.com \"my-new-cron-object\" already exists"
    );
    // Invalid: the docs' object, both causes, kubectl's rendering of them (validation comes
    // before the write, so before AlreadyExists).
    h.post(CT, &manifest_json("my-crontab-invalid.yaml"))
        .await
        .expect(422);
    let mut invalid = manifest_json("my-crontab-invalid.yaml");
    invalid["metadata"]["name"] = json!("bad-cron-object");
    let e = h.post(CT, &invalid).await.expect(422).json();
    assert_eq!(e["details"]["kind"], "CronTab");
    assert_eq!(e["details"]["group"], "stable.example.com");
    let causes: Vec<String> = e["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}: {}",
                c["field"].as_str().unwrap(),
                c["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        causes,
        [
            r#"spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'"#,
            "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
        ]
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("CronTab.stable.example.com \"bad-cron-object\" is invalid: [")
    );
    // Update with a stale resourceVersion: 409; without one: 422.
    let mut upd = got.clone();
    upd["spec"]["replicas"] = json!(6);
    let updated = h
        .put(&format!("{CT}/my-new-cron-object"), &upd)
        .await
        .expect(200)
        .json();
    assert_eq!(updated["metadata"]["generation"], 2);
    assert_ne!(updated["metadata"]["resourceVersion"], json!(rv));
    let e = h
        .put(&format!("{CT}/my-new-cron-object"), &upd)
        .await
        .expect(409)
        .json();
    assert_eq!(e["reason"], "Conflict");
    assert_eq!(
        e["message"],
        "Operation cannot be fulfilled on crontabs.stable.example.com \"my-new-cron-object\": the object has been modified; please apply your changes to the latest version and try again"
    );
    upd["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    let e = h
        .put(&format!("{CT}/my-new-cron-object"), &upd)
        .await
        .expect(422)
        .json();
    assert_eq!(
        e["details"]["causes"][0]["field"],
        "metadata.resourceVersion"
    );
    // Name mismatch.
    let mut other = updated.clone();
    other["metadata"]["name"] = json!("other");
    let e = h
        .put(&format!("{CT}/my-new-cron-object"), &other)
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        "the name of the object (other) does not match the name on the URL (my-new-cron-object)"
    );
    // A no-op update writes nothing.
    let same = h
        .put(&format!("{CT}/my-new-cron-object"), &updated)
        .await
        .expect(200)
        .json();
    assert_eq!(
        same["metadata"]["resourceVersion"],
        updated["metadata"]["resourceVersion"]
    );
    // Across namespaces; missing namespace.
    let all = h
        .get("/apis/stable.example.com/v1/crontabs")
        .await
        .expect(200)
        .json();
    assert_eq!(all["kind"], "CronTabList");
    assert_eq!(all["items"].as_array().unwrap().len(), 1);
    let e = h
        .post(
            "/apis/stable.example.com/v1/namespaces/nope/crontabs",
            &crontab("x", json!({})),
        )
        .await
        .expect(404)
        .json();
    assert_eq!(e["message"], "namespaces \"nope\" not found");
    // Delete: a Success status naming the object.
    let d = h
        .delete(&format!("{CT}/my-new-cron-object"))
        .await
        .expect(200)
        .json();
    assert_eq!(d["status"], "Success");
    assert_eq!(d["details"]["kind"], "crontabs");
    assert_eq!(d["details"]["uid"], created["metadata"]["uid"]);
    assert_eq!(h.get(&format!("{CT}/my-new-cron-object")).await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn field_validation_strict_warn_ignore_and_pruning() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let obj = manifest_json("my-crontab-pruning.yaml");
    let e = h
        .post(&format!("{CT}?fieldValidation=Strict"), &obj)
        .await
        .expect(400)
        .json();
    assert_eq!(e["reason"], "BadRequest");
    assert_eq!(
        e["message"],
        "strict decoding error: unknown field \"spec.someRandomField\""
    );
    let r = h
        .post(&format!("{CT}?fieldValidation=Warn"), &obj)
        .await
        .expect(201);
    assert_eq!(
        r.warnings(),
        [r#"299 - "unknown field \"spec.someRandomField\"""#]
    );
    assert!(r.json()["spec"].get("someRandomField").is_none());
    h.delete(&format!("{CT}/my-new-cron-object"))
        .await
        .expect(200);
    let r = h
        .post(&format!("{CT}?fieldValidation=Ignore"), &obj)
        .await
        .expect(201);
    assert!(r.warnings().is_empty());
    assert_eq!(
        r.json()["spec"],
        json!({"cronSpec": "* * * * */5", "image": "my-awesome-cron-image"})
    );
    // Duplicate fields (the last value kept) under Strict.
    let body = br#"{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"dup"},"spec":{"image":"a","image":"b"}}"#;
    let e = h
        .send(
            "POST",
            &format!("{CT}?fieldValidation=Strict"),
            &[("content-type", "application/json")],
            Some(body.to_vec()),
        )
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        "strict decoding error: duplicate field \"spec.image\""
    );
    let r = h
        .send(
            "POST",
            CT,
            &[("content-type", "application/json")],
            Some(body.to_vec()),
        )
        .await
        .expect(201);
    assert_eq!(r.json()["spec"]["image"], "b");
    assert_eq!(r.warnings(), [r#"299 - "duplicate field \"spec.image\"""#]);
    assert_eq!(
        h.post(&format!("{CT}?fieldValidation=Sometimes"), &obj)
            .await
            .status,
        400
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaulting_and_cel_rules() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-defaulting.yaml").await;
    let r = h
        .post(CT, &manifest_json("my-crontab-defaulting.yaml"))
        .await
        .expect(201)
        .json();
    assert_eq!(
        r["spec"],
        json!({"cronSpec": "5 0 * * *", "image": "my-awesome-cron-image", "replicas": 1})
    );
    h.delete(&format!("{CRDS}/crontabs.stable.example.com"))
        .await
        .expect(200);
    wait_gone(&h, &format!("{CRDS}/crontabs.stable.example.com")).await;
    h.crd("resourcedefinition-cel.yaml").await;
    let e = h
        .post(CT, &manifest_json("my-crontab-cel.yaml"))
        .await
        .expect(422)
        .json();
    assert_eq!(e["details"]["causes"][0]["field"], "spec");
    assert_eq!(
        e["details"]["causes"][0]["message"],
        // The engine's rendering of a CEL failure (the page shows an older server's).
        "Invalid value: replicas should be smaller than or equal to maxReplicas."
    );
}

/// Polls until `path` is 404 (10 s at most: cleanups back off up to 800 ms between rounds).
pub async fn wait_gone(h: &Http, path: &str) {
    for _ in 0..1000 {
        if h.get(path).await.status == 404 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{path} still exists");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patches_merge_json_and_unsupported() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(CT, &crontab("p", json!({"image": "a", "replicas": 1})))
        .await
        .expect(201);
    let path = format!("{CT}/p");
    let r = h
        .merge(&path, &json!({"spec": {"replicas": 3, "image": null}}))
        .await
        .expect(200)
        .json();
    assert_eq!(r["spec"], json!({"replicas": 3}));
    assert_eq!(r["metadata"]["generation"], 2);
    // kube-rs's finalizer helper.
    let add = json!([{"op": "test", "path": "/metadata/finalizers", "value": null},
        {"op": "add", "path": "/metadata/finalizers", "value": ["stable.example.com/cleanup"]}]);
    let r = h
        .patch(&path, "application/json-patch+json", &add)
        .await
        .expect(200)
        .json();
    assert_eq!(
        r["metadata"]["finalizers"],
        json!(["stable.example.com/cleanup"])
    );
    let e = h
        .patch(&path, "application/json-patch+json", &add)
        .await
        .expect(422)
        .json();
    // patch.go: `NewGenericServerResponse(422, …)` keeps none of json-patch's text.
    assert_eq!(
        e["message"],
        "the server rejected our request due to an error in our request"
    );
    assert_eq!(
        (e["reason"].as_str(), &e["details"]),
        (Some("Invalid"), &json!({}))
    );
    // A patch naming an old resourceVersion is a precondition.
    let e = h
        .merge(
            &path,
            &json!({"metadata": {"resourceVersion": "1"}, "spec": {"replicas": 4}}),
        )
        .await
        .expect(409)
        .json();
    assert_eq!(e["reason"], "Conflict");
    // Strategic merge patches of custom resources: 415.
    let e = h
        .patch(&path, "application/strategic-merge-patch+json", &json!({}))
        .await
        .expect(415)
        .json();
    assert_eq!(e["reason"], "UnsupportedMediaType");
    // Malformed patches.
    assert_eq!(
        h.send(
            "PATCH",
            &path,
            &[("content-type", "application/merge-patch+json")],
            Some(b"{".to_vec())
        )
        .await
        .status,
        400
    );
    assert_eq!(
        h.send(
            "PATCH",
            &path,
            &[("content-type", "application/json-patch+json")],
            Some(b"{}".to_vec())
        )
        .await
        .status,
        400
    );
    assert_eq!(
        h.merge(&format!("{CT}/missing"), &json!({})).await.status,
        404
    );
    // A merge patch that changes nothing writes nothing.
    let crd_path = format!("{CRDS}/crontabs.stable.example.com");
    let before = h.get(&crd_path).await.expect(200).json();
    let after = h
        .merge(&crd_path, &json!({"metadata": {"labels": null}}))
        .await
        .expect(200)
        .json();
    assert_eq!(
        before["metadata"]["resourceVersion"],
        after["metadata"]["resourceVersion"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_and_scale_subresources() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-subresources.yaml").await;
    let mut obj = manifest_json("my-crontab-replicas.yaml");
    obj["status"] = json!({"replicas": 9});
    let created = h.post(CT, &obj).await.expect(201).json();
    assert!(
        created.get("status").is_none(),
        "create drops status: {created}"
    );
    let path = format!("{CT}/my-new-cron-object");
    // Status through /status: spec ignored, generation unchanged.
    let r = h.merge(&format!("{path}/status"), &json!({"status": {"replicas": 2, "labelSelector": "app=cron"}, "spec": {"replicas": 7}})).await.expect(200).json();
    assert_eq!(r["status"]["replicas"], 2);
    assert_eq!(r["spec"]["replicas"], 3);
    assert_eq!(r["metadata"]["generation"], 1);
    // The main resource ignores status.
    let r = h
        .merge(
            &path,
            &json!({"status": {"replicas": 100}, "spec": {"image": "b"}}),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(r["status"]["replicas"], 2);
    assert_eq!(r["metadata"]["generation"], 2);
    // Scale: GET and kubectl's merge patch.
    let sc = h.get(&format!("{path}/scale")).await.expect(200).json();
    assert_eq!(sc["kind"], "Scale");
    assert_eq!(sc["apiVersion"], "autoscaling/v1");
    assert_eq!(sc["spec"], json!({"replicas": 3}));
    assert_eq!(sc["status"], json!({"replicas": 2, "selector": "app=cron"}));
    let sc = h
        .merge(&format!("{path}/scale"), &json!({"spec": {"replicas": 5}}))
        .await
        .expect(200)
        .json();
    assert_eq!(sc["spec"]["replicas"], 5);
    let r = h.get(&path).await.expect(200).json();
    assert_eq!(r["spec"]["replicas"], 5);
    assert_eq!(r["metadata"]["generation"], 3);
    let e = h
        .merge(&format!("{path}/scale"), &json!({"spec": {"replicas": -1}}))
        .await
        .expect(422)
        .json();
    assert_eq!(
        e["message"],
        "Scale.autoscaling \"my-new-cron-object\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
    );
    // PUT of a Scale with a stale resourceVersion.
    let mut stale = sc.clone();
    stale["metadata"]["resourceVersion"] = json!("1");
    h.put(&format!("{path}/scale"), &stale).await.expect(409);
    assert_eq!(h.get(&format!("{CT}/x/bogus")).await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selectors_tables_and_pagination() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("shirt-resource-definition.yaml").await;
    let shirts = "/apis/stable.example.com/v1/namespaces/default/shirts";
    for doc in manifest_docs("shirt-resources.yaml") {
        h.post(shirts, &doc).await.expect(201);
    }
    let t = h
        .get_as(
            &format!("{shirts}?fieldSelector=spec.color%3Dblue&limit=500"),
            TABLE,
        )
        .await
        .expect(200);
    assert_eq!(
        t.header("content-type"),
        Some("application/json;as=Table;v=v1;g=meta.k8s.io")
    );
    let t = t.json();
    let names: Vec<&str> = t["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Name", "Color", "Size"]);
    let rows: Vec<Value> = t["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["cells"].clone())
        .collect();
    assert_eq!(
        rows,
        [
            json!(["example1", "blue", "S"]),
            json!(["example2", "blue", "M"])
        ]
    );
    assert_eq!(t["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    let l = h
        .get(&format!(
            "{shirts}?fieldSelector=spec.color%3Dgreen,spec.size%3DM"
        ))
        .await
        .expect(200)
        .json();
    assert_eq!(l["items"].as_array().unwrap().len(), 1);
    let l = h
        .get(&format!("{shirts}?fieldSelector=spec.color!%3Dblue"))
        .await
        .expect(200)
        .json();
    assert_eq!(l["items"][0]["metadata"]["name"], "example3");
    let e = h
        .get(&format!("{shirts}?fieldSelector=spec.material%3Dcotton"))
        .await
        .expect(400)
        .json();
    assert_eq!(e["message"], "field label not supported: spec.material");
    assert_eq!(
        h.get(&format!("{shirts}?fieldSelector=nonsense"))
            .await
            .status,
        400
    );
    assert_eq!(
        h.get(&format!("{shirts}?labelSelector=a%20in%20b"))
            .await
            .status,
        400
    );
    // Labels.
    h.merge(
        &format!("{shirts}/example1"),
        &json!({"metadata": {"labels": {"team": "a"}}}),
    )
    .await
    .expect(200);
    let l = h
        .get(&format!("{shirts}?labelSelector=team%3Da"))
        .await
        .expect(200)
        .json();
    assert_eq!(l["items"].as_array().unwrap().len(), 1);
    let l = h
        .get(&format!("{shirts}?labelSelector=!team"))
        .await
        .expect(200)
        .json();
    assert_eq!(l["items"].as_array().unwrap().len(), 2);
    // Pagination at one revision, with a selector.
    let p1 = h.get(&format!("{shirts}?limit=1")).await.expect(200).json();
    assert_eq!(p1["items"].as_array().unwrap().len(), 1);
    let c = p1["metadata"]["continue"].as_str().unwrap().to_owned();
    h.post(shirts, &json!({"apiVersion": "stable.example.com/v1", "kind": "Shirt", "metadata": {"name": "example4"}, "spec": {"color": "red"}})).await.expect(201);
    let p2 = h
        .get(&format!("{shirts}?limit=5&continue={c}"))
        .await
        .expect(200)
        .json();
    let names: Vec<&str> = p2["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["example2", "example3"],
        "the snapshot of the first page"
    );
    assert_eq!(
        p2["metadata"]["resourceVersion"],
        p1["metadata"]["resourceVersion"]
    );
    assert!(p2["metadata"].get("continue").is_none());
    assert_eq!(h.get(&format!("{shirts}?continue=bogus")).await.status, 400);
    // Printer columns with priority and the default Age column.
    h.crd("resourcedefinition-printer-columns.yaml").await;
    h.post(CT, &manifest_json("my-crontab-valid.yaml"))
        .await
        .expect(201);
    let t = h
        .get_as(&format!("{CT}/my-new-cron-object"), TABLE)
        .await
        .expect(200)
        .json();
    assert_eq!(
        t["rows"][0]["cells"],
        json!(["my-new-cron-object", "* * * * */5", 5, "0s"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finalizers_and_deletion() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let r = h
        .post(CT, &manifest_json("my-crontab-finalizer.yaml"))
        .await
        .expect(201);
    assert!(r.warnings().is_empty());
    let path = format!("{CT}/my-new-cron-object");
    let d = h.delete(&path).await.expect(200).json();
    assert_eq!(d["kind"], "CronTab", "the object, still there: {d}");
    assert!(d["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(d["metadata"]["deletionGracePeriodSeconds"], 0);
    assert_eq!(d["metadata"]["generation"], 2);
    // A second delete changes nothing.
    let again = h.delete(&path).await.expect(200).json();
    assert_eq!(
        again["metadata"]["resourceVersion"],
        d["metadata"]["resourceVersion"]
    );
    // No new finalizers while deleting.
    let e = h
        .merge(
            &path,
            &json!({"metadata": {"finalizers": ["stable.example.com/finalizer", "b/c"]}}),
        )
        .await
        .expect(422)
        .json();
    assert_eq!(e["details"]["causes"][0]["reason"], "FieldValueForbidden");
    // Removing the last finalizer deletes it.
    let r = h
        .merge(&path, &json!({"metadata": {"finalizers": null}}))
        .await
        .expect(200)
        .json();
    assert!(r["metadata"].get("finalizers").is_none());
    assert_eq!(h.get(&path).await.status, 404);
    // Finalizer names without a domain get the API server's warning.
    let mut plain = manifest_json("my-crontab-finalizer.yaml");
    plain["metadata"]["finalizers"] = json!(["plain"]);
    let r = h.post(CT, &plain).await.expect(201);
    assert_eq!(
        r.warnings(),
        [
            r#"299 - "metadata.finalizers: \"plain\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers""#
        ]
    );
    // Deleting the CRD deletes its objects, once their finalizers are gone.
    h.merge(&path, &json!({"metadata": {"finalizers": null}}))
        .await
        .expect(200);
    h.post(CT, &crontab("other", json!({}))).await.expect(201);
    let d = h
        .delete(&format!("{CRDS}/crontabs.stable.example.com"))
        .await
        .expect(200)
        .json();
    assert_eq!(
        d["metadata"]["finalizers"],
        json!(["customresourcecleanup.apiextensions.k8s.io"])
    );
    crate::api::wait_gone(&h, &format!("{CRDS}/crontabs.stable.example.com")).await;
    // The cleanup removes the resource from the registry just after the CRD from storage.
    crate::api::wait_gone(&h, CT).await;
    // Recreated, it starts out empty.
    h.crd("resourcedefinition.yaml").await;
    assert_eq!(h.get(CT).await.expect(200).json()["items"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crd_deletion_waits_for_finalizers_and_refuses_creates() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(CT, &manifest_json("my-crontab-finalizer.yaml"))
        .await
        .expect(201);
    h.delete(&format!("{CRDS}/crontabs.stable.example.com"))
        .await
        .expect(200);
    // The object is marked as deleting by the cleanup, and stays for its finalizer.
    let mut marked = Value::Null;
    for _ in 0..200 {
        marked = h
            .get(&format!("{CT}/my-new-cron-object"))
            .await
            .expect(200)
            .json();
        if marked["metadata"]["deletionTimestamp"].is_string() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        marked["metadata"]["deletionTimestamp"].is_string(),
        "{marked}"
    );
    let e = h
        .post(CT, &crontab("new", json!({})))
        .await
        .expect(405)
        .json();
    assert_eq!(
        e["message"],
        "create not allowed while custom resource definition is terminating"
    );
    h.merge(
        &format!("{CT}/my-new-cron-object"),
        &json!({"metadata": {"finalizers": null}}),
    )
    .await
    .expect(200);
    crate::api::wait_gone(&h, &format!("{CRDS}/crontabs.stable.example.com")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namespaces_lifecycle() {
    let s = server().await;
    let h = Http::of(&s);
    let ns = h
        .post(
            "/api/v1/namespaces",
            &json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}),
        )
        .await
        .expect(201)
        .json();
    assert_eq!(ns["status"]["phase"], "Active");
    assert_eq!(
        ns["metadata"]["labels"]["kubernetes.io/metadata.name"],
        "team-a"
    );
    let e = h
        .post(
            "/api/v1/namespaces",
            &json!({"metadata": {"name": "Team_A"}}),
        )
        .await
        .expect(422)
        .json();
    assert_eq!(e["details"]["causes"][0]["field"], "metadata.name");
    h.crd("resourcedefinition.yaml").await;
    let ns_path = "/apis/stable.example.com/v1/namespaces/team-a/crontabs";
    h.post(ns_path, &manifest_json("my-crontab-finalizer.yaml"))
        .await
        .expect(201);
    let d = h
        .delete("/api/v1/namespaces/team-a")
        .await
        .expect(200)
        .json();
    assert_eq!(d["status"]["phase"], "Terminating");
    let e = h
        .post(ns_path, &crontab("late", json!({})))
        .await
        .expect(403)
        .json();
    assert_eq!(
        e["message"],
        "crontabs.stable.example.com \"late\" is forbidden: unable to create new content in namespace team-a because it is being terminated"
    );
    // Content goes (after its finalizer), then the namespace.
    for _ in 0..200 {
        let o = h.get(&format!("{ns_path}/my-new-cron-object")).await.json();
        if o["metadata"]["deletionTimestamp"].is_string() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    h.merge(
        &format!("{ns_path}/my-new-cron-object"),
        &json!({"metadata": {"finalizers": null}}),
    )
    .await
    .expect(200);
    crate::api::wait_gone(&h, "/api/v1/namespaces/team-a").await;
    let t = h
        .get_as("/api/v1/namespaces", TABLE)
        .await
        .expect(200)
        .json();
    let cols: Vec<&str> = t["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(cols, ["Name", "Status", "Age"]);
    assert_eq!(t["rows"].as_array().unwrap().len(), 4);
    // Field selector on status.phase.
    let l = h
        .get("/api/v1/namespaces?fieldSelector=status.phase%3DActive")
        .await
        .expect(200)
        .json();
    assert_eq!(l["items"].as_array().unwrap().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_scoped_versions_conversion_and_deprecation() {
    let s = server().await;
    let h = Http::of(&s);
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {"group": "example.com", "scope": "Cluster",
            "names": {"plural": "gadgets", "kind": "Gadget"},
            "versions": [
                {"name": "v1beta1", "served": true, "storage": true, "deprecated": true,
                 "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}},
                {"name": "v1", "served": true, "storage": false,
                 "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}}]}});
    h.post(CRDS, &crd).await.expect(201);
    let r = h.post("/apis/example.com/v1/gadgets", &json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g", "namespace": "ignored"}, "spec": {"size": 1}})).await.expect(201);
    assert!(r.warnings().is_empty());
    let g = r.json();
    assert!(g["metadata"].get("namespace").is_none());
    // Stored at the storage version, served at both.
    let raw = stored(&s, "/registry/example.com/gadgets/g").await;
    assert_eq!(raw["apiVersion"], "example.com/v1beta1");
    let old = h
        .get("/apis/example.com/v1beta1/gadgets/g")
        .await
        .expect(200);
    assert_eq!(
        old.warnings(),
        [r#"299 - "example.com/v1beta1 Gadget is deprecated; use example.com/v1 Gadget""#]
    );
    assert_eq!(old.json()["apiVersion"], "example.com/v1beta1");
    // Moving the storage version records it in storedVersions.
    let mut crd = h
        .get(&format!("{CRDS}/gadgets.example.com"))
        .await
        .expect(200)
        .json();
    crd["spec"]["versions"][0]["storage"] = json!(false);
    crd["spec"]["versions"][1]["storage"] = json!(true);
    let updated = h
        .put(&format!("{CRDS}/gadgets.example.com"), &crd)
        .await
        .expect(200)
        .json();
    assert_eq!(
        updated["status"]["storedVersions"],
        json!(["v1beta1", "v1"])
    );
    assert_eq!(updated["metadata"]["generation"], 2);
    h.merge(
        "/apis/example.com/v1/gadgets/g",
        &json!({"spec": {"size": 2}}),
    )
    .await
    .expect(200);
    let raw = stored(&s, "/registry/example.com/gadgets/g").await;
    assert_eq!(raw["apiVersion"], "example.com/v1");
    // Cluster-scoped paths have no namespace.
    assert_eq!(
        h.get("/apis/example.com/v1/namespaces/default/gadgets/g")
            .await
            .status,
        404
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generate_name_dry_run_and_deletecollection() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let r = h.post(CT, &json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"generateName": "cron-"}, "spec": {}})).await.expect(201).json();
    let name = r["metadata"]["name"].as_str().unwrap();
    assert!(name.starts_with("cron-") && name.len() == 10, "{name}");
    let e = h.post(CT, &json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {}, "spec": {}})).await.expect(422).json();
    assert_eq!(e["details"]["causes"][0]["field"], "metadata.name");
    let dry = h
        .post(&format!("{CT}?dryRun=All"), &crontab("dry", json!({})))
        .await
        .expect(201)
        .json();
    assert_eq!(dry["metadata"]["name"], "dry");
    assert_eq!(h.get(&format!("{CT}/dry")).await.status, 404);
    h.post(CT, &crontab("a", json!({}))).await.expect(201);
    let mut labelled = crontab("b", json!({}));
    labelled["metadata"]["labels"] = json!({"x": "y"});
    h.post(CT, &labelled).await.expect(201);
    let l = h
        .send("DELETE", &format!("{CT}?labelSelector=x%3Dy"), &[], None)
        .await
        .expect(200)
        .json();
    assert_eq!(l["items"].as_array().unwrap().len(), 1);
    assert_eq!(
        h.get(CT).await.expect(200).json()["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    h.send("DELETE", CT, &[], None).await.expect(200);
    assert_eq!(h.get(CT).await.expect(200).json()["items"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leases_and_events_for_controllers() {
    let s = server().await;
    let h = Http::of(&s);
    let leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    let lease = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "my-controller"},
        "spec": {"holderIdentity": "pod-a", "leaseDurationSeconds": 15}});
    let created = h.post(leases, &lease).await.expect(201).json();
    assert_eq!(created["spec"]["holderIdentity"], "pod-a");
    let mut renewed = created.clone();
    renewed["spec"]["holderIdentity"] = json!("pod-b");
    h.put(&format!("{leases}/my-controller"), &renewed)
        .await
        .expect(200);
    h.put(&format!("{leases}/my-controller"), &renewed)
        .await
        .expect(409);
    let t = h.get_as(leases, TABLE).await.expect(200).json();
    assert_eq!(t["rows"][0]["cells"][1], "pod-b");
    let events = "/apis/events.k8s.io/v1/namespaces/default/events";
    let ev = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"generateName": "probe-"},
        "reason": "Reconciled", "note": "ok", "type": "Normal", "action": "Reconcile", "reportingController": "c", "reportingInstance": "i",
        "eventTime": "2021-06-20T07:35:27.000000Z", "regarding": {"kind": "CronTab", "name": "x", "namespace": "default"}});
    let e = h.post(events, &ev).await.expect(201).json();
    assert_eq!(e["reason"], "Reconciled");
    let d = h.get_as("/apis?timeout=32s", AGG).await.expect(200).json();
    let groups: Vec<&str> = d["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["metadata"]["name"].as_str().unwrap())
        .collect();
    assert!(
        groups.contains(&"coordination.k8s.io") && groups.contains(&"events.k8s.io"),
        "{groups:?}"
    );
    // They are not CRDs.
    assert_eq!(
        h.get(&format!("{CRDS}/leases.coordination.k8s.io"))
            .await
            .status,
        404
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_and_managed_fields() {
    let s = server().await;
    let h = Http::of(&s);
    let crd_path = format!("{CRDS}/crontabs.stable.example.com");
    let apply = |path: String, body: Value| async move {
        h.send(
            "PATCH",
            &path,
            &[("content-type", "application/apply-patch+yaml")],
            Some(body.to_string().into_bytes()),
        )
        .await
    };
    // kube-rs installs CRDs this way (`?&force=true&fieldManager=…`): apply creates.
    let r = apply(
        format!("{crd_path}?&force=true&fieldManager=crdkit-probe"),
        manifest_json("resourcedefinition.yaml"),
    )
    .await
    .expect(201)
    .json();
    assert_eq!(r["status"]["storedVersions"], json!(["v1"]));
    assert_eq!(r["metadata"]["managedFields"][0]["manager"], "crdkit-probe");
    assert_eq!(r["metadata"]["managedFields"][0]["operation"], "Apply");
    // Re-applying the same configuration writes nothing.
    let again = apply(
        format!("{crd_path}?force=true&fieldManager=crdkit-probe"),
        manifest_json("resourcedefinition.yaml"),
    )
    .await
    .expect(200)
    .json();
    assert_eq!(
        again["metadata"]["resourceVersion"],
        r["metadata"]["resourceVersion"]
    );
    // Custom resources: create, update, ownership.
    let r = apply(
        format!("{CT}/a?fieldManager=kubectl"),
        crontab("a", json!({"image": "x", "replicas": 1})),
    )
    .await
    .expect(201)
    .json();
    assert_eq!(r["spec"], json!({"image": "x", "replicas": 1}));
    let r = apply(
        format!("{CT}/a?fieldManager=kubectl"),
        crontab("a", json!({"image": "y"})),
    )
    .await
    .expect(200)
    .json();
    assert_eq!(
        r["spec"],
        json!({"image": "y"}),
        "fields the applier stopped sending are removed"
    );
    assert_eq!(r["metadata"]["generation"], 2);
    let e = apply(
        format!("{CT}/a?fieldManager=controller"),
        crontab("a", json!({"image": "z"})),
    )
    .await
    .expect(409)
    .json();
    assert_eq!(e["reason"], "Conflict");
    assert_eq!(
        e["message"],
        r#"Apply failed with 1 conflict: conflict with "kubectl": .spec.image"#
    );
    assert_eq!(e["details"]["causes"][0]["reason"], "FieldManagerConflict");
    let r = apply(
        format!("{CT}/a?fieldManager=controller&force=true"),
        crontab("a", json!({"image": "z"})),
    )
    .await
    .expect(200)
    .json();
    assert_eq!(r["spec"]["image"], "z");
    // Updates by other means are recorded as Update operations.
    let r = h
        .merge(
            &format!("{CT}/a?fieldManager=kubectl-edit"),
            &json!({"spec": {"replicas": 3}}),
        )
        .await
        .expect(200)
        .json();
    let managers: Vec<(&str, &str)> = r["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["manager"].as_str().unwrap(),
                m["operation"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        managers.contains(&("kubectl-edit", "Update")),
        "{managers:?}"
    );
    assert!(managers.contains(&("controller", "Apply")), "{managers:?}");
    // Request errors.
    let e = apply(format!("{CT}/a"), crontab("a", json!({})))
        .await
        .expect(422)
        .json();
    assert_eq!(
        e["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    assert_eq!(
        apply(format!("{CT}/b?fieldManager=m"), crontab("a", json!({})))
            .await
            .status,
        400
    );
    let bad = h
        .send(
            "PATCH",
            &format!("{CT}/a?fieldManager=m"),
            &[("content-type", "application/apply-patch+yaml")],
            Some(b"[1".to_vec()),
        )
        .await;
    assert_eq!(bad.status, 400);
    // Managed fields on create, from the field manager or the user agent.
    let r = h
        .send(
            "POST",
            CT,
            &[
                ("content-type", "application/json"),
                ("user-agent", "kubectl/v1.32.4 (linux/amd64)"),
            ],
            Some(crontab("ua", json!({})).to_string().into_bytes()),
        )
        .await
        .expect(201)
        .json();
    assert_eq!(r["metadata"]["managedFields"][0]["manager"], "kubectl");
    assert_eq!(r["metadata"]["managedFields"][0]["operation"], "Update");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn system_namespaces_stay() {
    let s = server().await;
    let h = Http::of(&s);
    let e = h
        .delete("/api/v1/namespaces/default")
        .await
        .expect(403)
        .json();
    assert_eq!(
        e["message"],
        "namespaces \"default\" is forbidden: this namespace may not be deleted"
    );
    h.delete("/api/v1/namespaces/kube-node-lease")
        .await
        .expect(200);
}
