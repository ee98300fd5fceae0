//! The tables of apiextensions-apiserver `pkg/apis/apiextensions/validation/validation_test.go`
//! that apply to creating or updating a v1 CRD, transcribed as data (`data/*.json`): each case's input
//! written as the v1 JSON that converts to Go's internal-type input, and its expected errors as
//! `[type, field]` or `[type, field, text the message contains]`, compared as multisets like
//! Go's test loop does.
//!
//! - `data/crd.json`: `TestValidateCustomResourceDefinition`, run through [`check_crd`] (the same
//!   as [`check_crd_full`]).
//! - `data/selectable.json`: `TestSelectableFields` (the `CustomResourceFieldSelectors` gate is
//!   on by default).
//! - `data/field_path.json`: `TestValidateFieldPath`, each path as the `fieldPath` of a rule at
//!   the root of Go's schema (the CRD reports only `must be a valid path`; `notes` keeps the
//!   `ValidFieldPath` error Go's test pins).
//! - `data/deprecation_warning.json`: `Test_validateDeprecationWarning`, as the one version's
//!   `deprecated`/`deprecationWarning` (its `non-utf-8` case cannot be written in JSON or YAML).
//! - `data/update.json`: `TestValidateCustomResourceDefinitionUpdate` (42/43), each case's `old`
//!   and `resource` written as v1 (Go's top-level `validation`, `subresources`, columns and
//!   selectable fields copied into every version, as `v1/conversion.go` does; `[]byte` values
//!   base64), run through `ValidateCustomResourceDefinitionUpdate` with `crd.status` as given
//!   (Go's test calls validation without the registry's `PrepareForUpdate`). Left out: `top-level
//!   and per-version fields are mutually exclusive` (both at once cannot be written in v1). The
//!   cases whose `preserveUnknownFields` is nil are written with `false` (their `notes` say so):
//!   v1 has no nil, and none of them depends on it (nil forces structural schemas as `false`
//!   does). `update_relaxations_are_exercised` checks that 17 of the error-free cases are CRDs
//!   a create rejects, so the update's relaxations carry them.
//! - `TestValidateCustomResourceDefinitionValidationRuleCompatibility` (3/3) and
//!   `TestValidateCustomResourceDefinitionStoredVersions` (5/5), written in Rust below.
//! - `data/validation.json`: `TestValidateCustomResourceDefinitionValidation`, run through
//!   `validateCustomResourceDefinitionValidation` with the case's `validationOptions`.
//! - `data/integration_nonstructural.json`: `test/integration/validation_test.go`
//!   `TestNonStructuralSchemaConditionForCRDV1` (16/16): its v1beta1 manifest as the v1 CRD that
//!   Go's conversions make of it (the global schema in both versions, `preserveUnknownFields:
//!   false`, group `tests-<i>.apiextension.testing-k8s.io`), created through [`check_crd`]; the
//!   message (Go's `err.Error()`, the errors aggregated) must contain every `expected` text and
//!   none of the `unexpected` ones, and the CRD is accepted exactly when none is expected.
//!
//! Where Go's input cannot be written in v1 exactly, the case says so in `notes` (Go's
//! `preserveUnknownFields: nil` is written as `false`: both force structural schemas once
//! extensions are used, and no such case has defaults or a non-`None` conversion).
//!
//! Transcribed: 214 of the 223 cases that apply to a create (`TestValidateCustomResourceDefinition`
//! 51/57, `TestSelectableFields` 5/5, `TestValidateFieldPath` 23/23,
//! `TestValidateCustomResourceDefinitionValidation` 119/120, `Test_validateDeprecationWarning`
//! 9/10, `TestPerCRDEstimatedCost` 8/8). Left out, with the reason:
//! - `no_storage_version`, `missing_storage_version_in_stored_versions`,
//!   `empty_stored_version`: they set `status.storedVersions`, which the registry resets on
//!   create (to the storage version), so the API server never sees their input. `bad names 02`
//!   is kept without its `status.acceptedNames` error, reset on create too.
//! - `bad names 01`: `spec.version` without `spec.versions`, which v1 cannot express (v1 has no
//!   `spec.version`; the internal one is the first entry of `versions`).
//! - `webhook conversion without preserveUnknownFields=false`: Go's `preserveUnknownFields: nil`
//!   acts as `true` for the conversion check but not for `cannot set to true`; v1 has no nil.
//! - `per-version fields may not all be set to identical values ...`: identical per-version
//!   values, which the v1 conversion moves to the top level (`v1/conversion.go`), so a v1 create
//!   never has them per version. (`selectableFields with duplicate jsonPaths are invalid` is
//!   kept: its schemas differ, and selectable fields stay per version with their schemas, see
//!   `internal.rs`.)
//! - `invalid x-kubernetes-validations for escaping (keywords are invalid field names before
//!   v1.30)`: it pins the CEL environment of Kubernetes 1.30; a create uses the current default
//!   one. (`valid x-kubernetes-validations for escaping` pins 1.31, whose escaping is today's,
//!   and is kept.)
//! - the `non-utf-8` case of `Test_validateDeprecationWarning`: JSON and YAML text is UTF-8.
//!
//! Not transcribed: the unit tests of Go helpers with no CRD input (`TestSchemaHasDefaults`,
//! `TestCostInfo`, `TestCelContext`).

