"""Reading the self-play data files (`.sbnd`, version 1), numpy only.

The layout (little-endian; `data.rs` beside this file writes it, `README.md` gives it too):
a 16-byte header (b"SBNGDATA", u32 version 1, u32 record size 336), then 336-byte records:

    0 u32 game index | 4 u8 ply | 5 u8 side to move (0 Black, 1 White) | 6 u8 flags
    (bit 0 centre ban, bit 1 move sampled, bit 2 last written position of its game, bit 3
    visits hold an improved policy in 60,000ths) | 7 i8 result for
    the side to move (+1 won, -1 lost) | 8 f32 root value (win rate for the side to move, 0..1)
    | 12 u128 Black's stones | 28 u128 White's stones | 44 eight u128 feature planes (mover's
    view) | 172 81 x u16 visits by point | 334 u16 move played (81: none)

Bit p of a u128 is point p = 9 * y + x. A trailing partial record (a writer stopped mid-write)
is ignored.
"""

import os

import numpy as np

MAGIC = b"SBNGDATA"
VERSION = 1
HEADER_SIZE = 16
RECORD_SIZE = 336
PLANES = 8
POINTS = 81
FLAG_CENTRE_BAN = 1
FLAG_SAMPLED = 2
FLAG_LAST = 4
FLAG_POLICY = 8  # the visits field holds an improved policy in 60,000ths (Gumbel self-play)

RECORD = np.dtype({
    "names": ["game", "ply", "side", "flags", "result", "root_value", "black", "white",
              "planes", "visits", "played"],
    "formats": ["<u4", "u1", "u1", "u1", "i1", "<f4", ("u1", 16), ("u1", 16),
                ("u1", (PLANES, 16)), ("<u2", POINTS), "<u2"],
    "offsets": [0, 4, 5, 6, 7, 8, 12, 28, 44, 172, 334],
    "itemsize": RECORD_SIZE,
})


def unpack_bits(packed):
    """[..., 16] bytes of little-endian u128s -> [..., 81] of 0/1 (uint8), index = point."""
    return np.unpackbits(packed, axis=-1, bitorder="little")[..., :POINTS]


def pack_bits(bits):
    """[..., 81] of 0/1 -> [..., 16] bytes (the inverse of `unpack_bits`)."""
    bits = np.asarray(bits, dtype=np.uint8)
    pad = np.zeros(bits.shape[:-1] + (128 - POINTS,), dtype=np.uint8)
    return np.packbits(np.concatenate([bits, pad], axis=-1), axis=-1, bitorder="little")


