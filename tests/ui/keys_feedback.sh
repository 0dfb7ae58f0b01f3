#!/bin/sh
# keys_feedback.sh: a key or command that cannot act says why, never nothing (headless,
# TSCOPE_SCRIPT): `:rank abc` and a bare `:rank` are refused (they went to rank 0), a bare
# `:pane` and `:view` give their usage (they said "no pane ''"), `:rank 99` on 16 ranks
# says the run has no such rank and names its ranks (it blamed the pane), or that --ranks
# left it out, a
# pane's own key elsewhere (m in Steps) and a tab key with no tab (8 without a sweep) say
# so, `:heatmap tasks` without DASF tasks names the grid (it blamed the steps), Enter on a
# row of the steps view opens that row's step (it opened step 0), the heatmap's `m` lists
# comm once, the legend's first level says it holds values just above the median, and
# `:` still works on the too-small screen (a `:resize` back from it); a DASF cell, a
# Cerebras file and a pair's Env and Findings tabs say what they hold. Enter where it opens
# nothing (Steps, an Overview without findings, a table without rows) and `e` with no file
# name say so; the hint row offers only the keys the pane has (f:filter where there are
# rows to filter, m:A/B/delta on a pair's heatmap alone, v:views in compare mode too). A
# script line with an unknown key name is quoted sanitized (an escape in it was raw).
# The ? overlay lists the number keys of the run's tabs as the title row shows them (a
# pair's 4 is Budget: it said Steps), and a command's usage whole (":objective
# METRIC:W,..." was clipped to 22 columns), at 100 and at 80 columns. `:dump` without a
# file gives its usage (it tried to write ""); `:heatmap tasks` without tasks is refused
# with why, no empty tab, and `:heatmap` lists only the grids the run has data for; the
# export prompt reads a leading ~/ as $HOME, as a shell; at 40x12 the too-small screen
# wraps its words to the width (they were cut). `s` on the Findings' severity sorts by
# severity, high first (it sorted A to Z).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
tui() {   # the explorer on ./keys, headless, 30x120
	TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui "$@" >/dev/null 2>err
}
msg() { tail -1 "$1"; }                # the hint / message row of a dump
status() { tail -2 "$1" | head -1; }   # the status row

cat >keys <<KEYS
:rank abc
:dump $PWD/rank_abc
:rank
:dump $PWD/rank_empty
:pane
:dump $PWD/pane_empty
:view
:dump $PWD/view_empty
:rank 99
:dump $PWD/rank99
4
:rank 5 
:dump $PWD/rank5
m
:dump $PWD/steps_m
8
:dump $PWD/no8
:heatmap tasks
:dump $PWD/tasks
:view steps
:filter rank=3 step=250
<Enter>
:dump $PWD/steps_enter
2
i
:dump $PWD/legend
<Esc>
:resize 20 60
:dump $PWD/small
<C-l>:resize 30 120<Enter>
:dump $PWD/back
KEYS
tui "$demo"
tap_eq "the script ran" 0 $?
tap_check ":rank abc is refused, not rank 0" 'msg rank_abc | grep -q "not a rank number: .abc."'
tap_check ":rank without a number gives its usage" 'msg rank_empty | grep -q "usage: :rank N"'
tap_check ":pane and :view without a name give their usage (not \"no pane ''\")" \
	'msg pane_empty | grep -q "usage: :pane NAME" && msg view_empty | grep -q "usage: :view NAME"'
tap_check ":rank 99 on 16 ranks: no such rank, the run's ranks named" \
	'msg rank99 | grep -q "no rank 99 in this run (ranks 0-15)\$"'
printf ':rank 5\n:dump %s/rank_left\n' "$PWD" >keys2
TSCOPE_SCRIPT=keys2 TERM=dumb LINES=30 COLUMNS=120 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui --ranks 0-3,9 "$demo" \
	>/dev/null 2>err
tap_check ":rank 5 under --ranks 0-3,9: not loaded, --ranks named" \
	'msg rank_left | grep -q "rank 5 is not loaded: --ranks 0-3,9 leaves it out (ranks 0-3,9 loaded)"'
tap_check ":rank 5 (a trailing blank) shows rank 5" 'status rank5 | grep -q "^ rank 5 step"'
tap_check "m in the Steps tab says it does nothing there" \
	'msg steps_m | grep -q "m (metric) does nothing in the Steps tab"'
