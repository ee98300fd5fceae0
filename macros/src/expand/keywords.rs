//! Schema keywords → the fields of a `Shape` (`s.pattern = Some(..)`, defaults, nested
//! `items(..)`/`values(..)` and the node's CEL rules).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use syn::spanned::Spanned as _;

use super::shape::Gen;
use crate::attr::json::DefaultAttr;
use crate::attr::keywords::Keywords;

impl Gen {
    /// Applies keywords to the shape expression `base`, returning a `&'static Shape` expression.
    /// `site` names the node in rule messages; `items_of` is the list when these are the
    /// keywords of its items.
    #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
    pub(super) fn keywords(
        &mut self,
        base: TokenStream,
        kw: &Keywords,
        doc: Option<&str>,
        nullable: Option<bool>,
        what: &str,
        span: Span,
        site: &str,
        items_of: Option<TokenStream>,
    ) -> TokenStream {
        let k = self.krate.clone();
        let p = quote!(#k::__private);
        let mut sets = Vec::new();
        let description = kw.description.as_ref().map(|d| d.value.as_str()).or(doc);
        if let Some(d) = description {
            sets.push(quote!(s.description = Some(#d);));
        }
        if let Some(t) = &kw.title {
            let t = &t.value;
            sets.push(quote!(s.title = Some(#t);));
        }
        if let Some(f) = &kw.format {
            let f = &f.value;
            sets.push(quote!(s.format = Some(#f);));
        }
        for (slot, v) in [
            ("minimum", &kw.minimum),
            ("maximum", &kw.maximum),
            ("multiple_of", &kw.multiple_of),
        ] {
            if let Some(v) = v {
                let slot = format_ident!("{slot}");
                let n = v.value;
                sets.push(quote!(s.#slot = Some(#n);));
            }
        }
        for (slot, v) in [
            ("exclusive_minimum", &kw.exclusive_minimum),
            ("exclusive_maximum", &kw.exclusive_maximum),
            ("preserve_unknown_fields", &kw.preserve_unknown_fields),
            ("embedded_resource", &kw.embedded_resource),
        ] {
            if let Some(v) = v {
                let slot = format_ident!("{slot}");
                let b = v.value;
                sets.push(quote!(s.#slot = #b;));
            }
        }
        for (slot, v) in [
            ("min_length", &kw.min_length),
            ("max_length", &kw.max_length),
            ("min_items", &kw.min_items),
            ("max_items", &kw.max_items),
            ("min_properties", &kw.min_properties),
            ("max_properties", &kw.max_properties),
        ] {
            if let Some(v) = v {
                let slot = format_ident!("{slot}");
                let n = v.value;
                sets.push(quote!(s.#slot = Some(#n);));
            }
        }
        if let Some(l) = &kw.length {
            let (min, max) = l.value;
            let opt = |n: Option<u64>| match n {
                Some(n) => quote!(::core::option::Option::Some(#n)),
                None => quote!(::core::option::Option::None),
            };
            let (min, max) = (opt(min), opt(max));
            sets.push(quote!(s = s.length_of_kind(#min, #max);));
            let what = what.to_owned();
            let b = base.clone();
            self.check_at(l.span, quote!(#p::check::check_length(&#b, #what)));
        }
        if let Some(pat) = &kw.pattern {
            let pat = &pat.value;
            sets.push(quote!(s.pattern = Some(#pat);));
        }
        if let Some(values) = &kw.enum_values {
            let items = values.value.iter().map(|v| v.to_tokens(&k));
            let c = self.push_const(quote!(&'static [#p::Json]), quote!(&[#(#items),*]));
            sets.push(quote!(s.enum_values = #c;));
        }
        for (slot, list) in [
            ("all_of", &kw.all_of),
            ("any_of", &kw.any_of),
            ("one_of", &kw.one_of),
        ] {
            if let Some(list) = list {
                let slot = format_ident!("{slot}");
                let items = list.value.iter().map(|v| v.to_tokens(&k));
                let c = self.push_const(quote!(&'static [#p::Json]), quote!(&[#(#items),*]));
                sets.push(quote!(s.junctors.#slot = #c;));
            }
        }
        if let Some(not) = &kw.not {
            let j = not.value.to_tokens(&k);
            let c = self.push_const(quote!(&'static #p::Json), quote!(&#j));
            sets.push(quote!(s.junctors.not = Some(#c);));
        }
        if kw.ty.is_some() {
            sets.push(quote!(s.object = true;));
        }
        if let Some(n) = kw.nullable.as_ref().map(|n| n.value).or(nullable) {
            sets.push(quote!(s.nullable = #n;));
        }
        if kw.int_or_string.as_ref().is_some_and(|i| i.value) {
            sets.push(quote!(s.kind = #p::Kind::IntOrString;));
            // `serde_json::Value` preserves unknown fields; int-or-string must not.
            if kw.preserve_unknown_fields.is_none() {
                sets.push(quote!(s.preserve_unknown_fields = false;));
            }
        }
        if let Some(t) = &kw.list_type {
            let v = format_ident!("{}", capitalize(&t.value));
            sets.push(quote!(s.list_type = Some(#p::ListType::#v);));
        }
        if let Some(keys) = &kw.list_map_keys {
            let keys = &keys.value;
            sets.push(quote!(s.list_map_keys = &[#(#keys),*];));
        }
        if let Some(t) = &kw.map_type {
            let v = format_ident!("{}", capitalize(&t.value));
            sets.push(quote!(s.map_type = Some(#p::MapType::#v);));
        }
        if let Some(d) = &kw.default {
            let value = match d {
                DefaultAttr::Literal(lit, _) => {
                    let j = lit.to_tokens(&k);
                    let c = self.push_const(quote!(#p::Json), j);
                    quote!(#p::DefaultValue::Value(#c))
                }
                DefaultAttr::Fn(path) => {
                    let c = self.push_const(
                        quote!(fn() -> ::core::result::Result<::core::option::Option<#p::serde_json::Value>, #p::serde_json::Error>),
                        quote_spanned!(path.span()=> || #p::default_value(#path())),
                    );
                    quote!(#p::DefaultValue::Fn(#c))
                }
                DefaultAttr::TypeDefault(span) => {
                    let ty = base_type_of(&base);
                    let c = self.push_const(
                        quote!(fn() -> ::core::result::Result<::core::option::Option<#p::serde_json::Value>, #p::serde_json::Error>),
                        quote_spanned!(*span=> || #p::default_value(<#ty as ::core::default::Default>::default())),
                    );
                    quote!(#p::DefaultValue::Fn(#c))
                }
            };
            sets.push(quote!(s.default = Some(#value);));
        }
        // The list type the items' rules see (transition rules need `list_type = "map"`).
        let list_for_items = kw.items.as_ref().map(|_| {
            let set = kw.list_type.as_ref().map(|t| {
                let v = format_ident!("{}", capitalize(&t.value));
                quote!(s.list_type = Some(#p::ListType::#v);)
            });
            self.push_const(
                quote!(&'static #p::Shape),
                quote!(&{ let mut s: #p::Shape = #base; #set s }),
            )
        });
        for (inner, accessor, label) in [
            (&kw.items, quote!(items), "items"),
            (&kw.values, quote!(values), "values"),
        ] {
            if let Some(inner) = inner {
                let inner_base = quote!(*(#base).#accessor());
                let inner_what = format!("{what}[*]");
                let inner_site = format!("{site}[*]");
                let parent = if label == "items" {
                    list_for_items.clone()
                } else {
                    None
                };
                let shape = self.keywords(
                    inner_base,
                    inner,
                    None,
                    None,
                    &inner_what,
                    span,
                    &inner_site,
                    parent,
                );
                let what_s = what.to_owned();
                self.check_at(
                    span,
                    quote!(#p::check::check_inner(&#base, #label, #what_s)),
                );
                self.check_at(span, quote!(#p::check::check_keywords(#shape, #inner_what)));
                sets.push(quote!(s = s.with_inner(#shape);));
            }
        }
        let node = if sets.is_empty() {
            self.push_const(quote!(&'static #p::Shape), quote!(&#base))
        } else {
            self.push_const(
                quote!(&'static #p::Shape),
                quote!(&{ let mut s: #p::Shape = #base; #(#sets)* s }),
            )
        };
        if kw.rules.is_empty() {
            return node;
        }
        let rules: Vec<TokenStream> = kw
            .rules
            .iter()
            .map(|r| self.rule(r, &node, site, items_of.as_ref(), false))
            .collect();
        let own = self.push_const(quote!(&'static [#p::Rule]), quote!(&[#(#rules),*]));
        let inherited = self.push_const(quote!(&'static #p::Rules), quote!(&(#base).rules));
        self.push_const(
            quote!(&'static #p::Shape),
            quote!(&{ let mut s: #p::Shape = *#node; s.rules = #p::Rules { own: #own, inherited: Some(#inherited) }; s }),
        )
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// `<T as Schema>::SHAPE` → `T`, for `default` without a value.
fn base_type_of(base: &TokenStream) -> TokenStream {
    let s: syn::Result<syn::ExprPath> = syn::parse2(base.clone());
    match s.ok().and_then(|e| e.qself) {
        Some(q) => {
            let t = q.ty;
            quote!(#t)
        }
        None => quote!(_),
    }
}
