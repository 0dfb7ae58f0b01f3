#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# bench_ui.py: drive the explorer in a pty (200x50, xterm-256color, C.UTF-8) on a
# synthetic run (build/tests/bench_ui RANKS STEPS), send keys one at a time, read the
# terminal output until the explorer has logged that key's frame and 80 ms pass with no
# output, and record the bytes written per key.
# The explorer itself records the CPU time from key to doupdate() (TSCOPE_KEYTIME), and
# per step of the findings it computes while no key waits (TSCOPE_IDLETIME).
# Usage: bench_ui.py BENCH_BIN RANKS STEPS [noisy|spiky]
#        bench_ui.py --peer COMMAND...   a peer (e.g. htop -d 100) in the same pty:
#        bytes of three full repaints (Ctrl-L) and ten cursor moves (Down), one at a time
#   noisy: the real-looking run (per-rank speeds, jitter, stalls, four slow ranks, rare
#   spikes; spiky: a spike in about one cell in ten) and the heatmap keys only: full
#   repaints (Ctrl-L), cursor moves, pans, zoom. With BENCH_UI_DUMP=FILE the bytes of
#   the last full repaint are written to FILE; BENCH_UI_PLAN=repaint sends only three
#   full repaints and five cursor moves (tests/ui/heatmap_bytes.sh).
import fcntl, os, pty, select, shutil, struct, sys, tempfile, termios, time

def read_quiet(fd, quiet, first_timeout, sink):
    """Read fd until `quiet` seconds pass without output (at most first_timeout for the
    first byte); append the chunks to sink; return the byte count."""
    got, deadline = 0, time.time() + first_timeout
    while True:
        timeout = quiet if got else max(0.0, deadline - time.time())
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            return got
        try:
            data = os.read(fd, 65536)
        except OSError:
            return got
        if not data:
            return got
        got += len(data)
        sink.append(data)


def peer(argv):
    env = dict(os.environ, TERM=os.environ.get("BENCH_UI_TERM", "xterm-256color"),
               LC_ALL=os.environ.get("BENCH_UI_LC_ALL", "C.UTF-8"))
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        os.execvpe(argv[0], argv, env)

    def drain(quiet, first):
        return read_quiet(fd, quiet, first, [])

    start = drain(0.5, 5.0)
    rows = []
    for label, key, n in (("full repaint (Ctrl-L)", b"\x0c", 3), ("cursor move (Down)", b"\x1b[B", 10)):
        v = []
        for _ in range(n):
            os.write(fd, key)
            v.append(drain(0.25, 2.0))
        rows.append((label, sorted(v)))
    os.write(fd, b"q")
    drain(0.3, 2.0)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print(f"peer {' '.join(argv)}: first frame {start} B")
    for label, v in rows:
        print(f"{label:34} {len(v):4d} {v[len(v) // 2]:9d} {v[-1]:9d}")


