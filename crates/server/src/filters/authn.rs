//! Authentication: a bearer token, or a client certificate signed by the server's CA.
//!
//! Mirrors apiserver `pkg/authentication/request/bearertoken` (`Authorization: Bearer <token>`,
//! the token compared in constant time) and `request/x509` (a verified client certificate
//! authenticates its subject); anonymous requests are refused with the 401 `Status` of
//! `pkg/endpoints/handlers/responsewriters` `Unauthorized`, as with `--anonymous-auth=false`.

use std::sync::Arc;

use http::{HeaderMap, header};

use super::Peer;
use crate::http::status::ApiError;

/// The credentials a server accepts; with none configured, every request is served.
pub(crate) struct Authn {
    /// The bearer token.
    pub token: Option<Arc<str>>,
    /// Whether a client certificate verified by the TLS handshake authenticates.
    pub client_certs: bool,
}

impl Authn {
    /// Checks a request's credentials.
    ///
    /// # Errors
    /// 401 when credentials are required and none is valid.
    pub(crate) fn check(&self, headers: &HeaderMap, peer: Peer) -> Result<(), ApiError> {
        if self.token.is_none() && !self.client_certs {
            return Ok(());
        }
        if self.client_certs && peer.client_cert {
            return Ok(());
        }
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        match (&self.token, bearer) {
            (Some(token), Some(given)) if constant_time_eq(given.as_bytes(), token.as_bytes()) => {
                Ok(())
            }
            _ => Err(ApiError::unauthorized()),
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(auth: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(a) = auth {
            h.insert(header::AUTHORIZATION, a.parse().unwrap());
        }
        h
    }

    #[test]
    fn token_or_client_certificate() {
        let open = Authn {
            token: None,
            client_certs: false,
        };
        assert!(open.check(&headers(None), Peer::default()).is_ok());
        let token = Authn {
            token: Some(Arc::from("s3cret")),
            client_certs: false,
        };
        assert!(
            token
                .check(&headers(Some("Bearer s3cret")), Peer::default())
                .is_ok()
        );
        assert_eq!(
            token
                .check(&headers(Some("Bearer s3cre")), Peer::default())
                .unwrap_err()
                .code,
            401
        );
        // A certificate counts only where the server issued one.
        let cert = Peer { client_cert: true };
        assert!(token.check(&headers(None), cert).is_err());
        let certs = Authn {
            token: None,
            client_certs: true,
        };
        assert!(certs.check(&headers(None), cert).is_ok());
        assert!(
            certs
                .check(&headers(Some("Bearer x")), Peer::default())
                .is_err()
        );
    }
}
