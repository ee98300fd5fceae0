//! The root type of a custom resource: struct, serde impls, `Schema`, `CustomResource`, the
//! `kube::Resource` impl (through the facade, when its `kube` feature is on) and the path checks.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::Container;
use crate::check::jsonpath::Step;
use crate::check::paths::{Expect, PathCheck};
use crate::check::resource::Resource;
use crate::expand::shape::Gen;

pub fn expand(cont: &Container<'_>, r: &Resource) -> TokenStream {
    let krate = cont.attrs.krate();
    let p = quote!(#krate::__private);
    let c = quote!(#krate::__private::cel);
    let spec = cont.ident;
    let root = &r.root;
    let vis = cont.vis;
    let api_version = format!("{}/{}", r.group, r.version);
    let (group, version, kind, plural, singular, list_kind) = (
        &r.group,
        &r.version,
        &r.kind,
        &r.plural,
        &r.singular,
        &r.list_kind,
    );
    let short_names = &r.short_names;
    let categories = &r.categories;
    let (namespaced, served, storage, deprecated, spec_required, flatten) = (
        r.namespaced,
        r.served,
        r.storage,
        r.deprecated,
        r.spec_required && !r.flatten,
        r.flatten,
    );
    let opt_str = |o: &Option<String>| match o {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    };
    let deprecation_warning = opt_str(&r.deprecation_warning);
    let api_version_property = opt_str(&r.api_version_property);
    let kind_property = opt_str(&r.kind_property);
    let metadata_property = opt_str(&r.metadata_property);
    let (metadata_required, status_subresource, empty_subresources) = (
        r.metadata_required,
        r.status_subresource,
        r.empty_subresources,
    );
    let root_description = opt_str(&r.root_description);
    let max_desc_len = match &r.max_desc_len {
        Some(n) => {
            let n = usize::try_from(*n).unwrap_or(usize::MAX);
            quote!(::core::option::Option::Some(#n))
        }
        None => quote!(::core::option::Option::None),
    };
    let doc = format!("The `{kind}` custom resource ({api_version}), whose spec is [`{spec}`].");

    let (status_field, status_shape, status_ser, status_de, status_new) = match &r.status {
        Some(ty) => (
            quote! {
                /// The status, written by the controller.
                pub status: ::core::option::Option<#ty>,
            },
            quote!(Some(&<#ty as #p::Schema>::SHAPE)),
            quote! {
                if let ::core::option::Option::Some(status) = &self.status {
                    #p::serde::ser::SerializeStruct::serialize_field(&mut st, "status", status)?;
                }
            },
            quote!(#[serde(default)] status: ::core::option::Option<#ty>,),
            quote!(status: h.status,),
        ),
        None => (quote!(), quote!(None), quote!(), quote!(), quote!()),
    };
    let status_new_default = if r.status.is_some() {
        quote!(status: ::core::option::Option::None,)
    } else {
        quote!()
    };
    let status_count = usize::from(r.status.is_some());
    let status_type = match &r.status {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    let status_field_shape = match &r.status {
        Some(ty) => {
            quote!(#p::Field { name: "status", ident: "status", shape: &<#ty as #p::Schema>::SHAPE, required: false, flatten: false },)
        }
        None => quote!(),
    };
    let spec_de_default = if flatten {
        quote!(#[serde(flatten)])
    } else if spec_required {
        quote!()
    } else {
        quote!(#[serde(default)])
    };

    let scale = match &r.scale {
        Some((spec_path, status_path, selector)) => {
            let selector = opt_str(selector);
            quote!(Some(#p::Scale { spec_replicas_path: #spec_path, status_replicas_path: #status_path, label_selector_path: #selector }))
        }
        None => quote!(None),
    };
    let columns = r.columns.iter().map(|c| {
        let (name, path, priority) = (&c.name.value, &c.json_path.value, c.priority);
        let ty = match &c.ty {
            Some(t) => {
                let t = &t.value;
                quote!(#t)
            }
            None => {
                let steps = crate::check::jsonpath::printer(path).map(|p| p.steps).unwrap_or_default();
                let steps = steps.iter().map(|s| match s {
                    Step::Field(f) => quote!(#p::check::Seg::Field(#f)),
                    Step::Elem => quote!(#p::check::Seg::Elem),
                });
                quote!(#p::check::column_type(&<#root as #p::Schema>::SHAPE, &[#(#steps),*]))
            }
        };
        let format = opt_str(&c.format.as_ref().map(|f| f.value.clone()));
        let description = opt_str(&c.description);
        quote!(#p::PrinterColumn { name: #name, ty: #ty, format: #format, description: #description, priority: #priority, json_path: #path })
    });
    let selectable = &r.selectable_fields;
    // Root rules: checked on the root's schema (with apiVersion, kind and metadata).
    let mut g = Gen::new(krate.clone());
    g.type_name.clone_from(kind);
    let root_node = g.push_const(
        quote!(&'static #p::Shape),
        quote!(&<#root as #p::Schema>::SHAPE),
    );
    let rules: Vec<TokenStream> = r
        .root_rules
        .iter()
        .map(|rule| g.rule(rule, &root_node, kind, None, true))
        .collect();
    let root_consts = &g.consts;
    let root_checks = super::emit_checks(&g.checks, root, &krate);
    let spec_span = spec.span();
    let crd_check = quote_spanned! {spec_span=>
        const _: () = match #c::check_crd(&<#root as #p::Schema>::SHAPE, <#root as #p::CustomResource>::RESOURCE.rules) {
            ::core::result::Result::Ok(()) => (),
            ::core::result::Result::Err(e) => ::core::panic!("{}", #p::Msg::as_str(&e)),
        };
        const _: () = match <#root as #p::CustomResource>::RESOURCE.check_size() {
            ::core::result::Result::Ok(()) => (),
            ::core::result::Result::Err(e) => ::core::panic!("{}", #p::Msg::as_str(&e)),
        };
    };
    let derives = &r.derives;
    let attrs = &r.attrs;
    let pair = |(k, v): &(String, String)| quote!((#k, #v));
    let annotations = r.annotations.iter().map(pair);
    let labels = r.labels.iter().map(pair);
    let path_checks = r.paths.iter().map(|pc| {
        if let Some(at) = pc.unchecked {
            return unchecked_warning(pc, at);
        }
        let steps = pc.steps.iter().map(|s| match s {
            Step::Field(f) => quote!(#p::check::Seg::Field(#f)),
            Step::Elem => quote!(#p::check::Seg::Elem),
        });
        let expect = match pc.expect {
            Expect::Anything => quote!(Anything),
            Expect::Integer => quote!(Integer),
            Expect::Number => quote!(Number),
            Expect::Boolean => quote!(Boolean),
            Expect::String => quote!(String),
            Expect::Date => quote!(Date),
            Expect::Selectable => quote!(Selectable),
        };
        let prefix = format!("{} \"{}\" ", pc.what, pc.path);
        let span = pc.span;
        quote_spanned! {span=>
            const _: () = match #p::check::resolve_path(&<#root as #p::Schema>::SHAPE, &[#(#steps),*], #p::check::Expect::#expect) {
                ::core::result::Result::Ok(()) => (),
                ::core::result::Result::Err(e) => ::core::panic!("{}", #p::Msg::as_str(&#p::Msg::of(#prefix).s(#p::Msg::as_str(&e)))),
            };
        }
    });
    let serde_path = format!("{}::__private::serde", krate.to_string().replace(' ', ""));
    let n_fields = 4 + status_count;
    let serialize_body = if flatten {
        // serde writes the spec's fields in place of `spec`, through a map.
        let (status_field, status_value) = match &r.status {
            Some(ty) => (
                quote!(#[serde(skip_serializing_if = "Option::is_none")] status: ::core::option::Option<&'a #ty>,),
                quote!(status: self.status.as_ref(),),
            ),
            None => (quote!(), quote!()),
        };
        quote! {
            #[derive(#p::serde::Serialize)]
            #[serde(crate = #serde_path)]
            struct Helper<'a> {
                #[serde(rename = "apiVersion")]
                api_version: &'a str,
                kind: &'a str,
                metadata: &'a #p::ObjectMeta,
                #[serde(flatten)]
                spec: &'a #spec,
                #status_field
            }
            #p::serde::Serialize::serialize(&Helper { api_version: #api_version, kind: #kind, metadata: &self.metadata, spec: &self.spec, #status_value }, serializer)
        }
    } else {
        quote! {
            let mut st = #p::serde::Serializer::serialize_struct(serializer, #kind, #n_fields)?;
            #p::serde::ser::SerializeStruct::serialize_field(&mut st, "apiVersion", #api_version)?;
            #p::serde::ser::SerializeStruct::serialize_field(&mut st, "kind", #kind)?;
            #p::serde::ser::SerializeStruct::serialize_field(&mut st, "metadata", &self.metadata)?;
            #p::serde::ser::SerializeStruct::serialize_field(&mut st, "spec", &self.spec)?;
            #status_ser
            #p::serde::ser::SerializeStruct::end(st)
        }
    };
    let scope = if namespaced {
        quote!(Namespaced)
    } else {
        quote!(Cluster)
    };
    let has_status = if r.status.is_some() {
        quote!(status)
    } else {
        quote!(no_status)
    };

    quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug #(, #derives)*)]
        #(#[#attrs])*
        #vis struct #root {
            /// Standard object metadata.
            pub metadata: #p::ObjectMeta,
            /// The desired state.
            pub spec: #spec,
            #status_field
        }

        impl #root {
            #(#root_consts)*

            /// A new object named `name` with the given spec.
            #[must_use]
            pub fn new(name: &str, spec: #spec) -> Self {
                Self {
                    metadata: #p::ObjectMeta { name: ::core::option::Option::Some(::std::string::ToString::to_string(name)), ..::core::default::Default::default() },
                    spec,
                    #status_new_default
                }
            }

            /// The CustomResourceDefinition of this resource.
            ///
            /// # Errors
            /// Only when a part of the schema is computed at run time and fails: a
            /// `#[crd(schemars)]` field without a structural schema, or that the API server
            /// would reject (with the `crd` feature), a `default` function whose value does not
            /// serialize, or descriptions over etcd's size limit.
            pub fn crd() -> ::core::result::Result<#p::CustomResourceDefinition, #p::CrdError> {
                <Self as #p::CustomResource>::crd()
            }
        }

        impl #p::CustomResource for #root {
            type Spec = #spec;
            type Status = #status_type;
            const API_VERSION: &'static str = #api_version;
            const KIND: &'static str = #kind;
            fn crd() -> ::core::result::Result<#p::CustomResourceDefinition, #p::CrdError> {
                #p::checked_crd(&<Self as #p::CustomResource>::RESOURCE)
            }
            const RESOURCE: #p::ResourceDecl = #p::ResourceDecl {
                group: #group,
                version: #version,
                kind: #kind,
                plural: #plural,
                singular: #singular,
                list_kind: #list_kind,
                short_names: &[#(#short_names),*],
                categories: &[#(#categories),*],
                namespaced: #namespaced,
                served: #served,
                storage: #storage,
                deprecated: #deprecated,
                deprecation_warning: #deprecation_warning,
                description: #root_description,
                max_desc_len: #max_desc_len,
                spec: &<#spec as #p::Schema>::SHAPE,
                spec_required: #spec_required,
                flatten: #flatten,
                status: #status_shape,
                status_subresource: #status_subresource,
                scale: #scale,
                printer_columns: &[#(#columns),*],
                selectable_fields: &[#(#selectable),*],
                rules: &[#(#rules),*],
                annotations: &[#(#annotations),*],
                labels: &[#(#labels),*],
                api_version_property: #api_version_property,
                kind_property: #kind_property,
                metadata_property: #metadata_property,
                metadata_required: #metadata_required,
                empty_subresources: #empty_subresources,
            };
        }

        impl #p::Schema for #root {
            const SHAPE: #p::Shape = {
                let mut s = #p::Shape::new(#p::Kind::Struct(&[
                    #p::Field { name: "apiVersion", ident: "apiVersion", shape: &<::std::string::String as #p::Schema>::SHAPE, required: false, flatten: false },
                    #p::Field { name: "kind", ident: "kind", shape: &<::std::string::String as #p::Schema>::SHAPE, required: false, flatten: false },
                    #p::Field { name: "metadata", ident: "metadata", shape: &<#p::ObjectMeta as #p::Schema>::SHAPE, required: false, flatten: false },
                    #p::Field { name: "spec", ident: "spec", shape: &<#spec as #p::Schema>::SHAPE, required: #spec_required, flatten: #flatten },
                    #status_field_shape
                ]));
                s.name = #kind;
                s.embedded_resource = true;
                s
            };
        }

        impl #p::serde::Serialize for #root {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                #serialize_body
            }
        }

        impl<'de> #p::serde::Deserialize<'de> for #root {
            fn deserialize<D: #p::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #[derive(#p::serde::Deserialize)]
                #[serde(crate = #serde_path)]
                struct Helper {
                    #[serde(default)]
                    metadata: #p::ObjectMeta,
                    #spec_de_default
                    spec: #spec,
                    #status_de
                }
                let h = <Helper as #p::serde::Deserialize>::deserialize(deserializer)?;
                ::core::result::Result::Ok(Self { metadata: h.metadata, spec: h.spec, #status_new })
            }
        }

        #krate::__impl_validation!(#root);
        #krate::__impl_kube_resource!(#root, #group, #version, #api_version, #kind, #plural, #scope, #has_status);

        #(#path_checks)*
        #root_checks
        #crd_check
    }
}

/// A path left unchecked (`allow_unresolved`) warns where it is written: a deprecated item used
/// at the attribute's span is the one warning a derive can raise on stable Rust.
fn unchecked_warning(pc: &PathCheck, at: proc_macro2::Span) -> TokenStream {
    let note = format!(
        "{} \"{}\" is not checked against the schema (`allow_unresolved`): where it does not resolve, the API server finds no value",
        pc.what, pc.path
    );
    quote_spanned! {at=>
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_upper_case_globals)]
            const allow_unresolved: () = ();
            allow_unresolved
        };
    }
}
