//! kube-core's `Duration`: Go's duration text (`1h30m`), a string as apimachinery's
//! `metav1.Duration` publishes it (its OpenAPI has no `format`).

use crate::{Schema, Shape};

impl Schema for kube_core::Duration {
    const SHAPE: Shape = Shape::string().named("Duration");
}
