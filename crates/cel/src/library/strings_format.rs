//! `<string>.format(<list>)` of the strings extension before version 4, which Kubernetes uses
//! (strings v2): mirrors cel-go `ext/formatting.go` (`parseFormatString`, the clause
//! formatters, and the `en_US` printing of `%f` and `%e` through `golang.org/x/text/message`:
//! digit grouping, `×10⁰³` exponents).

use super::{Env, FnDef, TRAVERSAL, actual_size, ceil_factor};
use crate::value::Value;
use crate::value::{EvalError, EvalResult};

const DEFAULT_PRECISION: usize = 6;

fn err(msg: String) -> EvalError {
    EvalError::other(msg)
}

fn clause_err(msg: String) -> EvalError {
    err(format!("error during formatting: {msg}"))
}

/// `%s`: strings and values converted with `string()`, lists and maps in CEL syntax.
fn format_string(v: &Value<'_>) -> Result<String, EvalError> {
    Ok(match v {
        Value::List(_) => format_list(v)?,
        Value::Map(_) => format_map(v)?,
        Value::Null => "null".to_string(),
        Value::Type(t) => t.0.to_string(),
        Value::Int(_)
        | Value::Uint(_)
        | Value::Double(_)
        | Value::Bool(_)
        | Value::String(_)
        | Value::Timestamp(_)
        | Value::Bytes(_)
        | Value::Duration(_) => match crate::value::convert::to_string(v)? {
            Value::String(s) => s.to_string(),
            _ => String::new(),
        },
        other => {
            return Err(clause_err(format!(
                "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
                other.type_name()
            )));
        }
    })
}

/// cel-go `clauseForType` for list and map members.
fn member(v: &Value<'_>) -> Result<String, EvalError> {
    let s = match v {
        Value::Int(_) | Value::Uint(_) => v.to_string(),
        Value::Double(d) if d.is_nan() => "NaN".to_string(),
        Value::Double(d) if d.is_infinite() => if *d > 0.0 { "+Inf" } else { "-Inf" }.to_string(),
        Value::Double(d) => format!("{d:.6}"),
        Value::Timestamp(_) | Value::Duration(_) => {
            let s = format_string(v)?;
            let f = if matches!(v, Value::Timestamp(_)) {
                "timestamp"
            } else {
                "duration"
            };
            format!("{f}({s:?})")
        }
        Value::List(_) => format_list(v)?,
        Value::Map(_) => format_map(v)?,
        Value::String(_) | Value::Bytes(_) | Value::Bool(_) | Value::Null | Value::Type(_) => {
            format_string(v)?
        }
        other => {
            return Err(err(format!(
                "no formatting function for {}",
                other.type_name()
            )));
        }
    };
    Ok(quote(v, s))
}

fn quote(v: &Value<'_>, s: String) -> String {
    match v {
        Value::String(_) => format!("{s:?}"),
        Value::Bytes(_) => format!("b{s:?}"),
        Value::Double(d) if !d.is_finite() => format!("{s:?}"),
        _ => s,
    }
}

fn format_list(v: &Value<'_>) -> Result<String, EvalError> {
    let Value::List(l) = v else {
        return Ok(String::new());
    };
    let mut parts = Vec::new();
    for x in crate::value::list::iter(l) {
        parts.push(member(&x?)?);
    }
    Ok(format!("[{}]", parts.join(", ")))
}

