//! Named formats (Kubernetes 1.31): mirrors apiserver `pkg/cel/library/format.go`
//! (`format.named`, `format.<name>()`, `<Format>.validate`); the formats are
//! [`crate::value::ext::format`].

use std::sync::Arc;

use super::{Env, FnDef, REGEX_FACTOR, TRAVERSAL, actual_size, ceil_factor};
use crate::value::ext::ExtValue;
use crate::value::ext::format::{FORMATS, NamedFormat};
use crate::value::{EvalError, EvalResult, List, ListKind, Value};

fn ext<'a>(f: &'static NamedFormat) -> Value<'a> {
    Value::Ext(Arc::new(ExtValue::Format(f)))
}

fn named<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let Value::String(n) = &a[0] else {
        return Err(EvalError::no_such_overload());
    };
    Ok(match FORMATS.iter().find(|f| f.name == n.as_str()) {
        Some(f) => Value::optional_of(ext(f)),
        None => Value::Optional(None),
    })
}

fn validate<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (Value::Ext(e), Value::String(s)) = (&a[0], &a[1]) else {
        return Err(EvalError::no_such_overload());
    };
    let ExtValue::Format(f) = &**e else {
        return Err(EvalError::no_such_overload());
    };
    let errs = (f.validate)(s);
    Ok(if errs.is_empty() {
        Value::Optional(None)
    } else {
        let l = errs.into_iter().map(Value::string).collect();
        Value::optional_of(Value::List(List::Owned(Arc::new(l), ListKind::Plain)))
    })
}

fn cost_validate<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    let regex = match &a[0] {
        Value::Ext(e) => match &**e {
            ExtValue::Format(f) => f.max_regex_size,
            _ => return 1,
        },
        _ => return 1,
    };
    ceil_factor(1 + actual_size(&a[1]), TRAVERSAL) * ceil_factor(regex, REGEX_FACTOR)
}

macro_rules! constant {
    ($fname:ident, $i:expr) => {
        fn $fname<'a>(_: &Env, _: &[Value<'a>]) -> EvalResult<'a> {
            Ok(ext(&FORMATS[$i]))
        }
    };
}

constant!(f0, 0);
constant!(f1, 1);
constant!(f2, 2);
constant!(f3, 3);
constant!(f4, 4);
constant!(f5, 5);
constant!(f6, 6);
constant!(f7, 7);
constant!(f8, 8);
constant!(f9, 9);
constant!(f10, 10);
constant!(f11, 11);
constant!(f12, 12);

/// The format library.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("format.named", false, 1, named).since(1, 31),
    FnDef::new("validate", true, 2, validate)
        .since(1, 31)
        .cost(cost_validate),
    FnDef::new("format.dns1123Label", false, 0, f0).since(1, 31),
    FnDef::new("format.dns1123Subdomain", false, 0, f1).since(1, 31),
    FnDef::new("format.dns1035Label", false, 0, f2).since(1, 31),
    FnDef::new("format.qualifiedName", false, 0, f3).since(1, 31),
    FnDef::new("format.dns1123LabelPrefix", false, 0, f4).since(1, 31),
    FnDef::new("format.dns1123SubdomainPrefix", false, 0, f5).since(1, 31),
    FnDef::new("format.dns1035LabelPrefix", false, 0, f6).since(1, 31),
    FnDef::new("format.labelValue", false, 0, f7).since(1, 31),
    FnDef::new("format.uri", false, 0, f8).since(1, 31),
    FnDef::new("format.uuid", false, 0, f9).since(1, 31),
    FnDef::new("format.byte", false, 0, f10).since(1, 31),
    FnDef::new("format.date", false, 0, f11).since(1, 31),
    FnDef::new("format.datetime", false, 0, f12).since(1, 31),
];
