//! The load test's HTTP client: plain TCP, so that it can send what no HTTP library would
//! (half a request, a header of 20 KiB, a length of a terabyte) and time each request itself.
//! It reads answers with the same head parsing as the server (`http_wire`).

use crate::classroom::http_wire::{head_end, parse_header_lines};
use serde_json::Value;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A response: its status and body, and whether the server keeps the connection open.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: String,
    pub keep_alive: bool,
}

impl Answer {
    pub fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.body).ok()
    }

    /// A refusal in the API's form: `is_success` false and a sentence in `error`.
    pub fn refusal(&self) -> Option<String> {
        let v = self.json()?;
        (v["is_success"] == Value::Bool(false))
            .then(|| v["error"].as_str().map(str::to_string))
            .flatten()
            .filter(|e| !e.trim().is_empty())
    }
}

fn broken(what: &str) -> io::Error {
    io::Error::new(ErrorKind::InvalidData, what.to_string())
}

/// Reads one response (the stream's read timeout bounds each wait). `pending` holds what was
/// read past the previous answer, and keeps what is read past this one: a server may answer
/// requests sent together in one write.
pub fn read_answer(stream: &mut TcpStream, pending: &mut Vec<u8>) -> io::Result<Answer> {
    let bytes = pending;
    let mut chunk = [0u8; 8192];
    let (head_len, body_start) = loop {
        if let Some(end) = head_end(bytes) {
            break end;
        }
        if bytes.len() > 64 * 1024 {
            return Err(broken("a response head over 64 KiB"));
        }
        match stream.read(&mut chunk)? {
            0 => return Err(ErrorKind::UnexpectedEof.into()),
            n => bytes.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&bytes[..head_len]).into_owned();
    bytes.drain(..body_start);
    let mut lines = head.split('\n');
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| broken("no status in the response"))?;
    let headers = parse_header_lines(lines).ok_or_else(|| broken("a malformed header"))?;
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let keep_alive = !header("Connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let body: Vec<u8> = match header("Content-Length").and_then(|v| v.parse::<usize>().ok()) {
        Some(length) => {
            while bytes.len() < length {
                match stream.read(&mut chunk)? {
                    0 => return Err(ErrorKind::UnexpectedEof.into()),
                    n => bytes.extend_from_slice(&chunk[..n]),
                }
            }
            bytes.drain(..length).collect()
        }
        None => {
            stream.read_to_end(bytes)?;
            std::mem::take(bytes)
        }
    };
    Ok(Answer {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
        keep_alive,
    })
}

/// Opens a connection with `timeout` on connecting, reading and writing.
pub fn connect(addr: SocketAddr, timeout: Duration) -> io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&addr, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

/// `bytes` on a fresh connection, and the answer.
pub fn exchange(addr: SocketAddr, bytes: &[u8], timeout: Duration) -> io::Result<Answer> {
    let mut stream = connect(addr, timeout)?;
    // A server that refuses early may close before it has read everything: the answer is
    // still there to read.
    let _ = stream.write_all(bytes);
    read_answer(&mut stream, &mut Vec::new())
}

/// A GET request's bytes.
pub fn get_request(target: &str) -> Vec<u8> {
    format!("GET {target} HTTP/1.1\r\nHost: class\r\n\r\n").into_bytes()
}

/// A kept-alive connection, opened again when needed.
pub struct Conn {
    addr: SocketAddr,
    timeout: Duration,
    stream: Option<TcpStream>,
    /// Bytes read past the last answer (none, unless the server misbehaves).
    pending: Vec<u8>,
}

impl Conn {
    pub fn new(addr: SocketAddr, timeout: Duration) -> Conn {
        Conn {
            addr,
            timeout,
            stream: None,
            pending: Vec::new(),
        }
    }

    /// Drops the connection: the next request opens a new one.
    pub fn reset(&mut self) {
        self.stream = None;
        self.pending.clear();
    }

    pub fn get(&mut self, target: &str) -> io::Result<Answer> {
        let mut stream = match self.stream.take() {
            Some(s) => s,
            None => {
                self.pending.clear();
                connect(self.addr, self.timeout)?
            }
        };
        stream.write_all(&get_request(target))?;
        let answer = read_answer(&mut stream, &mut self.pending)?;
        if answer.keep_alive {
            self.stream = Some(stream);
        }
        Ok(answer)
    }
}
