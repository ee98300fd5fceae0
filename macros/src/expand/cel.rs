//! CEL rules → tokens: the parsed rule as static data (`crdkit_cel_check::static_ast`),
//! the rule's `Rule` with its compile-time check, and the check itself, spanned at the rule's
//! literal.
//!
//! For each rule the derive emits, as associated consts of the type:
//! - the rule's (and `message_expression`'s) `crdkit_cel_check::static_ast::Ast`;
//! - its `crdkit_shape::cel::RuleSrc` and its
//!   `crdkit_shape::cel::RuleInfo`, `check_rule` on the schema node the rule
//!   sits on (the node's shape without its rules, so that the rule can point at its info);
//! - for non-generic types, a `const _` that fails the build with the message, at the rule.
//!   Generic types cannot have free consts: their infos fail when the type is instantiated.

use crdkit_cel_check::static_ast::MAX_NODES;
use crdkit_cel_check::static_ast::MAX_VARS;
use crdkit_cel_check::static_ast::lower::{LKind, Lowered, lower_source};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use super::shape::Gen;
use crate::attr::rule::RuleAttr;
use crate::check::jsonpath::{Step, field_path};

/// The deepest expression the `const` checker runs on: rustc's interpreter allows 128 nested
/// calls, and the checker and cost estimator use up to three per level.
pub const MAX_DEPTH: u32 = 30;

/// Parses an expression for the `const` checker; `None` when it does not parse (the syntax
/// error is reported by `check::check_rules`) or is too large to check at compile time (then
/// `crdgen check` checks it when the CRD is written).
pub fn lower(text: &str) -> Option<Lowered> {
    let l = lower_source(text).ok()?;
    (l.nodes.len() <= MAX_NODES * 2 / 3
        && l.depth <= MAX_DEPTH
        && l.type_vars as usize <= MAX_VARS / 2)
        .then_some(l)
}

