//! The hostile requests of issue 19, one test per row: objects nested to the depth limit and
//! past it (bodies, JSON patches, merge patches, apply), `copy` bombs, YAML alias bombs,
//! objects larger than storage takes. Each is answered with a `Status` and the server goes on
//! serving. Connections, filters and credentials are in `hardening.rs`.

use std::time::Duration;

use serde_json::json;

use crate::common::{CRDS, Http, server};

pub const BLOBS: &str = "/apis/hostile.example.com/v1/namespaces/default/blobs";

/// Go's `maxNestingDepth`, the server's limit.
const MAX_DEPTH: usize = 10_000;

/// A CRD whose objects keep any field (`x-kubernetes-preserve-unknown-fields`), with a printer
/// column over the deep field.
pub async fn blob_crd(h: &Http) {
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "blobs.hostile.example.com"},
        "spec": {"group": "hostile.example.com", "scope": "Namespaced",
            "names": {"plural": "blobs", "singular": "blob", "kind": "Blob"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
                "additionalPrinterColumns": [{"name": "X", "type": "string", "jsonPath": ".spec.x"}]}]}
    });
    h.post(CRDS, &crd).await.expect(201);
}

/// `{"x": {"x": … 1}}`, `n` objects deep, as text (a `Value` that deep would recurse in the
/// test's own serde on a 2 MiB thread).
fn nest(n: usize) -> String {
    let mut s = String::with_capacity(n * 6 + 1);
    for _ in 0..n {
        s.push_str("{\"x\":");
    }
    s.push('1');
    s.push_str(&"}".repeat(n));
    s
}

/// A blob named `name` whose `spec.x` nests `n` objects (the object `n + 2` deep).
fn blob_text(name: &str, n: usize) -> Vec<u8> {
    blob_at(name, n, "")
}

/// [`blob_text`] at `resourceVersion` (none when empty).
fn blob_at(name: &str, n: usize, rv: &str) -> Vec<u8> {
    let rv = if rv.is_empty() {
        String::new()
    } else {
        format!(",\"resourceVersion\":\"{rv}\"")
    };
    format!(
        "{{\"apiVersion\":\"hostile.example.com/v1\",\"kind\":\"Blob\",\"metadata\":{{\"name\":\"{name}\"{rv}}},\"spec\":{{\"x\":{}}}}}",
        nest(n)
    )
    .into_bytes()
}

/// The `resourceVersion` in an object's JSON text.
fn rv_of(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let at = text
        .find("\"resourceVersion\":\"")
        .expect("a resourceVersion")
        + 19;
    text[at..].chars().take_while(|c| *c != '"').collect()
}

