use serde::{Deserialize, Serialize};

// int-or-string is `dyn`: a rule of that type is not a bool.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(int_or_string, validation(rule = "type(self) == int ? self : self.size()"))]
    port: serde_json::Value,
}

fn main() {}
