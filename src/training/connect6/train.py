"""Trains the Connect6 value network (src/engine/connect6/network/) on the records of
`stonebrain positions connect6` and writes it as an .sbc6 file the engine reads.

The model is the engine's, layer for layer (model.rs says it in words): per side, a bias plus
the sum of one table row per cell and direction (an EmbeddingBag over the rows the records
hold; blank views read a zero row past the table's end), clipped to 0..1; the two sums (side to move's first) and the threats against the side to
move, one-hot, through a hidden layer of rectified units to a logit; plus the fitted
evaluation's logit times a learned scale. Loss: the log-loss of the game's result for the side
to move (a draw counts a half), or of the labelling search's value (--search-mix; always for
the positions off the games' lines, whose result is not known).

Seeded (weights and batches), resumable (OUT.ckpt after every epoch: run again with the same
--out and more --epochs to carry on), holding out every K-th game (--holdout-every) to report
the held-out log-loss next to that of the fitted evaluation alone.
"""

import argparse
import json
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DATA_MAGIC = b"SBC6DATA"
NET_MAGIC = b"SBC6NETV"
RECORD_HEAD = 12
HEADER = 24
UNITS_PER_LOGIT = 190.0
EXTRA = 3
# The result of a position off the game's line (positions.rs, --branches).
UNKNOWN_RESULT = 2
# A labelling search's proved win or loss (positions.rs stores them at +-32,767).
PROVED = 32767


def half_codes(reach):
    return (3 ** (reach + 1) - 1) // 2


def table_rows(reach):
    h = half_codes(reach)
    return 3 * h * (h + 1) // 2


