//! The CEL cases of Kubernetes' integration and e2e tests, run through the `crdgen` program as
//! a user would: each file of `tests/cel-integration/` holds cases (a CRD and a sequence of
//! steps: `check` the CRD, `create`, `update`, `updateStatus` or server-side `apply` an object);
//! each step runs `crdgen check` or `crdgen validate` and compares what the Go test asserts:
//! accepted or not, and the substrings it looks for in the error (the text output prints
//! errors as the API server's status message does). The stored object of a later update is
//! the object `crdgen validate --output json` printed for the last accepted write.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

// Shared with the runtime's ratcheting tests.
#[path = "../../../apiextensions/tests/it/patch.rs"]
mod patch;
use patch::{merge_patch, without_nulls};

/// What the program said about one step.
struct Run {
    code: i32,
    stdout: String,
}

fn crdgen(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("crdgen runs");
    let code = out.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if code == 2 {
        // A usage or input error is no answer: the step fails with what the program said.
        return Run {
            code,
            stdout: format!(
                "usage or input error: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        };
    }
    Run { code, stdout }
}

fn write(dir: &Path, file: &str, v: &Value) {
    std::fs::write(dir.join(file), serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// `crdWithSchema` of `test/integration/apiserver/crd_validation_expressions_test.go`.
fn crd_with_schema(spec: &Value) -> Value {
    let kind = spec["kind"].as_str().expect("kind");
    let plural = format!("{}s", kind.to_lowercase());
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.mygroup.example.com")},
        "spec": {
            "group": "mygroup.example.com",
            "versions": [{"name": "v1beta1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": spec["schema"]},
                "subresources": {"status": {}}}],
            "names": {"plural": plural, "kind": kind},
            "scope": "Cluster"
        }
    })
}

/// `fixtures.NewRandomNameV1CustomResourceDefinitionWithSchema(NamespaceScoped, schema, false)`
/// with one fixed generated name.
fn random_name_crd_with_schema(schema: &Value) -> Value {
    let name = "foo7xk2qa";
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{name}s.mygroup.example.com")},
        "spec": {
            "group": "mygroup.example.com",
            "versions": [{"name": "v1beta1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema}}],
            "names": {"plural": format!("{name}s"), "singular": name, "kind": name,
                "listKind": format!("{name}List")},
            "scope": "Namespaced"
        }
    })
}

/// `crd.CreateTestCRD` of `test/utils/crd/crd_util.go`, with one fixed generated name.
fn test_crd() -> Value {
    let name = "e2e-test-crd-validation-ratcheting-4821-xk2qa-crd";
    let group = "crd-validation-ratcheting.example.com";
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{name}s.{group}")},
        "spec": {
            "group": group,
            "names": {"plural": format!("{name}s"), "singular": name, "kind": name,
                "listKind": format!("{name}List")},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema":
                    {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]
        }
    })
}

/// The CRD a case or step names, if it names one.
fn crd_of(v: &Value) -> Option<Value> {
    if let Some(c) = v.get("crd") {
        return Some(c.clone());
    }
    if let Some(s) = v.get("crdWithSchema") {
        return Some(crd_with_schema(s));
    }
    if let Some(s) = v.get("randomNameCrdWithSchema") {
        return Some(random_name_crd_with_schema(s));
    }
    v.get("testCrd").map(|_| test_crd())
}

/// The object a write sends: the step's object with the CRD's `apiVersion` and `kind` where it
/// has none, and (for `apply`) the name and namespace the test's applyPatch sets.
fn object_of(step: &Value, op: &str, crd: &Value) -> Value {
    let mut obj = step[op].clone();
    let spec = &crd["spec"];
    let version = spec["versions"][0]["name"].as_str().unwrap();
    if obj.get("apiVersion").is_none() {
        obj["apiVersion"] = json!(format!("{}/{version}", spec["group"].as_str().unwrap()));
    }
    if obj.get("kind").is_none() {
        obj["kind"] = spec["names"]["kind"].clone();
    }
    if op == "apply" {
        let meta = obj
            .as_object_mut()
            .unwrap()
            .entry("metadata")
            .or_insert_with(|| json!({}));
        meta["name"] = json!("test-resource");
        meta["namespace"] = json!("default");
    }
    obj
}

fn check_expectation(
    what: &str,
    step: &Value,
    accepted: bool,
    text: &str,
    problems: &mut Vec<String>,
) {
    let expect = &step["expect"];
    let want = expect["accepted"].as_bool().expect("expect.accepted");
    if want != accepted {
        problems.push(format!(
            "{what}: want accepted={want}, got accepted={accepted}:\n{text}"
        ));
    }
    for s in expect["contains"].as_array().into_iter().flatten() {
        let s = s.as_str().unwrap();
        if !text.contains(s) {
            problems.push(format!(
                "{what}: want the error to contain {s:?}, got:\n{text}"
            ));
        }
    }
}