use serde::Deserialize;
use serde_json::Value;

use super::super::hooks::ValueDefaultValidator;
use super::super::openapi::{self, SchemaOpts};
use super::super::{CheckOptions, check_crd};
use crate::crd_check::cel::CrdRuleChecker;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_cel::check::compile::RuleOptions;
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceValidation};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    crd: Option<Value>,
    /// The stored CRD of an update case (`data/update.json`).
    #[serde(default)]
    old: Option<Value>,
    #[serde(default)]
    schema: Option<Value>,
    #[serde(default)]
    status: bool,
    #[serde(default)]
    opts: Opts,
    errors: Vec<Vec<String>>,
    #[serde(default)]
    #[allow(dead_code)]
    notes: Vec<String>,
}

/// Go's `validationOptions` fields that the tables set.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)]
struct Opts {
    #[serde(default)]
    allow_defaults: bool,
    #[serde(default)]
    require_valid_property_type: bool,
    #[serde(default)]
    require_structural_schema: bool,
    #[serde(default)]
    require_pruned_defaults: bool,
    #[serde(default)]
    require_atomic_set_type: bool,
    #[serde(default)]
    require_map_list_keys_map_set_validation: bool,
}

/// Go's matching: each expected error takes the first unseen error of its type and field whose
/// text contains the expected substring; every error must be taken.
fn mismatches(case: &Case, got: &[FieldError]) -> Option<String> {
    let texts: Vec<String> = got.iter().map(ToString::to_string).collect();
    let mut seen = vec![false; got.len()];
    let mut missing = Vec::new();
    for want in &case.errors {
        let (ty, field) = (want[0].as_str(), want[1].as_str());
        let contains = want.get(2).map_or("", String::as_str);
        let found = got.iter().enumerate().position(|(i, e)| {
            !seen[i]
                && e.field.to_string() == field
                && format!("{:?}", e.error_type) == ty
                && texts[i].contains(contains)
        });
        match found {
            Some(i) => seen[i] = true,
            None => missing.push(want.join(" ")),
        }
    }
    let unexpected: Vec<&String> = texts
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(t, _)| t)
        .collect();
    if missing.is_empty() && unexpected.is_empty() {
        None
    } else {
        Some(format!(
            "{}:\n  missing {missing:#?}\n  unexpected {unexpected:#?}",
            case.name
        ))
    }
}

