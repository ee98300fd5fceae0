//! Checks on shapes that run in `const fn`, so the derive can fail the build with them.
//!
//! Each check returns `Err(Msg)`; the derive emits `const _: () = match check(..) { Ok(()) => (),
//! Err(e) => panic!("{}", e.as_str()) };` spanned at the attribute that asked for it. The same
//! functions run at run time, where they are plain functions.
//!
//! What is checked here is what needs the other types' shapes, one concern per file:
//! - `keywords`: whether a keyword fits the kind of the field's type;
//! - `defaults`: literal defaults against the field's schema;
//! - `layout`: the layout of enums and flattened fields;
//! - `equality`: whether two shapes emit one schema (for fields that merged variants share);
//! - `junctors`: `all_of(..)`, `any_of(..)`, `one_of(..)`, `not(..)` against the shape;
//! - `paths`: JSON paths through the type graph;
//!
//! over `kinds`, the vocabulary they share. What needs only the attribute's own tokens (names,
//! regexes, CEL syntax) is checked in the macro.

mod defaults;
mod equality;
mod junctors;
mod keywords;
mod kinds;
mod layout;
mod paths;

pub use defaults::{check_default, check_default_value};
pub use junctors::check_junctors;
pub use keywords::{check_inner, check_keywords, check_length};
pub use kinds::{find_field, kind_name};
pub use layout::{check_type, mixed_external_message, union_message};
pub use paths::{Expect, Seg, column_type, resolve_path};

use super::Msg;

type R = Result<(), Msg>;
