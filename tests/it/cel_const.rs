//! The `const` CEL checker against the run-time checker: for every rule of a corpus on every
//! schema node of a set of derived types (renames, escaping, flattened structs, each serde enum
//! representation, lists, maps, int-or-string, `serde_json::Value`, embedded resources), the
//! compile-time verdict, message and costs must equal what the run-time checker (the
//! API server's compilation) gives on the structural schema built from the same shape.

use std::collections::BTreeMap;

use crdkit::Schema;
use crdkit_cel_check::cost::STATIC_ESTIMATED_COST_LIMIT;
use crdkit_cel_check::decl::schema_decl_type;
use crdkit_cel_check::rule::{RuleOptions, compile_rule};
use crdkit_schema::ValidationRule;
use crdkit_shape::cel::{RuleSrc, Site, check_rule, child, cost_error, lower::lower_source};
use crdkit_shape::{Msg, Shape, build::build};
use serde::{Deserialize, Serialize};

#[derive(Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    name: String,
    #[crd(max_length = 64)]
    value: Option<String>,
    foo: i64,
    #[crd(default = 3)]
    weight: i64,
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Env {
    name: String,
    value: String,
}

#[derive(Schema, Serialize, Deserialize)]
struct Widget {
    key: String,
    foo: i64,
    priority: i32,
}

