// SPDX-License-Identifier: LGPL-2.1-or-later
#include "pipeline_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pipeline_bench {

namespace {

const Measurement* find(const std::string& variant, const std::string& format, int w, int h,
                        double sigma, int fif) {
  for (const Measurement& m : g_results)
    if (m.variant == variant && m.format == format && m.width == w && m.height == h &&
        m.sigma == sigma && m.frames_in_flight == fif)
      return &m;
  return nullptr;
}

// The fastest successful run of @variant (any frames in flight).
const Measurement* best(const std::string& variant, const std::string& format, int w, int h,
                        double sigma) {
  const Measurement* b = nullptr;
  for (const Measurement& m : g_results)
    if (m.ok() && m.variant == variant && m.format == format && m.width == w && m.height == h &&
        m.sigma == sigma && (!b || m.fps > b->fps))
      b = &m;
  return b;
}

std::string fif_text(const Measurement& m) {
  return m.frames_in_flight > 0 ? std::to_string(m.frames_in_flight) : "auto";
}

void print_pipeline_table(const std::vector<const Measurement*>& rows, double floor_fps,
                          bool sigma_column) {
  std::printf("| variant |%s frames in flight | frames | fps | × PCIe floor | latency median ms "
              "| latency p95 ms | Mpixel/s | status |\n",
              sigma_column ? " sigma |" : "");
  std::printf("|---|%s---:|---:|---:|---:|---:|---:|---:|---|\n", sigma_column ? "---:|" : "");
  for (const Measurement* m : rows) {
    std::printf("| %s |%s %s | %d | %s | %s | %s | %s | %s | %s |\n", m->variant.c_str(),
                sigma_column ? (" " + fmt(m->sigma, "%g") + " |").c_str() : "",
                fif_text(*m).c_str(), m->frames, fmt(m->fps).c_str(),
                fmt(m->fps / floor_fps, "%.2f").c_str(), fmt(m->lat_med_ms, "%.3f").c_str(),
                fmt(m->lat_p95_ms, "%.3f").c_str(), fmt(m->pixels_per_second() / 1e6).c_str(),
                m->status.c_str());
  }
  std::printf("\n");
}

std::string csv_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += (c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

}  // namespace

bool write_csv(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  std::fprintf(f, "device,variant,format,width,height,sigma,frames_in_flight,frames,fps,"
                  "latency_median_ms,latency_p95_ms,pixels_per_second,gbps,status\n");
  auto num = [](double v, const char* format) { return std::isnan(v) ? std::string() : fmt(v, format); };
  for (const Measurement& m : g_results)
    std::fprintf(f, "%s,%s,%s,%d,%d,%g,%d,%d,%s,%s,%s,%s,%s,%s\n",
                 csv_quote(g_device_name).c_str(), m.variant.c_str(), m.format.c_str(), m.width,
                 m.height, m.sigma, m.frames_in_flight, m.frames, num(m.fps, "%.2f").c_str(),
                 num(m.lat_med_ms, "%.4f").c_str(), num(m.lat_p95_ms, "%.4f").c_str(),
                 num(m.pixels_per_second(), "%.0f").c_str(), num(m.gbps, "%.2f").c_str(),
                 csv_quote(m.status).c_str());
  std::fclose(f);
  return true;
}

void print_report(const Report& r) {
  const std::vector<CaseResult>& case_results = r.case_results;
  std::map<double, Budget>& sweep_kernels = r.sweep_kernels;
  std::printf("# cudagaussian pipeline benchmark\n\n");
  std::printf("%s (compute capability %d.%d), driver %d.%d, CUDA runtime %d.%d, %s. Each run "
              "pushes N frames from appsrc\n(K = %d rotating pre-filled frames, random bytes) "
              "through the pipeline into fakesink sync=false; the first %d are warm-up.\n"
              "fps: frames / time between the handoffs of the last warm-up frame and the last "
              "frame. Latency: appsrc pushing\na frame downstream → fakesink handoff (appsrc's "
              "queue excluded); with 1 frame in flight, the live latency.\n"
              "× PCIe floor: fps over the overlapped H2D+D2H copy rate of the same frame size, "
              "measured in this run.\nTotal time %.0f s.\n\n",
              r.device.c_str(), r.major, r.minor, r.driver / 1000, (r.driver % 1000) / 10,
              r.runtime / 1000, (r.runtime % 1000) / 10, gst_version_string(), kFrames, kWarmup,
              r.total_s);

  std::printf("## PCIe floor (pinned memory, whole-frame cudaMemcpyAsync)\n\n");
  std::printf("| format | size | MB/frame | H2D+D2H overlapped fps | GB/s per direction, "
              "overlapped | H2D alone GB/s | D2H alone GB/s | status |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---|\n");
  for (const CaseResult& cr : case_results) {
    const GstVideoInfo info = video_info(cr.c.format, cr.c.width, cr.c.height);
    std::printf("| %s | %dx%d | %.2f | %s | %s | %s | %s | %s |\n",
                format_name(cr.c.format).c_str(), cr.c.width, cr.c.height,
                GST_VIDEO_INFO_SIZE(&info) / 1e6, fmt(cr.floor.fps).c_str(),
                fmt(cr.floor.gbps, "%.1f").c_str(), fmt(cr.floor.h2d_gbps, "%.1f").c_str(),
                fmt(cr.floor.d2h_gbps, "%.1f").c_str(), cr.floor_status.c_str());
  }
  std::printf("\n## Pipelines at sigma %g\n\n", kSigma);
  for (const CaseResult& cr : case_results) {
    const std::string f = format_name(cr.c.format);
    std::printf("### %s %s %dx%d\n\n", cr.c.label, f.c_str(), cr.c.width, cr.c.height);
    std::vector<const Measurement*> rows;
    for (const Measurement& m : g_results)
      if (m.format == f && m.width == cr.c.width && m.height == cr.c.height &&
          (m.sigma == kSigma || m.variant == "passthrough") && m.variant != "kernel" &&
          m.variant.rfind("pcie", 0) != 0 && m.variant != "h2d" && m.variant != "d2h")
        rows.push_back(&m);
    print_pipeline_table(rows, cr.floor.fps, false);
  }

  std::printf("## Latency budget of one system-memory frame (pinned), sigma %g\n\n", kSigma);
  std::printf("H2D, kernel, D2H: medians of %d single operations timed with CUDA events (2D "
              "copies per plane, as the element does them).\nMeasured: median latency of the "
              "sysmem-pinned pipeline with 1 frame in flight. Target: ratio ≤ 1.25.\n\n",
              kOpSamples);
  std::printf("| format | size | H2D µs | kernel µs | D2H µs | sum µs | measured µs | measured / "
              "sum |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (const CaseResult& cr : case_results) {
    const Measurement* live = find("sysmem-pinned", format_name(cr.c.format), cr.c.width,
                                   cr.c.height, kSigma, 1);
    const double lat_us = live && live->ok() ? live->lat_med_ms * 1e3 : kNaN;
    std::printf("| %s | %dx%d | %s | %s | %s | %s | %s | %s |\n", format_name(cr.c.format).c_str(),
                cr.c.width, cr.c.height, fmt(cr.budget.h2d_us, "%.1f").c_str(),
                fmt(cr.budget.kernel_us, "%.1f").c_str(), fmt(cr.budget.d2h_us, "%.1f").c_str(),
                fmt(cr.budget.sum_us(), "%.1f").c_str(), fmt(lat_us, "%.1f").c_str(),
                fmt(lat_us / cr.budget.sum_us(), "%.2f").c_str());
  }

  std::printf("\n## Sigma sweep, RGBA 1920x1080\n\n");
  {
    double floor_fps = kNaN;
    for (const CaseResult& cr : case_results)
      if (cr.c.format == GST_VIDEO_FORMAT_RGBA && cr.c.width == 1920) floor_fps = cr.floor.fps;
    std::printf("| sigma | kernel µs | kernel fps | sysmem-pinned fif 1 fps | sysmem-pinned fif 3 "
                "fps | × PCIe floor | cudamem fif 3 fps | fif 1 latency ms |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (double s : kSweep) {
      const Measurement* p1 = find("sysmem-pinned", "RGBA", 1920, 1080, s, 1);
      const Measurement* p3 = find("sysmem-pinned", "RGBA", 1920, 1080, s, 3);
      const Measurement* c3 = find("cudamem", "RGBA", 1920, 1080, s, 3);
      auto fps = [](const Measurement* m) { return m && m->ok() ? m->fps : kNaN; };
      const Budget& b = sweep_kernels[s];
      std::printf("| %g | %s | %s | %s | %s | %s | %s | %s |\n", s,
                  fmt(b.kernel_us, "%.1f").c_str(), fmt(1e6 / b.kernel_us).c_str(),
                  fmt(fps(p1)).c_str(), fmt(fps(p3)).c_str(),
                  fmt(fps(p3) / floor_fps, "%.2f").c_str(), fmt(fps(c3)).c_str(),
                  fmt(p1 && p1->ok() ? p1->lat_med_ms : kNaN, "%.3f").c_str());
    }
    std::printf("\nFailed or skipped runs of the sweep:\n\n");
    int n_bad = 0;
    for (const Measurement& m : g_results)
      if (!m.ok() && m.format == "RGBA" && m.width == 1920 && m.sigma != kSigma &&
          m.variant != "passthrough" && m.variant.rfind("pcie", 0) != 0) {
        std::printf("- %s sigma %g fif %d: %s\n", m.variant.c_str(), m.sigma, m.frames_in_flight,
                    m.status.c_str());
        ++n_bad;
      }
    if (!n_bad) std::printf("- none\n");
  }

  std::printf("\n## GStreamer CPU `gaussianblur` (AYUV, sigma %g), the CPU peer\n\n", kSigma);
  {
    std::vector<const Measurement*> rows;
    for (const Measurement& m : g_results)
      if (m.variant == "gaussianblur-cpu") rows.push_back(&m);
    std::printf("| size | frames | fps | ms per frame | latency median ms | status |\n");
    std::printf("|---|---:|---:|---:|---:|---|\n");
    for (const Measurement* m : rows)
      std::printf("| %dx%d | %d | %s | %s | %s | %s |\n", m->width, m->height, m->frames,
                  fmt(m->fps, "%.2f").c_str(), fmt(1e3 / m->fps, "%.1f").c_str(),
                  fmt(m->lat_med_ms, "%.1f").c_str(), m->status.c_str());
  }

  // ---------------------------------------------------------------- targets
  std::printf("\n## Targets, on %s\n\n", r.device.c_str());
  {
    const CaseResult* fhd = nullptr;
    for (const CaseResult& cr : case_results)
      if (cr.c.format == GST_VIDEO_FORMAT_RGBA && cr.c.width == 1920) fhd = &cr;
    const Measurement* bp = best("sysmem-pinned", "RGBA", 1920, 1080, kSigma);
    if (fhd && bp && !std::isnan(fhd->floor.fps)) {
      const double r = bp->fps / fhd->floor.fps;
      std::printf("- Full HD RGBA system memory: best %.0f fps (frames-in-flight %d) = %.1f %% of "
                  "the PCIe floor %.0f fps (target ≥ 85 %%): %s\n",
                  bp->fps, bp->frames_in_flight, 100 * r, fhd->floor.fps,
                  r >= 0.85 ? "met" : ("MISSED by " + fmt(100 * (0.85 - r), "%.1f") +
                                       " points").c_str());
    } else {
      std::printf("- Full HD RGBA system memory vs PCIe floor: not measured (see failures)\n");
    }
    const Measurement* bc = best("cudamem", "RGBA", 1920, 1080, kSigma);
    if (bc)
      std::printf("- Full HD RGBA CUDA memory: best %.0f fps (frames-in-flight %d) (target ≥ "
                  "10000): %s\n",
                  bc->fps, bc->frames_in_flight,
                  bc->fps >= 10000 ? "met" : ("MISSED by " + fmt(10000 - bc->fps) + " fps").c_str());
    else
      std::printf("- Full HD RGBA CUDA memory: not measured (see failures)\n");
    const Measurement* live = find("sysmem-pinned", "RGBA", 1920, 1080, kSigma, 1);
    if (fhd && live && live->ok() && !std::isnan(fhd->budget.sum_us())) {
      const double r = live->lat_med_ms * 1e3 / fhd->budget.sum_us();
      std::printf("- Live latency, Full HD RGBA system memory, 1 frame in flight: %.1f µs median "
                  "(p95 %.1f µs) = %.2f × (H2D %.1f + kernel %.1f + D2H %.1f = %.1f µs) "
                  "(target ≤ 1.25×): %s\n",
                  live->lat_med_ms * 1e3, live->lat_p95_ms * 1e3, r, fhd->budget.h2d_us,
                  fhd->budget.kernel_us, fhd->budget.d2h_us, fhd->budget.sum_us(),
                  r <= 1.25 ? "met" : ("MISSED by " + fmt(r - 1.25, "%.2f") + "×").c_str());
    } else {
      std::printf("- Live latency: not measured (see failures)\n");
    }
    for (const char* variant : {"sysmem-pinned", "cudamem"}) {
      double lo = kNaN, hi = kNaN;
      std::string detail;
      for (const CaseResult& cr : case_results) {
        if (cr.c.format != GST_VIDEO_FORMAT_RGBA) continue;
        const Measurement* b = best(variant, "RGBA", cr.c.width, cr.c.height, kSigma);
        if (!b) continue;
        const double pps = b->pixels_per_second() / 1e6;
        lo = std::isnan(lo) ? pps : std::min(lo, pps);
        hi = std::isnan(hi) ? pps : std::max(hi, pps);
        detail += (detail.empty() ? "" : ", ") + std::string(cr.c.label) + " " + fmt(pps);
      }
      if (std::isnan(lo)) continue;
      const double spread = hi / lo - 1.0;
      std::printf("- Linear in pixels, %s RGBA (best frames-in-flight, Mpixel/s): %s; spread "
                  "%.0f %% (target ≤ 20 %%): %s\n",
                  variant, detail.c_str(), 100 * spread,
                  spread <= 0.20 ? "met" : "MISSED (small frames pay fixed per-frame costs)");
    }
  }

}

}  // namespace pipeline_bench
