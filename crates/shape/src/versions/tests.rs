//! The checks between versions, the multi-version CRD and conversion, on hand-built shapes.

use serde_json::{Value, json};

use super::check::{check_distinct, check_same_resource, check_same_schema};
use super::{Conversion, ConversionError, KindDecl, Service, StepError, Webhook, convert};
use crate::resource::ResourceDecl;
use crate::{Enum, Field, Kind, Repr, Shape, Variant, VariantKind};

const STRING: Shape = Shape::string();
const INT: Shape = Shape::integer();
const DATE: Shape = Shape::string().format("date-time");
const NULLABLE: Shape = Shape::string().nullable();

const fn field(name: &'static str, shape: &'static Shape, required: bool) -> Field {
    Field {
        name,
        ident: name,
        shape,
        required,
        flatten: false,
    }
}

const fn object(fields: &'static [Field]) -> Shape {
    Shape::new(Kind::Struct(fields))
}

const HOST_PORT: Shape = object(&[field("host", &STRING, false), field("port", &STRING, false)]);
const INNER: Shape = object(&[field("port", &STRING, false)]);
// `host` and a flattened struct with `port`: the same JSON as HOST_PORT.
const FLATTENED: Shape = object(&[
    field("host", &STRING, false),
    Field {
        name: "inner",
        ident: "inner",
        shape: &INNER,
        required: false,
        flatten: true,
    },
]);
const PORT_INT: Shape = object(&[field("host", &STRING, false), field("port", &INT, false)]);
const PORT_REQUIRED: Shape = object(&[field("host", &STRING, false), field("port", &STRING, true)]);
const HOST_ONLY: Shape = object(&[field("host", &STRING, false)]);
const WHEN: Shape = object(&[field("when", &DATE, false)]);
const WHEN_TEXT: Shape = object(&[field("when", &STRING, false)]);
const NAME_NULLABLE: Shape = object(&[field("name", &NULLABLE, false)]);
const NAME: Shape = object(&[field("name", &STRING, false)]);
const LIST: Shape = Shape::new(Kind::Array(&HOST_PORT));
const LISTS: Shape = object(&[field("items", &LIST, false)]);
const LIST_INT: Shape = Shape::new(Kind::Array(&PORT_INT));
const LISTS_INT: Shape = object(&[field("items", &LIST_INT, false)]);
const MODE_AB: Shape = Shape::new(Kind::Enum(&Enum {
    repr: Repr::External,
    variants: &[
        Variant {
            name: "A",
            description: None,
            kind: VariantKind::Unit,
        },
        Variant {
            name: "B",
            description: None,
            kind: VariantKind::Newtype(&STRING),
        },
    ],
}));
const MODE_AC: Shape = Shape::new(Kind::Enum(&Enum {
    repr: Repr::External,
    variants: &[
        Variant {
            name: "A",
            description: None,
            kind: VariantKind::Unit,
        },
        Variant {
            name: "C",
            description: None,
            kind: VariantKind::Unit,
        },
    ],
}));
const MODES_AB: Shape = object(&[field("mode", &MODE_AB, false)]);
const MODES_AC: Shape = object(&[field("mode", &MODE_AC, false)]);

const fn decl(version: &'static str, spec: &'static Shape) -> ResourceDecl {
    ResourceDecl {
        group: "example.com",
        version,
        kind: "CronTab",
        plural: "crontabs",
        singular: "crontab",
        list_kind: "",
        short_names: &["ct"],
        categories: &[],
        namespaced: true,
        served: true,
        storage: true,
        deprecated: false,
        deprecation_warning: None,
        description: None,
        max_desc_len: None,
        spec,
        spec_required: false,
        flatten: true,
        status: None,
        status_subresource: false,
        scale: None,
        printer_columns: &[],
        selectable_fields: &[],
        rules: &[],
        annotations: &[],
        labels: &[],
        api_version_property: None,
        kind_property: None,
        metadata_property: None,
        metadata_required: false,
        empty_subresources: false,
    }
}

fn same_schema(a: &'static Shape, b: &'static Shape) -> Result<(), String> {
    check_same_schema(&decl("v1beta1", a), &decl("v1", b)).map_err(|e| e.to_string())
}

