//! The environment's inventory, the analogue of apiserver `pkg/cel/library/
//! library_compatibility_test.go`: every function of the CRD rule environment with the
//! Kubernetes version that introduced it (from `environment/base.go`), the Kubernetes
//! libraries' function names as that test lists them, and version gating seen through the
//! checker.

use std::collections::{BTreeMap, BTreeSet};

use crdkit_cel_check::check::compile;
use crdkit_cel_check::env::{CheckEnv, Library, OVERLOADS, TYPE_IDENTS, parse_options};
use crdkit_cel_check::parse_with;
use crdkit_cel_check::types::Type;

/// Every function and the first version that declares it.
const INVENTORY: &[((u32, u32), &[&str])] = &[
    (
        (1, 0),
        &[
            "!_",
            "-_",
            "@in",
            "@not_strictly_false",
            "_!=_",
            "_%_",
            "_&&_",
            "_*_",
            "_+_",
            "_-_",
            "_/_",
            "_<=_",
            "_<_",
            "_==_",
            "_>=_",
            "_>_",
            "_?_:_",
            "_[_]",
            "__not_strictly_false__",
            "_in_",
            "_||_",
            "bool",
            "bytes",
            "charAt",
            "contains",
            "double",
            "duration",
            "dyn",
            "endsWith",
            "find",
            "findAll",
            "getDate",
            "getDayOfMonth",
            "getDayOfWeek",
            "getDayOfYear",
            "getEscapedPath",
            "getFullYear",
            "getHost",
            "getHostname",
            "getHours",
            "getMilliseconds",
            "getMinutes",
            "getMonth",
            "getPort",
            "getQuery",
            "getScheme",
            "getSeconds",
            "in",
            "indexOf",
            "int",
            "isSorted",
            "isURL",
            "join",
            "lastIndexOf",
            "lowerAscii",
            "matches",
            "max",
            "min",
            "replace",
            "size",
            "split",
            "startsWith",
            "string",
            "substring",
            "sum",
            "timestamp",
            "trim",
            "type",
            "uint",
            "upperAscii",
            "url",
        ],
    ),
    (
        (1, 27),
        &[
            "allowed",
            "check",
            "error",
            "errored",
            "group",
            "name",
            "namespace",
            "path",
            "reason",
            "resource",
            "serviceAccount",
            "subresource",
        ],
    ),
    (
        (1, 28),
        &[
            "_?._",
            "_[?_]",
            "add",
            "asApproximateFloat",
            "asInteger",
            "compareTo",
            "first",
            "hasValue",
            "isGreaterThan",
            "isInteger",
            "isLessThan",
            "isQuantity",
            "last",
            "optional.none",
            "optional.of",
            "optional.ofNonZeroValue",
            "optional.unwrap",
            "or",
            "orValue",
            "quantity",
            "sign",
            "sub",
            "unwrapOpt",
            "value",
        ],
    ),
    (
        (1, 29),
        &[
            "format",
            "sets.contains",
            "sets.equivalent",
            "sets.intersects",
            "strings.quote",
        ],
    ),
    (
        (1, 30),
        &[
            "cidr",
            "containsCIDR",
            "containsIP",
            "family",
            "ip",
            "ip.isCanonical",
            "isCIDR",
            "isGlobalUnicast",
            "isIP",
            "isLinkLocalMulticast",
            "isLinkLocalUnicast",
            "isLoopback",
            "isUnspecified",
            "masked",
            "prefixLength",
        ],
    ),
    (
        (1, 31),
        &[
            "fieldSelector",
            "format.byte",
            "format.date",
            "format.datetime",
            "format.dns1035Label",
            "format.dns1035LabelPrefix",
            "format.dns1123Label",
            "format.dns1123LabelPrefix",
            "format.dns1123Subdomain",
            "format.dns1123SubdomainPrefix",
            "format.labelValue",
            "format.named",
            "format.qualifiedName",
            "format.uri",
            "format.uuid",
            "labelSelector",
            "validate",
        ],
    ),
    ((1, 32), &["cel.@mapInsert", "jsonpatch.escapeKey"]),
    ((1, 33), &["isSemver", "major", "minor", "patch", "semver"]),
    (
        (1, 34),
        &[
            "@sortByAssociatedKeys",
            "distinct",
            "flatten",
            "lists.range",
            "reverse",
            "slice",
            "sort",
        ],
    ),
    ((1, 37), &["includes"]),
];

#[test]
fn every_function_with_its_version() {
    let mut got: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for o in OVERLOADS {
        let since = got.entry(o.function).or_insert(o.since);
        *since = (*since).min(o.since);
    }
    let want: BTreeMap<&str, (u32, u32)> = INVENTORY
        .iter()
        .flat_map(|(v, fs)| fs.iter().map(move |f| (*f, *v)))
        .collect();
    assert_eq!(got, want);
}

