//! A minimal HTTP/1.1 client over one kept-alive loopback connection, for the playground's
//! tests (tests/cli/serve.rs, browser.rs) and its load test (examples/serve_load.rs).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A response: its status and its body as text.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub body: String,
}

impl Response {
    /// The body as JSON.
    #[allow(dead_code)]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One connection to `host:port`.
pub struct Client {
    /// The `Host` header sent.
    pub host: String,
    reader: BufReader<TcpStream>,
}

impl Client {
    pub fn connect(host: &str) -> std::io::Result<Client> {
        let stream = TcpStream::connect(host)?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        stream.set_nodelay(true)?;
        Ok(Client {
            host: host.to_string(),
            reader: BufReader::new(stream),
        })
    }

    /// Sends a request and reads the whole response (which must have a Content-Length).
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> std::io::Result<Response> {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.host,
            body.len()
        );
        if let Some(kind) = content_type {
            head.push_str(&format!("Content-Type: {kind}\r\n"));
        }
        head.push_str("\r\n");
        let stream = self.reader.get_mut();
        stream.write_all(head.as_bytes())?;
        if let Err(e) = stream.write_all(body) {
            // A server may answer before it has read the whole body (413 for one over
            // its limit) and close: its answer is there to read, as curl reads it.
            use std::io::ErrorKind::{BrokenPipe, ConnectionReset};
            if !matches!(e.kind(), BrokenPipe | ConnectionReset) {
                return Err(e);
            }
        }
        self.read_response()
    }

    fn read_response(&mut self) -> std::io::Result<Response> {
        let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad(format!("bad status line {line:?}")))?;
        let mut length = None;
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let length = length.ok_or_else(|| bad("no Content-Length".into()))?;
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        let body = String::from_utf8(body).map_err(|e| bad(e.to_string()))?;
        Ok(Response { status, body })
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&mut self, path: &str, body: &serde_json::Value) -> Response {
        self.send(
            "POST",
            path,
            Some("application/json"),
            body.to_string().as_bytes(),
        )
        .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    }

    /// `GET path`.
    #[allow(dead_code)]
    pub fn get(&mut self, path: &str) -> Response {
        self.send("GET", path, None, b"")
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }
}
