//! Loopback helpers: free ports and waiting for a listener.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// A port nothing listens on right now (the OS picks it; a tiny race with other processes is
/// accepted).
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}

/// Waits until something accepts connections on `127.0.0.1:port`.
pub fn wait_for_port(port: u16, timeout: Duration) -> Result<(), String> {
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + timeout;
    loop {
        if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!("nothing listens on {address} after {timeout:?}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
