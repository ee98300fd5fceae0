//! The `cel_const` target's fixtures: derived types whose shapes the derive's `const` checker
//! reads, a generator of rules from fuzz bytes that walks their CEL declarations (so most rules
//! reach real fields, lists, maps and library calls), and the two verdicts to compare: the
//! run-time checker's (the API server's compilation) and the `const` checker's, as
//! `tests/it/cel_const.rs` compares them on a fixed corpus.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crdkit_cel_check::rule::{RuleOptions, compile_rule};
use crdkit_cel_check::cost::STATIC_ESTIMATED_COST_LIMIT;
use crdkit_cel_check::decl::{DeclType, schema_decl_type};
use crdkit_schema::{Structural, ValidationRule};
use crdkit_shape::cel::{RuleSrc, Site, check_rule, child, cost_error, lower::Lowered};
use crdkit_shape::{Msg, Schema, Shape, build::build};
use serde::{Deserialize, Serialize};

use crate::rule_gen::Gen;

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    name: String,
    #[crd(max_length = 64)]
    value: Option<String>,
    foo: i64,
    #[crd(default = 3)]
    weight: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Widget {
    key: String,
    priority: i32,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Tagged {
    Circle { radius: f64 },
    Square { side: f64, label: Option<String> },
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(untagged)]
enum IntOrStr {
    Int(i64),
    Str(String),
}

/// Every kind of node, sizes mostly unbounded.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    replicas: i32,
    name: String,
    #[crd(max_length = 10)]
    short: String,
    #[crd(format = "date-time")]
    created: String,
    #[crd(format = "duration")]
    ttl: String,
    #[crd(format = "date")]
    day: Option<String>,
    #[crd(format = "byte")]
    data: Option<String>,
    ratio: f64,
    enabled: bool,
    tags: Vec<String>,
    #[crd(max_items = 25, items(max_length = 10))]
    bounded: Vec<String>,
    labels: BTreeMap<String, String>,
    items: Vec<Item>,
    #[crd(list_type = "map", list_map_keys("name"))]
    envars: Vec<Item>,
    #[crd(list_type = "set")]
    set1: Vec<i64>,
    components: BTreeMap<String, Widget>,
    #[serde(rename = "x-prop")]
    x_prop: Option<i64>,
    #[serde(rename = "namespace")]
    ns: Option<i64>,
    any: serde_json::Value,
    #[crd(int_or_string)]
    port: serde_json::Value,
    tagged: Tagged,
    int_or_str: IntOrStr,
    matrix: Vec<Vec<i64>>,
}

/// Every size bounded, so that costs compare as numbers.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Bounded {
    #[crd(max_length = 32)]
    name: String,
    #[crd(max_length = 253)]
    host: String,
    #[crd(max_length = 45)]
    address: String,
    #[crd(max_length = 18)]
    cidr: String,
    #[crd(max_items = 20, items(max_length = 16))]
    tags: Vec<String>,
    #[crd(max_items = 10)]
    numbers: Vec<i64>,
    #[crd(max_items = 10)]
    ratios: Vec<f64>,
    #[crd(max_properties = 10, values(max_length = 20))]
    labels: BTreeMap<String, String>,
    #[crd(max_items = 5)]
    items: Vec<Item>,
    #[crd(max_items = 4, items(max_items = 4))]
    matrix: Vec<Vec<i64>>,
    #[crd(format = "date-time")]
    created: String,
    #[crd(format = "byte", max_length = 64)]
    data: String,
}

/// A resource root as `#[derive(CustomResource)]` writes it.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(embedded_resource)]
#[serde(rename_all = "camelCase")]
struct Root {
    api_version: String,
    kind: String,
    metadata: crdkit::ObjectMeta,
    spec: Bounded,
}

/// A schema node the rules are checked on.
pub struct Node {
    /// The site's name in messages.
    pub name: &'static str,
    /// The node's shape, for the `const` checker.
    pub shape: &'static Shape,
    /// The structural schema built from it, for the run-time checker.
    pub structural: Structural,
    /// Its CEL declaration (what the generator walks); `None` for a node CEL cannot see.
    pub decl: Option<DeclType>,
}

