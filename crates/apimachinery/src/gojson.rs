//! JSON strings as Go reads them: `encoding/json` (and sigs.k8s.io/json, the API server's) takes
//! each byte of a string that does not start a UTF-8 character, and each `\u` escape of a UTF-16
//! surrogate that does not pair, as U+FFFD (`decode.go` `unquoteBytes`: `utf8.DecodeRune`'s
//! one-byte errors, `utf16.DecodeRune`). serde_json refuses both: a text it refuses for that
//! ([`refused_for_unicode`]) is read again after [`replace_invalid`].

/// Whether serde_json refused a text for a string Go would have read with U+FFFD in it.
#[must_use]
pub fn refused_for_unicode(e: &serde_json::Error) -> bool {
    let m = e.to_string();
    [
        "invalid unicode code point",
        "lone leading surrogate in hex escape",
        "unexpected end of hex escape",
    ]
    .iter()
    .any(|p| m.starts_with(p))
}

/// The JSON text with, inside its strings, each byte that does not start a UTF-8 character
/// replaced by U+FFFD and each unpaired surrogate escape by `\ufffd`; `None` when there is none.
#[must_use]
pub fn replace_invalid(b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len() + 8);
    let mut changed = false;
    let mut in_string = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !in_string || c == b'"' {
            in_string ^= c == b'"';
            out.push(c);
            i += 1;
        } else if c == b'\\' {
            match (b.get(i + 1), hex4(b, i + 2)) {
                (Some(b'u'), Some(u)) if (0xD800..0xE000).contains(&u) => {
                    let paired = u < 0xDC00
                        && b.get(i + 6..i + 8) == Some(b"\\u")
                        && hex4(b, i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l));
                    if paired {
                        out.extend_from_slice(&b[i..i + 12]);
                        i += 12;
                    } else {
                        out.extend_from_slice(b"\\ufffd");
                        changed = true;
                        i += 6;
                    }
                }
                // Any other escape: the backslash and the byte it escapes (a `"` among them).
                _ => {
                    let end = (i + 2).min(b.len());
                    out.extend_from_slice(&b[i..end]);
                    i = end;
                }
            }
        } else if c < 0x80 {
            out.push(c);
            i += 1;
        } else {
            let width = match c {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 0,
            };
            match b.get(i..i + width) {
                Some(ch) if width > 0 && std::str::from_utf8(ch).is_ok() => {
                    out.extend_from_slice(ch);
                    i += width;
                }
                _ => {
                    out.extend_from_slice("\u{FFFD}".as_bytes());
                    changed = true;
                    i += 1;
                }
            }
        }
    }
    changed.then_some(out)
}

/// The four hex digits at `at`, as a number.
fn hex4(b: &[u8], at: usize) -> Option<u16> {
    let digits = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
    if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> String {
        let fixed = replace_invalid(text).unwrap_or_else(|| text.to_vec());
        serde_json::from_slice::<String>(&fixed).unwrap()
    }

    /// Go's answers (`json.Unmarshal` into a string).
    #[test]
    fn strings_read_as_go_reads_them() {
        assert_eq!(replace_invalid(br#"{"a":"b\u00e9\ud83d\ude00"}"#), None);
        assert_eq!(read(b"\"a\xffb\""), "a\u{FFFD}b");
        // A sequence cut short is one U+FFFD per byte, as `utf8.DecodeRune` reads it.
        assert_eq!(read(b"\"\xe2\x82A\""), "\u{FFFD}\u{FFFD}A");
        // Surrogates and overlong forms encoded in UTF-8 are not UTF-8.
        assert_eq!(read(b"\"\xed\xa0\x80\""), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(read(b"\"\xc0\xaf\""), "\u{FFFD}\u{FFFD}");
        assert_eq!(read(br#""\ud800""#), "\u{FFFD}");
        assert_eq!(read(br#""\udc00x""#), "\u{FFFD}x");
        // A high surrogate before an escape that is not a low one: each read alone.
        assert_eq!(read(br#""\ud800\u0041""#), "\u{FFFD}A");
        assert_eq!(read(br#""\ud800\ud800\udc00""#), "\u{FFFD}\u{10000}");
        assert_eq!(read(br#""\\ud800""#), "\\ud800");
        assert_eq!(read(br#""\"\ud800""#), "\"\u{FFFD}");
        // Outside strings nothing changes: the parser still refuses what is not JSON.
        assert_eq!(replace_invalid(b"[1,\xff]"), None);
        let e = serde_json::from_slice::<String>(br#""\ud800""#).unwrap_err();
        assert!(refused_for_unicode(&e), "{e}");
        let e = serde_json::from_slice::<String>(b"\"\xff\"").unwrap_err();
        assert!(refused_for_unicode(&e), "{e}");
    }
}
