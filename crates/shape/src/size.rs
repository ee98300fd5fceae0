//! The size of a CRD: descriptions shortened as controller-gen's `crd:maxDescLen` shortens them
//! (`#[crd(max_desc_len = N)]`), and the limit one object has in etcd.
//!
//! Embedded Kubernetes types bring their descriptions: a `PodTemplateSpec` alone is about half a
//! megabyte of them. The API server stores a CRD in one etcd request, which etcd refuses above
//! its `--max-request-bytes` (1.5 MiB by default, etcd `embed/config.go`
//! `DefaultMaxRequestBytes`); a CRD over it is rejected on create. A lower bound of the CRD's
//! JSON size is computed at compile time ([`check_crd_size`], through `ResourceDecl::check_size`)
//! and the exact size when the CRD is built (`ResourceDecl::crd`).

use crate::{Kind, Msg, Shape, VariantKind};
use crdkit_schema::Structural;

/// The largest CRD, as JSON, that etcd stores with its default `--max-request-bytes`.
pub const MAX_CRD_BYTES: usize = 1_572_864;

/// controller-gen's `truncateString` (`pkg/crd/desc_visitor.go`): a description longer than
/// `max` bytes is cut to `max` bytes, then back to its last sentence end, else to its last
/// white space with `...`, else `...` is appended; `0` drops it. The cut never splits a
/// character (Go cuts bytes), and sentence ends are `.`, `!`, `?` and the common full stops of
/// other scripts (Go tests Unicode's `STerm`).
///
/// ```
/// use crdkit_shape::size::truncate_description;
/// assert_eq!(truncate_description("One. Two three.", 9), "One.");
/// assert_eq!(truncate_description("One two three", 9), "One two...");
/// assert_eq!(truncate_description("Onetwothree", 5), "Onetw...");
/// assert_eq!(truncate_description("Short.", 0), "");
/// ```
#[must_use]
pub fn truncate_description(desc: &str, max: usize) -> String {
    if max == 0 {
        return String::new();
    }
    if desc.len() <= max {
        return desc.to_owned();
    }
    let mut end = max;
    while !desc.is_char_boundary(end) {
        end -= 1;
    }
    let cut = &desc[..end];
    if let Some((n, c)) = cut.char_indices().rev().find(|(_, c)| sentence_end(*c))
        && n > 0
    {
        return cut[..n + c.len_utf8()].to_owned();
    }
    if let Some((n, _)) = cut.char_indices().rev().find(|(_, c)| c.is_whitespace())
        && n > 0
    {
        return format!("{}...", &cut[..n]);
    }
    format!("{cut}...")
}

fn sentence_end(c: char) -> bool {
    matches!(
        c,
        '.' | '!'
            | '?'
            | '\u{589}'
            | '\u{61f}'
            | '\u{6d4}'
            | '\u{964}'
            | '\u{965}'
            | '\u{3002}'
            | '\u{ff01}'
            | '\u{ff0e}'
            | '\u{ff1f}'
            | '\u{ff61}'
    )
}

/// Shortens every description of `s` and below it with [`truncate_description`], as
/// controller-gen's `TruncateDescription` does over the whole schema.
pub fn truncate_descriptions(s: &mut Structural, max: usize) {
    if let Some(d) = &s.generic.description {
        let t = truncate_description(d, max);
        s.generic.description = (!t.is_empty()).then_some(t);
    }
    for p in s.properties.values_mut() {
        truncate_descriptions(p, max);
    }
    if let Some(items) = &mut s.items {
        truncate_descriptions(items, max);
    }
    if let Some(crdkit_schema::AdditionalProperties::Schema(v)) = &mut s.additional_properties {
        truncate_descriptions(v, max);
    }
}

/// The length of a description once shortened: the part [`truncate_description`] keeps is at
/// least 0 bytes, so only uncut descriptions count in the lower bound.
const fn kept(desc: &str, max: Option<usize>) -> usize {
    match max {
        None => desc.len(),
        Some(m) if desc.len() <= m => desc.len(),
        Some(_) => 0,
    }
}

