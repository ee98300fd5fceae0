//! Query parameters: `application/x-www-form-urlencoded`, as Go's `url.ParseQuery` reads them
//! (empty pairs such as kube-rs's `?&` skipped, `+` as a space, the first value of a repeated key,
//! pairs with a `;` or a malformed escape dropped).

use std::borrow::Cow;

use super::status::ApiError;

/// The query of a request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses `a=1&b=2`. Go's `url.ParseQuery` drops a pair holding a semicolon (1.17 on) or a
    /// malformed escape and reports an error that `req.URL.Query()`, which the API server reads
    /// parameters with, ignores: `a=1;watch=true` sets neither, `labelSelector=%zz` selects all.
    #[must_use]
    pub fn parse(query: &str) -> Query {
        let pairs = query
            .split('&')
            .filter(|part| !part.is_empty() && !part.contains(';'))
            .filter_map(|part| {
                let (k, v) = part.split_once('=').unwrap_or((part, ""));
                Some((decode(k)?, decode(v)?))
            })
            .collect();
        Query { pairs }
    }

    /// The first value of `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key`.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A boolean parameter (`strconv.ParseBool`); absent or empty is `false`.
    ///
    /// # Errors
    /// A value Go's `ParseBool` rejects.
    pub fn bool(&self, key: &str) -> Result<bool, ApiError> {
        match self.get(key) {
            None | Some("") => Ok(false),
            Some("1" | "t" | "T" | "true" | "TRUE" | "True") => Ok(true),
            Some("0" | "f" | "F" | "false" | "FALSE" | "False") => Ok(false),
            Some(v) => Err(ApiError::bad_request(format!(
                "strconv.ParseBool: parsing \"{v}\": invalid syntax"
            ))),
        }
    }

    /// An integer parameter; absent or empty is `None`.
    ///
    /// # Errors
    /// A value that is not an integer.
    pub fn int(&self, key: &str) -> Result<Option<i64>, ApiError> {
        match self.get(key) {
            None | Some("") => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                ApiError::bad_request(format!("strconv.ParseInt: parsing \"{v}\": invalid syntax"))
            }),
        }
    }
}

fn decode(s: &str) -> Option<String> {
    unescape(s, true).map(Cow::into_owned).ok()
}

/// Percent-decoding as Go's `url.unescape`: `%` and two hex digits are a byte, and with
/// `plus_as_space` (queries, not paths) `+` is a space; bytes that are not UTF-8 become U+FFFD.
/// Borrowed when there is nothing to decode.
///
/// # Errors
/// The malformed escape (`%` without two hex digits after it).
pub(crate) fn unescape(s: &str, plus_as_space: bool) -> Result<Cow<'_, str>, String> {
    let bytes = s.as_bytes();
    if !bytes
        .iter()
        .any(|&b| b == b'%' || (plus_as_space && b == b'+'))
    {
        return Ok(Cow::Borrowed(s));
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' if plus_as_space => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        String::from_utf8_lossy(&bytes[i..bytes.len().min(i + 3)]).into_owned()
                    })?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    Ok(Cow::Owned(String::from_utf8_lossy(&out).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kube_rs_and_kubectl_queries() {
        let q = Query::parse("&watch=true&fieldSelector=metadata.name%3Dprobe&limit=500");
        assert!(q.bool("watch").unwrap());
        assert_eq!(q.get("fieldSelector"), Some("metadata.name=probe"));
        assert_eq!(q.int("limit").unwrap(), Some(500));
        assert_eq!(q.int("timeoutSeconds").unwrap(), None);
        // A malformed escape drops its pair only; two hex digits, nothing else
        // (`from_str_radix` alone would take "+f").
        let q = Query::parse("a=%zz&b=%+f&c=%4&%zz=1&d=2");
        assert_eq!(q.pairs, [("d".to_owned(), "2".to_owned())]);
        assert_eq!(unescape("%+f", true).unwrap_err(), "%+f");
        assert_eq!(unescape("a%4", true).unwrap_err(), "%4");
        assert_eq!(Query::parse("a=%41%e2%9c%93").get("a"), Some("A✓"));
        assert_eq!(unescape("a+b%2Fc", false).unwrap(), "a+b/c");
        assert!(matches!(
            unescape("plain", true),
            Ok(Cow::Borrowed("plain"))
        ));
        assert!(Query::parse("watch=maybe").bool("watch").is_err());
        assert_eq!(Query::parse("a=b+c").get("a"), Some("b c"));
        let q = Query::parse("x=1;watch=true&limit=2;&y=%3B");
        assert_eq!(
            (q.get("x"), q.get("watch"), q.get("limit")),
            (None, None, None)
        );
        assert_eq!(q.get("y"), Some(";"));
    }
}
