//! TLS: a rustls server configuration from PEM files or generated (rcgen): a throwaway CA and a
//! serving certificate for `localhost`, `127.0.0.1` and the listening address, so that clients
//! trust the CA (kubeconfig `certificate-authority-data`) as they would a cluster's.

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// A server TLS configuration and the CA certificate clients should trust.
pub struct Tls {
    /// The rustls configuration (ALPN `h2` and `http/1.1`).
    pub config: Arc<rustls::ServerConfig>,
    /// The PEM clients trust: the generated CA, or the given certificate chain.
    pub cert_pem: String,
}

fn server_config(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<Arc<rustls::ServerConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| e.to_string())?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A CA and a serving certificate for `ip`, `localhost` and `127.0.0.1`.
///
/// # Errors
/// Key generation or signing failing.
pub fn generate(ip: IpAddr) -> Result<Tls, String> {
    let ca_key = KeyPair::generate().map_err(|e| e.to_string())?;
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(|e| e.to_string())?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "crdkit-server-ca");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_cert = ca_params.self_signed(&ca_key).map_err(|e| e.to_string())?;
    let issuer = rcgen::Issuer::new(ca_params, ca_key);

    let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
    if !ip.is_unspecified() && !names.contains(&ip.to_string()) {
        names.push(ip.to_string());
    }
    let key = KeyPair::generate().map_err(|e| e.to_string())?;
    let mut params = CertificateParams::new(names).map_err(|e| e.to_string())?;
    params
        .distinguished_name
        .push(DnType::CommonName, "crdkit-server");
    let cert = params.signed_by(&key, &issuer).map_err(|e| e.to_string())?;
    let key_der = PrivateKeyDer::try_from(key.serialize_der()).map_err(|e| e.to_string())?;
    let chain = vec![cert.der().clone(), ca_cert.der().clone()];
    Ok(Tls {
        config: server_config(chain, key_der)?,
        cert_pem: ca_cert.pem(),
    })
}

/// A certificate chain and key from PEM files.
///
/// # Errors
/// Files that cannot be read or hold no certificate or key.
pub fn from_files(cert: &Path, key: &Path) -> Result<Tls, String> {
    let cert_pem = std::fs::read_to_string(cert).map_err(|e| format!("{}: {e}", cert.display()))?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_pem.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!("{}: no certificate", cert.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("{}: {e}", key.display()))?;
    Ok(Tls {
        config: server_config(chain, key)?,
        cert_pem,
    })
}

/// The DER of the first certificate of a PEM text (empty when none).
#[cfg(feature = "kube")]
#[must_use]
pub fn pem_to_der(pem: &str) -> Vec<u8> {
    CertificateDer::pem_slice_iter(pem.as_bytes())
        .next()
        .and_then(Result::ok)
        .map(|c| c.to_vec())
        .unwrap_or_default()
}
