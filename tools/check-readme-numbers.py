#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks that the measured numbers quoted in README.md and docs/performance.md come from the
benchmark outputs in docs/bench/.

A quoted number is one with a unit of time, rate, size or quality (µs, ms, fps, Mpixel/s, GB/s,
MiB, dB, %, ...), a ratio (1.8x, 4.21 ×), or any numeric cell of a Markdown table. Each must equal
(as a value; thousands separators ignored) some number in a file under docs/bench/. Exits 1 and
lists the ones that do not, with file and line; exits 0 when all are found.

Usage: tools/check-readme-numbers.py [FILE...]   (default: README.md docs/performance.md)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / "docs" / "bench"
DEFAULT_FILES = ["README.md", "docs/performance.md"]

NUM = r"\d[\d,]*(?:\.\d+)?"
UNITS = r"(?:µs|us|ms|fps|frames/s|[GM]pixel/s|GB/s|MB|MiB|dB|%|[x×](?![\d×]))"
# A number, or a range of two, followed by a unit: "31.8 µs", "102.7–103.5 µs", "1.80x–1.81x".
WITH_UNIT = re.compile(rf"(?<![\w.])({NUM})\s?(?:{UNITS})?(?:\s?[–-]\s?({NUM}))?\s?{UNITS}")
TABLE_CELL = re.compile(rf"^\**\s*({NUM})\s*(?:{UNITS})?\s*\**$")
ANY_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


def value(text):
    return float(text.replace(",", ""))


def bench_values():
    """Every number in the files under docs/bench/, as floats."""
    found = set()
    for path in BENCH.rglob("*"):
        if path.is_file():
            for token in ANY_NUMBER.findall(path.read_text(encoding="utf-8", errors="replace")):
                try:
                    found.add(value(token))
                except ValueError:
                    pass
    return found


def quoted_numbers(path):
    """(line number, number text) for each measured number quoted in a Markdown file."""
    in_code = False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        line = re.sub(r"\]\([^)]*\)", "]", line)  # link targets
        line = re.sub(r"`[^`]*`", "", line)  # inline code: commands and property values
        if line.lstrip().startswith("|"):
            for cell in line.strip().strip("|").split("|"):
                m = TABLE_CELL.match(cell.strip())
                if m:
                    yield n, m.group(1)
        for m in WITH_UNIT.finditer(line):
            yield n, m.group(1)
            if m.group(2):
                yield n, m.group(2)


def main(argv):
    files = argv[1:] or DEFAULT_FILES
    known = bench_values()
    missing = []
    checked = 0
    for name in files:
        path = ROOT / name if not pathlib.Path(name).is_absolute() else pathlib.Path(name)
        for n, text in quoted_numbers(path):
            checked += 1
            if value(text) not in known:
                missing.append(f"{name}:{n}: {text}")
    if missing:
        print(f"check-readme-numbers: {len(missing)} of {checked} numbers are not in any file under docs/bench/:")
        print("\n".join("  " + m for m in missing))
        return 1
    print(f"check-readme-numbers: all {checked} numbers found in docs/bench/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
