#!/bin/sh
# man_lint.sh: man/tscope-tui.1 is valid mdoc with no mandoc warnings, and documents
# every long option that --help lists; it and the README state the index format version
# the code writes.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
man="$TSCOPE_ROOT/man/tscope-tui.1"
if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -Tlint -Wwarning "$man" 2>&1)
	if [ -z "$out" ]; then tap_ok "mandoc -Tlint: no warnings"; else
		tap_notok "mandoc -Tlint: warnings"; echo "$out" | sed 's/^/# /'; fi
else
	tap_skip "mandoc is not installed"
fi
for opt in $("$TSCOPE_BIN" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	name=${opt#--}
	if grep -q -- "Fl \\\\-$name\\b\|Fl \\\\-$name\$\|Fl -$name\\b" "$man"; then
		tap_ok "man page documents $opt"
	else
		tap_notok "man page documents $opt"
	fi
done
# The index format version the man page and README state is the one index files carry.
v=$(sed -n 's/^#define INDEX_VERSION \([0-9]*\)u$/\1/p' "$TSCOPE_ROOT/model/index/index.h")
tap_check "man page and README state index format $v (model/index/index.h)" \
	'grep -q "^This is index format $v;" "$man" &&
	 grep -q "format $v; an index of another format" "$TSCOPE_ROOT/README.md"'
tap_plan