fn format_map(v: &Value<'_>) -> Result<String, EvalError> {
    let Value::Map(m) = v else {
        return Ok(String::new());
    };
    let mut pairs = Vec::new();
    for (k, x) in crate::value::map::entries(m) {
        let key = match &k {
            Value::String(_) | Value::Bool(_) => quote(&k, format_string(&k)?),
            Value::Int(_) | Value::Uint(_) => k.to_string(),
            other => {
                return Err(err(format!(
                    "no formatting function for map key of type {}",
                    other.type_name()
                )));
            }
        };
        pairs.push((key, member(&x?)?));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let body: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
    Ok(format!("{{{}}}", body.join(", ")))
}

/// `en_US` digit grouping of the integer part.
fn group(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(a, b)| (a, Some(b)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

fn double_arg(v: &Value<'_>, clause: &str) -> Result<f64, EvalError> {
    match v {
        Value::Double(d) => Ok(*d),
        Value::String(s) if matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity") => {
            Ok(s.parse::<f64>().unwrap_or(f64::NAN))
        }
        other => Err(clause_err(format!(
            "{clause} clause can only be used on doubles, was given {}",
            other.type_name()
        ))),
    }
}

fn special(d: f64) -> Option<String> {
    if d.is_nan() {
        Some("NaN".into())
    } else if d.is_infinite() {
        Some(if d > 0.0 { "∞" } else { "-∞" }.into())
    } else {
        None
    }
}

fn fixed(v: &Value<'_>, prec: usize) -> Result<String, EvalError> {
    let d = double_arg(v, "fixed-point")?;
    Ok(special(d).unwrap_or_else(|| group(&format!("{d:.prec$}"))))
}

fn scientific(v: &Value<'_>, prec: usize) -> Result<String, EvalError> {
    let d = double_arg(v, "scientific")?;
    if let Some(s) = special(d) {
        return Ok(s);
    }
    let e = format!("{d:.prec$e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String = format!("{:02}", exp.abs())
        .bytes()
        .map(|b| SUP[usize::from(b - b'0')])
        .collect();
    let sign = if exp < 0 { "⁻" } else { "" };
    Ok(format!("{mant}×10{sign}{digits}"))
}

fn decimal(v: &Value<'_>) -> Result<String, EvalError> {
    match v {
        Value::Int(_) | Value::Uint(_) => Ok(v.to_string()),
        other => Err(clause_err(format!(
            "decimal clause can only be used on integers, was given {}",
            other.type_name()
        ))),
    }
}

fn radix(v: &Value<'_>, c: char) -> Result<String, EvalError> {
    let signed = |i: i64, f: fn(u64) -> String| {
        if i < 0 {
            format!("-{}", f(i.unsigned_abs()))
        } else {
            f(i as u64)
        }
    };
    match (c, v) {
        ('b', Value::Int(i)) => Ok(signed(*i, |u| format!("{u:b}"))),
        ('b', Value::Uint(u)) => Ok(format!("{u:b}")),
        ('b', Value::Bool(b)) => Ok(if *b { "1" } else { "0" }.into()),
        ('o', Value::Int(i)) => Ok(signed(*i, |u| format!("{u:o}"))),
        ('o', Value::Uint(u)) => Ok(format!("{u:o}")),
        ('x', Value::Int(i)) => Ok(signed(*i, |u| format!("{u:x}"))),
        ('X', Value::Int(i)) => Ok(signed(*i, |u| format!("{u:X}"))),
        ('x', Value::Uint(u)) => Ok(format!("{u:x}")),
        ('X', Value::Uint(u)) => Ok(format!("{u:X}")),
        ('x' | 'X', Value::String(_) | Value::Bytes(_)) => {
            let bytes: &[u8] = match v {
                Value::String(s) => s.as_bytes(),
                Value::Bytes(b) => b,
                _ => &[],
            };
            let s: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            Ok(if c == 'X' { s.to_uppercase() } else { s })
        }
        ('b', other) => Err(clause_err(format!(
            "only integers and bools can be formatted as binary, was given {}",
            other.type_name()
        ))),
        ('o', other) => Err(clause_err(format!(
            "octal clause can only be used on integers, was given {}",
            other.type_name()
        ))),
        (_, other) => Err(clause_err(format!(
            "only integers, byte buffers, and strings can be formatted as hex, was given {}",
            other.type_name()
        ))),
    }
}

/// cel-go `parseFormatString`.
fn format_with(f: &str, args: &[Value<'_>]) -> Result<String, EvalError> {
    let b = f.as_bytes();
    let mut out = String::with_capacity(f.len());
    let (mut i, mut arg) = (0usize, 0usize);
    let mut lit_start = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        out.push_str(&f[lit_start..i]);
        if b.get(i + 1) == Some(&b'%') {
            out.push('%');
            i += 2;
            lit_start = i;
            continue;
        }
        let Some(v) = args.get(arg) else {
            return Err(err(format!("index {arg} out of range")));
        };
        if i + 1 >= b.len() {
            return Err(err("unexpected end of string".into()));
        }
        let mut j = i + 1;
        let mut prec = None;
        if b[j] == b'.' {
            j += 1;
            let start = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j >= b.len() {
                return Err(err("could not parse formatting clause: error while parsing precision: could not find end of precision specifier".into()));
            }
            prec = Some(f[start..j].parse::<usize>().map_err(|e| {
                err(format!("could not parse formatting clause: error while parsing precision: error while converting precision to integer: {e}"))
            })?.min(1000));
        }
        let c = f[j..].chars().next().unwrap_or('%');
        let s = match c {
            's' => format_string(v)?,
            'd' => decimal(v)?,
            'f' => fixed(v, prec.unwrap_or(DEFAULT_PRECISION))?,
            'e' => scientific(v, DEFAULT_PRECISION)?,
            'b' | 'o' | 'x' | 'X' => radix(v, c)?,
            _ => {
                return Err(err(format!(
                    "could not parse formatting clause: unrecognized formatting clause \"{c}\""
                )));
            }
        };
        out.push_str(&s);
        i = j + c.len_utf8();
        lit_start = i;
        arg += 1;
    }
    out.push_str(&f[lit_start..]);
    Ok(out)
}

fn format<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match (&a[0], &a[1]) {
        (Value::String(f), Value::List(l)) => {
            let args: Vec<Value<'a>> = crate::value::list::iter(l).collect::<Result<_, _>>()?;
            format_with(f, &args).map(Value::string)
        }
        _ => Err(EvalError::no_such_overload()),
    }
}

/// `ExtFormatString`: a traversal of the format string.
fn cost_format<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    ceil_factor(actual_size(&a[0]), TRAVERSAL)
}

/// `format`.
pub(crate) static FUNCTIONS: &[FnDef] = &[FnDef::new("format", true, 2, format)
    .since(1, 29)
    .cost(cost_format)];
