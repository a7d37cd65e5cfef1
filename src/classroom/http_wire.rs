//! The class server's HTTP/1.1, std only: a thread per connection, keep-alive, and a limit on
//! everything a client controls. A class server faces students' first programs, which send half
//! a request, forget a header or loop on a connection; none of that may stop the server or hold
//! it up. Every refusal is the API's JSON error form, with an HTTP status that names the limit:
//!
//! | limit | refusal |
//! |---|---|
//! | request line and headers over `max_head` bytes | 431, connection closed |
//! | a `Content-Length` over `max_body` | 413, connection closed (the body is never read) |
//! | `Transfer-Encoding` (a body without a length) | 411, connection closed |
//! | a request not whole `request_time` after its first byte | 408, connection closed |
//! | a request line or header that is not HTTP | 400, connection closed |
//! | an HTTP version other than 1.0 and 1.1 | 505, connection closed |
//! | more than `max_connections` open at once | 503 at once, connection closed |
//! | a kept-alive connection silent for `idle_time` | closed without a word |

use super::server::failure;
use serde_json::Value;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Limits {
    /// The request line and headers together, in bytes.
    pub max_head: usize,
    /// A request body, in bytes (the API's requests are a few hundred).
    pub max_body: usize,
    /// From a request's first byte to its last.
    pub request_time: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_time: Duration,
    /// Connections open at once; one more is refused with 503.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_head: 16 * 1024,
            max_body: 64 * 1024,
            request_time: Duration::from_secs(10),
            idle_time: Duration::from_secs(60),
            max_connections: 1000,
        }
    }
}

/// One request, read whole.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The path and query, as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value; names are compared without case, as HTTP says.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A request refused before it reached the API: its status and the sentence for `error`.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub error: String,
}

fn refusal(status: u16, error: impl Into<String>) -> Refusal {
    Refusal {
        status,
        error: error.into(),
    }
}

/// Answers one request: its status and JSON body.
pub type Handler = dyn Fn(&Request) -> (u16, Value) + Send + Sync;

/// Accepts connections until the process ends. A failed accept (no file descriptors left, a
/// client gone before it was taken) is logged and waited out: the next one may succeed, and a
/// server that stopped accepting would be down for the whole class.
pub fn serve(listener: TcpListener, limits: Limits, handler: Arc<Handler>, log: fn(&str)) {
    let open = Arc::new(AtomicUsize::new(0));
    let mut last_complaint: Option<Instant> = None;
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) => {
                if last_complaint.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                    log(&format!("ERROR: accepting a connection: {e}"));
                    last_complaint = Some(Instant::now());
                }
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= limits.max_connections {
            open.fetch_sub(1, Ordering::SeqCst);
            turn_away(stream, &limits);
            continue;
        }
        let guard = OpenConnection(Arc::clone(&open));
        let (limits, handler) = (limits.clone(), Arc::clone(&handler));
        let spawned = std::thread::Builder::new()
            .name("http".into())
            .stack_size(512 * 1024)
            .spawn(move || {
                let _guard = guard;
                connection(stream, &limits, &*handler);
            });
        if let Err(e) = spawned {
            // The closure (with the stream and the guard) is dropped: the client sees the
            // connection close and may try again.
            log(&format!("ERROR: no thread for a connection: {e}"));
        }
    }
}

/// Counts a connection as open until its thread ends, however it ends.
struct OpenConnection(Arc<AtomicUsize>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The answer to a connection over the limit, written without blocking the accept loop: the
/// few bytes fit in the socket's buffer, and if they do not, the client was not reading.
fn turn_away(stream: TcpStream, limits: &Limits) {
    let _ = stream.set_nonblocking(true);
    let body = failure(format!(
        "the server is full ({} connections): try again in a moment",
        limits.max_connections
    ));
    let _ = (&stream).write_all(&response_bytes(503, &body, false, false));
}

/// Serves the requests of one connection, one after the other.
fn connection(mut stream: TcpStream, limits: &Limits, handler: &Handler) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(limits.request_time));
    // Bytes read and not yet used: a client may send its next request before the answer.
    let mut pending = Vec::new();
    loop {
        let (request, keep_alive) = match read_request(&mut stream, &mut pending, limits) {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(r) => {
                let _ =
                    stream.write_all(&response_bytes(r.status, &failure(r.error), false, false));
                linger(&mut stream);
                return;
            }
        };
        let (status, body) =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&request)))
                .unwrap_or_else(|_| (500, failure("the server failed on this request")));
        let head_only = request.method == "HEAD";
        let bytes = response_bytes(status, &body, head_only, keep_alive);
        if stream.write_all(&bytes).is_err() || !keep_alive {
            return;
        }
    }
}

