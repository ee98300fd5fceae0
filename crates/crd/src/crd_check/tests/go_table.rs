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
use crdkit_cel::rule::RuleOptions;
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceValidation};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Case {
    pub(super) name: String,
    #[serde(default)]
    pub(super) crd: Option<Value>,
    /// The stored CRD of an update case (`data/update.json`).
    #[serde(default)]
    pub(super) old: Option<Value>,
    #[serde(default)]
    pub(super) schema: Option<Value>,
    #[serde(default)]
    pub(super) status: bool,
    #[serde(default)]
    pub(super) opts: Opts,
    pub(super) errors: Vec<Vec<String>>,
    #[serde(default)]
    #[allow(dead_code)]
    pub(super) notes: Vec<String>,
}

/// Go's `validationOptions` fields that the tables set.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)]
pub(super) struct Opts {
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
pub(super) fn mismatches(case: &Case, got: &[FieldError]) -> Option<String> {
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

pub(super) fn run(data: &str, check: impl Fn(&Case) -> Vec<FieldError>) {
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