/// The depth of JSON text (brackets outside strings), without parsing it.
fn depth_of(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

const JSON: [(&str, &str); 1] = [("content-type", "application/json")];

/// Objects at the depth limit go through every verb and representation; one level more is a
/// 400 with Go's scanner message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_at_the_depth_limit_are_served_and_past_it_refused() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    // Root, spec, and the chain: the whole object at the limit, less the levels its managed
    // fields add (metadata.managedFields[0].fieldsV1.f:spec).
    let n = MAX_DEPTH - 8;
    let r = h
        .send("POST", BLOBS, &JSON, Some(blob_text("deep", n)))
        .await;
    assert!(depth_of(&r.expect(201).body) >= n + 2);
    let one = format!("{BLOBS}/deep");
    assert!(depth_of(&h.get(&one).await.expect(200).body) >= n + 2);
    // YAML that deep is written in flow style; a Table prints the deep column.
    let yaml = h.get_as(&one, "application/yaml").await.expect(200);
    assert!(yaml.body.len() < 1 << 20, "{} bytes", yaml.body.len());
    h.get_as(&one, crate::common::TABLE).await.expect(200);
    assert!(depth_of(&h.get(BLOBS).await.expect(200).body) >= n + 3);
    h.get_as(BLOBS, crate::common::TABLE).await.expect(200);
    // A watch from the start delivers it.
    let mut w = h
        .watch(&format!(
            "{BLOBS}?watch=true&resourceVersion=0&timeoutSeconds=1"
        ))
        .await;
    assert_eq!(w.status, 200);
    assert!(w.ends_within(10).await);
    // Writes of the deep object: a merge patch, an apply, an update.
    h.send(
        "PATCH",
        &one,
        &[("content-type", "application/merge-patch+json")],
        Some(br#"{"metadata":{"labels":{"a":"b"}}}"#.to_vec()),
    )
    .await
    .expect(200);
    let applied = h.send(
        "PATCH",
        &format!("{one}?fieldManager=m"),
        &[("content-type", "application/apply-patch+yaml")],
        Some(
            b"apiVersion: hostile.example.com/v1\nkind: Blob\nmetadata: {name: deep}\nspec: {y: 1}\n"
                .to_vec(),
        ),
    )
    .await
    .expect(200);
    let rv = rv_of(&applied.body);
    h.send("PUT", &one, &JSON, Some(blob_at("deep", n, &rv)))
        .await
        .expect(200);
    // One level more is refused.
    let e = h
        .send(
            "POST",
            BLOBS,
            &JSON,
            Some(blob_text("deeper", MAX_DEPTH - 1)),
        )
        .await
        .expect(400)
        .json();
    assert_eq!(e["reason"], "BadRequest");
    assert_eq!(
        e["message"],
        "json parse error: invalid character '{' exceeded max depth"
    );
    h.delete(&one).await.expect(200);
    h.get(&one).await.expect(404);
    s.shutdown().await;
}

/// Polls `f` every 50 ms for up to 10 s.
pub async fn wait_until<F, Fut>(f: F) -> bool
where
    F: Fn() -> Fut,
    Fut: Future<Output = bool>,
{
    for _ in 0..200 {
        if f().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// The JSON patch that nests `spec.x` one level deeper per three operations (add, move, move),
/// `levels` times: a small patch, no deep body.
fn nesting_patch(levels: usize) -> Vec<u8> {
    let round = r#"{"op":"add","path":"/spec/t","value":{}},{"op":"move","from":"/spec/x","path":"/spec/t/x"},{"op":"move","from":"/spec/t","path":"/spec/x"}"#;
    format!("[{}]", vec![round; levels].join(",")).into_bytes()
}

const JSON_PATCH: [(&str, &str); 1] = [("content-type", "application/json-patch+json")];

/// Row 1: a JSON patch of 9,900 operations nesting an object 3,300 levels deep is stored and
/// served, as the API server accepts up to 10,000 levels (it used to overflow the stack).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_patch_nesting_3300_levels_is_stored_and_served() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    h.send("POST", BLOBS, &JSON, Some(blob_text("a", 0)))
        .await
        .expect(201);
    let one = format!("{BLOBS}/a");
    let patch = nesting_patch(3_300);
    assert!(patch.len() > 400 * 1024, "{}", patch.len());
    let r = h
        .send("PATCH", &one, &JSON_PATCH, Some(patch))
        .await
        .expect(200);
    assert!(depth_of(&r.body) >= 3_302);
    assert!(depth_of(&h.get(&one).await.expect(200).body) >= 3_302);
    assert!(depth_of(&h.get(BLOBS).await.expect(200).body) >= 3_303);
    let mut w = h
        .watch(&format!(
            "{BLOBS}?watch=true&resourceVersion=0&timeoutSeconds=1"
        ))
        .await;
    assert_eq!(w.status, 200);
    assert!(w.ends_within(10).await);
    h.delete(&one).await.expect(200);
    s.shutdown().await;
}

/// Row 2: 250 levels (past serde_json's own limit of 128) are readable after a restart on the
/// same data, by every verb; deleting the CRD deletes them and ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_250_level_object_survives_a_restart_and_its_crd_deletion() {
    let dir = tempfile::tempdir().unwrap();
    let start = || async {
        crdkit_server::ApiServer::start_with(crdkit_server::ServerConfig {
            storage: Some(crdkit_server::open_dir(dir.path()).unwrap()),
            ..crdkit_server::ServerConfig::default()
        })
        .await
        .unwrap()
    };
    let s = start().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    for name in ["a", "b"] {
        h.send("POST", BLOBS, &JSON, Some(blob_text(name, 0)))
            .await
            .expect(201);
        h.send(
            "PATCH",
            &format!("{BLOBS}/{name}"),
            &JSON_PATCH,
            Some(nesting_patch(250)),
        )
        .await
        .expect(200);
    }
    s.shutdown().await;
    let s = start().await;
    let h = Http::of(&s);
    assert!(depth_of(&h.get(&format!("{BLOBS}/a")).await.expect(200).body) >= 252);
    let list = h.get(BLOBS).await.expect(200).text();
    assert_eq!(list.matches(r#""kind":"Blob""#).count(), 2);
    let mut w = h
        .watch(&format!("{BLOBS}?watch=true&resourceVersion=0"))
        .await;
    assert_eq!(w.next().await["type"], "ADDED");
    h.delete(&format!("{BLOBS}/a")).await.expect(200);
    assert_eq!(w.next().await["type"], "ADDED");
    assert_eq!(w.next().await["type"], "DELETED");
    // deletecollection, then the CRD (whose cleanup lists and deletes what is left).
    h.send("POST", BLOBS, &JSON, Some(blob_text("c", 0)))
        .await
        .expect(201);
    h.send("DELETE", BLOBS, &JSON, Some(b"{}".to_vec()))
        .await
        .expect(200);
    h.send("POST", BLOBS, &JSON, Some(blob_text("d", 200)))
        .await
        .expect(201);
    h.delete(&format!("{CRDS}/blobs.hostile.example.com"))
        .await
        .expect(200);
    let gone = wait_until(|| async {
        h.get(&format!("{CRDS}/blobs.hostile.example.com"))
            .await
            .status
            == 404
    })
    .await;
    assert!(gone, "the CRD's cleanup ends");
    s.shutdown().await;
}

/// A JSON patch whose result nests past the limit is the 422 of a result that does not decode,
/// the result in the cause as Go puts it; the object is unchanged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_patch_past_the_depth_limit_is_422() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    let n = MAX_DEPTH - 20;
    h.send("POST", BLOBS, &JSON, Some(blob_text("a", n)))
        .await
        .expect(201);
    // Move the chain under twenty more levels.
    let deep_path: String = "/x".repeat(20);
    let patch = format!(
        r#"[{{"op":"add","path":"/spec/w","value":{}}},{{"op":"move","from":"/spec/x","path":"/spec/w{deep_path}"}}]"#,
        nest(20).replace("1", "{}")
    );
    // The Status of `NewInvalid(schema.GroupKind{}, "", …)`: no kind, no name, one cause whose
    // value is the patched object's JSON (a string: the Status itself is shallow).
    let e = h
        .send(
            "PATCH",
            &format!("{BLOBS}/a"),
            &JSON_PATCH,
            Some(patch.into_bytes()),
        )
        .await
        .expect(422)
        .json();
    assert_eq!(e["reason"], "Invalid");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.starts_with(r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":"#),
        "{}",
        &message[..200]
    );
    assert!(
        message.ends_with(r#"}": couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"#),
        "{}",
        &message[message.len() - 200..]
    );
    let cause = &e["details"]["causes"][0];
    assert_eq!(
        (&cause["reason"], &cause["field"]),
        (&json!("FieldValueInvalid"), &json!("patch"))
    );
    assert_eq!(e["details"]["name"], json!(null));
    let got = h.get(&format!("{BLOBS}/a")).await.expect(200);
    let d = depth_of(&got.body);
    assert!(d < MAX_DEPTH, "{d}");
    s.shutdown().await;
}

/// Row 3: twenty `copy` operations doubling a field (CVE-2019-1002100) stop at the API
/// server's `JSONPatchMaxCopyBytes`, before the copies are made: the generic 422 of a patch
/// that does not apply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_patch_copies_are_bounded() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    let free = format!("[\"{}\"]", "x".repeat(1024));
    let body = format!(
        r#"{{"apiVersion":"hostile.example.com/v1","kind":"Blob","metadata":{{"name":"a"}},"spec":{{"free":{free}}}}}"#
    );
    h.send("POST", BLOBS, &JSON, Some(body.into_bytes()))
        .await
        .expect(201);
    let copy = r#"{"op":"copy","from":"/spec/free","path":"/spec/free/-"}"#;
    let patch = format!("[{}]", vec![copy; 20].join(","));
    assert!(patch.len() < 1400);
    let e = h
        .send(
            "PATCH",
            &format!("{BLOBS}/a"),
            &JSON_PATCH,
            Some(patch.into_bytes()),
        )
        .await
        .expect(422)
        .json();
    assert_eq!(e["reason"], "Invalid");
    assert_eq!(
        e["message"],
        "the server rejected our request due to an error in our request"
    );
    // Below the limit, copies apply.
    let patch = format!("[{}]", [copy; 3].join(","));
    let r = h
        .send(
            "PATCH",
            &format!("{BLOBS}/a"),
            &JSON_PATCH,
            Some(patch.into_bytes()),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(r["spec"]["free"].as_array().unwrap().len(), 4);
    s.shutdown().await;
}

/// Row 4: a YAML body whose aliases name one large string is refused as it expands, before
/// the object is built.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn yaml_alias_bombs_are_refused() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    let mut bomb = format!(
        "apiVersion: hostile.example.com/v1\nkind: Blob\nmetadata: {{name: bomb}}\nspec:\n  s: &s \"{}\"\n  l: [",
        "x".repeat(600 * 1024)
    );
    bomb.push_str(&vec!["*s"; 99].join(", "));
    bomb.push_str("]\n");
    let e = h
        .send(
            "POST",
            BLOBS,
            &[("content-type", "application/yaml")],
            Some(bomb.into_bytes()),
        )
        .await
        .expect(400)
        .json();
    assert_eq!(e["reason"], "BadRequest");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("error converting YAML to JSON: "),
        "{e}"
    );
    // An apply body is decoded with the same limits.
    let mut bomb =
        "apiVersion: hostile.example.com/v1\nkind: Blob\nmetadata: {name: bomb}\nspec:\n  s: &s \""
            .to_owned();
    bomb.push_str(&"x".repeat(600 * 1024));
    bomb.push_str("\"\n  l: [");
    bomb.push_str(&vec!["*s"; 99].join(", "));
    bomb.push_str("]\n");
    h.send(
        "PATCH",
        &format!("{BLOBS}/bomb?fieldManager=m"),
        &[("content-type", "application/apply-patch+yaml")],
        Some(bomb.into_bytes()),
    )
    .await
    .expect(400);
    h.get(&format!("{BLOBS}/bomb")).await.expect(404);
    s.shutdown().await;
}

