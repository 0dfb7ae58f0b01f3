#!/bin/sh
# Heatmap full-repaint bytes (issue 17): for each bench input (the noisy real-looking
# 512 x 5,000 run, its spike-dense variant `spiky`, the noisy run at 1024 x 20,000 and
# the clean synthetic 1024 x 20,000 run of tests/bench_ui.sh) in each terminal a user
# may have (256 colours under xterm, tmux and screen, 8 colours, mono, ASCII glyphs
# under LC_ALL=C), the median bytes of three full repaints (Ctrl-L) and the median and maximum of five cursor
# moves at 200x50 (tests/bench_ui.py, BENCH_UI_PLAN=repaint); then htop in the same pty
# and terminals (Ctrl-L and Down). Bytes do not depend on the machine's load.
# BENCH_HEAT_INPUTS (e.g. "512 5000 spiky") narrows the inputs. Nothing is asserted
# (tests/ui/heatmap_bytes.sh pins the 12 KB bound on the 512-rank runs).
set -u
cd "$(dirname "$0")/.."
bin="${TSCOPE_BUILD:-build}/tests/bench_ui"
if ! command -v python3 >/dev/null 2>&1; then echo "bench_heat: python3 missing, skipped"; exit 0; fi
[ -x "$bin" ] || make -s "$bin" || exit 1
terms="xterm-256color:C.UTF-8 tmux-256color:C.UTF-8 screen-256color:C.UTF-8 xterm:C.UTF-8 vt100:C.UTF-8 xterm-256color:C"
inputs=${BENCH_HEAT_INPUTS:-"512 5000 noisy,512 5000 spiky,1024 20000 noisy,1024 20000"}
echo "BENCH_UI_PLAN=repaint BENCH_UI_TERM=T BENCH_UI_LC_ALL=L python3 tests/bench_ui.py $bin INPUT"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
printf '%-18s %-26s %8s %9s\n' input "TERM LC_ALL" repaint "move med/max"
IFS=,
for input in $inputs; do
	IFS=' '
	for t in $terms; do
		r=$(BENCH_UI_PLAN=repaint BENCH_UI_TERM=${t%:*} BENCH_UI_LC_ALL=${t#*:} python3 tests/bench_ui.py "$bin" $input 2>&1 |
			awk '/^full repaint/ { r = $(NF - 4) } /^heatmap cursor move/ { m = $(NF - 4) "/" $(NF - 3) } END { print r, m }')
		printf '%-18s %-26s %8s %9s\n' "$input" "${t%:*} ${t#*:}" ${r% *} ${r#* }
	done
	IFS=,
done
IFS=' '
if ! command -v htop >/dev/null 2>&1; then echo "peer htop: not installed (apt-get install htop), skipped"; exit 0; fi
for t in $terms; do
	r=$(BENCH_UI_TERM=${t%:*} BENCH_UI_LC_ALL=${t#*:} python3 tests/bench_ui.py --peer htop -d 100 2>&1 |
		awk '/^full repaint/ { r = $(NF - 1) } /^cursor move/ { m = $(NF - 1) "/" $NF } END { print r, m }')
	printf '%-18s %-26s %8s %9s\n' "htop -d 100" "${t%:*} ${t#*:}" ${r% *} ${r#* }
done
