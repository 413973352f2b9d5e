// SPDX-License-Identifier: LGPL-2.1-or-later
#include "multirate_layout.h"

#include <string>

namespace cudagaussian {

namespace {

// What a block gets without asking (the row interpolation asks for nothing more).
constexpr size_t kDefaultSharedBytes = 48 * 1024;
// The row passes launch a block row per coarse row: grid.y.
constexpr int kMaxCoarseRows = 65535;

int padded_taps(int taps) {
  for (int v : {16, 24, 32})
    if (taps <= v) return v;
  return 0;
}

// The row decimation stages outputs + taps - 1 positions of each phase.
size_t decimate_row_bytes(const MultirateAxis& x, int outputs, int taps, int channels) {
  return static_cast<size_t>(x.step) * (outputs + taps - 1) * channels * sizeof(float);
}

}  // namespace

Status multirate_layout(int channels, const MultirateAxis& x, const MultirateAxis& y, MultirateLayout* layout) {
  MultirateLayout l;
  l.decimate_column_taps = padded_taps(y.decimate_phase_taps());
  l.interpolate_column_taps = padded_taps(y.interpolate_taps);
  l.decimate_row_taps = padded_taps(x.decimate_phase_taps());
  l.interpolate_row_taps = padded_taps(x.interpolate_taps);
  if (!l.decimate_column_taps || !l.interpolate_column_taps || !l.decimate_row_taps || !l.interpolate_row_taps)
    return Status::invalid("multirate: a sigma needs more than 32 taps a phase");
  l.decimate_row_bytes = decimate_row_bytes(x, kMultirateRowOutputs, l.decimate_row_taps, channels);
  // The coarse pixels a block's positions read, then the taps [tap][phase].
  l.interpolate_row_bytes =
      (static_cast<size_t>(kMultirateRowPositions / x.step + 1 + l.interpolate_row_taps) * channels +
       static_cast<size_t>(x.step) * l.interpolate_row_taps) * sizeof(float);
  if (l.decimate_row_bytes > kMultirateRowSharedBytes || l.interpolate_row_bytes > kDefaultSharedBytes)
    return Status::invalid("multirate: the horizontal sigma is too large for the row passes");
  *layout = l;
  return Status::success();
}

Status plan_multirate_plane(const PlaneGeometry& g, double sigma_x, double sigma_y, MultirateAxis* x,
                            MultirateAxis* y, MultirateLayout* layout) {
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  if (!(sigma_x >= 0.0 && sigma_x <= kMultirateMaxSigma) || !(sigma_y >= 0.0 && sigma_y <= kMultirateMaxSigma))
    return Status::invalid("multirate: sigma must be between 0 and " + std::to_string(static_cast<int>(kMultirateMaxSigma)));
  *x = plan_multirate_axis(g.width, sigma_x);
  *y = plan_multirate_axis(g.height, sigma_y);
  CG_TRY(multirate_layout(g.channels, *x, *y, layout));
  if (y->coarse > kMaxCoarseRows)
    return Status::invalid("multirate: the plane has too many rows (" + std::to_string(g.height) + ") for sigma_y " +
                           std::to_string(sigma_y));
  if (static_cast<double>(y->coarse) * g.samples_per_row() >= 2147483647.0)
    return Status::invalid("multirate: the plane is too large (2^31 samples or more in its coarse rows)");
  return Status::success();
}

}  // namespace cudagaussian
