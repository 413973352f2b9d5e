// SPDX-License-Identifier: LGPL-2.1-or-later
// Host planning of the recursive Gaussians (plain C++, no CUDA): for each pass, how its lines are
// cut into segments and which kernels and launch shapes run them (PassPlan), the coefficients
// and carry matrices its kernels take as arguments (PassParams), and the scratch a plane needs
// (RecursiveBuffers). The kernels are in recursive_lines.cu and recursive_block_parallel.cu.
#pragma once

#include <cstddef>

#include "plane.h"
#include "recursive_ops.h"
#include "recursive_settings.h"

namespace cudagaussian {
namespace recursive {

// Threads per block of most line kernels, and of a warp.
constexpr int kThreads = 128;
constexpr int kWarp = 32;
// Block-parallel segment length (samples).
constexpr int kSegment = kBlockSegment;
// Block-parallel in one launch per pass (bp_fused_kernel): blocks of whole lines, about
// kFusedTargetThreads threads, at most kFusedMaxThreads; used while a pass has at most
// kFusedMaxItemsPerSm (line, segment) items per SM (docs/bench/kernel_choices.md, "Recursive Gaussians:
// launch forms").
constexpr int kFusedMaxThreads = 512;
constexpr int kFusedTargetThreads = 256;
constexpr int kFusedMaxItemsPerSm = 256;
// Samples of margin around the float plane `mid` for the steps one_way_kernel and
// two_way_exact_kernel run before a line's edge (up to a batch less one).
constexpr int kMidMargin = 32;

// ---- a pass's kernel arguments ------------------------------------------------------------------

constexpr int kMaxCarry = 4;
constexpr int kRunPowers = 5;  // log2 of the 32 lanes of a warp

template <class Ops>
struct PassParams {
  typename Ops::Coeffs k;
  float a_full[kMaxCarry * kMaxCarry];  // A for a whole segment, row-major
  float a_last[kMaxCarry * kMaxCarry];  // A for the last, possibly shorter, segment
  // Young–van Vliet block-parallel: the anticausal carry (from a zero state) of the causal
  // response to a unit entry state and zero input, row-major; zero for Deriche.
  float m_full[kMaxCarry * kMaxCarry];
  float m_last[kMaxCarry * kMaxCarry];
  // Block-parallel scan: A_full^(run·2^d), d < kRunPowers, for runs of `run` segments per lane.
  float run_power[kRunPowers][kMaxCarry * kMaxCarry];
  int run;
  StartUp start;
  int segment;   // samples per segment (the last may be shorter)
  int segments;  // per line
  int warmup;    // TwoWay / KWay: samples run before a segment to forget the unknown start
};

// ---- carry matrices (block-parallel) ------------------------------------------------------------

// A_m: the carry after m zero-input steps from each unit carry (row-major, D x D).
void segment_matrix(const YvvSections<double>& k, int m, double* a);
void segment_matrix(const DericheSections<double>& k, int m, double* a);

// A^(run·2^d), d < kRunPowers, in double by repeated squaring, each rounded once to float.
void run_powers(const double* a, int dim, int run, float (*out)[kMaxCarry * kMaxCarry]);

// M_m (Young–van Vliet, whose anticausal half filters the causal result): the anticausal carry,
// from a zero state, of the causal response to each unit carry over m samples of zero input.
// Deriche's anticausal half reads the input alone: M = 0.
void correction_matrix(const YvvSections<double>& k, int m, float* out_m);
void correction_matrix(const DericheSections<double>& k, int m, float* out_m);

// ---- a pass's plan ------------------------------------------------------------------------------

struct PassPlan {
  bool identity = true;          // sigma 0: the pass only converts (copy_kernel)
  int segments = 1;
  int segment = 0;
  int warmup = 0;
  int block_threads = kThreads;  // one-way, two-way and k-way launches
  int block_lines = 0;           // bp_fused_kernel: whole lines per block (0: the multi-launch kernels)
  int warm_block_lines = 0;      // warm_both_kernel: whole lines per block (0: two launches)
  bool exact_two_way = false;    // two_way_exact_kernel
  bool mid_margins = false;      // one_way_kernel, two_way_exact_kernel: mid with margins (mid_offset)
  int scan_threads = kThreads;   // bp_scan_kernel: a thread per line
  bool chained = false;          // launches overlap the previous kernel's tail (launch_chained)
};

// Threads per block for the one-way / warmed-up kernels: these have a thread per (line,
// segment), few at SD with one or two segments, each a long chain of dependent steps. Smaller
// blocks put them on more SMs (an SD one-way pass is 2,304 threads: 18 blocks of 128).
int block_threads_for(long items, int sm_count);

// Whole lines per block for warm_both_kernel, or 0 where a line's segments (times `group`, the
// lines that share a block) take more than a block's kThreads threads. Columns: a power of two
// up to a warp, so that a warp reads a row of neighbouring samples; rows: as many as the
// one-way blocks' thread count holds.
int warm_block_lines(int segments, int lines, int group, int sm_count);

// Whole lines per block for bp_fused_kernel, or 0 where a line's segments do not fit in a
// block. `group`: lines that must share a block (a row's channels; 1 for columns). As many lines
// as about kFusedTargetThreads threads hold (columns: a power of two up to 32, so that a
// block's rows of samples are aligned), fewer while that leaves under two blocks per SM.
int fused_block_lines(int segments, int lines, int group, int sm_count);

// Whether a two-way pass runs exact (two_way_exact_kernel): always for Deriche; for
// Young–van Vliet (its parallel form, with the exact start-up only: the simple one filters the
// causal result) where forced, or under TwoWayForm::Auto where the warm-up is a 25th of the line
// or more (the exact form costs more per step, the warm-up more per sample of warm-up:
// docs/bench/kernel_choices.md, "Recursive Gaussians: two-way form").
bool exact_two_way(const RecursiveSettings& s, int warmup, int length);

// One pass over `lines` lines of `length` samples; `group`: lines that share a block in the
// one-launch kernels (a row's channels interleave; 1 for columns).
PassPlan plan_pass(const RecursiveSettings& s, double sigma, int lines, int length, int group, int sm_count);

// One pass's plan and kernel arguments, kept on the host: they travel as kernel arguments.
struct PassData {
  PassPlan plan;
  PassParams<YvvOps<float>> yvv;
  PassParams<DericheOps<float>> deriche;
  DericheSections<float> parallel;  // two_way_exact_kernel: Deriche, or Young–van Vliet in parallel form
};
PassData make_pass(const RecursiveSettings& s, double sigma, int lines, int length, int group, int sm_count);

// ---- launch shapes ------------------------------------------------------------------------------

inline unsigned blocks_for(long items, int threads = kThreads) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

// The grid of a kernel whose blocks hold whole lines (bp_fused_kernel, warm_both_kernel):
// `lines_per_block` lines of `segments` threads each, in whole warps.
struct WholeLineGrid {
  unsigned blocks;
  int threads;
};
WholeLineGrid whole_line_grid(int lines, int lines_per_block, int segments);

// ---- scratch ------------------------------------------------------------------------------------

// The float plane between a pass's directions. one_way_kernel's and two_way_exact_kernel's
// has a margin of kMidMargin samples around every line (their steps before a line's edge store
// there): rows of width + 2 margins pixels, and margin rows above and below. Pitch and size in
// floats; mid_offset: where sample (0, 0) lies.
size_t mid_pitch(const PlaneGeometry& g, bool margins);
size_t mid_floats(const PlaneGeometry& g, bool margins);
size_t mid_offset(const PlaneGeometry& g, bool margins);

// Floats of one pass's block-parallel records: a causal and an anticausal carry per segment.
size_t record_floats(int lines, int segments);

// The scratch of one plane's two passes, in floats.
struct RecursiveBuffers {
  size_t mid = 0;         // mid_floats, with margins if either pass needs them
  size_t across = 0;      // the horizontal pass's result
  size_t row_carries = 0; // the horizontal pass's records
  size_t carries = 0;     // both passes' records (the horizontal apply may write the vertical
                          // pass's while it reads its own)
  size_t right = 0;       // then a right start per line
};
RecursiveBuffers recursive_buffers(const PlaneGeometry& g, const PassPlan& x, const PassPlan& y);
// Why the plane is too large for the kernels' 32-bit offsets (mid, records), or null.
const char* recursive_buffers_error(const RecursiveBuffers& b);

}  // namespace recursive
}  // namespace cudagaussian