def main():
    if sys.argv[1] == "--peer":
        return peer(sys.argv[2:])
    binary, ranks, steps = sys.argv[1], sys.argv[2], sys.argv[3]
    kind = sys.argv[4] if len(sys.argv) > 4 else ""
    noisy = kind in ("noisy", "spiky")
    dump = os.environ.get("BENCH_UI_DUMP")
    keytime = tempfile.mktemp(prefix="tscope-keytime.")
    idletime = tempfile.mktemp(prefix="tscope-idletime.")
    # a fresh state dir: a pane or filter saved by an earlier run must not change the figures
    # BENCH_UI_TERM / BENCH_UI_LC_ALL: another colour tier (xterm: 8, vt100: mono) or ASCII (C)
    state = tempfile.mkdtemp(prefix="tscope-state.")
    env = dict(os.environ, TERM=os.environ.get("BENCH_UI_TERM", "xterm-256color"),
               LC_ALL=os.environ.get("BENCH_UI_LC_ALL", "C.UTF-8"), TSCOPE_KEYTIME=keytime,
               TSCOPE_IDLETIME=idletime, XDG_STATE_HOME=state)
    env.pop("NO_COLOR", None)
    env.pop("TSCOPE_SCRIPT", None)
    t_start = time.time()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        os.execve(binary, [binary, ranks, steps] + ([kind] if noisy else []), env)

    def wait_ready(marker, quiet):
        buf, deadline = b"", time.time() + 600
        while marker not in buf and time.time() < deadline:
            r, _, _ = select.select([fd], [], [], 1.0)
            if r:
                buf += os.read(fd, 65536)
        return len(buf) + drain(quiet, quiet)

    last = []  # the bytes of the key being measured (for BENCH_UI_DUMP)

    def drain(quiet, first_timeout):
        return read_quiet(fd, quiet, first_timeout, last)

    start_bytes = wait_ready(b"Overview", 0.5)
    t_ready = time.time() - t_start
    plan = []  # (category, key bytes, count)
    plan += [("heatmap cursor move", b"l", 40), ("heatmap cursor move", b"j", 20), ("heatmap cursor move", b"h", 20)]
    plan += [("first n (runs the distributed analysis)", b"n", 1)]
    plan += [("heatmap straggler jump (n)", b"n", 3)]
    plan += [("heatmap zoom (+/-)", b"+", 3)]
    plan += [("heatmap pan half screen (L/H)", b"L", 4), ("heatmap pan half screen (L/H)", b"H", 4)]
    plan += [("heatmap cursor move (zoomed in)", b"l", 20)]
    plan += [("heatmap zoom (+/-)", b"-", 3)]
    plan += [("full repaint (Ctrl-L)", b"\x0c", 3)]
    plan += [("heatmap search (/rank 1000, each key)", bytes([c]), 1) for c in b"/rank 1000"]
    plan += [("heatmap search: Enter, n, Esc", k, 1) for k in (b"\r", b"n", b"\x1b")]
    plan += [("first visit of each pane (Tab)", b"\t", 7)]
    plan += [("pane switch (Tab)", b"\t", 7)]
    plan += [("ranks: go to pane", b"3", 1)]
    plan += [("ranks cursor move", b"j", 45)]
    plan += [("ranks one-row scroll", b"j", 40)]
    plan += [("ranks page down", b"\x1b[6~", 5)]
    plan += [("ranks search (/yes, each key, 1024 rows)", bytes([c]), 1) for c in b"/yes"]
    plan += [("ranks search: Enter, n, Esc", k, 1) for k in (b"\r", b"n", b"\x1b")]
    plan += [("full repaint (Ctrl-L)", b"\x0c", 3)]
    plan += [("steps: go to pane", b"4", 1), ("steps cursor move", b"l", 20), ("steps cursor move", b"h", 10)]
    plan += [("budget: go to pane", b"5", 1), ("budget rank move", b"j", 20)]
    plan += [("heatmap: back", b"2", 1)]
    plan += [("heatmap metric switch (m)", b"m", 2)]
    if noisy:
        plan = [("full repaint (Ctrl-L)", b"\x0c", 5)]
        plan += [("heatmap cursor move", b"l", 40), ("heatmap cursor move", b"j", 20), ("heatmap cursor move", b"h", 20)]
        plan += [("heatmap pan half screen (L/H)", b"L", 4), ("heatmap pan half screen (L/H)", b"H", 4)]
        plan += [("heatmap zoom (+/-)", b"+", 2), ("heatmap zoom (+/-)", b"-", 2)]
        plan += [("full repaint (Ctrl-L)", b"\x0c", 5)]
    if os.environ.get("BENCH_UI_PLAN") == "big":  # every key a user presses, on a huge indexed run
        plan = [("heatmap cursor move (h/j/k/l)", k, n) for k, n in ((b"l", 20), (b"j", 20), (b"k", 10), (b"h", 10))]
        plan += [("heatmap page down / g / G", k, n) for k, n in ((b"\x1b[6~", 3), (b"G", 1), (b"g", 1))]
        plan += [("first n (from the summary)", b"n", 1), ("heatmap straggler jump (n)", b"n", 3)]
        plan += [("heatmap zoom (+/-)", b"+", 4), ("heatmap pan half screen (L/H)", b"L", 3),
                 ("heatmap pan half screen (L/H)", b"H", 3), ("heatmap cursor move (zoomed in)", b"l", 10),
                 ("heatmap zoom (+/-)", b"-", 4)]
        plan += [("heatmap one row per rank (z), moves", k, n) for k, n in ((b"z", 1), (b"j", 20), (b"\x1b[6~", 3),
                                                                         (b"+", 3), (b"L", 2), (b"-", 3))]
        plan += [("heatmap one row per rank (z), moves", b"z", 1)]
        plan += [("heatmap drill-down (Enter, Esc)", k, 1) for k in (b"\r", b"\x1b")]
        plan += [("heatmap metric switch (m)", b"m", 3)]
        plan += [("full repaint (Ctrl-L)", b"\x0c", 3)]
        plan += [("heatmap search (/rank 9999, each key)", bytes([c]), 1) for c in b"/rank 9999"]
        plan += [("heatmap search: Enter, n, Esc", k, 1) for k in (b"\r", b"n", b"\x1b")]
        plan += [("first visit of each pane (Tab)", b"\t", 7), ("pane switch (Tab)", b"\t", 7)]
        plan += [("ranks: go to pane", b"3", 1), ("ranks cursor move", b"j", 40), ("ranks page down / g / G", b"\x1b[6~", 5)]
        plan += [("ranks page down / g / G", k, 1) for k in (b"G", b"g")]
        plan += [("ranks search (/yes, each key)", bytes([c]), 1) for c in b"/yes"]
        plan += [("ranks search: Enter, n, Esc", k, 1) for k in (b"\r", b"n", b"\x1b")]
        plan += [("steps: go to pane", b"4", 1), ("steps cursor move", b"l", 10), ("steps rank change (j)", b"j", 3)]
        plan += [("budget: go to pane", b"5", 1), ("budget rank move", b"j", 10)]
        plan += [("heatmap: back", b"2", 1)]
    if os.environ.get("BENCH_UI_PLAN") == "repaint":
        plan = [("full repaint (Ctrl-L)", b"\x0c", 3), ("heatmap cursor move", b"l", 5)]
    results = []
    def timed_frames():
        try:
            with open(keytime) as f:
                return sum(1 for _ in f)
        except OSError:
            return 0

    # One key at a time: wait until the explorer has logged the key's frame (its CPU
    # time line is written after doupdate()), then collect the bytes until 80 ms of quiet.
    sent = 0
    for cat, key, count, *_ in plan:
        for _ in range(count):
            os.write(fd, key)
            sent += 1
            last.clear()
            nbytes, deadline = 0, time.time() + 120
            while timed_frames() < sent and time.time() < deadline:
                nbytes += drain(0.05, 0.05)
            results.append((cat, nbytes + drain(0.08, 0.08)))
            if dump and key == b"\x0c":
                with open(dump, "wb") as f:
                    f.write(b"".join(last))
    os.write(fd, b"q")
    drain(0.3, 5.0)
    _, _, ru = os.wait4(pid, 0)
    shutil.rmtree(state, ignore_errors=True)  # the explorer's saved pane, filters: this run's only
    times, walls = [], []
    with open(keytime) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                times.append(float(parts[1]))
                walls.append(float(parts[2]) if len(parts) > 2 else float("nan"))
    os.unlink(keytime)
    if len(times) != len(results):
        print(f"# warning: {len(times)} timed frames for {len(results)} keys", file=sys.stderr)
    cats = {}
    for i, (cat, nbytes) in enumerate(results):
        cats.setdefault(cat, ([], [], []))
        cats[cat][0].append(nbytes)
        if i < len(times):
            cats[cat][1].append(times[i])
            cats[cat][2].append(walls[i])

    def pct(v, q):
        v = sorted(v)
        return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))] if v else float("nan")

    print(f"run {ranks} ranks x {steps} steps{f' ({kind})' if noisy else ''}; ready after {t_ready:.1f} s (load + analysis + first frame), first frame {start_bytes} B")
    print(f"{'action':34} {'keys':>4} {'bytes med':>9} {'bytes max':>9} {'cpu p50 ms':>10} {'cpu p99 ms':>10} {'cpu max ms':>10} {'wall p50':>9} {'wall p99':>9}")
    nav, nav_w, every, every_w = [], [], [], []
    for cat, (b, t, w) in cats.items():
        print(f"{cat:34} {len(b):4d} {pct(b, 50):9d} {max(b):9d} {pct(t, 50):10.2f} {pct(t, 99):10.2f} {max(t) if t else float('nan'):10.2f} {pct(w, 50):9.2f} {pct(w, 99):9.2f}")
        every += t
        every_w += w
        if "metric switch" not in cat and "go to pane" not in cat and "first" not in cat and "search" not in cat:
            nav += t
            nav_w += w
    print(f"navigation keys (all but metric switch, first n, first pane visit, search): {len(nav)} keys, "
          f"CPU p50 {pct(nav, 50):.2f} ms, p99 {pct(nav, 99):.2f} ms, max {max(nav):.2f} ms; "
          f"wall p50 {pct(nav_w, 50):.2f} ms, p99 {pct(nav_w, 99):.2f} ms")
    print(f"every key: {len(every)} keys, CPU p50 {pct(every, 50):.2f} ms, p99 {pct(every, 99):.2f} ms, "
          f"max {max(every):.2f} ms; wall p50 {pct(every_w, 50):.2f} ms, p99 {pct(every_w, 99):.2f} ms, "
          f"max {max(every_w):.2f} ms")
    idle = []
    if os.path.exists(idletime):
        with open(idletime) as f:
            idle = [float(line.split()[1]) for line in f if line.startswith("idle ")]
        os.unlink(idletime)
    if idle:
        print(f"findings in idle time: {len(idle)} steps, {sum(idle):.1f} ms CPU in all; per step CPU p50 "
              f"{pct(idle, 50):.2f} ms, p99 {pct(idle, 99):.2f} ms, max {max(idle):.2f} ms (what a key typed meanwhile waits for)")
    print(f"explorer process: peak RSS {ru.ru_maxrss / 1024:.0f} MB, CPU {ru.ru_utime:.2f} user + {ru.ru_stime:.2f} sys s"
          f" (start-up, every key, exit)")

main()
