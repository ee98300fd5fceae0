//! `migrate::StorageMigration` against a fake API server behind kube's tower-test mock: objects
//! remember the version they are stored at, a no-op apply stores them at the storage version
//! (and writes nothing when they are there already, as etcd3's `GuaranteedUpdate` does), lists
//! are paged with continue tokens, and faults are injected where a test asks.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use crdkit_webhook::migrate::{FIELD_MANAGER, MigrationError, StorageMigration};
use http::{Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use kube::client::Body;
use serde_json::{Value, json};

const CRD: &str = "crontabs.example.com";

#[derive(Clone, Debug)]
struct Object {
    uid: String,
    rv: u64,
    stored_at: String,
}

#[derive(Default)]
struct Fake {
    storage: String,
    stored_versions: Vec<String>,
    crd_rv: u64,
    /// By `namespace/name`.
    objects: BTreeMap<String, Object>,
    rv: u64,
    /// Etcd writes of objects, by `namespace/name`.
    writes: Vec<String>,
    /// `METHOD path?query` of every request.
    log: Vec<String>,
    /// Faults: answer 500 to the next rewrite of these objects.
    fail_once: BTreeSet<String>,
    /// Faults: continue tokens that have expired (410), once each.
    expired: BTreeSet<String>,
    /// Faults: modify these objects right after they are listed (the rewrite then conflicts).
    touch_after_list: BTreeSet<String>,
    /// Faults: delete these objects right after they are listed.
    delete_after_list: BTreeSet<String>,
    /// Faults: after this many lists, the storage version becomes `v2`.
    switch_storage_after_lists: Option<usize>,
    /// Faults: every continue token has expired.
    expire_all: bool,
    lists: usize,
}

fn respond(status: StatusCode, body: &Value) -> Response<Body> {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap()
}

fn status(code: StatusCode, reason: &str) -> Response<Body> {
    respond(
        code,
        &json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": reason,
                "reason": reason, "code": code.as_u16()}),
    )
}

fn rv_of(patch: &Value) -> Option<u64> {
    patch["metadata"]["resourceVersion"].as_str()?.parse().ok()
}

fn query(q: &str, key: &str) -> Option<String> {
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_owned())
}

impl Fake {
    fn new(objects: &[(&str, &str)]) -> Fake {
        let mut f = Fake {
            storage: "v1".into(),
            stored_versions: vec!["v1beta1".into(), "v1".into()],
            crd_rv: 1,
            rv: 100,
            ..Fake::default()
        };
        for (key, at) in objects {
            f.rv += 1;
            let obj = Object {
                uid: format!("uid-{key}"),
                rv: f.rv,
                stored_at: (*at).into(),
            };
            f.objects.insert((*key).into(), obj);
        }
        f
    }

