#!/usr/bin/env python3
"""A scripted Connect6 bot for the arena's tests, over SAU or Botzone (full history).

It plays a plain line-builder: each stone goes into the first six-cell window (scan order) that
holds no enemy stone and the most of its own, on that window's first empty cell. It never
defends, so it beats a random player and loses to anything that blocks.

    c6_bot.py sau [MODE] [LOG]      MODE: play (default), occupied, late, crash
    c6_bot.py botzone [SIZE]        one full-history JSON turn, then exit (ConnectSix, 15x15)
    c6_bot.py botzone-simple [SIZE] the same in Botzone's simple interaction

SAU mode `occupied` plays its own first stone again on its second turn; `late` answers every
move after 3 s; `crash` exits on its first `move` or `new black`; `loose` is off the protocol
in the ways older engines are (Cloudict's): it ignores `name?`, answers `depth N`, prints a help
text holding the word "move " before its first answer, writes and reads a single stone as two
letters (`move JJ`; it exits with status 5 if sent `@@`), and glues "We loss!" to its next line
when the opponent's move wins. LOG, if given, receives every
line the platform sent (for the tests to check the conversation). Before each answer it writes
a line of chatter on standard error, which SAU reads from the same pipe and must skip.
"""
import json
import os
import select
import sys
import time


class Board:
    def __init__(self, size):
        self.size = size
        self.cells = {}
        self.windows = []
        for y in range(size):
            for x in range(size):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                    ex, ey = x + 5 * dx, y + 5 * dy
                    if 0 <= ex < size and 0 <= ey < size:
                        self.windows.append([(x + i * dx, y + i * dy) for i in range(6)])

    def place(self, point, colour):
        self.cells[point] = colour

    def choose(self, me):
        best, best_count = None, -1
        for w in self.windows:
            owners = [self.cells.get(p) for p in w]
            if any(o is not None and o != me for o in owners):
                continue
            count = sum(1 for o in owners if o == me)
            if count > best_count and count < 6:
                best, best_count = w, count
        if best is not None:
            for p in best:
                if p not in self.cells:
                    return p
        for y in range(self.size):
            for x in range(self.size):
                if (x, y) not in self.cells:
                    return (x, y)
        return None


def sau_letters(points):
    out = ""
    for p in points[:2]:
        out += chr(ord("A") + p[0]) + chr(ord("A") + p[1])
    return out + "@@" * (2 - len(points[:2]))


def sau_points(text):
    points = []
    for i in (0, 2):
        x, y = ord(text[i]) - ord("A"), ord(text[i + 1]) - ord("A")
        if x >= 0 and y >= 0:
            points.append((x, y))
    return points


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class Lines:
    """Standard input by lines, with a look at whether another line is already waiting."""

    def __init__(self):
        self.buf = b""
        self.eof = False

    def _fill(self, timeout):
        if self.eof or not select.select([0], [], [], timeout)[0]:
            return False
        data = os.read(0, 4096)
        self.buf += data
        self.eof = not data
        return bool(data)

    def waiting(self, timeout):
        return b"\n" in self.buf or (self._fill(timeout) and b"\n" in self.buf)

    def next(self):
        while b"\n" not in self.buf:
            if not self._fill(None):
                return None
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")


def sau(mode, log):
    board, me, turns = Board(19), None, 0
    loose = mode == "loose"
    if loose:
        sys.stdout.write("commands:\n  next - the engine will search the move for next step.\n")
    logf = open(log, "a") if log else None
    lines = Lines()
    while True:
        raw = lines.next()
        if raw is None:
            return
        line = raw.replace("\0", " ").strip()
        if not line:
            continue
        if logf:
            logf.write(line + "\n")
            logf.flush()
        if line == "name?" and not loose:
            say("name c6script")
        elif line.startswith("depth ") and loose:
            say("Set the search depth to " + line[6:] + ".")
        elif line.startswith("new"):
            board, turns = Board(19), 0
            me = "black" if line.endswith("black") else "white"
            if me == "black":
                if mode == "crash":
                    sys.exit(4)
                board.place((9, 9), me)
                turns += 1
                say("move JJ" if loose else "move JJ@@")
        elif line.startswith("move "):
            if loose and "@" in line:
                sys.exit(5)
            for p in sau_points((line[5:9] + "@@")[:4]):
                board.place(p, "white" if me == "black" else "black")
            if loose and any(
                all(board.cells.get(q) == c for q in w) for w in board.windows for c in ("black", "white")
            ):
                sys.stdout.write("We loss!")
                sys.stdout.flush()
                continue
            # The loser of a game gets the winning move and `end` together: do not answer it.
            if lines.waiting(0.02) and lines.buf.split(b"\n", 1)[0].strip(b" \r\0") == b"end":
                continue
            if mode == "crash":
                sys.exit(4)
            if mode == "late":
                time.sleep(3)
            sys.stderr.write("info thinking\n")
            sys.stderr.flush()
            stones = []
            for _ in range(2):
                p = board.choose(me)
                if p is None:
                    break
                board.place(p, me)
                stones.append(p)
            turns += 1
            if mode == "occupied" and turns == 2:
                first = [p for p, c in board.cells.items() if c == me][0]
                stones = [first, stones[-1]]
            if loose:
                say("Searching 1/1")
            say("move " + sau_letters(stones))
        elif line == "end":
            me = None
        elif line == "quit":
            return


def simple_turn(line):
    x0, y0, x1, y1 = (int(v) for v in line.split())
    return {"x0": x0, "y0": y0, "x1": x1, "y1": y1}


def botzone(size, simple):
    if simple:
        n = int(sys.stdin.readline())
        lines = [simple_turn(sys.stdin.readline()) for _ in range(2 * n - 1)]
        requests, responses = lines[0::2], lines[1::2]
    else:
        data = json.loads(sys.stdin.readline())
        requests, responses = data["requests"], data.get("responses", [])
    board = Board(size)
    first = requests[0]
    me = "black" if first["x0"] == -1 else "white"
    them = "white" if me == "black" else "black"

    def put(turn, colour):
        for k in ("0", "1"):
            if turn["x" + k] != -1:
                board.place((turn["x" + k], turn["y" + k]), colour)

    for i, req in enumerate(requests):
        put(req, them)
        if i < len(responses):
            put(responses[i], me)
    stones = []
    count = 1 if (me == "black" and len(requests) == 1) else 2
    for _ in range(count):
        p = board.choose(me)
        if p is None:
            break
        board.place(p, me)
        stones.append(p)
    while len(stones) < 2:
        stones.append((-1, -1))
    if simple:
        say("%d %d %d %d" % (stones[0][0], stones[0][1], stones[1][0], stones[1][1]))
    else:
        answer = {"x0": stones[0][0], "y0": stones[0][1], "x1": stones[1][0], "y1": stones[1][1]}
        say(json.dumps({"response": answer}))


if __name__ == "__main__":
    if sys.argv[1] == "sau":
        sau(sys.argv[2] if len(sys.argv) > 2 else "play", sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        botzone(int(sys.argv[2]) if len(sys.argv) > 2 else 15, sys.argv[1] == "botzone-simple")
