//! String and bytes literal decoding: cel-go `parser/unescape.go`.
//!
//! The lexer has already checked the escape syntax; what is left to fail here is a code point
//! that is not a valid Unicode scalar (`'\ud800'`), `\u`/`\U` in bytes, and the defensive cases
//! cel-go also reports.

/// Decodes a quoted literal (with its optional `r` prefix; the `b` of bytes removed). Strings
/// always decode to valid UTF-8; bytes may not.
pub(crate) fn unescape(value: &str, is_bytes: bool) -> Result<Vec<u8>, &'static str> {
    let value = value.replace("\r\n", "\n").replace('\r', "\n");
    let mut v = value.as_bytes();
    if v.len() < 2 {
        return Err("unable to unescape string");
    }
    let raw = matches!(v[0], b'r' | b'R');
    if raw {
        v = &v[1..];
    }
    let n = v.len();
    if n == 0 || v[0] != v[n - 1] || !matches!(v[0], b'"' | b'\'') {
        return Err("unable to unescape string");
    }
    let body: &[u8] = if n >= 6 && (v.starts_with(b"'''") || v.starts_with(b"\"\"\"")) {
        if !v.ends_with(&v[..3]) {
            return Err("unable to unescape string");
        }
        &v[3..n - 3]
    } else if n >= 2 {
        &v[1..n - 1]
    } else {
        return Err("unable to unescape string");
    };
    if raw || !body.contains(&b'\\') {
        return Ok(body.to_vec());
    }
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(&e) = body.get(i + 1) else {
            return Err("unable to unescape string, found '\\' as last character");
        };
        i += 2;
        let simple = match e {
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' | b'\'' | b'"' | b'`' | b'?' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (value, encode) = match e {
            b'x' | b'X' | b'u' | b'U' => {
                let len = match e {
                    b'x' | b'X' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                if is_bytes && len > 2 {
                    return Err("unable to unescape string");
                }
                let digits = body.get(i..i + len).ok_or("unable to unescape string")?;
                let mut v: u32 = 0;
                for &d in digits {
                    let x = (d as char)
                        .to_digit(16)
                        .ok_or("unable to unescape string")?;
                    v = v << 4 | x;
                }
                i += len;
                (v, !(is_bytes && len == 2))
            }
            b'0'..=b'3' => {
                let digits = body
                    .get(i..i + 2)
                    .ok_or("unable to unescape octal sequence in string")?;
                let mut v = u32::from(e - b'0');
                for &d in digits {
                    if !(b'0'..=b'7').contains(&d) {
                        return Err("unable to unescape octal sequence in string");
                    }
                    v = v * 8 + u32::from(d - b'0');
                }
                i += 2;
                (v, !is_bytes)
            }
            _ => return Err("unable to unescape string"),
        };
        if encode {
            let c = char::from_u32(value).ok_or("invalid unicode code point")?;
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        } else {
            out.push(value as u8);
        }
    }
    Ok(out)
}