def read_records(paths):
    """Every record of the files: a dict of numpy arrays. The files must share reach and size."""
    reach = size = None
    parts = []
    for path in paths:
        with open(path, "rb") as f:
            raw = f.read()
        if raw[:8] != DATA_MAGIC:
            sys.exit(f"{path}: not a Connect6 records file")
        version, r, s, nodes = struct.unpack_from("<4I", raw, 8)
        if version != 2:
            sys.exit(f"{path}: records version {version}, this trainer reads 2")
        if reach not in (None, r) or size not in (None, s):
            sys.exit(f"{path}: reach {r}, size {s} differ from the files before it")
        reach, size = r, s
        views = 2 * 4 * s * s
        record = RECORD_HEAD + 2 * views
        body = np.frombuffer(raw, dtype=np.uint8, offset=HEADER)
        if len(body) % record:
            sys.exit(f"{path}: {len(body)} bytes is not a whole number of {record}-byte records")
        body = body.reshape(-1, record)
        head = body[:, :RECORD_HEAD].copy()
        parts.append(dict(
            result=head[:, 0].view(np.int8).astype(np.float32),
            against=head[:, 1].astype(np.int64),
            stones=head[:, 2:4].copy().view("<u2")[:, 0].astype(np.int64),
            fitted=head[:, 4:6].copy().view("<i2")[:, 0].astype(np.float32),
            search=head[:, 6:8].copy().view("<i2")[:, 0].astype(np.float32),
            labelled=np.full(len(head), nodes > 0),
            game=head[:, 8:12].copy().view("<u4")[:, 0].astype(np.int64),
            rows=body[:, RECORD_HEAD:].copy().view("<u2").reshape(-1, 2, views // 2),
        ))
    # Games are numbered within each file: keep them apart across files.
    offset = 0
    for p in parts:
        p["game"] = p["game"] + offset
        offset = int(p["game"].max()) + 1 if len(p["game"]) else offset
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return reach, size, data


class Net(nn.Module):
    def __init__(self, reach, dim, hidden):
        super().__init__()
        self.reach, self.dim, self.hidden = reach, dim, hidden
        # One row past the table for the blank views (positions.rs), kept at zero.
        rows = table_rows(reach)
        self.table = nn.EmbeddingBag(rows + 1, dim, mode="sum", padding_idx=rows)
        nn.init.normal_(self.table.weight, 0.0, 0.02)
        with torch.no_grad():
            self.table.weight[rows].zero_()
        self.bias = nn.Parameter(torch.full((dim,), 0.5))
        self.fc1 = nn.Linear(2 * dim + EXTRA, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.fitted_scale = nn.Parameter(torch.tensor(1.0))

    def forward(self, rows, against, fitted):
        b, _, views = rows.shape
        sums = self.table(rows.reshape(b * 2, views)).reshape(b, 2, self.dim) + self.bias
        x = torch.cat([
            sums.clamp(0.0, 1.0).reshape(b, 2 * self.dim),
            F.one_hot(against.clamp(max=2), EXTRA).float(),
        ], dim=1)
        out = self.fc2(F.relu(self.fc1(x))).squeeze(1)
        return out + self.fitted_scale * fitted / UNITS_PER_LOGIT


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def net_bytes(net):
    parts = [
        net.table.weight.detach().numpy()[:-1].reshape(-1),
        net.bias.detach().numpy(),
        net.fc1.weight.detach().numpy().reshape(-1),
        net.fc1.bias.detach().numpy(),
        net.fc2.weight.detach().numpy().reshape(-1),
        np.array([net.fc2.bias.item(), net.fitted_scale.item()]),
    ]
    payload = np.concatenate(parts).astype("<f4").tobytes()
    header = NET_MAGIC + struct.pack("<4I", 1, net.reach, net.dim, net.hidden)
    return header + struct.pack("<Q", fnv1a(payload)) + payload


def batches(n, batch, rng):
    order = rng.permutation(n)
    for i in range(0, n - batch + 1, batch):
        yield order[i:i + batch]


# The target: the game's result, mixed with the labelling search's value where there is one
# (set by main from --search-mix and --search-scale).
SEARCH_MIX = 0.0
SEARCH_SCALE = 0.309 / 190.0


def targets(data, idx, mix=None):
    """The training targets of the records idx, as win rates. Positions off the games' lines
    (result 2: not known) always take the search's value."""
    mix = SEARCH_MIX if mix is None else mix
    known = data["result"][idx] != UNKNOWN_RESULT
    result = np.where(known, (data["result"][idx] + 1.0) / 2.0, 0.5).astype(np.float32)
    search = 1.0 / (1.0 + np.exp(-data["search"][idx] * SEARCH_SCALE))
    m = np.where(data["labelled"][idx], np.where(known, mix, 1.0), 0.0).astype(np.float32)
    return torch.from_numpy((m * search + (1.0 - m) * result).astype(np.float32))


def tensors(data, idx, mix=None):
    """Rows, threats, fitted values and targets of the records idx."""
    return (
        torch.from_numpy(data["rows"][idx].astype(np.int64)),
        torch.from_numpy(data["against"][idx]),
        torch.from_numpy(data["fitted"][idx]),
        targets(data, idx, mix),
    )


def log_loss(net, data, idx, batch=1024):
    """Held-out log-losses, in one pass: against the game results (over the games' own
    positions: those off the lines have none), of the fitted evaluation as it is against them,
    and against the training target (over all)."""
    total, fitted_total, target_total, known_n = 0.0, 0.0, 0.0, 0
    with torch.no_grad():
        for i in range(0, len(idx), batch):
            part = idx[i:i + batch]
            rows, against, fitted, target = tensors(data, part)
            result = targets(data, part, mix=0.0)
            known = torch.from_numpy(data["result"][part] != UNKNOWN_RESULT)
            logits = net(rows, against, fitted)
            target_total += F.binary_cross_entropy_with_logits(
                logits, target, reduction="sum").item()
            total += F.binary_cross_entropy_with_logits(
                logits[known], result[known], reduction="sum").item()
            fitted_total += F.binary_cross_entropy_with_logits(
                fitted[known] / UNITS_PER_LOGIT, result[known], reduction="sum").item()
            known_n += int(known.sum())
    n, k = max(len(idx), 1), max(known_n, 1)
    return total / k, fitted_total / k, target_total / n


def calibrated_fitted(data, train_idx, test_idx, mix=0.0):
    """The held-out log-loss of the fitted evaluation alone, given its best scale and a bias per
    count of threats against the side to move (fitted on the training games), against the
    results (mix 0) or the training target: the baseline the network must beat, fairer than the
    raw value, whose scale was set on other games."""
    def inputs(idx):
        f = torch.from_numpy(data["fitted"][idx]) / UNITS_PER_LOGIT
        a = F.one_hot(torch.from_numpy(data["against"][idx]).clamp(max=2), EXTRA).float()
        return f, a, targets(data, idx, mix)
    f, a, t = inputs(train_idx)
    w = torch.zeros(1 + EXTRA, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=200)

    def closure():
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(w[0] * f + a @ w[1:], t)
        loss.backward()
        return loss
    opt.step(closure)
    f, a, t = inputs(test_idx)
    with torch.no_grad():
        return F.binary_cross_entropy_with_logits(w[0] * f + a @ w[1:], t).item(), w[0].item()


def main():
    global SEARCH_MIX, SEARCH_SCALE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", nargs="+", required=True, help="records files (.c6d)")
    ap.add_argument("--out", required=True, help="the .sbc6 file to write (checkpoint OUT.ckpt)")
    ap.add_argument("--dim", type=int, default=16, help="accumulator width [16]")
    ap.add_argument("--hidden", type=int, default=32, help="hidden units [32]")
    ap.add_argument("--epochs", type=int, default=10, help="passes over the training games [10]")
    ap.add_argument("--batch", type=int, default=256, help="positions a step [256]")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's step, halved over the run [2e-3]")
    ap.add_argument("--weight-decay", type=float, default=1e-5,
                    help="held towards zero, table included [1e-5]")
    ap.add_argument("--holdout-every", type=int, default=10, metavar="K",
                    help="every K-th game is held out [10]")
    ap.add_argument("--search-mix", type=float, default=0.0, metavar="M",
                    help="the target is M times the labelling search's win rate plus 1-M times "
                         "the game's result, where records have a search value [0]")
    ap.add_argument("--search-scale", type=float, default=SEARCH_SCALE, metavar="S",
                    help="the search's value v counts as the win rate 1/(1+exp(-S v)) "
                         "[0.309/190: the fitted evaluation's calibration on self-play]")
    ap.add_argument("--skip-proved", action="store_true",
                    help="leave out the positions the labelling search proved won or lost: the "
                         "search proves those itself, and they swamp the quiet ones the "
                         "evaluation is for")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--keep-best", action="store_true",
                    help="write OUT only after an epoch that lowers the held-out loss (the "
                         "checkpoint still follows every epoch)")
    ap.add_argument("--export-vectors", metavar="FILE",
                    help="after training, write the logits of the first held-out records here "
                         "(JSON: game, stones, logit) for the engine's test")
    args = ap.parse_args()
    SEARCH_MIX, SEARCH_SCALE = args.search_mix, args.search_scale
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.time()
    reach, size, data = read_records(args.data)
    held = data["game"] % args.holdout_every == 0
    known = data["result"] != UNKNOWN_RESULT
    keep = np.ones(len(held), dtype=bool)
    if args.skip_proved:
        keep = ~(data["labelled"] & (np.abs(data["search"]) >= PROVED))
    train_idx, test_idx = np.nonzero(~held & keep)[0], np.nonzero(held & keep)[0]
    # The losses against results are taken on the games' own positions only.
    known_train, known_test = train_idx[known[train_idx]], test_idx[known[test_idx]]
    print(f"{len(held)} positions of {len(np.unique(data['game']))} games "
          f"({int((~known).sum())} off the games' lines, {int((~keep).sum())} proved and "
          f"left out), reach {reach}, "
          f"{size}x{size}: {len(train_idx)} to train, {len(test_idx)} held out", flush=True)
    base, scale = calibrated_fitted(data, known_train, known_test)
    print(f"the fitted evaluation alone, its scale ({scale:.3f}) and a bias per threat count "
          f"fitted: held-out log-loss {base:.4f}", flush=True)
    if args.search_mix > 0:
        # The number to beat: what the network adds to the fitted evaluation shows against it.
        base, scale = calibrated_fitted(data, train_idx, test_idx, mix=None)
        print(f"the same fitted to the training target (scale {scale:.3f}): held-out log-loss "
              f"{base:.4f} against the target", flush=True)
    if data["labelled"][known_test].all() and len(known_test):
        with torch.no_grad():
            result = targets(data, known_test, mix=0.0)
            search = targets(data, known_test, mix=1.0)
            loss = F.binary_cross_entropy(search.clamp(1e-6, 1 - 1e-6), result).item()
        print(f"the labelling search's values as win rates: held-out log-loss {loss:.4f}",
              flush=True)
    net = Net(reach, args.dim, args.hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    epoch, best = 0, float("inf")
    ckpt = args.out + ".ckpt"
    if os.path.exists(ckpt):
        state = torch.load(ckpt)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        epoch, best = state["epoch"], state.get("best", best)
        print(f"resumed from {ckpt} after epoch {epoch}", flush=True)
    while epoch < args.epochs:
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        for g in opt.param_groups:
            g["lr"] = args.lr * (0.5 ** (epoch / max(args.epochs - 1, 1)))
        net.train()
        total, n = 0.0, 0
        for idx in batches(len(train_idx), args.batch, rng):
            rows, against, fitted, target = tensors(data, train_idx[idx])
            loss = F.binary_cross_entropy_with_logits(net(rows, against, fitted), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total, n = total + loss.item(), n + 1
        epoch += 1
        net.eval()
        result_loss, fitted_loss, held_loss = log_loss(net, data, test_idx)
        print(f"epoch {epoch}: train {total / max(n, 1):.4f}, held out {held_loss:.4f} "
              f"(against the results {result_loss:.4f}, the fitted evaluation as it is "
              f"{fitted_loss:.4f}), scale {net.fitted_scale.item():.3f}, "
              f"{time.time() - start:.0f} s", flush=True)
        if held_loss < best or not args.keep_best:
            with open(args.out, "wb") as f:
                f.write(net_bytes(net))
            if held_loss < best:
                print(f"  {args.out} written (held out {held_loss:.4f})", flush=True)
        best = min(best, held_loss)
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch,
                    "best": best}, ckpt)
    if args.export_vectors:
        idx = test_idx[:24]
        with torch.no_grad():
            rows, against, fitted, _ = tensors(data, idx)
            logits = net(rows, against, fitted).tolist()
        out = [dict(game=int(data["game"][i]), stones=int(data["stones"][i]), logit=l)
               for i, l in zip(idx, logits)]
        with open(args.export_vectors, "w") as f:
            json.dump(out, f, indent=0)
            f.write("\n")


if __name__ == "__main__":
    main()
