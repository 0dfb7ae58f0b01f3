#!/bin/sh
# makefile.sh: the build's promises that a test can keep: every object that embeds the
# version is rebuilt on a new commit (it depends on the version stamp), a build outside a
# git checkout says its version is 'unknown' (never a made-up number), and `make` and
# `make install` check the build dependencies (.ci/deps.sh) before compiling anything, so
# a missing header is named with the apt-get command, not met as a compiler error.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_ROOT" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL   # run by `make check`: a make of its own, not a sub-make
stale=$(for f in $(grep -l "TSCOPE_VERSION" src/*.c model/*.c model/*/*.c ui/*.c); do
	o="\$(BUILD)/${f%.c}.o"; [ "$f" = src/main.c ] && o='$(MAIN_OBJ)'
	grep ': \$(VERSION_STAMP)$' Makefile | grep -qF "$o" || echo "$f"; done)
tap_eq "each source that embeds the version depends on the version stamp" "" "$stale"
v=$(GIT_DIR=/nonexistent make --no-print-directory -n BUILD="$TSCOPE_TMP/nogit" 2>/dev/null |
	grep -o "TSCOPE_VERSION='[^']*'" | sort -u)
tap_eq "outside a git checkout the version is 'unknown', never a made-up number" "TSCOPE_VERSION='\"unknown\"'" "$v"
first=$(make --no-print-directory -n BUILD="$TSCOPE_TMP/fresh" all 2>/dev/null | head -1)
tap_eq "make: the dependency check before the first compile" "sh .ci/deps.sh" "$first"
first=$(make --no-print-directory -n BUILD="$TSCOPE_TMP/fresh" PREFIX="$TSCOPE_TMP/pfx" install 2>/dev/null |
	head -1)
tap_eq "make install: the dependency check before the first compile" "sh .ci/deps.sh" "$first"
tap_plan
