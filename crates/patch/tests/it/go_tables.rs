//! The apply direction of apimachinery's `strategicpatch/patch_test.go` tables, read from
//! `tests/data/go_patch_test.json` (extracted by `tests/data/extract_go_patch_test.py`; the
//! cases keep Go's descriptions). Each case gives an object, a patch and the object Go gets:
//! the two-way patch applied to `original` gives `twoWayResult` (or `modified`), the three-way
//! patch applied to `current` gives `result`. Go's harness sorts the merge lists of its YAML
//! cases (`create`, `custom`) before comparing, and so does this one; the raw cases compare in
//! the order Go produces.

use serde_json::Value;

use crate::common::{apply, merge_item, merge_item_schemas, sort_merge_lists};

fn data() -> Value {
    serde_json::from_str(include_str!("../data/go_patch_test.json")).unwrap()
}

/// A case's field, `None` when the case does not give it.
fn field<'a>(case: &'a Value, name: &str) -> Option<&'a Value> {
    case.get(name)
}

/// Applies `patch` to `object` and compares with `want`, or with the error `want_error`
/// (Go's harness checks that the error contains it).
fn check(
    failures: &mut Vec<String>,
    what: &str,
    object: &Value,
    patch: &Value,
    want: Option<&Value>,
    want_error: Option<&str>,
    sorted: bool,
) {
    let schemas = merge_item_schemas();
    let schema = merge_item(&schemas);
    let sort = |v: &Value| {
        if sorted {
            sort_merge_lists(v, &schema)
        } else {
            v.clone()
        }
    };
    let got = apply(&sort(object), &sort(patch), &schema);
    match (got, want_error) {
        (Err(e), Some(want)) if e.to_string().contains(want) => {}
        (Ok(got), None) => {
            let want = sort(want.unwrap_or(&Value::Null));
            if got != want {
                failures.push(format!(
                    "{what}:\n  object {object}\n  patch  {patch}\n  want   {want}\n  got    {got}"
                ));
            }
        }
        (got, want_error) => {
            failures.push(format!("{what}: got {got:?}, want error {want_error:?}"))
        }
    }
}

fn run(section: &str, sorted: bool, three_way: bool) -> usize {
    let data = data();
    let cases = data[section].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["description"].as_str().unwrap();
        let error = field(case, "expectedError").and_then(Value::as_str);
        let two_way_result = field(case, "twoWayResult").or(field(case, "modified"));
        check(
            &mut failures,
            &format!("{section} {name:?} two-way"),
            field(case, "original").unwrap_or(&Value::Null),
            field(case, "twoWay").unwrap_or(&Value::Null),
            two_way_result,
            error,
            sorted,
        );
        // Go applies the three-way patch only when the case gives a result (its YAML cases: a
        // non-empty one).
        let result = field(case, "result")
            .filter(|r| !sorted || r.as_object().is_some_and(|m| !m.is_empty()));
        if three_way && let Some(result) = result {
            check(
                &mut failures,
                &format!("{section} {name:?} three-way"),
                field(case, "current").unwrap_or(&Value::Null),
                field(case, "threeWay").unwrap_or(&Value::Null),
                Some(result),
                error,
                sorted,
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

/// `createStrategicMergePatchTestCaseData`.
#[test]
fn create_strategic_merge_patch_cases() {
    assert_eq!(run("create", true, true), 22);
}

/// `strategicMergePatchRawTestCases`: `$setElementOrder`, `$retainKeys`,
/// `$deleteFromPrimitiveList`, `$patch` in lists and maps, duplicates, pointers.
#[test]
fn strategic_merge_patch_raw_cases() {
    assert_eq!(run("raw", false, true), 94);
}

/// `customStrategicMergePatchTestCaseData`: patches no client would create.
#[test]
fn custom_strategic_merge_patch_cases() {
    assert_eq!(run("custom", true, false), 18);
}

/// `customStrategicMergePatchRawTestCases`, errors included.
#[test]
fn custom_strategic_merge_patch_raw_cases() {
    assert_eq!(run("customRaw", false, false), 10);
}

/// `replaceRawExtensionPatchTestCases`: a `replace` field is replaced as a whole.
#[test]
fn replace_raw_extension_cases() {
    assert_eq!(run("rawExtension", false, true), 2);
}
