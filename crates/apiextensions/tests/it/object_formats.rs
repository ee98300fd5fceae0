//! The string formats the API server enables, with the good and bad values of kube-openapi
//! `pkg/validation/strfmt` `default_test.go`, `date_test.go`, `time_test.go`,
//! `duration_test.go`, `bson_test.go` and `kubernetes-extensions_test.go`, and the names of
//! apiextensions-apiserver `pkg/apiserver/validation/formats_test.go`.
//!
//! Random UUIDs of the Go tests are fixed here (the same name-based UUIDs, random v4 ones).

use crate::common;

use common::{compiled, openapi_errors};
use crdkit_apiextensions::validate::Format;
use serde_json::json;

fn check(format: &str, valid: &[&str], invalid: &[&str]) {
    let f = Format::parse(format).unwrap_or_else(|| panic!("format {format} unknown"));
    for v in valid {
        assert!(f.validates(v), "{format}: {v:?} should be valid");
    }
    for v in invalid {
        assert!(!f.validates(v), "{format}: {v:?} should be invalid");
    }
}

#[test]
fn uri_email() {
    check(
        "uri",
        &["http://somewhere.com", "http://somewhereelse.com"],
        &["somewhere.com"],
    );
    check(
        "email",
        &[
            "somebody@somewhere.com",
            "somebodyelse@somewhere.com",
            "blah@gmail.com",
            "test@d.verylongtoplevel",
            "email+tag@gmail.com",
            r#"" "@example.com"#,
            r#""Abc\@def"@example.com"#,
            r#""Fred Bloggs"@example.com"#,
            r#""Joe\\Blow"@example.com"#,
            r#""Abc@def"@example.com"#,
            "customer/department=shipping@example.com",
            "$A12345@example.com",
            "!def!xyz%abc@example.com",
            "_somename@example.com",
            "!#$%&'*+-/=?^_`{}|~@example.com",
            "Miles.O'Brian@example.com",
            "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws",
            "root@localhost",
            "john@com",
            "api@piston.ninja",
        ],
        &["somebody@somewhere@com"],
    );
}

#[test]
fn hostname() {
    let very_long = "a".repeat(256);
    let long_segment = format!("x.y.{}", "a".repeat(64));
    check(
        "hostname",
        &[
            "somewhere.com",
            "888.com",
            "a.com",
            "a.b.com",
            "a.b.c.com",
            "a.b.c.d.com",
            "a.b.c.d.e.com",
            "1.com",
            "1.2.com",
            "1.2.3.com",
            "1.2.3.4.com",
            "99.domain.com",
            "99.99.domain.com",
            "1wwworg.example.com",
            "1000wwworg.example.com",
            "xn--bcher-kva.example.com",
            "xn-80ak6aa92e.co",
            "xn-80ak6aa92e.com",
            "xn--ls8h.la",
            "☁→❄→☃→☀→☺→☂→☹→✝.ws",
            "www.example.onion",
            "www.example.ôlà",
            "ôlà.ôlà",
            "ôlà.ôlà.ôlà",
            "ex$ample",
            "localhost",
            "example",
            "x",
            "x-y",
            "a.b.c.dot",
            "www.example.org",
            "a.b.c.d.e.f.g.dot",
            "ex=ample.com",
            "<foo>",
            "www.example-hyphenated.org",
            "www.詹姆斯.org",
            "www.élégigôö.org",
            "www.詹姆斯.london",
        ],
        &[
            "somewhere.com!",
            "user@email.domain",
            "1.1.1.1",
            &very_long,
            &long_segment,
            "www.example-.org",
            "www.--example.org",
            "-www.example.org",
            "www-.example.org",
            "www.d-.org",
            "www.-d.org",
            "www-",
            "-www",
            "www.ex ample.org",
            "_www.example.org",
            "www.ex;ample.org",
            "www.example_underscored.org",
            "www.詹姆斯.x",
            "a.b.c.d",
            "-xyz",
            "xyz-",
            "x.",
            "a.b.c.dot-",
            "a.b.c.é;ö",
        ],
    );
}

