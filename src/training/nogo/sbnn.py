"""The NoGo network's weight file (`.sbnn`, version 1) and a reference forward pass.

numpy only (no training framework), so that a file can be checked anywhere. The layout is the
one `engine::nogo::network` reads; `README.md` beside this file gives it in full:

    magic b"SBNOGONN" | u32 version = 1 | u32 planes = 8 | u32 channels C | u32 blocks B
    | u32 value hidden H | u64 FNV-1a 64 of the payload | payload: f32 arrays, little-endian,
    in the order of `layout()` (conv weights [out][in][ky][kx], fully connected [out][in]).
"""

import math
import struct

import numpy as np

MAGIC = b"SBNOGONN"
VERSION = 1
PLANES = 8
INPUTS = PLANES + 1  # the planes and a plane of ones
POINTS = 81
HEADER = struct.Struct("<8sIIIIIQ")  # 36 bytes
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def layout(channels, blocks, hidden):
    """The payload's arrays in file order: (name, shape)."""
    c = channels
    out = [("stem.w", (c, INPUTS, 3, 3)), ("stem.b", (c,))]
    for i in range(blocks):
        out += [
            (f"block{i}.conv1.w", (c, c, 3, 3)),
            (f"block{i}.conv1.b", (c,)),
            (f"block{i}.conv2.w", (c, c, 3, 3)),
            (f"block{i}.conv2.b", (c,)),
        ]
    out += [
        ("policy.conv.w", (2, c)),
        ("policy.conv.b", (2,)),
        ("policy.fc.w", (POINTS, 2 * POINTS)),
        ("policy.fc.b", (POINTS,)),
        ("value.conv.w", (1, c)),
        ("value.conv.b", (1,)),
        ("value.fc1.w", (hidden, POINTS)),
        ("value.fc1.b", (hidden,)),
        ("value.fc2.w", (1, hidden)),
        ("value.fc2.b", (1,)),
    ]
    return out


def fnv1a64(data):
    """FNV-1a 64 of a byte string (offset basis 0xcbf29ce484222325, prime 0x100000001b3).

    A byte at a time in Python: about 0.1 s for the half megabyte of a 6x32 network.
    """
    h = FNV_OFFSET
    mask = 0xFFFFFFFFFFFFFFFF
    prime = FNV_PRIME
    for b in bytes(data):
        h = ((h ^ b) * prime) & mask
    return h


def encode(arrays, channels, blocks, hidden):
    """The file's bytes for `arrays` (name -> array of the layout's shape)."""
    parts = []
    for name, shape in layout(channels, blocks, hidden):
        a = np.asarray(arrays[name], dtype="<f4")
        if a.shape != shape:
            raise ValueError(f"{name}: shape {a.shape}, the layout wants {shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name}: not finite")
        parts.append(np.ascontiguousarray(a).tobytes())
    payload = b"".join(parts)
    header = HEADER.pack(MAGIC, VERSION, PLANES, channels, blocks, hidden, fnv1a64(payload))
    return header + payload


def write(path, arrays, channels, blocks, hidden):
    """Writes the file atomically (a temporary file renamed over `path`)."""
    import os

    data = encode(arrays, channels, blocks, hidden)
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return len(data)


def decode(data, name="network"):
    """(channels, blocks, hidden, arrays) from a file's bytes; raises ValueError on any fault."""
    if len(data) < HEADER.size:
        raise ValueError(f"{name}: {len(data)} bytes, shorter than the {HEADER.size}-byte header")
    magic, version, planes, c, b, h, digest = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"{name}: not a stonebrain NoGo network (no {MAGIC!r} at the start)")
    if version != VERSION or planes != PLANES:
        raise ValueError(f"{name}: version {version} with {planes} planes; this reads "
                         f"version {VERSION} with {PLANES}")
    if not (1 <= c <= 1024 and 0 <= b <= 256 and 1 <= h <= 4096):
        raise ValueError(f"{name}: implausible sizes C={c} B={b} H={h}")
    shapes = layout(c, b, h)
    want = 4 * sum(int(np.prod(s)) for _, s in shapes)
    payload = data[HEADER.size:]
    if len(payload) != want:
        raise ValueError(f"{name}: payload of {len(payload)} bytes, C={c} B={b} H={h} "
                         f"needs {want}")
    if fnv1a64(payload) != digest:
        raise ValueError(f"{name}: payload hash mismatch (file damaged)")
    arrays = {}
    at = 0
    for key, shape in shapes:
        n = int(np.prod(shape))
        arrays[key] = np.frombuffer(payload, dtype="<f4", count=n, offset=at).reshape(shape)
        at += 4 * n
    return c, b, h, arrays


def read(path):
    with open(path, "rb") as f:
        return decode(f.read(), str(path))


def _conv3x3(x, w, b):
    """x [N][I][9][9], w [O][I][3][3], zero padding 1; in float64."""
    n, i, hgt, wid = x.shape
    pad = np.zeros((n, i, hgt + 2, wid + 2), dtype=np.float64)
    pad[:, :, 1:-1, 1:-1] = x
    out = np.zeros((n, w.shape[0], hgt, wid), dtype=np.float64)
    for ky in range(3):
        for kx in range(3):
            patch = pad[:, :, ky:ky + hgt, kx:kx + wid]
            out += np.einsum("nihw,oi->nohw", patch, w[:, :, ky, kx].astype(np.float64))
    return out + b.astype(np.float64)[None, :, None, None]


