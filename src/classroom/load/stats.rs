//! Latencies of the students' requests, and their percentiles.

use std::time::Duration;

#[derive(Default, Clone)]
pub struct Latencies {
    micros: Vec<u64>,
}

impl Latencies {
    pub fn add(&mut self, d: Duration) {
        self.micros.push(d.as_micros().min(u64::MAX as u128) as u64);
    }

    pub fn merge(&mut self, other: Latencies) {
        self.micros.extend(other.micros);
    }

    pub fn len(&self) -> usize {
        self.micros.len()
    }

    pub fn is_empty(&self) -> bool {
        self.micros.is_empty()
    }

    /// The latency below which `q` (0 to 1) of the requests fall (nearest rank).
    pub fn quantile(&self, q: f64) -> Duration {
        let mut sorted = self.micros.clone();
        sorted.sort_unstable();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        Duration::from_micros(sorted[rank - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut l = Latencies::default();
        for ms in 1..=100 {
            l.add(Duration::from_millis(ms));
        }
        assert_eq!(l.quantile(0.5), Duration::from_millis(50));
        assert_eq!(l.quantile(0.99), Duration::from_millis(99));
        assert_eq!(l.quantile(1.0), Duration::from_millis(100));
        assert_eq!(Latencies::default().quantile(0.5), Duration::ZERO);
    }
}
