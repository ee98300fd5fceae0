//! Collects errors while parsing and checking so that one build reports every problem
//! (serde_derive's `Ctxt`). The errors must be taken with [`Ctxt::check`]: dropping a `Ctxt`
//! that was never checked is a bug in the derive and panics, so no error can be lost.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The error sink of one derive invocation.
pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanned by the tokens of `obj`.
    pub fn error_spanned_by<A: ToTokens, T: Display>(&self, obj: A, msg: T) {
        self.syn_error(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// Records an error at `span`.
    pub fn error_at<T: Display>(&self, span: proc_macro2::Span, msg: T) {
        self.syn_error(syn::Error::new(span, msg));
    }

    pub fn syn_error(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(err);
    }

    /// Ends collection: all errors combined into one.
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut iter = errors.into_iter();
        let Some(mut first) = iter.next() else {
            return Ok(());
        };
        for e in iter {
            first.combine(e);
        }
        Err(first)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // A derive that returns without `check` would silently drop its errors.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;

    #[test]
    #[should_panic(expected = "forgot to check for errors")]
    fn unchecked_errors_panic_on_drop() {
        let cx = Ctxt::new();
        cx.error_at(proc_macro2::Span::call_site(), "lost");
    }

    #[test]
    fn checked_errors_combine_in_order() {
        let cx = Ctxt::new();
        cx.error_at(proc_macro2::Span::call_site(), "first");
        cx.error_at(proc_macro2::Span::call_site(), "second");
        let err = cx.check().unwrap_err();
        let all: Vec<String> = err.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(all, ["first", "second"]);
    }
}