    fn crd(&self) -> Value {
        let version =
            |name: &str| json!({"name": name, "served": true, "storage": name == self.storage});
        json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": CRD, "resourceVersion": self.crd_rv.to_string()},
            "spec": {"group": "example.com", "scope": "Namespaced",
                     "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"},
                     "versions": [version("v1beta1"), version("v1"), version("v2")]},
            "status": {"storedVersions": self.stored_versions}
        })
    }

    fn item(&self, key: &str, o: &Object) -> Value {
        let (ns, name) = key.split_once('/').unwrap();
        json!({"apiVersion": format!("example.com/{}", self.storage), "kind": "CronTab",
               "metadata": {"name": name, "namespace": ns, "uid": o.uid, "resourceVersion": o.rv.to_string()}})
    }

    fn handle(&mut self, method: &Method, path: &str, q: &str, body: &[u8]) -> Response<Body> {
        self.log.push(format!("{method} {path}?{q}"));
        let crd_path = format!("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{CRD}");
        let list_path = format!("/apis/example.com/{}/crontabs", self.storage);
        if *method == Method::GET && path == crd_path {
            return respond(StatusCode::OK, &self.crd());
        }
        if *method == Method::PATCH && path == format!("{crd_path}/status") {
            let patch: Value = serde_json::from_slice(body).unwrap();
            if rv_of(&patch) != Some(self.crd_rv) {
                return status(StatusCode::CONFLICT, "Conflict");
            }
            self.stored_versions =
                serde_json::from_value(patch["status"]["storedVersions"].clone()).unwrap();
            self.crd_rv += 1;
            return respond(StatusCode::OK, &self.crd());
        }
        if *method == Method::GET && path == list_path {
            return self.list(q);
        }
        let prefix = format!("/apis/example.com/{}/namespaces/", self.storage);
        if *method == Method::PATCH
            && let Some(rest) = path.strip_prefix(&prefix)
        {
            let (ns, name) = rest.split_once("/crontabs/").unwrap();
            return self.apply(&format!("{ns}/{name}"), q, body);
        }
        status(StatusCode::NOT_FOUND, "NotFound")
    }

    fn list(&mut self, q: &str) -> Response<Body> {
        let token = query(q, "continue");
        if let Some(t) = &token
            && (self.expire_all || self.expired.remove(t))
        {
            return status(StatusCode::GONE, "Expired");
        }
        let limit: usize = query(q, "limit").unwrap().parse().unwrap();
        let start: usize = token.map_or(0, |t| t.trim_start_matches('o').parse().unwrap());
        let keys: Vec<String> = self.objects.keys().cloned().collect();
        let page: Vec<String> = keys.iter().skip(start).take(limit).cloned().collect();
        let items: Vec<Value> = page
            .iter()
            .map(|k| self.item(k, &self.objects[k]))
            .collect();
        let more = start + limit < keys.len();
        for k in &page {
            if self.touch_after_list.remove(k) {
                self.rv += 1;
                let o = self.objects.get_mut(k).unwrap();
                o.rv = self.rv;
                o.stored_at = self.storage.clone();
            }
            if self.delete_after_list.remove(k) {
                self.objects.remove(k);
            }
        }
        self.lists += 1;
        if self.switch_storage_after_lists == Some(self.lists) {
            self.storage = "v2".into();
        }
        let cont = if more {
            format!("o{}", start + limit)
        } else {
            String::new()
        };
        respond(
            StatusCode::OK,
            &json!({"apiVersion": "example.com/v1", "kind": "CronTabList",
                    "metadata": {"continue": cont, "resourceVersion": self.rv.to_string()}, "items": items}),
        )
    }

    fn apply(&mut self, key: &str, q: &str, body: &[u8]) -> Response<Body> {
        assert_eq!(query(q, "fieldManager").as_deref(), Some(FIELD_MANAGER));
        let patch: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(patch["apiVersion"], format!("example.com/{}", self.storage));
        assert_eq!(patch["kind"], "CronTab");
        if self.fail_once.remove(key) {
            return status(StatusCode::INTERNAL_SERVER_ERROR, "InternalError");
        }
        let Some(o) = self.objects.get(key).cloned() else {
            return status(StatusCode::NOT_FOUND, "NotFound");
        };
        if patch["metadata"]["uid"] != o.uid || rv_of(&patch) != Some(o.rv) {
            return status(StatusCode::CONFLICT, "Conflict");
        }
        if o.stored_at != self.storage {
            self.rv += 1;
            let o = self.objects.get_mut(key).unwrap();
            o.stored_at = self.storage.clone();
            o.rv = self.rv;
            self.writes.push(key.to_owned());
        }
        let o = self.objects[key].clone();
        respond(StatusCode::OK, &self.item(key, &o))
    }
}

/// A kube client whose requests the fake answers.
fn kube_client(fake: Arc<Mutex<Fake>>) -> (kube::Client, tokio::task::JoinHandle<()>) {
    let (service, mut handle) = tower_test::mock::pair::<Request<Body>, Response<Body>>();
    let server = tokio::spawn(async move {
        while let Some((req, send)) = handle.next_request().await {
            let (parts, body) = req.into_parts();
            let body = body.collect().await.unwrap().to_bytes();
            let resp = fake.lock().unwrap().handle(
                &parts.method,
                parts.uri.path(),
                parts.uri.query().unwrap_or(""),
                &body,
            );
            send.send_response(resp);
        }
    });
    (kube::Client::new(service, "default"), server)
}

