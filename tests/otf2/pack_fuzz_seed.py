#!/usr/bin/python3
"""Packs a two-rank OTF2 archive into an input of fuzz/otf2_fuzz.cpp. Usage: pack_fuzz_seed.py ARCHIVE_DIR OUT"""
import os
import struct
import sys

NAMES = ["traces.otf2", "traces.def", "traces/0.def", "traces/0.evt", "traces/1.def", "traces/1.evt"]

archive, out = sys.argv[1:3]
with open(out, "wb") as f:
    for name in NAMES:
        path = os.path.join(archive, name)
        data = open(path, "rb").read() if os.path.exists(path) else b""
        f.write(struct.pack("<I", len(data)) + data)
