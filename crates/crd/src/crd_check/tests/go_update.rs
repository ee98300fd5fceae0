//! The update tables of apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation_test.go`, run through
//! `ValidateCustomResourceDefinitionUpdate` ([`super::super::update::validate_update`]); see
//! [`super::go_table`] for the data format and the counts.

use serde_json::Value;

use super::go_table::{Case, Opts, mismatches, run};
use crate::crd_check::check_crd;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::crd::CustomResourceDefinition;

/// `ValidateCustomResourceDefinitionUpdate(crd, old)` with every engine: `crd.status` as the
/// case gives it (Go's test calls validation without the registry's `PrepareForUpdate`).
fn update_errors(case: &Case) -> Vec<FieldError> {
    let read = |v: &Option<Value>| {
        serde_json::from_value::<CustomResourceDefinition>(v.clone().expect("crd and old"))
    };
    match (read(&case.crd), read(&case.old)) {
        (Ok(new), Ok(old)) => super::super::hooks::with_full_engines(|opts| {
            super::super::update::validate_update(&new, &old, opts)
        }),
        (Err(e), _) | (_, Err(e)) => vec![FieldError::invalid(
            &FieldPath::new("<decode>"),
            "",
            e.to_string(),
        )],
    }
}

#[test]
fn go_validate_custom_resource_definition_update() {
    run(include_str!("data/update.json"), update_errors);
}

// TestValidateCustomResourceDefinitionStoredVersions (5/5).
#[test]
fn go_validate_custom_resource_definition_stored_versions() {
    /// Name, versions, storage version, stored versions, errors (field, text contained).
    type StoredCase<'a> = (
        &'a str,
        &'a [&'a str],
        &'a str,
        &'a [&'a str],
        &'a [(&'a str, &'a str)],
    );
    let cases: [StoredCase<'_>; 5] = [
        ("one version", &["v1"], "v1", &["v1"], &[]),
        (
            "no stored version",
            &["v1"],
            "v1",
            &[],
            &[(
                "status.storedVersions",
                "Invalid value: []: must have at least one stored version",
            )],
        ),
        (
            "many versions",
            &["v1alpha", "v1beta1", "v1"],
            "v1",
            &["v1alpha", "v1"],
            &[],
        ),
        (
            "missing stored versions",
            &["v1beta1", "v1"],
            "v1",
            &["v1alpha", "v1beta1", "v1"],
            &[(
                "status.storedVersions[0]",
                "Invalid value: \"v1alpha\": missing from spec.versions",
            )],
        ),
        (
            "missing storage versions",
            &["v1alpha", "v1beta1", "v1"],
            "v1",
            &["v1alpha", "v1beta1"],
            &[(
                "status.storedVersions",
                "Invalid value: [\"v1alpha\",\"v1beta1\"]: must have the storage version v1",
            )],
        ),
    ];
    for (name, versions, storage, stored, want) in cases {
        let versions: Vec<crdkit_schema::crd::CustomResourceDefinitionVersion> = versions
            .iter()
            .map(|v| crdkit_schema::crd::CustomResourceDefinitionVersion {
                name: (*v).to_owned(),
                storage: *v == storage,
                ..Default::default()
            })
            .collect();
        let stored: Vec<String> = stored.iter().map(|s| (*s).to_owned()).collect();
        let errs = super::super::stored_versions(Some(&stored), &versions);
        let got: Vec<(String, String)> = errs
            .iter()
            .map(|e| (e.field.to_string(), e.to_string()))
            .collect();
        assert_eq!(got.len(), want.len(), "{name}: {got:?}");
        for ((field, text), (want_field, want_text)) in got.iter().zip(want) {
            assert_eq!(field, want_field, "{name}");
            assert!(text.contains(want_text), "{name}: {text}");
        }
    }
}

