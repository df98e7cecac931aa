//! `decode_vs_value` and `validation_overhead`: one 10,000-notification page decoded into the
//! generated (validating) types, into `serde_json::Value`, and into the types progenitor and
//! typify emit without our patches, each read as a generated client reads a response body.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use serde::de::DeserializeOwned;

use crate::fixtures;
use crate::measure::{Bound, Comparison, Side};
use crate::plain;

/// Notifications in the decoded page.
pub const NOTIFICATIONS: usize = 10_000;

/// The page both figures decode.
pub fn page() -> Vec<u8> {
    fixtures::notification_list(NOTIFICATIONS, 0x5EED)
}

/// Times decoding `bytes` into `T` as a generated client reads a response body
/// ([`hub_api_support::json::from_body`]: UTF-8 checked once, then parsed as text), whatever
/// `T` is, so both sides read the body alike; the value is dropped after the clock stops, so
/// the figure is about decoding, not about freeing memory.
fn time_decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<Duration> {
    let started = Instant::now();
    let decoded: T = hub_api_support::json::from_body(bytes).context("decoding the page")?;
    let elapsed = started.elapsed();
    drop(black_box(decoded));
    Ok(elapsed)
}

/// Setup check: the page decodes everywhere, with every notification, before anything is timed.
fn check_page(bytes: &[u8]) -> Result<()> {
    let ours: hub_api::types::NotificationList =
        serde_json::from_slice(bytes).context("the page must decode into the generated types")?;
    ensure!(ours.notifications.len() == NOTIFICATIONS);
    let plain: plain::types::NotificationList =
        serde_json::from_slice(bytes).context("the page must decode into the plain types")?;
    ensure!(plain.notifications.len() == NOTIFICATIONS);
    Ok(())
}

pub struct DecodeVsValue {
    bytes: Vec<u8>,
}

impl DecodeVsValue {
    pub fn new() -> Result<Self> {
        let bytes = page();
        check_page(&bytes)?;
        Ok(Self { bytes })
    }
}

impl Comparison for DecodeVsValue {
    fn labels(&self) -> [&'static str; 2] {
        ["generated", "value"]
    }

    /// Issue 30: typed decoding clearly faster than `serde_json::Value`.
    fn bound(&self) -> Bound {
        Bound::AtMost(0.6)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        match side {
            Side::Ours => time_decode::<hub_api::types::NotificationList>(&self.bytes),
            Side::Baseline => time_decode::<serde_json::Value>(&self.bytes),
        }
    }
}

pub struct ValidationOverhead {
    bytes: Vec<u8>,
}

impl ValidationOverhead {
    pub fn new() -> Result<Self> {
        let bytes = page();
        check_page(&bytes)?;
        Ok(Self { bytes })
    }
}

impl Comparison for ValidationOverhead {
    fn labels(&self) -> [&'static str; 2] {
        ["validating", "plain"]
    }

    fn bound(&self) -> Bound {
        Bound::AtMost(1.25)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        match side {
            Side::Ours => time_decode::<hub_api::types::NotificationList>(&self.bytes),
            Side::Baseline => time_decode::<plain::types::NotificationList>(&self.bytes),
        }
    }
}