/// Closes a connection after a refusal without losing the refusal: a socket closed with
/// unread bytes waiting (the body of a refused upload) is reset, and a reset can throw away
/// the answer before the client reads it. So the sending side is shut first and what is still
/// coming is read and dropped, for a moment and a few hundred KiB at most.
fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let until = Instant::now() + Duration::from_millis(500);
    let (mut sink, mut dropped) = (Vec::new(), 0);
    while dropped < 256 * 1024 && read_before(stream, &mut sink, until).is_ok() {
        dropped += sink.len();
        sink.clear();
    }
}

/// The next request on the connection: `None` when the client closed it or stayed silent
/// for `idle_time` before a request began, else the request and whether to keep the
/// connection open after it.
fn read_request(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    limits: &Limits,
) -> Result<Option<(Request, bool)>, Refusal> {
    if pending.is_empty() {
        let _ = stream.set_read_timeout(Some(limits.idle_time));
        if read_more(stream, pending).is_err() {
            return Ok(None);
        }
    }
    // The request's time runs from its first byte.
    let deadline = Instant::now() + limits.request_time;
    let head_end = loop {
        if let Some(end) = head_end(pending) {
            if end.0 > limits.max_head {
                return Err(head_too_long(limits));
            }
            break end;
        }
        if pending.len() > limits.max_head {
            return Err(head_too_long(limits));
        }
        match read_before(stream, pending, deadline) {
            Ok(()) => {}
            Err(Stop::Closed) => return Ok(None),
            Err(Stop::Late) => return Err(too_slow(limits)),
        }
    };
    let head = String::from_utf8_lossy(&pending[..head_end.0]).into_owned();
    pending.drain(..head_end.1);
    let (mut request, keep_alive) = parse_head(&head)?;
    let length = body_length(&request, limits)?;
    while pending.len() < length {
        match read_before(stream, pending, deadline) {
            Ok(()) => {}
            Err(Stop::Closed) => return Ok(None),
            Err(Stop::Late) => return Err(too_slow(limits)),
        }
    }
    request.body = pending.drain(..length).collect();
    Ok(Some((request, keep_alive)))
}

fn head_too_long(limits: &Limits) -> Refusal {
    refusal(
        431,
        format!(
            "the request line and headers are longer than {} bytes",
            limits.max_head
        ),
    )
}

fn too_slow(limits: &Limits) -> Refusal {
    refusal(
        408,
        format!(
            "the request was not complete within {} seconds of its first byte",
            limits.request_time.as_secs_f64()
        ),
    )
}

enum Stop {
    Closed,
    Late,
}

/// Reads what has arrived (waiting at most until `deadline`) onto `pending`.
fn read_before(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    deadline: Instant,
) -> Result<(), Stop> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Stop::Late);
    }
    let _ = stream.set_read_timeout(Some(left));
    match read_more(stream, pending) {
        Ok(()) => Ok(()),
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            Err(Stop::Late)
        }
        Err(_) => Err(Stop::Closed),
    }
}

