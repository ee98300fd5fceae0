//! structured-merge-diff's fieldpath tests (`set_test.go`, `serialize_test.go`,
//! `serialize-pe_test.go`, `path_test.go`, `element_test.go`), transcribed in
//! `tests/data/smd/fieldpath_*.yaml`.

use serde_json::Value;

use crdkit_apply::fieldpath::serialize::{
    UNKNOWN_PATH_ELEMENT_TYPE, deserialize_path_element, serialize_path_element,
};
use crdkit_apply::fieldpath::{Path, PathElement, Set};

use super::common::{path, read_yaml_file};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|s| s.as_str().expect("string").to_owned())
        .collect()
}

fn set_of(v: &Value) -> Set {
    Set::from_paths(
        v.as_array()
            .expect("paths")
            .iter()
            .map(|p| path(&strings(p))),
    )
}

#[test]
fn set_operations() {
    let d = read_yaml_file("smd/fieldpath_set.yaml");
    // TestSetInsertHas
    let s1 = set_of(&d["insert_has"]["set"]);
    for c in d["insert_has"]["checks"].as_array().unwrap() {
        let p = path(&strings(&c["path"]));
        assert_eq!(s1.has(&p), c["member"].as_bool().unwrap(), "{p}");
    }
    assert!(!Set::new().has(&Path::root()));
    assert!(!Set::from_paths([Path::root()]).has(&Path::root()));
    // TestSetString
    let p = path(&["f:foo".into(), "k:{\"name\":\"first\"}".into()]);
    assert_eq!(Set::from_paths([p.clone()]).to_string(), p.to_string());
    // TestSetIterSize
    let s1 = set_of(&d["iter_size"]);
    let mut s2 = Set::new();
    for (added, p) in s1.iter().enumerate() {
        assert_eq!(s2.size(), added);
        assert_eq!(added > 0, !s2.is_empty());
        s2.insert(&p);
    }
    assert_eq!(s1, s2);
    // TestSetEquals
    for c in d["equals"].as_array().unwrap() {
        let (a, b) = (set_of(&c["a"]), set_of(&c["b"]));
        assert_eq!(a == b, c["equal"].as_bool().unwrap(), "{a}\n--\n{b}");
    }
    // TestSetUnion
    let u = &d["union"];
    assert_eq!(set_of(&u["a"]).union(&set_of(&u["b"])), set_of(&u["union"]));
    // TestSetIntersectionDifference
    let t = &d["intersection_difference"];
    let (s1, s2) = (set_of(&t["s1"]), set_of(&t["s2"]));
    assert_eq!(s1.intersection(&s2), set_of(&t["intersection"]));
    assert_eq!(s1.difference(&s2), set_of(&t["s1_minus_s2"]));
    assert_eq!(s2.difference(&s1), set_of(&t["s2_minus_s1"]));
    let not_i = s2.difference(&s1).union(&s1.difference(&s2));
    assert_eq!(s1.union(&s2).difference(&not_i), set_of(&t["intersection"]));
    // TestSetLeaves
    for c in d["leaves"].as_array().unwrap() {
        assert_eq!(
            set_of(&c["input"]).leaves(),
            set_of(&c["expected"]),
            "{}",
            c["name"]
        );
    }
    // TestSetDifference
    for c in d["difference"].as_array().unwrap() {
        let (a, b) = (set_of(&c["a"]), set_of(&c["b"]));
        assert_eq!(a.difference(&b), set_of(&c["difference"]), "{}", c["name"]);
        assert_eq!(
            a.recursive_difference(&b),
            set_of(&c["recursive_difference"]),
            "{}",
            c["name"]
        );
    }
}

#[test]
fn serialize_golden_data() {
    let d = read_yaml_file("smd/fieldpath_serialize.yaml");
    // TestSerializeV1GoldenData: read and written back byte for byte.
    for g in strings(&d["golden"]) {
        let s = Set::from_json_str(&g).unwrap();
        assert_eq!(s.to_json_string(), g);
        assert_eq!(Set::from_value(&s.to_value()).unwrap(), s);
    }
    // TestDeserializeForValidNonNormalized
    for c in d["non_normalized"].as_array().unwrap() {
        let a = Set::from_json_str(c["non_normalized"].as_str().unwrap()).unwrap();
        let b = Set::from_json_str(c["normalized"].as_str().unwrap()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_json_string(), c["normalized"].as_str().unwrap());
    }
    // TestSetFromJSONTokenTypeErrors, TestSetFromJSON
    for c in d["from_json_errors"].as_array().unwrap() {
        let input = c["input"].as_str().unwrap();
        assert!(
            Set::from_json_str(input).is_err(),
            "{}: {input:?}",
            c["name"]
        );
    }
    for c in d["from_json_ok"].as_array().unwrap() {
        let input = c["input"].as_str().unwrap();
        Set::from_json_str(input).unwrap_or_else(|e| panic!("{}: {input:?}: {e}", c["name"]));
    }
    // TestDropUnknown
    let s = Set::from_json_str(d["drop_unknown"]["input"].as_str().unwrap()).unwrap();
    assert_eq!(
        s.to_json_string(),
        d["drop_unknown"]["expect"].as_str().unwrap()
    );
}

