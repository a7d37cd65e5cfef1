//! The network's settings as the command line gives them, shared by play (`stonebrain
//! --nogo-net ...`) and self-play (`stonebrain selfplay nogo --nogo-net ...`), so that data is
//! made with exactly the search that plays.

use super::network::Precision;
use super::{Advice, NetSearch, PuctSettings};
use crate::search::puct::PuctParams;
use clap::{Args, ValueEnum};

#[derive(Args, Clone, Debug, PartialEq)]
pub struct NetOptions {
    /// NoGo with a network: the search it serves: `puct` (the default: the policy as the prior,
    /// the value head mixed with a few playouts judging each leaf) or `mcts` (the playout search,
    /// the policy advising nodes with --net-after visits; the default until 2026-12). Without a
    /// network (`--nogo-net none`) the search is the playout search alone.
    #[arg(long, value_enum)]
    pub nogo_search: Option<SearchArg>,
    /// NoGo with a network: its residual tower in 8-bit integers (`int8`, the default: faster,
    /// its outputs a little off: see docs/nogo-network.md) or in `float`s, as trained.
    #[arg(long, value_enum, default_value_t = PrecisionArg::Int8)]
    pub net_precision: PrecisionArg,
    /// NoGo with a network: visits at which a node asks the network.
    #[arg(long, default_value_t = Advice::default().after)]
    pub net_after: u32,
    /// NoGo with a network: the advice's weight, in virtual visits per visit of the node.
    #[arg(long, default_value_t = Advice::default().weight)]
    pub net_weight: f32,
    /// NoGo with a network: how far the advice moves a move's prior win rate from one half.
    #[arg(long, default_value_t = Advice::default().spread)]
    pub net_spread: f32,
    /// NoGo with a network: ask it again each time a node's visits grow this many times over
    /// (0: once).
    #[arg(long, default_value_t = Advice::default().again)]
    pub net_again: u32,
    /// NoGo, `--nogo-search puct`: the prior's weight against the results.
    #[arg(long, default_value_t = PuctParams::default().c_puct)]
    pub puct_c: f32,
    /// NoGo, `--nogo-search puct`: an unvisited move counts as its parent's value less this.
    #[arg(long, default_value_t = PuctParams::default().fpu_reduction)]
    pub puct_fpu: f32,
    /// NoGo, `--nogo-search puct`: playouts from each leaf, mixed with the value head.
    #[arg(long, default_value_t = PuctSettings::default().rollouts)]
    pub puct_rollouts: u32,
    /// NoGo, `--nogo-search puct`: the playouts' share of a leaf's value (0 to 1).
    #[arg(long, default_value_t = PuctSettings::default().mix, value_parser = parse_share)]
    pub puct_mix: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SearchArg {
    Mcts,
    Puct,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PrecisionArg {
    Float,
    Int8,
}

impl PrecisionArg {
    pub fn precision(self) -> Precision {
        match self {
            PrecisionArg::Float => Precision::Float,
            PrecisionArg::Int8 => Precision::Int8,
        }
    }
}

fn parse_share(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a share from 0 to 1")),
    }
}

impl Default for NetOptions {
    fn default() -> NetOptions {
        let (advice, puct) = (Advice::default(), PuctSettings::default());
        NetOptions {
            nogo_search: None,
            net_precision: PrecisionArg::Int8,
            net_after: advice.after,
            net_weight: advice.weight,
            net_spread: advice.spread,
            net_again: advice.again,
            puct_c: puct.params.c_puct,
            puct_fpu: puct.params.fpu_reduction,
            puct_rollouts: puct.rollouts,
            puct_mix: puct.mix,
        }
    }
}

impl NetOptions {
    /// The search a network serves: the one asked for, PUCT if none was.
    pub fn search(&self) -> SearchArg {
        self.nogo_search.unwrap_or(SearchArg::Puct)
    }

    pub fn advice(&self) -> Advice {
        let search = match self.search() {
            SearchArg::Mcts => NetSearch::Advised,
            SearchArg::Puct => NetSearch::Puct(PuctSettings {
                params: PuctParams {
                    c_puct: self.puct_c,
                    fpu_reduction: self.puct_fpu,
                    ..PuctParams::default()
                },
                rollouts: self.puct_rollouts,
                mix: self.puct_mix,
            }),
        };
        Advice {
            after: self.net_after,
            weight: self.net_weight,
            spread: self.net_spread,
            again: self.net_again,
            search,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_engines_and_puct_takes_its_flags() {
        assert_eq!(NetOptions::default().advice(), Advice::default());
        assert_eq!(NetOptions::default().search(), SearchArg::Puct);
        assert_eq!(NetOptions::default().net_precision, PrecisionArg::Int8);
        let puct = NetOptions {
            nogo_search: Some(SearchArg::Puct),
            puct_c: 2.0,
            puct_rollouts: 4,
            puct_mix: 0.25,
            ..NetOptions::default()
        };
        let NetSearch::Puct(s) = puct.advice().search else {
            panic!("not puct");
        };
        assert_eq!((s.params.c_puct, s.rollouts, s.mix), (2.0, 4, 0.25));
        assert_eq!(s.params.fpu_reduction, PuctParams::default().fpu_reduction);
        assert!(parse_share("1.5").is_err() && parse_share("x").is_err());
        assert_eq!(parse_share("0.5"), Ok(0.5));
    }
}