/// `"description":"",` around a description, and `"type":"…",` at least: what every node adds
/// to the JSON besides its text.
const DESCRIPTION_KEY: usize = r#""description":"","#.len();
const TYPE_KEY: usize = r#""type":"",{}"#.len() + 4;

/// A lower bound of the JSON size of `shape`'s schema, stopping once it passes `limit`.
const fn min_bytes(shape: &Shape, max: Option<usize>, limit: usize) -> usize {
    let mut n = TYPE_KEY;
    if let Some(d) = shape.description {
        let k = kept(d, max);
        if k > 0 {
            n += DESCRIPTION_KEY + k;
        }
    }
    match shape.kind {
        Kind::Array(items) | Kind::Map(items) => n + min_bytes(items, max, limit),
        Kind::Struct(_) if shape.object_meta => n,
        Kind::Struct(fields) => {
            let mut i = 0;
            while i < fields.len() && n <= limit {
                let f = &fields[i];
                n += min_bytes(f.shape, max, limit);
                if !f.flatten {
                    // `"name":` and, for a required field, its entry in `required`.
                    n += f.name.len() + 3;
                    if f.required {
                        n += f.name.len() + 3;
                    }
                }
                i += 1;
            }
            n
        }
        Kind::Enum(e) => {
            let mut i = 0;
            while i < e.variants.len() && n <= limit {
                n += e.variants[i].name.len() + 3;
                if let VariantKind::Newtype(s) = e.variants[i].kind {
                    n += min_bytes(s, max, limit);
                }
                i += 1;
            }
            n
        }
        _ => n,
    }
}

/// Fails when the CRD of `kind` (with these `spec` and `status` shapes) is certainly over
/// [`MAX_CRD_BYTES`]: a lower bound of its JSON size (its schema's names and kept descriptions)
/// is already over.
///
/// # Errors
/// The message names the size, the limit and `max_desc_len`.
pub const fn check_crd_size(
    kind: &str,
    spec: &Shape,
    status: Option<&Shape>,
    max_desc_len: Option<usize>,
) -> Result<(), Msg> {
    let limit = MAX_CRD_BYTES;
    let mut n = min_bytes(spec, max_desc_len, limit);
    if let Some(status) = status {
        n += min_bytes(status, max_desc_len, limit);
    }
    if n <= limit {
        return Ok(());
    }
    Err(too_big(kind, n, true))
}

/// The message for a CRD over the limit; `at_least` when `bytes` is a lower bound.
pub(crate) const fn too_big(kind: &str, bytes: usize, at_least: bool) -> Msg {
    let m = Msg::of("the CRD of ").s(kind).s(" is ");
    let m = if at_least { m.s("at least ") } else { m };
    m.int(bytes as i128)
        .s(" bytes as JSON, above the ")
        .int(MAX_CRD_BYTES as i128)
        .s(" bytes etcd stores in one request by default (--max-request-bytes), so the API server cannot create it: shorten the descriptions with `#[crd(max_desc_len = ..)]` (0 drops them)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_follows_controller_gen() {
        // What controller-gen's truncateString does to each kind of text.
        let cases = [
            (
                "no truncation",
                "a short description",
                100,
                "a short description",
            ),
            (
                "sentence boundary",
                "First sentence. Second sentence.",
                20,
                "First sentence.",
            ),
            (
                "word boundary",
                "a long description without full stops",
                10,
                "a long...",
            ),
            ("no boundary", "abcdefghijklmnop", 5, "abcde..."),
            ("zero drops", "anything", 0, ""),
            ("terminal at 0 is not a boundary", ".abcdefgh", 4, ".abc..."),
        ];
        for (name, input, max, want) in cases {
            assert_eq!(truncate_description(input, max), want, "{name}");
        }
    }

    #[test]
    fn cuts_never_split_characters() {
        assert_eq!(truncate_description("ééééé", 3), "é...");
    }
}
