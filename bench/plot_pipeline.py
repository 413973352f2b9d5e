#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""PNG charts from the benchmark CSVs.

Usage: plot_pipeline.py [CSV ...] [-o OUT_DIR]

Each CSV is recognised by its header:
  bench_pipeline.csv  from bench/bench_pipeline (device,variant,format,width,height,sigma,...)
  bench_fir CSV       from bench/bench_fir (device,width,height,channels,sigma,radius,fir_us,...)
  peers.csv           from bench/peers.py (device,peer,dtype,...,median_ms,...)
With no CSV given, bench_pipeline.csv in the current directory is read.

Writes into OUT_DIR (default: the current directory):
  pipeline_fps_vs_size.png     RGBA at sigma 2: fps per variant against frame size (log y)
  pipeline_fps_vs_sigma.png    Full HD RGBA: fps against sigma for our pipelines and kernel,
                               bench_fir's FIR and the peers (log y), PCIe floor as a line
  pipeline_latency.png         Full HD RGBA, sigma 2: median latency per variant (p95 whisker)
Only rows with status "ok" are drawn.
"""

import argparse
import csv
import math
import os
import sys

SIZE_NAMES = {(720, 576): "SD", (1280, 720): "HD", (1920, 1080): "Full HD",
              (3840, 2160): "4K"}
BASE_SIGMA = 2.0
PIPELINE_VARIANTS = ["sysmem-pinned", "sysmem-pageable", "passthrough", "cudamem",
                     "cudaupload-download", "gaussianblur-cpu"]


def load_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        print("matplotlib is not installed. Install it with\n"
              "  sudo apt-get install python3-matplotlib   (Debian/Ubuntu)\n"
              "or\n  python3 -m pip install matplotlib", file=sys.stderr)
        sys.exit(1)


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return math.nan
    return x


def read_csvs(paths):
    pipeline, fir, peers = [], [], []
    for path in paths:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            print(f"{path}: no rows", file=sys.stderr)
            continue
        cols = set(rows[0].keys())
        if {"variant", "fps", "frames_in_flight"} <= cols:
            pipeline += rows
        elif {"fir_us", "sigma"} <= cols:
            fir += rows
        elif {"peer", "median_ms", "sigma"} <= cols:
            peers += rows
        else:
            print(f"{path}: unrecognised columns {sorted(cols)}; skipped", file=sys.stderr)
    return pipeline, fir, peers


def ok(row):
    return row.get("status", "ok").strip() == "ok"


def series_label(row, many_devices, extra=""):
    label = row["variant"]
    fif = int(num(row["frames_in_flight"]) or 0)
    if row["variant"] in ("sysmem-pinned", "sysmem-pageable", "cudamem",
                          "cudaupload-download"):
        label += f" ({fif} in flight)" if fif > 0 else " (auto)"
    if many_devices:
        label += f" [{row['device']}]"
    return label + extra


def plot_fps_vs_size(plt, rows, out):
    many = len({r["device"] for r in rows}) > 1
    series = {}
    for r in rows:
        v = r["variant"]
        if not ok(r) or math.isnan(num(r["fps"])):
            continue
        if r["format"] != "RGBA" and v != "gaussianblur-cpu":
            continue
        if v in ("h2d", "d2h", "pcie-h2d-stream", "pcie-d2h-stream"):
            continue
        if v not in ("passthrough", "pcie-floor") and num(r["sigma"]) != BASE_SIGMA:
            continue
        key = series_label(r, many)
        mp = int(r["width"]) * int(r["height"]) / 1e6
        series.setdefault(key, []).append((mp, num(r["fps"]), (int(r["width"]), int(r["height"]))))
    if not series:
        print("no RGBA rows for the fps-vs-size chart", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(9, 6))
    ticks = {}
    for key in sorted(series):
        pts = sorted(series[key])
        style = "--" if key.startswith("pcie-floor") else "-"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", label=key)
        for p in pts:
            ticks[p[0]] = SIZE_NAMES.get(p[2], f"{p[2][0]}x{p[2][1]}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sorted(ticks))
    ax.set_xticklabels([f"{ticks[t]}\n{t:.2f} MP" for t in sorted(ticks)])
    ax.minorticks_off()
    ax.set_xlabel("frame size (megapixels)")
    ax.set_ylabel("frames per second")
    ax.set_title(f"cudagaussian pipelines, RGBA, sigma {BASE_SIGMA:g} (gaussianblur: AYUV)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print(f"wrote {out}")


def plot_fps_vs_sigma(plt, rows, fir, peers, out):
    many = len({r["device"] for r in rows}) > 1
    series = {}
    floor = {}
    for r in rows:
        if not ok(r) or r["format"] != "RGBA" or r["width"] != "1920" or r["height"] != "1080":
            continue
        fps = num(r["fps"])
        if math.isnan(fps):
            continue
        if r["variant"] == "pcie-floor":
            floor[r["device"]] = fps
            continue
        if r["variant"] not in ("sysmem-pinned", "cudamem", "kernel", "sysmem-pageable",
                                "cudaupload-download"):
            continue
        key = series_label(r, many) if r["variant"] != "kernel" else (
            "cudagaussian kernel alone (bench_pipeline)" +
            (f" [{r['device']}]" if many else ""))
        series.setdefault(key, {})[num(r["sigma"])] = fps
    for r in fir:
        if r.get("width") != "1920" or r.get("height") != "1080" or r.get("channels") != "4":
            continue
        us = num(r["fir_us"])
        if us > 0:
            key = "FIR kernel (bench_fir)" + (f" [{r['device']}]" if many else "")
            series.setdefault(key, {})[num(r["sigma"])] = 1e6 / us
    for r in peers:
        if not ok(r) or r.get("width") != "1920" or r.get("height") != "1080":
            continue
        ms = num(r["median_ms"])
        if ms > 0:
            key = f"peer: {r['peer']} {r.get('dtype', '')}".strip()
            series.setdefault(key, {})[num(r["sigma"])] = 1e3 / ms
    # Runs made at one sigma only (the other frames-in-flight settings) would be lone dots.
    series = {k: v for k, v in series.items() if len(v) >= 2}
    if not series:
        print("no Full HD RGBA rows for the fps-vs-sigma chart", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(9, 6))
    for key in sorted(series):
        pts = sorted(series[key].items())
        style = ":" if key.startswith("peer") else "-"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", label=key)
    for dev, fps in floor.items():
        ax.axhline(fps, color="grey", linestyle="--", linewidth=1)
        ax.annotate("PCIe floor (H2D+D2H overlapped)" + (f" [{dev}]" if many else ""),
                    (0.01, fps), xycoords=("axes fraction", "data"), fontsize=8,
                    va="bottom", color="grey")
    ax.set_xscale("log")
    ax.set_yscale("log")
    sigmas = sorted({s for v in series.values() for s in v})
    ax.set_xticks(sigmas)
    ax.set_xticklabels([f"{s:g}" for s in sigmas])
    ax.minorticks_off()
    ax.set_xlabel("sigma (pixels)")
    ax.set_ylabel("frames per second (kernels and peers: 1 / time per frame)")
    ax.set_title("Full HD RGBA: cudagaussian against the peers")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print(f"wrote {out}")


def plot_latency(plt, rows, out):
    many = len({r["device"] for r in rows}) > 1
    bars = []
    budget = {}
    for r in rows:
        if not ok(r) or r["format"] != "RGBA" or r["width"] != "1920" or r["height"] != "1080":
            continue
        med, p95 = num(r["latency_median_ms"]), num(r["latency_p95_ms"])
        if r["variant"] in ("h2d", "kernel", "d2h") and (
                r["variant"] != "kernel" or num(r["sigma"]) == BASE_SIGMA):
            budget.setdefault(r["device"], {})[r["variant"]] = med
            continue
        if r["variant"] not in PIPELINE_VARIANTS or math.isnan(med):
            continue
        if r["variant"] != "passthrough" and num(r["sigma"]) != BASE_SIGMA:
            continue
        bars.append((series_label(r, many), med, p95))
    for dev, parts in budget.items():
        if len(parts) == 3:
            total = parts["h2d"] + parts["kernel"] + parts["d2h"]
            bars.append(("H2D + kernel + D2H (estimate)" + (f" [{dev}]" if many else ""),
                         total, math.nan))
    if not bars:
        print("no Full HD RGBA latency rows", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(bars) + 1.5))
    labels = [b[0] for b in bars]
    med = [b[1] for b in bars]
    err = [[0 for _ in bars], [max(0.0, b[2] - b[1]) if not math.isnan(b[2]) else 0 for b in bars]]
    colors = ["tab:grey" if b[0].startswith("H2D") else "tab:blue" for b in bars]
    ax.barh(range(len(bars)), med, xerr=err, color=colors, capsize=3)
    ax.set_yticks(range(len(bars)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("latency per frame, ms (median; whisker: p95)")
    ax.set_title(f"Full HD RGBA, sigma {BASE_SIGMA:g}: appsrc push → fakesink handoff")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    for i, b in enumerate(bars):
        end = b[2] if not math.isnan(b[2]) and b[2] > b[1] else b[1]
        ax.annotate(f"{b[1]:.3g} ms", (end, i), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=7)
    ax.set_xlim(right=ax.get_xlim()[1] * 2.5)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="*", help="CSV files (default: bench_pipeline.csv)")
    ap.add_argument("-o", "--out-dir", default=".", help="where the PNGs go")
    args = ap.parse_args()
    paths = args.csv or ["bench_pipeline.csv"]
    for p in paths:
        if not os.path.exists(p):
            print(f"{p}: no such file", file=sys.stderr)
            return 1
    plt = load_matplotlib()
    pipeline, fir, peers = read_csvs(paths)
    os.makedirs(args.out_dir, exist_ok=True)
    if pipeline:
        plot_fps_vs_size(plt, pipeline, os.path.join(args.out_dir, "pipeline_fps_vs_size.png"))
        plot_latency(plt, pipeline, os.path.join(args.out_dir, "pipeline_latency.png"))
    else:
        print("no bench_pipeline rows: only the sigma chart (if any) is drawn", file=sys.stderr)
    if pipeline or fir or peers:
        plot_fps_vs_sigma(plt, pipeline, fir, peers,
                          os.path.join(args.out_dir, "pipeline_fps_vs_sigma.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