fn at(e: Result<(), String>) -> String {
    let e = e.unwrap_err();
    let rest = e
        .strip_prefix("conversion strategy None, but the schemas of v1beta1 and v1 differ at ")
        .unwrap_or(&e);
    rest.split("; with None")
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn schemas_compared_for_the_none_strategy() {
    assert_eq!(same_schema(&HOST_PORT, &HOST_PORT), Ok(()));
    assert_eq!(same_schema(&HOST_PORT, &FLATTENED), Ok(()));
    assert_eq!(same_schema(&FLATTENED, &HOST_PORT), Ok(()));
    assert_eq!(
        at(same_schema(&HOST_PORT, &PORT_INT)),
        ".port: a string in v1beta1, an integer in v1"
    );
    assert_eq!(
        at(same_schema(&HOST_PORT, &PORT_REQUIRED)),
        ".port: required in v1 only"
    );
    assert_eq!(
        at(same_schema(&HOST_PORT, &HOST_ONLY)),
        ".port: in v1beta1 only"
    );
    assert_eq!(at(same_schema(&HOST_ONLY, &FLATTENED)), ".port: in v1 only");
    assert_eq!(
        at(same_schema(&WHEN, &WHEN_TEXT)),
        ".when: format date-time in v1beta1, none in v1"
    );
    assert_eq!(
        at(same_schema(&NAME_NULLABLE, &NAME)),
        ".name: nullable in v1beta1 only"
    );
    assert_eq!(
        at(same_schema(&LISTS, &LISTS_INT)),
        ".items[*].port: a string in v1beta1, an integer in v1"
    );
    assert_eq!(
        at(same_schema(&MODES_AB, &MODES_AC)),
        ".mode: variant B in v1beta1 only"
    );
    let mut under_spec = decl("v1", &HOST_PORT);
    under_spec.flatten = false;
    assert_eq!(
        at(check_same_schema(&decl("v1beta1", &HOST_PORT), &under_spec).map_err(|e| e.to_string())),
        "the root: the spec's fields are at the root in v1beta1 and under .spec in v1"
    );
    let mut with_status = decl("v1", &HOST_PORT);
    with_status.status = Some(&HOST_ONLY);
    assert_eq!(
        at(
            check_same_schema(&decl("v1beta1", &HOST_PORT), &with_status)
                .map_err(|e| e.to_string())
        ),
        ".status: in v1 only"
    );
    let full = same_schema(&HOST_PORT, &HOST_ONLY).unwrap_err();
    assert_eq!(
        full,
        "conversion strategy None, but the schemas of v1beta1 and v1 differ at .port: in v1beta1 only; with None the API server only changes apiVersion: declare a webhook conversion, `#[versions(webhook(..))]`, and convert between the versions' types"
    );
}

#[test]
fn versions_share_group_names_and_scope() {
    let first = decl("v1beta1", &HOST_PORT);
    let same = |f: fn(&mut ResourceDecl)| {
        let mut d = decl("v1", &HOST_PORT);
        f(&mut d);
        check_same_resource(&first, &d).map_err(|e| e.to_string())
    };
    assert_eq!(same(|_| {}), Ok(()));
    assert_eq!(
        same(|d| d.group = "example.org").unwrap_err(),
        "version v1 disagrees with v1beta1 on the group: \"example.org\" instead of \"example.com\"; the versions of a kind share its group, names and scope"
    );
    assert!(
        same(|d| d.kind = "Crontab")
            .unwrap_err()
            .contains("on the kind")
    );
    assert!(
        same(|d| d.plural = "crontabz")
            .unwrap_err()
            .contains("on the plural")
    );
    assert!(
        same(|d| d.singular = "ct")
            .unwrap_err()
            .contains("on the singular")
    );
    assert!(
        same(|d| d.list_kind = "CronTabs")
            .unwrap_err()
            .contains("on the list kind")
    );
    assert!(
        same(|d| d.short_names = &[])
            .unwrap_err()
            .contains("on the short names: [] instead of [ct]")
    );
    assert!(
        same(|d| d.categories = &["all"])
            .unwrap_err()
            .contains("on the categories")
    );
    assert!(
        same(|d| d.namespaced = false)
            .unwrap_err()
            .contains("on the scope: Cluster instead of Namespaced")
    );
    assert_eq!(
        check_distinct(&first, &decl("v1beta1", &HOST_ONLY)).map_err(|e| e.to_string()),
        Err("version v1beta1 is listed twice: a CRD lists each version once".to_owned())
    );
    assert_eq!(check_distinct(&first, &decl("v1", &HOST_ONLY)), Ok(()));
}

static V1ALPHA1: ResourceDecl = decl("v1alpha1", &HOST_PORT);
static V1BETA1: ResourceDecl = decl("v1beta1", &HOST_PORT);
static V1: ResourceDecl = decl("v1", &HOST_PORT);
static VERSIONS: [&ResourceDecl; 3] = [&V1ALPHA1, &V1BETA1, &V1];

fn webhook() -> Conversion {
    Conversion::Webhook(Webhook {
        review_versions: &["v1", "v1beta1"],
        url: None,
        service: Some(Service {
            namespace: "default",
            name: "example-conversion-webhook-server",
            path: Some("/crdconvert"),
            port: None,
        }),
        ca_bundle: Some("Cg=="),
    })
}

#[test]
fn the_crd_lists_versions_by_priority() {
    let kind = KindDecl {
        versions: &VERSIONS,
        storage: 1,
        conversion: webhook(),
        declared_order: false,
    };
    let crd = kind.crd().unwrap();
    let listed: Vec<(&str, bool)> = crd
        .spec
        .versions
        .iter()
        .map(|v| (v.name.as_str(), v.storage))
        .collect();
    assert_eq!(
        listed,
        [("v1", false), ("v1beta1", true), ("v1alpha1", false)]
    );
    assert_eq!(
        crd.to_value()["spec"]["conversion"],
        json!({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1", "v1beta1"],
               "clientConfig": {"caBundle": "Cg==", "service": {"namespace": "default",
               "name": "example-conversion-webhook-server", "path": "/crdconvert"}}}})
    );
    assert_eq!(kind.position("example.com/v1"), Some(2));
    assert_eq!(kind.position("v1alpha1"), Some(0));
    assert_eq!(kind.position("other.com/v1"), None);
}

