//! The errors of a strategic merge patch, with the texts of apimachinery
//! `pkg/util/mergepatch/errors.go` and `strategicpatch/patch.go`, and the answer the API server
//! gives for each (apiserver `pkg/endpoints/handlers/patch.go`
//! `interpretStrategicMergePatchError`, `responsewriters.ErrorToAPIStatus`, and
//! `server/filters/wrap.go` `WithPanicRecovery` for Go's run-time panics).

use std::fmt;

use serde_json::{Value, json};

/// What the API server answers when a handler panics (`http.Error`: plain text, one line).
pub const PANIC_BODY: &str =
    "This request caused apiserver to panic. Look in the logs for details.\n";

/// `NewGenericServerResponse(422, …)`: the message of Go's error is not shown.
const UNPROCESSABLE: &str = "the server rejected our request due to an error in our request";

/// Why a strategic merge patch does not apply. `Display` is Go's text; [`PatchError::code`] and
/// [`PatchError::status`] are the API server's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatchError {
    /// `{"mergingList": [[1]]}` into a list: `lists of lists are not supported` (422).
    NoListOfLists,
    /// `{"$deleteFromPrimitiveList": [1]}` (no `/field`): `invalid patch format of primitive
    /// list` (400).
    BadPatchFormatForPrimitiveList,
    /// `{"$retainKeys": "a"}`, or a key of the patch missing from `$retainKeys`: `invalid patch
    /// format of retainKeys` (400).
    BadPatchFormatForRetainKeys,
    /// `{"$setElementOrderX/list": []}`: `invalid patch format of setElementOrder list` (400).
    BadPatchFormatForSetElementOrderList,
    /// A patch body that is JSON but not an object, `[]`: `json: cannot unmarshal array into Go
    /// value of type map[string]interface {}` (400).
    NotAnObject {
        /// `array`, `string`, `number` or `bool`.
        kind: &'static str,
    },
    /// `{"mergingList": [{"value": 1}]}`: `map: map[value:1] does not contain declared merge
    /// key: name` (500).
    NoMergeKey {
        /// The map, as Go's `%v` prints it.
        map: String,
        /// The merge key.
        key: String,
    },
    /// `{"$setElementOrder/list": "a"}`: `expected a []interface {}, but received a string`
    /// (500).
    BadArgType {
        /// The Go type expected.
        expected: &'static str,
        /// The Go type received (`%!s(<nil>)` for `null`).
        actual: &'static str,
    },
    /// `{"$patch": "merge"}` in a map: `unknown patch type: merge in map: map[$patch:merge]`
    /// (500).
    BadPatchType {
        /// The directive, as Go's `%s` prints it.
        directive: String,
        /// The map holding it, as Go's `%v` prints it.
        map: String,
    },
    /// `[{"$patch": "merge"}]` in a list: `merging lists cannot yet be specified in the patch`
    /// (500).
    MergingListsNotSupported,
    /// Maps in a list with strategy `merge` but no merge key: `cannot merge lists without merge
    /// key for struct` (500).
    NoMergeKeyForList {
        /// The Go kind of the list's elements in the schema (`struct`).
        name: String,
    },
    /// `[1, "a"]`: `list element types are not identical: [[1] [a]]` (500).
    ElementTypesNotIdentical {
        /// The lists compared, as Go's `%v` prints them.
        lists: String,
    },
    /// `$setElementOrder/list` of a list that is empty in the object and not in the patch:
    /// `no elements in any of the given slices` (500).
    NoElements,
    /// A patch list whose order differs from its `$setElementOrder` list: `The order in patch
    /// list:\n[…]\n doesn't match $setElementOrder list:\n[…]\n` (500).
    OrderMismatch {
        /// The patch list, as Go's `%v` prints it.
        patch: String,
        /// The `$setElementOrder` list, as Go's `%v` prints it.
        order: String,
    },
    /// `x-kubernetes-patch-strategy: merge,replace`: `unexpected patch strategy: [merge
    /// replace]` (500).
    UnexpectedPatchStrategy {
        /// The strategies, as Go's `%v` prints them.
        strategies: String,
    },
    /// A `$setElementOrder` list of maps holding something else: `value for key 0 is not a map`
    /// (500).
    NotAMap {
        /// The position in the list.
        index: usize,
    },
    /// The schema could not answer (`unable to find api field in struct PodSpec for the json
    /// field "x"`), with the text of the [`LookupPatchMeta`](crate::LookupPatchMeta) (500).
    Lookup(String),
    /// Where Go's code panics at run time (`==` of two maps): 500 with [`PANIC_BODY`].
    Panic(GoPanic),
    /// Values nested deeper than [`Limits::max_depth`](crate::Limits::max_depth), a limit of
    /// crdkit's (400).
    TooDeep {
        /// The limit.
        limit: usize,
    },
}

