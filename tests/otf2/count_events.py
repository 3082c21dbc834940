#!/usr/bin/python3
"""Prints the number of Enter events of an OTF2 archive, read with python3-otf2. Usage: count_events.py ANCHOR"""
import sys

import otf2

with otf2.reader.open(sys.argv[1]) as trace:
    print(sum(1 for _, event in trace.events if isinstance(event, otf2.events.Enter)))
