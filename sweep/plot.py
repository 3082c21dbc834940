#!/usr/bin/env python3
"""Plots of a tit-sweep results.csv (PNG, matplotlib).

Usage: plot.py RESULTS.csv [--out-dir DIR] [--heatmap KEY_X KEY_Y]

Writes into DIR (default: a folder `plots` next to RESULTS.csv):
  time-<n>.png     the predicted time against each varied parameter (one line per combination of the
                   other parameters when there are at most 8, else every point)
  heatmap.png      the predicted time over two parameters (the first two varied, or --heatmap),
                   averaged over the others when more vary
  speedup.png      speedup and efficiency against the rank count, when the rank count varies
Values with SimGrid units (10Gbps, 1us, 2Gf) are placed on a numeric axis in bytes/s, seconds or
flop/s; other values (smpi, ompi, file names) on a categorical one. Failed points are left out.
"""

import argparse
import csv
import os
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMA = "# tit-sweep results v1"
RESULT_COLUMNS = "predicted_time"


def unit_scale():
    """SimGrid's units (xbt_parse_units): name -> (factor, base unit)."""
    scale = {}
    for base, factor, quantity in (("Bps", 1.0, "B/s"), ("bps", 0.125, "B/s"), ("f", 1.0, "flop/s"),
                                   ("flops", 1.0, "flop/s")):
        scale[base] = (factor, quantity)
        for i, p in enumerate(("k", "M", "G", "T", "P", "E", "Z", "Y")):
            scale[p + base] = (factor * 1000.0 ** (i + 1), quantity)
        if base in ("Bps", "bps"):
            for i, p in enumerate(("Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi")):
                scale[p + base] = (factor * 1024.0 ** (i + 1), quantity)
    for name, factor in (("w", 604800.0), ("d", 86400.0), ("h", 3600.0), ("m", 60.0), ("s", 1.0), ("ms", 1e-3),
                         ("us", 1e-6), ("ns", 1e-9), ("ps", 1e-12)):
        scale[name] = (factor, "s")
    return scale


UNITS = unit_scale()
NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z]*)\s*$")


def numeric(value):
    """(number in base units, base unit) or None."""
    m = NUMBER.match(value)
    if not m:
        return None
    number, unit = float(m.group(1)), m.group(2)
    if unit == "":
        return number, ""
    if unit in UNITS:
        factor, base = UNITS[unit]
        return number * factor, base
    return None


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
        if first != SCHEMA:
            sys.exit(f"{path}:1: error: not a tit-sweep results file (expected '{SCHEMA}')")
        reader = csv.reader(f)
        header = next(reader)
        rows = [dict(zip(header, r)) for r in reader]
    keys = header[: header.index(RESULT_COLUMNS)]
    ok = [r for r in rows if r["exit_code"] == "0" and r["predicted_time"] != ""]
    for r in ok:
        r["predicted_time"] = float(r["predicted_time"])
    return keys, ok


def axis_of(rows, key):
    """Sorted distinct values of a key, their x positions and an axis label suffix."""
    values = list(dict.fromkeys(r[key] for r in rows))
    nums = [numeric(v) for v in values]
    if all(n is not None for n in nums) and len({n[1] for n in nums}) == 1:
        order = sorted(range(len(values)), key=lambda i: nums[i][0])
        unit = nums[0][1]
        return [values[i] for i in order], {values[i]: nums[i][0] for i in order}, f" ({unit})" if unit else "", True
    return values, {v: i for i, v in enumerate(values)}, "", False


def short_names(values):
    """Paths without the components they all share (ranks/halo4/trace.list, ranks/halo8/... -> halo4, halo8)."""
    parts = [v.rstrip("/").split("/") for v in values]
    if len(parts) < 2 or any(len(p) != len(parts[0]) for p in parts):
        return values
    keep = [i for i in range(len(parts[0])) if len({p[i] for p in parts}) > 1]
    return ["/".join(p[i] for i in keep) or v for p, v in zip(parts, values)] if keep else values


