//! The class server's HTTP limits (`src/classroom/http_wire.rs`), through the real binary:
//! every request a student's first program might send by mistake, or a hostile one on
//! purpose, gets its documented status with the API's JSON error, and the server answers a
//! normal request afterwards.

mod common;

use common::class_server::{start_server, temp_dir, Running};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use stonebrain::classroom::load::http::{connect, exchange, get_request, read_answer, Answer};

const WAIT: Duration = Duration::from_secs(20);

fn server(tag: &str, flags: &[&str]) -> (Running, SocketAddr, std::path::PathBuf) {
    let dir = temp_dir(tag);
    let mut all = vec!["--no-bot"];
    all.extend_from_slice(flags);
    let (running, url) = start_server(&dir, "127.0.0.1:0", &all);
    let addr = url.trim_start_matches("http://").parse().unwrap();
    (running, addr, dir)
}

/// The status and the JSON error sentence, which must be there.
fn refused(answer: &Answer, status: u16, needle: &str) {
    assert_eq!(answer.status, status, "{answer:?}");
    let error = answer
        .refusal()
        .unwrap_or_else(|| panic!("no JSON error: {answer:?}"));
    assert!(error.contains(needle), "wanted {needle:?} in {error:?}");
    assert!(
        !answer.keep_alive,
        "a refused connection is closed: {answer:?}"
    );
}

/// The server still serves: the public key, on a new connection.
fn still_serving(addr: SocketAddr) {
    let a = exchange(addr, &get_request("/public_key"), WAIT).unwrap();
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(a.json().unwrap()["is_success"], true);
}

#[test]
fn malformed_and_oversized_requests_get_their_refusals() {
    let (_server, addr, dir) = server("http-limits", &[]);
    let send = |bytes: &[u8]| exchange(addr, bytes, WAIT).unwrap();

    // A terabyte announced: refused from the header alone (the old server tried to allocate
    // it and aborted).
    let huge = b"POST /play_game/x HTTP/1.1\r\nContent-Length: 1000000000000\r\n\r\n";
    refused(&send(huge), 413, "larger than 65536 bytes");
    still_serving(addr);
    let digits = b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999999999\r\n\r\n";
    refused(&send(digits), 413, "larger than");
    // A real body over the limit, sent whole.
    let mut big = b"POST /join_game HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 70000\r\n\r\n".to_vec();
    big.extend(std::iter::repeat_n(b'a', 70_000));
    refused(&send(&big), 413, "larger than");
    still_serving(addr);

    for garbage in [
        &b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"[..],
        b"hello\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET http://x/ HTTP/1.1\r\n\r\n",
        b"get / HTTP/1.1\r\n\r\n",
    ] {
        refused(&send(garbage), 400, "malformed request line");
    }
    refused(
        &send(b"GET / HTTP/1.1\r\nno colon here\r\n\r\n"),
        400,
        "malformed header",
    );
    refused(
        &send(b"POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n"),
        400,
        "Content-Length",
    );
    refused(&send(b"GET / HTTP/2.0\r\n\r\n"), 505, "HTTP/2.0");
    refused(
        &send(b"POST /join_game HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nuser=\r\n0\r\n\r\n"),
        411,
        "Content-Length",
    );
    let long = format!("GET / HTTP/1.1\r\nX-Long: {}\r\n\r\n", "a".repeat(20_000));
    refused(&send(long.as_bytes()), 431, "longer than 16384 bytes");
    // Never a blank line: the limit holds without one too.
    refused(&send("x".repeat(40_000).as_bytes()), 431, "longer than");
    still_serving(addr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stalled_request_gets_408_and_holds_up_nobody() {
    let (_server, addr, dir) = server("http-slow", &["--request-time", "1"]);
    let mut slow = connect(addr, WAIT).unwrap();
    slow.write_all(b"GET /public_key HTTP/1.1\r\nHost: cl")
        .unwrap();
    // While it stalls, others are answered.
    still_serving(addr);
    let start = Instant::now();
    refused(
        &read_answer(&mut slow, &mut Vec::new()).unwrap(),
        408,
        "within 1 seconds",
    );
    assert!(start.elapsed() < Duration::from_secs(15));
    // A body that never comes whole: the same.
    let mut slow = connect(addr, WAIT).unwrap();
    slow.write_all(b"POST /join_game HTTP/1.1\r\nContent-Length: 50\r\n\r\nuser=al")
        .unwrap();
    refused(
        &read_answer(&mut slow, &mut Vec::new()).unwrap(),
        408,
        "within",
    );
    still_serving(addr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kept_alive_connections_carry_many_requests_in_order() {
    let (_server, addr, dir) = server("http-keep", &[]);
    let mut stream = connect(addr, WAIT).unwrap();
    // Two requests in one write, then a HEAD: three answers, in order.
    let mut two = get_request("/elo");
    two.extend(get_request("/check_game/nosuchgame"));
    stream.write_all(&two).unwrap();
    let mut pending = Vec::new();
    let first = read_answer(&mut stream, &mut pending).unwrap();
    assert_eq!(first.json().unwrap()["k"], 32.0);
    let second = read_answer(&mut stream, &mut pending).unwrap();
    assert!(second.refusal().unwrap().contains("no game with id"));
    assert!(second.keep_alive);
    stream
        .write_all(b"HEAD /elo HTTP/1.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    assert!(rest.starts_with("HTTP/1.1 200 OK\r\n"), "{rest:?}");
    assert!(rest.ends_with("\r\n\r\n"), "HEAD has no body: {rest:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn connections_over_the_limit_get_503_and_idle_ones_are_closed() {
    let (_server, addr, dir) = server("http-full", &["--max-connections", "4", "--idle-time", "1"]);
    let idle: Vec<TcpStream> = (0..4).map(|_| connect(addr, WAIT).unwrap()).collect();
    // The server counts a connection once it has accepted it: wait until the fifth is
    // refused (never more than a moment).
    let start = Instant::now();
    let full = loop {
        let a = exchange(addr, &get_request("/elo"), WAIT).unwrap();
        if a.status == 503 || start.elapsed() > WAIT {
            break a;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    refused(&full, 503, "the server is full (4 connections)");
    // The idle ones are closed by the server after a second of silence, which frees room.
    for mut s in idle {
        let mut byte = [0u8; 1];
        assert_eq!(s.read(&mut byte).unwrap_or(0), 0, "closed without a word");
    }
    let start = Instant::now();
    loop {
        let a = exchange(addr, &get_request("/elo"), WAIT).unwrap();
        if a.status == 200 {
            break;
        }
        assert!(start.elapsed() < WAIT, "still refused: {a:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
