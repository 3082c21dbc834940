#!/usr/bin/env python3
"""Draws what tit-calibrate fitted (Debian's python3-matplotlib, Agg backend).

  plot_fit.py CURVES.csv OUTDIR       one PNG per quantity (os, or, ois, oneway): raw points and the
                                      fitted piecewise model, log-log axes
  plot_fit.py --compare CMP.csv OUT.png  ping-pong times measured and predicted by tit-replay
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TITLES = {
    "os": "os: time in MPI_Send (receiver ready)",
    "or": "or: time in MPI_Recv (message already sent)",
    "ois": "ois: time in MPI_Isend",
    "oneway": "one-way ping-pong time (round trip / 2)",
}


def rows(path, expected):
    with open(path) as f:
        first = f.readline().strip()
        if first != expected:
            sys.exit(f"{path}:1: error: expected '{expected}', got '{first}'")
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines))


def plot_curves(path, outdir):
    data = rows(path, "# tit-calibrate curves v1")
    os.makedirs(outdir, exist_ok=True)
    for q in sorted({r["quantity"] for r in data}):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        raw = [r for r in data if r["quantity"] == q and r["kind"] == "raw"]
        segs = sorted({int(r["segment"]) for r in data if r["quantity"] == q})
        for s in segs:
            pts = [r for r in raw if int(r["segment"]) == s]
            ax.scatter([float(r["size"]) for r in pts], [max(float(r["seconds"]), 1e-10) for r in pts], s=6,
                       alpha=0.4, label=f"measured, segment {s}")
            model = sorted((float(r["size"]), float(r["seconds"])) for r in data
                           if r["quantity"] == q and r["kind"] == "model" and int(r["segment"]) == s)
            ax.plot([m[0] for m in model], [max(m[1], 1e-10) for m in model], color="black", lw=1.5,
                    label="fitted model" if s == segs[0] else None)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("seconds")
        ax.set_title(TITLES.get(q, q))
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"{q}.png"), dpi=110)
        plt.close(fig)


def plot_compare(path, out):
    data = rows(path, "# tit-calibrate compare v1")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    size = [float(r["size"]) for r in data]
    ax.scatter(size, [float(r["measured"]) for r in data], s=10, label="measured (median round trip)")
    ax.plot(size, [float(r["predicted"]) for r in data], color="black", marker=".", lw=1,
            label="predicted by tit-replay")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("round trip (s)")
    ax.set_title("ping-pong: measured vs replayed on the calibrated platform")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    if len(argv) == 4 and argv[1] == "--compare":
        plot_compare(argv[2], argv[3])
    elif len(argv) == 3:
        plot_curves(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