fn run_case(dir: &Path, case: &Value, problems: &mut Vec<String>) {
    let name = case["name"].as_str().unwrap_or("?");
    let mut crd = crd_of(case).unwrap_or_else(|| panic!("{name}: no CRD"));
    let mut stored: BTreeMap<String, Value> = BTreeMap::new();
    for (i, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
        let what = format!(
            "{name} / step {i}{}",
            step.get("name")
                .and_then(Value::as_str)
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        );
        if let Some(schema) = step.get("updateSchema") {
            // updateCRDSchema of crd_validation_ratcheting.go: the sentinel property it adds.
            let mut schema = schema.clone();
            schema["properties"]["__update_schema_sentinel_field__"] =
                json!({"type": "string", "enum": ["3f2b0c8e-5d1a-4e8e-9a57-0c1d2e3f4a5b"]});
            crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = schema;
            continue;
        }
        let step_crd = crd_of(step).unwrap_or_else(|| crd.clone());
        write(dir, "crd.json", &step_crd);
        if step.get("check").is_some() {
            let run = crdgen(dir, &["check", "crd.json"]);
            if std::env::var_os("SHOW").is_some() {
                eprintln!("== {what}\n{}", run.stdout);
            }
            let expect = json!({"expect": step["check"]});
            check_expectation(&what, &expect, run.code == 0, &run.stdout, problems);
            continue;
        }
        let op = ["create", "update", "updateStatus", "apply"]
            .into_iter()
            .find(|op| step.get(*op).is_some())
            .unwrap_or_else(|| panic!("{what}: no operation"));
        let obj = object_of(step, op, &step_crd);
        let key = obj["metadata"]["name"].as_str().unwrap().to_owned();
        write(dir, "object.json", &obj);
        // The Go tests' clients send no `fieldValidation`: the API server then warns about
        // unknown fields (apiserver `endpoints/handlers/rest.go` `fieldValidation`), where
        // kubectl asks for `Strict`.
        let mut args = vec![
            "validate",
            "--field-validation",
            "Warn",
            "--crd",
            "crd.json",
        ];
        let old = match op {
            "create" => None,
            "apply" => stored.get(&key),
            _ => Some(
                stored
                    .get(&key)
                    .unwrap_or_else(|| panic!("{what}: nothing stored as {key}")),
            ),
        };
        if let Some(old) = old {
            write(dir, "old.json", old);
            args.extend(["--old", "old.json"]);
        }
        if op == "updateStatus" {
            args.extend(["--subresource", "status"]);
        }
        let text = crdgen(dir, &[args.as_slice(), &["object.json"]].concat());
        let json_run = crdgen(
            dir,
            &[args.as_slice(), &["--output", "json", "object.json"]].concat(),
        );
        let Ok(report) = serde_json::from_str::<Value>(&json_run.stdout) else {
            problems.push(format!("{what}: no JSON report:\n{}", json_run.stdout));
            continue;
        };
        let errors = report["errors"].as_array().map_or(0, Vec::len);
        let accepted = text.code == 0;
        if accepted != (json_run.code == 0) || accepted != (errors == 0) {
            problems.push(format!(
                "{what}: text and JSON outputs disagree:\n{}\n{}",
                text.stdout, json_run.stdout
            ));
        }
        check_expectation(&what, step, accepted, &text.stdout, problems);
        // `expect.object`: fields the object as stored (printed) must have, with these values.
        for (k, want) in step["expect"]["object"].as_object().into_iter().flatten() {
            if report["object"].get(k) != Some(want) {
                problems.push(format!(
                    "{what}: want {k} = {want} in the stored object, got {}",
                    report["object"]
                ));
            }
        }
        if std::env::var_os("SHOW").is_some() {
            eprintln!("== {what}\n{}{}", text.stdout, json_run.stdout);
        }
        if accepted {
            stored.insert(key, report["object"].clone());
        }
    }
}

