use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[serde(with = "my")]
    at: String,
}
mod my {
    pub fn serialize<S: serde::Serializer>(v: &String, s: S) -> Result<S::Ok, S::Error> { s.serialize_str(v) }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> { serde::Deserialize::deserialize(d) }
}

fn main() {}