/// library_compatibility_test.go `knownFunctions`.
#[test]
fn kubernetes_library_functions() {
    let known: BTreeSet<&str> = [
        // Kubernetes 1.24
        "isSorted",
        "sum",
        "max",
        "min",
        "indexOf",
        "lastIndexOf",
        "find",
        "findAll",
        "url",
        "getScheme",
        "getHost",
        "getHostname",
        "getPort",
        "getEscapedPath",
        "getQuery",
        "isURL",
        // Kubernetes <1.27>
        "path",
        "group",
        "serviceAccount",
        "resource",
        "subresource",
        "namespace",
        "name",
        "check",
        "allowed",
        "reason",
        // Kubernetes <1.28>
        "errored",
        "error",
        // Kubernetes <1.29>
        "add",
        "asApproximateFloat",
        "asInteger",
        "compareTo",
        "isGreaterThan",
        "isInteger",
        "isLessThan",
        "isQuantity",
        "quantity",
        "sign",
        "sub",
        // Kubernetes <1.30>
        "ip",
        "family",
        "isUnspecified",
        "isLoopback",
        "isLinkLocalMulticast",
        "isLinkLocalUnicast",
        "isGlobalUnicast",
        "ip.isCanonical",
        "isIP",
        "cidr",
        "containsIP",
        "containsCIDR",
        "masked",
        "prefixLength",
        "isCIDR",
        "string",
        // Kubernetes <1.31>
        "fieldSelector",
        "labelSelector",
        "validate",
        "format.named",
        "isSemver",
        "major",
        "minor",
        "patch",
        "semver",
        // Kubernetes <1.32>
        "jsonpatch.escapeKey",
        // Kubernetes <1.37>
        "includes",
    ]
    .into_iter()
    .collect();
    let kubernetes = |l: Library| format!("{l:?}").starts_with("Kubernetes");
    let got: BTreeSet<&str> = OVERLOADS
        .iter()
        .filter(|o| kubernetes(o.library))
        .map(|o| o.function)
        // The named formats are functions of their own (`format.dns1123Label()`), which the Go
        // test does not list because they are not in `declarations()`.
        .filter(|f| !f.starts_with("format.") || *f == "format.named")
        .collect();
    assert_eq!(got, known);
    // Kubernetes type names: `net.IP` and `net.CIDR` keep their legacy names.
    let types: Vec<&str> = TYPE_IDENTS.iter().map(|t| t.name).collect();
    assert!(types.contains(&"net.IP") && types.contains(&"net.CIDR"));
}

/// Overload ids are unique within a function, and every overload is gated like its library.
#[test]
fn overload_table_is_consistent() {
    let mut seen = BTreeSet::new();
    for o in OVERLOADS {
        let key = (o.function, o.id, o.since, o.removed);
        assert!(seen.insert(key), "duplicate {key:?}");
        assert!(!(o.receiver_style && o.params.is_empty()), "{}", o.id);
    }
}

fn env(v: (u32, u32)) -> CheckEnv {
    CheckEnv::kubernetes(v).with_variable("self", Type::list(Type::String))
}

#[test]
fn version_gating() {
    let ok = |v, e: &str| compile(e, &env(v)).map(|_| ()).map_err(|e| e.to_string());
    let undeclared = |v, e: &str, name: &str| {
        let err = ok(v, e).unwrap_err();
        assert!(
            err.contains(&format!("undeclared reference to '{name}'")),
            "{v:?} {e}: {err}"
        );
    };
    // strings ext v0 before 1.29: no format; v2 from 1.29.
    undeclared((1, 28), "'%s'.format(['a']) == 'a'", "format");
    ok((1, 29), "'%s'.format(['a']) == 'a'").unwrap();
    ok((1, 28), "self.join(',') == 'a'").unwrap();
    // sets from 1.29, IP/CIDR from 1.30, format from 1.31, semver from 1.33.
    // Without the library, `sets` is an undeclared variable and `contains` a string method.
    undeclared((1, 28), "sets.contains(self, ['a'])", "sets");
    ok((1, 29), "sets.contains(self, ['a'])").unwrap();
    undeclared((1, 29), "isIP(self[0])", "isIP");
    ok(
        (1, 30),
        "isIP(self[0]) && cidr('10.0.0.0/8').containsIP(self[0])",
    )
    .unwrap();
    undeclared(
        (1, 30),
        "format.dns1123Label().validate(self[0]).hasValue()",
        "format",
    );
    ok(
        (1, 31),
        "format.dns1123Label().validate(self[0]).hasValue()",
    )
    .unwrap();
    undeclared((1, 32), "isSemver(self[0])", "isSemver");
    ok((1, 33), "isSemver(self[0], true)").unwrap();
    // lists ext from 1.34; Kubernetes lists `includes` from 1.37.
    undeclared((1, 33), "self.distinct() == self", "distinct");
    ok(
        (1, 34),
        "self.sort().reverse() == lists.range(3).map(i, self[i])",
    )
    .unwrap();
    undeclared((1, 36), "self.includes('a')", "includes");
    ok((1, 37), "self.includes('a')").unwrap();
    // Optional types and quantity from 1.28 (the syntax too).
    undeclared((1, 27), "optional.of(1).hasValue()", "optional");
    assert!(parse_with("self[?0]", &parse_options((1, 27))).is_err());
    ok(
        (1, 28),
        "self[?0].orValue('') == quantity('1').sign().string()",
    )
    .unwrap_err();
    ok(
        (1, 28),
        "self[?0].orValue('') == string(sign(quantity('1')))",
    )
    .unwrap();
    // Cross-type numeric comparisons from 1.28.
    assert!(
        ok((1, 27), "1 < 1.5")
            .unwrap_err()
            .contains("found no matching overload for '_<_' applied to '(int, double)'")
    );
    ok((1, 28), "1 < 1.5").unwrap();
    // Two-variable comprehensions from 1.32; sortBy from 1.34.
    undeclared((1, 31), "self.all(i, v, i >= 0)", "all");
    ok((1, 32), "self.all(i, v, i >= 0 && v != '')").unwrap();
    undeclared((1, 33), "self.sortBy(s, s) == self", "sortBy");
    ok((1, 34), "self.sortBy(s, s) == self").unwrap();
}