tap_check "8 without a sweep says there is no sweep tab" 'msg no8 | grep -q "8: this run has no sweep tab"'
tap_check ":heatmap tasks without DASF tasks names that grid" \
	'grep -q "no Task balance heatmap: this run has no data for it" tasks && ! grep -q "aligned across ranks" tasks'
tap_check "Enter on a steps row opens that row's step" 'status steps_enter | grep -q "^ rank 3 step 250 "'
tap_check "legend: the quiet level holds values just above the median too" \
	'grep -q "quiet: the median, below it and just above" legend'
tap_check "too small: the screen says : runs a command" 'grep -q ": runs a command" small'
tap_check "too small: a typed :resize brings the panes back" 'grep -q "1 Overview" back'

# the heatmap's metrics: comm once (it was also listed again as a phase)
{ echo 2; i=0; while [ $i -lt 9 ]; do echo m; echo ":dump $PWD/m$i"; i=$((i + 1)); done; } >keys
tui "$demo"
for f in m0 m1 m2 m3 m4 m5 m6 m7 m8; do status $f; done | sed 's/^ rank 0  step 0-3  //; s/ worst .*//' >metrics
want="slowdown vs step median|step time|comm|data|forward|backward|optimizer|compute|slowdown vs step median"
tap_eq "m cycles each metric once" "$want" \
	"$(paste -sd'|' metrics)"
# other inputs: Enter on a DASF task-balance cell says it opens nothing (the legend says
# so too); a Cerebras file alone has no Sweep tab (it showed one that could not open); a
# pair's Env tab with no difference says the environments are identical, and its Findings
# tab tells severity_a from severity_b
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
"$B/gen_dasf" fixture dasf >/dev/null && "$B/gen_pair" pa 4 40 1 >/dev/null && "$B/gen_pair" pb 4 40 2 >/dev/null ||
	{ tap_notok "fixtures generated"; exit 0; }
printf '2\n<Enter>\n:dump %s/dcell\ni\n:dump %s/dlegend\n' "$PWD" "$PWD" >keys
tui dasf
tap_check "DASF heatmap: Enter on a cell says it opens nothing, and so does the legend" \
	'msg dcell | grep -q "nothing to open from a Task balance cell" && grep -q "opens nothing" dlegend'
mkdir -p cb && printf '{"ordinals":[{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}],%s}' \
	'"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0' >cb/performance.json
printf ':dump %s/cb1\n8\n:dump %s/cb8\n' "$PWD" "$PWD" >keys
tui cb
tap_check "a Cerebras file alone: no Sweep tab, 8 says so" \
	'! head -1 cb1 | grep -q Sweep && msg cb8 | grep -q "8: this run has no sweep tab"'
printf '5\n:dump %s/pf\n6\n:dump %s/penv\n' "$PWD" "$PWD" >keys
tui pa pb
tap_check "a pair: Findings headers severity_a / severity_b, Env says identical" \
	'grep -q "severity_a *severity_b" pf &&
	 grep -q "no difference: the lowest ranks. run.json environment and config" penv'
# Enter and e that did nothing in silence; the hint row per pane
cat >keys <<KEYS
:dump $PWD/h_heat
4<Enter>
:dump $PWD/h_steps
1<Enter>
:dump $PWD/h_ov
3
:dump $PWD/h_ranks
e<C-u><Enter>
:dump $PWD/h_export
e<C-u>-<Enter>
:dump $PWD/h_dash
5
:dump $PWD/h_budget
KEYS
tui pa
tap_check "Enter in Steps says it opens nothing there" 'msg h_steps | grep -q "^nothing to open in the Steps tab"'
tap_check "Enter on an Overview without findings says there is none" \
	'msg h_ov | grep -q "^no finding to open: the rules found none"'
tap_check "e with the file name cleared says the export is cancelled" \
	'msg h_export | grep -q "^export cancelled: no file name given"'
tap_check "e with - as the file name: refused, the terminal is the explorer's, no file named -" \
	'msg h_dash | grep -q "^cannot write to -: the explorer owns the terminal" && [ ! -e ./- ]'
tap_check "hint: f:filter on Ranks only, not on the heatmap, Steps, Overview or Budget" \
	'grep -q "f:filter" h_ranks && ! grep -q "f:filter" h_heat h_steps h_ov h_budget'
tap_check "hint: Enter:open where Enter opens (heatmap, Budget), not in Steps or an empty Overview" \
	'grep -q "Enter:open" h_heat && grep -q "Enter:open" h_budget && ! grep -q "Enter:open" h_steps h_ov'
