//! chrono's dates and times, as its `Serialize` writes them: `DateTime` in RFC 3339
//! (`2024-06-19T19:22:45Z`, or with the offset), a `date-time` the API server validates and CEL
//! reads as a `timestamp`; `NaiveDate` as `2024-06-19`, a `date`; the naive date-time and time
//! without an offset, plain strings (no format of the API server accepts them).

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

use crate::{Schema, Shape};

impl<Tz: TimeZone> Schema for DateTime<Tz> {
    const SHAPE: Shape = Shape::string().format("date-time").named("DateTime");
}

impl Schema for NaiveDate {
    const SHAPE: Shape = Shape::string().format("date").named("NaiveDate");
}

impl Schema for NaiveDateTime {
    const SHAPE: Shape = Shape::string().named("NaiveDateTime");
}

impl Schema for NaiveTime {
    const SHAPE: Shape = Shape::string().named("NaiveTime");
}
