"""Botzone entry point of stonebrain: runs the bundled Linux binary in place of Python.

Botzone compiles no Rust, but runs Python bots, and a Python bot may be a zip with this file at
its root. `make botzone` builds one zip per game (and mode) holding this file, the statically
linked Linux binary `stonebrain`, and `package_settings.py` (the game, the mode and the binary's
digest, written by `pack.py`).

Why `os.execv`: the binary takes over this very process, so Botzone's pipes, its SIGSTOP and
SIGCONT between kept-running turns, and its clock all reach the bot itself, and no interpreter
stays behind holding memory.

Why a cache: a zip is not extracted, and a program inside it cannot be run from there. The
binary is written out once, under a name holding its digest, and reused by the following
turns (a full-history bot is started afresh every turn); a new build has a new digest.

Written for any Python from 2.7 on: which Python 3 Botzone runs is not published.
"""

import errno
import os
import sys
import time
import zipfile

import package_settings as settings

SCRIPT_START = time.time()

# Milliseconds the bot keeps back from Botzone's limit for what it cannot see (exit, pipes, a
# busy judge), as the binary's own default; the time Python took to get here is added.
MARGIN_MS = 150
# Python's own start-up, before this file runs, when /proc cannot tell it.
UNSEEN_START_MS = 100


def started_ms_ago():
    """Milliseconds since this process started, interpreter start-up included: Botzone's clock
    counts them, and the binary, which starts its own clock at exec, cannot see them."""
    try:
        with open("/proc/self/stat") as f:
            stat = f.read()
        # The command name is in brackets and may hold spaces: split after the last one.
        after_name = stat[stat.rindex(")") + 2:].split()
        start_ticks = int(after_name[19])  # field 22, `starttime`, in clock ticks since boot
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        ticks_per_second = os.sysconf("SC_CLK_TCK")
        elapsed = uptime - start_ticks / float(ticks_per_second)
        # Both figures are rounded to a tick (10 ms): round the difference up by two.
        return max(0, int(elapsed * 1000)) + 20
    except (IOError, OSError, ValueError, IndexError):
        return int((time.time() - SCRIPT_START) * 1000) + UNSEEN_START_MS


def cache_dirs():
    """Where the binary may be written, best first. A directory may refuse to be written to,
    or be mounted without the right to execute: then the next one is tried."""
    chosen = os.environ.get("STONEBRAIN_CACHE")
    if chosen:
        yield chosen
    yield os.environ.get("TMPDIR") or "/tmp"
    yield "/dev/shm"
    yield os.path.dirname(os.path.abspath(sys.argv[0]))
    yield os.getcwd()
    yield os.path.expanduser("~")


def ready_binary(directory):
    """The path of the extracted binary in `directory`, written there first if missing."""
    folder = os.path.join(directory, "stonebrain-" + settings.DIGEST[:16])
    binary = os.path.join(folder, "stonebrain")
    try:
        if os.path.getsize(binary) == settings.SIZE and os.access(binary, os.X_OK):
            return binary
    except OSError:
        pass
    try:
        os.makedirs(folder, 0o700)
    except OSError as e:
        if e.errno != errno.EEXIST:
            raise
    # Written under a private name and renamed into place, so a turn never runs a binary that
    # another process is still writing.
    partial = "%s.%d.partial" % (binary, os.getpid())
    archive = zipfile.ZipFile(os.path.abspath(sys.argv[0]))
    try:
        data = archive.read("stonebrain")
    finally:
        archive.close()
    with open(partial, "wb") as f:
        f.write(data)
    os.chmod(partial, 0o755)
    os.rename(partial, binary)
    return binary


def command_line(binary):
    argv = [
        binary,
        "--game",
        settings.GAME,
        "--botzone-language",
        "python",
        "--margin-ms",
        str(MARGIN_MS + started_ms_ago()),
    ]
    if settings.KEEP_RUNNING:
        argv.append("--keep-running")
    # Extra arguments (a search budget for a benchmark, a seed) go to the bot.
    return argv + sys.argv[1:]


def main():
    failures = []
    for directory in cache_dirs():
        try:
            binary = ready_binary(directory)
            os.execv(binary, command_line(binary))
        except (IOError, OSError) as e:
            failures.append("%s: %s" % (directory, e))
    # Only reached if no directory could hold and run the binary: say why, where Botzone
    # shows it (the debug field of the answer), and on standard error.
    reason = "stonebrain package: cannot run the bundled binary (" + "; ".join(failures) + ")"
    sys.stderr.write(reason + "\n")
    sys.stdout.write('{"response":null,"debug":%s}\n' % quote(reason))
    sys.stdout.flush()
    return 1


def quote(text):
    """`text` as a JSON string (the json module is not imported for one line)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if " " <= c else " " for c in escaped) + '"'


if __name__ == "__main__":
    sys.exit(main())