printf ':dump %s/c_heat\n3\n:dump %s/c_ranks\n6<Enter>\n:dump %s/c_env\n' "$PWD" "$PWD" "$PWD" >keys
tui pa pb
tap_check "a pair's empty Env tab: Enter says it has no rows" \
	'msg c_env | grep -q "^nothing to open: diff_env has no rows"'
tap_check "a pair: m:A/B/delta on the heatmap only; v:views on every tab" \
	'grep -q "m:A/B/delta" c_heat && ! grep -q "m:A/B/delta" c_ranks c_env && grep -q "v:views" c_heat c_ranks'
printf ':resize 60 120\n?\n:dump %s/c_help\n' "$PWD" >keys
tui pa pb
tap_check "a pair's ? lists its tabs' number keys as its title row, not one run's" \
	'head -1 c_help | grep -q " 4 Budget  5 Findings  6 Env" && grep -q "^ 4  *Budget pane$" c_help &&
	 grep -q "^ 6  *Env pane$" c_help && ! grep -q "Steps pane\|Sources pane\|GPU time pane" c_help'
printf ':resize 60 120\n?\n:dump %s/d_help\n' "$PWD" >keys
tui "$demo"
tap_check "one run's ? lists its tabs with the table's rows, none it lacks" \
	'grep -q "^ 4  *steps  *Steps pane$" d_help && ! grep -q "Sweep pane\|GPU time pane" d_help'
for c in 100 80; do printf ':resize 30 %s\n?\nG\n:dump %s/u_help%s\n<Esc>\n' $c "$PWD" $c; done >keys
tui "$demo"
tap_check "? shows a command's usage whole, at 100 and at 80 columns" \
	'grep -q "^ :objective METRIC:W,\.\.\.  " u_help100 && grep -q "^ :objective METRIC:W,\.\.\.$" u_help80'
mkdir -p home
cat >keys <<KEYS
:dump
:dump $PWD/dump_empty
:heatmap tasks
:dump $PWD/tasks_refused
:heatmap
:dump $PWD/heat_usage
3
e<C-u>~/ranks.csv<Enter>
:dump $PWD/tilde
6
s
:dump $PWD/sev_s
s
:dump $PWD/sev_ss
:resize 12 40
:dump $PWD/small40
KEYS
(HOME="$PWD/home" && export HOME && tui "$demo")
tap_check ":dump without a file gives its usage" 'msg dump_empty | grep -q "^usage: :dump FILE\$"'
tap_check ":heatmap tasks without tasks: refused with why and the grids with data, no tab" \
	'msg tasks_refused | grep -q "^no Task balance heatmap: this run has no data for it (grids with data: steps)" &&
	 ! head -1 tasks_refused | grep -q "Task balance"'
tap_check ":heatmap lists only the grids the run has data for" \
	'msg heat_usage | grep -q "^usage: :heatmap NAME (grids: steps)\$"'
tap_check "export to ~/ranks.csv writes \$HOME/ranks.csv" \
	'msg tilde | grep -q "^exported 16 rows of .ranks. to $PWD/home/ranks.csv\$" &&
	 [ -s home/ranks.csv ] && [ ! -e "~" ]'
sevs() { sed -n '3,7p' "$1" | awk '{ print $1 }' | tr -d '▶' | paste -sd' '; }
tap_check "Findings: s sorts by severity, high first (it was A to Z), s again low first" \
	'[ "$(sevs sev_s)" = "high high med med low" ] && [ "$(sevs sev_ss)" = "low med med high high" ]'
tap_check "too small at 40x12: the words wrapped to the width, none cut" \
	'grep -q "^terminal too small: 40x12\$" small40 && grep -q "^need at least 80x24;\$" small40 &&
	 grep -q "^q quits, : runs a command\$" small40'
# Space pages the ? help and the i legend as PgDn does (it did nothing there); `:` on the
# too-small screen over an open overlay opens the prompt (it did nothing), the overlay
# still open after; e refuses a name of blanks alone like an empty one (it wrote "   "),
# and a name's trailing blank shows in quotes (the message hid it)
cat >keys <<KEYS
2
?
:dump $PWD/sp_help0
<Space>
:dump $PWD/sp_help1
<Esc>?<PgDn>
:dump $PWD/sp_help2
<Esc>i
:dump $PWD/sp_leg0
<Space>
:dump $PWD/sp_leg1
<Esc>i<PgDn>
:dump $PWD/sp_leg2
<Esc>?
:resize 20 60
<C-l>:
:dump $PWD/small_help
resize 30 120<Enter>
:dump $PWD/small_back
:resize 30 120
<Esc>3
e<C-u>   <Enter>
:dump $PWD/x_blank
e<C-u>ranks.csv <Enter>
:dump $PWD/x_trail
KEYS
tui "$demo"
tap_check "Space pages the ? help as PgDn does" \
	'! cmp -s sp_help0 sp_help1 && cmp -s sp_help1 sp_help2'