/// Steps that record what they did in `spec.trail`.
fn mark(mut v: Value, what: &str) -> Result<Value, StepError> {
    let trail = v["trail"].as_str().unwrap_or_default().to_owned();
    if trail.contains("fail") {
        return Err(StepError::Failed("no way".to_owned()));
    }
    v["trail"] = Value::String(format!("{trail}{what}"));
    // A conversion may change labels; other metadata changes are dropped.
    v["metadata"]["labels"] = json!({"step": what});
    v["metadata"]["name"] = json!("changed");
    Ok(v)
}

#[test]
fn conversion_walks_the_neighbours() {
    let kind = KindDecl {
        versions: &VERSIONS,
        storage: 2,
        conversion: webhook(),
        declared_order: false,
    };
    let steps: [(super::Step, super::Step); 2] = [
        (|v| mark(v, "a>b "), |v| mark(v, "b>a ")),
        (|v| mark(v, "b>1 "), |v| mark(v, "1>b ")),
    ];
    let object = json!({"apiVersion": "example.com/v1alpha1", "kind": "CronTab",
                        "metadata": {"name": "x", "uid": "u", "annotations": {"a": "b"}}, "trail": ""});
    let up = convert(&kind, &steps, object.clone(), "v1").unwrap();
    assert_eq!(
        up,
        json!({"apiVersion": "example.com/v1", "kind": "CronTab",
               "metadata": {"name": "x", "uid": "u", "labels": {"step": "b>1 "}, "annotations": {"a": "b"}},
               "trail": "a>b b>1 "})
    );
    let down = convert(&kind, &steps, up, "example.com/v1alpha1").unwrap();
    assert_eq!(down["trail"], "a>b b>1 1>b b>a ");
    assert_eq!(down["apiVersion"], "example.com/v1alpha1");
    let mut failing = object;
    failing["trail"] = json!("fail");
    assert_eq!(
        convert(&kind, &steps, failing, "v1"),
        Err(ConversionError::Failed("no way".to_owned()))
    );

    // None: apiVersion only; no step runs.
    let none = KindDecl {
        conversion: Conversion::None,
        ..kind
    };
    let object = json!({"apiVersion": "example.com/v1", "kind": "CronTab", "metadata": {"name": "x"}, "host": "h"});
    assert_eq!(
        convert(&none, &[], object, "v1alpha1").unwrap(),
        json!({"apiVersion": "example.com/v1alpha1", "kind": "CronTab", "metadata": {"name": "x"}, "host": "h"})
    );
    let bare = json!({"apiVersion": "v1", "kind": "CronTab"});
    assert!(matches!(
        convert(&none, &[], bare, "v1alpha1"),
        Err(ConversionError::UnknownVersion { .. })
    ));
}

#[test]
fn merge_crds_lists_by_priority_and_reports_mismatches() {
    use crate::resource::{MergeError, merge_crds};
    let crds = || {
        vec![
            V1ALPHA1.crd().unwrap(),
            V1.crd().unwrap(),
            V1BETA1.crd().unwrap(),
        ]
    };
    let merged = merge_crds(crds(), "v1beta1").unwrap();
    let listed: Vec<(&str, bool)> = merged
        .spec
        .versions
        .iter()
        .map(|v| (v.name.as_str(), v.storage))
        .collect();
    assert_eq!(
        listed,
        [("v1", false), ("v1beta1", true), ("v1alpha1", false)]
    );
    assert_eq!(
        merge_crds(crds(), "v2"),
        Err(MergeError::UnknownStorage("v2".to_owned()))
    );
    let mut twice = crds();
    twice.push(V1.crd().unwrap());
    assert_eq!(
        merge_crds(twice, "v1"),
        Err(MergeError::DuplicateVersion("v1".to_owned()))
    );
    let mut other = decl("v2", &HOST_PORT);
    other.group = "example.org";
    let mut mismatched = crds();
    mismatched.push(other.crd().unwrap());
    assert!(matches!(
        merge_crds(mismatched, "v1"),
        Err(MergeError::Mismatch { index: 3, .. })
    ));
    assert_eq!(merge_crds(Vec::new(), "v1"), Err(MergeError::Empty));
}
