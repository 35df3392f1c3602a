#!/usr/bin/env python3
"""Prints one line per spawn of a Bazel execution log written with
--execution_log_json_file (JSON objects one after another, not an array):
MNEMONIC RUNNER HIT, HIT being "hit" for a remote (or disk) cache hit and
"ran" otherwise. The tests read Bazel's own record of each action rather
than its summary line."""
import json
import sys

text = open(sys.argv[1]).read()
decoder = json.JSONDecoder()
position = 0
while True:
    while position < len(text) and text[position].isspace():
        position += 1
    if position == len(text):
        break
    spawn, position = decoder.raw_decode(text, position)
    runner = spawn.get("runner", "").replace(" ", "-") or "none"
    print(spawn.get("mnemonic", "?"), runner, "hit" if spawn.get("remoteCacheHit") else "ran")
