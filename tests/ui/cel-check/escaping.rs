use serde::{Deserialize, Serialize};

// A property `x-prop` is `self.x__dash__prop` in CEL; `self.x-prop` subtracts `prop`.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.x-prop > 0"))]
struct Spec {
    #[serde(rename = "x-prop")]
    x_prop: i64,
}

fn main() {}
