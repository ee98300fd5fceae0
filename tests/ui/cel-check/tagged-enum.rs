use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.shape.kind == 'circle' && self.shape.radius > 'big'"))]
struct Spec {
    shape: Shape,
}

fn main() {}
