//! Errors of decoding and encoding. Texts of the wire errors are gogo's (`generated.pb.go`:
//! `ErrInvalidLengthGenerated`, `ErrIntOverflowGenerated`, `io.ErrUnexpectedEOF`) and the
//! envelope's are apimachinery `runtime/serializer/protobuf/protobuf.go`'s.

use std::fmt;

/// Why protobuf bytes could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A value runs past the end of its message.
    UnexpectedEof,
    /// A varint longer than ten bytes.
    IntOverflow,
    /// A length that does not fit in an int64.
    InvalidLength,
    /// Field number 0 (or beyond int32).
    IllegalTag {
        /// The message being read.
        message: String,
        /// The field number.
        tag: i32,
        /// The wire type.
        wire: u8,
    },
    /// An end-group key where a field was expected.
    EndGroup(String),
    /// An end-group key with no group open.
    UnexpectedEndGroup,
    /// Wire type 6 or 7.
    IllegalWireType(u8),
    /// A known field with another wire type than its declaration's.
    WrongWireType {
        /// The field's JSON name (Go names the Go field).
        field: String,
        /// The wire type found.
        wire: u8,
    },
    /// Messages nested deeper than the limit.
    TooDeep(usize),
    /// More JSON values than the input's size allows (two a byte, and 4096): zero values
    /// blown up from empty messages.
    TooManyValues,
    /// Embedded JSON (`RawExtension`, `FieldsV1`, apiextensions `JSON`) that does not parse.
    InvalidJson {
        /// The field's JSON name.
        field: String,
        /// `serde_json`'s message.
        detail: String,
    },
    /// A `RawExtension` that is neither JSON nor protobuf.
    UnknownRawContent {
        /// The field's JSON name.
        field: String,
    },
    /// No bytes at all.
    EmptyData,
    /// The bytes lack the `k8s\0` magic.
    NoPrefix,
    /// Only the magic.
    EmptyBody,
    /// The envelope names no kind.
    MissingKind,
    /// The envelope names no version.
    MissingVersion,
    /// A kind this crate has no message for.
    UnknownKind {
        /// `apps/v1`.
        api_version: String,
        /// `Deployment`.
        kind: String,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedEof => f.write_str("unexpected EOF"),
            Self::IntOverflow => f.write_str("proto: integer overflow"),
            Self::InvalidLength => f.write_str("proto: negative length found during unmarshaling"),
            Self::IllegalTag { message, tag, wire } => {
                write!(f, "proto: {message}: illegal tag {tag} (wire type {wire})")
            }
            Self::EndGroup(message) => write!(f, "proto: {message}: wiretype end group for non-group"),
            Self::UnexpectedEndGroup => f.write_str("proto: unexpected end of group"),
            Self::IllegalWireType(w) => write!(f, "proto: illegal wireType {w}"),
            Self::WrongWireType { field, wire } => {
                write!(f, "proto: wrong wireType = {wire} for field {field}")
            }
            Self::TooDeep(limit) => write!(f, "proto: messages nested deeper than {limit}"),
            Self::TooManyValues => f.write_str("proto: the object decodes to too many values for its size"),
            Self::InvalidJson { field, detail } => write!(f, "{field}: invalid embedded JSON: {detail}"),
            Self::UnknownRawContent { field } => {
                write!(f, "{field}: embedded object is neither JSON nor protobuf")
            }
            Self::EmptyData => f.write_str("empty data"),
            Self::NoPrefix => f.write_str(
                "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]",
            ),
            Self::EmptyBody => f.write_str("empty body"),
            Self::MissingKind => f.write_str("Object 'Kind' is missing in '<protobuf encoded body>'"),
            Self::MissingVersion => {
                f.write_str("Object 'apiVersion' is missing in '<protobuf encoded body>'")
            }
            Self::UnknownKind { api_version, kind } => {
                write!(f, "no kind {kind:?} is registered for version {api_version:?}")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why a JSON object could not be written as protobuf: a JSON value that Go's `json.Unmarshal`
/// would refuse for the field's Go type, or a kind without a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The object has no string `apiVersion` or `kind`.
    MissingTypeMeta,
    /// A kind this crate has no message for (custom resources have none: serve them as JSON).
    UnknownKind {
        /// `apps/v1`.
        api_version: String,
        /// `Deployment`.
        kind: String,
    },
    /// A value of the wrong JSON type or range for its field.
    InvalidValue {
        /// Where, as a field path (`spec.template.spec.containers[0].ports[1].containerPort`).
        path: String,
        /// What the field takes (`int32`, `string`, `RFC 3339 time`...).
        expected: &'static str,
        /// The value found, as JSON.
        found: String,
    },
    /// Objects nested deeper than the limit.
    TooDeep(usize),
    /// A watch event of 4 GiB or more, which a frame's length cannot say.
    FrameTooLarge(usize),
}

impl EncodeError {
    pub(crate) fn invalid(expected: &'static str, found: &serde_json::Value) -> Self {
        let mut found = found.to_string();
        if found.len() > 64 {
            let mut cut = 61;
            while !found.is_char_boundary(cut) {
                cut -= 1;
            }
            found.truncate(cut);
            found.push_str("...");
        }
        Self::InvalidValue {
            path: String::new(),
            expected,
            found,
        }
    }

    /// Prefixes the path of an [`EncodeError::InvalidValue`] with a field name or index.
    pub(crate) fn at(mut self, segment: PathSegment<'_>) -> Self {
        if let Self::InvalidValue { path, .. } = &mut self {
            let joined = match segment {
                PathSegment::Field(name) if path.is_empty() || path.starts_with('[') => {
                    format!("{name}{path}")
                }
                PathSegment::Field(name) => format!("{name}.{path}"),
                PathSegment::Index(i) if path.is_empty() || path.starts_with('[') => {
                    format!("[{i}]{path}")
                }
                PathSegment::Index(i) => format!("[{i}].{path}"),
                PathSegment::Key(k) if path.is_empty() || path.starts_with('[') => {
                    format!("[{k}]{path}")
                }
                PathSegment::Key(k) => format!("[{k}].{path}"),
            };
            *path = joined;
        }
        self
    }
}

#[derive(Clone, Copy)]
pub(crate) enum PathSegment<'a> {
    Field(&'a str),
    Index(usize),
    Key(&'a str),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingTypeMeta => f.write_str("the object has no apiVersion and kind"),
            Self::UnknownKind { api_version, kind } => {
                write!(
                    f,
                    "no protobuf message for kind {kind:?} in version {api_version:?}"
                )
            }
            Self::InvalidValue {
                path,
                expected,
                found,
            } => {
                let path = if path.is_empty() { "<root>" } else { path };
                write!(f, "{path}: expected {expected}, found {found}")
            }
            Self::TooDeep(limit) => write!(f, "object nested deeper than {limit}"),
            Self::FrameTooLarge(len) => {
                write!(f, "watch event of {len} bytes does not fit a frame")
            }
        }
    }
}

impl std::error::Error for EncodeError {}