/// Row 5: an object larger than etcd's default request limit (1.5 MiB) is refused with the
/// Status kube-apiserver passes on from etcd; one below it is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_larger_than_storage_takes_are_refused() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    let big = |name: &str, bytes: usize| {
        format!(
            r#"{{"apiVersion":"hostile.example.com/v1","kind":"Blob","metadata":{{"name":"{name}"}},"spec":{{"s":"{}"}}}}"#,
            "x".repeat(bytes)
        )
        .into_bytes()
    };
    let e = h
        .send("POST", BLOBS, &JSON, Some(big("huge", 2_900 * 1024)))
        .await
        .expect(500)
        .json();
    assert_eq!(
        e,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "etcdserver: request is too large", "code": 500})
    );
    h.send("POST", BLOBS, &JSON, Some(big("fits", 1_400 * 1024)))
        .await
        .expect(201);
    // Growing it past the limit by a patch is refused the same way.
    let grow = format!(r#"{{"spec":{{"t":"{}"}}}}"#, "y".repeat(200 * 1024));
    h.send(
        "PATCH",
        &format!("{BLOBS}/fits"),
        &[("content-type", "application/merge-patch+json")],
        Some(grow.into_bytes()),
    )
    .await
    .expect(500);
    h.get(&format!("{BLOBS}/huge")).await.expect(404);
    s.shutdown().await;
}

/// An object within the depth limit whose managed fields nest past it is stored without them,
/// as the API server retries a write storage refuses (not for apply).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn managed_fields_that_nest_too_deep_are_dropped() {
    let s = server().await;
    let h = Http::of(&s);
    blob_crd(&h).await;
    let r = h
        .send("POST", BLOBS, &JSON, Some(blob_text("a", MAX_DEPTH - 2)))
        .await
        .expect(201);
    let text = String::from_utf8_lossy(&r.body).into_owned();
    assert!(!text.contains("managedFields"), "{}", &text[..200]);
    s.shutdown().await;
}
