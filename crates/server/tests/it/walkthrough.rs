//! The CRD task page's walkthrough (`../shared/docs/custom-resource-definitions.md`) with the
//! real kubectl against `crdkit-server`, command by command, compared with the page's output.
//!
//! The server runs in this process (what `crdgen serve` runs) on a free loopback port;
//! kubectl (`/usr/bin/kubectl`, a dispatcher that asks `/version` and runs kubectl 1.32) uses a
//! kubeconfig the server wrote and a cache directory of its own, shared by the steps as a user's
//! would be. Ages, timestamps, uids and resourceVersions are normalised; table columns are
//! compared with their padding collapsed (the page's tables are hand-aligned).
//!
//! Where the page prints what an older kubectl or API server printed, the expected text here is
//! kubectl 1.32's against a current API server, and the comment says what the page shows:
//! `crontab "x" created` (old kubectl) is `crontab.stable.example.com/x created`, the List's
//! `selfLink: ""` is gone, the NotFound and Invalid errors have kubectl 1.32's layout, and the
//! CEL failure is the engine's message.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crdkit_server::{ApiServer, ServerConfig};

const KUBECTL: &str = "/usr/bin/kubectl";

/// The server on its own runtime, shut down when the test ends however it ends.
struct Server {
    runtime: tokio::runtime::Runtime,
    server: Option<ApiServer>,
    kubeconfig: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            self.runtime.block_on(server.shutdown());
        }
    }
}

fn start_server(dir: &Path) -> Server {
    let kubeconfig = dir.join("kubeconfig");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let config = ServerConfig {
        kubeconfig: Some(kubeconfig.clone()),
        ..ServerConfig::default()
    };
    let server = runtime
        .block_on(ApiServer::start_with(config))
        .expect("server starts");
    assert!(
        server.url().starts_with("http://127.0.0.1:"),
        "{}",
        server.url()
    );
    Server {
        runtime,
        server: Some(server),
        kubeconfig,
    }
}

struct Kubectl {
    kubeconfig: PathBuf,
    cache: PathBuf,
    dir: PathBuf,
}

