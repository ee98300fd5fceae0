//! `uuid::Uuid`, written hyphenated in human-readable formats: the API server's `uuid` format.

use crate::{Schema, Shape};

impl Schema for uuid::Uuid {
    const SHAPE: Shape = Shape::string().format("uuid").named("Uuid");
}
