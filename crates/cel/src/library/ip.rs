//! IP and CIDR functions (Kubernetes 1.30): mirrors apiserver `pkg/cel/library/ip.go` and
//! `cidr.go` (predicates, containment) with the costs of `library/cost.go`; the types are
//! [`crate::value::ext::ip`].

use std::net::IpAddr;
use std::sync::Arc;

use super::{Env, FnDef, TRAVERSAL, actual_size, ceil_factor, cost_traverse0};
use crate::value::ext::ExtValue;
use crate::value::ext::ip::{Cidr, parse_cidr, parse_ip};
use crate::value::{EvalError, EvalResult, Value};

fn str_arg<'v>(a: &'v [Value<'_>], i: usize) -> Result<&'v str, EvalError> {
    a.get(i)
        .and_then(Value::as_str)
        .ok_or_else(EvalError::no_such_overload)
}

fn ip_arg(v: &Value<'_>) -> Result<IpAddr, EvalError> {
    match v {
        Value::Ext(e) => match &**e {
            ExtValue::Ip(ip) => Ok(*ip),
            _ => Err(EvalError::no_such_overload()),
        },
        _ => Err(EvalError::no_such_overload()),
    }
}

fn cidr_arg<'v>(v: &'v Value<'_>) -> Result<&'v Cidr, EvalError> {
    match v {
        Value::Ext(e) => match &**e {
            ExtValue::Cidr(c) => Ok(c),
            _ => Err(EvalError::no_such_overload()),
        },
        _ => Err(EvalError::no_such_overload()),
    }
}

fn ext<'a>(e: ExtValue) -> Value<'a> {
    Value::Ext(Arc::new(e))
}

fn ip<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::String(s) => parse_ip(s)
            .map(|ip| ext(ExtValue::Ip(ip)))
            .map_err(EvalError::other),
        _ => match a[0] {
            // `<CIDR>.ip()`
            Value::Ext(ref e) => match &**e {
                ExtValue::Cidr(c) => Ok(ext(ExtValue::Ip(c.addr))),
                _ => Err(EvalError::no_such_overload()),
            },
            _ => Err(EvalError::no_such_overload()),
        },
    }
}

fn is_ip<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Bool(parse_ip(str_arg(a, 0)?).is_ok()))
}

fn is_canonical<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let s = str_arg(a, 0)?;
    let ip = parse_ip(s).map_err(EvalError::other)?;
    Ok(Value::Bool(ip.to_string() == s))
}

fn family<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Int(if ip_arg(&a[0])?.is_ipv4() { 4 } else { 6 }))
}

fn predicate<'a>(a: &[Value<'a>], f: fn(&IpAddr) -> bool) -> EvalResult<'a> {
    Ok(Value::Bool(f(&ip_arg(&a[0])?)))
}

fn is_multicast(ip: &IpAddr) -> bool {
    ip.is_multicast()
}

fn is_link_local_unicast(ip: &IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => a.octets()[0] == 169 && a.octets()[1] == 254,
        IpAddr::V6(a) => a.segments()[0] & 0xffc0 == 0xfe80,
    }
}

fn is_unspecified<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    predicate(a, IpAddr::is_unspecified)
}

fn is_loopback<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    predicate(a, IpAddr::is_loopback)
}

fn is_link_local_multicast<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    predicate(a, |ip| match ip {
        IpAddr::V4(a) => a.octets()[..3] == [224, 0, 0],
        IpAddr::V6(a) => a.segments()[0] & 0xff0f == 0xff02,
    })
}

fn is_link_local_unicast_fn<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    predicate(a, is_link_local_unicast)
}

fn is_global_unicast<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    predicate(a, |ip| {
        if let IpAddr::V4(v4) = ip
            && (v4.is_unspecified() || v4.is_broadcast())
        {
            return false;
        }
        !ip.is_unspecified() && !ip.is_loopback() && !is_multicast(ip) && !is_link_local_unicast(ip)
    })
}

