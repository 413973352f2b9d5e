// SPDX-License-Identifier: LGPL-2.1-or-later
#include "frame_blur.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "box_filter.h"
#include "box_widths.h"
#include "direct_conv.h"
#include "fir_taps.h"
#include "integral_box.h"
#include "separable_fir.h"

namespace cudagaussian {

FrameBlur::FrameBlur() = default;
FrameBlur::~FrameBlur() = default;

namespace {
int largest_fir_radius(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  int r = 0;
  for (const PlaneSpec& p : planes)
    r = std::max({r, fir_radius(plane_sigma(s.sigma_x, p.subsample_x), s.truncate),
                  fir_radius(plane_sigma(s.sigma_y, p.subsample_y), s.truncate)});
  return r;
}
}  // namespace

Algorithm FrameBlur::resolve(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  if (s.algorithm != Algorithm::Auto) return s.algorithm;
  if (s.border != Border::Replicate) return Algorithm::Fir;
  return largest_fir_radius(s, planes) <= kAutoFirMaxRadius ? Algorithm::Fir : Algorithm::Deriche;
}

BlurSettings FrameBlur::resolved(const BlurSettings& requested, const std::vector<PlaneSpec>& planes) {
  BlurSettings s = requested;
  s.algorithm = resolve(requested, planes);
  const bool edge_aware = s.algorithm == Algorithm::EdgeAware;
  // Recursive Gaussians: block-parallel (exact, and the fastest exact split at SD to 4K, any
  // line length). Edge-aware: Algorithm C (k-way, kappa 2), measured faster than A and than our
  // exact block-parallel split with an MSE against A far below 1 (README, bench_edge_aware).
  if (s.recursive.split == LineSplit::Auto) s.recursive.split = edge_aware ? LineSplit::KWay : LineSplit::BlockParallel;
  if (requested.algorithm == Algorithm::Auto && s.algorithm == Algorithm::Deriche)
    s.recursive.split = LineSplit::BlockParallel;
  if (s.recursive.kappa < 0.0) s.recursive.kappa = edge_aware ? 2.0 : 4.0;
  return s;
}

namespace {
EdgeAwareSettings edge_aware_settings(const BlurSettings& s) {
  EdgeAwareSettings e;
  static_cast<LineSchedule&>(e) = s.recursive;
  e.filter = s.edge_filter;
  e.sigma_r = s.sigma_r;
  e.iterations = s.iterations;
  return e;
}
}  // namespace

Status FrameBlur::validate(const BlurSettings& settings, const std::vector<PlaneSpec>& planes) {
  const BlurSettings s = resolved(settings, planes);
  if (!(s.sigma_x >= 0.0) || !(s.sigma_y >= 0.0) || !std::isfinite(s.sigma_x) ||
      !std::isfinite(s.sigma_y))
    return Status::invalid("sigma must be a finite value >= 0");
  if (!(s.truncate >= kMinTruncate && s.truncate <= kMaxTruncate))
    return Status::invalid("truncate must be between 1 and 8 sigmas");
  if (planes.empty()) return Status::invalid("a frame needs at least one plane");
  if (s.algorithm == Algorithm::Box &&
      !(s.box_passes >= kMinBoxPasses && s.box_passes <= kMaxBoxPasses))
    return Status::invalid("box-passes must be between 1 and 6");
  if (s.algorithm == Algorithm::EdgeAware) {
    if (s.border != Border::Replicate)
      return Status::invalid(std::string("algorithm=edge-aware starts up for the replicate border only; "
                                         "border ") + border_name(s.border) + " is not available with it");
    return EdgeAwareBlur::validate(edge_aware_settings(s), planes, s.sigma_x, s.sigma_y);
  }
  for (const PlaneSpec& p : planes) {
    if (!p.geometry.valid() || p.subsample_x < 1 || p.subsample_y < 1)
      return Status::invalid("invalid plane geometry");
    if (is_recursive(s.algorithm)) {
      if (s.border != Border::Replicate)
        return Status::invalid(std::string("the recursive algorithms start up exactly for the "
                                           "replicate border only; border ") +
                               border_name(s.border) + " needs algorithm=fir");
      RecursiveSettings r = s.recursive;
      r.filter = recursive_filter_of(s.algorithm);
      CG_TRY(RecursiveBlur::validate(r, plane_sigma(s.sigma_x, p.subsample_x),
                                     plane_sigma(s.sigma_y, p.subsample_y)));
      continue;
    }
    if (s.algorithm == Algorithm::Box) {
      if (s.box_method == BoxMethod::Integral)
        CG_TRY(IntegralBoxBlur::validate(p.geometry, box_widths(plane_sigma(s.sigma_x, p.subsample_x), s.box_passes),
                                         box_widths(plane_sigma(s.sigma_y, p.subsample_y), s.box_passes)));
      continue;
    }
    const int rx = fir_radius(plane_sigma(s.sigma_x, p.subsample_x), s.truncate);
    const int ry = fir_radius(plane_sigma(s.sigma_y, p.subsample_y), s.truncate);
    const int r = rx > ry ? rx : ry;
    if (s.algorithm == Algorithm::Direct && r > DirectConvolution::kMaxRadius)
      return Status::invalid("algorithm=direct supports a radius ceil(truncate x sigma) of at most " +
                             std::to_string(DirectConvolution::kMaxRadius) + " (here " +
                             std::to_string(r) + "); use fir, auto or a recursive algorithm");
    if (r > SeparableFir::kMaxRadius)
      return Status::invalid("the FIR radius ceil(truncate x sigma) = " + std::to_string(r) +
                             " exceeds the supported " + std::to_string(SeparableFir::kMaxRadius) +
                             "; lower sigma or truncate, or use a recursive algorithm (algorithm=auto or deriche)");
  }
  return Status::success();
}

Status FrameBlur::plan(const BlurSettings& requested, const std::vector<PlaneSpec>& planes) {
  release();
  CG_TRY(validate(requested, planes));
  const BlurSettings settings = resolved(requested, planes);
  chosen_ = settings.algorithm;
  if (settings.algorithm == Algorithm::EdgeAware) {
    auto edge = std::make_unique<EdgeAwareBlur>();
    CG_TRY(edge->plan(edge_aware_settings(settings), planes, settings.sigma_x, settings.sigma_y));
    edge_aware_ = std::move(edge);
    settings_ = requested;
    return Status::success();
  }
  for (const PlaneSpec& p : planes) {
    const double sx = plane_sigma(settings.sigma_x, p.subsample_x);
    const double sy = plane_sigma(settings.sigma_y, p.subsample_y);
    Status st;
    if (is_recursive(settings.algorithm)) {
      RecursiveSettings r = settings.recursive;
      r.filter = recursive_filter_of(settings.algorithm);
      auto blur = std::make_unique<RecursiveBlur>();
      st = blur->plan(p.geometry, r, sx, sy);
      filters_.push_back(std::move(blur));
    } else if (settings.algorithm == Algorithm::Box) {
      const std::vector<int> wx = box_widths(sx, settings.box_passes), wy = box_widths(sy, settings.box_passes);
      if (settings.box_method == BoxMethod::Integral) {
        auto box = std::make_unique<IntegralBoxBlur>();
        st = box->plan(p.geometry, wx, wy, settings.border);
        filters_.push_back(std::move(box));
      } else {
        auto box = std::make_unique<BoxBlur>();
        st = box->plan(p.geometry, wx, wy, settings.border);
        filters_.push_back(std::move(box));
      }
    } else if (settings.algorithm == Algorithm::Direct) {
      const std::vector<double> tx = gaussian_taps(sx, fir_radius(sx, settings.truncate));
      const std::vector<double> ty = gaussian_taps(sy, fir_radius(sy, settings.truncate));
      // Square kernel: the shorter direction is padded with zero taps.
      const int size = static_cast<int>(std::max(tx.size(), ty.size()));
      std::vector<double> k(static_cast<size_t>(size) * size, 0.0);
      const int ox = (size - static_cast<int>(tx.size())) / 2, oy = (size - static_cast<int>(ty.size())) / 2;
      for (size_t j = 0; j < ty.size(); ++j)
        for (size_t i = 0; i < tx.size(); ++i) k[(j + oy) * size + (i + ox)] = ty[j] * tx[i];
      auto direct = std::make_unique<DirectConvolution>();
      st = direct->plan(p.geometry, k, size, settings.border);
      filters_.push_back(std::move(direct));
    } else if (requested.algorithm == Algorithm::Fir && settings.coefficients == TapSource::Incremental) {
      auto fir = std::make_unique<PerPixelFir>();
      st = fir->plan(p.geometry, sx, fir_radius(sx, settings.truncate), sy, fir_radius(sy, settings.truncate),
                     settings.border, TapSource::Incremental);
      filters_.push_back(std::move(fir));
    } else {  // fir (auto resolves to fir or deriche above)
      auto fir = std::make_unique<SeparableFir>();
      st = fir->plan(p.geometry, gaussian_taps(sx, fir_radius(sx, settings.truncate)),
                     gaussian_taps(sy, fir_radius(sy, settings.truncate)), settings.border);
      filters_.push_back(std::move(fir));
    }
    if (!st.ok()) {
      release();
      return st;
    }
  }
  settings_ = requested;
  return Status::success();
}

Status FrameBlur::run(const std::vector<DevicePlaneRef>& src,
                      const std::vector<MutableDevicePlaneRef>& dst, cudaStream_t stream) const {
  if (edge_aware_) return edge_aware_->run(src, dst, stream);
  if (src.size() != filters_.size() || dst.size() != filters_.size())
    return Status::invalid("plane count does not match the plan");
  for (size_t i = 0; i < filters_.size(); ++i)
    CG_TRY(filters_[i]->run(src[i].data, src[i].pitch, dst[i].data, dst[i].pitch, stream));
  return Status::success();
}

Status FrameBlur::run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                            const std::vector<std::vector<MutableDevicePlaneRef>>& dst,
                            cudaStream_t stream) const {
  if (src.size() != dst.size()) return Status::invalid("source and destination frame counts differ");
  if (edge_aware_) {
    for (size_t f = 0; f < src.size(); ++f) CG_TRY(edge_aware_->run(src[f], dst[f], stream));
    return Status::success();
  }
  for (size_t f = 0; f < src.size(); ++f)
    if (src[f].size() != filters_.size() || dst[f].size() != filters_.size())
      return Status::invalid("plane count does not match the plan");
  // kMaxBatchFrames at a time: as many as one launch takes, on the stack (this runs per frame).
  PlanePair frames[kMaxBatchFrames];
  for (size_t i = 0; i < filters_.size(); ++i)
    for (size_t f0 = 0; f0 < src.size(); f0 += kMaxBatchFrames) {
      const size_t count = std::min(src.size() - f0, static_cast<size_t>(kMaxBatchFrames));
      for (size_t k = 0; k < count; ++k)
        frames[k] = {src[f0 + k][i].data, src[f0 + k][i].pitch, dst[f0 + k][i].data, dst[f0 + k][i].pitch};
      CG_TRY(filters_[i]->run_batch(frames, static_cast<int>(count), stream));
    }
  return Status::success();
}

void FrameBlur::release() {
  filters_.clear();
  edge_aware_.reset();
}

bool is_recursive(Algorithm algorithm) {
  return algorithm == Algorithm::YoungVanVliet || algorithm == Algorithm::YoungVanVliet1995 ||
         algorithm == Algorithm::Deriche;
}

RecursiveFilter recursive_filter_of(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::YoungVanVliet1995: return RecursiveFilter::YoungVanVliet1995;
    case Algorithm::Deriche: return RecursiveFilter::Deriche;
    default: return RecursiveFilter::YoungVanVliet2002;
  }
}

}  // namespace cudagaussian
