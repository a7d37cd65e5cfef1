//! Mutations of an input, at three levels: bytes (flips, NULs, invalid UTF-8, CR/LF mixes),
//! lines (deleted, doubled, swapped, spliced from another input, one made very long) and tokens
//! (numbers replaced by extremes, words by the protocol's keywords, case changed).

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;

/// Inputs never grow past this: a platform's longest message is a few kilobytes.
pub const MAX_INPUT: usize = 32 * 1024;
/// The longest run a "very long line" mutation inserts.
const LONG_RUN: usize = 6000;

/// Numbers that break naive parsing: signs, zero, the edges of every integer type, floats,
/// infinities, NaN, and digits that are not ASCII.
pub const EXTREMES: &[&str] = &[
    "-1",
    "0",
    "-0",
    "1",
    "2",
    "5",
    "9",
    "10",
    "11",
    "14",
    "15",
    "19",
    "20",
    "21",
    "25",
    "26",
    "81",
    "127",
    "128",
    "255",
    "256",
    "-129",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1e308",
    "1e309",
    "-1e308",
    "1e-308",
    "4.9e-324",
    "1e19",
    "1e20",
    "0.5",
    "-0.5",
    "1.5e3",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "+1",
    "00000000000000000000001",
    "0x10",
    "1_000",
    "\u{661}",
    "\u{ff11}",
];

/// Bytes worth putting anywhere: separators of every protocol, NUL, and bytes that are not UTF-8.
const SPECIAL_BYTES: &[u8] = &[
    0, b'\n', b'\r', b' ', b'\t', b',', b'{', b'}', b'[', b']', b'"', b':', b'-', b'@', b'#', b'=',
    b'?', b'\\', 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf8, 0xff, 0x1b,
];

/// Byte sequences that are not valid UTF-8 (overlong, lone continuation, surrogate, too large).
const BAD_UTF8: &[&[u8]] = &[
    &[0xff],
    &[0xc0, 0x80],
    &[0x80],
    &[0xed, 0xa0, 0x80],
    &[0xf4, 0x90, 0x80, 0x80],
    &[0xe2, 0x82],
    &[0xef, 0xbb, 0xbf],
];

/// Applies one to six mutations to `input`. `other` is another input of the same target, for
/// splices; `words` are the protocol's keywords.
pub fn mutate(rng: &mut SmallRng, input: &mut Vec<u8>, other: &[u8], words: &[&str]) {
    let rounds = 1 + rng.gen_range(0..6) * rng.gen_range(0..2);
    for _ in 0..rounds {
        mutate_once(rng, input, other, words);
    }
    input.truncate(MAX_INPUT);
}

fn mutate_once(rng: &mut SmallRng, input: &mut Vec<u8>, other: &[u8], words: &[&str]) {
    match rng.gen_range(0..20) {
        0 => flip_bit(rng, input),
        1 => set_special_byte(rng, input),
        2 => insert_bytes(rng, input),
        3 => delete_range(rng, input),
        4 => duplicate_range(rng, input),
        5 => delete_line(rng, input),
        6 => duplicate_line(rng, input),
        7 => swap_lines(rng, input),
        8 => splice(rng, input, other),
        9 => insert_line_from(rng, input, other),
        10..=12 => replace_number(rng, input),
        13 => replace_word(rng, input, words),
        14 => truncate(rng, input),
        15 => insert_bad_utf8(rng, input),
        16 => mix_line_ends(rng, input),
        17 => long_run(rng, input),
        18 => change_case(rng, input),
        _ => insert_word(rng, input, words),
    }
}

fn pos(rng: &mut SmallRng, input: &[u8]) -> usize {
    rng.gen_range(0..=input.len())
}

fn flip_bit(rng: &mut SmallRng, input: &mut [u8]) {
    if !input.is_empty() {
        let i = rng.gen_range(0..input.len());
        input[i] ^= 1 << rng.gen_range(0..8);
    }
}

