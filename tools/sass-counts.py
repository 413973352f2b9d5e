#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where a kernel's instructions go, from Nsight Compute's source page as CSV
(`ncu -i REPORT --page source --print-source sass --csv`, a report profiled with the
SourceCounters section).

Prints the executed warp instructions in all, the share of each opcode (the most frequent
first), and the code grouped by how often it ran: instructions that ran the same number of times
are usually one loop body or one straight stretch, so each group shows its size, its share and
its multiply-adds (FFMA, HMMA). With --show COUNT, the instructions of the group that ran COUNT
times, in order.

Usage: tools/sass-counts.py FILE.csv [--top N] [--show COUNT]
"""
import argparse
import csv
import sys
from collections import Counter


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    # The first row names the kernel; the second is the header.
    for i, row in enumerate(rows):
        if "Instructions Executed" in row and "Source" in row:
            header = row
            body = rows[i + 1:]
            break
    else:
        sys.exit(f"{path}: no 'Source' and 'Instructions Executed' columns")
    executed, source = header.index("Instructions Executed"), header.index("Source")
    out = []
    for row in body:
        if len(row) <= max(executed, source):
            continue
        try:
            out.append((int(row[executed]), row[source].strip()))
        except ValueError:
            continue
    return out


def opcode(text):
    words = text.split()
    if words and words[0].startswith("@"):  # predicate
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--top", type=int, default=15, help="opcodes to list (default 15)")
    parser.add_argument("--show", type=int, help="print the instructions that ran this many times")
    args = parser.parse_args()
    code = read(args.csv)
    total = sum(n for n, _ in code)
    if total == 0:
        sys.exit(f"{args.csv}: no executed instructions")
    print(f"executed warp instructions: {total:,}")

    by_opcode = Counter()
    for n, text in code:
        by_opcode[opcode(text)] += n
    print("\nopcode       warp instructions   share")
    for op, n in by_opcode.most_common(args.top):
        print(f"{op:12s} {n:17,d} {100 * n / total:6.1f} %")

    groups, fma = Counter(), Counter()
    for n, text in code:
        if n:
            groups[n] += 1
            if opcode(text) in ("FFMA", "HMMA"):
                fma[n] += 1
    print("\nran (times)  instructions  warp instructions   share  multiply-adds")
    for n, size in sorted(groups.items(), key=lambda g: -g[0] * g[1]):
        print(f"{n:11,d} {size:13d} {n * size:18,d} {100 * n * size / total:6.1f} % {fma[n]:14d}")

    if args.show is not None:
        print(f"\ninstructions that ran {args.show:,} times:")
        for n, text in code:
            if n == args.show:
                print(f"  {text}")


if __name__ == "__main__":
    main()
