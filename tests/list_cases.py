#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prints the test cases that test sources define, one name per line, in source order:
CG_TEST(name) of the harness (tests/check.h) and tcase_add_test (tc, name) /
tcase_add_loop_test (tc, name, ...) of GstCheck. tests/meson.build runs it at configure time to
make one meson test per case; meson configures again when one of the sources changes.
Exits 1 when the sources define no case."""
import re
import sys

CASE = re.compile(
    r"^[ \t]*(?:CG_TEST[ \t]*\([ \t]*(\w+)[ \t]*\)"
    r"|tcase_add_(?:loop_)?test[ \t]*\([^,()]+,[ \t]*(\w+)[ \t]*[,)])",
    re.MULTILINE)
# Comments and string literals, so that a case mentioned in either is not taken for one.
NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.DOTALL)


def cases(text):
    text = NOISE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [a or b for a, b in CASE.findall(text)]


def main(paths):
    names = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            names += [n for n in cases(f.read()) if n not in names]
    if not names:
        print("list_cases.py: no test case in " + " ".join(paths), file=sys.stderr)
        return 1
    print("\n".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
