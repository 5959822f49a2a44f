//! A scripted HTTP/1.1 server on 127.0.0.1:0 for the gateway client tests. It records every
//! request (method, path, headers, body) and answers each with the next scripted [`Action`],
//! including broken answers a real server would never send on purpose: a reset connection
//! in the middle of a response, a body shorter than its Content-Length, a stall.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkout_server::gateway::{GatewayClient, GatewayConfig, RetryPolicy};
use secrecy::SecretString;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The API key the test clients use.
pub const API_KEY: &str = "test-api-key-AAAA";
/// `base64("test-api-key-AAAA")`, computed independently of the client.
pub const API_KEY_BASE64: &str = "dGVzdC1hcGkta2V5LUFBQUE=";
/// The x-api-key the test clients use.
pub const X_API_KEY: &str = "test-x-key-BBBB";

/// One recorded request.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    /// The value of header `name` (case-insensitive), if sent exactly once.
    pub fn header(&self, name: &str) -> Option<&str> {
        let mut values = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name));
        let first = values.next().map(|(_, v)| v.as_str());
        assert!(values.next().is_none(), "header {name} sent more than once");
        first
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }
}

/// How to answer one request.
#[derive(Debug, Clone)]
pub enum Action {
    /// A complete response with `Content-Length`.
    Respond {
        status: u16,
        body: Vec<u8>,
        headers: Vec<(String, String)>,
    },
    /// Wait, then perform the inner action (the client may have given up by then).
    Delay(Duration, Box<Action>),
    /// Close the connection without answering.
    CloseWithoutResponse,
    /// Send the status line, headers and half the body, then reset the connection (RST).
    ResetMidResponse,
    /// Announce `Content-Length: 500`, send 20 bytes, close cleanly.
    TruncatedBody,
}

impl Action {
    /// A JSON response.
    pub fn json(status: u16, body: &serde_json::Value) -> Self {
        Self::Respond {
            status,
            body: body.to_string().into_bytes(),
            headers: vec![("Content-Type".into(), "application/json".into())],
        }
    }

    /// A plain-text response.
    pub fn text(status: u16, body: &str) -> Self {
        Self::Respond {
            status,
            body: body.as_bytes().to_vec(),
            headers: vec![("Content-Type".into(), "text/html".into())],
        }
    }
}

/// The running server; aborted on drop.
pub struct TestServer {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
    script: Arc<Mutex<VecDeque<Action>>>,
    task: JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    /// Starts a server that answers requests with `script`, in order. Once the script runs
    /// out it answers 599 so an unexpected extra request is visible.
    pub async fn start(script: Vec<Action>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(VecDeque::from(script)));
        let task = tokio::spawn({
            let requests = Arc::clone(&requests);
            let script = Arc::clone(&script);
            async move {
                while let Ok((stream, _)) = listener.accept().await {
                    let requests = Arc::clone(&requests);
                    let script = Arc::clone(&script);
                    tokio::spawn(serve_one(stream, requests, script));
                }
            }
        });
        Self {
            addr,
            requests,
            script,
            task,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A client for this server: 2 s connect, 1 s total, 3 attempts with 5..20 ms backoff.
    pub fn client(&self) -> GatewayClient {
        GatewayClient::new(config(&self.base_url())).expect("client")
    }

    /// Everything received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("lock").clone()
    }

    /// Scripted actions not yet used.
    pub fn remaining(&self) -> usize {
        self.script.lock().expect("lock").len()
    }
}

/// The configuration [`TestServer::client`] uses, for `base_url`.
pub fn config(base_url: &str) -> GatewayConfig {
    GatewayConfig {
        base_url: base_url.to_owned(),
        api_key: SecretString::from(API_KEY),
        x_api_key: SecretString::from(X_API_KEY),
        connect_timeout: Duration::from_secs(2),
        total_timeout: Duration::from_secs(1),
        retry: RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(5),
            max_backoff: Duration::from_millis(20),
        },
    }
}

async fn serve_one(
    mut stream: TcpStream,
    requests: Arc<Mutex<Vec<Recorded>>>,
    script: Arc<Mutex<VecDeque<Action>>>,
) {
    let Some(request) = read_request(&mut stream).await else {
        return;
    };
    requests.lock().expect("lock").push(request);
    let action = script
        .lock()
        .expect("lock")
        .pop_front()
        .unwrap_or_else(|| Action::text(599, "script exhausted"));
    perform(stream, action).await;
}

async fn perform(mut stream: TcpStream, mut action: Action) {
    while let Action::Delay(wait, inner) = action {
        tokio::time::sleep(wait).await;
        action = *inner;
    }
    match action {
        Action::Respond {
            status,
            body,
            headers,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.write_all(&body).await;
            let _ = stream.shutdown().await;
        }
        Action::CloseWithoutResponse => drop(stream),
        Action::ResetMidResponse => {
            let head = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"success\":true,\"status_code\":201,";
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.flush().await;
            tokio::time::sleep(Duration::from_millis(50)).await;
            let _ = stream.set_zero_linger();
            drop(stream);
        }
        Action::TruncatedBody => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\nConnection: close\r\n\r\n{\"success\":true,\"sta";
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
        Action::Delay(..) => unreachable!("delays are unwrapped above"),
    }
}

/// Reads one HTTP/1.1 request with a `Content-Length` body (the client never chunks).
async fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let read = stream.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8(buffer[..head_end].to_vec()).ok()?;
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_owned();
    let path = request_line.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = buffer[head_end + 4..].to_vec();
    while body.len() < length {
        let read = stream.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..read]);
    }
    Some(Recorded {
        method,
        path,
        headers,
        body,
    })
}
