// SPDX-License-Identifier: LGPL-2.1-or-later
#include "frame_blur.h"

#include <cmath>

#include "fir_taps.h"
#include "sample_finish.h"

namespace cudagaussian {

std::vector<SampleFinish> FrameBlur::plane_finishes(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  std::vector<SampleFinish> finishes;
  for (const PlaneSpec& p : planes)
    finishes.push_back(
        make_sample_finish(s.sharpen, s.sharpen_threshold, p.geometry.max_value(), kept_channels(p, s.parts)));
  return finishes;
}

FrameBlur::FrameBlur() = default;
FrameBlur::~FrameBlur() = default;

Algorithm FrameBlur::resolve(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  if (s.algorithm != Algorithm::Auto) return s.algorithm;
  const BlurAlgorithm* best = nullptr;
  double best_cost = 0.0;
  for (const BlurAlgorithm& a : blur_algorithms()) {
    if (!a.auto_cost) continue;
    const double cost = a.auto_cost(s, planes);
    if (cost >= 0.0 && (!best || cost < best_cost)) best = &a, best_cost = cost;
  }
  return best ? best->id : Algorithm::Fir;
}

BlurSettings FrameBlur::resolved(const BlurSettings& requested, const std::vector<PlaneSpec>& planes) {
  BlurSettings s = requested;
  s.algorithm = resolve(requested, planes);
  const BlurAlgorithm* a = find_blur_algorithm(s.algorithm);
  const LineSplit split = a ? a->default_split : LineSplit::BlockParallel;
  if (s.recursive.split == LineSplit::Auto || (requested.algorithm == Algorithm::Auto && a && a->recursive))
    s.recursive.split = split;
  if (s.recursive.kappa < 0.0) s.recursive.kappa = a ? a->default_kappa : 4.0;
  return s;
}

Status FrameBlur::validate(const BlurSettings& settings, const std::vector<PlaneSpec>& planes) {
  const BlurSettings s = resolved(settings, planes);
  if (!(s.sigma_x >= 0.0) || !(s.sigma_y >= 0.0) || !std::isfinite(s.sigma_x) ||
      !std::isfinite(s.sigma_y))
    return Status::invalid("sigma must be a finite value >= 0");
  const std::string sharpen_why = sharpen_error(s.sharpen, s.sharpen_threshold);
  if (!sharpen_why.empty()) return Status::invalid(sharpen_why);
  if (!(s.truncate >= kMinTruncate && s.truncate <= kMaxTruncate))
    return Status::invalid("truncate must be between 1 and 8 sigmas");
  if (planes.empty()) return Status::invalid("a frame needs at least one plane");
  const BlurAlgorithm* a = find_blur_algorithm(s.algorithm);
  if (!a || !a->check) return Status::invalid("unknown algorithm");
  return a->check(s, planes);
}

Status FrameBlur::plan(const BlurSettings& requested, const std::vector<PlaneSpec>& planes) {
  release();
  CG_TRY(validate(requested, planes));
  const BlurSettings settings = resolved(requested, planes);
  chosen_ = settings.algorithm;
  CG_TRY(find_blur_algorithm(chosen_)->plan(settings, requested.algorithm == Algorithm::Auto, planes, &filter_));
  filter_->set_finish(plane_finishes(settings, planes));
  settings_ = requested;
  return Status::success();
}

Status FrameBlur::run(const std::vector<DevicePlaneRef>& src,
                      const std::vector<MutableDevicePlaneRef>& dst, cudaStream_t stream) const {
  if (!filter_) return PlaneFilters().run(src, dst, stream);  // no planes: only empty frames pass
  return filter_->run(src, dst, stream);
}

Status FrameBlur::run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                            const std::vector<std::vector<MutableDevicePlaneRef>>& dst,
                            cudaStream_t stream) const {
  if (src.size() != dst.size()) return Status::invalid("source and destination frame counts differ");
  if (!filter_) return PlaneFilters().run_batch(src, dst, stream);
  return filter_->run_batch(src, dst, stream);
}

void FrameBlur::release() { filter_.reset(); }

}  // namespace cudagaussian
