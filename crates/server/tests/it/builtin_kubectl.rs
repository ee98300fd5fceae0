//! Built-in kinds with the real kubectl of several minor versions: imperative creates (protobuf
//! bodies from 1.32 on), the defaults a real API server gives Deployments, Services and Secrets,
//! validation errors with Go's texts, a multi-kind bundle applied client-side (strategic merge
//! patch) and server-side, `get all`, the printer columns, `explain`, `auth can-i`, `events`,
//! namespace deletion, and kubectl 1.27/1.28 (which read `/openapi/v2`).
//!
//! Each test runs its own in-process server on 127.0.0.1, port 0; kubectl (the versioned
//! binaries the machine's dispatcher runs) uses the kubeconfig the server wrote and a cache
//! directory of its own. Every wait is bounded.

use std::path::PathBuf;
use std::process::Command;

use crdkit_server::{ApiServer, ServerConfig};
use serde_json::Value;

const KUBECTL_DIR: &str = "/usr/lib/google-cloud-sdk/bin";

/// A server on its own runtime, shut down when dropped.
struct Cluster {
    runtime: tokio::runtime::Runtime,
    server: Option<ApiServer>,
    dir: tempfile::TempDir,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(s) = self.server.take() {
            self.runtime.block_on(s.shutdown());
        }
    }
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::tempdir().expect("tempdir");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let config = ServerConfig {
            kubeconfig: Some(dir.path().join("kubeconfig")),
            ..ServerConfig::default()
        };
        let server = runtime
            .block_on(ApiServer::start_with(config))
            .expect("server starts");
        Cluster {
            runtime,
            server: Some(server),
            dir,
        }
    }

    fn server(&self) -> &ApiServer {
        self.server.as_ref().expect("running")
    }

    /// kubectl `minor` (1.`minor`) against this server.
    fn kubectl(&self, minor: u32) -> Kubectl {
        let cache = self.dir.path().join(format!("cache-{minor}"));
        Kubectl {
            bin: PathBuf::from(format!("{KUBECTL_DIR}/kubectl.1.{minor}")),
            kubeconfig: self.dir.path().join("kubeconfig"),
            cache,
            dir: self.dir.path().to_owned(),
        }
    }

    fn write(&self, name: &str, text: &str) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).expect("write manifest");
        p.display().to_string()
    }
}

struct Kubectl {
    bin: PathBuf,
    kubeconfig: PathBuf,
    cache: PathBuf,
    dir: PathBuf,
}

struct Out {
    ok: bool,
    stdout: String,
    stderr: String,
}

