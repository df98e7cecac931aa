//! A stub API on 127.0.0.1 for the programs that generated crates' READMEs describe: plain HTTP
//! or HTTPS with the test certificate of `fixtures/tls` (a test CA, `ca.pem`, and a leaf for
//! 127.0.0.1 and localhost it signed, valid until 2126; the key is a test key and guards
//! nothing). It answers each request with what `respond` returns, records every request head,
//! and stops when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A request as the server read it.
#[derive(Clone, Debug)]
pub struct Seen {
    /// `GET /v2/items?limit=1`, the target as sent.
    pub line: String,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Seen {
    /// The value of the header `name` (lower case), if it was sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header == name)
            .map(|(_, value)| value.as_str())
    }
}

/// A status and a JSON body (empty for none).
pub type Reply = (u16, String);

/// A running stub server.
pub struct Server {
    address: SocketAddr,
    https: bool,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves plain HTTP, or HTTPS with the certificate in `tls` (`server.pem`, `server.key`).
    pub fn start(tls: Option<&Path>, respond: fn(&Seen) -> Reply) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let config = tls.map(server_config);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let seen = Arc::clone(&seen);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    // A failed connection (a client refusing the certificate) is the client's
                    // to report; the server goes on.
                    let _ = match &config {
                        Some(config) => {
                            let connection =
                                rustls::ServerConnection::new(Arc::clone(config)).unwrap();
                            serve(rustls::StreamOwned::new(connection, stream), &seen, respond)
                        }
                        None => serve(stream, &seen, respond),
                    };
                }
            })
        };
        Self {
            address,
            https: tls.is_some(),
            seen,
            stop,
            thread: Some(thread),
        }
    }

    /// Its base URL, with `path` appended.
    pub fn url(&self, path: &str) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}{path}", self.address)
    }

    /// Every request it read, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread, which then sees `stop`.
        let _ = TcpStream::connect(self.address);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn server_config(dir: &Path) -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certificates = CertificateDer::pem_file_iter(dir.join("server.pem"))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certificates, key)
        .unwrap();
    Arc::new(config)
}

/// Reads one request head (the stub's operations take no body) and writes the reply, closing
/// the connection.
fn serve(
    mut stream: impl Read + Write,
    seen: &Mutex<Vec<Seen>>,
    respond: fn(&Seen) -> Reply,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(&mut stream);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let request = Seen {
        line: line.trim().trim_end_matches("HTTP/1.1").trim().to_owned(),
        headers,
    };
    let (status, body) = respond(&request);
    seen.lock().unwrap().push(request);
    let content_type = if body.is_empty() {
        ""
    } else {
        "Content-Type: application/json\r\n"
    };
    write!(
        stream,
        "HTTP/1.1 {status} Stub\r\n{content_type}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}