fn set_special_byte(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let b = *SPECIAL_BYTES.choose(rng).expect("not empty");
    if input.is_empty() || rng.gen_bool(0.5) {
        let at = pos(rng, input);
        input.insert(at, b);
    } else {
        let i = rng.gen_range(0..input.len());
        input[i] = b;
    }
}

fn insert_bytes(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let at = pos(rng, input);
    let n = rng.gen_range(1..=8);
    let bytes: Vec<u8> = (0..n).map(|_| rng.gen::<u8>()).collect();
    input.splice(at..at, bytes);
}

/// A range of at most a quarter of the input (at least one byte), if there are bytes.
fn range(rng: &mut SmallRng, input: &[u8]) -> Option<std::ops::Range<usize>> {
    if input.is_empty() {
        return None;
    }
    let start = rng.gen_range(0..input.len());
    let max = ((input.len() - start) / 4).max(1);
    Some(start..start + rng.gen_range(1..=max))
}

fn delete_range(rng: &mut SmallRng, input: &mut Vec<u8>) {
    if let Some(r) = range(rng, input) {
        input.drain(r);
    }
}

fn duplicate_range(rng: &mut SmallRng, input: &mut Vec<u8>) {
    if let Some(r) = range(rng, input) {
        let copy = input[r.clone()].to_vec();
        input.splice(r.end..r.end, copy);
    }
}

/// The byte ranges of the lines of `input`, each with its newline.
fn lines(input: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in input.iter().enumerate() {
        if b == b'\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < input.len() {
        out.push(start..input.len());
    }
    out
}

fn delete_line(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let ls = lines(input);
    if let Some(r) = ls.choose(rng) {
        input.drain(r.clone());
    }
}

fn duplicate_line(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let ls = lines(input);
    if let Some(r) = ls.choose(rng) {
        let mut copy = input[r.clone()].to_vec();
        if !copy.ends_with(b"\n") {
            copy.push(b'\n');
        }
        let times = if rng.gen_bool(0.9) { 1 } else { 20 };
        for _ in 0..times {
            input.splice(r.start..r.start, copy.clone());
        }
    }
}

