"""The anchors of gpu_bench's compaction table, measured with PyTorch.

    python3 masked_select.py

torch.masked_select (backed by CUB's select) on the same sizes and
selectivities as gpu_bench, timed with CUDA events, and a device copy of the
same size for the bandwidth limit, and torch.cumsum (CUB's scan) on the
same int32 words, the anchor of the exclusive scan. Two timings per case: masked_select alone
on a precomputed bool mask (how it is usually called), and the predicate
plus masked_select (what gpu_bench's kernels do in one pass). Each is the
median of 15 runs, warmed up as gpu_bench does: batches of 15 until at
least one second has passed and the last two batches' medians agree within
2% (at most five seconds). An idle GPU lowers its clocks.
"""

import statistics
import time

import torch

REPEATS = 15


WARM_UP_S = 1.0
WARM_UP_MAX_S = 5.0
SETTLED = 0.02


def batch_ms(fn):
    times = []
    for _ in range(REPEATS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def median_ms(fn):
    start = time.perf_counter()
    last = batch_ms(fn)
    while True:
        median = batch_ms(fn)
        settled = abs(median - last) <= SETTLED * last
        waited = time.perf_counter() - start
        last = median
        if (settled and waited >= WARM_UP_S) or waited >= WARM_UP_MAX_S:
            return last


def main():
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print("| n | kept | copy (ms) | masked_select (ms) | predicate + masked_select (ms) |")
    print("|---|---|---|---|---|")
    gen = torch.Generator(device="cuda").manual_seed(1)
    for log in range(20, 29, 2):
        n = 1 << log
        # Uniform 32-bit values, held as int64 so that the threshold
        # compares as unsigned.
        xs = torch.randint(0, 1 << 32, (n,), device="cuda", generator=gen, dtype=torch.int64)
        xs32 = xs.to(torch.int32)
        dst = torch.empty_like(xs32)
        copy_ms = median_ms(lambda: dst.copy_(xs32))
        # int32 in and out, as gpu_bench's scan (wrapping sums); inclusive.
        cumsum_ms = median_ms(lambda: torch.cumsum(xs32, 0, dtype=torch.int32))
        print(f"csv,cumsum,{log},100,torch.cumsum,{cumsum_ms:.4f}")
        print(f"csv,torch_copy,{log},100,torch copy,{copy_ms:.4f}")
        for percent in (5, 50, 95):
            threshold = (1 << 32) * percent // 100
            mask = xs < threshold
            kept = int(mask.sum())
            select_ms = median_ms(lambda: torch.masked_select(xs32, mask))
            # The predicate on the 32-bit values, as unsigned: flip the sign
            # bit and compare as signed.
            t32 = threshold - (1 << 31)
            flipped = xs32 ^ torch.tensor(-(1 << 31), dtype=torch.int32, device="cuda")
            both_ms = median_ms(lambda: torch.masked_select(xs32, flipped < t32))
            assert torch.equal(torch.masked_select(xs32, flipped < t32), torch.masked_select(xs32, mask))
            print(f"| 2^{log} | {percent}% ({kept}) | {copy_ms:.3f} | {select_ms:.3f} | {both_ms:.3f} |")
            print(f"csv,masked_select,{log},{percent},torch.masked_select,{select_ms:.4f}")
            print(f"csv,masked_select_predicate,{log},{percent},torch predicate + masked_select,{both_ms:.4f}")


if __name__ == "__main__":
    main()
