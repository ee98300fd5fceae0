//! The server's certificate: given as PEM, or made at start by a CA generated for the occasion,
//! whose certificate goes into the CRD's `caBundle`.
//!
//! The API server requires `https` and verifies the webhook's certificate against `caBundle`
//! (or the system roots): the versioning page, "Contacting the webhook". A CA and a leaf are
//! generated rather than one self-signed leaf because Go accepts either but rustls and webpki
//! accept only a chain to a CA, and the bundle should work with both.

use std::net::IpAddr;
use std::sync::Arc;

use base64::Engine as _;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::ServerError;

/// Where the server's certificate comes from.
#[derive(Clone, Debug, Default)]
pub enum Tls {
    /// Generate a CA and a certificate for `localhost`, the address bound and the names given to
    /// [`crate::Server::dns_names`] (the default).
    #[default]
    Generate,
    /// A certificate chain and its private key (PKCS#8, PKCS#1 or SEC1), both PEM, as a
    /// cert-manager `Secret` holds them in `tls.crt` and `tls.key`.
    Pem {
        /// The chain, leaf first.
        cert_chain: Vec<u8>,
        /// The leaf's private key.
        key: Vec<u8>,
    },
    /// A rustls configuration of your own (its ALPN protocols are left as they are).
    Config(Arc<ServerConfig>),
}

/// A generated CA and the server certificate it signed.
pub(crate) struct Generated {
    pub(crate) ca_pem: String,
    pub(crate) chain: Vec<CertificateDer<'static>>,
    pub(crate) key: PrivateKeyDer<'static>,
}

/// The CA bundle of a PEM certificate, as `caBundle` wants it: base64 of the PEM text.
#[must_use]
pub fn ca_bundle(ca_pem: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(ca_pem.as_bytes())
}

fn rcgen_error(e: &rcgen::Error) -> ServerError {
    ServerError::Certificate(e.to_string())
}

/// A CA, and a server certificate it signs for `names` (DNS names or IP addresses).
pub(crate) fn generate(names: &[String]) -> Result<Generated, ServerError> {
    let ca_key = KeyPair::generate().map_err(|e| rcgen_error(&e))?;
    let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(|e| rcgen_error(&e))?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    ca.distinguished_name
        .push(DnType::CommonName, "crdkit conversion webhook CA");
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_cert = ca.self_signed(&ca_key).map_err(|e| rcgen_error(&e))?;
    let issuer = Issuer::new(ca, ca_key);

    let key = KeyPair::generate().map_err(|e| rcgen_error(&e))?;
    let mut leaf = CertificateParams::new(names.to_vec()).map_err(|e| rcgen_error(&e))?;
    let cn = names.first().map_or("localhost", String::as_str);
    leaf.distinguished_name.push(DnType::CommonName, cn);
    leaf.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let cert = leaf.signed_by(&key, &issuer).map_err(|e| rcgen_error(&e))?;
    Ok(Generated {
        ca_pem: ca_cert.pem(),
        chain: vec![cert.der().clone(), ca_cert.der().clone()],
        key: PrivateKeyDer::Pkcs8(key.serialize_der().into()),
    })
}

/// `localhost`, the bound address (when not unspecified) and `extra`, without repeats.
pub(crate) fn names_for(ip: IpAddr, extra: &[String]) -> Vec<String> {
    let mut names = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    if !ip.is_unspecified() {
        names.push(ip.to_string());
    }
    names.extend(extra.iter().cloned());
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    names
}

/// Reads a PEM chain and key.
pub(crate) fn from_pem(
    cert_chain: &[u8],
    key: &[u8],
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), ServerError> {
    let chain = CertificateDer::pem_slice_iter(cert_chain)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ServerError::Certificate(format!("certificate chain: {e}")))?;
    if chain.is_empty() {
        return Err(ServerError::Certificate(
            "certificate chain: no CERTIFICATE block".to_owned(),
        ));
    }
    let key = PrivateKeyDer::from_pem_slice(key)
        .map_err(|e| ServerError::Certificate(format!("private key: {e}")))?;
    Ok((chain, key))
}

/// A rustls server configuration (ring, TLS 1.2 and 1.3, ALPN h2 and http/1.1).
pub(crate) fn server_config(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<Arc<ServerConfig>, ServerError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ServerError::Certificate(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| ServerError::Certificate(e.to_string()))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_pem_reads_back_and_names_are_unique() {
        let names = names_for("127.0.0.1".parse().unwrap(), &["svc.ns.svc".to_owned()]);
        assert_eq!(names, ["localhost", "127.0.0.1", "::1", "svc.ns.svc"]);
        let g = generate(&names).unwrap();
        assert!(g.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"));
        let ca = CertificateDer::from_pem_slice(g.ca_pem.as_bytes()).unwrap();
        assert_eq!(ca, g.chain[1]);
        assert!(server_config(g.chain, g.key).is_ok());
        let bundle = ca_bundle(&g.ca_pem);
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(bundle)
            .unwrap();
        assert_eq!(decoded, g.ca_pem.as_bytes());
    }

    #[test]
    fn bad_pem_is_an_error() {
        let err = from_pem(b"nothing here", b"").unwrap_err();
        assert_eq!(
            err.to_string(),
            "TLS certificate: certificate chain: no CERTIFICATE block"
        );
        let g = generate(&["localhost".to_owned()]).unwrap();
        let err = from_pem(g.ca_pem.as_bytes(), b"-----BEGIN PRIVATE KEY-----\n").unwrap_err();
        assert!(
            err.to_string().starts_with("TLS certificate: private key:"),
            "{err}"
        );
    }
}
