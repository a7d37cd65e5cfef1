//! The network built into the binary: the generation kept in the repository
//! (`docs/nogo-network.md` gives its recipe), read once, on first use.

use super::Network;
use std::sync::{Arc, OnceLock};

/// The name the built-in network goes by on the command line and in messages.
pub const NAME: &str = "nogo-gen1";

const BYTES: &[u8] = include_bytes!("nogo-gen1.sbnn");

/// The built-in network, shared by every engine of the process.
pub fn network() -> Result<Arc<Network>, String> {
    static NET: OnceLock<Result<Arc<Network>, String>> = OnceLock::new();
    NET.get_or_init(|| {
        Network::from_bytes(BYTES, &format!("the built-in network ({NAME})")).map(Arc::new)
    })
    .clone()
}