/// A run-time panic of Go's code, which the API server answers with [`PANIC_BODY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoPanic {
    /// `==` of two maps or two slices (a merge key whose value is a map).
    Uncomparable(&'static str),
    /// A map or a slice as a Go map key (`{"$retainKeys": [{}]}`).
    Unhashable(&'static str),
    /// The element type of a list whose first element is `null` (`reflect.TypeOf(nil).Kind()`).
    NilType,
}

impl fmt::Display for GoPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoPanic::Uncomparable(t) => write!(f, "runtime error: comparing uncomparable type {t}"),
            GoPanic::Unhashable(t) => write!(f, "runtime error: hash of unhashable type {t}"),
            GoPanic::NilType => {
                f.write_str("runtime error: invalid memory address or nil pointer dereference")
            }
        }
    }
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::NoListOfLists => f.write_str("lists of lists are not supported"),
            PatchError::BadPatchFormatForPrimitiveList => {
                f.write_str("invalid patch format of primitive list")
            }
            PatchError::BadPatchFormatForRetainKeys => {
                f.write_str("invalid patch format of retainKeys")
            }
            PatchError::BadPatchFormatForSetElementOrderList => {
                f.write_str("invalid patch format of setElementOrder list")
            }
            PatchError::NotAnObject { kind } => write!(
                f,
                "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
            ),
            PatchError::NoMergeKey { map, key } => {
                write!(f, "map: {map} does not contain declared merge key: {key}")
            }
            PatchError::BadArgType { expected, actual } => {
                write!(f, "expected a {expected}, but received a {actual}")
            }
            PatchError::BadPatchType { directive, map } => {
                write!(f, "unknown patch type: {directive} in map: {map}")
            }
            PatchError::MergingListsNotSupported => {
                f.write_str("merging lists cannot yet be specified in the patch")
            }
            PatchError::NoMergeKeyForList { name } => {
                write!(f, "cannot merge lists without merge key for {name}")
            }
            PatchError::ElementTypesNotIdentical { lists } => {
                write!(f, "list element types are not identical: {lists}")
            }
            PatchError::NoElements => f.write_str("no elements in any of the given slices"),
            PatchError::OrderMismatch { patch, order } => write!(
                f,
                "The order in patch list:\n{patch}\n doesn't match $setElementOrder list:\n{order}\n"
            ),
            PatchError::UnexpectedPatchStrategy { strategies } => {
                write!(f, "unexpected patch strategy: {strategies}")
            }
            PatchError::NotAMap { index } => write!(f, "value for key {index} is not a map"),
            PatchError::Lookup(message) => f.write_str(message),
            PatchError::Panic(p) => p.fmt(f),
            PatchError::TooDeep { limit } => {
                write!(
                    f,
                    "strategic merge patch: values nested deeper than {limit} levels"
                )
            }
        }
    }
}

impl std::error::Error for PatchError {}

impl PatchError {
    /// The HTTP status code of the API server's answer: 400 for a patch whose format is wrong,
    /// 422 for lists of lists, 500 for every other error (Go returns them as plain errors,
    /// which `ErrorToAPIStatus` turns into 500) and for Go's panics.
    #[must_use]
    pub fn code(&self) -> u16 {
        match self {
            PatchError::BadPatchFormatForPrimitiveList
            | PatchError::BadPatchFormatForRetainKeys
            | PatchError::BadPatchFormatForSetElementOrderList
            | PatchError::NotAnObject { .. }
            | PatchError::TooDeep { .. } => 400,
            PatchError::NoListOfLists => 422,
            _ => 500,
        }
    }

    /// The `reason` of the `Status`: `BadRequest` (400), `Invalid` (422), none otherwise
    /// (`StatusReasonUnknown`, the empty string, which the API server omits).
    #[must_use]
    pub fn reason(&self) -> Option<&'static str> {
        match self.code() {
            400 => Some("BadRequest"),
            422 => Some("Invalid"),
            _ => None,
        }
    }

    /// The `message` of the `Status`: Go's text, except for 422, whose generic message hides it.
    #[must_use]
    pub fn status_message(&self) -> String {
        match self.code() {
            422 => UNPROCESSABLE.to_owned(),
            _ => self.to_string(),
        }
    }

    /// Whether the API server answers [`PANIC_BODY`] as `text/plain` instead of a `Status`.
    #[must_use]
    pub fn is_panic(&self) -> bool {
        matches!(self, PatchError::Panic(_))
    }

    /// The `Status` the API server answers, or `None` when it answers [`PANIC_BODY`].
    ///
    /// ```
    /// use crdkit_patch::PatchError;
    /// let status = PatchError::NoListOfLists.status().unwrap();
    /// assert_eq!(status["code"], 422);
    /// assert_eq!(status["reason"], "Invalid");
    /// assert_eq!(status["details"], serde_json::json!({}));
    /// ```
    #[must_use]
    pub fn status(&self) -> Option<Value> {
        if self.is_panic() {
            return None;
        }
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.status_message(),
            "code": self.code(),
        });
        if let Some(reason) = self.reason() {
            status["reason"] = json!(reason);
        }
        // NewGenericServerResponse always sets (empty) details.
        if self.code() == 422 {
            status["details"] = json!({});
        }
        Some(status)
    }
}