/// The nodes, built once.
pub fn nodes() -> &'static [Node] {
    static NODES: OnceLock<Vec<Node>> = OnceLock::new();
    NODES.get_or_init(|| {
        let shapes: [(&'static str, &'static Shape); 13] = [
            ("Spec", &Spec::SHAPE),
            ("Bounded", &Bounded::SHAPE),
            ("Root", &Root::SHAPE),
            ("Item", &Item::SHAPE),
            ("Vec<Item>", &<Vec<Item>>::SHAPE),
            ("Map<Widget>", &<BTreeMap<String, Widget>>::SHAPE),
            ("Tagged", &Tagged::SHAPE),
            ("String", &String::SHAPE),
            ("i64", &i64::SHAPE),
            ("Vec<String>", &<Vec<String>>::SHAPE),
            ("Map<Vec<i64>>", &<BTreeMap<String, Vec<i64>>>::SHAPE),
            ("IntOrStr", &IntOrStr::SHAPE),
            ("Value", &serde_json::Value::SHAPE),
        ];
        shapes
            .into_iter()
            .map(|(name, shape)| {
                let structural = build(shape).expect("the fixtures build");
                let decl = schema_decl_type(&structural, shape.embedded_resource);
                Node {
                    name,
                    shape,
                    structural,
                    decl,
                }
            })
            .collect()
    })
}

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Which of [`nodes`].
    pub node: usize,
    /// `rule`.
    pub rule: String,
    /// `messageExpression`.
    pub message_expression: Option<String>,
    /// `optionalOldSelf: true`.
    pub optional_old_self: bool,
}

impl Case {
    /// Reads a case from fuzz bytes: the node, the flags, then the rule: generated from the
    /// remaining bytes, or (flag `0x80`) the remaining bytes themselves as text, so that
    /// mutations of real rules (the seeds) are compared too.
    #[must_use]
    pub fn generate(data: &[u8]) -> Case {
        let nodes = nodes();
        let mut g = Gen::new(data);
        let node = g.below(nodes.len());
        let flags = g.byte();
        let optional_old_self = flags & 6 == 6;
        if flags & 0x80 != 0 {
            let text = String::from_utf8_lossy(data.get(2..).unwrap_or_default());
            let (rule, message) = match text.split_once('\u{0}') {
                Some((r, m)) => (r.to_string(), Some(m.to_string())),
                None => (text.into_owned(), None),
            };
            return Case {
                node,
                rule,
                message_expression: message,
                optional_old_self,
            };
        }
        g.root = nodes[node].decl.clone();
        let rule = g.rule();
        let message_expression = (flags & 24 == 24).then(|| g.message());
        Case {
            node,
            rule,
            message_expression,
            optional_old_self,
        }
    }
}

/// A verdict in the `const` checker's words: `(rule cost, message cost, uses oldSelf,
/// cardinality)` or the message.
pub type Verdict = Result<(u64, u64, bool, u64), String>;

/// What the run-time checker (the API server's compilation) says, in the `const` checker's
/// words (as `tests/it/cel_const.rs` phrases it).
pub fn run_time(node: &Node, case: &Case) -> Verdict {
    let head = format!("invalid rule on `{}`: ", node.name);
    // The derive quotes the expression as cel-go's snippets do, tabs as spaces.
    let lines = |src: &str| -> String {
        src.split('\n')
            .map(|l| format!("\n | {}", l.replace('\t', " ")))
            .collect()
    };
    let r = case.rule.as_str();
    let Some(decl) = &node.decl else {
        return Err(format!(
            "{head}internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations{}",
            lines(r)
        ));
    };
    let rule = ValidationRule {
        rule: r.to_owned(),
        message_expression: case.message_expression.clone().unwrap_or_default(),
        optional_old_self: case.optional_old_self.then_some(true),
        ..ValidationRule::default()
    };
    let cr = compile_rule(&rule, decl, &RuleOptions::default());
    if let Some(e) = cr.error {
        return Err(if e.detail.starts_with("compilation failed") {
            format!("{head}{}", e.detail)
        } else {
            format!("{head}{}{}", e.detail, lines(r))
        });
    }
    if cr.max_cost > STATIC_ESTIMATED_COST_LIMIT {
        let m = cost_error(
            Msg::of(&head),
            "estimated rule cost",
            cr.max_cost,
            STATIC_ESTIMATED_COST_LIMIT,
        );
        return Err(format!("{m}{}", lines(r)));
    }
    if let Some(e) = cr.message_expression_error {
        let me = case.message_expression.as_deref().unwrap_or_default();
        return Err(
            if e.detail.starts_with("messageExpression compilation failed") {
                format!("{head}{}", e.detail)
            } else {
                format!("{head}{}{}", e.detail, lines(me))
            },
        );
    }
    if cr.message_expression_max_cost > STATIC_ESTIMATED_COST_LIMIT {
        let m = cost_error(
            Msg::of(&head),
            "estimated messageExpression cost",
            cr.message_expression_max_cost,
            STATIC_ESTIMATED_COST_LIMIT,
        );
        let me = case.message_expression.as_deref().unwrap_or_default();
        return Err(format!("{m}{}", lines(me)));
    }
    if case.optional_old_self && !cr.uses_old_self {
        return Err(format!(
            "{head}`optional_old_self` may not be set if oldSelf is not used in rule{}",
            lines(r)
        ));
    }
    Ok((
        cr.max_cost,
        cr.message_expression_max_cost,
        cr.uses_old_self,
        cr.max_cardinality,
    ))
}

