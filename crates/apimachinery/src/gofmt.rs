//! How Go prints values (Go's `fmt`, `strconv` and `encoding/json`), as `field.Error` and the
//! API server's messages show them: `%q` ([`quote`], `strconv.Quote`), `%v` of floats
//! ([`format_float`]) and of decoded JSON values ([`sprint`]), `%T` of decoded JSON values
//! ([`type_name`]), and `encoding/json` of decoded JSON values ([`json`]).

use std::fmt::Write as _;

use serde_json::Value;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space.
#[must_use]
pub fn is_print(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_graphic() || c == ' ';
    }
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Mark
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    )
}

/// Go's `strconv.Quote` (`%q` of a string).
#[must_use]
pub fn quote(s: &str) -> String {
    quote_bytes(s.as_bytes())
}

/// Go's `strconv.Quote` of a byte string: bytes that are not UTF-8 as `\x..`.
#[must_use]
pub fn quote_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 2);
    out.push('"');
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{7}' => out.push_str("\\a"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{b}' => out.push_str("\\v"),
                c if is_print(c) => out.push(c),
                c if (c as u32) < 0x20 || c == '\u{7f}' => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c if (c as u32) < 0x10000 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => {
                    let _ = write!(out, "\\U{:08x}", c as u32);
                }
            }
        }
        for x in chunk.invalid() {
            let _ = write!(out, "\\x{x:02x}");
        }
    }
    out.push('"');
    out
}

/// The shortest decimal digits of `f` (no sign) and its decimal exponent: `f = 0.d1d2.. × 10^dp`.
fn shortest_digits(f: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest round-tripping digits, like Go's shortest formatting.
    digits_of(&format!("{:e}", f.abs()))
}

/// The digits and decimal point of Rust's `{:e}` of a non-negative number.
fn digits_of(s: &str) -> (String, i32) {
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    (digits, exp + 1)
}

fn fmt_exp(neg: bool, digits: &str, dp: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    s.push_str(&digits[..1]);
    if digits.len() > 1 {
        s.push('.');
        s.push_str(&digits[1..]);
    }
    let e = dp - 1;
    let _ = write!(s, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    s
}

fn fmt_fixed(neg: bool, digits: &str, dp: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    let nd = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if dp <= 0 {
        s.push_str("0.");
        for _ in 0..-dp {
            s.push('0');
        }
        s.push_str(digits);
    } else if dp >= nd {
        s.push_str(digits);
        for _ in 0..dp - nd {
            s.push('0');
        }
    } else {
        let (a, b) = digits.split_at(usize::try_from(dp).unwrap_or(0));
        s.push_str(a);
        s.push('.');
        s.push_str(b);
    }
    s
}

fn special_float(f: f64) -> Option<String> {
    if f.is_nan() {
        Some("NaN".to_owned())
    } else if f.is_infinite() {
        Some(if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned())
    } else if f == 0.0 {
        Some(if f.is_sign_negative() { "-0" } else { "0" }.to_owned())
    } else {
        None
    }
}

/// Go's `%v` of a `float64` (`strconv.FormatFloat(f, 'g', -1, 64)`): `1.5`, `100000`, `1e+06`.
#[must_use]
pub fn format_float(f: f64) -> String {
    if let Some(s) = special_float(f) {
        return s;
    }
    let (digits, dp) = shortest_digits(f);
    let exp = dp - 1;
    if !(-4..6).contains(&exp) {
        fmt_exp(f < 0.0, &digits, dp)
    } else {
        fmt_fixed(f < 0.0, &digits, dp)
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits that round-trip as a
/// `float32` (`0.1`, `1e+10`), as sigs.k8s.io/yaml names a YAML mapping key that is a float.
///
/// ```
/// use crdkit_apimachinery::gofmt::format_float32;
/// assert_eq!(format_float32(1.5), "1.5");
/// assert_eq!(format_float32(0.1), "0.1");
/// assert_eq!(format_float32(100000.0), "100000");
/// assert_eq!(format_float32(1e10), "1e+10");
/// assert_eq!(format_float32(std::f64::consts::PI), "3.1415927");
/// assert_eq!(format_float32(16777217.0), "1.6777216e+07");
/// assert_eq!(format_float32(-0.00001), "-1e-05");
/// ```
#[must_use]
pub fn format_float32(f: f64) -> String {
    #[allow(clippy::cast_possible_truncation)]
    let f = f as f32;
    if let Some(s) = special_float(f64::from(f)) {
        return s;
    }
    let (digits, dp) = digits_of(&format!("{:e}", f.abs()));
    let exp = dp - 1;
    if !(-4..6).contains(&exp) {
        fmt_exp(f < 0.0, &digits, dp)
    } else {
        fmt_fixed(f < 0.0, &digits, dp)
    }
}

/// Go's `encoding/json` rendering of a `float64`.
fn json_float(f: f64) -> String {
    if let Some(s) = special_float(f) {
        // json.Marshal fails on NaN/Inf; Go then falls back to %#v, which prints like %v.
        return s;
    }
    let (digits, dp) = shortest_digits(f);
    let abs = f.abs();
    if !(1e-6..1e21).contains(&abs) {
        let s = fmt_exp(f < 0.0, &digits, dp);
        // Go trims `e-07` to `e-7`.
        match s.rfind("e-0") {
            Some(i) if s.len() == i + 4 => format!("{}e-{}", &s[..i], &s[i + 3..]),
            _ => s,
        }
    } else {
        fmt_fixed(f < 0.0, &digits, dp)
    }
}

fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_into(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_i64() {
            Some(i) => {
                let _ = write!(out, "{i}");
            }
            None => out.push_str(&json_float(n.as_f64().unwrap_or(f64::NAN))),
        },
        Value::String(s) => json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(k, out);
                out.push(':');
                json_into(&map[k], out);
            }
            out.push('}');
        }
    }
}

