//! `crdgen openapi` on the examples' CRDs: the documents match their golden files
//! (`tests/golden/openapi/`, `BLESS=1 cargo test -p crdgen --test it openapi` rewrites them), and they are
//! what the local API server serves for the same CRD.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/openapi")
}

/// The documents `crdgen openapi` writes for one CRD: v3 per served group-version, and v2.
fn documents(crd: &crdkit::CustomResourceDefinition) -> Vec<(String, Value)> {
    let crds = [crd];
    let mut docs: Vec<(String, Value)> = crdkit::openapi::served_group_versions(&crds)
        .into_iter()
        .map(|(g, v)| {
            let doc = crdkit::openapi::try_group_version(&g, &v, &crds).expect("v3 builds");
            (format!("v3.{g}_{v}"), doc)
        })
        .collect();
    docs.push((
        "v2".to_owned(),
        crdkit::openapi::swagger(&crds).expect("v2 builds"),
    ));
    docs
}

#[test]
fn examples_match_golden_documents() {
    let bless = std::env::var_os("BLESS").is_some();
    let dir = golden_dir();
    let mut failures = Vec::new();
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        for (which, doc) in documents(&crd) {
            let path = dir.join(format!("{name}.{which}.json"));
            let got = format!("{}\n", serde_json::to_string_pretty(&doc).unwrap());
            if bless {
                std::fs::create_dir_all(&dir).expect("create golden dir");
                std::fs::write(&path, &got).expect("write golden file");
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == got => {}
                Ok(_) => failures.push(format!(
                    "{name}: {which} differs from {} (BLESS=1 rewrites it; review the diff)",
                    path.display()
                )),
                Err(e) => failures.push(format!(
                    "{name}: cannot read {}: {e} (run with BLESS=1)",
                    path.display()
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `crdgen openapi [--v2] FILE` as a program: exit code and the JSON documents it printed.
fn crdgen_openapi(name: &str, yaml: &str, v2: bool) -> (i32, Vec<Value>, String) {
    let dir = std::env::temp_dir().join(format!("crdgen-openapi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("crd.yaml"), yaml).unwrap();
    let mut args = vec!["openapi"];
    if v2 {
        args.push("--v2");
    }
    args.push("crd.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let docs = serde_json::Deserializer::from_str(&text)
        .into_iter::<Value>()
        .collect::<Result<Vec<_>, _>>()
        .expect("crdgen prints JSON documents");
    (
        out.status.code().unwrap_or(-1),
        docs,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn crdgen_writes_the_golden_documents() {
    let (name, crd) = crdkit_examples::all()
        .expect("example CRDs build")
        .into_iter()
        .find(|(n, _)| *n == "crontab-versions")
        .expect("the multi-version example");
    let (code, v3, err) = crdgen_openapi(name, &crd.to_yaml(), false);
    assert_eq!(code, 0, "{err}");
    let (code, v2, err) = crdgen_openapi(name, &crd.to_yaml(), true);
    assert_eq!(code, 0, "{err}");
    let want: Vec<Value> = documents(&crd).into_iter().map(|(_, d)| d).collect();
    let got: Vec<Value> = v3.into_iter().chain(v2).collect();
    assert_eq!(got.len(), 3, "two served versions and v2");
    assert!(got == want, "crdgen differs from the library's documents");
}

/// Needs the server: the `serve` feature (on by default).
#[cfg(feature = "serve")]
mod served {
    use super::*;
    use crate::http::{http, json};
    use std::net::SocketAddr;
    use std::time::Duration;

    /// What `/openapi/v3/apis/<g>/<v>` serves once the server has the CRD, for the example's
    /// served group-versions.
    fn served_documents(addr: SocketAddr, crd: &crdkit::CustomResourceDefinition) -> Vec<Value> {
        let (status, body) = http(
            addr,
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            Some(&crd.to_value()),
        );
        assert_eq!(status, 201, "{}", String::from_utf8_lossy(&body));
        let crds = [crd];
        let wanted: Vec<String> = crdkit::openapi::served_group_versions(&crds)
            .into_iter()
            .map(|(g, v)| format!("apis/{g}/{v}"))
            .collect();
        // The CRD is served once it is established; a bounded wait.
        for _ in 0..500 {
            let (_, index) = http(addr, "GET", "/openapi/v3", None);
            let index = json(&index);
            let urls: Option<Vec<String>> = wanted
                .iter()
                .map(|gv| {
                    index["paths"][gv]["serverRelativeURL"]
                        .as_str()
                        .map(str::to_owned)
                })
                .collect();
            if let Some(urls) = urls {
                return urls
                    .iter()
                    .map(|u| {
                        let (status, body) = http(addr, "GET", u, None);
                        assert_eq!(status, 200);
                        json(&body)
                    })
                    .collect();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the server never published {wanted:?}");
    }

    #[test]
    fn crdgen_openapi_is_what_the_local_api_server_serves() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
            let (code, printed, err) = crdgen_openapi(name, &crd.to_yaml(), false);
            assert_eq!(code, 0, "{name}: {err}");
            // The examples share group and kind: one server each.
            let server = rt
                .block_on(crdkit_server::ApiServer::start())
                .expect("server starts");
            let served = served_documents(server.addr(), &crd);
            rt.block_on(server.shutdown());
            assert_eq!(printed.len(), served.len(), "{name}");
            for (p, s) in printed.iter().zip(&served) {
                assert!(
                    p == s,
                    "{name}: crdgen and the server differ under {}",
                    p["paths"]
                        .as_object()
                        .and_then(|m| m.keys().next())
                        .map_or("", String::as_str)
                );
            }
        }
    }
}
