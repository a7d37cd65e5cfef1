#!/usr/bin/env python3
"""A scripted Gomoku brain for the arena's tests, speaking the Gomocup (Piskvork) protocol.

It builds lines and never defends: each stone goes into the first five-cell window (scan order:
rows from the top, then columns, across, down and both diagonals) that holds no enemy stone and
the most of its own, on that window's first empty cell. It beats a random player and loses to
anything that simply builds five first.

    gomocup_bot.py MODE [LOG]

MODE:
  play        well behaved; says `MESSAGE`/`DEBUG` lines before each move
  suggest     answers with `SUGGEST x,y`, then plays the point the manager sends with `PLAY`
  start-error answers `START` with `ERROR`
  silent      never answers anything
  occupied    plays its own first stone again as its second move
  garbage     answers its first move with a sentence
  error       answers its first move with `ERROR`
  crash       exits with status 3 when asked for its first move
  late        sleeps 3 s before every move
  deaf-end    ignores `END` and lingers

LOG, if given, receives every line the manager sent (without its line end), `NO-CRLF` after a
line that did not end with CR LF, and `pid N` at the start.
"""
import os
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
                    ex, ey = x + 4 * dx, y + 4 * dy
                    if 0 <= ex < size and 0 <= ey < size:
                        self.windows.append([(x + i * dx, y + i * dy) for i in range(5)])

    def choose(self):
        best, best_count = None, -1
        for w in self.windows:
            owners = [self.cells.get(p) for p in w]
            if 2 in owners:
                continue
            count = owners.count(1)
            if best_count < count < 5:
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


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def point(text):
    x, y = text.split(",")[:2]
    return (int(x), int(y))


def main():
    mode = sys.argv[1]
    log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None

    def note(text):
        if log:
            log.write(text + "\n")
            log.flush()

    note("pid %d" % os.getpid())
    board = None
    moves = 0
    first_stone = None

    def read():
        raw = sys.stdin.buffer.readline()
        if not raw:
            return None
        line = raw.decode("utf-8", "replace")
        note(line.rstrip("\r\n"))
        if not line.endswith("\r\n"):
            note("NO-CRLF")
        return line.strip()

    def answer():
        nonlocal moves, first_stone
        moves += 1
        if mode == "crash":
            sys.exit(3)
        if mode == "late":
            time.sleep(3)
        if mode == "garbage":
            say("I would rather not play")
            return
        if mode == "error":
            say("ERROR out of memory")
            return
        p = board.choose()
        if mode == "occupied" and moves == 2:
            p = first_stone
        board.cells[p] = 1
        if first_stone is None:
            first_stone = p
        say("MESSAGE my move")
        say("DEBUG windows scanned")
        if mode == "suggest":
            say("SUGGEST %d,%d" % p)
            line = read()
            if line is None or not line.upper().startswith("PLAY "):
                say("ERROR expected PLAY")
                return
            p = point(line[5:])
        say("%d,%d" % p)

    while True:
        line = read()
        if line is None:
            return
        if not line or mode == "silent":
            continue
        word = line.split()[0].upper()
        if word == "START":
            if mode == "start-error":
                say("ERROR unsupported size")
                continue
            board = Board(int(line.split()[1]))
            say("OK")
        elif word == "RESTART":
            board = Board(board.size)
            say("OK")
        elif word == "INFO":
            pass
        elif word == "ABOUT":
            say('name="gomoscript", version="1", author="stonebrain tests"')
        elif word == "BEGIN":
            answer()
        elif word == "TURN":
            board.cells[point(line[5:])] = 2
            answer()
        elif word == "BOARD":
            while True:
                entry = read()
                if entry is None:
                    return
                if entry.upper() == "DONE":
                    break
                x, y, field = (int(v) for v in entry.split(","))
                board.cells[(x, y)] = 1 if field == 1 else 2
            answer()
        elif word == "END":
            if mode == "deaf-end":
                time.sleep(30)
            return
        else:
            say("UNKNOWN " + word)


if __name__ == "__main__":
    main()
