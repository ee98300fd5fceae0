//! Each module's `crds()` against the CRD it was imported from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::compare::{diff, normalize};
use super::current::{PROJECTS, data_dir};

/// Every input CRD of the projects compiled in, by name, with its file.
fn inputs() -> BTreeMap<String, (PathBuf, Value)> {
    let mut out = BTreeMap::new();
    for (_, dir, _) in PROJECTS.iter().filter(|p| p.2) {
        for file in yaml_files(&data_dir().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for doc in crdkit_cli::parse_manifests(&text, &file).unwrap() {
                if doc.value["kind"] == "CustomResourceDefinition" {
                    let name = doc.value["metadata"]["name"].as_str().unwrap().to_owned();
                    out.insert(name, (file.clone(), doc.value));
                }
            }
        }
    }
    out
}

pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_module_derives_its_input_crd() {
    let mut inputs = inputs();
    let mut failures = Vec::new();
    for (module, crds) in crdkit_import_tests::ALL {
        let crds = crds().unwrap_or_else(|e| panic!("{module}: crds() failed: {e}"));
        for crd in crds {
            let name = crd.metadata.name.clone().unwrap_or_default();
            let Some((file, input)) = inputs.remove(&name) else {
                failures.push(format!("{module}: {name} is no input CRD"));
                continue;
            };
            let differences = diff(&normalize(&input), &normalize(&crd.to_value()), 20);
            if !differences.is_empty() {
                failures.push(format!(
                    "{module} ({}):\n  {}",
                    file.display(),
                    differences.join("\n  ")
                ));
            }
        }
    }
    for name in inputs.keys() {
        failures.push(format!("{name}: imported by no module"));
    }
    assert!(
        failures.is_empty(),
        "{} CRDs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