#[test]
fn serialize_path_elements() {
    let d = read_yaml_file("smd/fieldpath_serialize.yaml");
    // TestPathElementRoundTrip
    for s in strings(&d["path_element_round_trip"]) {
        let pe = deserialize_path_element(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(serialize_path_element(&pe), s);
    }
    // TestPathElementIgnoreUnknown
    assert_eq!(
        deserialize_path_element("r:Hello").unwrap_err().0,
        UNKNOWN_PATH_ELEMENT_TYPE
    );
    // TestDeserializePathElementError
    for s in strings(&d["path_element_errors"]) {
        assert!(deserialize_path_element(&s).is_err(), "{s:?}");
    }
    // TestDeserializePathElementSuccess
    for c in d["path_element_ok"].as_array().unwrap() {
        let input = c["input"].as_str().unwrap();
        let pe = deserialize_path_element(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(
            serialize_path_element(&pe),
            c["serialized"].as_str().unwrap()
        );
    }
}

#[test]
fn serialize_html_characters_and_numbers() {
    // Values inside keys are written as Go's JSON writer writes them.
    let pe = PathElement::key(vec![
        ("name".into(), serde_json::json!("a<b>&c")),
        ("port".into(), serde_json::json!(8080)),
    ]);
    assert_eq!(
        serialize_path_element(&pe),
        r#"k:{"name":"a\u003cb\u003e\u0026c","port":8080}"#
    );
    assert_eq!(
        serialize_path_element(&PathElement::Value(serde_json::json!(1.5e21))),
        "v:1.5e+21"
    );
}

/// A small deterministic generator for `TestSerializeV1`'s random sets.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % n as u64).unwrap_or(0)
    }
}

#[test]
fn serialize_random_sets_round_trip() {
    // TestSerializeV1: sets of random paths (fields, keys, values, indices) survive a round trip.
    let alphabet = [
        PathElement::field("aaa"),
        PathElement::field("aab"),
        PathElement::field("aac"),
        PathElement::field("aad"),
        PathElement::field("aae"),
        PathElement::field("aaf"),
        PathElement::key(vec![("name".into(), serde_json::json!("first"))]),
        PathElement::key(vec![("name".into(), serde_json::json!("second"))]),
        PathElement::key(vec![
            ("port".into(), serde_json::json!(443)),
            ("protocol".into(), serde_json::json!("tcp")),
        ]),
        PathElement::key(vec![
            ("port".into(), serde_json::json!(443)),
            ("protocol".into(), serde_json::json!("udp")),
        ]),
        PathElement::Value(serde_json::json!(1)),
        PathElement::Value(serde_json::json!(2)),
        PathElement::Value(serde_json::json!(3)),
        PathElement::Value(serde_json::json!("aa")),
        PathElement::Value(serde_json::json!("ab")),
        PathElement::Value(serde_json::json!(true)),
        PathElement::Index(1),
        PathElement::Index(2),
        PathElement::Index(3),
        PathElement::Index(4),
    ];
    let mut rng = Lcg(42);
    for _ in 0..200 {
        let mut s = Set::new();
        for _ in 0..50 {
            let len = 2 + rng.next(4);
            let p = Path(
                (0..len)
                    .map(|_| alphabet[rng.next(alphabet.len())].clone())
                    .collect(),
            );
            s.insert(&p);
        }
        let text = s.to_json_string();
        let back = Set::from_json_str(&text).unwrap();
        assert_eq!(back, s, "{text}");
        assert_eq!(back.to_json_string(), text);
    }
}

#[test]
fn paths_and_elements() {
    let d = read_yaml_file("smd/fieldpath_path.yaml");
    // TestPathString
    for c in d["path_string"].as_array().unwrap() {
        let p = path(&strings(&c["path"]));
        assert_eq!(
            p.to_string(),
            c["expect"].as_str().unwrap(),
            "{}",
            c["name"]
        );
    }
    // TestPathElementLess
    for c in d["element_less"].as_array().unwrap() {
        let a = deserialize_path_element(c["a"].as_str().unwrap()).unwrap();
        let b = deserialize_path_element(c["b"].as_str().unwrap()).unwrap();
        if c["eq"].as_bool() == Some(true) {
            assert_eq!(a, b, "{}", c["name"]);
        } else {
            assert!(a < b, "{}", c["name"]);
            assert!(b >= a, "{}", c["name"]);
        }
    }
}