#[derive(Schema, Serialize, Deserialize)]
enum Mode {
    Low,
    Medium,
    High,
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Choice {
    Count(i64),
    Named { name: String, size: Option<i64> },
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Tagged {
    Circle { radius: f64 },
    Square { side: f64, label: Option<String> },
    Empty,
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Num(i64),
    Text(String),
    Nothing,
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(untagged)]
enum IntOrStr {
    Int(i64),
    Str(String),
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(untagged)]
enum Either {
    A { alpha: i64 },
    B { beta: String },
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Extra {
    extra_a: Option<String>,
    #[crd(max_items = 3)]
    extra_list: Vec<i64>,
}

#[derive(Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    replicas: i32,
    min_replicas: i64,
    max_replicas: i64,
    name: String,
    prefix: String,
    #[crd(max_length = 10)]
    short: String,
    #[crd(format = "date-time")]
    created: String,
    #[crd(format = "duration")]
    ttl: String,
    #[crd(format = "date-time")]
    expired: Option<String>,
    #[crd(format = "date")]
    day: Option<String>,
    #[crd(format = "byte")]
    data: Option<String>,
    ratio: f64,
    enabled: bool,
    health: String,
    primary: String,
    tags: Vec<String>,
    #[crd(max_items = 25, items(max_length = 10))]
    bounded: Vec<String>,
    labels: BTreeMap<String, String>,
    state_counts: BTreeMap<String, i64>,
    items: Vec<Item>,
    #[crd(list_type = "map", list_map_keys("name"))]
    envars: Vec<Env>,
    #[crd(list_type = "map", list_map_keys("name"))]
    clusters: Vec<Env>,
    widgets: Vec<Widget>,
    components: BTreeMap<String, Widget>,
    #[crd(list_type = "set")]
    set1: Vec<String>,
    #[crd(list_type = "set")]
    set2: Vec<String>,
    names: Vec<String>,
    details: BTreeMap<String, String>,
    list1: Vec<i64>,
    list2: Vec<i64>,
    #[serde(rename = "x-prop")]
    x_prop: Option<i64>,
    #[serde(rename = "namespace")]
    ns: Option<i64>,
    #[serde(rename = "a.b/c")]
    abc: Option<i64>,
    #[serde(rename = "redact__d")]
    redact: Option<i64>,
    #[serde(rename = "1st")]
    first: Option<i64>,
    any: serde_json::Value,
    anys: Vec<serde_json::Value>,
    #[crd(int_or_string)]
    port: serde_json::Value,
    mode: Mode,
    choice: Choice,
    tagged: Tagged,
    adjacent: Adjacent,
    int_or_str: IntOrStr,
    either: Either,
    matrix: Vec<Vec<i64>>,
    #[serde(flatten)]
    extra: Extra,
}

#[derive(Schema, Serialize, Deserialize)]
struct Status {
    actual: i64,
    available_replicas: i64,
}

/// A resource root as `#[derive(CustomResource)]` writes it.
#[derive(Schema, Serialize, Deserialize)]
#[crd(embedded_resource)]
#[serde(rename_all = "camelCase")]
struct Root {
    api_version: String,
    kind: String,
    metadata: crdkit::ObjectMeta,
    spec: Spec,
    status: Option<Status>,
}

/// Every size bounded, so that costs compare as numbers.
#[derive(Schema, Serialize, Deserialize)]
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
    #[crd(max_length = 16)]
    memory: String,
    #[crd(max_length = 16)]
    version: String,
    #[crd(max_items = 20, items(max_length = 16))]
    tags: Vec<String>,
    #[crd(max_items = 8, items(max_length = 16))]
    others: Vec<String>,
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
    #[crd(format = "duration")]
    ttl: String,
    #[crd(format = "byte", max_length = 64)]
    data: String,
    template: Embedded,
}

/// An embedded resource inside a spec.
#[derive(Schema, Serialize, Deserialize)]
#[crd(embedded_resource)]
#[serde(rename_all = "camelCase")]
struct Embedded {
    api_version: String,
    kind: String,
    metadata: crdkit::ObjectMeta,
    #[crd(max_length = 10)]
    prefix: String,
}

#[derive(Schema, Serialize, Deserialize)]
struct WithMap {
    #[serde(flatten)]
    entries: BTreeMap<String, Widget>,
}

#[derive(Schema, Serialize, Deserialize)]
struct WithMeta {
    metadata: crdkit::ObjectMeta,
    count: i64,
}

/// The rules, valid and invalid, each with an optional `messageExpression` and
/// `optionalOldSelf`.
const RULES: &[&str] = &[
    // The documentation's table.
    "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
    "'Available' in self.stateCounts",
    "(size(self.list1) == 0) != (size(self.list2) == 0)",
    "!('MY_KEY' in self.labels) || self['MY_KEY'].matches('^[a-zA-Z]*$')",
    "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
    "has(self.expired) && self.created + self.ttl < timestamp(self.expired)",
    "has(self.expired) && self.created + self.ttl < self.expired",
    "self.health.startsWith('ok')",
    "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
    "type(self) == string ? self == '100%' : self == 1000",
    "self.metadata.name.startsWith(self.prefix)",
    "self.set1.all(e, !(e in self.set2))",
    "size(self.names) == size(self.details) && self.names.all(n, n in self.details)",
    "size(self.clusters.filter(c, c.name == self.primary)) == 1",
    "self.status.actual <= self.spec.maxReplicas",
    "self.components['Widget'].priority < 10",
    "self.list1.all(value, value >= 0 && value < 100)",
    "self.startsWith('kube')",
    "self.all(x, x.contains('a string'))",
    "self.all(e, e.name != '')",
    "self['xyz'].foo > 0",
    "size(self) == 1",
    "self > 0",
    "self == true",
    "has(self.name)",
    "self.nonExistingField > 0",
    "self.replicas",
    "self.x__dash__prop > 0",
    "self.__namespace__ > 0",
    "self.namespace > 0",
    "self.a__dot__b__slash__c > 0",
    "self.redact__underscores__d > 0",
    "self.any == 1",
    "self.anys.size() == 0",
    "type(self.port) == int ? self.port > 0 : self.port.matches('^[0-9]+%$')",
    "self.port > 0",
    "self.mode == 'Low'",
    "self.mode in ['Low', 'High']",
    "has(self.choice.count) || has(self.choice.named)",
    "self.choice.named.name != ''",
    "self.choice.count > 0",
    "self.tagged.kind == 'circle' ? self.tagged.radius > 0.0 : true",
    "self.tagged.side > 1",
    "self.adjacent.t == 'Num'",
    "self.adjacent.c == 1",
    "self.intOrStr == 'x'",
    "self.either.alpha > 0 || self.either.beta != ''",
    "self.extraA != '' && size(self.extraList) < 3",
    "self.matrix.all(row, row.all(x, x > 0))",
    "self.items.all(i, i.name.size() < 10)",
    "self.items.map(i, i.weight).sum() > 0",
    "self.items.exists_one(i, i.foo == 1)",
    "self.tags.join(',').size() < 100",
    "self.tags.sort() == self.tags",
    "self.bounded.all(x, x.contains('a string'))",
    "self.tags.all(x, x.contains('a string'))",
    "self.labels.all(k, v, k.size() < v.size())",
    "self.labels.exists(k, k == 'a')",
    "[1, 'a'].size() == 2",
    "{'a': 1, 'b': 'c'}.size() == 2",
    "duration('1x') > duration('1s')",
    "self.name.matches('[')",
    "'%d'.format([self.name]) == ''",
    "'%s %s'.format([self.name]) == ''",
    "'%d'.format([self.replicas, 1]) == ''",
    "self.created > timestamp('2020-01-01T00:00:00Z')",
    "self.data.size() > 0",
    "self.day < self.created",
    "self.ratio > 1",
    "self.ratio > 1.0 && self.replicas < 2.5",
    "self.?maybe.orValue(1) == 1",
    "self.?name.orValue('') == ''",
    "optional.of(self.replicas).value() == 1",
    "sets.contains(self.tags, ['a'])",
    "self.tags.indexOf('a') >= 0",
    "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
    "isURL(self.name) && url(self.name).getHost() != ''",
    "ip(self.name).family() == 4",
    "self.name.split('.').size() < 3",
    "self.name.lowerAscii() == self.name",
    "self.name.replace('a', 'b') == ''",
    "self.name.find('[a-z]+') != ''",
    "self.name == oldSelf.name",
    "self == oldSelf",
    "self.replicas >= oldSelf.replicas",
    "self.items.all(element, element in oldSelf.items)",
    "oldSelf != 'bar' || self == 'bar'",
    "!has(oldSelf.name) || has(self.name)",
    "self.replicas + 1",
    "self.unknownFn()",
    "undefinedVar > 1",
    "self.items[0].name == ''",
    "self.labels.foo == ''",
    "self.replicas.foo > 1",
    "[].all(x, x > 1)",
    "{}.size() == 0",
    "int{}",
    "self.name.size() > 1 && self.name.size() > 'a'",
    "self.spec.replicas > 0",
    "self.kind == 'X' && self.apiVersion != ''",
    "self.metadata.generateName != ''",
    "self.metadata.labels.size() > 0",
    "self.count > 0",
    "self.keys().size() > 0",
    "self.all(k, self[k].foo > 0)",
    "self.items.all(i, has(i.value) && i.value.size() > 0)",
    "self.envars.all(e, e.name == oldSelf.envars[0].name)",
    "1 + 'a' == 2 || self.x > 1",
    "self.tags.min() == ''",
    "self.list1.max() > 0",
    "self.list1.isSorted()",
    // Libraries, on bounded sizes.
    "isIP(self.address) && ip(self.address).family() == 4",
    "ip.isCanonical(self.address)",
    "isCIDR(self.cidr) && cidr(self.cidr).containsIP(self.address)",
    "cidr(self.cidr).containsCIDR('10.0.0.0/24') && cidr(self.cidr).prefixLength() < 32",
    "cidr(self.cidr).ip() == ip(self.address)",
    "isQuantity(self.memory) && quantity(self.memory).isLessThan(quantity('1Gi'))",
    "quantity(self.memory).add(1).sign() > 0 && quantity(self.memory).asApproximateFloat() > 1.0",
    "isSemver(self.version) && semver(self.version).major() >= 1",
    "semver(self.version, true).isGreaterThan(semver('1.0.0'))",
    "isURL(self.host) && url(self.host).getScheme() == 'https' && url(self.host).getQuery().size() == 0",
    "!format.dns1123Label().validate(self.name).hasValue()",
    "format.named('dns1123Subdomain').hasValue()",
    "self.name.find('[0-9]+') == '' && self.name.findAll('[a-z]', 2).size() <= 2",
    "self.host.split('.', 3).size() <= 3 && self.host.replace('.', '-', 1) != ''",
    "self.name.charAt(0) != '-' && self.name.indexOf('x', 1) < 5 && self.name.lastIndexOf('y') < 5",
    "self.name.substring(1, 3).upperAscii() != '' && self.name.trim() == self.name",
    "self.tags.join('-').size() < 400 && strings.quote(self.name) != ''",
    "'%s has %d tags (%.2f)'.format([self.name, size(self.tags), 1.0]) != ''",
    "'%x %o %b %e %X'.format([size(self.tags), 8, true, 1.5, self.name]) != ''",
    "sets.contains(self.tags, self.others) || sets.intersects(self.tags, ['a']) || sets.equivalent(self.tags, self.others)",
    "self.numbers.sum() < 100 && self.numbers.min() >= 0 && self.numbers.max() < 10 && self.numbers.isSorted()",
    "self.ratios.sum() < 10.0 && self.tags.indexOf('a') < self.tags.lastIndexOf('b')",
    "self.numbers.slice(0, 2).size() <= 2 && lists.range(3).size() == 3 && self.numbers.reverse().size() == size(self.numbers)",
    "self.matrix.flatten().size() < 16 && self.numbers.distinct().size() <= 10 && self.numbers.sort() == self.numbers",
    "self.tags.sortBy(t, t.size()).size() == size(self.tags)",
    "self.numbers.first().orValue(0) >= 0 && self.numbers.last().hasValue()",
    "self.labels.transformList(k, v, k + v).size() < 20",
    "self.labels.transformMap(k, v, v.size()).all(k, v, v < 21)",
    "self.labels.transformMapEntry(k, v, {v: k}).size() <= 10",
    "self.numbers.transformList(i, n, n > 0, i + n).size() <= 10",
    "self.tags.exists(i, t, i == 0 && t == 'first')",
    "self.labels.existsOne(k, v, v == 'x')",
    "optional.ofNonZeroValue(self.name).orValue('x') != '' && optional.none().orValue(1) == 1",
    "self.?labels.orValue({}).size() < 11",
    "self.labels[?'a'].orValue('') == '' && self.tags[?0].hasValue()",
    "[?optional.of(1), ?optional.none()].size() == 1 && {?'a': optional.of(1)}.size() == 1",
    "optional.unwrap([optional.of(1)]) == [1] && [optional.of(2)].unwrapOpt() == [2]",
    "self.items.map(i, i.foo).filter(f, f > 0).size() >= 0",
    "self.items.exists(i, i.value.orValue('') == 'x') || self.items.all(i, !has(i.value))",
    "self.created + self.ttl > timestamp('2020-01-01T00:00:00Z') && self.created.getFullYear() > 2000",
    "self.ttl.getHours() < 24 && duration('1h30m') > self.ttl && self.created.getDayOfWeek('America/New_York') >= 0",
    "self.data.size() < 48 && string(self.data) != '' && bytes(self.name) != b''",
    "int(self.memory) > 0 || uint(1) == 1u || double(self.numbers.size()) > 0.5",
    "dyn(self.name) == 'x' || type(self.numbers) == list",
    "self.name.matches('^[a-z]+$') && self.host.endsWith('.com') && self.host.startsWith('www.')",
    "self.template.metadata.name.startsWith(self.template.prefix) && self.template.kind != ''",
    "self.metadata.name.startsWith(self.prefix) && self.apiVersion != ''",
    "self.items.all(i, self.items.exists_one(j, j.name == i.name))",
    "self.labels.all(k, self.labels[k].size() < 21 && k in self.labels)",
    "self.name in self.labels && self.labels.size() < 11 && 'x' in self.tags",
    "self.numbers.map(n, n * 2).exists(n, n > 10) ? self.name.size() > 2 : self.host.size() > 2",
    "self.numbers.all(n, n in [1, 2, 3]) && [1, 2].all(x, x in self.numbers)",
    "self.tags.map(t, t.lowerAscii()).join(',').contains(',')",
    "self.items[0].foo == 1 && self.labels['a'] == 'b' && self.numbers[1] == 2",
    "self.items.filter(i, i.foo > 0).map(i, i.name).join(',').size() < 100",
    "self.labels.map(k, k + '!').size() < 20",
    "self.host.lowerAscii().split('.').all(p, p.size() < 64)",
    "self.matrix.all(row, row.all(x, x >= 0)) && self.matrix.map(r, r.sum()).sum() < 100",
    "self.numbers.includes(1)",
    "has(self.template.metadata.name) && has(self.template.prefix)",
    "self.foo.bar.baz == 1",
    "self.name.size() + 1u > 2",
    "self.numbers.sum() + 1.5 > 2.0",
    "quantity(self.memory) == quantity('1Gi')",
    "url(self.host) == url('https://a.b')",
];

/// The nodes the rules are checked on.
fn shapes() -> Vec<(&'static str, &'static Shape)> {
    vec![
        ("Spec", &Spec::SHAPE),
        ("Bounded", &Bounded::SHAPE),
        ("Embedded", &Embedded::SHAPE),
        ("Root", &Root::SHAPE),
        ("Item", &Item::SHAPE),
        ("Status", &Status::SHAPE),
        ("WithMap", &WithMap::SHAPE),
        ("WithMeta", &WithMeta::SHAPE),
        ("Mode", &Mode::SHAPE),
        ("Choice", &Choice::SHAPE),
        ("Tagged", &Tagged::SHAPE),
        ("Adjacent", &Adjacent::SHAPE),
        ("IntOrStr", &IntOrStr::SHAPE),
        ("Either", &Either::SHAPE),
        ("Vec<String>", &<Vec<String>>::SHAPE),
        ("Vec<Item>", &<Vec<Item>>::SHAPE),
        ("Map<Widget>", &<BTreeMap<String, Widget>>::SHAPE),
        ("i64", &i64::SHAPE),
        ("String", &String::SHAPE),
        ("bool", &bool::SHAPE),
        ("Value", &serde_json::Value::SHAPE),
    ]
}

/// What the run-time checker says, in the const checker's words.
fn run_time(
    shape: &Shape,
    site: &str,
    r: &str,
    message_expression: Option<&str>,
    oos: bool,
) -> Result<(u64, u64, bool, u64), String> {
    let head = format!("invalid rule on `{site}`: ");
    let lines = |src: &str| -> String { src.split('\n').map(|l| format!("\n | {l}")).collect() };
    let s = build(shape).expect("builds");
    let Some(decl) = schema_decl_type(&s, shape.embedded_resource) else {
        return Err(format!(
            "{head}internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations{}",
            lines(r)
        ));
    };
    let rule = ValidationRule {
        rule: r.to_owned(),
        message_expression: message_expression.unwrap_or_default().to_owned(),
        optional_old_self: oos.then_some(true),
        ..ValidationRule::default()
    };
    let cr = compile_rule(&rule, &decl, &RuleOptions::default());
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
        let me = message_expression.unwrap();
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
        return Err(format!("{m}{}", lines(message_expression.unwrap())));
    }
    if oos && !cr.uses_old_self {
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

/// Field paths: the compile-time resolution against apiextensions `ValidFieldPath` on the
/// built schema.
#[test]
fn field_paths_agree() {
    use crdkit_schema::valid_field_path;
    use crdkit_shape::cel::resolve_field_path;
    let paths: &[(&str, &[&str])] = &[
        (".replicas", &["replicas"]),
        (".items", &["items"]),
        (".items.name", &["items", "name"]),
        (".labels.foo", &["labels", "foo"]),
        (".labels['a.b']", &["labels", "a.b"]),
        (".components.w.priority", &["components", "w", "priority"]),
        (".components.w.nope", &["components", "w", "nope"]),
        (".choice.named.name", &["choice", "named", "name"]),
        (".tagged.radius", &["tagged", "radius"]),
        (".tagged.kind", &["tagged", "kind"]),
        (".adjacent.c", &["adjacent", "c"]),
        (".either.alpha", &["either", "alpha"]),
        (".extraA", &["extraA"]),
        (".any.x", &["any", "x"]),
        (".any", &["any"]),
        (".x-prop", &["x-prop"]),
        (".metadata.name", &["metadata", "name"]),
        (".spec.replicas", &["spec", "replicas"]),
        (".template.metadata.name", &["template", "metadata", "name"]),
        (".prefix", &["prefix"]),
        (".entries", &["entries"]),
        (".x.foo", &["x", "foo"]),
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, shape) in shapes() {
        let s = build(shape).expect("builds");
        for (path, steps) in paths {
            let want = valid_field_path(path, &s, true).is_ok();
            let got = resolve_field_path(child(shape), steps).is_ok();
            checked += 1;
            if want != got {
                failures.push(format!(
                    "{path} on {name}: run time {want}, compile time {got}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{checked} field paths agree");
}

fn compile_time(
    shape: &'static Shape,
    site: &'static str,
    r: &'static str,
    message_expression: Option<&'static str>,
    oos: bool,
) -> Result<(u64, u64, bool, u64), String> {
    let ast = lower_source(r).expect("parses").leak();
    let message_ast = message_expression.map(|m| lower_source(m).expect("parses").leak());
    let src = RuleSrc {
        rule: r,
        ast,
        message_ast,
        optional_old_self: oos,
        field_path: None,
    };
    let site = Site {
        name: site,
        items_of: None,
        resource_root: false,
    };
    check_rule(site, child(shape), &src)
        .map(|i| (i.cost, i.message_cost, i.uses_old_self, i.max_cardinality))
        .map_err(|e| e.to_string())
}

#[test]
fn const_checker_agrees_with_run_time_checker() {
    let mut cases = Vec::new();
    for r in RULES {
        for (name, shape) in shapes() {
            cases.push((name, shape, *r, None, false));
        }
    }
    let extra: &[(&str, Option<&str>, bool)] = &[
        (
            "self.replicas > 0",
            Some("'replicas: ' + string(self.replicas)"),
            false,
        ),
        ("self.replicas > 0", Some("self.replicas"), false),
        ("self.replicas > 0", Some("'x' + self.replicas"), false),
        ("self.replicas > 0", Some("self.tags.join(', ')"), false),
        ("self.replicas > 0", None, true),
        ("self.replicas >= oldSelf.replicas", None, true),
        (
            "!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas",
            None,
            true,
        ),
        (
            "oldSelf.optMap(o, o.tags.size()).orValue(0) < 4 || self.tags.size() >= 4",
            None,
            true,
        ),
        (
            "self.name == 'foo' || (oldSelf.hasValue() && oldSelf.value().name != 'foo')",
            None,
            true,
        ),
    ];
    for (r, m, oos) in extra {
        cases.push(("Spec", &Spec::SHAPE, r, *m, *oos));
    }
    let (mut agreed, mut failures) = (0, Vec::new());
    let (mut ok, mut err) = (0, 0);
    for (site, shape, r, m, oos) in cases {
        let want = run_time(shape, site, r, m, oos);
        let got = compile_time(shape, site, r, m, oos);
        if want == got {
            agreed += 1;
            if want.is_ok() {
                ok += 1;
            } else {
                err += 1;
            }
        } else {
            failures.push(format!(
                "rule {r:?} on {site}:\n  run time:     {want:?}\n  compile time: {got:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} disagree:\n{}",
        failures.len(),
        agreed + failures.len(),
        failures.join("\n")
    );
    eprintln!("{agreed} cases agree ({ok} compile, {err} errors)");
}
