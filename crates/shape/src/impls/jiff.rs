//! jiff's types, as its `Serialize` writes them: a `Timestamp` in RFC 3339
//! (`2024-06-19T19:22:45Z`), a `date-time` the API server validates and CEL reads as a
//! `timestamp`; a civil `Date` as `2024-06-19`, a `date`. The rest are plain strings: a `Zoned`
//! adds the zone in brackets, civil date-times and times have no offset, and `SignedDuration`
//! and `Span` are ISO 8601 durations (`PT2H30M`), which the API server's `duration` format (Go's
//! `1h30m`) does not read.

use jiff::civil::{Date, DateTime, Time};
use jiff::{SignedDuration, Span, Timestamp, Zoned};

use crate::{Schema, Shape};

impl Schema for Timestamp {
    const SHAPE: Shape = Shape::string().format("date-time").named("Timestamp");
}

impl Schema for Date {
    const SHAPE: Shape = Shape::string().format("date").named("Date");
}

impl Schema for DateTime {
    const SHAPE: Shape = Shape::string().named("DateTime");
}

impl Schema for Time {
    const SHAPE: Shape = Shape::string().named("Time");
}

impl Schema for Zoned {
    const SHAPE: Shape = Shape::string().named("Zoned");
}

impl Schema for SignedDuration {
    const SHAPE: Shape = Shape::string().named("SignedDuration");
}

impl Schema for Span {
    const SHAPE: Shape = Shape::string().named("Span");
}
