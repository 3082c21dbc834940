#!/usr/bin/env python3
"""Writes a calib-p2p CSV measured on an imaginary machine that follows tit-replay's model exactly
(no noise): eager below 65537 bytes (os + transfer + or), rendez-vous above (transfer), transfer =
route latency x lat-factor + (size + 16) / (bandwidth x bw-factor), segments at 1420, 32768, 65536.

  synthetic_p2p.py OUT.csv BANDWIDTH LATENCY LINKS
"""
import math
import random
import sys

out, bw, lat, links = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
breaks = [1420, 32768, 65536]
detached = 65537
os_ = [(1e-6, 1e-9), (3e-6, 2e-10), (8e-6, 1.5e-10), (0, 0)]
or_ = [(1.5e-6, 5e-10), (2e-6, 1e-10), (6e-6, 2e-10), (0, 0)]
ois = [(4e-7, 2e-10), (1e-6, 5e-11), (2e-6, 4e-11), (3e-6, 1e-11)]
latf = [2.0, 1.6, 1.9, 11.6]
bwf = [0.1, 0.6, 0.9, 0.94]


def seg(s):
    k = 0
    while k < len(breaks) and s > breaks[k]:
        k += 1
    return k


def lin(p, s):
    return p[0] + p[1] * s


def transfer(s):
    k = seg(s)
    return links * lat * latf[k] + (s + 16) / (bw * bwf[k])


rng = random.Random(7)
sizes = sorted({round(math.exp((i + rng.random()) / 120 * math.log(1e6))) for i in range(120)} |
               {b for b in breaks} | {b + 1 for b in breaks})
with open(out, "w") as f:
    f.write("# tit-calibrate p2p v1\n# hosts: synthetic,synthetic\nexperiment,size,iteration,seconds\n")
    for s in sizes:
        k = seg(s)
        eager = s < detached
        f.write(f"send,{s},0,{lin(os_[k], s) if eager else transfer(s):.17g}\n")
        f.write(f"recv,{s},0,{lin(or_[k], s) if eager else transfer(s):.17g}\n")
        f.write(f"isend,{s},0,{lin(ois[k], s):.17g}\n")
        one_way = lin(os_[k], s) + transfer(s) + lin(or_[k], s) if eager else transfer(s)
        f.write(f"pingpong,{s},0,{2 * one_way:.17g}\n")
