//! The self-play data file (`.sbnd`, version 1): a 16-byte header, then one fixed-size record a
//! position. Fixed-size records need no index: a reader seeks by arithmetic, the trainer maps
//! the whole file as an array, and a writer killed mid-record leaves a tail shorter than a
//! record, which readers drop. `src/training/nogo/README.md` gives the same layout for the
//! trainer's side.
//!
//! Record layout (little-endian, `RECORD_SIZE` bytes), offsets in bytes:
//! 0 game index (u32), 4 ply (u8), 5 side to move (u8: 0 Black, 1 White), 6 flags (u8, the
//! `FLAG_` bits), 7 result for the side to move (i8: +1 won, -1 lost), 8 the search's win rate
//! for the side to move (f32), 12 Black's stones (u128), 28 White's stones (u128), 44 the eight
//! feature planes (`engine::nogo::features`, u128 each), 172 the visits of each point's move
//! (81 x u16, by point `9 * y + x`), 334 the move played (u16; 81 for none).

use crate::engine::nogo::features::PLANES;
use crate::game::nogo::POINTS;
use std::io::{self, Read, Write};

pub const MAGIC: &[u8; 8] = b"SBNGDATA";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 16;
pub const RECORD_SIZE: usize = 336;

/// The position was played under the class rule that bans Black's first move at the centre.
pub const FLAG_CENTRE_BAN: u8 = 1;
/// The move played here was drawn from the visit distribution, not the search's best.
pub const FLAG_SAMPLED: u8 = 2;
/// The last written position of its game (the last position, unless self-play left its last
/// moves unwritten, `--full-share`): a game's records end with it, so a file cut in the middle
/// of a game is recognised.
pub const FLAG_LAST: u8 = 4;
/// The visits field holds the search's improved policy (Gumbel self-play), as parts of
/// 60,000, rather than visit counts; readers normalise either alike.
pub const FLAG_POLICY: u8 = 8;

/// The played-move value for "no move".
pub const NO_MOVE: u16 = POINTS as u16;

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub game: u32,
    pub ply: u8,
    /// 0 Black, 1 White.
    pub side: u8,
    pub flags: u8,
    /// +1 if the side to move went on to win the game, -1 if it lost.
    pub result: i8,
    /// The search's estimate that the side to move wins, 0 to 1.
    pub root_value: f32,
    pub black: u128,
    pub white: u128,
    pub planes: [u128; PLANES],
    pub visits: [u16; POINTS],
    pub played: u16,
}

impl Record {
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[0..4].copy_from_slice(&self.game.to_le_bytes());
        out[4] = self.ply;
        out[5] = self.side;
        out[6] = self.flags;
        out[7] = self.result as u8;
        out[8..12].copy_from_slice(&self.root_value.to_le_bytes());
        out[12..28].copy_from_slice(&self.black.to_le_bytes());
        out[28..44].copy_from_slice(&self.white.to_le_bytes());
        for (i, plane) in self.planes.iter().enumerate() {
            out[44 + 16 * i..60 + 16 * i].copy_from_slice(&plane.to_le_bytes());
        }
        for (i, v) in self.visits.iter().enumerate() {
            out[172 + 2 * i..174 + 2 * i].copy_from_slice(&v.to_le_bytes());
        }
        out[334..336].copy_from_slice(&self.played.to_le_bytes());
        out
    }

    pub fn decode(b: &[u8; RECORD_SIZE]) -> Record {
        let u128_at = |at: usize| u128::from_le_bytes(b[at..at + 16].try_into().unwrap());
        let u16_at = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
        Record {
            game: u32::from_le_bytes(b[0..4].try_into().unwrap()),
            ply: b[4],
            side: b[5],
            flags: b[6],
            result: b[7] as i8,
            root_value: f32::from_le_bytes(b[8..12].try_into().unwrap()),
            black: u128_at(12),
            white: u128_at(28),
            planes: std::array::from_fn(|i| u128_at(44 + 16 * i)),
            visits: std::array::from_fn(|i| u16_at(172 + 2 * i)),
            played: u16_at(334),
        }
    }
}

pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    let mut h = [0u8; HEADER_SIZE];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    out.write_all(&h)
}