/// What the `const` checker says, given the lowered rule and message expression (`None` when
/// the case has none). The lowered forms are leaked to `'static` for the check and reclaimed
/// after it (see [`crate::reclaim`]).
pub fn compile_time(
    node: &Node,
    case: &Case,
    rule: &Lowered,
    message: Option<&Lowered>,
) -> Verdict {
    let (ast, message_ast) = crate::reclaim::scope(|| (rule.leak(), message.map(Lowered::leak)));
    let src = RuleSrc {
        rule: ast.source,
        ast,
        message_ast,
        optional_old_self: case.optional_old_self,
        field_path: None,
    };
    let site = Site {
        name: node.name,
        items_of: None,
        resource_root: false,
    };
    let verdict = check_rule(site, child(node.shape), &src)
        .map(|i| (i.cost, i.message_cost, i.uses_old_self, i.max_cardinality))
        .map_err(|e| e.to_string());
    // Nothing refers to the leaked forms any more: the verdict owns its text.
    // SAFETY: `ast` and `message_ast` are not used past this point.
    unsafe { crate::reclaim::free_scope() };
    verdict
}

/// Whether the verdicts can be compared: not when the `const` checker reached one of its
/// capacities (a rule too large to check at compile time, more errors than it keeps, a message
/// longer than its buffer), where it says so rather than agreeing.
#[must_use]
pub fn comparable(want: &Verdict, got: &Verdict) -> bool {
    let Err(got) = got else { return true };
    if got.contains("too large to check at compile time") {
        return false;
    }
    if got.len() >= crdkit_shape::MSG_CAP - 8 {
        return false;
    }
    match want {
        Err(want) => {
            want.matches("ERROR: <input>:").count() <= crdkit_shape::cel::MAX_ISSUES
        }
        Ok(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::{Case, comparable, compile_time, nodes, run_time};
    use crdkit_shape::cel::lower::lower_source;

    /// The seeds (real rules, and generated ones) give the same verdicts in both checkers, and
    /// enough of them compile for the comparison of costs to mean something.
    #[test]
    fn seeds_agree() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/seeds/cel_const");
        let (mut compared, mut compiled) = (0, 0);
        for entry in std::fs::read_dir(dir).unwrap() {
            let data = std::fs::read(entry.unwrap().path()).unwrap();
            let case = Case::generate(&data);
            let Ok(rule) = lower_source(&case.rule) else {
                continue;
            };
            let message = match case.message_expression.as_deref().map(lower_source) {
                Some(Ok(m)) => Some(m),
                Some(Err(_)) => continue,
                None => None,
            };
            let node = &nodes()[case.node];
            let want = run_time(node, &case);
            let got = compile_time(node, &case, &rule, message.as_ref());
            if comparable(&want, &got) {
                assert_eq!(want, got, "{case:?} on {}", node.name);
                compared += 1;
                compiled += usize::from(want.is_ok());
            }
        }
        assert!(compared >= 60, "{compared} seeds compared");
        assert!(compiled >= 20, "{compiled} seeds compiled");
    }
}
