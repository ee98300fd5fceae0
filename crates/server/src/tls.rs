//! TLS: a rustls server configuration from PEM files or generated (rcgen): a throwaway CA, a
//! serving certificate for `localhost`, `127.0.0.1` and the listening address, so that clients
//! trust the CA (kubeconfig `certificate-authority-data`) as they would a cluster's, and a
//! client certificate the server accepts as a credential (kubeconfig `client-certificate-data`
//! and `client-key-data`), as kind and kubeadm write `admin.conf`.
//!
//! As the API server's `RequestClientCert`, a client certificate is asked for, verified against
//! the CA when presented, and never demanded by the handshake: whether a request needs one is
//! the authentication filter's decision ([`crate::filters`]), which answers a 401 Status.

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// A server TLS configuration and the CA certificate clients should trust.
pub struct Tls {
    /// The rustls configuration (ALPN `h2` and `http/1.1`).
    pub config: Arc<rustls::ServerConfig>,
    /// The PEM clients trust: the generated CA, or the given certificate chain.
    pub cert_pem: String,
    /// The client credential issued with a generated CA.
    pub client: Option<ClientCredential>,
}

/// A client certificate signed by the generated CA, and its key (PEM).
#[derive(Clone)]
pub struct ClientCredential {
    /// The certificate (`CN=crdkit-admin`, `O=system:masters`, client authentication).
    pub cert_pem: String,
    /// Its private key.
    pub key_pem: String,
}

fn server_config(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    client_ca: Option<CertificateDer<'static>>,
) -> Result<Arc<rustls::ServerConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            roots.add(ca).map_err(|e| e.to_string())?;
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            )
            .allow_unauthenticated()
            .build()
            .map_err(|e| e.to_string())?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder
        .with_single_cert(chain, key)
        .map_err(|e| e.to_string())?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A CA, a serving certificate for `ip`, `localhost` and `127.0.0.1`, and a client certificate.
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
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let cert = params.signed_by(&key, &issuer).map_err(|e| e.to_string())?;
    let key_der = PrivateKeyDer::try_from(key.serialize_der()).map_err(|e| e.to_string())?;
    let chain = vec![cert.der().clone(), ca_cert.der().clone()];

    // The admin's certificate, as kubeadm's `kubernetes-admin` in `system:masters`.
    let client_key = KeyPair::generate().map_err(|e| e.to_string())?;
    let mut client = CertificateParams::new(Vec::<String>::new()).map_err(|e| e.to_string())?;
    client
        .distinguished_name
        .push(DnType::CommonName, "crdkit-admin");
    client
        .distinguished_name
        .push(DnType::OrganizationName, "system:masters");
    client.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    let client_cert = client
        .signed_by(&client_key, &issuer)
        .map_err(|e| e.to_string())?;
    Ok(Tls {
        config: server_config(chain, key_der, Some(ca_cert.der().clone()))?,
        cert_pem: ca_cert.pem(),
        client: Some(ClientCredential {
            cert_pem: client_cert.pem(),
            key_pem: client_key.serialize_pem(),
        }),
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
        config: server_config(chain, key, None)?,
        cert_pem,
        client: None,
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
