#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Times the Gaussian blurs a user could use instead of cudagaussian, on the GPU host.

Peers, each on 1080p RGBA8 frames of random bytes, sigma 1, 2, 5, 10, 30 (both axes; the
channel axis is never blurred), kernel support ceil(4 sigma) pixels each side (2*ceil(4s)+1 taps):
  npp           nppiFilterGaussAdvancedBorder_8u_C4R(_Ctx) through ctypes (libnppif/libnppc of
                the CUDA toolkit), sampled Gaussian taps in device memory, replicate border
  cupy          cupyx.scipy.ndimage.gaussian_filter, uint8 in and out, sigma (s, s, 0),
                mode='nearest' (= replicate), truncate=4
  torchvision   torchvision.transforms.v2.functional.gaussian_blur on CHW tensors on the GPU,
                uint8 and float32 (reflect border: torchvision has no other)
  opencv-cpu    cv2.GaussianBlur on the CPU (all OpenCV threads), BORDER_REPLICATE
Each peer rotates among >= 8 source frames (and destinations where the API takes one) so the
GPU's L2 cache cannot hold the working set, runs a few untimed calls, then times >= 20 calls one
by one (GPU: CUDA events around each call; CPU: wall clock) and reports the median and p95.
A peer that cannot be imported or loaded is reported as skipped with the reason, a failing run
as failed; the others go on.

Usage: peers.py [--csv peers.csv] [--runs 20] [--sigmas 1,2,5,10,30] [--width 1920]
                [--height 1080] [--frames 8] [--only PEER[,PEER...]]
Prints a Markdown table and writes the CSV (plot it with bench/plot_pipeline.py).
"""

import argparse
import csv
import ctypes
import glob
import math
import os
import re
import statistics
import sys
import time

CUDA_HOME = os.environ.get("CUDA_HOME", os.environ.get("CUDA_PATH", "/usr/local/cuda"))
WARMUP = 3
PEERS = ["npp", "cupy", "torchvision", "opencv-cpu"]


def taps_radius(sigma):
    return int(math.ceil(4.0 * sigma))


def kernel_size(sigma):
    return 2 * taps_radius(sigma) + 1


def gaussian_taps(sigma):
    import numpy as np
    r = taps_radius(sigma)
    x = np.arange(-r, r + 1, dtype=np.float64)
    w = np.exp(-0.5 * (x / sigma) ** 2)
    return (w / w.sum()).astype(np.float32)


def summarize(ms):
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, max(0, math.ceil(0.95 * len(ms)) - 1))]
    return statistics.median(ms), p95


class Result:
    def __init__(self, peer, dtype, sigma, width, height):
        self.peer, self.dtype, self.sigma = peer, dtype, sigma
        self.width, self.height = width, height
        self.median_ms = math.nan
        self.p95_ms = math.nan
        self.runs = 0
        self.status = "ok"
        self.note = ""

    @property
    def fps(self):
        return 1e3 / self.median_ms if self.median_ms > 0 else math.nan


# ---------------------------------------------------------------- timing

def time_gpu_cupy(fn, runs, frames):
    """CUDA events on CuPy's current stream around each call of fn(i)."""
    import cupy as cp
    for i in range(WARMUP):
        fn(i % frames)
    cp.cuda.get_current_stream().synchronize()
    events = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(runs)]
    for i, (a, b) in enumerate(events):
        a.record()
        fn(i % frames)
        b.record()
    events[-1][1].synchronize()
    return [cp.cuda.get_elapsed_time(a, b) for a, b in events]


def time_gpu_torch(fn, runs, frames):
    import torch
    for i in range(WARMUP):
        fn(i % frames)
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(runs)]
    keep = []  # outputs stay alive until timed, so the allocator does not serialise on them
    for i, (a, b) in enumerate(events):
        a.record()
        keep.append(fn(i % frames))
        b.record()
        if len(keep) > frames:
            keep.pop(0)
    torch.cuda.synchronize()
    return [a.elapsed_time(b) for a, b in events]


