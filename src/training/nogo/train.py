"""Trains the NoGo policy-value network on self-play data and writes its weight file.

    python src/training/nogo/train.py --data target/nogo-data --out target/nogo-net.sbnn \\
        --channels 32 --blocks 6 --value-hidden 32 --steps 10000 --batch 256 --seed 1

Reads every `.sbnd` file named or under the folders named (see sbnd.py), trains with the eight
symmetries of the board as augmentation, holds out the games whose index is a multiple of
--holdout-every, and writes the `.sbnn` file (see sbnn.py) with BatchNorm folded into the
convolutions. A checkpoint (OUT.ckpt) is written every --ckpt-every steps; a run started again
with the same --out carries on from it (give a larger --steps to train further).

`--export-vectors DIR` instead writes the Rust forward pass's test vectors (a tiny network and
its outputs on fixed positions) and checks that the file reads back to the same outputs.
"""

import argparse
import json
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import sbnd  # noqa: E402
import sbnn  # noqa: E402


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_argument_group("data")
    g.add_argument("--data", nargs="+", metavar="DIR_OR_FILE",
                   help=".sbnd files, or folders searched (recursively) for them")
    g.add_argument("--holdout-every", type=int, default=20, metavar="K",
                   help="hold out the games whose index %% K == 0 (0: none) [20]")
    g.add_argument("--value-mix", type=float, default=0.0, metavar="M",
                   help="value target (1-M)*result + M*(2*root_value-1) [0.0]")
    g.add_argument("--eval-positions", type=int, default=8192, metavar="N",
                   help="held-out positions evaluated at each report (a fixed sample) [8192]")
    g = ap.add_argument_group("network")
    g.add_argument("--out", help="the .sbnn file to write (checkpoint: OUT.ckpt)")
    g.add_argument("--channels", type=int, default=32, help="C [32]")
    g.add_argument("--blocks", type=int, default=6, help="residual blocks B [6]")
    g.add_argument("--value-hidden", type=int, default=32, help="value head hidden units H [32]")
    g.add_argument("--no-bn", action="store_true",
                   help="train the plain conv+bias network (default: BatchNorm, folded at export)")
    g.add_argument("--init", metavar="NET.sbnn",
                   help="start from this network instead of random weights: the same C, B and H, "
                   "or narrower or shallower (grown to C and B, keeping what it computes)")
    g = ap.add_argument_group("training")
    g.add_argument("--steps", type=int, default=10000,
                   help="optimiser steps in all, a resumed run's included [10000]")
    g.add_argument("--batch", type=int, default=256, help="positions a step [256]")
    g.add_argument("--optimizer", choices=["adam", "sgd"], default="adam",
                   help="AdamW, or SGD with Nesterov momentum 0.9 [adam]")
    g.add_argument("--lr", type=float, default=None,
                   help="peak learning rate [adam 2e-3, sgd 0.05]")
    g.add_argument("--lr-end", type=float, default=0.05, metavar="F",
                   help="cosine decay to F x the peak at the last step (1: constant) [0.05]")
    g.add_argument("--warmup", type=int, default=200, help="linear warm-up steps [200]")
    g.add_argument("--weight-decay", type=float, default=None,
                   help="on conv and FC weights, not on biases or BatchNorm "
                        "[adam 0.01 (decoupled, AdamW), sgd 1e-4 (L2)]")
    g.add_argument("--value-weight", type=float, default=1.0,
                   help="loss = policy CE + W * value MSE [1.0]")
    g.add_argument("--seed", type=int, default=1, help="weights and batches [1]")
    g.add_argument("--threads", type=int, default=2, help="torch CPU threads [2]")
    g.add_argument("--max-seconds", type=float, default=None, metavar="T",
                   help="stop training after T seconds and write the file as it stands (for a "
                        "machine lent for a fixed time; the log says at which step)")
    g.add_argument("--fit-seconds", type=float, default=None, metavar="T",
                   help="set --steps from the speed of the first --warmup steps (at least 50), "
                        "so that the "
                        "run (data loading included) ends some T seconds after it starts, its "
                        "learning rate decayed in full (a lent machine's fixed time, where the "
                        "speed is not known beforehand; the log gives the steps it chose)")
    g.add_argument("--device", default="cpu", metavar="DEV",
                   help="where the steps run: cpu, cuda, or auto (cuda where torch sees one) "
                        "[cpu]; the batches and the file are the same either way")
    g = ap.add_argument_group("reports and checkpoints")
    g.add_argument("--log-every", type=int, default=500, help="report every N steps [500]")
    g.add_argument("--ckpt-every", type=int, default=1000, help="checkpoint every N steps [1000]")
    g.add_argument("--stop-at", type=int, default=None, metavar="S",
                   help="checkpoint and stop at step S without exporting (splits a run; "
                        "the same command without it carries on)")
    g.add_argument("--no-resume", action="store_true",
                   help="ignore (and later overwrite) an existing OUT.ckpt")
    g = ap.add_argument_group("test vectors")
    g.add_argument("--export-vectors", metavar="DIR",
                   help="write DIR/tiny.sbnn and DIR/tiny-outputs.json and exit")
    a = ap.parse_args(argv)
    if a.lr is None:
        a.lr = 2e-3 if a.optimizer == "adam" else 0.05
    if a.weight_decay is None:
        a.weight_decay = 0.01 if a.optimizer == "adam" else 1e-4
    if not a.export_vectors and (not a.data or not a.out):
        ap.error("--data and --out are needed (or --export-vectors DIR)")
    if not 0.0 <= a.value_mix <= 1.0:
        ap.error("--value-mix must be within 0..1")
    return a


