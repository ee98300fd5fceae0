use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(max_items = 10, validation(rule = "self.size() < 10",
          message_expression = "'bad: ' + self.filter(t, t.contains('x')).join(', ')"))]
    tags: Vec<String>,
}

fn main() {}
