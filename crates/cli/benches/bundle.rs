//! `crdgen validate` against a large bundle of CRDs: the Gateway API's experimental CRDs
//! (`tests/data/gateway-api/crds`: 13 CRDs, 1.4 MB, 362 CEL rules) and one object, then 1,000.
//!
//! `cargo bench -p crdkit-cli --bench bundle`. The report lines at the end split the time of a
//! run: reading the CRDs (YAML → JSON → CRD model), the run with one object (reading plus what
//! that object needs compiled), and the run with 1,000 objects.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/gateway-api")
}

const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: NAME
spec:
  parentRefs:
  - name: example-gateway
  hostnames:
  - \"example.com\"
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /login
      headers:
      - name: version
        value: \"2\"
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        add:
        - name: my-header
          value: foo
    backendRefs:
    - name: foo-svc
      port: 8080
      weight: 90
    - name: bar-svc
      port: 8080
      weight: 10
";

fn routes(n: usize) -> String {
    (0..n)
        .map(|i| ROUTE.replace("NAME", &format!("route-{i}")))
        .collect::<Vec<_>>()
        .join("---\n")
}

/// Runs `crdgen validate --crd CRDS objects`; panics unless every object is valid.
fn run(crds: &Path, objects: &Path) {
    let args: Vec<OsString> = vec![
        "validate".into(),
        "--crd".into(),
        crds.into(),
        objects.into(),
    ];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crdkit_cli::run(args, &[], &mut out, &mut err);
    assert_eq!(
        code,
        0,
        "{}{}",
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&err)
    );
}

/// Reads and decodes every CRD of the directory, as a run does before the first object.
fn read_crds(crds: &Path) -> usize {
    let mut files: Vec<PathBuf> = std::fs::read_dir(crds)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut n = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for doc in crdkit_cli::parse_manifests(&text, &f).unwrap() {
            if doc.value["kind"] == "CustomResourceDefinition" {
                crdkit_schema::crd::CustomResourceDefinition::from_value(doc.value).unwrap();
                n += 1;
            }
        }
    }
    n
}

/// The fastest of `rounds` runs of `f`.
fn fastest(rounds: usize, f: &mut dyn FnMut()) -> Duration {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn benches(c: &mut Criterion) {
    let crds = data().join("crds");
    let dir = std::env::temp_dir().join(format!("crdkit-bundle-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("one.yaml");
    let many = dir.join("many.yaml");
    std::fs::write(&one, routes(1)).unwrap();
    std::fs::write(&many, routes(1000)).unwrap();
    assert_eq!(read_crds(&crds), 13);

    let mut g = c.benchmark_group("gateway-api bundle");
    g.bench_function("read the 13 CRDs", |b| b.iter(|| read_crds(&crds)));
    g.bench_function("validate 1 object", |b| b.iter(|| run(&crds, &one)));
    g.bench_function("validate 1,000 objects", |b| b.iter(|| run(&crds, &many)));
    g.finish();

    let read = fastest(10, &mut || {
        std::hint::black_box(read_crds(&crds));
    });
    let one_run = fastest(10, &mut || run(&crds, &one));
    let many_run = fastest(5, &mut || run(&crds, &many));
    let per_object = (many_run.saturating_sub(one_run)) / 999;
    println!(
        "gateway-api bundle: reading the CRDs {read:?}; 1 object {one_run:?}; 1,000 objects \
         {many_run:?} ({per_object:?} per further object; reading the CRDs is {:.0}% of it)",
        100.0 * read.as_secs_f64() / many_run.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = group;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3)).sample_size(10);
    targets = benches
}
criterion_main!(group);