/// What a command printed.
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Kubectl {
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(KUBECTL);
        c.args(args)
            .arg(format!("--cache-dir={}", self.cache.display()))
            .env("KUBECONFIG", &self.kubeconfig)
            .env("HOME", &self.dir)
            .current_dir(&self.dir);
        c
    }

    fn run(&self, args: &[&str]) -> Out {
        let o = self.command(args).output().expect("kubectl runs");
        Out {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    /// Runs a step that must succeed and print `want` (normalised) on stdout.
    #[track_caller]
    fn ok(&self, args: &[&str], want: &str) {
        let o = self.run(args);
        assert_eq!(
            o.code, 0,
            "kubectl {args:?} failed: {}{}",
            o.stdout, o.stderr
        );
        assert_same(args, &o.stdout, want);
    }

    /// Runs a step that must fail and print `want` (normalised) on stderr.
    #[track_caller]
    fn fails(&self, args: &[&str], want: &str) {
        let o = self.run(args);
        assert_ne!(o.code, 0, "kubectl {args:?} succeeded: {}", o.stdout);
        assert_same(args, &o.stderr, want);
    }
}

/// Ages (`6s`, `2m3s`), RFC 3339 timestamps, uids and resourceVersions replaced by placeholders;
/// padding between table columns collapsed; trailing blank lines dropped.
fn normalise(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            let words: Vec<String> = l
                .split(' ')
                .map(|w| {
                    let bare = w.trim_matches('"');
                    if is_age(bare) {
                        "<age>".to_owned()
                    } else if is_timestamp(bare) {
                        "<time>".to_owned()
                    } else {
                        w.to_owned()
                    }
                })
                .collect();
            let mut line = words.join(" ");
            for key in ["uid: ", "resourceVersion: "] {
                if let Some(i) = line.find(key)
                    && !line[i + key.len()..].is_empty()
                    && line[i + key.len()..] != *"\"\""
                {
                    line = format!("{}{key}<{}>", &line[..i], key.trim_end_matches(": "));
                }
            }
            // Table padding.
            if !line.trim_start().starts_with(['-', '{']) && !line.contains(": ") {
                line = line.split_whitespace().collect::<Vec<_>>().join(" ");
            }
            line.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .skip_while(String::is_empty)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

fn is_age(w: &str) -> bool {
    // kubectl's HumanDuration: 6s, 2m3s, 4h, 3d5h, 2y…
    let mut digits = false;
    let mut units = 0;
    for c in w.chars() {
        if c.is_ascii_digit() {
            digits = true;
        } else if "smhdy".contains(c) && digits {
            units += 1;
            digits = false;
        } else {
            return false;
        }
    }
    units > 0 && !digits
}

fn is_timestamp(w: &str) -> bool {
    w.len() == 20 && w.as_bytes()[4] == b'-' && w.as_bytes()[10] == b'T' && w.ends_with('Z')
}

#[track_caller]
fn assert_same(args: &[&str], got: &str, want: &str) {
    let (g, w) = (normalise(got), normalise(want));
    assert_eq!(
        g, w,
        "kubectl {args:?}\n--- got ---\n{got}\n--- want ---\n{want}"
    );
}

fn manifests(dir: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/walkthrough");
    for e in std::fs::read_dir(&src).expect("manifests") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
    }
}

#[test]
fn the_crd_task_page_with_kubectl() {
    if !Path::new(KUBECTL).exists() {
        assert!(
            std::env::var_os("CRDKIT_NO_KUBECTL").is_some(),
            "{KUBECTL} is missing: install kubectl 1.32, or set CRDKIT_NO_KUBECTL=1 to skip"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_owned();
    manifests(&dir);
    let server = start_server(&dir);
    let k = Kubectl {
        kubeconfig: server.kubeconfig.clone(),
        cache: dir.join("cache"),
        dir: dir.clone(),
    };

    // ## Create a CustomResourceDefinition
    k.ok(
        &["apply", "-f", "resourcedefinition.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    // "You can watch the Established condition of your CustomResourceDefinition to be true".
    k.ok(
        &[
            "wait",
            "--for",
            "condition=established",
            "--timeout=60s",
            "crd/crontabs.stable.example.com",
        ],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met",
    );

    // ## Create custom objects
    k.ok(
        &["apply", "-f", "my-crontab.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    let table = "NAME                 AGE\nmy-new-cron-object   6s\n";
    k.ok(&["get", "crontab"], table);
    // "you can use either the singular or plural forms defined in the CRD, as well as any short names".
    k.ok(&["get", "crontabs"], table);
    k.ok(&["get", "ct"], table);
    k.ok(&["get", "CronTab"], table);
    // The page's List ends with `selfLink: ""`, which kubectl 1.32 no longer prints.
    k.ok(
        &["get", "ct", "-o", "yaml"],
        r#"apiVersion: v1
items:
- apiVersion: stable.example.com/v1
  kind: CronTab
  metadata:
    annotations:
      kubectl.kubernetes.io/last-applied-configuration: |
        {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"annotations":{},"name":"my-new-cron-object","namespace":"default"},"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image"}}
    creationTimestamp: "2021-06-20T07:35:27Z"
    generation: 1
    name: my-new-cron-object
    namespace: default
    resourceVersion: "1326"
    uid: 9aab1d66-628e-41bb-a422-57b8b3b1f5a9
  spec:
    cronSpec: '* * * * */5'
    image: my-awesome-cron-image
kind: List
metadata:
  resourceVersion: ""
"#,
    );

    // ## Delete a CustomResourceDefinition
    k.ok(
        &["delete", "-f", "resourcedefinition.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    // The page shows an older kubectl's `Unable to list {"stable.example.com" "v1" "crontabs"}: …
    // (get crontabs.stable.example.com)`; kubectl 1.32 prints the same error this way.
    k.fails(
        &["get", "crontabs"],
        "Error from server (NotFound): Unable to list \"stable.example.com/v1, Resource=crontabs\": the server could not find the requested resource",
    );
    // "If you later recreate the same CustomResourceDefinition, it will start out empty."
    k.ok(
        &["apply", "-f", "resourcedefinition.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    let o = k.run(&["get", "crontabs"]);
    assert_eq!(
        (o.code, o.stderr.trim()),
        (0, "No resources found in default namespace.")
    );

    // ### Field pruning
    k.ok(
        &[
            "create",
            "--validate=false",
            "-f",
            "my-crontab-pruning.yaml",
            "-o",
            "yaml",
        ],
        r#"apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  creationTimestamp: "2017-05-31T12:56:35Z"
  generation: 1
  name: my-new-cron-object
  namespace: default
  resourceVersion: "285"
  uid: 9423255b-4600-11e7-af6a-28d2447dc82b
spec:
  cronSpec: '* * * * */5'
  image: my-awesome-cron-image
"#,
    );
    // "kubectl also checks for unknown fields and rejects those objects well before they would
    // be sent to the API server": with validation on, the server's strict field validation.
    k.ok(
        &["delete", "crontab", "my-new-cron-object"],
        "crontab.stable.example.com \"my-new-cron-object\" deleted",
    );
    k.fails(
        &["create", "-f", "my-crontab-pruning.yaml"],
        "Error from server (BadRequest): error when creating \"my-crontab-pruning.yaml\": strict decoding error: unknown field \"spec.someRandomField\"",
    );

    // ### Validation
    k.ok(
        &["delete", "-f", "resourcedefinition.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition-validation.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    // The page shows an old server's `[]: Invalid value: map[string]interface {}…validation
    // failure list:` layout; the two messages are the same.
    k.fails(
        &["apply", "-f", "my-crontab-invalid.yaml"],
        r#"The CronTab "my-new-cron-object" is invalid: 
* spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"#,
    );
    // The page shows an old kubectl's `crontab "my-new-cron-object" created`.
    k.ok(
        &["apply", "-f", "my-crontab-valid.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    let o = k.run(&["explain", "crontab.spec"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for field in [
        "cronSpec\t<string>",
        "image\t<string>",
        "replicas\t<integer>",
        "KIND:       CronTab",
    ] {
        assert!(
            o.stdout.contains(field),
            "explain lacks {field}: {}",
            o.stdout
        );
    }

    // ### Validation rules
    k.ok(
        &["delete", "-f", "resourcedefinition-validation.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition-cel.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    // One cause: kubectl prints it on the first line. The page shows an older server's value
    // rendering (`map[string]interface {}{…}`); the engine reports the rule's message.
    k.fails(
        &["apply", "-f", "my-crontab-cel.yaml"],
        "The CronTab \"my-new-cron-object\" is invalid: spec: Invalid value: replicas should be smaller than or equal to maxReplicas.",
    );

    // ### Defaulting
    k.ok(
        &["delete", "-f", "resourcedefinition-cel.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition-defaulting.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    k.ok(
        &["apply", "-f", "my-crontab-defaulting.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    // "leads to" the object with both fields defaulted.
    k.ok(
        &[
            "get",
            "crontab",
            "my-new-cron-object",
            "-o",
            "jsonpath={.spec}",
        ],
        r#"{"cronSpec":"5 0 * * *","image":"my-awesome-cron-image","replicas":1}"#,
    );

    // ### Additional printer columns
    k.ok(
        &["delete", "-f", "resourcedefinition-defaulting.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition-printer-columns.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    // "Create an instance using the my-crontab.yaml from the previous section" (replicas 5; the
    // page's sample row shows another object's values).
    k.ok(
        &["apply", "-f", "my-crontab-valid.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    let columns = "NAME                 SPEC          REPLICAS   AGE\nmy-new-cron-object   * * * * */5   5          7s\n";
    k.ok(&["get", "crontab", "my-new-cron-object"], columns);
    // Every column has priority 0: the wide view is the same.
    k.ok(
        &["get", "crontab", "my-new-cron-object", "-o", "wide"],
        columns,
    );
    k.ok(
        &["get", "crontabs", "-A"],
        "NAMESPACE   NAME                 SPEC          REPLICAS   AGE\ndefault     my-new-cron-object   * * * * */5   5          7s\n",
    );

    // ### Field selectors
    k.ok(
        &["apply", "-f", "shirt-resource-definition.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com created",
    );
    k.ok(
        &["apply", "-f", "shirt-resources.yaml"],
        "shirt.stable.example.com/example1 created\nshirt.stable.example.com/example2 created\nshirt.stable.example.com/example3 created",
    );
    k.ok(
        &["get", "shirts.stable.example.com"],
        "NAME       COLOR  SIZE\nexample1   blue   S\nexample2   blue   M\nexample3   green  M\n",
    );
    k.ok(
        &[
            "get",
            "shirts.stable.example.com",
            "--field-selector",
            "spec.color=blue",
        ],
        "NAME       COLOR  SIZE\nexample1   blue   S\nexample2   blue   M\n",
    );
    // The page prints `example2 blue M` here, a slip: the green, size M shirt is example3.
    k.ok(
        &[
            "get",
            "shirts.stable.example.com",
            "--field-selector",
            "spec.color=green,spec.size=M",
        ],
        "NAME       COLOR  SIZE\nexample3   green  M\n",
    );
    k.fails(
        &["get", "shirts", "--field-selector", "spec.material=cotton"],
        "Error from server (BadRequest): Unable to find \"stable.example.com/v1, Resource=shirts\" that match label selector \"\", field selector \"spec.material=cotton\": field label not supported: spec.material",
    );

    // ### Subresources
    k.ok(
        &["delete", "-f", "resourcedefinition-printer-columns.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition-subresources.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    k.ok(
        &["apply", "-f", "my-crontab-replicas.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    // The page shows an old kubectl's `crontabs "my-new-cron-object" scaled`.
    k.ok(
        &["scale", "--replicas=5", "crontabs/my-new-cron-object"],
        "crontab.stable.example.com/my-new-cron-object scaled",
    );
    k.ok(
        &[
            "get",
            "crontabs",
            "my-new-cron-object",
            "-o",
            "jsonpath={.spec.replicas}",
        ],
        "5",
    );
    // Status through /status: only status changes.
    k.ok(
        &[
            "patch",
            "crontab",
            "my-new-cron-object",
            "--subresource=status",
            "--type=merge",
            "-p",
            r#"{"status":{"replicas":5,"labelSelector":"app=cron"},"spec":{"replicas":1}}"#,
        ],
        "crontab.stable.example.com/my-new-cron-object patched",
    );
    k.ok(
        &[
            "get",
            "crontab",
            "my-new-cron-object",
            "-o",
            "jsonpath={.spec.replicas} {.status.replicas} {.status.labelSelector}",
        ],
        "5 5 app=cron",
    );

    // ### Categories
    k.ok(
        &["delete", "-f", "resourcedefinition-subresources.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition-categories.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    k.ok(
        &["apply", "-f", "my-crontab.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    // kubectl expands categories from its cached discovery before it refreshes it (a user's
    // first `get all` after a category appears on a kind it already knew fails the same way
    // against any API server); `api-resources` refreshes the cache, and checks discovery.
    // `all` spans the built-in workloads as on a cluster (Kubernetes 1.35's list).
    k.ok(
        &["api-resources", "--categories=all"],
        "NAME SHORTNAMES APIVERSION NAMESPACED KIND
pods po v1 true Pod
replicationcontrollers rc v1 true ReplicationController
services svc v1 true Service
daemonsets ds apps/v1 true DaemonSet
deployments deploy apps/v1 true Deployment
replicasets rs apps/v1 true ReplicaSet
statefulsets sts apps/v1 true StatefulSet
horizontalpodautoscalers hpa autoscaling/v2 true HorizontalPodAutoscaler
cronjobs cj batch/v1 true CronJob
jobs batch/v1 true Job
crontabs ct stable.example.com/v1 true CronTab
",
    );
    // With several kinds in `all`, kubectl prefixes each name with its kind, as on the page
    // (the page's cluster names it `crontabs/...`; kubectl 1.32 writes the kind and group), and
    // every cluster's `default/kubernetes` Service comes first (the page leaves it out).
    k.ok(
        &["get", "all"],
        "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE
service/kubernetes ClusterIP 10.96.0.1 <none> 443/TCP 3s

NAME AGE
crontab.stable.example.com/my-new-cron-object 3s
",
    );

    // ### Finalizers
    k.ok(
        &["delete", "crontab", "my-new-cron-object"],
        "crontab.stable.example.com \"my-new-cron-object\" deleted",
    );
    k.ok(
        &["apply", "-f", "my-crontab-finalizer.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    // "The first delete request on an object with finalizers sets a value for the
    // metadata.deletionTimestamp field but does not delete it."
    k.ok(
        &["delete", "crontab", "my-new-cron-object", "--wait=false"],
        "crontab.stable.example.com \"my-new-cron-object\" deleted",
    );
    let o = k.run(&[
        "get",
        "crontab",
        "my-new-cron-object",
        "-o",
        "jsonpath={.metadata.deletionTimestamp} {.metadata.finalizers[0]}",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let (ts, fin) = o.stdout.split_once(' ').expect("two values");
    assert!(is_timestamp(ts), "{}", o.stdout);
    assert_eq!(fin, "stable.example.com/finalizer");
    // A waiting delete returns once the finalizer is removed: the finalizer goes once its
    // DELETE has been answered (the dispatcher's /version first can take a while).
    let log = std::sync::Arc::clone(server.server.as_ref().expect("running").request_log());
    let mark = log.last_seq();
    let waiting = k
        .command(&["delete", "crontab", "my-new-cron-object", "--timeout=60s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl delete");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !log.since(mark).iter().any(|r| {
        r.method == "DELETE" && r.path.ends_with("/crontabs/my-new-cron-object") && r.status == 200
    }) {
        assert!(
            std::time::Instant::now() < deadline,
            "kubectl sent no DELETE"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    k.ok(
        &[
            "patch",
            "crontab",
            "my-new-cron-object",
            "--type=json",
            "-p",
            r#"[{"op":"remove","path":"/metadata/finalizers"}]"#,
        ],
        "crontab.stable.example.com/my-new-cron-object patched",
    );
    let done = waiting.wait_with_output().expect("delete ends");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let o = k.run(&["get", "crontabs"]);
    assert_eq!(o.stderr.trim(), "No resources found in default namespace.");

    // Deleting the CRD deletes its objects.
    k.ok(
        &["apply", "-f", "my-crontab.yaml"],
        "crontab.stable.example.com/my-new-cron-object created",
    );
    k.ok(
        &["delete", "-f", "resourcedefinition-categories.yaml"],
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted",
    );
    k.ok(
        &["apply", "-f", "resourcedefinition.yaml"],
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
    );
    let o = k.run(&["get", "crontabs"]);
    assert_eq!(o.stderr.trim(), "No resources found in default namespace.");
    drop(server);
}

#[test]
fn normalisation() {
    assert_eq!(
        normalise("NAME   AGE\nx      6s\n\n"),
        ["NAME AGE", "x <age>"]
    );
    assert_eq!(normalise("    uid: 9aab1d66"), ["    uid: <uid>"]);
    assert_eq!(
        normalise("  creationTimestamp: \"2021-06-20T07:35:27Z\""),
        ["  creationTimestamp: <time>"]
    );
    assert!(is_age("2m3s") && is_age("6s") && !is_age("s") && !is_age("5") && !is_age("S"));
}