/// Go's `json.Marshal` of a string, appended to `out` (no `Value` built for it).
pub fn json_str_into(s: &str, out: &mut String) {
    json_string(s, out);
}

/// Go's `json.Marshal` of a decoded JSON value: compact, keys sorted, `<>&` escaped, integers as
/// `int64`, other numbers as `float64`.
#[must_use]
pub fn json(v: &Value) -> String {
    let mut out = String::new();
    json_into(v, &mut out);
    out
}

/// Go's `%T` of a JSON value as apimachinery decodes it (`util/json`: a number is `int64` when
/// it is an integer that fits, `float64` otherwise).
#[must_use]
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `%v` of a decoded JSON value (maps print with sorted keys).
#[must_use]
pub fn sprint(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => format_float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => s.clone(),
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(sprint).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(m) => {
            let mut items: Vec<(&String, &Value)> = m.iter().collect();
            items.sort_by(|a, b| a.0.cmp(b.0));
            let items: Vec<String> = items
                .iter()
                .map(|(k, v)| format!("{k}:{}", sprint(v)))
                .collect();
            format!("map[{}]", items.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{format_float, is_print, json, quote, sprint, type_name};

    #[test]
    fn quote_matches_strconv() {
        assert_eq!(quote("héllo 💝"), "\"héllo 💝\"");
        assert_eq!(quote("\u{0}\u{7f}"), r#""\x00\x7f""#);
        assert_eq!(quote("\u{a0}\u{ad}"), r#""\u00a0\u00ad""#);
        assert_eq!(quote("\u{e0000}"), r#""\U000e0000""#);
        assert!(!is_print('\u{2028}'));
        assert!(is_print('ñ'));
    }

    #[test]
    fn floats() {
        let v = [
            (1.0, "1"),
            (123_456.0, "123456"),
            (1_234_567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5, "-2.5"),
            (1e21, "1e+21"),
            (1e100, "1e+100"),
        ];
        for (f, want) in v {
            assert_eq!(format_float(f), want, "{f}");
        }
        assert_eq!(json(&json!(1e21)), "1e+21");
        assert_eq!(json(&json!(1e20)), "100000000000000000000");
        assert_eq!(json(&json!(1e-7)), "1e-7");
        assert_eq!(json(&json!(3.0)), "3");
        assert_eq!(json(&json!(0.5)), "0.5");
        assert_eq!(json(&json!("\u{1}\u{2028}")), r#""\u0001\u2028""#);
    }

    #[test]
    fn type_name_and_sprint_of_decoded_json() {
        // apimachinery decodes integers that fit into int64, everything else into float64.
        assert_eq!(type_name(&json!(3)), "int64");
        assert_eq!(type_name(&json!(u64::MAX)), "float64");
        assert_eq!(type_name(&json!(1.0)), "float64");
        assert_eq!(type_name(&json!(null)), "<nil>");
        assert_eq!(type_name(&json!([1])), "[]interface {}");
        assert_eq!(type_name(&json!({})), "map[string]interface {}");
        assert_eq!(
            sprint(&json!({"b": [1, 2.5, "x"], "a": null, "c": true})),
            "map[a:<nil> b:[1 2.5 x] c:true]"
        );
        assert_eq!(sprint(&json!(1e21)), "1e+21");
    }
}
