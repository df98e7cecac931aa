//! A misbehaving hub on raw sockets (127.0.0.1, port chosen by the OS): for each connection it
//! reads the request head, then runs the test's script on the stream, which may stall, trickle,
//! send far more than it announced or never answer. Each connection has a thread of its own;
//! dropping the server stops accepting and tells every script to end.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What a script gets: the stream, the request head as text, and the server's stop flag.
pub struct Connection {
    pub stream: TcpStream,
    pub head: String,
    stopping: Arc<AtomicBool>,
    sent: Arc<AtomicU64>,
}

impl Connection {
    /// Writes all of `bytes`; false once the client has gone. Counts what was written.
    pub fn send(&mut self, bytes: &[u8]) -> bool {
        let written = self.stream.write_all(bytes).is_ok();
        if written {
            self.sent.fetch_add(bytes.len() as u64, Ordering::SeqCst);
        }
        written
    }

    /// Waits, sending nothing, until the client closes the connection, the server stops or
    /// `limit` passes.
    pub fn hold(&mut self, limit: Duration) {
        let started = Instant::now();
        let _ = self
            .stream
            .set_read_timeout(Some(Duration::from_millis(50)));
        let mut buffer = [0u8; 1024];
        while started.elapsed() < limit && !self.stopping.load(Ordering::SeqCst) {
            match self.stream.read(&mut buffer) {
                Ok(0) => return,
                Ok(_) => {}
                Err(error)
                    if matches!(
                        error.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => return,
            }
        }
    }

    /// Whether the server is stopping.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

type Script = dyn Fn(Connection) + Send + Sync;

/// A running raw hub.
pub struct RawHub {
    pub base_url: String,
    address: std::net::SocketAddr,
    stopping: Arc<AtomicBool>,
    connections: Arc<AtomicUsize>,
    sent: Arc<AtomicU64>,
}

impl RawHub {
    /// Starts a hub that runs `script` on every connection.
    pub fn start(script: impl Fn(Connection) + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let address = listener.local_addr().expect("local address");
        let stopping = Arc::new(AtomicBool::new(false));
        let connections = Arc::new(AtomicUsize::new(0));
        let sent = Arc::new(AtomicU64::new(0));
        let script: Arc<Script> = Arc::new(script);
        {
            let stopping = Arc::clone(&stopping);
            let connections = Arc::clone(&connections);
            let sent = Arc::clone(&sent);
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stopping.load(Ordering::SeqCst) {
                        return;
                    }
                    let Ok(stream) = stream else { continue };
                    connections.fetch_add(1, Ordering::SeqCst);
                    let script = Arc::clone(&script);
                    let stopping = Arc::clone(&stopping);
                    let sent = Arc::clone(&sent);
                    std::thread::spawn(move || {
                        let mut stream = stream;
                        let Some(head) = read_head(&mut stream) else {
                            return;
                        };
                        script(Connection {
                            stream,
                            head,
                            stopping,
                            sent,
                        });
                    });
                }
            });
        }
        Self {
            base_url: format!("http://{address}"),
            address,
            stopping,
            connections,
            sent,
        }
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// Body and head bytes the scripts managed to write.
    pub fn bytes_sent(&self) -> u64 {
        self.sent.load(Ordering::SeqCst)
    }
}

impl Drop for RawHub {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.address);
    }
}

/// Reads up to the blank line ending the request head (and ignores any body).
fn read_head(stream: &mut TcpStream) -> Option<String> {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > 64 * 1024 || stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    String::from_utf8(head).ok()
}

/// A response head with the given status and headers (each `name: value`).
pub fn head(status: u16, headers: &[&str]) -> Vec<u8> {
    let mut text = format!("HTTP/1.1 {status} Status\r\n");
    for header in headers {
        text.push_str(header);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    text.into_bytes()
}
