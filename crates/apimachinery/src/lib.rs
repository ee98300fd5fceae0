//! Kubernetes apimachinery basics shared by every crdkit crate: what the API server's
//! `k8s.io/apimachinery` gives the rest of it.
//!
//! - [`field`]: field paths and field errors with the API server's texts (`field.ErrorList`);
//! - [`gojson`]: JSON strings as Go's `encoding/json` reads them (U+FFFD for what is not UTF-8);
//! - [`gofmt`]: Go's formatting of values (`%v`, `%q`, `%T` and `encoding/json` of decoded JSON);
//! - [`names`]: DNS labels and subdomains, label keys and values, qualified names (`validation`);
//! - [`openapi`]: the OpenAPI `type` and the `x-kubernetes-list-type`/`-map-type` vocabulary;
//! - [`calendar`]: Go's proleptic Gregorian calendar (civil dates and days since the epoch);
//! - [`quantity`]: resource quantities (`500m`, `1.5Gi`): parsing, comparison, canonical form;
//! - [`goparse`]: Go's parsers the API server's formats rely on (`time.Parse` RFC 3339,
//!   `net.ParseIP`/`ParseCIDR`, `url.Parse`, `mail.ParseAddress`);
//! - [`regexp`]: the syntax of Go's `regexp` (RE2) with Go's error messages;
//! - [`duration`]: ages as tables print them (`HumanDuration`);
//! - [`version`]: the priority of versions (`CompareKubeAwareVersionStrings`);
//! - [`webhook`]: the checks of webhook client configurations (URL, service reference).
//!
//! It depends on `serde_core` (the traits, no derive), `serde_json` and `unicode-properties`
//! only, so it starts building before `serde_derive` is ready; the proc-macro and the program
//! link the same copy.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod calendar;
pub mod duration;
pub mod field;
pub mod gobase64;
pub mod gofmt;
pub mod gojson;
pub mod goparse;
pub mod names;
pub mod openapi;
pub mod quantity;
pub mod regexp;
pub mod strict;
pub mod version;
pub mod webhook;