fn swap_lines(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let ls = lines(input);
    if ls.len() < 2 {
        return;
    }
    let i = rng.gen_range(0..ls.len() - 1);
    let j = rng.gen_range(i + 1..ls.len());
    let mut out = Vec::with_capacity(input.len() + 1);
    for (k, r) in ls.iter().enumerate() {
        let pick = if k == i {
            &ls[j]
        } else if k == j {
            &ls[i]
        } else {
            r
        };
        out.extend_from_slice(&input[pick.clone()]);
        if !out.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    *input = out;
}

/// The start of one input, the end of another, cut at line boundaries.
fn splice(rng: &mut SmallRng, input: &mut Vec<u8>, other: &[u8]) {
    let mine = lines(input);
    let theirs = lines(other);
    if theirs.is_empty() {
        return;
    }
    let keep = mine
        .get(rng.gen_range(0..=mine.len()))
        .map_or(input.len(), |r| r.start);
    let from = theirs[rng.gen_range(0..theirs.len())].start;
    input.truncate(keep);
    input.extend_from_slice(&other[from..]);
}

fn insert_line_from(rng: &mut SmallRng, input: &mut Vec<u8>, other: &[u8]) {
    let theirs = lines(other);
    let Some(r) = theirs.choose(rng) else { return };
    let mut line = other[r.clone()].to_vec();
    if !line.ends_with(b"\n") {
        line.push(b'\n');
    }
    let mine = lines(input);
    let at = mine.choose(rng).map_or(input.len(), |r| r.start);
    input.splice(at..at, line);
}

/// Replaces a run of digits (with its sign, if any) by one of the `EXTREMES`.
fn replace_number(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let runs = number_runs(input);
    let with = EXTREMES.choose(rng).expect("not empty").as_bytes().to_vec();
    match runs.choose(rng) {
        Some(r) => {
            input.splice(r.clone(), with);
        }
        None => {
            let at = pos(rng, input);
            input.splice(at..at, with);
        }
    }
}

fn number_runs(input: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < input.len() {
        if input[i].is_ascii_digit() {
            let mut start = i;
            if start > 0 && input[start - 1] == b'-' {
                start -= 1;
            }
            while i < input.len() && (input[i].is_ascii_digit() || input[i] == b'.') {
                i += 1;
            }
            runs.push(start..i);
        } else {
            i += 1;
        }
    }
    runs
}

/// Replaces a word (a run of letters, digits, `_` and `?`) by a keyword of the protocol.
fn replace_word(rng: &mut SmallRng, input: &mut Vec<u8>, words: &[&str]) {
    let Some(&word) = words.choose(rng) else {
        return;
    };
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'?';
    let starts: Vec<usize> = (0..input.len())
        .filter(|&i| is_word(input[i]) && (i == 0 || !is_word(input[i - 1])))
        .collect();
    let Some(&start) = starts.choose(rng) else {
        return;
    };
    let mut end = start;
    while end < input.len() && is_word(input[end]) {
        end += 1;
    }
    input.splice(start..end, word.bytes());
}

fn insert_word(rng: &mut SmallRng, input: &mut Vec<u8>, words: &[&str]) {
    let Some(&word) = words.choose(rng) else {
        return;
    };
    let at = pos(rng, input);
    let sep: &[u8] = [&b" "[..], b"\n", b""].choose(rng).expect("not empty");
    let mut bytes = word.as_bytes().to_vec();
    bytes.extend_from_slice(sep);
    input.splice(at..at, bytes);
}

fn truncate(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let at = pos(rng, input);
    input.truncate(at);
}

fn insert_bad_utf8(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let bytes = BAD_UTF8.choose(rng).expect("not empty").to_vec();
    let at = pos(rng, input);
    input.splice(at..at, bytes);
}

/// Line ends as other systems and broken platforms write them: CR LF, lone CR, none at all,
/// or a NUL after each command (the SAU platform's habit).
fn mix_line_ends(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let replacement: &[u8] = [&b"\r\n"[..], b"\r", b"", b"\0", b"\0\n", b"\n\n", b" \n"]
        .choose(rng)
        .expect("not empty");
    let all = rng.gen_bool(0.5);
    let mut out = Vec::with_capacity(input.len() * 2);
    for &b in input.iter() {
        if b == b'\n' && (all || rng.gen_bool(0.3)) {
            out.extend_from_slice(replacement);
        } else {
            out.push(b);
        }
    }
    *input = out;
}

fn long_run(rng: &mut SmallRng, input: &mut Vec<u8>) {
    let b = *[b'a', b'1', b' ', b'[', b'{', b'"', b',', 0u8, b'9', b'@']
        .choose(rng)
        .expect("not empty");
    let n = rng.gen_range(100..=LONG_RUN);
    let at = pos(rng, input);
    input.splice(at..at, std::iter::repeat_n(b, n));
}

fn change_case(rng: &mut SmallRng, input: &mut [u8]) {
    if let Some(r) = range(rng, input) {
        let upper = rng.gen_bool(0.5);
        for b in &mut input[r] {
            *b = if upper {
                b.to_ascii_uppercase()
            } else {
                b.to_ascii_lowercase()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn mutations_are_reproducible_and_bounded() {
        let base = b"START 15\nBEGIN\nTURN 7,7\n".to_vec();
        let run = |seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut v = base.clone();
            for _ in 0..200 {
                mutate(&mut rng, &mut v, b"INFO x 1\n", &["END", "BOARD"]);
            }
            v
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
        assert!(run(5).len() <= MAX_INPUT);
    }

    #[test]
    fn numbers_are_found_with_their_sign() {
        assert_eq!(number_runs(b"x -12 y 3.5"), vec![2..5, 8..11]);
    }
}
