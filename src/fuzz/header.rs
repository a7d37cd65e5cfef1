//! The optional first line of an input, `#!fuzz key=value ...`, which picks the target's variant
//! (the game, keep-running, the board size ...). It is part of the input, so a saved failure
//! replays with the same variant; the mutator may damage it like any other line, and a value
//! the harness does not know means its default.

/// What starts a header line.
pub const MARK: &str = "#!fuzz";

/// The settings of a header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Header {
    pairs: Vec<(String, String)>,
}

impl Header {
    /// Splits an input into its header (empty when the first line is not one) and the rest.
    pub fn split(input: &[u8]) -> (Header, &[u8]) {
        if !input.starts_with(MARK.as_bytes()) {
            return (Header::default(), input);
        }
        let end = input.iter().position(|&b| b == b'\n');
        let (line, rest) = match end {
            Some(i) => (&input[..i], &input[i + 1..]),
            None => (input, &input[input.len()..]),
        };
        let text = String::from_utf8_lossy(&line[MARK.len()..]);
        let pairs = text
            .split_whitespace()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (Header { pairs }, rest)
    }

    /// The header line for these settings (with its newline).
    pub fn line(pairs: &[(&str, &str)]) -> String {
        let mut s = MARK.to_string();
        for (k, v) in pairs {
            s.push_str(&format!(" {k}={v}"));
        }
        s.push('\n');
        s
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A flag: `1` is on, anything else off.
    pub fn flag(&self, key: &str) -> bool {
        self.get(key) == Some("1")
    }

    /// A number within `range`, else `default`.
    pub fn number(&self, key: &str, range: std::ops::RangeInclusive<u64>, default: u64) -> u64 {
        self.get(key)
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|n| range.contains(n))
            .unwrap_or(default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_split_from_the_rest_and_read_leniently() {
        let input = format!(
            "{}rest\nmore",
            Header::line(&[("game", "gomoku"), ("keep", "1")])
        );
        let (h, rest) = Header::split(input.as_bytes());
        assert_eq!(h.get("game"), Some("gomoku"));
        assert!(h.flag("keep"));
        assert_eq!(rest, b"rest\nmore");
        let (h, rest) = Header::split(b"no header\n");
        assert_eq!(h, Header::default());
        assert_eq!(rest, b"no header\n");
        let (h, _) = Header::split(b"#!fuzz size=99 broken size2");
        assert_eq!(h.number("size", 6..=25, 19), 19);
    }
}