/// `&Ast { .. }` of a lowered expression (`c` is the path of `crdkit::shape::cel`).
pub fn ast_tokens(c: &TokenStream, l: &Lowered) -> TokenStream {
    let a = quote!(#c::ast);
    let nodes = l.nodes.iter().map(|n| {
        let (line, col) = (n.line, n.col);
        let kind = kind_tokens(&a, &n.kind);
        quote!(#a::Node { line: #line, col: #col, kind: #kind })
    });
    let issues = l
        .validator_issues
        .iter()
        .map(|(node, m)| quote!(#a::Issue { node: #node, message: #m }));
    let (source, root, vars, depth, table_len) =
        (&l.source, l.root, l.type_vars, l.depth, l.table_len);
    quote!(&#a::Ast {
        source: #source,
        nodes: &[#(#nodes),*],
        root: #root,
        validator_issues: &[#(#issues),*],
        type_vars: #vars,
        depth: #depth,
        table_len: #table_len,
    })
}

fn global(a: &TokenStream, g: crdkit_cel_check::static_ast::Global) -> TokenStream {
    use crdkit_cel_check::static_ast::Global;
    match g {
        Global::None => quote!(#a::Global::None),
        Global::SelfVar => quote!(#a::Global::SelfVar),
        Global::OldSelf => quote!(#a::Global::OldSelf),
        Global::Type(i) => quote!(#a::Global::Type(#i)),
    }
}

fn opt_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn kind_tokens(a: &TokenStream, k: &LKind) -> TokenStream {
    match k {
        LKind::Unspecified => quote!(#a::NodeKind::Unspecified),
        LKind::Null => quote!(#a::NodeKind::Null),
        LKind::Bool(b) => quote!(#a::NodeKind::Bool(#b)),
        LKind::Int(i) => quote!(#a::NodeKind::Int(#i)),
        LKind::Uint(u) => quote!(#a::NodeKind::Uint(#u)),
        LKind::Double(d) => {
            let bits = d.to_bits();
            quote!(#a::NodeKind::Double(f64::from_bits(#bits)))
        }
        LKind::String(s) => quote!(#a::NodeKind::String(#s)),
        LKind::Bytes(b) => {
            let lit = syn::LitByteStr::new(b, Span::call_site());
            quote!(#a::NodeKind::Bytes(#lit))
        }
        LKind::Ident { name, global: g } => {
            let g = global(a, *g);
            quote!(#a::NodeKind::Ident { name: #name, global: #g })
        }
        LKind::Select {
            operand,
            field,
            test_only,
            head,
            qualified,
        } => {
            let q = global(a, *qualified);
            quote!(#a::NodeKind::Select { operand: #operand, field: #field, test_only: #test_only, head: #head, qualified: #q })
        }
        LKind::Call(c) => {
            let target = match c.target {
                Some(t) => quote!(::core::option::Option::Some(#t)),
                None => quote!(::core::option::Option::None),
            };
            let (function, args, declared, overloads) =
                (&c.function, &c.args, c.declared, &c.overloads);
            let namespaced = match &c.namespaced {
                Some((f, o)) => {
                    quote!(::core::option::Option::Some(&#a::Namespaced { function: #f, overloads: &[#(#o),*] }))
                }
                None => quote!(::core::option::Option::None),
            };
            let format = match &c.format {
                Some((verbs, end)) => {
                    let verbs = syn::LitByteStr::new(verbs, Span::call_site());
                    let end = match end {
                        Ok(n) => quote!(::core::result::Result::Ok(#n)),
                        Err(e) => quote!(::core::result::Result::Err(#e)),
                    };
                    quote!(::core::option::Option::Some(&#a::Format { verbs: #verbs, end: #end }))
                }
                None => quote!(::core::option::Option::None),
            };
            let opt = opt_str(c.opt_select_text.as_deref());
            quote!(#a::NodeKind::Call(&#a::Call {
                target: #target,
                function: #function,
                args: &[#(#args),*],
                declared: #declared,
                overloads: &[#(#overloads),*],
                namespaced: #namespaced,
                format: #format,
                opt_select_text: #opt,
            }))
        }
        LKind::List { elems, optional } => {
            quote!(#a::NodeKind::List { elems: &[#(#elems),*], optional: &[#(#optional),*] })
        }
        LKind::Map { entries } => {
            let entries = entries.iter().map(|e| {
                let (node, key, value, optional) = (e.node, e.key, e.value, e.optional);
                quote!(#a::Entry { node: #node, key: #key, value: #value, optional: #optional })
            });
            quote!(#a::NodeKind::Map { entries: &[#(#entries),*] })
        }
        LKind::Struct {
            type_name,
            resolved,
            fields,
        } => {
            let resolved = match resolved {
                Some(i) => quote!(::core::option::Option::Some(#i)),
                None => quote!(::core::option::Option::None),
            };
            let fields = fields.iter().map(|(node, f, value, optional)| {
                quote!(#a::FieldInit { node: #node, field: #f, value: #value, optional: #optional })
            });
            quote!(#a::NodeKind::Struct { type_name: #type_name, resolved: #resolved, fields: &[#(#fields),*] })
        }
        LKind::Comprehension {
            iter_var,
            iter_var2,
            iter_range,
            accu_var,
            accu_init,
            loop_condition,
            loop_step,
            result,
        } => {
            let v2 = opt_str(iter_var2.as_deref());
            quote!(#a::NodeKind::Comprehension(&#a::Comprehension {
                iter_var: #iter_var,
                iter_var2: #v2,
                iter_range: #iter_range,
                accu_var: #accu_var,
                accu_init: #accu_init,
                loop_condition: #loop_condition,
                loop_step: #loop_step,
                result: #result,
            }))
        }
    }
}

impl Gen {
    /// The `Rule` of a rule attribute on the node whose shape (without rules) is `node`, with
    /// its compile-time check. `site` names the type and field; `items_of` is the list shape
    /// when the rule sits on its items.
    pub fn rule(
        &mut self,
        r: &RuleAttr,
        node: &TokenStream,
        site: &str,
        items_of: Option<&TokenStream>,
        resource_root: bool,
    ) -> TokenStream {
        let k = self.krate.clone();
        let p = quote!(#k::__private);
        let c = quote!(#k::__private::cel);
        // A type-level rule on a resource's spec that reads the whole object gets a hint.
        let spec_rule = self.resource_spec && site == self.type_name;
        let text = r.rule.value();
        let opt = |l: &Option<syn::LitStr>| match l {
            Some(l) => {
                let v = l.value();
                quote!(::core::option::Option::Some(#v))
            }
            None => quote!(::core::option::Option::None),
        };
        let message = opt(&r.message);
        let message_expression = opt(&r.message_expression);
        let field_path_lit = opt(&r.field_path);
        let reason = opt_str(r.reason.as_ref().map(|s| s.value.as_str()));
        let oos = r.optional_old_self;
        let none = quote!(::core::option::Option::None);
        let rule = |ast: &TokenStream, message_ast: &TokenStream, info: &TokenStream| quote!(#p::Rule { rule: #text, message: #message, message_expression: #message_expression, reason: #reason, field_path: #field_path_lit, optional_old_self: #oos, ast: #ast, message_ast: #message_ast, info: #info });
        let Some(lowered) = lower(&text) else {
            return rule(&none, &none, &none);
        };
        let message_lowered = match &r.message_expression {
            Some(m) => match lower(&m.value()) {
                Some(l) => Some(l),
                None => return rule(&none, &none, &none),
            },
            None => None,
        };
        let ast = ast_tokens(&c, &lowered);
        let ast = self.push_const(quote!(&'static #c::Ast), ast);
        let message_ast = match &message_lowered {
            Some(l) => {
                let t = ast_tokens(&c, l);
                let m = self.push_const(quote!(&'static #c::Ast), t);
                quote!(::core::option::Option::Some(#m))
            }
            None => none.clone(),
        };
        let steps = r
            .field_path
            .as_ref()
            .and_then(|f| Some((f.value(), field_path(&f.value(), true).ok()?)));
        let fp = match steps {
            Some((text, steps)) => {
                let names = steps.iter().filter_map(|s| match s {
                    Step::Field(n) => Some(n.as_str()),
                    Step::Elem => None,
                });
                quote!(::core::option::Option::Some((#text, &[#(#names),*])))
            }
            None => none.clone(),
        };
        let src = self.push_const(
            quote!(#c::RuleSrc),
            quote!(#c::RuleSrc { rule: #text, ast: #ast, message_ast: #message_ast, optional_old_self: #oos, field_path: #fp }),
        );
        let items_of = match items_of {
            Some(l) => quote!(::core::option::Option::Some(#l)),
            None => none.clone(),
        };
        let site =
            quote!(#c::Site { name: #site, items_of: #items_of, resource_root: #resource_root });
        let check = quote!(#c::check_rule(#site, #c::child(#node), &#src));
        let span = r.rule.span();
        let info = if self.generic {
            // Checked when the type is instantiated: fail there, at the rule.
            self.push_const(
                quote!(#c::RuleInfo),
                quote_spanned! {span=> match #check {
                    ::core::result::Result::Ok(i) => i,
                    ::core::result::Result::Err(e) => ::core::panic!("{}", #p::Msg::as_str(&e)),
                }},
            )
        } else {
            let info = self.push_const(quote!(#c::RuleInfo), quote!(#c::rule_info(#check)));
            // Each error at the literal it is about.
            let parts = [
                (Some(span), quote!(Rule)),
                (
                    r.message_expression.as_ref().map(syn::LitStr::span),
                    quote!(MessageExpression),
                ),
                (
                    r.field_path.as_ref().map(syn::LitStr::span),
                    quote!(FieldPath),
                ),
            ];
            for (at, part) in parts {
                let Some(at) = at else { continue };
                let mut result =
                    quote!(#c::check_part(#site, #c::child(#node), &#src, #c::Part::#part));
                if spec_rule {
                    result = quote!(#c::spec_hint(#result));
                }
                self.check_at(
                    at,
                    quote!(if #info.ok {
                        ::core::result::Result::Ok(())
                    } else {
                        #result
                    }),
                );
            }
            info
        };
        rule(
            &quote!(::core::option::Option::Some(#ast)),
            &message_ast,
            &quote!(::core::option::Option::Some(&#info)),
        )
    }
}
