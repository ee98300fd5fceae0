use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(content = "c")]
enum NoTag {
    A(String),
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
enum Mixed {
    A(String),
    #[serde(with = "my")]
    C(String),
    D(String, i64),
    #[serde(skip)]
    E(String, i64),
    #[serde(untagged)]
    B(i64),
}

mod my {
    pub fn serialize<S: serde::Serializer>(v: &String, s: S) -> Result<S::Ok, S::Error> { s.serialize_str(v) }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> { serde::Deserialize::deserialize(d) }
}

fn main() {}
