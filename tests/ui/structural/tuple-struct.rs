use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S(String, i32);

fn main() {}
