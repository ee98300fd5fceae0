//! `url::Url`, written as its text: an absolute URL, the API server's `uri` format.

use crate::{Schema, Shape};

impl Schema for url::Url {
    const SHAPE: Shape = Shape::string().format("uri").named("Url");
}