/// Checks a file's header; the error says what was found and what was expected.
pub fn check_header(h: &[u8], name: &str) -> Result<(), String> {
    if h.len() < HEADER_SIZE || &h[0..8] != MAGIC {
        return Err(format!(
            "{name}: not a stonebrain NoGo data file (it should start with {:?})",
            std::str::from_utf8(MAGIC).unwrap()
        ));
    }
    let version = u32::from_le_bytes(h[8..12].try_into().unwrap());
    let size = u32::from_le_bytes(h[12..16].try_into().unwrap());
    if version != VERSION || size as usize != RECORD_SIZE {
        return Err(format!(
            "{name}: data format version {version} with {size}-byte records; this build reads \
             version {VERSION} with {RECORD_SIZE}-byte records"
        ));
    }
    Ok(())
}

/// Every whole record of a data file's contents (after its header); a partial record at the
/// end (a writer stopped mid-write) is left out.
pub fn read_records(mut input: impl Read, name: &str) -> Result<Vec<Record>, String> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    check_header(&bytes, name)?;
    Ok(bytes[HEADER_SIZE..]
        .chunks_exact(RECORD_SIZE)
        .map(|c| Record::decode(c.try_into().unwrap()))
        .collect())
}

/// The length of the file's longest prefix that ends with a whole game (header included):
/// where a resumed writer carries on.
pub fn complete_prefix(records: &[Record]) -> (usize, Vec<u32>) {
    let mut games = Vec::new();
    let mut whole = 0;
    for (i, r) in records.iter().enumerate() {
        if r.flags & FLAG_LAST != 0 {
            whole = i + 1;
            games.push(r.game);
        }
    }
    (HEADER_SIZE + whole * RECORD_SIZE, games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(game: u32, flags: u8) -> Record {
        Record {
            game,
            ply: 7,
            side: 1,
            flags,
            result: -1,
            root_value: 0.375,
            black: 1 << 80 | 5,
            white: 1 << 40,
            planes: std::array::from_fn(|i| (i as u128) << 60 | 3),
            visits: std::array::from_fn(|i| (i * 97 % 1000) as u16),
            played: 40,
        }
    }

    #[test]
    fn records_round_trip_at_their_documented_offsets() {
        let r = record(123_456, FLAG_SAMPLED | FLAG_LAST);
        let b = r.encode();
        assert_eq!(Record::decode(&b), r);
        assert_eq!(&b[0..4], &123_456u32.to_le_bytes());
        assert_eq!(b[7], 0xff, "the result -1 as i8");
        assert_eq!(&b[8..12], &0.375f32.to_le_bytes());
        assert_eq!(b[12 + 10], 1, "bit 80 of Black's stones in byte 10");
        assert_eq!(&b[172 + 2..172 + 4], &97u16.to_le_bytes());
        assert_eq!(&b[334..336], &40u16.to_le_bytes());
    }

    #[test]
    fn a_cut_file_keeps_its_whole_games() {
        let mut file = Vec::new();
        write_header(&mut file).unwrap();
        for r in [record(0, 0), record(0, FLAG_LAST), record(2, 0)] {
            file.extend_from_slice(&r.encode());
        }
        // A writer stopped in the middle of a record.
        file.extend_from_slice(&record(2, FLAG_LAST).encode()[..100]);
        let records = read_records(&file[..], "cut").unwrap();
        assert_eq!(records.len(), 3);
        let (keep, games) = complete_prefix(&records);
        assert_eq!(games, vec![0]);
        assert_eq!(keep, HEADER_SIZE + 2 * RECORD_SIZE);
    }

    #[test]
    fn a_foreign_or_newer_file_is_refused_by_name() {
        let err = read_records(&b"PK\x03\x04 not ours"[..], "x.sbnd").unwrap_err();
        assert!(err.contains("x.sbnd") && err.contains("SBNGDATA"), "{err}");
        let mut h = Vec::new();
        write_header(&mut h).unwrap();
        h[8] = 2;
        let err = read_records(&h[..], "y.sbnd").unwrap_err();
        assert!(
            err.contains("version 2") && err.contains("version 1"),
            "{err}"
        );
    }
}