#[test]
fn network() {
    check(
        "ipv4",
        &[
            "192.168.254.1",
            "192.168.254.2",
            "127.0.0.1",
            "192.168.1.1",
            "192.168.1.01",
        ],
        &["198.168.254.2.2"],
    );
    check("ipv6", &["::1", "::2"], &["127.0.0.1"]);
    check(
        "cidr",
        &[
            "192.168.254.1/24",
            "192.168.254.2/24",
            "192.0.2.1/24",
            "192.0.02.1/24",
            "2001:db8:a0b:12f0::1/32",
        ],
        &["198.168.254.2", "2001:db8:a0b:12f0::1"],
    );
    check(
        "mac",
        &["01:02:03:04:05:06", "06:05:04:03:02:01"],
        &["01:02:03:04:05"],
    );
}

#[test]
fn uuids() {
    check(
        "uuid3",
        &[
            "fba4f6bb-77ab-3976-8146-0a48a348c416",
            "d5500955-d3f8-3ae2-a872-0a9b9c16c503",
        ],
        &["not-a-uuid"],
    );
    check(
        "uuid4",
        &[
            "8f5ba5a2-3c52-4c8a-9a1e-0b7b1b5b4c2d",
            "E5F5A1B2-9D3C-4E7F-B123-456789ABCDEF",
        ],
        &["not-a-uuid"],
    );
    check(
        "uuid5",
        &[
            "b1690c37-3ee8-5346-b699-8c23cac63839",
            "051fe46f-224a-544a-af5e-c946d53d98b6",
        ],
        &["not-a-uuid"],
    );
    check(
        "uuid",
        &[
            "b1690c37-3ee8-5346-b699-8c23cac63839",
            "051fe46f-224a-544a-af5e-c946d53d98b6",
        ],
        &["not-a-uuid"],
    );
    check("bsonobjectid", &["507f1f77bcf86cd799439011"], &[]);
}

#[test]
fn numbers_and_colors() {
    check("isbn", &["0321751043"], &["836217463"]);
    check("isbn10", &["0321751043"], &["836217463"]);
    check("isbn13", &["978-0321751041"], &["978-0321751042"]);
    check("hexcolor", &["#FFFFFF", "#000000"], &["#fffffffz"]);
    check(
        "rgbcolor",
        &["rgb(255,255,255)", "rgb(0,0,0)"],
        &["rgb(300,0,0)"],
    );
    check("ssn", &["111-11-1111", "999 99 9999"], &["999 99 999"]);
    check(
        "creditcard",
        &["4111-1111-1111-1111", "4012-8888-8888-1881"],
        &["9999-9999-9999-999"],
    );
    check(
        "password",
        &[
            "super secret stuff here",
            "super secret!!!",
            "even more secret",
        ],
        &[],
    );
    check(
        "byte",
        &["VGhpcyBpcyBhIGJ5dGUgYXJyYXkgd2l0aCB1bnByaW50YWJsZSBjaGFycywgYnV0IGl0IGFsc28gaXNu"],
        &["ZWxpemFiZXRocG9zZXk"],
    );
}

#[test]
fn dates_and_durations() {
    check(
        "date",
        &["2017-12-22", "2000-02-29", "2400-02-29", "2014-12-15"],
        &[
            "2017-1-1",
            "17-13-22",
            "2017-02-29",
            "1900-02-29",
            "2100-02-29",
            "2017-13-22",
            "2017-12-32",
            "20171-12-32",
            "YYYY-MM-DD",
            "20-17-2017",
            "2017-12-22T01:02:03Z",
            "",
            "yada",
            "1972/01/01",
        ],
    );
    check(
        "date-time",
        &[
            "2014-12-15T08:00:00.000Z",
            "2011-08-18T19:03:37.000+01:00",
            "2014-12-15T19:30:20.000Z",
            "0001-01-01T00:00:00.000Z",
            "1970-01-01T00:00:00.000Z",
        ],
        &[
            "zor",
            "zorg",
            "zorgTx",
            "1972-12-31Tx",
            "1972-12-31T24:40:00.000Z",
            "1972-12-31T23:63:00.000Z",
            "1972-12-31T23:59:60.000Z",
            "yada",
            "zorg emperor",
        ],
    );
    let mut good: Vec<String> = [
        "ns",
        "us",
        "µs",
        "ms",
        "s",
        "m",
        "h",
        "hr",
        "d",
        "w",
        "wk",
        "nanoseconds",
        "nanos",
        "microseconds",
        "micros",
        "millis",
        "milliseconds",
        "second",
        "sec",
        "min",
        "minute",
        "hour",
        "day",
        "week",
    ]
    .iter()
    .flat_map(|u| [format!("1{u}"), format!("1  {u}")])
    .collect();
    good.extend(
        [
            "0ms",
            "2ms",
            "45 weeks",
            "45 weekz",
            "12 hours",
            "12 minutes",
        ]
        .map(String::from),
    );
    let good: Vec<&str> = good.iter().map(String::as_str).collect();
    check(
        "duration",
        &good,
        &[
            "yada",
            "three week",
            "12 parsecs",
            "12 y",
            "45 wekk",
            "45 weeekks",
            "12 phours",
        ],
    );
}

