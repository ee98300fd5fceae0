//! The kubeconfig a server writes for its clients: the server, its CA, and the credentials
//! (bearer token, client certificate), in a file only its owner can read (as kubeadm writes
//! `admin.conf`, 0600).

use std::path::Path;

use crdkit_apimachinery::gobase64::encode as encode_std;

/// What a kubeconfig's user presents.
#[derive(Clone, Copy, Debug, Default)]
pub struct Credentials<'a> {
    /// `token`
    pub token: Option<&'a str>,
    /// `client-certificate-data` (PEM)
    pub client_cert_pem: Option<&'a str>,
    /// `client-key-data` (PEM)
    pub client_key_pem: Option<&'a str>,
}

/// Writes a kubeconfig for `url` (its directory created 0700 if missing, the file 0600).
///
/// # Errors
/// The write failing.
pub fn write_kubeconfig(
    path: &Path,
    url: &str,
    ca_pem: Option<&str>,
    token: Option<&str>,
) -> std::io::Result<()> {
    write_with(
        path,
        url,
        ca_pem,
        Credentials {
            token,
            ..Credentials::default()
        },
    )
}

/// Writes a kubeconfig for `url` with `user`'s credentials (see [`write_kubeconfig`]).
///
/// # Errors
/// The write failing.
pub(crate) fn write_with(
    path: &Path,
    url: &str,
    ca_pem: Option<&str>,
    user: Credentials<'_>,
) -> std::io::Result<()> {
    let ca = ca_pem
        .map(|pem| {
            format!(
                "    certificate-authority-data: {}\n",
                encode_std(pem.as_bytes())
            )
        })
        .unwrap_or_default();
    let mut fields = String::new();
    if let Some(cert) = user.client_cert_pem {
        fields.push_str(&format!(
            "    client-certificate-data: {}\n",
            encode_std(cert.as_bytes())
        ));
    }
    if let Some(key) = user.client_key_pem {
        fields.push_str(&format!(
            "    client-key-data: {}\n",
            encode_std(key.as_bytes())
        ));
    }
    if let Some(t) = user.token {
        fields.push_str(&format!("    token: {t}\n"));
    }
    let user = if fields.is_empty() {
        "  user: {}\n".to_owned()
    } else {
        format!("  user:\n{fields}")
    };
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: {url}\n{ca}  name: crdkit\ncontexts:\n- context:\n    cluster: crdkit\n    namespace: default\n    user: crdkit\n  name: crdkit\ncurrent-context: crdkit\npreferences: {{}}\nusers:\n- name: crdkit\n{user}"
    );
    crate::private::write(path, text.as_bytes())
}
