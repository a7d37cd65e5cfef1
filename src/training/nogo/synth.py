"""Synthetic NoGo self-play data, for testing the trainer without the engine.

Real games under NoGo's rules (a move may leave no group, its own or the opponent's, without a
liberty; the side with no legal move loses; optionally Black's first move may not be the
centre), played by a cheap heuristic "teacher" whose move scores become the visit counts. The
planes are computed exactly as `engine::nogo::features` defines them, so the records are valid;
the policy is learnable (a fixed function of the position plus noise), the results are the games'
real results, and the root value is a made-up noisy function of the result.

    python src/training/nogo/synth.py --out target/nogo-synth/synth.sbnd --games 400 --seed 1
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sbnd  # noqa: E402

BOARD = (1 << 81) - 1
FIRST_COL = sum(1 << (9 * y) for y in range(9))
LAST_COL = FIRST_COL << 8
CENTRE = 40


def nbrs(s):
    """The points next to at least one point of the set `s` (no wrapping across rows)."""
    return (((s << 1) & ~FIRST_COL) | ((s >> 1) & ~LAST_COL) | (s << 9) | (s >> 9)) & BOARD


def group(p, own):
    g = 1 << p
    while True:
        nxt = g | (nbrs(g) & own)
        if nxt == g:
            return g
        g = nxt


def bits(s):
    while s:
        low = s & -s
        yield low.bit_length() - 1
        s ^= low


class Position:
    def __init__(self, centre_ban):
        self.stones = [0, 0]  # black, white
        self.to_move = 0
        self.ply = 0
        self.centre_ban = centre_ban

    def empty(self):
        return BOARD & ~(self.stones[0] | self.stones[1])

    def legal(self, p, c):
        b = 1 << p
        if not self.empty() & b:
            return False
        if self.centre_ban and self.ply == 0 and c == 0 and p == CENTRE:
            return False
        own = self.stones[c] | b
        opp = self.stones[1 - c]
        free = BOARD & ~(own | opp)
        if not nbrs(group(p, own)) & free:
            return False
        for q in bits(nbrs(b) & opp):
            if not nbrs(group(q, opp)) & free:
                return False
        return True

    def legal_mask(self, c):
        m = 0
        for p in bits(self.empty()):
            if self.legal(p, c):
                m |= 1 << p
        return m

    def short_groups(self, c):
        """(stones in groups with 1 liberty, with 2) of colour c."""
        one = two = 0
        left = self.stones[c]
        free = self.empty()
        while left:
            p = (left & -left).bit_length() - 1
            g = group(p, self.stones[c])
            n = bin(nbrs(g) & free).count("1")
            if n == 1:
                one |= g
            elif n == 2:
                two |= g
            left &= ~g
        return one, two

    def planes(self):
        me, opp = self.to_move, 1 - self.to_move
        m1, m2 = self.short_groups(me)
        o1, o2 = self.short_groups(opp)
        return [self.stones[me], self.stones[opp], self.legal_mask(me), self.legal_mask(opp),
                m1, m2, o1, o2]

    def play(self, p):
        self.stones[self.to_move] |= 1 << p
        self.to_move = 1 - self.to_move
        self.ply += 1


def teacher_scores(pos, planes):
    """A fixed heuristic score for each of the mover's legal points (learnable structure)."""
    legal = planes[2]
    opp_two = planes[7]
    free = pos.empty()
    opp_two_libs = nbrs(opp_two) & free  # liberties of the opponent's two-liberty groups
    own_short = nbrs(planes[4] | planes[5]) & free
    opp_any = nbrs(planes[1])
    opp_legal = planes[3]
    scores = {}
    for p in bits(legal):
        b = 1 << p
        x, y = p % 9, p // 9
        s = 0.0
        s += 1.5 if opp_two_libs & b else 0.0
        s += 0.6 if opp_any & b else 0.0
        s -= 1.0 if own_short & b else 0.0
        s -= 0.8 if not opp_legal & b else 0.0  # keep the points only the mover can use
        s += 0.3 if x in (0, 8) or y in (0, 8) else 0.0
        scores[p] = s
    return scores


def play_game(rng, game, centre_ban, sample_plies=8, sims=200):
    pos = Position(centre_ban)
    records = []
    while True:
        planes = pos.planes()
        if planes[2] == 0:
            break  # the mover has no legal move and loses
        scores = teacher_scores(pos, planes)
        pts = np.array(list(scores), dtype=np.int64)
        s = np.array([scores[p] for p in pts]) + rng.normal(0.0, 0.3, len(pts))
        prob = np.exp(2.0 * (s - s.max()))
        prob /= prob.sum()
        visits = np.zeros(81, dtype=np.int64)
        visits[pts] = rng.multinomial(sims, prob)
        best = int(np.argmax(visits))
        if pos.ply < sample_plies:
            played = int(rng.choice(81, p=visits / visits.sum()))
        else:
            played = best
        records.append(dict(ply=pos.ply, side=pos.to_move, planes=planes, visits=visits,
                            played=played, sampled=played != best,
                            black=pos.stones[0], white=pos.stones[1]))
        pos.play(played)
    loser = pos.to_move
    out = []
    for i, r in enumerate(records):
        result = -1 if r["side"] == loser else 1
        progress = min(1.0, r["ply"] / 40.0)
        rv = float(np.clip(0.5 + 0.4 * result * progress + rng.normal(0, 0.1), 0.0, 1.0))
        flags = (sbnd.FLAG_CENTRE_BAN if centre_ban else 0) | (
            sbnd.FLAG_SAMPLED if r["sampled"] else 0) | (
            sbnd.FLAG_LAST if i == len(records) - 1 else 0)
        out.append(dict(r, game=game, flags=flags, result=result, root_value=rv))
    return out


def encode_records(records):
    arr = np.zeros(len(records), dtype=sbnd.RECORD)
    for i, r in enumerate(records):
        arr[i]["game"] = r["game"]
        arr[i]["ply"] = r["ply"]
        arr[i]["side"] = r["side"]
        arr[i]["flags"] = r["flags"]
        arr[i]["result"] = r["result"]
        arr[i]["root_value"] = r["root_value"]
        arr[i]["black"] = np.frombuffer(r["black"].to_bytes(16, "little"), dtype=np.uint8)
        arr[i]["white"] = np.frombuffer(r["white"].to_bytes(16, "little"), dtype=np.uint8)
        arr[i]["planes"] = np.frombuffer(
            b"".join(p.to_bytes(16, "little") for p in r["planes"]), dtype=np.uint8
        ).reshape(8, 16)
        arr[i]["visits"] = r["visits"]
        arr[i]["played"] = r["played"]
    return arr


def header():
    return (sbnd.MAGIC + sbnd.VERSION.to_bytes(4, "little")
            + sbnd.RECORD_SIZE.to_bytes(4, "little"))


def write(path, games, seed, first_game=0, log=print):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    n = 0
    with open(path, "wb") as f:
        f.write(header())
        for g in range(first_game, first_game + games):
            recs = play_game(rng, g, centre_ban=g % 2 == 0)
            f.write(encode_records(recs).tobytes())
            n += len(recs)
    log(f"{path}: {games} games, {n} positions")
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="the .sbnd file to write")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first-game", type=int, default=0, help="index of the first game")
    a = ap.parse_args()
    write(a.out, a.games, a.seed, a.first_game)


if __name__ == "__main__":
    main()