#[test]
fn kubernetes_cel_integration_cases() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/cel-integration");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/cel-integration")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "the case files are there");
    let work = std::env::temp_dir().join(format!("crdkit-cel-integration-{}", std::process::id()));
    let mut problems = Vec::new();
    let mut steps = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let doc: Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (i, case) in doc["cases"].as_array().expect("cases").iter().enumerate() {
            let dir = work.join(format!(
                "{}-{i}",
                file.file_stem().unwrap().to_string_lossy()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            steps += case["steps"].as_array().map_or(0, Vec::len);
            run_case(&dir, case, &mut problems);
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(steps >= 50, "{steps} steps");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The CRD of apiextensions-apiserver `test/integration/ratcheting_test.go` (`runTests`) with
/// `schema` as the one version's schema, the sentinel property of `updateMyCRDV1Beta1Schema`
/// added; in status mode the schema is that of `status`.
fn ratcheting_crd(schema: &Value, status: bool) -> Value {
    let mut schema = schema.clone();
    if !schema.is_object() {
        schema = json!({});
    }
    schema["properties"]["__ratcheting_sentinel_field__"] =
        json!({"type": "string", "enum": ["0d6f7a52-8c3e-4b1a-9f2d-6e5c4b3a2918"]});
    if status {
        schema = json!({"type": "object", "properties": {"status": schema}});
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "mycrds.mygroup.example.com"},
        "spec": {
            "group": "mygroup.example.com",
            "versions": [{"name": "v1beta1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema},
                "subresources": {"status": {}}}],
            "names": {"plural": "mycrds", "kind": "MyCoolCRD", "listKind": "MyCoolCRDList"},
            "scope": "Namespaced"
        }
    })
}

/// One `validate` run: whether it was accepted, the object printed, the text output.
fn validate_step(
    dir: &Path,
    obj: &Value,
    old: Option<&Value>,
    status: bool,
) -> (bool, Value, String) {
    write(dir, "object.json", obj);
    let mut args = vec!["validate", "--crd", "crd.json"];
    if let Some(old) = old {
        write(dir, "old.json", old);
        args.extend(["--old", "old.json"]);
    }
    if status {
        args.extend(["--subresource", "status"]);
    }
    let run = crdgen(
        dir,
        &[args.as_slice(), &["--output", "json", "object.json"]].concat(),
    );
    let report: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    (run.code == 0, report["object"].clone(), run.stdout)
}

/// apiextensions-apiserver `test/integration/ratcheting_test.go` `TestRatchetingFunctionality`
/// (transcribed in `crates/apiextensions/tests/data/cel/validate/ratcheting_integration.json`, where
/// `crates/apiextensions/tests/it/cel_validate_ratchet.rs` runs it in process) through `crdgen validate`, as
/// the Go test runs each case twice: server-side applies of the object, and ("Status: ") the
/// same schema under `status` with the object applied as the status (a create first, which
/// drops `status`, then updates through the status subresource). Cases with `skipStatus` run
/// once, as in Go.
#[test]
fn apiextensions_ratcheting_through_crdgen() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../apiextensions/tests/data/cel/validate/ratcheting_integration.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let work = std::env::temp_dir().join(format!("crdkit-ratcheting-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let mut problems = Vec::new();
    let mut applies = 0;
    for case in data["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        for status in [false, true] {
            if status && case["skipStatus"].as_bool() == Some(true) {
                continue;
            }
            let label = if status {
                format!("Status: {name}")
            } else {
                name.to_owned()
            };
            let mut schema = Value::Null;
            let mut stored: Option<Value> = None;
            for step in case["steps"].as_array().unwrap() {
                match step["op"].as_str().unwrap() {
                    "setSchema" => schema = step["schema"].clone(),
                    "patchSchema" => merge_patch(&mut schema, &step["patch"]),
                    _ => {
                        applies += 1;
                        write(&work, "crd.json", &ratcheting_crd(&schema, status));
                        let mut obj = without_nulls(&step["object"]);
                        if status {
                            obj = json!({"status": obj});
                        }
                        obj["apiVersion"] = json!("mygroup.example.com/v1beta1");
                        obj["kind"] = json!("MyCoolCRD");
                        obj["metadata"] = json!({"name": "mycrdinstance", "namespace": "default"});
                        if status && stored.is_none() {
                            // ApplyStatus does not create: the test creates the object first.
                            let (ok, created, out) = validate_step(&work, &obj, None, false);
                            if !ok {
                                problems.push(format!("{label}: the create failed:\n{out}"));
                                break;
                            }
                            stored = Some(created);
                        }
                        let (ok, result, out) = validate_step(&work, &obj, stored.as_ref(), status);
                        let expect_error = step["expectError"].as_bool().unwrap();
                        if ok == expect_error {
                            problems.push(format!(
                                "{label}: {}: expected {}, got:\n{out}",
                                step["description"].as_str().unwrap_or_default(),
                                if expect_error { "an error" } else { "no error" },
                            ));
                        }
                        if ok {
                            stored = Some(result);
                        }
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(applies >= 140, "{applies} applies");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
