# dasf_overflow.py OUT: a DASF TracePlugin database (msgpack, length-prefixed records) whose
# function a has two tasks of 1e308 s on one worker (a-1 -> a-2), so their sum overflows,
# beside function b's two 1 s tasks on another: tests/cli/dasf_verdicts.sh and
# dasf_compare.sh (1e308 s has no legacy-text ms form, hence msgpack written by hand).
import struct
import sys


def enc(v):
    if isinstance(v, str):
        b = v.encode()
        return bytes([0xd9, len(b)]) + b
    if isinstance(v, float):
        return b"\xcb" + struct.pack(">d", v)
    if isinstance(v, int):
        return b"\xd3" + struct.pack(">q", v)
    if isinstance(v, list):
        return b"\xdc" + struct.pack(">H", len(v)) + b"".join(map(enc, v))
    return b"\xde" + struct.pack(">H", len(v)) + b"".join(enc(k) + enc(x) for k, x in v.items())


with open(sys.argv[1], "wb") as f:
    for key, dur, w in (("a-1", 1e308, 0), ("a-2", 1e308, 0), ("b-1", 1.0, 1), ("b-2", 1.0, 1)):
        r = enc({"name": "Compute", "timestamp": 100.0, "duration": dur, "phase": "X", "process_id": "h",
                 "thread_id": "worker-h-%d" % w, "args": {"key": key, "name": key[0], "size": 1000,
                                                          "dependencies": ["a-1"] if key == "a-2" else [],
                                                          "dependents": []}})
        f.write(struct.pack(">Q", len(r)) + r)