def read_file(path):
    """The whole records of one file as a structured array (dtype `RECORD`)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER_SIZE or data[:8] != MAGIC:
        raise ValueError(f"{path}: not a stonebrain NoGo data file (no {MAGIC!r} at the start)")
    version = int.from_bytes(data[8:12], "little")
    size = int.from_bytes(data[12:16], "little")
    if version != VERSION or size != RECORD_SIZE:
        raise ValueError(f"{path}: version {version} with {size}-byte records; this reads "
                         f"version {VERSION} with {RECORD_SIZE}-byte records")
    n = (len(data) - HEADER_SIZE) // RECORD_SIZE
    return np.frombuffer(data, dtype=RECORD, count=n, offset=HEADER_SIZE).copy()


def find_files(inputs):
    """Files named, and every `*.sbnd` under the folders named (sorted, so runs repeat)."""
    out = []
    for item in inputs:
        if os.path.isdir(item):
            found = []
            for root, _, names in os.walk(item):
                found += [os.path.join(root, n) for n in names if n.endswith(".sbnd")]
            out += sorted(found)
        elif os.path.exists(item):
            out.append(item)
        else:
            raise FileNotFoundError(f"{item}: no such file or folder")
    return out


class Dataset:
    """Every position of the files, compact: planes stay packed (128 bytes a position) and are
    unpacked a batch at a time.

    Fields (one row a position): planes [N][8][16] u8, visits [N][81] u16, result [N] i8,
    root_value [N] f32, file [N] (index into `files`), game [N] u32, flags [N] u8.
    """

    def __init__(self, inputs, log=print):
        self.files = find_files(inputs)
        parts, file_ids = [], []
        for i, path in enumerate(self.files):
            rec = read_file(path)
            parts.append(rec)
            file_ids.append(np.full(len(rec), i, dtype=np.int32))
        rec = np.concatenate(parts) if parts else np.zeros(0, dtype=RECORD)
        self.n = len(rec)
        self.planes = np.ascontiguousarray(rec["planes"])
        self.visits = np.ascontiguousarray(rec["visits"])
        self.result = rec["result"].copy()
        self.root_value = rec["root_value"].copy()
        self.flags = rec["flags"].copy()
        self.game = rec["game"].copy()
        self.file = np.concatenate(file_ids) if file_ids else np.zeros(0, dtype=np.int32)
        self.games = len(set(zip(self.file.tolist(), self.game.tolist())))
        self._check(log)

    def _check(self, log):
        """Counts records the trainer must treat specially, and says so."""
        if self.n == 0:
            return
        self.no_visits = int((self.visits.sum(1) == 0).sum())
        self.visited_illegal = 0
        for s in range(0, self.n, 1 << 20):  # a million positions at a time
            legal = unpack_bits(self.planes[s:s + (1 << 20), 2])
            visited = self.visits[s:s + (1 << 20)] > 0
            self.visited_illegal += int((visited & (legal == 0)).any(1).sum())
        bad_result = int((~np.isin(self.result, [-1, 1])).sum())
        if self.no_visits:
            log(f"note: {self.no_visits} positions without visits: value target only")
        if self.visited_illegal:
            log(f"warning: {self.visited_illegal} positions have visits on points that plane 2 "
                f"calls illegal; those points are unmasked in the loss")
        if bad_result:
            log(f"warning: {bad_result} positions with a result other than +1/-1")

    def split(self, holdout_every):
        """(train indices, held-out indices): a position is held out when its game index is a
        multiple of `holdout_every` (games are told apart by (file, game index)); 0 holds none
        out."""
        if holdout_every <= 0:
            return np.arange(self.n), np.zeros(0, dtype=np.int64)
        held = self.game % holdout_every == 0
        return np.nonzero(~held)[0], np.nonzero(held)[0]

    def batch(self, idx, syms, value_mix):
        """The arrays of positions `idx` under symmetries `syms` (one 0..7 each):
        planes [n][8][81] float32, policy target [n][81] float32 (visits normalised to sum 1,
        zeros where a position has no visits), legal mask [n][81] bool, value target [n]
        float32, has_policy [n] bool."""
        planes = unpack_bits(self.planes[idx]).astype(np.float32)  # [n][8][81]
        visits = self.visits[idx].astype(np.float32)
        perm = SYMMETRIES[syms]  # [n][81]: source point of each destination point
        planes = np.take_along_axis(planes, perm[:, None, :], axis=2)
        visits = np.take_along_axis(visits, perm, axis=1)
        total = visits.sum(1)
        has_policy = total > 0
        target = visits / np.maximum(total, 1.0)[:, None]
        legal = (planes[:, 2] > 0) | (visits > 0)
        z = ((1.0 - value_mix) * self.result[idx].astype(np.float32)
             + value_mix * (2.0 * self.root_value[idx] - 1.0)).astype(np.float32)
        return planes, target, legal, z, has_policy


def _symmetries():
    """[8][81]: for each symmetry of the square, the source point of each destination point."""
    out = np.zeros((8, POINTS), dtype=np.int64)
    for k in range(8):
        for p in range(POINTS):
            x, y = p % 9, p // 9
            # Destination (x, y) takes the source point sym_k(x, y); the 8 maps form the group,
            # so the set of "destination <- source" maps is the same set of symmetries.
            if k & 4:
                x, y = y, x
            if k & 1:
                x = 8 - x
            if k & 2:
                y = 8 - y
            out[k, p] = 9 * y + x
    return out


SYMMETRIES = _symmetries()
