#!/usr/bin/env python3
"""The what-if study's plot (testbed/whatif.sh): predicted against measured time, per program and configuration.

Usage: whatif_plot.py RESULTS.csv OUT.png

One panel per program: for each configuration (x1/1, x1/4, ... or A, D, E, in the file's order), the median measured time with a bar from the
fastest to the slowest run (the noise) and the predicted time, on a logarithmic time axis; the title gives the
largest error and whether the predicted order of the configurations is the measured one. Reads the results.csv
that whatif.sh writes (config, divisor, rate, app, measured_s, min_s, max_s, predicted_s, error).
"""

import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    if not rows:
        sys.exit(f"whatif_plot.py: error: {sys.argv[1]}: no results")
    apps = list(dict.fromkeys(r["app"] for r in rows))
    columns = min(4, len(apps))
    lines = math.ceil(len(apps) / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(3.6 * columns, 3.2 * lines), squeeze=False)
    for ax, app in zip(axes.flat, apps):
        mine = [r for r in rows if r["app"] == app]  # in the study's order of configurations
        x = range(len(mine))
        measured = [float(r["measured_s"]) for r in mine]
        low = [m - float(r["min_s"]) for m, r in zip(measured, mine)]
        high = [float(r["max_s"]) - m for m, r in zip(measured, mine)]
        predicted = [float(r["predicted_s"]) for r in mine]
        ax.errorbar(x, measured, yerr=[low, high], fmt="o", color="black", capsize=4, label="measured (min-max)")
        ax.plot(x, predicted, "x", color="tab:red", markersize=9, mew=2, label="predicted")
        ax.set_xticks(list(x), [f"{r['config']}\n{r['rate']}" for r in mine])
        ax.set_yscale("log")
        ax.set_ylabel("time (s)")
        worst = max(abs(float(r["error"])) for r in mine)
        same = sorted(range(len(mine)), key=lambda i: measured[i]) == sorted(range(len(mine)), key=lambda i: predicted[i])
        ax.set_title(f"{app}: largest error {100 * worst:.0f}%, order {'same' if same else 'DIFFERENT'}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[len(apps):]:
        ax.set_visible(False)
    axes.flat[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