impl Kubectl {
    fn run(&self, args: &[&str]) -> Out {
        let o = Command::new(&self.bin)
            .args(args)
            .arg(format!("--cache-dir={}", self.cache.display()))
            .arg("--request-timeout=20s")
            .env("KUBECONFIG", &self.kubeconfig)
            .env("HOME", &self.dir)
            .current_dir(&self.dir)
            .output()
            .expect("kubectl runs");
        Out {
            ok: o.status.success(),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    #[track_caller]
    fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert!(
            o.ok,
            "{} {args:?} failed:\n{}{}",
            self.bin.display(),
            o.stdout,
            o.stderr
        );
        o.stdout
    }

    #[track_caller]
    fn fails(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert!(!o.ok, "{args:?} succeeded: {}", o.stdout);
        o.stderr
    }

    #[track_caller]
    fn json(&self, args: &[&str]) -> Value {
        let mut a = args.to_vec();
        a.extend(["-o", "json"]);
        serde_json::from_str(&self.ok(&a)).expect("kubectl prints JSON")
    }
}

/// Table columns with their padding collapsed, ages replaced.
fn columns(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            l.split_whitespace()
                .map(|w| {
                    let age = w.len() <= 6
                        && w.chars().next().is_some_and(|c| c.is_ascii_digit())
                        && w.ends_with(['s', 'm', 'h', 'd']);
                    if age { "<age>" } else { w }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

const BUNDLE: &str = r"apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: shop
  namespace: shop
---
apiVersion: v1
kind: Secret
metadata:
  name: shop-db
  namespace: shop
stringData:
  password: hunter2
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: shop-config
  namespace: shop
data:
  mode: prod
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
  namespace: shop
  labels: {app: shop}
spec:
  replicas: 3
  selector:
    matchLabels: {app: shop}
  template:
    metadata:
      labels: {app: shop}
    spec:
      serviceAccountName: shop
      containers:
      - name: shop
        image: nginx:1.27
        ports:
        - containerPort: 80
        env:
        - name: MODE
          valueFrom: {configMapKeyRef: {name: shop-config, key: mode}}
---
apiVersion: v1
kind: Service
metadata:
  name: shop
  namespace: shop
spec:
  selector: {app: shop}
  ports:
  - port: 80
    targetPort: 80
";

#[test]
fn imperative_creates_with_kubectl_1_32_and_1_33_in_protobuf() {
    let c = Cluster::start();
    for minor in [32, 33] {
        let k = c.kubectl(minor);
        let ns = format!("imp{minor}");
        k.ok(&["create", "namespace", &ns]);
        let n = ns.as_str();
        let created = k.ok(&[
            "create",
            "deployment",
            "web",
            "--image=nginx",
            "--replicas=2",
            "-n",
            n,
        ]);
        assert_eq!(created.trim(), "deployment.apps/web created");
        k.ok(&[
            "create",
            "secret",
            "generic",
            "db",
            "--from-literal=a=b",
            "-n",
            n,
        ]);
        k.ok(&["create", "configmap", "cfg", "--from-literal=x=y", "-n", n]);
        k.ok(&["create", "serviceaccount", "robot", "-n", n]);
        k.ok(&[
            "create",
            "service",
            "clusterip",
            "web",
            "--tcp=80:8080",
            "-n",
            n,
        ]);

        // The defaults of a real API server.
        let d = k.json(&["get", "deployment", "web", "-n", n]);
        assert_eq!(d["spec"]["replicas"], 2);
        assert_eq!(d["spec"]["revisionHistoryLimit"], 10);
        assert_eq!(d["spec"]["progressDeadlineSeconds"], 600);
        assert_eq!(d["spec"]["strategy"]["type"], "RollingUpdate");
        assert_eq!(d["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
        assert_eq!(d["metadata"]["generation"], 1);
        let pod = &d["spec"]["template"]["spec"];
        assert_eq!(pod["restartPolicy"], "Always");
        assert_eq!(pod["dnsPolicy"], "ClusterFirst");
        assert_eq!(pod["terminationGracePeriodSeconds"], 30);
        assert_eq!(pod["schedulerName"], "default-scheduler");
        assert_eq!(pod["containers"][0]["imagePullPolicy"], "Always");
        assert_eq!(
            pod["containers"][0]["terminationMessagePath"],
            "/dev/termination-log"
        );
        let s = k.json(&["get", "service", "web", "-n", n]);
        assert_eq!(s["spec"]["type"], "ClusterIP");
        assert_eq!(s["spec"]["sessionAffinity"], "None");
        assert_eq!(s["spec"]["ipFamilies"], serde_json::json!(["IPv4"]));
        assert_eq!(s["spec"]["ipFamilyPolicy"], "SingleStack");
        assert_eq!(s["spec"]["ports"][0]["protocol"], "TCP");
        assert_eq!(s["spec"]["ports"][0]["targetPort"], 8080);
        let ip = s["spec"]["clusterIP"].as_str().unwrap();
        assert!(ip.starts_with("10.9"), "{ip}");
        assert_eq!(s["spec"]["clusterIPs"][0], ip);
        let secret = k.json(&["get", "secret", "db", "-n", n]);
        assert_eq!(secret["type"], "Opaque");
        assert_eq!(secret["data"]["a"], "Yg==");

        // The columns kubectl shows on a cluster.
        let table = columns(&k.ok(&["get", "deploy,svc,secret,sa,cm", "-n", n]));
        assert_eq!(
            table[..2],
            [
                "NAME READY UP-TO-DATE AVAILABLE AGE",
                "deployment.apps/web 0/2 0 0 <age>"
            ]
        );
        assert!(
            table.contains(&"NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE".to_owned()),
            "{table:?}"
        );
        assert!(
            table.contains(&format!("service/web ClusterIP {ip} <none> 80/TCP <age>")),
            "{table:?}"
        );
        assert!(
            table.contains(&"secret/db Opaque 1 <age>".to_owned()),
            "{table:?}"
        );
        assert!(
            table.contains(&"serviceaccount/robot 0 <age>".to_owned()),
            "{table:?}"
        );
        assert!(
            table.contains(&"configmap/cfg 1 <age>".to_owned()),
            "{table:?}"
        );

        // Validation with Go's texts.
        let e = k.fails(&[
            "create",
            "deployment",
            "bad",
            "--image=nginx",
            "--replicas=-1",
            "-n",
            n,
        ]);
        assert_eq!(
            e.trim(),
            "error: failed to create deployment: Deployment.apps \"bad\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        // `/scale`.
        k.ok(&["scale", "deployment", "web", "--replicas=4", "-n", n]);
        let d = k.json(&["get", "deployment", "web", "-n", n]);
        assert_eq!(d["spec"]["replicas"], 4);
        assert_eq!(d["metadata"]["generation"], 2);
    }
    // kubectl 1.32+ sent its creates as protobuf.
    let protobuf = c
        .server()
        .request_log()
        .records()
        .iter()
        .filter(|r| r.method == "POST" && r.content_type == "application/vnd.kubernetes.protobuf")
        .count();
    assert!(protobuf >= 10, "{protobuf} protobuf creates");
}

#[test]
fn a_bundle_applied_client_side_and_server_side_then_the_namespace_deleted() {
    let c = Cluster::start();
    let k = c.kubectl(32);
    let bundle = c.write("bundle.yaml", BUNDLE);
    let out = k.ok(&["apply", "-f", &bundle]);
    assert!(out.contains("deployment.apps/shop created"), "{out}");
    assert!(out.contains("service/shop created"), "{out}");
    // A second apply with a changed image, a container added before and an env var gone:
    // kubectl sends a strategic merge patch with `$setElementOrder` and a deletion.
    let changed = BUNDLE
        .replace("image: nginx:1.27", "image: nginx:1.28")
        .replace(
            "      containers:\n",
            "      containers:\n      - name: proxy\n        image: envoy\n",
        )
        .replace(
            "        env:\n        - name: MODE\n          valueFrom: {configMapKeyRef: {name: shop-config, key: mode}}\n",
            "",
        );
    let changed = c.write("changed.yaml", &changed);
    let diff = k.run(&["diff", "-f", &changed]);
    assert!(
        diff.stdout.contains("nginx:1.28"),
        "{}{}",
        diff.stdout,
        diff.stderr
    );
    let out = k.ok(&["apply", "-f", &changed]);
    assert!(out.contains("deployment.apps/shop configured"), "{out}");
    let d = k.json(&["get", "deploy", "shop", "-n", "shop"]);
    let containers = &d["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers[0]["name"], "proxy");
    assert_eq!(containers[1]["name"], "shop");
    assert_eq!(containers[1]["image"], "nginx:1.28");
    assert!(containers[1].get("env").is_none(), "{containers}");
    assert_eq!(d["metadata"]["generation"], 2);
    // Server-side apply of the first bundle: kubectl moves the client-side apply's fields to
    // its manager first (csaupgrade), so what the bundle no longer names goes.
    let out = k.ok(&["apply", "--server-side", "--force-conflicts", "-f", &bundle]);
    assert!(
        out.contains("deployment.apps/shop serverside-applied"),
        "{out}"
    );
    let d = k.json(&["get", "deploy", "shop", "-n", "shop"]);
    let containers = &d["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers.as_array().map(Vec::len), Some(1), "{containers}");
    assert_eq!(containers[0]["image"], "nginx:1.27");
    assert_eq!(containers[0]["env"][0]["name"], "MODE");

    let all = columns(&k.ok(&["get", "all", "-n", "shop"]));
    assert!(
        all.contains(&"deployment.apps/shop 0/3 0 0 <age>".to_owned()),
        "{all:?}"
    );
    assert!(
        all.iter().any(|l| l.starts_with("service/shop ClusterIP ")),
        "{all:?}"
    );

    let explain = k.ok(&["explain", "deployment.spec.replicas"]);
    assert!(explain.contains("FIELD: replicas <integer>"), "{explain}");
    assert!(explain.contains("Defaults to 1"), "{explain}");
    assert_eq!(k.ok(&["auth", "can-i", "create", "pods"]).trim(), "yes");
    assert!(k.ok(&["auth", "whoami"]).contains("admin"));

    // core/v1 Events, as client-go's recorders post them, shown by `kubectl events` and
    // `kubectl describe` (which selects them by the involved object's fields).
    let uid = d["metadata"]["uid"].as_str().unwrap().to_owned();
    let event = c.write(
        "event.yaml",
        &format!(
            "apiVersion: v1\nkind: Event\nmetadata: {{name: shop.1, namespace: shop}}\n\
             involvedObject: {{kind: Deployment, name: shop, namespace: shop, apiVersion: apps/v1, uid: {uid}}}\n\
             reason: ScalingReplicaSet\nmessage: Scaled up replica set shop-1 to 3\ntype: Normal\n\
             source: {{component: deployment-controller}}\ncount: 1\n\
             firstTimestamp: \"2025-01-01T00:00:00Z\"\nlastTimestamp: \"2025-01-01T00:00:00Z\"\n"
        ),
    );
    k.ok(&["create", "-f", &event]);
    let events = k.ok(&["events", "-n", "shop"]);
    assert!(
        events.contains("Scaled up replica set shop-1 to 3"),
        "{events}"
    );
    let describe = k.ok(&["describe", "deployment", "shop", "-n", "shop"]);
    assert!(
        describe.contains("ScalingReplicaSet") && describe.contains("deployment-controller"),
        "{describe}"
    );

    // ConfigMap `immutable`.
    let immutable = c.write(
        "frozen.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: shop}\nimmutable: true\ndata: {a: '1'}\n",
    );
    k.ok(&["create", "-f", &immutable]);
    let e = k.fails(&[
        "patch",
        "configmap",
        "frozen",
        "-n",
        "shop",
        "-p",
        r#"{"data":{"a":"2"}}"#,
    ]);
    assert!(
        e.contains("data: Forbidden: field is immutable when `immutable` is set"),
        "{e}"
    );

    // Namespace deletion removes every kind inside.
    k.ok(&[
        "delete",
        "namespace",
        "shop",
        "--wait=true",
        "--timeout=30s",
    ]);
    let gone = k.fails(&["get", "namespace", "shop"]);
    assert!(gone.contains("NotFound"), "{gone}");
    let left = c.runtime.block_on(async {
        let s = c.server().storage();
        let mut n = 0;
        for prefix in [
            "/registry/deployments/shop/",
            "/registry/services/specs/shop/",
            "/registry/secrets/shop/",
            "/registry/configmaps/shop/",
            "/registry/serviceaccounts/shop/",
            "/registry/events/shop/",
        ] {
            n += s
                .list(prefix, &Default::default())
                .await
                .expect("list")
                .items
                .len();
        }
        n
    });
    assert_eq!(left, 0);
}

#[test]
fn kubectl_1_27_and_1_28_read_openapi_v2() {
    let c = Cluster::start();
    let bundle = c.write("bundle.yaml", BUNDLE);
    for minor in [27, 28] {
        let k = c.kubectl(minor);
        // 1.27 creates; 1.28 applies over 1.27's server-side apply.
        let out = k.ok(&["apply", "-f", &bundle]);
        assert!(out.contains("deployment.apps/shop "), "{out}");
        if minor == 27 {
            assert!(out.contains("deployment.apps/shop created"), "{out}");
        }
        let explain = k.ok(&["explain", "deployment.spec.replicas"]);
        assert!(explain.contains("replicas"), "{explain}");
        assert!(explain.contains("Defaults to 1"), "{explain}");
        let diff = k.run(&["diff", "-f", &bundle]);
        assert!(diff.stderr.is_empty(), "{}", diff.stderr);
        let out = k.ok(&["apply", "--server-side", "--force-conflicts", "-f", &bundle]);
        assert!(out.contains("serverside-applied"), "{out}");
    }
    let v2 = c
        .server()
        .request_log()
        .records()
        .iter()
        .filter(|r| r.path == "/openapi/v2" && r.status == 200)
        .count();
    assert!(v2 > 0, "kubectl 1.27/1.28 read /openapi/v2");
}