fn stored_at(fake: &Mutex<Fake>) -> Vec<(String, String)> {
    let f = fake.lock().unwrap();
    f.objects
        .iter()
        .map(|(k, o)| (k.clone(), o.stored_at.clone()))
        .collect()
}

fn all_at(keys: &[&str], v: &str) -> Vec<(String, String)> {
    keys.iter()
        .map(|k| ((*k).to_owned(), v.to_owned()))
        .collect()
}

const KEYS: [&str; 5] = ["default/a", "default/b", "default/c", "other/d", "other/e"];

fn five() -> Arc<Mutex<Fake>> {
    Arc::new(Mutex::new(Fake::new(&[
        (KEYS[0], "v1beta1"),
        (KEYS[1], "v1"),
        (KEYS[2], "v1beta1"),
        (KEYS[3], "v1beta1"),
        (KEYS[4], "v1"),
    ])))
}

#[tokio::test]
async fn every_page_is_rewritten_then_stored_versions_trimmed() {
    let fake = five();
    let (client, _server) = kube_client(fake.clone());
    let report = StorageMigration::new(client, CRD)
        .page_size(2)
        .run()
        .await
        .unwrap();
    assert_eq!(report.storage_version, "v1");
    assert_eq!(report.stored_versions_before, ["v1beta1", "v1"]);
    assert_eq!(report.stored_versions_after, ["v1"]);
    assert_eq!((report.rewritten, report.skipped), (5, 0));
    assert_eq!(stored_at(&fake), all_at(&KEYS, "v1"));
    let f = fake.lock().unwrap();
    // Only the objects stored at v1beta1 were written to storage.
    assert_eq!(f.writes, ["default/a", "default/c", "other/d"]);
    assert_eq!(f.stored_versions, ["v1"]);
    let lists: Vec<&String> = f
        .log
        .iter()
        .filter(|l| l.starts_with("GET /apis/example.com"))
        .collect();
    assert_eq!(
        lists,
        [
            "GET /apis/example.com/v1/crontabs?&limit=2",
            "GET /apis/example.com/v1/crontabs?&limit=2&continue=o2",
            "GET /apis/example.com/v1/crontabs?&limit=2&continue=o4"
        ]
    );
}

#[tokio::test]
async fn running_twice_does_nothing_the_second_time() {
    let fake = five();
    let (client, _server) = kube_client(fake.clone());
    let mut m = StorageMigration::new(client, CRD);
    m.run().await.unwrap();
    let requests = fake.lock().unwrap().log.len();
    let again = m.run().await.unwrap();
    assert_eq!(again.stored_versions_before, ["v1"]);
    assert_eq!(again.stored_versions_after, ["v1"]);
    assert_eq!((again.rewritten, again.skipped), (0, 0));
    let f = fake.lock().unwrap();
    // Read the CRD twice (before and to check storedVersions), nothing else.
    assert_eq!(f.log[requests..].len(), 2, "{:?}", &f.log[requests..]);
    assert!(
        f.log[requests..]
            .iter()
            .all(|l| l.starts_with("GET /apis/apiextensions.k8s.io"))
    );
}

#[tokio::test]
async fn objects_changed_or_deleted_since_listed_are_skipped() {
    let fake = five();
    {
        let mut f = fake.lock().unwrap();
        f.touch_after_list.insert("default/a".into());
        f.delete_after_list.insert("other/d".into());
    }
    let (client, _server) = kube_client(fake.clone());
    let report = StorageMigration::new(client, CRD).run().await.unwrap();
    assert_eq!((report.rewritten, report.skipped), (3, 2));
    let keys = ["default/a", "default/b", "default/c", "other/e"];
    assert_eq!(stored_at(&fake), all_at(&keys, "v1"));
    assert_eq!(fake.lock().unwrap().stored_versions, ["v1"]);
}

