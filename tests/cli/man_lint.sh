#!/bin/sh
# man_lint.sh: man/tscope-tui.1 is valid mdoc with no mandoc warnings, and documents
# every long option that --help lists.
set -u
man="$TSCOPE_ROOT/man/tscope-tui.1"
if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -Tlint -Wwarning "$man" 2>&1)
	if [ -z "$out" ]; then echo "ok 1 - mandoc -Tlint: no warnings"; else
		echo "not ok 1 - mandoc -Tlint: warnings"; echo "$out" | sed 's/^/# /'; fi
else
	echo "ok 1 # SKIP mandoc is not installed"
fi
n=1
for opt in $("$TSCOPE_BIN" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	n=$((n + 1))
	name=${opt#--}
	if grep -q -- "Fl \\\\-$name\\b\|Fl \\\\-$name\$\|Fl -$name\\b" "$man"; then
		echo "ok $n - man page documents $opt"
	else
		echo "not ok $n - man page documents $opt"
	fi
done
