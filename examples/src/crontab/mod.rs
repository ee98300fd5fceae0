//! The CronTab of the Kubernetes CRD task page, once per form the page shows it in. Each module
//! is one Rust type whose CRD equals the page's YAML (field order and descriptions aside).

pub mod categories;
pub mod defaulting;
pub mod plain;
pub mod printer_columns;
pub mod subresources;
pub mod validation;
