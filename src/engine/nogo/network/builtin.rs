//! The network built into the binary: the generation kept in the repository
//! (`docs/nogo-network.md` gives its recipe), read once, on first use.

use super::{Network, Precision};
use std::sync::{Arc, OnceLock};

/// The name the built-in network goes by on the command line and in messages.
pub const NAME: &str = "nogo-gen3-gumbel";

const BYTES: &[u8] = include_bytes!("nogo-gen3-gumbel.sbnn");

/// The built-in network, shared by every engine of the process.
pub fn network() -> Result<Arc<Network>, String> {
    network_at(Precision::Float)
}

/// The built-in network with its tower at `precision`, made once for each.
pub fn network_at(precision: Precision) -> Result<Arc<Network>, String> {
    type Cell = OnceLock<Result<Arc<Network>, String>>;
    static FLOAT: Cell = OnceLock::new();
    static INT8: Cell = OnceLock::new();
    let cell = match precision {
        Precision::Float => &FLOAT,
        Precision::Int8 => &INT8,
    };
    cell.get_or_init(|| {
        let name = format!("the built-in network ({NAME})");
        Network::from_bytes_at(BYTES, &name, precision).map(Arc::new)
    })
    .clone()
}