/// One read onto the end of `pending`; an end of stream is an error (`UnexpectedEof`).
fn read_more(stream: &mut TcpStream, pending: &mut Vec<u8>) -> std::io::Result<()> {
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => return Err(ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                pending.extend_from_slice(&chunk[..n]);
                return Ok(());
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Where the head (request or status line and headers) ends: its length without the blank
/// line, and with it. Bare `\n` line ends are taken too, as lenient servers do.
pub fn head_end(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while let Some(off) = bytes[i..].iter().position(|&b| b == b'\n') {
        let nl = i + off;
        let rest = &bytes[nl + 1..];
        if rest.starts_with(b"\r\n") {
            return Some((nl + 1, nl + 3));
        }
        if rest.starts_with(b"\n") {
            return Some((nl + 1, nl + 2));
        }
        i = nl + 1;
    }
    None
}

/// Header lines into (name, value) pairs; `None` for a line that is not `name: value`.
pub fn parse_header_lines<'a>(
    lines: impl Iterator<Item = &'a str>,
) -> Option<Vec<(String, String)>> {
    let mut headers = Vec::new();
    for line in lines {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        let (name, value) = line.split_once(':')?;
        let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if name.is_empty() || !name.chars().all(token) {
            return None;
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    Some(headers)
}

/// The request line and headers; the flag says whether the connection stays open after.
fn parse_head(head: &str) -> Result<(Request, bool), Refusal> {
    let mut lines = head.split('\n');
    let line = lines.next().unwrap_or_default().trim_end_matches('\r');
    let parts: Vec<&str> = line.split(' ').collect();
    let [method, target, version] = parts.as_slice() else {
        return Err(refusal(
            400,
            "malformed request line: want METHOD /path HTTP/1.1",
        ));
    };
    let method_ok = !method.is_empty() && method.chars().all(|c| c.is_ascii_uppercase());
    if !method_ok || !target.starts_with('/') {
        return Err(refusal(
            400,
            "malformed request line: want METHOD /path HTTP/1.1",
        ));
    }
    let keep_alive_by_default = match *version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        v if v.starts_with("HTTP/") => {
            return Err(refusal(
                505,
                format!("{v} is not spoken here: HTTP/1.1 or HTTP/1.0"),
            ))
        }
        _ => {
            return Err(refusal(
                400,
                "malformed request line: want METHOD /path HTTP/1.1",
            ))
        }
    };
    let headers = parse_header_lines(lines)
        .ok_or_else(|| refusal(400, "malformed header line: want 'Name: value'"))?;
    let request = Request {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body: Vec::new(),
    };
    let connection = request.header("Connection").unwrap_or_default();
    let keep_alive = if connection.eq_ignore_ascii_case("close") {
        false
    } else {
        keep_alive_by_default || connection.eq_ignore_ascii_case("keep-alive")
    };
    Ok((request, keep_alive))
}

/// The body's length from `Content-Length` (none: no body), refused when it is not a number,
/// too large, or replaced by `Transfer-Encoding`.
fn body_length(request: &Request, limits: &Limits) -> Result<usize, Refusal> {
    if request.header("Transfer-Encoding").is_some() {
        return Err(refusal(
            411,
            "send the body with a Content-Length (Transfer-Encoding is not read here)",
        ));
    }
    let lengths: Vec<&str> = request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
        .map(|(_, v)| v.as_str())
        .collect();
    let Some(first) = lengths.first() else {
        return Ok(0);
    };
    if lengths.iter().any(|l| l != first)
        || first.is_empty()
        || !first.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(refusal(400, "malformed Content-Length"));
    }
    // Digits only, so the one failure left is a number too large for any memory.
    match first.parse::<usize>() {
        Ok(n) if n <= limits.max_body => Ok(n),
        _ => Err(refusal(
            413,
            format!("the request body is larger than {} bytes", limits.max_body),
        )),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// A whole response: JSON, its length, and whether the connection stays open.
fn response_bytes(status: u16, body: &Value, head_only: bool, keep_alive: bool) -> Vec<u8> {
    let text = body.to_string();
    let mut out = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: application/json; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: {}\r\n\r\n",
        reason(status),
        text.len(),
        if keep_alive { "keep-alive" } else { "close" }
    )
    .into_bytes();
    if !head_only {
        out.extend_from_slice(text.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_end_at_the_blank_line_either_way() {
        assert_eq!(
            head_end(b"GET / HTTP/1.1\r\nA: b\r\n\r\nrest"),
            Some((22, 24))
        );
        assert_eq!(head_end(b"GET / HTTP/1.1\n\nx"), Some((15, 16)));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n"), None);
    }

    #[test]
    fn request_lines_and_versions() {
        let (r, keep) = parse_head("GET /elo?x=1 HTTP/1.1\r\nHost: a\r\n").unwrap();
        assert_eq!(
            (r.method.as_str(), r.target.as_str(), keep),
            ("GET", "/elo?x=1", true)
        );
        assert_eq!(r.header("host"), Some("a"));
        let (_, keep) = parse_head("GET / HTTP/1.0\r\n").unwrap();
        assert!(!keep);
        let (_, keep) = parse_head("GET / HTTP/1.1\r\nConnection: close\r\n").unwrap();
        assert!(!keep);
        assert_eq!(parse_head("GET / HTTP/2.0\r\n").unwrap_err().status, 505);
        for bad in [
            "",
            "GET /",
            "get / HTTP/1.1",
            "GET x HTTP/1.1",
            "GET / FTP",
            "GET / HTTP/1.1\r\nno colon",
        ] {
            assert_eq!(parse_head(bad).unwrap_err().status, 400, "{bad:?}");
        }
    }

    #[test]
    fn body_lengths() {
        let limits = Limits::default();
        let with = |h: &str| {
            parse_head(&format!("POST / HTTP/1.1\r\n{h}\r\n"))
                .unwrap()
                .0
        };
        assert_eq!(body_length(&with("Content-Length: 12"), &limits), Ok(12));
        assert_eq!(body_length(&with("X: y"), &limits), Ok(0));
        let status = |h: &str| body_length(&with(h), &limits).unwrap_err().status;
        assert_eq!(status("Content-Length: 1000000000000"), 413);
        assert_eq!(status("Content-Length: 99999999999999999999999999"), 413);
        assert_eq!(status("Content-Length: 65537"), 413);
        assert_eq!(status("Content-Length: -1"), 400);
        assert_eq!(status("Content-Length: 1\r\nContent-Length: 2"), 400);
        assert_eq!(status("Transfer-Encoding: chunked"), 411);
    }
}