fn run(data: &str, check: impl Fn(&Case) -> Vec<FieldError>) {
    let cases: Vec<Case> = serde_json::from_str(data).unwrap();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| mismatches(c, &check(c)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn crd_errors(case: &Case) -> Vec<FieldError> {
    let input = case.crd.clone().expect("crd case");
    match serde_json::from_value::<CustomResourceDefinition>(input) {
        Ok(crd) => check_crd(&crd),
        Err(e) => vec![FieldError::invalid(
            &FieldPath::new("<decode>"),
            "",
            e.to_string(),
        )],
    }
}

#[test]
fn go_validate_custom_resource_definition() {
    run(include_str!("data/crd.json"), crd_errors);
}

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

#[test]
fn go_validate_field_path() {
    run(include_str!("data/field_path.json"), crd_errors);
}

#[test]
fn go_validate_deprecation_warning() {
    run(include_str!("data/deprecation_warning.json"), crd_errors);
}

#[test]
fn go_selectable_fields() {
    run(include_str!("data/selectable.json"), crd_errors);
}

#[test]
fn go_integration_non_structural_schema_condition_v1() {
    #[derive(Deserialize)]
    struct Case {
        name: String,
        crd: Value,
        expected: Vec<String>,
        unexpected: Vec<String>,
    }
    let cases: Vec<Case> =
        serde_json::from_str(include_str!("data/integration_nonstructural.json")).unwrap();
    let mut failures = Vec::new();
    for c in &cases {
        let crd: CustomResourceDefinition = serde_json::from_value(c.crd.clone()).unwrap();
        let errs = check_crd(&crd);
        let message = crdkit_apimachinery::field::aggregate(&errs);
        let missing: Vec<&String> = c
            .expected
            .iter()
            .filter(|e| !message.contains(*e))
            .collect();
        let unexpected: Vec<&String> = c
            .unexpected
            .iter()
            .filter(|e| message.contains(*e))
            .collect();
        if !missing.is_empty() || !unexpected.is_empty() || errs.is_empty() != c.expected.is_empty()
        {
            failures.push(format!(
                "{}: missing {missing:?}, unexpected {unexpected:?}, got {message}",
                c.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn go_validate_custom_resource_definition_validation() {
    run(include_str!("data/validation.json"), |case| {
        let schema = match case.schema.clone().map(serde_json::from_value).transpose() {
            Ok(s) => s,
            Err(e) => {
                return vec![FieldError::invalid(
                    &FieldPath::new("<decode>"),
                    "",
                    e.to_string(),
                )];
            }
        };
        let crv = CustomResourceValidation {
            open_api_v3_schema: schema,
        };
        let o = &case.opts;
        let so = SchemaOpts {
            allow_defaults: o.allow_defaults,
            valid_type: o.require_valid_property_type,
            structural: o.require_structural_schema,
            pruned_defaults: o.require_pruned_defaults,
            atomic_set: o.require_atomic_set_type,
            map_list_keys: o.require_map_list_keys_map_set_validation,
            suppress_cost: false,
            preexisting: None,
        };
        let cel = CrdRuleChecker::new(RuleOptions::default());
        let defaults = ValueDefaultValidator::default();
        let opts = CheckOptions {
            default_validator: Some(&defaults),
            cel: Some(&cel),
        };
        openapi::validation(
            &crv,
            case.status,
            &FieldPath::new("spec").child("validation"),
            so,
            &opts,
        )
    });
}

// TestPerCRDEstimatedCost: the per-CRD total and its (up to 4) most expensive rules.
#[test]
fn go_per_crd_estimated_cost() {
    use crdkit_cel::cost::TotalCost;
    let half = u64::MAX / 2;
    let cases: [(&str, &[u64], &[u64], u64); 8] = [
        ("no costs", &[], &[], 0),
        ("one cost", &[1_000_000], &[1_000_000], 1_000_000),
        ("one cost, ignored", &[900_000], &[], 900_000),
        (
            "2 costs",
            &[5_000_000, 25_000_000],
            &[25_000_000, 5_000_000],
            30_000_000,
        ),
        (
            "3 costs, one ignored",
            &[5_000_000, 25_000_000, 900_000],
            &[25_000_000, 5_000_000],
            30_900_000,
        ),
        (
            "4 costs",
            &[16_000_000, 50_000_000, 34_000_000, 50_000_000],
            &[50_000_000, 50_000_000, 34_000_000, 16_000_000],
            150_000_000,
        ),
        (
            "5 costs, one trimmed, one ignored",
            &[
                16_000_000, 50_000_000, 900_000, 34_000_000, 50_000_000, 50_000_001,
            ],
            &[50_000_001, 50_000_000, 50_000_000, 34_000_000],
            200_900_001,
        ),
        (
            "costs do not overflow",
            &[half, half, 1, 10, 100, 1000],
            &[half, half],
            u64::MAX,
        ),
    ];
    for (name, costs, expensive, total) in cases {
        let mut t = TotalCost::<()>::default();
        for &c in costs {
            t.observe((), c);
        }
        let got: Vec<u64> = t.most_expensive.iter().map(|e| e.1).collect();
        assert_eq!(got, expensive, "{name}");
        assert_eq!(t.total, total, "{name}");
    }
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
