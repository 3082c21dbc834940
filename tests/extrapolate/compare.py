#!/usr/bin/env python3
"""Compares two expanded trace sets (tit-trace expand's rank-<r>.txt files) action by action: the same actions with
the same arguments (partners, tags, sizes, roots), loop counts included since every action is listed, except that
compute and sleep volumes may differ by a relative TOLERANCE. Prints the first difference and exits 1, else prints
the number of actions compared and the largest relative volume difference.

usage: compare.py EXPECTED_DIR ACTUAL_DIR TOLERANCE
"""
import os
import sys


def actions(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def main():
    expected, actual, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    ranks = sorted(int(n[5:-4]) for n in os.listdir(expected) if n.startswith("rank-") and n.endswith(".txt"))
    other = sorted(int(n[5:-4]) for n in os.listdir(actual) if n.startswith("rank-") and n.endswith(".txt"))
    if ranks != other:
        print(f"rank counts differ: {len(ranks)} expected, {len(other)} extrapolated")
        return 1
    compared, worst = 0, 0.0
    for r in ranks:
        a, b = actions(f"{expected}/rank-{r}.txt"), actions(f"{actual}/rank-{r}.txt")
        for i in range(max(len(a), len(b))):
            if i >= len(a) or i >= len(b):
                print(f"rank {r}: {len(a)} actions expected, {len(b)} extrapolated")
                return 1
            x, y = a[i], b[i]
            if x[1] in ("compute", "sleep") and y[1] == x[1] and len(x) == len(y) == 3:
                rel = abs(float(y[2]) - float(x[2])) / max(abs(float(x[2])), 1e-300)
                worst = max(worst, rel)
                if rel > tolerance:
                    print(f"rank {r} action {i + 1}: volume {y[2]}, expected {x[2]} (relative {rel:.3g})")
                    return 1
            elif x != y:
                print(f"rank {r} action {i + 1}: '{' '.join(y)}', expected '{' '.join(x)}'")
                return 1
            compared += 1
    print(f"{compared} actions of {len(ranks)} ranks agree; largest relative volume difference {worst:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
