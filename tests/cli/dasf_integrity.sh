#!/bin/sh
# dasf_integrity.sh: DASF databases whose values or framing cannot be taken at their word
# (written by the Python below, DASF's record layout): a gpu_utilization that is NaN, inf,
# out of 0..100 or a string is no GPU sample (one warning a file with the count, the first
# offset and value; never "CPU-only"; empty GPU cells; GPU idle not judged), a NaN
# gpu_memory_used leaves the memory missing; a record length that fits the file but frames
# no record (100, 300 or 700 for a record of 144 bytes) resynchronises on the next whole
# record, one record skipped and said, while a corrupt record of the right length is
# "malformed" and the walk goes on; a negative size is missing and a negative tasks count
# skips its event, both said; databases mixed without a word: one host's TracePlugin and
# ResourceMonitor files of two runs, one worker's tasks in two default-named
# traces-<uuid8> files (not a copy: two runs), a batch written twice in one file; a copied
# ResourceMonitor database or one with Managed Memory events: warned, its repeated samples
# and events left out (GPU idle not judged on 3 samples, not found on 6); workers with
# Managed Memory events alone weigh in the worker imbalance at 0 s busy, as the headline
# counts them (the two workers with tasks, 4 s each, tie for busiest: both named).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=${TSCOPE_BIN:?}
cd "$TSCOPE_TMP" || exit 1

python3 - <<'EOF' || { tap_notok "databases written"; tap_plan; exit 0; }
import os, struct
def pack(o):
    if o is None: return b'\xc0'
    if isinstance(o, bool): return b'\xc3' if o else b'\xc2'
    if isinstance(o, int): return b'\xd3' + struct.pack('>q', o)
    if isinstance(o, float): return b'\xcb' + struct.pack('>d', o)
    if isinstance(o, str):
        b = o.encode()
        return b'\xd9' + bytes([len(b)]) + b
    if isinstance(o, list): return bytes([0x90 | len(o)]) + b''.join(pack(x) for x in o)
    return bytes([0x80 | len(o)]) + b''.join(pack(k) + pack(v) for k, v in o.items())
def rec(o):
    b = pack(o)
    return struct.pack('>Q', len(b)) + b
def compute(key, ts, thread='worker-h-0', host='h', size=1000):
    return rec({'name': 'Compute', 'timestamp': ts, 'duration': 1.0, 'phase': 'X', 'process_id': host,
                'thread_id': thread, 'args': {'key': key, 'name': key.split('-')[0], 'size': size}})
def memory(ts, tasks, size=1000, thread='worker-h-0'):
    return rec({'name': 'Managed Memory', 'timestamp': ts, 'phase': 'I', 'scope': 'g', 'process_id': 'h',
                'thread_id': thread, 'args': {'key': 'a-0', 'size': size, 'tasks': tasks}})
def resource(ts, util, mem=1e9, host='h'):
    return rec({'name': 'Resource Usage', 'timestamp': ts, 'phase': 'I', 'scope': 'g', 'process_id': host,
                'thread_id': None, 'args': {'cpu': 10.0, 'gpu_utilization': util, 'gpu_memory_used': mem}})
def write(path, recs):
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    open(path, 'wb').write(b''.join(recs))
tasks = [compute('a-%d' % i, 10.0 + i) for i in range(4)]
tasks += [compute('b-%d' % i, 10.0 + i, 'worker-h-1') for i in range(4)]
write('gpunan/p-TracePlugin-h.msgpack', tasks)
write('gpunan/p-ResourceMonitor-h.msgpack', [resource(10.2 + 0.5 * i, float('nan'), float('nan')) for i in range(6)])
write('range/p-TracePlugin-h.msgpack', tasks)
write('range/p-ResourceMonitor-h.msgpack', [resource(10.5, -50.0), resource(11.5, 250.0), resource(12.5, float('inf')),
                                           resource(10.2, 5.0, float('nan'))])
write('str/p-TracePlugin-h.msgpack', tasks)
write('str/p-ResourceMonitor-h.msgpack', [resource(10.2 + i, 'busy') for i in range(6)])
base = [compute('a-%d' % i, 10.0 + i, 'worker-h-%d' % (i % 2)) for i in range(6)]
assert all(len(r) == 152 for r in base)  # 8 + 144 bytes each
n = len(base[0])
for bad in (100, 300, 700):
    d = bytearray(b''.join(base))
    d[n:n + 8] = struct.pack('>Q', bad)
    write('len%d.msgpack' % bad, [bytes(d)])
d = bytearray(b''.join(base))
d[n + 8] = 0xc1  # the second record's map marker: reserved, its length right
write('corrupt.msgpack', [bytes(d)])
write('neg.msgpack', [compute('a-0', 10.0, size=-5), compute('a-1', 11.0), memory(10.5, 1), memory(11.5, -3),
                      memory(12.5, 2, size=-7)])
