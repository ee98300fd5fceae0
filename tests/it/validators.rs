//! The validation attributes of garde, validator, serde_valid and schemars, read as schema
//! keywords (the derives declare them as helpers: no other derive is needed here).

use crdkit::Schema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Schema, Serialize, Deserialize)]
struct Garde {
    #[garde(length(min = 1, max = 63), pattern(r"^[a-z0-9-]+$"))]
    name: String,
    #[garde(length(chars, max = 3), inner(length(min = 2)))]
    tags: Vec<String>,
    #[garde(length(equal = 2))]
    pair: std::collections::BTreeMap<String, String>,
    #[garde(range(min = -1, max = 1.5))]
    ratio: f64,
    #[garde(prefix("https://"))]
    link: String,
    #[garde(suffix(".yaml"))]
    file: String,
    #[garde(ascii)]
    plain: String,
    #[garde(email)]
    mail: String,
    #[garde(ipv4)]
    addr: String,
    #[garde(required)]
    must: Option<i32>,
    #[garde(skip)]
    free: i32,
}

#[derive(Schema, Serialize, Deserialize)]
struct Validator {
    #[validate(range(exclusive_min = 0, max = 10))]
    count: i32,
    #[validate(length(min = 1), url)]
    source: String,
    #[validate(contains(pattern = "s3."))]
    bucket: String,
    #[validate(ip(v6))]
    addr: String,
    #[validate(nested)]
    inner: Vec<String>,
}

#[derive(Schema, Serialize, Deserialize)]
struct SerdeValid {
    #[validate(minimum = 1, exclusive_maximum = 100, multiple_of = 5)]
    step: i32,
    #[validate(min_length = 2, max_length = 8, pattern = "^[a-z]+$")]
    word: String,
    #[validate(min_items = 1, max_items = 3)]
    list: Vec<i32>,
}

#[derive(Schema, Serialize, Deserialize)]
struct Schemars {
    #[schemars(length(max = 5), regex(pattern = "^x"), description = "an x")]
    x: String,
}

fn properties<T: Schema>() -> Value {
    let s = crdkit::shape::build(&T::SHAPE).expect("structural");
    serde_json::to_value(s.to_props()).unwrap()["properties"].clone()
}

#[test]
fn garde() {
    let p = properties::<Garde>();
    assert_eq!(
        p["name"],
        json!({"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9-]+$"})
    );
    assert_eq!(p["tags"]["maxItems"], json!(3));
    assert_eq!(p["tags"]["items"]["minLength"], json!(2));
    assert_eq!(p["pair"]["minProperties"], json!(2));
    assert_eq!(p["pair"]["maxProperties"], json!(2));
    assert_eq!(p["ratio"]["minimum"], json!(-1));
    assert_eq!(p["ratio"]["maximum"], json!(1.5));
    assert_eq!(p["link"]["pattern"], json!("^https://"));
    assert_eq!(p["file"]["pattern"], json!(r"\.yaml$"));
    assert_eq!(p["plain"]["pattern"], json!(r"^[\x00-\x7F]*$"));
    assert_eq!(p["mail"]["format"], json!("email"));
    assert_eq!(p["addr"]["format"], json!("ipv4"));
    assert_eq!(p["free"], json!({"type": "integer", "format": "int32"}));
    let s = crdkit::shape::build(&Garde::SHAPE).unwrap();
    assert!(s.value_validation.required.contains(&"must".to_owned()));
}

#[test]
fn validator() {
    let p = properties::<Validator>();
    assert_eq!(
        p["count"],
        json!({"type": "integer", "format": "int32", "minimum": 0, "exclusiveMinimum": true, "maximum": 10})
    );
    assert_eq!(
        p["source"],
        json!({"type": "string", "minLength": 1, "format": "uri"})
    );
    assert_eq!(p["bucket"]["pattern"], json!(r"s3\."));
    assert_eq!(p["addr"]["format"], json!("ipv6"));
    assert_eq!(
        p["inner"],
        json!({"type": "array", "items": {"type": "string"}})
    );
}

#[test]
fn serde_valid() {
    let p = properties::<SerdeValid>();
    assert_eq!(
        p["step"],
        json!({"type": "integer", "format": "int32", "minimum": 1, "maximum": 100, "exclusiveMaximum": true, "multipleOf": 5})
    );
    assert_eq!(
        p["word"],
        json!({"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[a-z]+$"})
    );
    assert_eq!(p["list"]["minItems"], json!(1));
    assert_eq!(p["list"]["maxItems"], json!(3));
}

#[test]
fn schemars() {
    assert_eq!(
        properties::<Schemars>()["x"],
        json!({"type": "string", "maxLength": 5, "pattern": "^x", "description": "an x"})
    );
}
