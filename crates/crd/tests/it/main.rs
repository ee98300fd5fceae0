//! The integration tests of this crate, one binary: the API server's CRD validation tables
//! (CEL rules and their costs in CRDs, defaults, the Gateway API's rules, CRD updates), the
//! compatibility report, conversion webhooks' reviews and the published OpenAPI documents.

mod cel_check_cost;
mod cel_check_crd;
mod cel_validate_defaults;
mod cel_validate_gateway;
mod cel_validate_pipeline;
mod compat;
mod conversion;
mod conversion_crontab;
mod conversion_props;
mod crd_update;
mod openapi_builder;
mod openapi_conversion;
