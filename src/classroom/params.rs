//! Request parameters as students' clients send them: a query string (the seed's clients used
//! GET), a URL-encoded form, or a JSON object in a POST body.

use super::server::Params;
use serde_json::Value;

/// Decodes one `application/x-www-form-urlencoded` component: `+` is a space, `%XX` a byte, and
/// the bytes must be UTF-8.
pub fn decode_component(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bad percent escape in {text:?}"))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("{text:?} does not decode to UTF-8 text"))
}

/// `a=1&b=2` into a map; a key given twice keeps its first value.
pub fn parse_query(query: &str) -> Result<Params, String> {
    let mut params = Params::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode_component(key)?;
        let value = decode_component(value)?;
        params.entry(key).or_insert(value);
    }
    Ok(params)
}

/// A POST body: a JSON object when the content type says so (or the body starts with `{`),
/// else a form. JSON numbers and booleans are taken as their text.
pub fn parse_body(body: &str, content_type: &str) -> Result<Params, String> {
    let trimmed = body.trim_start();
    if content_type.contains("json") || trimmed.starts_with('{') {
        let value: Value =
            serde_json::from_str(body).map_err(|e| format!("the body is not JSON: {e}"))?;
        let Value::Object(map) = value else {
            return Err("the JSON body must be an object".to_string());
        };
        let mut params = Params::new();
        for (key, v) in map {
            let text = match v {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Null => continue,
                _ => return Err(format!("the field {key:?} must be text")),
            };
            params.insert(key, text);
        }
        return Ok(params);
    }
    parse_query(body.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_decode_escapes_and_pluses() {
        let p = parse_query("user=ann&name=Ann+Liu&coord=H%48&empty=&flag").unwrap();
        assert_eq!(p["user"], "ann");
        assert_eq!(p["name"], "Ann Liu");
        assert_eq!(p["coord"], "HH");
        assert_eq!(p["empty"], "");
        assert_eq!(p["flag"], "");
        assert_eq!(parse_query("name=%E6%A3%8B").unwrap()["name"], "棋");
        assert_eq!(parse_query("a=1&a=2").unwrap()["a"], "1");
    }

    #[test]
    fn broken_escapes_are_errors() {
        assert!(parse_query("user=%4").is_err());
        assert!(parse_query("user=%zz").is_err());
        assert!(parse_query("user=%ff%fe").is_err());
    }

    #[test]
    fn bodies_are_forms_or_json_objects() {
        let p = parse_body("user=ann&coord=HH", "application/x-www-form-urlencoded").unwrap();
        assert_eq!(p["coord"], "HH");
        let p = parse_body(r#"{"user":"ann","coord":"HH","n":3}"#, "application/json").unwrap();
        assert_eq!((p["user"].as_str(), p["n"].as_str()), ("ann", "3"));
        assert!(parse_body("[1]", "application/json").is_err());
        assert!(parse_body("{", "").is_err());
        assert!(parse_body(r#"{"coord":["HH"]}"#, "").is_err());
    }
}
