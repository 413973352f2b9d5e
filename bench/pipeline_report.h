// SPDX-License-Identifier: LGPL-2.1-or-later
// bench_pipeline's output: the Markdown tables and targets on stdout, and the CSV of every
// measurement (bench/plot_pipeline.py and docs/bench/ read both).
#pragma once

#include <gst/video/video.h>

#include <map>
#include <string>
#include <vector>

#include "cuda_floors.h"
#include "pipeline_results.h"

namespace pipeline_bench {

struct Case {
  GstVideoFormat format;
  int width, height;
  const char* label;
};

struct CaseResult {
  Case c;
  PcieFloor floor;
  Budget budget;
  std::string floor_status = "ok", budget_status = "ok";
};

struct Report {
  std::string device;
  int major, minor, driver, runtime;
  double total_s;
  const std::vector<CaseResult>& case_results;
  std::map<double, Budget>& sweep_kernels;
};

// Markdown on stdout: the tables, then the targets.
void print_report(const Report& r);
bool write_csv(const std::string& path);

}  // namespace pipeline_bench