fits = [compute('fit-%d' % i, 100.0 + i, 'worker-c096-0', 'c096') for i in range(8)]
write('mix/trainA-TracePlugin-c096.msgpack', fits)
write('mix/trainB-ResourceMonitor-c096.msgpack', [resource(100.5 + i, 2, host='c096') for i in range(8)])
run1 = [compute('load-1a2b%d' % i, 100.0 + i, 'worker-c096-%d' % (i % 2), 'c096') for i in range(6)]
run2 = [compute('load-9f8e%d' % i, 5000.0 + i, 'worker-c096-%d' % (i % 2), 'c096') for i in range(6)]
write('uuid/traces-1a2b3c4d.msgpack', run1)
write('uuid/traces-9f8e7d6c.msgpack', run2)
write('uuidcopy/traces-1a2b3c4d.msgpack', run1)
write('uuidcopy/traces-5e6f7a8b.msgpack', run1)
write('dup.msgpack', tasks + tasks[:4])
res3 = [resource(10.2 + 0.3 * i, 2.0) for i in range(3)]
write('rescopy/p-TracePlugin-h.msgpack', [compute('a-1', 10.0), compute('b-1', 10.0, 'worker-h-1')])
write('rescopy/p-ResourceMonitor-h.msgpack', res3)
write('rescopy/p-ResourceMonitor-h (copy).msgpack', res3)
memdb = [compute('a-%d' % i, 10.0 + i) for i in range(2)] + [memory(10.5 + i, i + 1) for i in range(3)]
write('memcopy/p-TracePlugin-h.msgpack', memdb)
write('memcopy/p-TracePlugin-h (copy).msgpack', memdb)
idle = [memory(10.5 + i, 1, thread='worker-h-%d' % i) for i in range(4)]
write('idlew.msgpack', [compute('a-%d' % i, 10.0 + i, 'worker-h-%d' % (i % 2)) for i in range(8)] + idle)
write('idlew1.msgpack', [compute('a-%d' % i, 10.0 + i) for i in range(8)] + idle)
EOF

sources() { "$BIN" --export sources "$@" 2>/dev/null; }
report() { "$BIN" --print --no-index --color never "$@" 2>/dev/null; }

# --- GPU samples that are no GPU samples -----------------------------------------------
sources gpunan >nan_src.csv
"$BIN" --export function_bottleneck gpunan >nan_fb.csv 2>/dev/null
report gpunan >nan.txt
tap_check "NaN gpu_utilization: one warning with the count, first offset and value; not CPU-only" \
	'grep -q "^warning,gpunan/p-ResourceMonitor-h.msgpack,,,,0,,,6 Resource Usage samples have a gpu_utilization \
that is not a number from 0 to 100 (the first: nan): not GPU samples$" nan_src.csv && ! grep -q "CPU-only" nan_src.csv'
tap_check "NaN gpu_utilization: the GPU cells are empty (CSV, report), never nan" \
	'grep -q "^h,0,a,4,100,,,0,0,4,1$" nan_fb.csv && grep -q "^h,1,b,4,100,,,0,0,4,1$" nan_fb.csv &&
	 ! grep -qiw "nan" nan_fb.csv nan.txt'
tap_check "NaN gpu_utilization: GPU idle is not judged, said why, not a clean bill" \
	'grep -q "^  - GPU idle while tasks run (no GPU utilisation sample)$" nan.txt'
sources range >range_src.csv
"$BIN" --export function_bottleneck range >range_fb.csv 2>/dev/null
tap_check "-50, 250 and inf: not GPU samples (counted, the first named); the 5% sample kept" \
	'grep -q ",0,,,3 Resource Usage samples have a gpu_utilization that is not a number from 0 to 100 \
(the first: -50): not GPU samples$" range_src.csv && grep -q "^h,0,a,4,100,5,,0,0,4,1$" range_fb.csv'
tap_check "a NaN gpu_memory_used: its memory missing, said with its offset" \
	'grep -q "^warning,range/p-ResourceMonitor-h.msgpack,,,,[1-9][0-9]*,,,1 Resource Usage sample has a \
gpu_memory_used that is not a byte count (the first: nan): its GPU memory is missing$" range_src.csv'
sources str >str_src.csv
tap_check "a string gpu_utilization: not a GPU sample, never called a CPU-only host" \
	'grep -q ",6 Resource Usage samples have a gpu_utilization that is not a number from 0 to 100 \
(the first: a string): not GPU samples$" str_src.csv && ! grep -q "CPU-only" str_src.csv'

# --- record lengths ---------------------------------------------------------------------
for len in 100 300 700; do
	sources len$len.msgpack >len$len.csv
	"$BIN" --export tasks len$len.msgpack 2>/dev/null | sed 1d | cut -d, -f1 | paste -sd' ' - >len$len.keys
	tap_check "record length $len in a record of 144 bytes: resynchronised, the 5 other records loaded" \
		'[ "$(cat len$len.keys)" = "a-0 a-2 a-3 a-4 a-5" ]'
	tap_check "record length $len: one record skipped, said once with its offset" \
		'grep -q "^file,len$len.msgpack,dasf,,,,5,1,ok$" len$len.csv && [ "$(wc -l <len$len.csv)" = 3 ] &&
		 grep -q "^error,len$len.msgpack,,,,152,,,bad record length $len (752 bytes left): skipped 152 bytes to \
the next whole record$" len$len.csv'
done
sources corrupt.msgpack >corrupt.csv
tap_check "a corrupt record of the right length: malformed, skipped alone, the rest loaded" \
	'grep -q "^file,corrupt.msgpack,dasf,,,,5,1,ok$" corrupt.csv &&
	 grep -q "^warning,corrupt.msgpack,,,,152,,,malformed MessagePack record$" corrupt.csv'