fn cidr<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let c = parse_cidr(str_arg(a, 0)?).map_err(|e| {
        EvalError::other(format!(
            "network address parse error during conversion from string: {e}"
        ))
    })?;
    Ok(ext(ExtValue::Cidr(c)))
}

fn is_cidr<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Bool(parse_cidr(str_arg(a, 0)?).is_ok()))
}

fn contains_ip<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let c = cidr_arg(&a[0])?;
    let ip = match &a[1] {
        Value::String(s) => parse_ip(s).map_err(EvalError::other)?,
        other => ip_arg(other)?,
    };
    Ok(Value::Bool(c.contains(&ip)))
}

fn contains_cidr<'a>(e: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let c = cidr_arg(&a[0])?;
    let o = match &a[1] {
        Value::String(_) => cidr(e, &a[1..])?,
        other => other.clone(),
    };
    Ok(Value::Bool(c.contains_cidr(cidr_arg(&o)?)))
}

fn masked<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(ext(ExtValue::Cidr(cidr_arg(&a[0])?.masked())))
}

fn prefix_length<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Int(i64::from(cidr_arg(&a[0])?.bits)))
}

fn cost_canonical<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    ceil_factor(actual_size(&a[0]), 2.0 * TRAVERSAL)
}

fn cost_contains_ip<'a>(a: &[Value<'a>], r: &Value<'a>) -> u64 {
    let mut cost = cost_contains_ip_parsed(a, r);
    if let Value::String(_) = &a[1] {
        cost += ceil_factor(actual_size(&a[1]), TRAVERSAL);
    }
    cost
}

/// `containsIP` without parsing a string argument: the cost of the `cidr_contains_ip_ip`
/// overload, and of any call the checker did not narrow to one overload.
pub(crate) fn cost_contains_ip_parsed<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    let c = actual_size(&a[0]);
    ceil_factor(c + c, TRAVERSAL)
}

fn cost_contains_cidr<'a>(a: &[Value<'a>], r: &Value<'a>) -> u64 {
    cost_contains_ip(a, r) + ceil_factor(actual_size(&a[0]), TRAVERSAL) + 1
}

/// `containsCIDR` without parsing a string argument (`cidr_contains_cidr`, or no overload).
pub(crate) fn cost_contains_cidr_parsed<'a>(a: &[Value<'a>], r: &Value<'a>) -> u64 {
    cost_contains_ip_parsed(a, r) + ceil_factor(actual_size(&a[0]), TRAVERSAL) + 1
}

/// The IP and CIDR libraries.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("ip", false, 1, ip)
        .since(1, 30)
        .cost(cost_traverse0),
    FnDef::new("ip", true, 1, ip).since(1, 30),
    FnDef::new("isIP", false, 1, is_ip)
        .since(1, 30)
        .cost(cost_traverse0),
    FnDef::new("ip.isCanonical", false, 1, is_canonical)
        .since(1, 30)
        .cost(cost_canonical),
    FnDef::new("family", true, 1, family).since(1, 30),
    FnDef::new("isUnspecified", true, 1, is_unspecified).since(1, 30),
    FnDef::new("isLoopback", true, 1, is_loopback).since(1, 30),
    FnDef::new("isLinkLocalMulticast", true, 1, is_link_local_multicast).since(1, 30),
    FnDef::new("isLinkLocalUnicast", true, 1, is_link_local_unicast_fn).since(1, 30),
    FnDef::new("isGlobalUnicast", true, 1, is_global_unicast).since(1, 30),
    FnDef::new("cidr", false, 1, cidr)
        .since(1, 30)
        .cost(cost_traverse0),
    FnDef::new("isCIDR", false, 1, is_cidr)
        .since(1, 30)
        .cost(cost_traverse0),
    FnDef::new("containsIP", true, 2, contains_ip)
        .since(1, 30)
        .cost(cost_contains_ip),
    FnDef::new("containsCIDR", true, 2, contains_cidr)
        .since(1, 30)
        .cost(cost_contains_cidr),
    FnDef::new("masked", true, 1, masked).since(1, 30),
    FnDef::new("prefixLength", true, 1, prefix_length).since(1, 30),
];