/// `TestValidateCustomResourceDefinitionValidationRuleCompatibility` (3/3). Go's test adds a
/// `test()` function to the environment of stored expressions only; here the function known to
/// stored expressions and not to new ones is `includes` (`library.Lists` v1, Kubernetes 1.37,
/// one version above the compatibility version new expressions compile with).
#[test]
fn go_validation_rule_compatibility() {
    use serde_json::json;
    let all = |what: &str| -> Vec<Vec<String>> {
        [
            "properties[x]",
            "properties[obj]",
            "properties[obj].properties[a]",
            "properties[array]",
            "properties[array].items",
            "properties[map]",
            "properties[map].additionalProperties",
        ]
        .iter()
        .map(|p| {
            vec![
                "Invalid".to_owned(),
                format!("spec.validation.openAPIV3Schema.{p}.x-kubernetes-validations[0].{what}"),
            ]
        })
        .collect()
    };
    let crd = |rule: &str, message_expression: &str| -> Value {
        let rules = json!([{"rule": rule, "messageExpression": message_expression}]);
        json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "plural.group.com", "resourceVersion": "1"},
            "spec": {"group": "group.com", "scope": "Cluster",
                "names": {"plural": "plural", "singular": "singular", "kind": "Plural", "listKind": "PluralList"},
                "versions": [{"name": "version", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {
                        "x": {"type": "string", "x-kubernetes-validations": rules},
                        "obj": {"type": "object", "x-kubernetes-validations": rules,
                                "properties": {"a": {"type": "string", "x-kubernetes-validations": rules}}},
                        "array": {"type": "array", "maxItems": 1, "x-kubernetes-validations": rules,
                                  "items": {"type": "string", "x-kubernetes-validations": rules}},
                        "map": {"type": "object", "maxProperties": 1, "x-kubernetes-validations": rules,
                                "additionalProperties": {"type": "string", "x-kubernetes-validations": rules}}
                    }}}}]},
            "status": {"storedVersions": ["version"]}
        })
    };
    let (stored_rule, stored_message) = (
        "[1].includes(1) == true",
        "'test: %s'.format([[1].includes(1)])",
    );
    let cases = [
        (
            "functions declared for storage mode allowed if expressions are unchanged from what is stored",
            stored_rule,
            stored_rule,
            stored_message,
            stored_message,
            Vec::new(),
        ),
        (
            "functions declared for storage mode not allowed if rule expression is changed",
            "[1].includes(1) == false",
            stored_rule,
            stored_message,
            stored_message,
            all("rule"),
        ),
        (
            "functions declared for storage mode not allowed if message expression is changed",
            stored_rule,
            stored_rule,
            stored_message,
            "'test - updated: %s'.format([[1].includes(1)])",
            all("messageExpression"),
        ),
    ];
    for (name, old_rule, rule, old_message, message, errors) in cases {
        let case = Case {
            name: name.to_owned(),
            crd: Some(crd(rule, message)),
            old: Some(crd(old_rule, old_message)),
            schema: None,
            status: false,
            opts: Opts::default(),
            errors,
            notes: Vec::new(),
        };
        if let Some(m) = mismatches(&case, &update_errors(&case)) {
            panic!("{m}");
        }
    }
}

/// The update cases that pass only because the update relaxes a rule for what the old CRD
/// already had: created on their own, their CRDs are rejected. (A guard that the table above
/// exercises the relaxations, not only CRDs valid either way.)
#[test]
fn update_relaxations_are_exercised() {
    let cases: Vec<Case> = serde_json::from_str(include_str!("data/update.json")).unwrap();
    let relaxed: Vec<&str> = cases
        .iter()
        .filter(|c| c.errors.is_empty())
        .filter(|c| {
            let crd: CustomResourceDefinition =
                serde_json::from_value(c.crd.clone().unwrap()).unwrap();
            !check_crd(&crd).is_empty()
        })
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        relaxed,
        [
            "invalid types updates allowed if old object has invalid types",
            "non-atomic items in lists of type set allowed if pre-existing",
            "non-structural updates allowed if old object has non-structural schema",
            "webhookconfig: should pass on invalid ConversionReviewVersion with old invalid versions",
            "webhookconfig: existing invalid CABundle update should pass",
            "webhookconfig: existing valid CABundle should be able to transition to invalid pre-serving",
            "unchanged",
            "unchanged-established",
            "keep preserveUnknownFields: true is allowed",
            "schema not required if old object is missing schema",
            "schema not required if old object is missing schema for some versions",
            "allow non-required key with no default in list of type map if pre-existing",
            "allow nullable key in list of type map if pre-existing",
            "allow nullable item in list of type map if pre-existing",
            "allow nullable items in list of type set if pre-existing",
            "ratcheting: too many selectableFields are allowed if existing CRD has same selectableFields",
            "ratcheting: top level schema: too many selectableFields are allowed if existing CRD has same selectableFields",
        ],
        "{relaxed:#?}"
    );
}