#[tokio::test]
async fn an_error_stops_at_its_page_and_the_next_run_resumes_there() {
    let fake = five();
    fake.lock().unwrap().fail_once.insert("default/c".into());
    let (client, _server) = kube_client(fake.clone());
    let mut m = StorageMigration::new(client, CRD).page_size(2);
    let err = m.run().await.unwrap_err();
    assert!(
        err.to_string().starts_with("rewriting CronTab default/c: "),
        "{err}"
    );
    assert!(matches!(err, MigrationError::Kube { .. }));
    assert_eq!(m.progress().continue_token.as_deref(), Some("o2"));
    assert_eq!(m.progress().rewritten, 2);
    // Nothing trimmed yet: default/c and other/d are still at v1beta1.
    assert_eq!(fake.lock().unwrap().stored_versions, ["v1beta1", "v1"]);
    let before = fake.lock().unwrap().log.len();
    let report = m.run().await.unwrap();
    assert_eq!((report.rewritten, report.skipped), (5, 0));
    {
        let f = fake.lock().unwrap();
        let first_list = f.log[before..]
            .iter()
            .find(|l| l.contains("/crontabs?"))
            .unwrap();
        assert_eq!(
            first_list,
            "GET /apis/example.com/v1/crontabs?&limit=2&continue=o2"
        );
        assert_eq!(f.stored_versions, ["v1"]);
    }
    assert_eq!(stored_at(&fake), all_at(&KEYS, "v1"));
    // Resuming in another process, from a saved token.
    let fake = five();
    let (client, _server) = kube_client(fake.clone());
    StorageMigration::new(client, CRD)
        .page_size(2)
        .resume_from("o3")
        .run()
        .await
        .unwrap();
    let f = fake.lock().unwrap();
    assert_eq!(
        f.writes,
        ["other/d"],
        "only the objects from the token on were rewritten"
    );
}

#[tokio::test]
async fn an_expired_continue_token_restarts_the_listing() {
    let fake = five();
    fake.lock().unwrap().expired.insert("o2".into());
    let (client, _server) = kube_client(fake.clone());
    let report = StorageMigration::new(client, CRD)
        .page_size(2)
        .resume_from("o2")
        .run()
        .await
        .unwrap();
    assert_eq!(report.stored_versions_after, ["v1"]);
    assert_eq!(stored_at(&fake), all_at(&KEYS, "v1"));
    let f = fake.lock().unwrap();
    let lists: Vec<&String> = f.log.iter().filter(|l| l.contains("/crontabs?")).collect();
    assert_eq!(
        lists[0],
        "GET /apis/example.com/v1/crontabs?&limit=2&continue=o2"
    );
    assert_eq!(lists[1], "GET /apis/example.com/v1/crontabs?&limit=2");
}

#[tokio::test]
async fn tokens_that_keep_expiring_end_in_an_error_not_a_loop() {
    let fake = five();
    let (client, _server) = kube_client(fake.clone());
    let mut m = StorageMigration::new(client, CRD).page_size(2);
    // Every token handed out expires before it is used.
    {
        let mut f = fake.lock().unwrap();
        f.expired.extend((0..10).map(|i| format!("o{i}")));
        f.expire_all = true;
    }
    let err = m.run().await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("listing example.com/v1 crontabs: "),
        "{err}"
    );
    assert_eq!(fake.lock().unwrap().stored_versions, ["v1beta1", "v1"]);
}

#[tokio::test]
async fn a_storage_version_change_midway_keeps_stored_versions() {
    let fake = five();
    fake.lock().unwrap().switch_storage_after_lists = Some(1);
    let (client, _server) = kube_client(fake.clone());
    let mut m = StorageMigration::new(client, CRD);
    let err = m.run().await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "the storage version of crontabs.example.com changed from v1 to v2 during the migration; run it again"
    );
    assert_eq!(fake.lock().unwrap().stored_versions, ["v1beta1", "v1"]);
    assert_eq!(m.progress().continue_token, None);
}

#[tokio::test]
async fn a_crd_without_storage_version_is_an_error() {
    let fake = five();
    fake.lock().unwrap().storage = "none".into();
    let (client, _server) = kube_client(fake.clone());
    let err = StorageMigration::new(client, CRD).run().await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "CustomResourceDefinition crontabs.example.com has no storage version"
    );
}
