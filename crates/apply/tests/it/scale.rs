//! apimachinery `pkg/util/managedfields/scalehandler_test.go`, transcribed in
//! `tests/data/apimachinery_scalehandler.yaml`: managed fields mapped to a `Scale` and back.

use serde_json::Value;

use crdkit_apply::fieldpath::Path;
use crdkit_apply::manager::ManagedFieldsEntry;
use crdkit_apply::manager::scale::{ResourcePathMappings, ScaleHandler};

use super::common::{path, read_yaml_file};

fn entries(v: &Value) -> Vec<ManagedFieldsEntry> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|e| ManagedFieldsEntry::from_value(e).expect("entry"))
                .collect()
        })
        .unwrap_or_default()
}

fn values(e: &[ManagedFieldsEntry]) -> Vec<Value> {
    e.iter().map(ManagedFieldsEntry::to_value).collect()
}

fn mappings(c: &Value) -> ResourcePathMappings {
    match c.get("mappings") {
        None => [(
            "apps/v1".to_owned(),
            Some(path(&["f:spec".to_owned(), "f:replicas".to_owned()])),
        )]
        .into_iter()
        .collect(),
        Some(m) => m
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let p: Option<Path> = v.as_array().map(|a| {
                    path(
                        &a.iter()
                            .map(|s| s.as_str().unwrap().to_owned())
                            .collect::<Vec<_>>(),
                    )
                });
                (k.clone(), p)
            })
            .collect(),
    }
}

fn handler(c: &Value, parent: &str) -> ScaleHandler {
    let gv = c
        .get("groupVersion")
        .and_then(Value::as_str)
        .unwrap_or("apps/v1");
    ScaleHandler::new(entries(&c[parent]), gv, mappings(c))
}

#[test]
fn scale_handler() {
    let d = read_yaml_file("apimachinery_scalehandler.yaml");
    let mut n = 0;
    for c in d["TestTransformManagedFieldsToSubresource"]
        .as_array()
        .unwrap()
    {
        let got = handler(c, "input").to_subresource().unwrap();
        assert_eq!(
            values(&got),
            values(&entries(&c["expected"])),
            "{}",
            c["desc"]
        );
        n += 1;
    }
    for key in [
        "TestTransformingManagedFieldsToParent",
        "TestTransformingManagedFieldsToParentMultiVersion",
    ] {
        for c in d[key].as_array().unwrap() {
            let got = handler(c, "parent")
                .to_parent(&entries(&c["subresource"]))
                .unwrap();
            assert_eq!(
                values(&got),
                values(&entries(&c["expected"])),
                "{}",
                c["desc"]
            );
            n += 1;
        }
    }
    assert_eq!(n, 17);
}