# --- negative counts ----------------------------------------------------------------------
sources neg.msgpack >neg.csv
"$BIN" --export task_bottleneck neg.msgpack >neg_tb.csv 2>/dev/null
tap_check "a negative size: missing (empty Memory cell), counted in one warning" \
	'grep -q "^warning,neg.msgpack,,,,0,,,2 events have a negative size (the first: -5 bytes): the size is \
missing$" neg.csv && grep -q "^h,0,a-0,1,50,$" neg_tb.csv'
tap_check "a negative tasks count: its event skipped, said with its offset" \
	'grep -q "^warning,neg.msgpack,,,,[1-9][0-9]*,,,Managed Memory event with a negative tasks count (-3)$" neg.csv &&
	 grep -q "^file,neg.msgpack,dasf,,,,4,1,ok$" neg.csv'

# --- databases added together -------------------------------------------------------------
sources mix >mix.csv
tap_check "one host's TracePlugin and ResourceMonitor files of two runs: a warning naming both" \
	'grep -q "^warning,mix/trainB-ResourceMonitor-c096.msgpack,.*databases of two runs for one host: \
mix/trainA-TracePlugin-c096.msgpack and mix/trainB-ResourceMonitor-c096.msgpack differ" mix.csv'
sources uuid >uuid.csv
tap_check "one worker in two traces-<uuid8> files at other timestamps: two runs, said" \
	'grep -q "^warning,uuid/traces-9f8e7d6c.msgpack,.*databases of two runs (or of a restarted worker?): \
uuid/traces-1a2b3c4d.msgpack and uuid/traces-9f8e7d6c.msgpack both hold tasks of worker .worker-c096-0. on .c096." \
	 uuid.csv && ! grep -q "repeat" uuid.csv'
sources uuidcopy >uuidcopy.csv
tap_check "the same database under two traces-<uuid8> names: a copy, said once, not two runs" \
	'grep -q "6 tasks of uuidcopy/traces-5e6f7a8b.msgpack repeat tasks of uuidcopy/traces-1a2b3c4d.msgpack" \
	 uuidcopy.csv && ! grep -q "two runs" uuidcopy.csv'
sources dup.msgpack >dup.csv
report dup.msgpack >dup.txt
tap_check "a batch written twice in one file: warned, naming the file and a key" \
	'grep -q "^warning,dup.msgpack,.*4 tasks of dup.msgpack repeat tasks earlier in the same file (the same key, \
timestamp and worker, e.g. .a-0.): a batch written twice? Both are added, so that time counts twice" dup.csv'
sources rescopy >rescopy.csv
report rescopy >rescopy.txt
tap_check "a copied ResourceMonitor database: warned, naming both files; its samples count once" \
	'grep -q "^warning,rescopy/p-ResourceMonitor-h.msgpack,.*3 GPU samples of rescopy/p-ResourceMonitor-h.msgpack \
repeat those of rescopy/p-ResourceMonitor-h (copy).msgpack (the same host, timestamp and values): a copy of a \
database? The repeats are left out, so each counts once" rescopy.csv &&
	 grep -q " 3 GPU samples (0 CPU-only)" rescopy.txt'
tap_check "a copied ResourceMonitor database: GPU idle judged on 3 samples (not judged), never on 6 repeated ones" \
	'grep -q "^  - GPU idle while tasks run (3 GPU samples taken while a task ran, the test needs 5)$" \
	 rescopy.txt &&
	 ! grep -q "DASF.GPU_IDLE" rescopy.txt'
sources memcopy >memcopy.csv
tap_check "a copied database with Managed Memory events: those repeated are warned of and left out" \
	'grep -q "^warning,memcopy/p-TracePlugin-h.msgpack,.*3 Managed Memory events of \
memcopy/p-TracePlugin-h.msgpack repeat those of memcopy/p-TracePlugin-h (copy).msgpack (the same worker, \
timestamp and counts)" memcopy.csv'

# --- workers that ran no task ---------------------------------------------------------------
report idlew.msgpack >idlew.txt
report idlew1.msgpack >idlew1.txt
tap_check "4 workers, 2 of them with Managed Memory events only: weighed at 0 s busy, the imbalance found and said" \
	'grep -q "Worker imbalance: worker-h-0 and worker-h-1 are busy 2.0x the mean worker" idlew.txt &&
	 grep -q "4 workers (2 of them ran no task: Managed Memory events only, 0 s busy each); busiest" idlew.txt'
tap_check "one worker of 4 ran every task: judged over the 4 the headline counts, not \"1 worker\"" \
	'grep -q "4 workers on 1 host" idlew1.txt && grep -q "is busy 4.0x the mean worker" idlew1.txt &&
	 ! grep -q "1 worker: the test needs 2" idlew1.txt'
tap_plan