def forward(arrays, planes, blocks):
    """The network's outputs, in float64, straight from the file's arrays.

    planes: [N][8][81] of 0/1. Returns (logits [N][81], value [N]).
    """
    relu = lambda v: np.maximum(v, 0.0)  # noqa: E731
    planes = np.asarray(planes, dtype=np.float64).reshape(-1, PLANES, 9, 9)
    n = planes.shape[0]
    x = np.concatenate([planes, np.ones((n, 1, 9, 9))], axis=1)
    x = relu(_conv3x3(x, arrays["stem.w"], arrays["stem.b"]))
    for i in range(blocks):
        h = relu(_conv3x3(x, arrays[f"block{i}.conv1.w"], arrays[f"block{i}.conv1.b"]))
        x = relu(x + _conv3x3(h, arrays[f"block{i}.conv2.w"], arrays[f"block{i}.conv2.b"]))
    f64 = lambda k: arrays[k].astype(np.float64)  # noqa: E731
    p = relu(np.einsum("nchw,oc->nohw", x, f64("policy.conv.w"))
             + f64("policy.conv.b")[None, :, None, None])
    logits = p.reshape(n, 2 * POINTS) @ f64("policy.fc.w").T + f64("policy.fc.b")
    v = relu(np.einsum("nchw,oc->nohw", x, f64("value.conv.w"))
             + f64("value.conv.b")[None, :, None, None])
    v = relu(v.reshape(n, POINTS) @ f64("value.fc1.w").T + f64("value.fc1.b"))
    v = np.tanh(v @ f64("value.fc2.w").T + f64("value.fc2.b"))
    return logits, v[:, 0]


def grow(arrays, channels, blocks, hidden, to_channels, to_blocks, rng, noise=0.0):
    """A wider and deeper network's arrays that compute what `arrays` computes (Net2Net's
    function-preserving growth), so that a larger network can start from a trained smaller one.

    Wider: tower channel j of the new network copies old channel `j mod C`'s output, and every
    layer that reads the tower divides each copy's incoming weight by the number of copies, so
    sums, the residual stream and both heads are unchanged (the copies carry equal values and
    ReLU treats them alike). `noise` (a fraction of each conv's weight spread) is added to the
    copied convolutions so that copies do not stay twins in training; there is none where the
    width stays (nothing to part), and 0 keeps the function exact. Deeper: the new blocks go
    last, their second convolution zero, so each starts as the identity (its input is already
    past a ReLU); their first convolution is drawn small.
    The value head's hidden size is not grown.
    """
    if to_channels < channels or to_blocks < blocks:
        raise ValueError(f"cannot shrink C={channels} B={blocks} to C={to_channels} "
                         f"B={to_blocks}")
    src = np.arange(to_channels) % channels  # the old channel each new one copies
    copies = np.bincount(src, minlength=channels).astype(np.float64)
    share = 1.0 / copies[src]  # a reader's weight on each copy

    def jitter(w):
        if noise <= 0.0 or to_channels == channels:  # no copies to part
            return w
        return w + rng.normal(0.0, noise * float(np.std(w)) + 1e-12, size=w.shape)

    f64 = lambda k: np.asarray(arrays[k], dtype=np.float64)  # noqa: E731
    out = {}
    stem = f64("stem.w")[src]  # the planes are not widened: only the outputs are copied
    out["stem.w"], out["stem.b"] = jitter(stem), f64("stem.b")[src]
    for i in range(to_blocks):
        for conv in ("conv1", "conv2"):
            key = f"block{i}.{conv}"
            if i < blocks:
                w = f64(f"{key}.w")[src][:, src] * share[None, :, None, None]
                out[f"{key}.w"], out[f"{key}.b"] = jitter(w), f64(f"{key}.b")[src]
            elif conv == "conv1":
                spread = 1.0 / math.sqrt(9 * to_channels)
                out[f"{key}.w"] = rng.normal(0.0, spread, size=(to_channels, to_channels, 3, 3))
                out[f"{key}.b"] = np.zeros(to_channels)
            else:
                out[f"{key}.w"] = np.zeros((to_channels, to_channels, 3, 3))
                out[f"{key}.b"] = np.zeros(to_channels)
    for head in ("policy.conv", "value.conv"):
        out[f"{head}.w"] = f64(f"{head}.w")[:, src] * share[None, :]
        out[f"{head}.b"] = f64(f"{head}.b")
    for fc in ("policy.fc", "value.fc1", "value.fc2"):
        out[f"{fc}.w"], out[f"{fc}.b"] = f64(f"{fc}.w"), f64(f"{fc}.b")
    for name, shape in layout(to_channels, to_blocks, hidden):
        assert out[name].shape == shape, (name, out[name].shape, shape)
    return {k: v.astype(np.float32) for k, v in out.items()}