def plot_time(rows, keys, key, out):
    values, x, suffix, is_num = axis_of(rows, key)
    others = [k for k in keys if k != key and len({r[k] for r in rows}) > 1]
    groups = defaultdict(list)
    for r in rows:
        groups[tuple(r[k] for k in others)].append(r)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if len(groups) <= 8:
        for combo, rs in groups.items():
            rs = sorted(rs, key=lambda r: x[r[key]])
            name = ", ".join(f"{k}={v}" for k, v in zip(others, combo)) or None
            ax.plot([x[r[key]] for r in rs], [r["predicted_time"] for r in rs], marker="o", label=name)
        if others:
            ax.legend(fontsize=7)
    else:
        ax.scatter([x[r[key]] for r in rows], [r["predicted_time"] for r in rows], s=12, alpha=0.6)
        ax.set_title(f"every point ({len(groups)} combinations of the other parameters)", fontsize=9)
    if is_num:
        positive = all(v > 0 for v in x.values())
        spread = max(x.values()) / min(x.values()) if positive else 0
        if spread >= 20:
            ax.set_xscale("log")
        ax.set_xticks([x[v] for v in values])
        ax.set_xticklabels(values, rotation=30, fontsize=8)
        ax.minorticks_off()
    else:
        ax.set_xticks(range(len(values)))
        ax.set_xticklabels(short_names(values), rotation=30, fontsize=8)
    ax.set_xlabel(key + suffix)
    ax.set_ylabel("predicted time (s)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_heatmap(rows, keys, kx, ky, out):
    xs, _, _, _ = axis_of(rows, kx)
    ys, _, _, _ = axis_of(rows, ky)
    cells = defaultdict(list)
    for r in rows:
        cells[(r[kx], r[ky])].append(r["predicted_time"])
    grid = [[(sum(cells[(vx, vy)]) / len(cells[(vx, vy)])) if cells[(vx, vy)] else float("nan") for vx in xs]
            for vy in ys]
    fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 3, 0.8 * len(ys) + 2.2))
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis_r")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(short_names(xs), rotation=30, fontsize=8)
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels(short_names(ys), fontsize=8)
    ax.set_xlabel(kx)
    ax.set_ylabel(ky)
    lo = min(v for row in grid for v in row if v == v)
    hi = max(v for row in grid for v in row if v == v)
    for j, row in enumerate(grid):
        for i, v in enumerate(row):
            if v == v:
                dark = (v - lo) > 0.5 * (hi - lo)
                ax.text(i, j, f"{v:.4g}", ha="center", va="center", fontsize=7, color="white" if dark else "black")
    rest = [k for k in keys if k not in (kx, ky) and len({r[k] for r in rows}) > 1]
    ax.set_title("predicted time (s)" + (", mean over " + ", ".join(rest) if rest else ""), fontsize=9)
    fig.colorbar(im, ax=ax, label="predicted time (s)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_speedup(rows, keys, out):
    # Keys that set the rank count (a trace set, its hostfile) are the x axis; the others make lines.
    def sets_ranks(k):
        return all(len({r["ranks"] for r in rows if r[k] == v}) == 1 for v in {r[k] for r in rows})

    others = [k for k in keys if len({r[k] for r in rows}) > 1 and not sets_ranks(k)]
    groups = defaultdict(list)
    for r in rows:
        groups[tuple(r[k] for k in others)].append(r)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4.2))
    allranks = sorted({int(r["ranks"]) for r in rows})
    for combo, rs in list(groups.items())[:8]:
        by = defaultdict(list)
        for r in rs:
            by[int(r["ranks"])].append(r["predicted_time"])
        ns = sorted(by)
        t = [min(by[n]) for n in ns]
        base_n, base_t = ns[0], t[0]
        speedup = [base_t / ti for ti in t]
        eff = [s * base_n / n for s, n in zip(speedup, ns)]
        name = ", ".join(f"{k}={v}" for k, v in zip(others, combo)) or None
        a1.plot(ns, speedup, marker="o", label=name)
        a2.plot(ns, eff, marker="o", label=name)
    a1.plot(allranks, [n / allranks[0] for n in allranks], "k--", lw=0.8, label="ideal")
    a2.axhline(1.0, color="k", ls="--", lw=0.8)
    for a, yl in ((a1, f"speedup over {allranks[0]} ranks"), (a2, "parallel efficiency")):
        a.set_xscale("log", base=2)
        a.set_xticks(allranks)
        a.set_xticklabels([str(n) for n in allranks])
        a.minorticks_off()
        a.set_xlabel("ranks")
        a.set_ylabel(yl)
        a.grid(alpha=0.3)
    a1.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results")
    p.add_argument("--out-dir")
    p.add_argument("--heatmap", nargs=2, metavar=("KEY_X", "KEY_Y"))
    a = p.parse_args()
    keys, rows = read(a.results)
    if not rows:
        sys.exit(f"{a.results}: error: no point with a prediction to plot")
    out = a.out_dir or os.path.join(os.path.dirname(os.path.abspath(a.results)), "plots")
    os.makedirs(out, exist_ok=True)
    varied = [k for k in keys if len({r[k] for r in rows}) > 1]
    written = []
    for i, k in enumerate(varied):
        f = os.path.join(out, f"time-{i + 1}.png")
        plot_time(rows, keys, k, f)
        written.append(f"{f} (predicted time against {k})")
    pair = a.heatmap or (varied[:2] if len(varied) >= 2 else None)
    if pair:
        for k in pair:
            if k not in keys:
                sys.exit(f"{a.results}: error: --heatmap: no column '{k}' (columns: {', '.join(keys)})")
        f = os.path.join(out, "heatmap.png")
        plot_heatmap(rows, keys, pair[0], pair[1], f)
        written.append(f"{f} (heat map of {pair[0]} x {pair[1]})")
    if len({r["ranks"] for r in rows}) > 1:
        f = os.path.join(out, "speedup.png")
        plot_speedup(rows, keys, f)
        written.append(f"{f} (speedup and efficiency against the rank count)")
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
