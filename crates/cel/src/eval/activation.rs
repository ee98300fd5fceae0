//! The variables of one evaluation (cel-go `interpreter.Activation`), with the JSON views of
//! apiserver `UnstructuredToVal` for `self` and `oldSelf`.

use std::borrow::Cow;

use crate::schema::Schema;
use crate::value::EvalResult;
use crate::value::Value;
use crate::value::json;

/// The variables of one evaluation (two are stored inline: `self` and `oldSelf` cost no
/// allocation).
#[derive(Clone, Debug, Default)]
pub struct Activation<'a> {
    inline: [Option<(Cow<'a, str>, EvalResult<'a>)>; 2],
    rest: Vec<(Cow<'a, str>, EvalResult<'a>)>,
}

impl<'a> Activation<'a> {
    /// No variables.
    #[must_use]
    pub fn new() -> Activation<'a> {
        Activation::default()
    }

    /// Binds a variable to a value: a [`Value`], or what converts to one (`i64`, `i32`, `u64`,
    /// `f64`, `bool`, `&str`, `String`, a `Vec` of those, plain JSON through
    /// [`Value::from_json`]).
    ///
    /// ```
    /// use crdkit_cel::eval::Activation;
    ///
    /// let labels = serde_json::json!({"app": "web"});
    /// let activation = Activation::new()
    ///     .bind("replicas", 3)
    ///     .bind("name", "web")
    ///     .bind("ports", vec![80, 443])
    ///     .bind("labels", &labels);
    /// assert_eq!(activation.get("name").and_then(|v| v.as_str()), Some("web"));
    /// ```
    #[must_use]
    pub fn bind(
        self,
        name: impl Into<Cow<'a, str>>,
        value: impl Into<Value<'a>>,
    ) -> Activation<'a> {
        self.bind_result(name, Ok(value.into()))
    }

    /// Binds a variable to a value or to an error that reading it raises (a JSON value that
    /// does not match its schema, as apiserver's `UnstructuredToVal` returns).
    #[must_use]
    pub fn bind_result(
        mut self,
        name: impl Into<Cow<'a, str>>,
        value: EvalResult<'a>,
    ) -> Activation<'a> {
        let name = name.into();
        for slot in self.inline.iter_mut().flatten() {
            if slot.0 == name {
                slot.1 = value;
                return self;
            }
        }
        if let Some(slot) = self.rest.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = value;
            return self;
        }
        match self.inline.iter_mut().find(|s| s.is_none()) {
            Some(slot) => *slot = Some((name, value)),
            None => self.rest.push((name, value)),
        }
        self
    }

    /// Binds a variable to a JSON value seen through its schema (a lazy view; a value that
    /// does not match the schema makes selections of it fail as in the API server).
    #[must_use]
    pub fn bind_json(
        self,
        name: impl Into<Cow<'a, str>>,
        json: &'a serde_json::Value,
        schema: &'a dyn Schema,
    ) -> Activation<'a> {
        self.bind_result(name, json::from_json(json, schema, false))
    }

    /// Like [`bind_json`](Self::bind_json) for the root of a resource: `apiVersion`, `kind`
    /// and `metadata.name`/`generateName` are accessible whatever the schema says
    /// (apiextensions `WithTypeAndObjectMeta`); a schema that declares all four keeps its own
    /// `metadata`.
    #[must_use]
    pub fn bind_resource(
        self,
        name: impl Into<Cow<'a, str>>,
        json: &'a serde_json::Value,
        schema: &'a dyn Schema,
    ) -> Activation<'a> {
        self.bind_result(name, json::from_json(json, schema, true))
    }

    /// The value bound to a name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        self.lookup(name).and_then(|r| r.as_ref().ok())
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&EvalResult<'a>> {
        self.inline
            .iter()
            .flatten()
            .chain(&self.rest)
            .find_map(|(n, v)| (n == name).then_some(v))
    }

    /// Binds `oldSelf` for a rule with `optionalOldSelf: true`: `optional.of(view)` on update,
    /// `optional.none()` on create.
    #[must_use]
    pub fn bind_optional_json(
        self,
        name: impl Into<Cow<'a, str>>,
        json: Option<&'a serde_json::Value>,
        schema: &'a dyn Schema,
    ) -> Activation<'a> {
        match json {
            Some(j) => {
                let v = json::from_json(j, schema, false);
                self.bind_result(name, v.map(Value::optional_of))
            }
            None => self.bind(name, Value::Optional(None)),
        }
    }
}
