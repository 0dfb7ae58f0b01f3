#!/bin/sh
# load_listing_tmux.sh: a cold run's ranks are parsed while its rank dirs are still
# being listed (model/steps/load_detect.c steps_discover_*; issue 15, progressive first
# frame). TSCOPE_LIST_DELAY_MS stands in for a slow file system: each rank dir's listing
# waits that long. With a listing that does not end, the loading screen is the partial
# Overview of the 5 ranks parsed, says "listing: j of 5 rank dirs so far", shows no bar
# and says the ETA is unknown (the bytes to read are not all known) rather than a wrong
# number; q cancels it at once (status 0). With a listing that ends after the parse,
# the explorer opens as usual and the run is the same as without the delay. An indexed
# open says "opening the index" (the part held open 3 s by strace), not MB it never read;
# a load with nothing known to read yet (the run dir's open held) "finding the run's files".
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/listing.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
"$gen" run 5 400 >/dev/null || exit 1
tmux_start listing 120 30 "$work"
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
cat >after.sh <<'SH'
echo "rc=$1"
SH
T send-keys -t listing "TSCOPE_LIST_DELAY_MS=600000 '$TSCOPE_BIN' --tui --no-index --jobs 1 run; sh after.sh \$?" Enter
wait_re "ranks +5 of 5 ranks loaded; listing"
scr=$tmux_screen
tap_check "the partial Overview has the ranks parsed while the rank dirs are listed" \
	'grep -qE "ranks +5 of 5 ranks loaded; listing: 0 of 5 rank dirs so far" "$scr" &&
	 grep -qE "step time +partial, 5 of 5 ranks: median [0-9.]+ ms" "$scr" &&
	 grep -qE "steps +0-399 so far \(longest rank 400 records, 2000 records in all\)" "$scr"'
tap_check "while listing, the bytes read and the rate, and the ETA is unknown (no wrong number, no bar)" \
	'grep -qE "Loading +[0-9.]+ MB read · [0-9.]+ MB/s · ETA unknown: listing, 0 rank dirs so far" "$scr" &&
	 ! grep -E "^ *Loading" "$scr" | grep -qE "ETA [0-9]|[0-9]%"'
tap_check "no verdict while loading" 'grep -qE "no verdict +n/a: loading \(5 of 5 ranks\)" "$scr"'
T send-keys -t listing q
wait_for "rc="
tap_check "q cancels a load whose listing goes on (status 0)" \
	'grep -q "tscope-tui: load cancelled" "$scr" && grep -q "^rc=0" "$scr"'
T send-keys -t listing "clear; TSCOPE_LIST_DELAY_MS=150 '$TSCOPE_BIN' --tui --no-index --jobs 1 run; sh after.sh \$?" Enter
wait_for "rank 0  step "
tap_check "a listing that ends after the parse: the explorer opens on the loaded run" \
	'! grep -q "loading run" "$scr" && grep -q "demo-ddp" "$scr"'
T send-keys -t listing Q
wait_for "rc="
tap_check "the explorer quits normally" 'grep -q "^rc=0" "$scr"'
# An indexed open maps the index (no bytes read): the loading screen says "opening the
# index", never a count of MB it did not read. strace holds the part's open for 3 s.
"$TSCOPE_BIN" index run >/dev/null 2>&1
if strace -f -qq -o /dev/null true 2>/dev/null; then
	T send-keys -t listing "clear; ASAN_OPTIONS=\${ASAN_OPTIONS:-}:detect_leaks=0 strace -f -qq -o /dev/null \
-P '$work/run/.tscope-index/steps-0-of-1.tsx' -e trace=openat -e inject=openat:delay_exit=3000000 \
'$TSCOPE_BIN' --tui '$work/run'; sh after.sh \$?" Enter
	wait_re "Loading +opening the index"
	tap_check "an indexed open: \"opening the index\" on the loading screen, no MB count" \
		'grep -qE "Loading +opening the index · [0-9.]+ s" "$scr" && ! grep -E "^ *Loading" "$scr" | grep -q "MB"'
	wait_for "rank 0  step "
	T send-keys -t listing Q
	wait_for "rc="
	T send-keys -t listing "clear; ASAN_OPTIONS=\${ASAN_OPTIONS:-}:detect_leaks=0 strace -f -qq -o /dev/null \
-P '$work/run' -e trace=openat -e inject=openat:delay_exit=3000000:when=1 \
'$TSCOPE_BIN' --tui --no-index '$work/run'; sh after.sh \$?" Enter
	wait_re "Loading +finding the run's files · [0-9.]+ s"
	tap_check "nothing known to read yet (the run dir's open held 3 s): \"finding the run's files\", no MB" \
		'! grep -E "^ *Loading" "$scr" | grep -q "MB"'
	wait_for "rank 0  step "
	T send-keys -t listing Q
	wait_for "rc="
else
	tap_skip "an indexed open's loading screen: strace cannot trace here"
	tap_skip "the loading screen before anything is known to read: strace cannot trace here"
fi
"$TSCOPE_BIN" --export ranks --no-index run >plain.csv 2>/dev/null
TSCOPE_LIST_DELAY_MS=50 "$TSCOPE_BIN" --export ranks --no-index run >slow.csv 2>/dev/null
tap_check "the same ranks view whether the listing ends first or last" 'cmp -s plain.csv slow.csv && [ -s plain.csv ]'
tap_plan
