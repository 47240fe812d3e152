"""Time against size for every variant of gpu_bench's `compaction` table
and masked_select.py's anchors, as one PNG.

    python3 plot.py OUT.png FILE...

Reads the `csv,<primitive>,<log2 n>,<percent kept>,<variant>,<median ms>[,...]`
lines of the given outputs. One panel per kept share for the compaction
(with the device copy and torch.masked_select), and one for the scan.
"""

import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.startswith("csv,"):
                    continue
                _, primitive, log, percent, variant, ms = line.strip().split(",")[:6]
                rows.append((primitive, int(log), int(percent), variant, float(ms)))
    return rows


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    rows = read(paths)
    # One colour per variant in every panel, from one list of all of them, so
    # that a single legend reads for all panels.
    variants = sorted({v for (p, _, _, v, _) in rows if p != "copy"} | {"device copy"})
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour = {v: cycle[i % len(cycle)] for i, v in enumerate(variants)}
    copy = {log: ms for (p, log, _, _, ms) in rows if p == "copy"}
    panels = [("compact", percent) for percent in (5, 50, 95)] + [("scan", 100)]
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.5), sharey=True)
    for ax, (primitive, percent) in zip(axes, panels):
        series = defaultdict(list)
        for p, log, pc, variant, ms in rows:
            if p == primitive and pc == percent:
                series[variant].append((log, ms))
            if primitive == "compact" and p == "masked_select" and pc == percent:
                series[variant].append((log, ms))
        series["device copy"] = sorted(copy.items())
        for variant, points in sorted(series.items()):
            points.sort()
            style = "--" if variant in ("device copy", "torch.masked_select") else "-"
            ax.plot(
                [2**log for log, _ in points],
                [ms for _, ms in points],
                style,
                color=colour[variant],
                marker="o",
                markersize=3,
                label=variant,
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("elements (u32)")
        title = f"compaction, {percent}% kept" if primitive == "compact" else "exclusive scan"
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("time (ms, median)")
    # The first panel holds every variant but the scan's own.
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle("ballot::primitives on an NVIDIA H200 (wgpu, Vulkan)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
