//! The compile-time checks of a whole CRD (per-rule cost times how often the node repeats
//! under lists and maps, the CRD's total, `oldSelf` below lists) against the API server's CRD
//! validation (`check_crd_full`, what `crdgen check` runs) on the same schemas. Schemas that fail
//! cannot be derived (they do not compile), so they are built here from shapes, with each
//! rule's info computed by the same `const fn` the derive uses.

use crdkit_crd::crd_check::check_crd_full;
use crdkit_schema::ListType;
use crdkit_shape::cel::{RuleSrc, Site, check_crd, check_rule, child, lower::lower_source};
use crdkit_shape::meta::OBJECT_META;
use crdkit_shape::resource::ResourceDecl;
use crdkit_shape::{Field, Kind, Rule, Rules, Shape};

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// `node` with one rule, its info computed as the derive computes it.
fn with_rule(node: Shape, text: &'static str) -> &'static Shape {
    let node: &'static Shape = leak(node);
    let ast = lower_source(text).unwrap().leak();
    let src = RuleSrc {
        rule: text,
        ast,
        message_ast: None,
        optional_old_self: false,
        field_path: None,
    };
    let site = Site {
        name: "T.f",
        items_of: None,
        resource_root: false,
    };
    let info = check_rule(site, child(node), &src).expect("the rule checks on its own");
    let rules: &'static [Rule] = Box::leak(Box::new([Rule {
        ast: Some(ast),
        info: Some(leak(info)),
        ..Rule::new(text)
    }]));
    let mut s = *node;
    s.rules = Rules {
        own: rules,
        inherited: None,
    };
    leak(s)
}

fn field(name: &'static str, shape: &'static Shape) -> Field {
    Field {
        name,
        ident: name,
        shape,
        required: true,
        flatten: false,
    }
}

fn object(fields: Vec<Field>) -> Shape {
    Shape::new(Kind::Struct(Box::leak(fields.into_boxed_slice())))
}

fn list(items: &'static Shape, max_items: Option<u64>, list_type: Option<ListType>) -> Shape {
    let mut s = Shape::new(Kind::Array(items));
    s.max_items = max_items;
    s.list_type = list_type;
    s
}

/// The compile-time verdict and the API server's on a resource whose spec is `spec`.
fn verdicts(spec: &'static Shape) -> (Result<(), String>, Vec<String>) {
    let root = leak({
        let mut s = object(vec![
            field("apiVersion", leak(Shape::string())),
            field("kind", leak(Shape::string())),
            field("metadata", &OBJECT_META),
            field("spec", spec),
        ]);
        s.embedded_resource = true;
        s
    });
    let compile_time = check_crd(root, &[]).map_err(|e| e.to_string());
    let decl = ResourceDecl {
        group: "example.com",
        version: "v1",
        kind: "Thing",
        plural: "things",
        singular: "thing",
        list_kind: "ThingList",
        short_names: &[],
        categories: &[],
        namespaced: true,
        served: true,
        storage: true,
        deprecated: false,
        deprecation_warning: None,
        description: None,
        max_desc_len: None,
        spec,
        spec_required: true,
        flatten: false,
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
    };
    let crd = decl.crd().expect("builds");
    let api_server = check_crd_full(&crd)
        .iter()
        .map(ToString::to_string)
        .collect();
    (compile_time, api_server)
}

fn tags(max_items: u64) -> Shape {
    let mut item = Shape::string();
    item.max_length = Some(10);
    list(leak(item), Some(max_items), None)
}

/// A spec with a list of items (of the given bounds), each with a rule on `tags`.
fn items_spec(
    item_count: Option<u64>,
    list_type: Option<ListType>,
    rule: &'static str,
    rules: usize,
) -> &'static Shape {
    let mut fields = vec![field("name", leak(Shape::string()))];
    for i in 0..rules {
        let name: &'static str = Box::leak(format!("tags{i}").into_boxed_str());
        fields.push(field(name, with_rule(tags(20), rule)));
    }
    let item = leak(object(fields));
    leak(object(vec![field(
        "items",
        leak(list(item, item_count, list_type)),
    )]))
}

#[test]
fn crd_checks_agree_with_the_api_server() {
    const CHEAP: &str = "self.all(t, t.size() < 10)";
    const TRANSITION: &str = "self == oldSelf";
    let cases: Vec<(&str, &'static Shape)> = vec![
        ("bounded list", items_spec(Some(10), None, CHEAP, 1)),
        (
            "unbounded list: cardinality",
            items_spec(None, None, CHEAP, 1),
        ),
        (
            "large list: per-rule limit",
            items_spec(Some(100_000), None, CHEAP, 1),
        ),
        (
            "large list: under the limit",
            items_spec(Some(70_000), None, CHEAP, 1),
        ),
        ("CRD total", items_spec(Some(70_000), None, CHEAP, 12)),
        (
            "CRD total, just under",
            items_spec(Some(70_000), None, CHEAP, 11),
        ),
        (
            "oldSelf under an atomic list",
            items_spec(Some(10), None, TRANSITION, 1),
        ),
        (
            "oldSelf under a set",
            items_spec(Some(10), Some(ListType::Set), TRANSITION, 1),
        ),
        (
            "oldSelf under a list-type map",
            leak(object(vec![field(
                "items",
                leak({
                    let mut l = list(
                        leak(object(vec![
                            field("name", leak(Shape::string())),
                            field("tags", with_rule(tags(20), TRANSITION)),
                        ])),
                        Some(10),
                        Some(ListType::Map),
                    );
                    l.list_map_keys = &["name"];
                    l
                }),
            )])),
        ),
        (
            "map of items, unbounded",
            leak(object(vec![field(
                "byName",
                leak(Shape::new(Kind::Map(leak(object(vec![field(
                    "tags",
                    with_rule(tags(20), CHEAP),
                )]))))),
            )])),
        ),
        (
            "map of items, bounded",
            leak(object(vec![field(
                "byName",
                leak({
                    let mut m = Shape::new(Kind::Map(leak(object(vec![field(
                        "tags",
                        with_rule(tags(20), CHEAP),
                    )]))));
                    m.max_properties = Some(100);
                    m
                }),
            )])),
        ),
    ];
    // Which cases the API server admits.
    let admitted = [
        true, false, false, true, false, true, false, false, true, false, true,
    ];
    let mut failures = Vec::new();
    for ((name, spec), admitted) in cases.into_iter().zip(admitted) {
        let (compile_time, api_server) = verdicts(spec);
        if compile_time.is_ok() != api_server.is_empty() || api_server.is_empty() != admitted {
            failures.push(format!(
                "{name}:\n  compile time: {compile_time:?}\n  API server:   {api_server:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
