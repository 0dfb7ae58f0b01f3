#!/bin/sh
# Dependency step shared by `make deps` (and so `make demo`, `make check`, `make bench`)
# and .ci/run. Sets: none (build), --test, --bench (fixtures + Python peers), --fuzz.
# Checks every build and test dependency; when something is missing and we are root
# with apt-get, installs it; otherwise prints the exact command to run and fails.
set -u
missing=""
have_hdr() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1; }
have_hdr curses.h   && pkg-config --exists ncursesw 2>/dev/null || missing="$missing libncurses-dev"
have_hdr csv.h      || missing="$missing libcsv-dev"
have_hdr jsmn.h     || missing="$missing libjsmn-dev"
have_hdr zlib.h     || missing="$missing zlib1g-dev"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v ${CC:-cc} >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
# the tests' and benchmarks' DASF fixtures are written with msgpack-c
if [ "${1:-}" = "--test" ] || [ "${1:-}" = "--bench" ]; then
	have_hdr msgpack.h || missing="$missing libmsgpack-dev"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
fi
# `make bench`: the DASF loader's peer is a bare Python msgpack loop (tests/bench_dasf.sh),
# the heatmap's is htop's repaint in the same pty (tests/bench_ui.sh)
if [ "${1:-}" = "--bench" ]; then
	python3 -c 'import msgpack' 2>/dev/null || /usr/bin/python3 -c 'import msgpack' 2>/dev/null ||
		missing="$missing python3-msgpack"
	command -v htop >/dev/null 2>&1 || missing="$missing htop"
fi
if [ "${1:-}" = "--test" ]; then
	command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
	command -v mandoc >/dev/null 2>&1 || missing="$missing mandoc"
	# a real one-node Slurm for tests/cli/slurm.sh (index --slurm)
	command -v slurmctld >/dev/null 2>&1 || missing="$missing slurmctld"
	command -v slurmd >/dev/null 2>&1 || missing="$missing slurmd"
	command -v sbatch >/dev/null 2>&1 || missing="$missing slurm-client"
	command -v munged >/dev/null 2>&1 || missing="$missing munge"
	# tests/cli/index_signal.sh: a signal injected at an exact write of the index
	command -v strace >/dev/null 2>&1 || missing="$missing strace"
	# tests/cli/progress.sh and index_signal.sh: a pty (util-linux script)
	command -v script >/dev/null 2>&1 || missing="$missing bsdutils"
	# tests/cli/filter_sort.sh: a locale with a decimal comma, built by localedef
	[ -f /usr/share/i18n/locales/de_DE ] || missing="$missing locales"
fi
# `make fuzz` (and CI's short pass): clang with libFuzzer and the sanitizer runtimes
if [ "${1:-}" = "--test" ] || [ "${1:-}" = "--fuzz" ]; then
	command -v clang >/dev/null 2>&1 || missing="$missing clang"
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' |
		clang -fsanitize=fuzzer,address,undefined -x c - -o /dev/null >/dev/null 2>&1 ||
		missing="$missing libclang-rt-dev"
fi
[ -z "$missing" ] && exit 0
cmd="apt-get install -y$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing" >&2
	apt-get update -qq >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || {
		echo "deps: '$cmd' failed" >&2; exit 1; }
	exit 0
fi
echo "deps: missing build dependencies:$missing" >&2
echo "deps: run:  sudo $cmd" >&2
exit 1
