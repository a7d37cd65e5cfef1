//! The client's side of the wire: one function per endpoint of the class server, GET requests
//! with the parameters in the query string, as the seed's clients sent them.

use serde_json::Value;
use std::time::Duration;

/// Why a call got no JSON answer: worth retrying, since servers restart and networks drop.
#[derive(Debug, Clone)]
pub struct CallError(pub String);

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub struct ClassApi {
    agent: ureq::Agent,
    base: String,
}

impl ClassApi {
    /// `server` is the server's address, e.g. `http://192.168.0.103:8000`.
    pub fn new(server: &str) -> Result<ClassApi, String> {
        let base = server.trim().trim_end_matches('/').to_string();
        if !base.starts_with("http://") {
            return Err(format!(
                "{server:?} is not a server address: give it as http://HOST:PORT (the class \
                 server speaks plain HTTP)"
            ));
        }
        let config = ureq::Agent::config_builder()
            // The server answers refusals as JSON with is_success false; read those too.
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build();
        Ok(ClassApi {
            agent: config.into(),
            base,
        })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// One GET; the answer must be a JSON object with `is_success`.
    pub fn get(&self, path: &str, params: &[(&str, &str)]) -> Result<Value, CallError> {
        let url = format!("{}/{path}", self.base);
        let mut request = self.agent.get(&url);
        for (k, v) in params {
            request = request.query(*k, *v);
        }
        let mut response = request
            .call()
            .map_err(|e| CallError(format!("{url}: {e}")))?;
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .read_to_string()
            .map_err(|e| CallError(format!("{url}: reading the answer: {e}")))?;
        match serde_json::from_str::<Value>(&body) {
            Ok(v) if v.get("is_success").is_some_and(Value::is_boolean) => Ok(v),
            _ => {
                let excerpt: String = body.chars().take(120).collect();
                Err(CallError(format!(
                    "{url}: HTTP {status} without a class-server answer: {excerpt:?}"
                )))
            }
        }
    }

    pub fn public_key(&self) -> Result<Value, CallError> {
        self.get("public_key", &[])
    }

    pub fn join(
        &self,
        user: &str,
        password_hex: &str,
        name: Option<&str>,
    ) -> Result<Value, CallError> {
        let mut params = vec![("user", user), ("password", password_hex)];
        if let Some(n) = name {
            params.push(("name", n));
        }
        self.get("join_game", &params)
    }

    pub fn check(&self, game_id: &str) -> Result<Value, CallError> {
        self.get(&format!("check_game/{game_id}"), &[])
    }

    pub fn play(
        &self,
        game_id: &str,
        user: &str,
        password_hex: &str,
        coord: &str,
    ) -> Result<Value, CallError> {
        self.get(
            &format!("play_game/{game_id}"),
            &[("user", user), ("password", password_hex), ("coord", coord)],
        )
    }

    pub fn ratings(&self) -> Result<Value, CallError> {
        self.get("elo", &[])
    }
}