tap_check "Space pages the i legend as PgDn does" \
	'! cmp -s sp_leg0 sp_leg1 && cmp -s sp_leg1 sp_leg2'
tap_check "too small with ? open: : opens the command prompt" 'msg small_help | grep -q "^:_"'
tap_check "... a :resize back brings the panes, ? still open" \
	'grep -q "1 Overview" small_back && grep -q "Keys (Esc closes" small_back'
tap_check "e with a name of blanks alone: cancelled as with none, no file written" \
	'msg x_blank | grep -q "^export cancelled: no file name given" && [ ! -e "   " ]'
tap_check "e with a trailing blank: the file written, its name quoted in the message" \
	'msg x_trail | grep -q "^exported 16 rows of .ranks. to '"'ranks.csv '"'\$" && [ -s "ranks.csv " ]'
# blanks after a command are ignored as before it (":view nodes " said "no view 'nodes '");
# :heatmap of the grid 2 Heatmap shows goes to that tab (it opened a second one, the same);
# e's messages quote a path with a blank, failed too, and a blank before ~/ is no part of
# the name (it wrote " ~/lead.csv"); at 80 columns a message wider than the row is wrapped
# onto the rows above it whole, the status row above them (it was cut mid-sentence)
cat >keys <<KEYS
:view nodes 
:dump $PWD/b_view
:pane Ranks 
:dump $PWD/b_pane
:mouse off 
:dump $PWD/b_mouse
:heatmap steps 
:dump $PWD/b_heat
:heatmap steps
:dump $PWD/b_heat2
3
e<C-u>~/no dir/x.csv<Enter>
:dump $PWD/x_nodir
e<C-u> ~/lead.csv<Enter>
:dump $PWD/x_lead
:resize 24 80
e<C-u>-<Enter>
:dump $PWD/w_dash
KEYS
(HOME="$PWD/home" && export HOME && tui "$demo")
tap_check ":view nodes, :pane Ranks, :mouse off with a trailing blank: done, the blank ignored" \
	'status b_view | grep -q "^ nodes  row 1/" && status b_pane | grep -q "^ ranks  row 1/" &&
	 msg b_mouse | grep -q "^mouse off\$"'
tap_check ":heatmap steps goes to 2 Heatmap, the tab that shows that grid: no second tab" \
	'status b_heat | grep -q "^ rank 0  step" && ! head -1 b_heat | grep -q "Step heatmap" &&
	 ! head -1 b_heat2 | grep -q "Step heatmap"'
tap_check "e to a path with a blank that cannot be written: the message quotes it" \
	'msg x_nodir | grep -qF "cannot write '"'$PWD/home/no dir/x.csv'"': No such file or directory"'
tap_check "e to \" ~/lead.csv\": the blank before ~ ignored, \$HOME/lead.csv written" \
	'msg x_lead | grep -qF "exported 16 rows of '"'ranks'"' to $PWD/home/lead.csv" && [ -s home/lead.csv ] &&
	 [ ! -e " ~" ]'
dash="cannot write to -: the explorer owns the terminal; give a file name (--export VIEW - writes stdout)"
tap_check "80 columns: the refusal of - wraps whole onto the rows above, the status row above them" \
	'[ "$(tail -2 w_dash | paste -sd" ")" = "$dash" ] && tail -3 w_dash | head -1 | grep -q "^ ranks  row 1/16"'
printf ':heatmap tasks\n:dump %s/d_heat\n' "$PWD" >keys
tui dasf
tap_check "DASF: :heatmap tasks goes to 2 Heatmap, which shows the tasks grid: no second tab" \
	'! head -1 d_heat | grep -q "Task balance" && status d_heat | grep -q "^ worker worker-"'
printf 'j<Bogus>\033[2J\n' >keys
tui "$demo"
tap_check "an unknown key name in a script: exit 2, the line quoted sanitized" \
	'[ $? -eq 2 ] && grep -q "unknown key name in .<Bogus>^\[\[2J.$" err && ! grep -q "$(printf "\033")" err'
tap_plan
