//! Waiting, bounded in time: for an object to satisfy a condition (kube-runtime's
//! `await_condition`, which watches the object through a `metadata.name` field selector), for it
//! to be gone, or for any check to pass (polled).

use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;

use kube::Resource;
use kube::api::Api;
use kube::runtime::wait::{Condition, await_condition};
use serde::de::DeserializeOwned;

use crate::{Error, TestEnv};

impl TestEnv {
    /// Waits (up to [`TestEnv::timeout`]) until `cond` holds for the object `name` (`None`
    /// while it does not exist); returns it as it was then.
    ///
    /// # Errors
    /// [`Error::Timeout`], or the watch failing.
    pub async fn wait_until<K>(
        &self,
        api: &Api<K>,
        name: &str,
        cond: impl Condition<K>,
    ) -> Result<Option<K>, Error>
    where
        K: Clone + Debug + Send + DeserializeOwned + Resource + 'static,
        K::DynamicType: Default,
    {
        match tokio::time::timeout(self.timeout(), await_condition(api.clone(), name, cond)).await {
            Ok(Ok(obj)) => Ok(obj),
            Ok(Err(e)) => Err(Error::Start(format!("watching {name}: {e}"))),
            Err(_) => Err(Error::Timeout {
                what: format!("{} {name}", K::kind(&Default::default())),
                timeout: self.timeout(),
            }),
        }
    }

    /// Waits until the object `name` exists and `f` holds for it; returns it.
    ///
    /// # Errors
    /// [`Error::Timeout`], or the watch failing.
    pub async fn wait_for<K>(
        &self,
        api: &Api<K>,
        name: &str,
        f: impl Fn(&K) -> bool,
    ) -> Result<K, Error>
    where
        K: Clone + Debug + Send + DeserializeOwned + Resource + 'static,
        K::DynamicType: Default,
    {
        let got = self
            .wait_until(api, name, move |o: Option<&K>| o.is_some_and(&f))
            .await?;
        got.ok_or_else(|| Error::Timeout {
            what: format!("{} {name}", K::kind(&Default::default())),
            timeout: self.timeout(),
        })
    }

    /// Waits until the object `name` is gone.
    ///
    /// # Errors
    /// [`Error::Timeout`], or the watch failing.
    pub async fn wait_deleted<K>(&self, api: &Api<K>, name: &str) -> Result<(), Error>
    where
        K: Clone + Debug + Send + DeserializeOwned + Resource + 'static,
        K::DynamicType: Default,
    {
        self.wait_until(api, name, |o: Option<&K>| o.is_none())
            .await
            .map(|_| ())
    }

    /// Calls `check` every 10 ms until it returns `Some` (up to [`TestEnv::timeout`]).
    ///
    /// # Errors
    /// [`Error::Timeout`] naming `what`.
    pub async fn eventually<T, F, Fut>(&self, what: &str, mut check: F) -> Result<T, Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Option<T>>,
    {
        let deadline = tokio::time::Instant::now() + self.timeout();
        loop {
            if let Some(v) = check().await {
                return Ok(v);
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(Error::Timeout {
                    what: what.to_owned(),
                    timeout: self.timeout(),
                });
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
