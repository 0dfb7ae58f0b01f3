#!/bin/sh
# bench_browse.sh: issue 15's browse target, 10,000 ranks x 100,000 steps from the index:
# every key -> frame <= 50 ms p99 and RSS <= 2 GB. No such JSONL exists here (~350 GB), so
# tests/tools/gen_index writes the index directly: a gen_demo template of
# BENCH_BROWSE_TEMPLATE ranks x BENCH_BROWSE_STEPS steps, loaded with the project's loader,
# copied to BENCH_BROWSE_RANKS ranks (rank i = template rank i mod D; shared bodies and
# pyramid rows, placeholder empty steps.jsonl; see gen_index.c and BENCHMARKS.md for
# what is shared and why a frame's cost is still the real one). Then:
#   - the explorer's first frame from the index (script + --max-frames 1): CPU s, peak RSS;
#   - tests/bench_ui.py with BENCH_UI_PLAN=big: every key a user presses (moves, page
#     down, g/G, n, zoom, pan, one row per rank, Enter, m, Ctrl-L, /search, Tab through the
#     panes, Ranks, Steps, Budget), CPU and wall ms per key (TSCOPE_KEYTIME), the
#     explorer's peak RSS.
# Opt-in (BENCH_INDEX_HUGE=1 make bench, or BENCH_INDEX_HUGE=1 sh tests/bench_browse.sh): it writes
# ~1.5 GB of template JSONL (deleted once the index is written) and ~0.3 GB of index
# under BENCH_BROWSE_DIR (default: a temp dir, removed at the end; BENCH_KEEP=1 keeps it).
set -u
[ "${BENCH_INDEX_HUGE:-0}" = 1 ] || { echo "bench_browse: opt-in, skipped (BENCH_INDEX_HUGE=1)"; exit 0; }
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
ranks=${BENCH_BROWSE_RANKS:-10000}
steps=${BENCH_BROWSE_STEPS:-100000}
tmpl=${BENCH_BROWSE_TEMPLATE:-40}
dir=${BENCH_BROWSE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tscope-browse.XXXXXX")}
mkdir -p "$dir" || exit 1
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir/run" "$dir/tmpl" "$dir"/*.t "$dir/wrap.sh"; rmdir "$dir" 2>/dev/null' EXIT
ulimit -v 8000000 2>/dev/null   # 8 GB of address space: a runaway shows as a failure, not an OOM kill
run="$dir/run"
cpu_of() { awk '{printf "%.2f", $1 + $2}' "$1"; }
mb_of() { awk '{printf "%.0f", $3 / 1024}' "$1"; }

# The summary is tied to the tscope-tui build that wrote it: a summary of another build
# would be recomputed from every rank's steps (all bodies read: tens of GB at this size),
# so the index is written again by this build's gen_index each time (the template stays
# with BENCH_KEEP=1).
[ -d "$dir/tmpl" ] || "$BUILD/tests/gen_demo" "$dir/tmpl" "$tmpl" "$steps" >/dev/null || exit 1
rm -rf "$run"
/usr/bin/time -f '%U %S %M' -o "$dir/gen.t" "$BUILD/tests/gen_index" "$dir/tmpl" "$run" "$ranks" --placeholder || exit 1
echo "gen_index: $(cpu_of "$dir/gen.t") CPU s, $(mb_of "$dir/gen.t") MB peak (load the template, write the index)"
echo "index: $(du -sb "$run/.tscope-index" | cut -f1) bytes on disk ($(ls "$run" | wc -l) rank dirs); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BIN" --print --format pytscope "$run" >/dev/null 2>&1   # warm the page cache
/usr/bin/time -f '%U %S %M' -o "$dir/ff.t" script -qec "$BIN --tui --max-frames 1 --format pytscope $run" /dev/null >/dev/null
echo "first frame from the index: $(cpu_of "$dir/ff.t") CPU s, $(mb_of "$dir/ff.t") MB peak RSS"
bin_abs="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
cat >"$dir/wrap.sh" <<SH
#!/bin/sh
exec "$bin_abs" --tui --format pytscope "$run"
SH
chmod +x "$dir/wrap.sh"
BENCH_UI_PLAN=big python3 tests/bench_ui.py "$dir/wrap.sh" "$ranks" "$steps"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: BENCH_INDEX_HUGE=1 sh tests/bench_browse.sh   (BENCH_BROWSE_RANKS/STEPS/TEMPLATE resize)"