def time_cpu(fn, runs, frames):
    for i in range(WARMUP):
        fn(i % frames)
    out = []
    for i in range(runs):
        t0 = time.perf_counter()
        fn(i % frames)
        out.append((time.perf_counter() - t0) * 1e3)
    return out


# ---------------------------------------------------------------- NPP through ctypes

class NppiSize(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int)]


class NppiPoint(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class NppStreamContext(ctypes.Structure):
    # nppdefs.h (CUDA 11.x to 13.x)
    _fields_ = [("hStream", ctypes.c_void_p),
                ("nCudaDeviceId", ctypes.c_int),
                ("nMultiProcessorCount", ctypes.c_int),
                ("nMaxThreadsPerMultiProcessor", ctypes.c_int),
                ("nMaxThreadsPerBlock", ctypes.c_int),
                ("nSharedMemPerBlock", ctypes.c_size_t),
                ("nCudaDevAttrComputeCapabilityMajor", ctypes.c_int),
                ("nCudaDevAttrComputeCapabilityMinor", ctypes.c_int),
                ("nStreamFlags", ctypes.c_uint),
                ("nReserved0", ctypes.c_int)]


NPP_BORDER_REPLICATE = 2  # nppdefs.h: UNDEFINED/NONE 0, CONSTANT 1, REPLICATE 2, WRAP 3, MIRROR 4


def check_npp_header():
    """Where the toolkit's nppdefs.h is present, checks the enum value and struct layout used
    here; returns a reason to skip NPP, or None."""
    global NPP_BORDER_REPLICATE
    path = os.path.join(CUDA_HOME, "include", "nppdefs.h")
    if not os.path.exists(path):
        return None
    text = open(path, errors="replace").read()
    m = re.search(r"NPP_BORDER_REPLICATE\s*=\s*(\d+)", text)
    if m:
        NPP_BORDER_REPLICATE = int(m.group(1))
    m = re.search(r"\{([^{}]*)\}\s*NppStreamContext\s*;", text)
    if m:
        body = re.sub(r"/\*.*?\*/|//[^\n]*", "", m.group(1), flags=re.S)
        names = re.findall(r"(\w+)\s*;", body)
        expected = [f[0] for f in NppStreamContext._fields_]
        if names != expected:
            return f"NppStreamContext in {path} is {names}, expected {expected}"
    return None


def load_library(stem):
    """libSTEM.so from the CUDA toolkit, else from the loader's search path."""
    dirs = [os.path.join(CUDA_HOME, "lib64"), os.path.join(CUDA_HOME, "lib"),
            os.path.join(CUDA_HOME, "targets", "x86_64-linux", "lib"), "/usr/local/cuda/lib64"]
    candidates = []
    for d in dirs:
        candidates += sorted(glob.glob(os.path.join(d, f"lib{stem}.so*")), key=len)
    candidates += [f"lib{stem}.so", f"lib{stem}.so.13", f"lib{stem}.so.12", f"lib{stem}.so.11"]
    errors = []
    for c in candidates:
        try:
            return ctypes.CDLL(c, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            errors.append(str(e))
    raise OSError(f"lib{stem}.so not found ({'; '.join(errors[-2:]) or 'no candidates'})")


def npp_gauss_function():
    reason = check_npp_header()
    if reason:
        raise RuntimeError(reason)
    load_library("nppc")
    nppif = load_library("nppif")
    for name, ctx in (("nppiFilterGaussAdvancedBorder_8u_C4R_Ctx", True),
                      ("nppiFilterGaussAdvancedBorder_8u_C4R", False)):
        fn = getattr(nppif, name, None)
        if fn is None:
            continue
        args = [ctypes.c_void_p, ctypes.c_int, NppiSize, NppiPoint, ctypes.c_void_p,
                ctypes.c_int, NppiSize, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        if ctx:
            args.append(NppStreamContext)
        fn.argtypes = args
        fn.restype = ctypes.c_int
        return fn, ctx, name
    raise RuntimeError("libnppif has no nppiFilterGaussAdvancedBorder_8u_C4R(_Ctx)")


def run_npp(host_frames, sigmas, runs, results, device):
    import cupy as cp
    fn, with_ctx, name = npp_gauss_function()
    print(f"NPP: {name}", file=sys.stderr)
    k, h, w, c = host_frames.shape
    src = [cp.asarray(host_frames[i]) for i in range(k)]
    dst = [cp.empty_like(s) for s in src]
    step = w * c
    size = NppiSize(w, h)
    ctx = NppStreamContext()
    if with_ctx:
        props = cp.cuda.runtime.getDeviceProperties(device)
        ctx.hStream = cp.cuda.get_current_stream().ptr  # 0: the legacy default stream
        ctx.nCudaDeviceId = device
        ctx.nMultiProcessorCount = props["multiProcessorCount"]
        ctx.nMaxThreadsPerMultiProcessor = props["maxThreadsPerMultiProcessor"]
        ctx.nMaxThreadsPerBlock = props["maxThreadsPerBlock"]
        ctx.nSharedMemPerBlock = props["sharedMemPerBlock"]
        ctx.nCudaDevAttrComputeCapabilityMajor = props["major"]
        ctx.nCudaDevAttrComputeCapabilityMinor = props["minor"]
        ctx.nStreamFlags = 0
    for s in sigmas:
        r = Result("npp", "uint8", s, w, h)
        try:
            taps = cp.asarray(gaussian_taps(s))
            n_taps = int(taps.size)
            bad = []

            def call(i):
                args = [ctypes.c_void_p(src[i].data.ptr), step, size, NppiPoint(0, 0),
                        ctypes.c_void_p(dst[i].data.ptr), step, size, n_taps,
                        ctypes.c_void_p(taps.data.ptr), NPP_BORDER_REPLICATE]
                if with_ctx:
                    args.append(ctx)
                st = fn(*args)
                if st < 0:
                    bad.append(st)

            ms = time_gpu_cupy(call, runs, k)
            if bad:
                raise RuntimeError(f"{name} returned NppStatus {bad[0]}")
            r.median_ms, r.p95_ms = summarize(ms)
            r.runs = len(ms)
            # A blur leaves random input anything but unchanged.
            if bool((dst[0] == src[0]).all()):
                r.note = "output equals input?"
        except Exception as e:  # noqa: BLE001 - reported, then the next sigma
            r.status = f"failed: {type(e).__name__}: {e}"
        results.append(r)


# ---------------------------------------------------------------- CuPy, torchvision, OpenCV

def run_cupy(host_frames, sigmas, runs, results):
    import cupy as cp
    from cupyx.scipy import ndimage as cnd
    k, h, w, _ = host_frames.shape
    src = [cp.asarray(host_frames[i]) for i in range(k)]
    dst = [cp.empty_like(s) for s in src]
    for s in sigmas:
        r = Result("cupy", "uint8", s, w, h)
        try:
            ms = time_gpu_cupy(
                lambda i: cnd.gaussian_filter(src[i], sigma=(s, s, 0), output=dst[i],
                                              mode="nearest", truncate=4.0), runs, k)
            r.median_ms, r.p95_ms = summarize(ms)
            r.runs = len(ms)
        except Exception as e:  # noqa: BLE001
            r.status = f"failed: {type(e).__name__}: {e}"
        results.append(r)


def run_torchvision(host_frames, sigmas, runs, results):
    import torch
    from torchvision.transforms.v2 import functional as TF
    if not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")
    k, h, w, _ = host_frames.shape
    base = [torch.from_numpy(host_frames[i]).permute(2, 0, 1).contiguous().cuda()
            for i in range(k)]
    for dtype in ("uint8", "float32"):
        frames = base if dtype == "uint8" else [f.float() for f in base]
        for s in sigmas:
            r = Result("torchvision", dtype, s, w, h)
            r.note = "reflect border"
            try:
                ks = kernel_size(s)
                ms = time_gpu_torch(
                    lambda i: TF.gaussian_blur(frames[i], kernel_size=[ks, ks], sigma=[s, s]),
                    runs, k)
                r.median_ms, r.p95_ms = summarize(ms)
                r.runs = len(ms)
            except Exception as e:  # noqa: BLE001
                r.status = f"failed: {type(e).__name__}: {e}"
            results.append(r)
        del frames
    torch.cuda.empty_cache()


def run_opencv(host_frames, sigmas, runs, results):
    import cv2
    import numpy as np
    k, h, w, _ = host_frames.shape
    src = [np.ascontiguousarray(host_frames[i]) for i in range(k)]
    dst = [np.empty_like(f) for f in src]
    threads = cv2.getNumThreads()
    for s in sigmas:
        r = Result("opencv-cpu", "uint8", s, w, h)
        r.note = f"OpenCV {cv2.__version__}, {threads} threads, {os.cpu_count()} CPUs"
        try:
            ks = kernel_size(s)
            ms = time_cpu(lambda i: cv2.GaussianBlur(src[i], (ks, ks), sigmaX=s, sigmaY=s,
                                                     dst=dst[i],
                                                     borderType=cv2.BORDER_REPLICATE),
                          runs, k)
            r.median_ms, r.p95_ms = summarize(ms)
            r.runs = len(ms)
        except Exception as e:  # noqa: BLE001
            r.status = f"failed: {type(e).__name__}: {e}"
        results.append(r)


# ---------------------------------------------------------------- main

def device_name():
    try:
        import cupy as cp
        props = cp.cuda.runtime.getDeviceProperties(0)
        name = props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception:  # noqa: BLE001
        pass
    try:
        import torch
        if torch.cuda.is_available():
            return torch.cuda.get_device_name(0)
    except Exception:  # noqa: BLE001
        pass
    return "no CUDA device"


def run_isolated(peer, args, w, h, sigmas):
    """Runs one peer in a child process (this script with --only PEER --in-process) and reads
    its CSV back; a crash becomes a failed row per sigma instead of ending the whole run."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "peer.csv")
        cmd = [sys.executable, os.path.abspath(__file__), "--only", peer, "--in-process",
               "--csv", out, "--runs", str(args.runs), "--sigmas", args.sigmas,
               "--width", str(w), "--height", str(h), "--frames", str(args.frames)]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"{peer} child process timed out")
        sys.stderr.write(proc.stderr)
        if proc.returncode != 0 or not os.path.exists(out):
            how = (f"signal {-proc.returncode}" if proc.returncode < 0
                   else f"exit status {proc.returncode}")
            rows = []
            for s in sigmas:
                r = Result(peer, "uint8", s, w, h)
                r.status = f"failed: child process ended with {how}"
                rows.append(r)
            return rows
        rows = []
        with open(out, newline="") as f:
            for row in csv.DictReader(f):
                r = Result(row["peer"], row["dtype"], float(row["sigma"]), w, h)
                r.median_ms = float(row["median_ms"]) if row["median_ms"] else math.nan
                r.p95_ms = float(row["p95_ms"]) if row["p95_ms"] else math.nan
                r.runs = int(row["runs"] or 0)
                r.status, r.note = row["status"], row["note"]
                rows.append(r)
        return rows


def skipped(peer, dtypes, sigmas, w, h, reason):
    out = []
    for d in dtypes:
        for s in sigmas:
            r = Result(peer, d, s, w, h)
            r.status = f"skipped: {reason}"
            out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", default="peers.csv")
    ap.add_argument("--runs", type=int, default=20, help="timed calls per point (>= 20)")
    ap.add_argument("--sigmas", default="1,2,5,10,30")
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--frames", type=int, default=8, help="rotating frames (>= 8)")
    ap.add_argument("--only", default=",".join(PEERS), help="comma-separated subset of " +
                    ", ".join(PEERS))
    ap.add_argument("--in-process", action="store_true",
                    help="run NPP in this process too (by default it runs in a child process)")
    args = ap.parse_args()
    runs = max(20, args.runs)
    frames = max(8, args.frames)
    sigmas = [float(s) for s in args.sigmas.split(",") if s.strip()]
    only = [p.strip() for p in args.only.split(",") if p.strip()]
    w, h = args.width, args.height

    try:
        import numpy as np
    except ImportError:
        print("numpy is required (python3 -m pip install numpy)", file=sys.stderr)
        return 1
    rng = np.random.default_rng(42)
    # Random bytes 1..255: never an all-zero frame.
    host = rng.integers(1, 256, size=(frames, h, w, 4), dtype=np.uint8)
    device = device_name()
    print(f"{device}: {w}x{h} RGBA8, {frames} rotating frames, {WARMUP} warm-up calls, median "
          f"of {runs} timed calls", file=sys.stderr)

    results = []
    runners = {
        "npp": (lambda: run_npp(host, sigmas, runs, results, 0), ["uint8"]),
        "cupy": (lambda: run_cupy(host, sigmas, runs, results), ["uint8"]),
        "torchvision": (lambda: run_torchvision(host, sigmas, runs, results),
                        ["uint8", "float32"]),
        "opencv-cpu": (lambda: run_opencv(host, sigmas, runs, results), ["uint8"]),
    }
    for peer in PEERS:
        if peer not in only:
            continue
        fn, dtypes = runners[peer]
        t0 = time.perf_counter()
        before = len(results)
        try:
            if peer == "npp" and not args.in_process:
                # ctypes with a guessed ABI can crash the interpreter: NPP runs in a child.
                results += run_isolated(peer, args, w, h, sigmas)
            else:
                fn()
        except Exception as e:  # noqa: BLE001 - an unavailable peer is a row, not a crash
            reason = f"{type(e).__name__}: {e}".strip()
            print(f"{peer}: skipped ({reason})", file=sys.stderr)
            # Rows already produced stay; the rest of this peer's grid is skipped.
            done = {(r.dtype, r.sigma) for r in results[before:]}
            results += [r for r in skipped(peer, dtypes, sigmas, w, h, reason)
                        if (r.dtype, r.sigma) not in done]
        print(f"{peer}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)

    # ---- Markdown
    print(f"# Gaussian blur peers, {w}x{h} RGBA8, on {device}\n")
    print(f"Median (p95) ms per frame over {runs} calls after {WARMUP} warm-up calls, "
          f"{frames} rotating frames; GPU peers timed with CUDA events around each call, "
          f"device-resident frames; OpenCV on the CPU with wall clock. Taps: 2*ceil(4 sigma)+1.\n")
    header = "| peer | dtype | " + " | ".join(f"sigma {s:g}" for s in sigmas) + " |"
    print(header)
    print("|---|---|" + "---:|" * len(sigmas))
    keys = []
    for r in results:
        if (r.peer, r.dtype) not in keys:
            keys.append((r.peer, r.dtype))
    for peer, dtype in keys:
        cells = []
        for s in sigmas:
            r = next((x for x in results if x.peer == peer and x.dtype == dtype
                      and x.sigma == s), None)
            if r is None:
                cells.append("")
            elif r.status != "ok":
                cells.append(r.status.split(":")[0])
            else:
                cells.append(f"{r.median_ms:.3f} ({r.p95_ms:.3f})")
        print(f"| {peer} | {dtype} | " + " | ".join(cells) + " |")
    notes = {}
    for r in results:
        if r.status != "ok":
            notes.setdefault(f"{r.peer} {r.dtype}: {r.status}", []).append(f"{r.sigma:g}")
        elif r.note:
            notes.setdefault(f"{r.peer} {r.dtype}: {r.note}", []).append(f"{r.sigma:g}")
    if notes:
        print()
        for text, ss in notes.items():
            print(f"- {text} (sigma {', '.join(ss)})")

    # ---- CSV
    with open(args.csv, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["device", "peer", "dtype", "width", "height", "channels", "sigma",
                     "kernel_size", "median_ms", "p95_ms", "fps", "runs", "status", "note"])
        for r in results:
            def num(v, fmt):
                return "" if math.isnan(v) else fmt.format(v)
            wr.writerow([device, r.peer, r.dtype, r.width, r.height, 4, f"{r.sigma:g}",
                         kernel_size(r.sigma), num(r.median_ms, "{:.4f}"),
                         num(r.p95_ms, "{:.4f}"), num(r.fps, "{:.2f}"), r.runs, r.status,
                         r.note])
    print(f"\nCSV: {args.csv}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
