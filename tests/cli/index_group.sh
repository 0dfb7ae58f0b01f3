#!/bin/sh
# index_group.sh: an index file is no more readable than its run, groups included
# (model/index/wfile.c). Group read is for a group: the parts and the summary keep it
# only when every source that grants it has one group, which they are given (they read
# rank 7's steps to a group that could not read it, 0640 root:root beside a 0640 file of
# another group); other read counts only with group read (a 0604 source shuts its group
# out, whom a 0604 index let in). Checked by mode and group, then as another user (uid
# 65534, setpriv) in one group: a member of the index files' group who cannot read a
# source cannot read them; a member of the sources' one group reads them. Needs root (it
# gives files groups this user is not in); the second user's checks need setpriv.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/index_group.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
if [ "$(id -u)" != 0 ]; then
	tap_skip "needs root: it gives sources a group this user is not in"
	tap_plan
	exit 0
fi
umask 022
mine=$(id -g)
other=$((mine + 4242)) # a group no file here has (root may give any)
idx=.tscope-index
# modes DIR: "MODE GROUP" of its two index files
modes() { stat -c '%a %g' "$1/$idx/steps-0-of-1.tsx" "$1/$idx/summary.tsx" | tr '\n' ' '; }
# reads GROUP DIR NAME: uid 65534 in GROUP alone reads DIR/NAME (DIR through a descriptor:
# the test dir's parents may be closed to that user)
reads() {
	setpriv --reuid=65534 --regid=65534 --groups="$1" sh -c 'cat "/proc/self/fd/3/$0"' "$3" 3<"$2" >/dev/null 2>&1
}
: >probe && chmod 644 probe
second=1
command -v setpriv >/dev/null 2>&1 && reads "$mine" . probe || second=0
no_second() { tap_skip "no second user here (setpriv absent or it cannot switch to uid 65534)"; }

# rank 7's steps.jsonl 0640 of another group; the rest 0644 of this user's
"$gen" a 8 50 >/dev/null || exit 1
chgrp "$other" a/rank7/steps.jsonl && chmod 640 a/rank7/steps.jsonl
"$T" index a >/dev/null 2>&1
tap_eq "a 0640 source of another group: the index files grant no group read (were 0640 of this user's group)" \
	"600 $mine 600 $mine " "$(modes a)"
if [ $second = 1 ]; then
	tap_check "... a member of the index files' group who cannot read rank 7's steps cannot read them either" \
		'! reads "$mine" a/rank7 steps.jsonl && ! reads "$mine" a/$idx steps-0-of-1.tsx &&
		 ! reads "$mine" a/$idx summary.tsx'
else
	no_second
fi

# every source 0640 of one other group, the dirs 0750: the index files are given that group
"$gen" b 4 20 >/dev/null || exit 1
chgrp -R "$other" b && find b -type f -exec chmod 640 {} + && find b -type d -exec chmod 750 {} +
"$T" index b >/dev/null 2>&1
tap_eq "every source 0640 of one other group: the index files 0640 of that group (were of this user's)" \
	"640 $other 640 $other " "$(modes b)"
if [ $second = 1 ]; then
	tap_check "... a member of that group reads them, a member of this user's group does not" \
		'reads "$other" b/$idx steps-0-of-1.tsx && reads "$other" b/$idx summary.tsx &&
		 ! reads "$mine" b/$idx steps-0-of-1.tsx'
else
	no_second
fi

# rank 3's steps.jsonl 0604 of another group (its members shut out, everyone else let in)
"$gen" c 4 20 >/dev/null || exit 1
chgrp "$other" c/rank3/steps.jsonl && chmod 604 c/rank3/steps.jsonl
"$T" index c >/dev/null 2>&1
tap_eq "a 0604 source: the index files 0600 (were 0604: readable by the group it shuts out)" \
	"600 $mine 600 $mine " "$(modes c)"
if [ $second = 1 ]; then
	tap_check "... a member of that group, who cannot read rank 3's steps, cannot read them" \
		'! reads "$other" c/rank3 steps.jsonl && ! reads "$other" c/$idx steps-0-of-1.tsx'
else
	no_second
fi

# every source 0644, one of another group: everyone reads every source, the files stay 0644
"$gen" d 4 20 >/dev/null || exit 1
chgrp "$other" d/rank1/steps.jsonl
"$T" index d >/dev/null 2>&1
tap_eq "sources readable by all, of two groups: the index files 0644 (the groups do not matter)" \
	"644 $mine 644 $mine " "$(modes d)"
tap_plan
