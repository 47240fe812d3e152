"""Time against size for every variant of gpu_bench's `compaction` table
and masked_select.py's anchors, as one PNG, with the bandwidth limit
drawn in each panel; and a markdown table of every figure against that
limit, on stdout.

    python3 plot.py OUT.png FILE...

Reads the `csv,<primitive>,<log2 n>,<percent kept>,<variant>,<median ms>[,...]`
lines of the given outputs. One panel per kept share for the compaction
(with torch.masked_select), and one for the scan (with torch.cumsum). The
limit (`compact_limit`, `scan_limit` lines, written by gpu_bench) is the
bytes the primitive moves at the device copy's rate: compaction reads n
words and writes the kept ones, the scan reads n and writes n.
"""

import sys
from collections import defaultdict

LIMIT = "bandwidth limit"
# The anchors of each panel, from masked_select.py: (primitive, variant).
ANCHORS = {
    "compact": ("masked_select", "masked_select_predicate"),
    "scan": ("cumsum",),
}


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


def panels():
    return [("compact", percent) for percent in (5, 50, 95)] + [("scan", 100)]


def series_of(rows, primitive, percent):
    """Each variant's (log, ms) points in one panel, the limit and anchors
    included."""
    series = defaultdict(list)
    own = (primitive, primitive + "_limit") + ANCHORS[primitive]
    for p, log, pc, variant, ms in rows:
        if p in own and pc == percent:
            series[variant].append((log, ms))
    for points in series.values():
        points.sort()
    return series


def table(rows):
    """Every figure against the limit at its size and share, as markdown:
    each cell is the time in ms and the limit's share of it."""
    lines = []
    for primitive, percent in panels():
        series = series_of(rows, primitive, percent)
        if LIMIT not in series:
            continue
        limit = dict(series.pop(LIMIT))
        variants = sorted(series)
        what = f"compaction, {percent}% kept" if primitive == "compact" else "exclusive scan"
        lines.append(f"\n{what}: ms (the limit's share of the time)\n")
        lines.append("| n | limit (ms) | " + " | ".join(variants) + " |")
        lines.append("|---|---:|" + "---:|" * len(variants))
        for log in sorted(limit):
            cells = []
            for variant in variants:
                ms = dict(series[variant]).get(log)
                cells.append("" if ms is None else f"{ms:.3f} ({100 * limit[log] / ms:.0f}%)")
            lines.append(f"| 2^{log} | {limit[log]:.3f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def device(paths):
    """The card named on the first `device: NAME (…)` line of the outputs
    (gpu_bench's), or none."""
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("device: "):
                    return line[len("device: ") :].split(" (")[0].split(",")[0].strip()
    return None


def plot(rows, out, card=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = {v for (p, _, _, v, _) in rows if p not in ("copy", "torch_copy")}
    variants = sorted(names - {LIMIT})
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour = {v: cycle[i % len(cycle)] for i, v in enumerate(variants)}
    colour[LIMIT] = "black"
    anchors = {"torch.masked_select", "torch predicate + masked_select", "torch.cumsum"}
    chosen = panels()
    fig, axes = plt.subplots(1, len(chosen), figsize=(5 * len(chosen), 4.5), sharey=True)
    for ax, (primitive, percent) in zip(axes, chosen):
        for variant, points in sorted(series_of(rows, primitive, percent).items()):
            if variant == LIMIT:
                style, width = ":", 2.0
            else:
                style, width = ("--" if variant in anchors else "-"), 1.2
            ax.plot(
                [2**log for log, _ in points],
                [ms for _, ms in points],
                style,
                color=colour[variant],
                linewidth=width,
                marker="" if variant == LIMIT else "o",
                markersize=3,
                label=variant,
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("elements (u32)")
        title = f"compaction, {percent}% kept" if primitive == "compact" else "exclusive scan"
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("time (ms, median)")
    fig.suptitle(
        f"ballot::primitives on {card or 'the GPU'} (wgpu, Vulkan); "
        "dotted: the bytes moved at the device copy's rate"
    )
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    rows = read(paths)
    print(table(rows))
    plot(rows, out, device(paths))


if __name__ == "__main__":
    main()