def setup_torch(threads):
    # Idle OpenMP workers sleep instead of spinning: on a shared two-core machine, spinning
    # threads steal the cores the other work needs.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch

    torch.set_num_threads(threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # already set in this process
    return torch


class Trainer:
    def __init__(self, a, torch, log=print):
        from model import Net

        self.a, self.torch, self.log = a, torch, log
        torch.manual_seed(a.seed)
        self.net = Net(a.channels, a.blocks, a.value_hidden, bn=not a.no_bn).to(a.device)
        params_decay = [p for n, p in self.net.named_parameters() if p.dim() > 1]
        params_plain = [p for n, p in self.net.named_parameters() if p.dim() <= 1]
        groups = [{"params": params_decay, "weight_decay": a.weight_decay},
                  {"params": params_plain, "weight_decay": 0.0}]
        if a.optimizer == "adam":
            self.opt = torch.optim.AdamW(groups, lr=a.lr)
        else:
            self.opt = torch.optim.SGD(groups, lr=a.lr, momentum=0.9, nesterov=True)
        self.step = 0

    def lr_at(self, step):
        a = self.a
        if step < a.warmup:
            return a.lr * (step + 1) / a.warmup
        span = max(1, a.steps - a.warmup)
        t = min(1.0, (step - a.warmup) / span)
        return a.lr * (a.lr_end + (1 - a.lr_end) * 0.5 * (1 + math.cos(math.pi * t)))

    def tensors(self, planes, target, legal, z, has_policy):
        t, dev = self.torch, self.a.device
        return tuple(t.from_numpy(x).to(dev) for x in
                     (planes.reshape(-1, 8, 9, 9), target, legal, z, has_policy))

    def losses(self, planes, target, legal, z, has_policy):
        """(policy CE, value MSE, top-1 hits, masked logits, value) of one batch."""
        t = self.torch
        logits, v = self.net(planes)
        masked = logits.masked_fill(~legal, -1e9)
        logp = t.log_softmax(masked, dim=1)
        ce = -(target * logp).sum(1)
        w = has_policy.float()
        policy = (ce * w).sum() / w.sum().clamp(min=1.0)
        value = ((v - z) ** 2).mean()
        best = target.max(1).values
        pick = target.gather(1, masked.argmax(1, keepdim=True))[:, 0]
        hits = ((pick >= best) & has_policy).sum()
        return policy, value, hits, masked, v

    def train_step(self, batch):
        self.net.train()
        for g in self.opt.param_groups:
            g["lr"] = self.lr_at(self.step)
        policy, value, _, _, _ = self.losses(*batch)
        loss = policy + self.a.value_weight * value
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        self.step += 1
        return float(policy.detach()), float(value.detach())

    def evaluate(self, data, idx, chunk=1024):
        """Held-out policy CE, value MSE, top-1 accuracy, target entropy (identity symmetry)."""
        t = self.torch
        self.net.eval()
        tot = np.zeros(5)
        with t.no_grad():
            for s in range(0, len(idx), chunk):
                part = idx[s:s + chunk]
                arrays = data.batch(part, np.zeros(len(part), dtype=np.int64), self.a.value_mix)
                planes, target, legal, z, has_policy = self.tensors(*arrays)
                policy, value, hits, _, _ = self.losses(planes, target, legal, z, has_policy)
                n_pol = float(has_policy.sum())
                ent = -(target * t.log(target.clamp(min=1e-12))).sum(1)
                tot += [float(policy) * n_pol, float(value) * len(part), float(hits),
                        float((ent * has_policy).sum()), n_pol]
        n_pol = max(tot[4], 1.0)
        return tot[0] / n_pol, tot[1] / max(len(idx), 1), tot[2] / n_pol, tot[3] / n_pol

    # Checkpoints: the model, the optimiser and the step; the batches are a function of
    # (seed, step), so a resumed run draws the batches the stopped one would have drawn.
    def config(self):
        a = self.a
        return {"channels": a.channels, "blocks": a.blocks, "value_hidden": a.value_hidden,
                "bn": not a.no_bn, "optimizer": a.optimizer}

    def save_checkpoint(self, path):
        tmp = path + ".tmp"
        self.torch.save({"config": self.config(), "step": self.step,
                         "model": self.net.state_dict(), "opt": self.opt.state_dict()}, tmp)
        os.replace(tmp, path)

    def load_checkpoint(self, path):
        ck = self.torch.load(path, map_location=self.a.device, weights_only=False)
        if ck["config"] != self.config():
            raise SystemExit(f"{path} was made with {ck['config']}, this run is "
                             f"{self.config()}: delete it, or pass --no-resume")
        self.net.load_state_dict(ck["model"])
        self.opt.load_state_dict(ck["opt"])
        self.step = ck["step"]


def self_check(net, arrays, path, planes, torch, blocks, log=print, limit=1e-3):
    """Reads `path` back and compares its float64 forward pass with the torch network in eval
    mode on `planes` [n][8][81]; returns the largest differences."""
    c, b, h, back = sbnn.read(path)
    for name, arr in arrays.items():
        if not np.array_equal(back[name], arr):
            raise SystemExit(f"self-check: {path}: {name} does not read back as written")
    logits64, value64 = sbnn.forward(back, planes, b)
    net.eval()
    with torch.no_grad():
        logits32, value32 = net(torch.from_numpy(planes.astype(np.float32)).reshape(-1, 8, 9, 9))
    dl = float(np.abs(logits32.double().numpy() - logits64).max())
    dv = float(np.abs(value32.double().numpy() - value64).max())
    log(f"self-check: {path} reads back (C={c} B={b} H={h}, hash ok); on {len(planes)} "
        f"positions the file's float64 forward pass and the trained network differ by at most "
        f"{dl:.2e} (logits), {dv:.2e} (value)")
    if dl > limit or dv > limit:
        raise SystemExit(f"self-check failed: differences over {limit}")
    return logits64, value64, dl, dv


# How much noise the copies of a grown network get (a fraction of each conv's weight spread):
# enough that the copies part in training, little enough that the first step starts near the
# smaller network's losses.
GROW_NOISE = 0.005


def grown(arrays, c, b, h, a, planes, rng, log):
    """The smaller network's arrays grown to this run's C and B (sbnn.grow), with how far the
    grown network's outputs are from the smaller one's on `planes` logged."""
    out = sbnn.grow(arrays, c, b, h, a.channels, a.blocks, rng, GROW_NOISE)
    sample = planes[:256].reshape(-1, 8, 81)
    l0, v0 = sbnn.forward(arrays, sample, b)
    l1, v1 = sbnn.forward(out, sample, a.blocks)
    log(f"grown from C={c} B={b} to C={a.channels} B={a.blocks} (noise {GROW_NOISE} on copied "
        f"channels): on {len(sample)} positions the outputs moved by at most "
        f"{np.abs(l1 - l0).max():.2e} "
        f"(logits), {np.abs(v1 - v0).max():.2e} (value)")
    return out


def train(a):
    torch = setup_torch(a.threads)
    if a.device == "auto":
        a.device = "cuda" if torch.cuda.is_available() else "cpu"
    if a.device.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit(f"--device {a.device}: this torch sees no CUDA device")
    t0 = time.time()
    log = lambda s: print(f"[{time.time() - t0:7.1f}s] {s}", flush=True)  # noqa: E731
    try:
        data = sbnd.Dataset(a.data, log=log)
    except (OSError, ValueError) as e:
        raise SystemExit(f"train.py: {e}")
    if data.n == 0:
        raise SystemExit(f"no positions in {a.data}: write some with `stonebrain selfplay nogo "
                         f"--out target/nogo-data`, or synthetic ones with synth.py")
    train_idx, held_idx = data.split(a.holdout_every)
    log(f"data: {len(data.files)} files, {data.games} games, {data.n} positions: "
        f"{len(train_idx)} for training, {len(held_idx)} held out "
        f"(game index % {a.holdout_every} == 0)")
    if len(train_idx) == 0:
        raise SystemExit("no training positions left after the hold-out")
    rng = np.random.default_rng([a.seed, 0x5EED])
    eval_idx = np.sort(rng.permutation(held_idx)[:a.eval_positions]) if len(held_idx) else None

    tr = Trainer(a, torch, log)
    n_params = sum(p.numel() for p in tr.net.parameters())
    log(f"network: {a.blocks} blocks x {a.channels} channels, value hidden {a.value_hidden}, "
        f"{'BatchNorm' if not a.no_bn else 'plain'}; {n_params} parameters; "
        f"{a.optimizer} lr {a.lr} -> {a.lr * a.lr_end:g}, weight decay {a.weight_decay}, "
        f"batch {a.batch}, "
        f"{a.threads} threads, seed {a.seed}")
    ckpt = a.out + ".ckpt"
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    if os.path.exists(ckpt) and not a.no_resume:
        tr.load_checkpoint(ckpt)
        log(f"resumed from {ckpt} at step {tr.step}")
    elif a.init:
        c, b, h, arrays = sbnn.read(a.init)
        if h != a.value_hidden or c > a.channels or b > a.blocks:
            raise SystemExit(f"{a.init} is C={c} B={b} H={h}; this run is C={a.channels} "
                             f"B={a.blocks} H={a.value_hidden} (a run may start from a "
                             f"network as wide and deep as itself or smaller, with its H)")
        calib = rng.choice(train_idx, size=min(len(train_idx), 2048), replace=False)
        planes = data.batch(calib, np.zeros(len(calib), dtype=np.int64), a.value_mix)[0]
        if (c, b) != (a.channels, a.blocks):
            arrays = grown(arrays, c, b, h, a, planes, rng, log)
        tr.net.load_arrays(arrays)
        tr.net.calibrate(torch.from_numpy(planes).reshape(-1, 8, 9, 9).to(a.device))
        log(f"started from {a.init}")

    def report(tag, train_sums):
        msg = f"step {tr.step:6d}"
        if train_sums[2]:
            msg += (f"  train: policy {train_sums[0] / train_sums[2]:.4f} "
                    f"value {train_sums[1] / train_sums[2]:.4f}")
        if eval_idx is not None:
            pol, val, top1, ent = tr.evaluate(data, eval_idx)
            msg += (f"  held-out: policy {pol:.4f} (entropy of the targets {ent:.4f}) "
                    f"value {val:.4f} top-1 {100 * top1:.1f}%")
        log(f"{tag}{msg}  lr {tr.lr_at(max(tr.step - 1, 0)):.2e}")

    if tr.step == 0:
        report("", [0, 0, 0])
    sums = [0.0, 0.0, 0]
    t_train, n_train = 0.0, 0
    # Where this run stops: --stop-at splits a run, --fit-seconds may still change --steps.
    def last_step():
        return a.steps if a.stop_at is None else min(a.stop_at, a.steps)

    stop = last_step()
    timed_out = False
    fit_from = (tr.step, time.time()) if a.fit_seconds is not None else None
    while tr.step < stop:
        if fit_from is not None and tr.step == fit_from[0] + max(a.warmup, 50):
            # The warm-up's pace sets the schedule: the cosine then runs to its end in the time
            # left, less a twentieth for the reports and the export.
            per_step = (time.time() - fit_from[1]) / (tr.step - fit_from[0])
            left = a.fit_seconds - (time.time() - t0)
            a.steps = max(tr.step + 1, tr.step + int(0.95 * left / per_step))
            stop = last_step()
            fit_from = None
            log(f"--fit-seconds {a.fit_seconds:g}: {per_step * 1000:.1f} ms a step, "
                f"{left:.0f} s left: --steps {a.steps}")
        if a.max_seconds is not None and time.time() - t0 > a.max_seconds:
            log(f"--max-seconds {a.max_seconds:g} reached at step {tr.step} of {a.steps}: "
                f"the file is written as it stands")
            tr.save_checkpoint(ckpt)
            timed_out = True
            break
        # The batch of step s depends on (seed, s) only.
        brng = np.random.default_rng([a.seed, tr.step])
        idx = train_idx[brng.integers(0, len(train_idx), size=a.batch)]
        syms = brng.integers(0, 8, size=a.batch)
        ts = time.time()
        batch = tr.tensors(*data.batch(idx, syms, a.value_mix))
        p, v = tr.train_step(batch)
        t_train += time.time() - ts
        n_train += a.batch
        sums = [sums[0] + p, sums[1] + v, sums[2] + 1]
        if tr.step % a.log_every == 0 or tr.step == a.steps:
            report("", sums)
            log(f"speed: {n_train / max(t_train, 1e-9):.0f} positions/s")
            sums = [0.0, 0.0, 0]
            t_train, n_train = 0.0, 0
        if tr.step % a.ckpt_every == 0 or tr.step == stop:
            tr.save_checkpoint(ckpt)
    if tr.step < a.steps and not timed_out:
        log(f"stopped at step {tr.step} of {a.steps}: checkpoint {ckpt}")
        return

    tr.net.cpu()  # the export and the self-check run in float64 on the CPU
    a.device = "cpu"
    arrays = tr.net.export_arrays()
    size = sbnn.write(a.out, arrays, a.channels, a.blocks, a.value_hidden)
    log(f"wrote {a.out} ({size} bytes) at step {tr.step}"
        + (f"; checkpoint {ckpt}" if os.path.exists(ckpt) else ""))
    pick = eval_idx if eval_idx is not None else train_idx
    pick = pick[:256]
    planes = sbnd.unpack_bits(data.planes[pick]).astype(np.float64)
    self_check(tr.net, arrays, a.out, planes, torch, a.blocks, log)
    report("final ", [0, 0, 0])


# --- test vectors ----------------------------------------------------------------------------

TINY = dict(channels=8, blocks=1, value_hidden=8)


def vector_positions(seed):
    """Twelve fixed positions from synthetic games (real NoGo rules): both empty boards (with
    and without the centre rule), then positions spread over the opening, middle and end, with
    groups short of liberties on both sides."""
    import synth

    rng = np.random.default_rng(seed)
    out = []
    games = [synth.play_game(rng, g, centre_ban=g % 2 == 0) for g in range(6)]
    out.append(("empty board, centre rule", games[0][0]))
    out.append(("empty board, no centre rule", games[1][0]))
    for g, frac in [(0, 0.1), (1, 0.3), (2, 0.45), (3, 0.6), (4, 0.7), (5, 0.8), (2, 0.9),
                    (3, 0.95)]:
        recs = games[g]
        r = recs[int(frac * (len(recs) - 1))]
        out.append((f"game {g} ply {r['ply']}", r))
    for g in (4, 5):
        r = games[g][-1]
        out.append((f"game {g} ply {r['ply']} (its last position)", r))
    return out


def export_vectors(a):
    torch = setup_torch(a.threads)
    from model import Net

    os.makedirs(a.export_vectors, exist_ok=True)
    torch.manual_seed(a.seed)
    net = Net(TINY["channels"], TINY["blocks"], TINY["value_hidden"], bn=True)
    # Every weight random and away from its neutral start (the trained network starts its
    # blocks as the identity), so that each array of the file changes the outputs.
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name.endswith("bn.weight"):
                p.uniform_(0.5, 1.5)
            elif p.dim() == 1:
                p.normal_(0.0, 0.2)
            else:
                fan_in = p[0].numel()
                p.normal_(0.0, 1.5 / math.sqrt(fan_in))
    # A few training steps on synthetic games: BatchNorm statistics that are not the neutral
    # ones, so the export's folding is tested too.
    import synth

    rng = np.random.default_rng(a.seed)
    recs = [r for g in range(10, 30) for r in synth.play_game(rng, g, centre_ban=g % 2 == 0)]
    planes_all = np.array([[[(pl >> p) & 1 for p in range(81)] for pl in r["planes"]]
                           for r in recs], dtype=np.float32)
    visits_all = np.array([r["visits"] for r in recs], dtype=np.float32)
    z_all = np.array([r["result"] for r in recs], dtype=np.float32)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    net.train()
    for step in range(30):
        idx = rng.integers(0, len(recs), size=64)
        x = torch.from_numpy(planes_all[idx]).reshape(-1, 8, 9, 9)
        target = torch.from_numpy(visits_all[idx] / visits_all[idx].sum(1, keepdims=True))
        legal = x.reshape(-1, 8, 81)[:, 2] > 0
        logits, v = net(x)
        logp = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
        loss = -(target * logp).sum(1).mean() + ((v - torch.from_numpy(z_all[idx])) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()

    arrays = net.export_arrays()
    path = os.path.join(a.export_vectors, "tiny.sbnn")
    size = sbnn.write(path, arrays, TINY["channels"], TINY["blocks"], TINY["value_hidden"])
    positions = vector_positions(a.seed)
    planes = np.array([[[(pl >> p) & 1 for p in range(81)] for pl in r["planes"]]
                       for _, r in positions], dtype=np.float64)
    for pl in planes:  # valid plane sets: stones disjoint, legal points empty
        empty = 1 - pl[0] - pl[1]
        assert pl[0].dot(pl[1]) == 0 and np.all(pl[2] <= empty) and np.all(pl[3] <= empty)
        assert np.all(pl[4] + pl[5] <= pl[0]) and np.all(pl[6] + pl[7] <= pl[1])
    logits, value, dl, dv = self_check(net, arrays, path, planes, torch, TINY["blocks"],
                                       limit=1e-5)
    with open(path, "rb") as f:
        digest = int.from_bytes(f.read()[28:36], "little")

    def num(x):
        return float(f"{x:.9g}")

    doc = {
        "about": "Test vectors for the NoGo network's forward pass: tiny.sbnn and its outputs "
                 "on fixed positions, computed in float64 from the file's float32 weights "
                 "(src/training/nogo/sbnn.py forward). Made by `python src/training/nogo/"
                 f"train.py --export-vectors DIR --seed {a.seed}`. planes[i] is plane i as 81 "
                 "characters, character p = point p = 9*y + x ('1' = bit set); the network's "
                 "input adds a ninth plane of ones. logits[p] are the raw policy logits "
                 "(no masking), value the tanh output for the side to move.",
        "network": "tiny.sbnn",
        "channels": TINY["channels"],
        "blocks": TINY["blocks"],
        "value_hidden": TINY["value_hidden"],
        "file_bytes": size,
        "payload_fnv1a64": f"0x{digest:016x}",
        "tolerance": 1e-4,
        "positions": [],
    }
    for (name, r), pl, lg, v in zip(positions, planes, logits, value):
        doc["positions"].append({
            "name": name,
            "side_to_move": "black" if r["side"] == 0 else "white",
            "planes": ["".join(str(int(b)) for b in plane) for plane in pl],
            "logits": [num(x) for x in lg],
            "value": num(v),
        })
    out = os.path.join(a.export_vectors, "tiny-outputs.json")
    # One line for each list, so the file stays small and a diff stays readable.
    text = _compact_lists(doc)
    with open(out, "w") as f:
        f.write(text)
    print(f"wrote {path} ({size} bytes) and {out} ({len(text)} bytes): {len(positions)} "
          f"positions; values {', '.join(f'{v:+.3f}' for v in value)}")


def _compact_lists(doc):
    lines = ["{"]
    keys = list(doc)
    for i, k in enumerate(keys):
        end = "," if i < len(keys) - 1 else ""
        if k != "positions":
            lines.append(f" {json.dumps(k)}: {json.dumps(doc[k])}{end}")
            continue
        lines.append(f' "positions": [')
        for j, pos in enumerate(doc[k]):
            items = [f"  {json.dumps(pk)}: {json.dumps(pv)}" for pk, pv in pos.items()]
            lines.append("  {\n" + ",\n".join(" " + s for s in items) + "\n  }"
                         + ("," if j < len(doc[k]) - 1 else ""))
        lines.append(f" ]{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None):
    a = parse_args(argv)
    if a.export_vectors:
        export_vectors(a)
    else:
        train(a)


if __name__ == "__main__":
    main()
