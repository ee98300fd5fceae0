//! Fields read from stored bytes without building the rest of the object: strings as
//! `unstructured` reads them (a value of another type is no string) and labels.

use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The visitor methods of the JSON values a field reads as `$none` (numbers, booleans, null).
macro_rules! scalars_as {
    ($ty:ty, $none:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<$ty, E> {
            Ok($none)
        }
        fn visit_i64<E>(self, _: i64) -> Result<$ty, E> {
            Ok($none)
        }
        fn visit_u64<E>(self, _: u64) -> Result<$ty, E> {
            Ok($none)
        }
        fn visit_f64<E>(self, _: f64) -> Result<$ty, E> {
            Ok($none)
        }
        fn visit_unit<E>(self) -> Result<$ty, E> {
            Ok($none)
        }
        fn visit_none<E>(self) -> Result<$ty, E> {
            Ok($none)
        }
    };
}

/// A field that may hold a string: `None` when it holds another type (read as empty by the
/// callers, as `unstructured.NestedString` gives up on those).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Str(pub Option<String>);

impl Str {
    /// The string, or empty.
    pub(crate) fn text(self) -> String {
        self.0.unwrap_or_default()
    }
}

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        d.deserialize_any(StrVisitor)
    }
}

struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, v: &str) -> Result<Str, E> {
        Ok(Str(Some(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Str, E> {
        Ok(Str(Some(v)))
    }
    scalars_as!(Str, Str(None));
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Str, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Str, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Str(None))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Str, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Str(None))
    }
}

/// A string map's string pairs (`metadata.labels`), keys sorted, a key given twice holding its
/// last value as a decoded JSON object would; empty when not an object.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct StrPairs(pub Vec<(String, String)>);

impl<'de> Deserialize<'de> for StrPairs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StrPairs, D::Error> {
        match Pairs::deserialize(d)? {
            Pairs(Some(all)) => Ok(StrPairs(string_pairs(all))),
            Pairs(None) => Ok(StrPairs::default()),
        }
    }
}

/// Every entry of an object in document order (`None`: not an object).
struct Pairs(Option<Vec<(String, Str)>>);

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pairs, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Pairs;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
                let mut all = Vec::new();
                while let Some(entry) = map.next_entry::<String, Str>()? {
                    all.push(entry);
                }
                Ok(Pairs(Some(all)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pairs, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Pairs(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Pairs, E> {
                Ok(Pairs(None))
            }
            scalars_as!(Pairs, Pairs(None));
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Pairs, D::Error> {
                d.deserialize_any(self)
            }
        }
        d.deserialize_any(V)
    }
}

/// Sorted by key, the last of each key, its string values (stored objects come sorted and
/// unique: the sort only checks).
fn string_pairs(mut all: Vec<(String, Str)>) -> Vec<(String, String)> {
    all.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(String, String)> = Vec::with_capacity(all.len());
    let mut iter = all.into_iter().peekable();
    while let Some((k, v)) = iter.next() {
        if iter.peek().is_some_and(|(next, _)| *next == k) {
            continue;
        }
        if let Str(Some(v)) = v {
            out.push((k, v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_pairs_as_a_decoded_object_reads_them() {
        let s = |t: &str| serde_json::from_str::<Str>(t).unwrap().0;
        assert_eq!(s(r#""a""#), Some("a".to_owned()));
        assert_eq!(s(r#""a\"b""#), Some("a\"b".to_owned()));
        for other in [
            "1",
            "-1",
            "1.5",
            "true",
            "null",
            "[1, [2]]",
            r#"{"a": {"b": 1}}"#,
        ] {
            assert_eq!(s(other), None, "{other}");
        }
        let p = |t: &str| serde_json::from_str::<StrPairs>(t).unwrap().0;
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(
            p(r#"{"b": "2", "a": "1", "c": 3}"#),
            pairs(&[("a", "1"), ("b", "2")])
        );
        // The last of a key given twice, even when it is not a string.
        assert_eq!(p(r#"{"a": "1", "a": "2"}"#), pairs(&[("a", "2")]));
        assert_eq!(p(r#"{"a": "1", "b": "x", "a": 5}"#), pairs(&[("b", "x")]));
        for other in ["null", "\"x\"", "[1]", "3", "{}"] {
            assert!(p(other).is_empty(), "{other}");
        }
        // Each compared with a decoded `Value`'s string entries.
        for t in [
            r#"{"z": "1", "y": {"q": 1}, "x": "3", "z": "4"}"#,
            r#"{"k": null}"#,
        ] {
            let v: serde_json::Value = serde_json::from_str(t).unwrap();
            let want: Vec<(String, String)> = v
                .as_object()
                .unwrap()
                .iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned())))
                .collect();
            assert_eq!(p(t), want, "{t}");
        }
    }
}