#[test]
fn kubernetes_names() {
    let a63 = "a".repeat(63);
    let a64 = "a".repeat(64);
    let mut short_bad = vec![
        "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "-a", "-1", "_", "a_", "_a", "a_b", "1_",
        "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1",
        "1 2", &a64,
    ];
    short_bad.extend(["a-", "1-"]);
    check(
        "k8s-short-name",
        &[
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            &a63,
        ],
        &short_bad,
    );
    let a253 = "a".repeat(253);
    let a254 = "a".repeat(254);
    let mut long_bad = vec![
        "",
        "A",
        "ABC",
        "aBc",
        "A1",
        "A-1",
        "1-A",
        "-",
        "-a",
        "-1",
        "_",
        "a_",
        "_a",
        "a_b",
        "1_",
        "_1",
        "1_2",
        ".",
        "a.",
        ".a",
        "a..b",
        "1.",
        ".1",
        "1..2",
        " ",
        "a ",
        " a",
        "a b",
        "1 ",
        " 1",
        "1 2",
        "A.a",
        "aB.a",
        "ab.A",
        "A1.a",
        "a1.A",
        "A.1",
        "aB.1",
        "A1.1",
        "1A.1",
        "0.A",
        "01.A",
        "012.A",
        "1A.a",
        "1a.A",
        "A.B.C.D.E",
        "AA.BB.CC.DD.EE",
        "a.B.c.d.e",
        "aa.bB.cc.dd.ee",
        "a@b",
        "a,b",
        "a_b",
        "a;b",
        "a:b",
        "a%b",
        "a?b",
        "a$b",
        &a254,
    ];
    long_bad.extend(["a-", "1-"]);
    check(
        "k8s-long-name",
        &[
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "a.a",
            "ab.a",
            "abc.a",
            "a1.a",
            "a-1.a",
            "a--1--2--b.a",
            "a.1",
            "ab.1",
            "abc.1",
            "a1.1",
            "a-1.1",
            "a--1--2--b.1",
            "0.a",
            "01.a",
            "012.a",
            "1a.a",
            "1-a.a",
            "0.1",
            "01.1",
            "012.1",
            "1a.1",
            "1-a.1",
            "1--a--b--2.1",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
            &a253,
        ],
        &long_bad,
    );
}

/// `formats_test.go` `TestGetUnrecognizedFormats` and the post-processor: format names are
/// compared without dashes; unknown ones (and any but int32/int64, float/double on numbers)
/// are not checked.
#[test]
fn format_names() {
    for name in [
        "email",
        "uuid",
        "k8s-short-name",
        "k8sshortname",
        "date-time",
        "datetime",
    ] {
        assert!(Format::parse(name).is_some(), "{name}");
    }
    for name in ["", "unknown-format", "int32", "UUID"] {
        assert!(Format::parse(name).is_none(), "{name}");
    }
    let s = compiled(json!({"type": "object", "properties": {
        "u": {"type": "string", "format": "unknown-format"},
        "n": {"type": "integer", "format": "uuid"},
        "s": {"type": "string", "format": "k8sshortname"}}}));
    assert!(openapi_errors(&s, &json!({"u": "x y", "n": 1, "s": "a"})).is_empty());
    assert_eq!(
        openapi_errors(&s, &json!({"s": "A"})),
        [r#"s: Invalid value: "A": s in body must be of type k8sshortname: "A""#]
    );
}
