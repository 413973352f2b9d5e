// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in EdgeAwareBlur: common/reference_edge_aware in place of the CUDA passes. As on the
// GPU, plane 0 guides every plane: its transformed spacings (sigma_r in its sample units, its
// edge channels) are resampled to the subsampled planes.
#include <stdexcept>

#include "cpu_plane.h"
#include "edge_aware.h"
#include "reference_edge_aware.h"

namespace cudagaussian {

struct EdgeAwareBlur::Plan {
  EdgeAwareSettings settings;
  std::vector<PlaneSpec> planes;
  double sigma_x = 0.0, sigma_y = 0.0;
};

EdgeAwareBlur::EdgeAwareBlur() = default;
EdgeAwareBlur::~EdgeAwareBlur() = default;

Status EdgeAwareBlur::plan(const EdgeAwareSettings& s, const std::vector<PlaneSpec>& planes, double sigma_x,
                           double sigma_y) {
  release();
  CG_TRY(validate(s, planes, sigma_x, sigma_y));
  auto plan = std::make_unique<Plan>();
  plan->settings = s;
  plan->planes = planes;
  // Below kMinSigma an axis gets no passes, as on the GPU.
  plan->sigma_x = sigma_x < kMinSigma ? 0.0 : sigma_x;
  plan->sigma_y = sigma_y < kMinSigma ? 0.0 : sigma_y;
  plan_ = std::move(plan);
  return Status::success();
}

Status EdgeAwareBlur::run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
                          cudaStream_t) const {
  if (!plan_) return Status::invalid("EdgeAwareBlur::run before a successful plan()");
  const std::vector<PlaneSpec>& planes = plan_->planes;
  if (src.size() != planes.size() || dst.size() != planes.size())
    return Status::invalid("plane count does not match the plan");
  for (size_t i = 0; i < planes.size(); ++i)
    CG_TRY(check_run_arguments(planes[i].geometry, src[i].data, src[i].pitch, dst[i].data, dst[i].pitch));
  const EdgeAwareSettings& s = plan_->settings;
  const PlaneGeometry& g0 = planes[0].geometry;
  const double sigma_r = s.sigma_r * g0.max_value() / 255.0;
  EdgeSpacing guide;
  try {
    guide = reference_edge_spacing(g0, read_plane(g0, src[0].data, src[0].pitch), s.filter,
                                   plan_->sigma_x / sigma_r, plan_->sigma_y / sigma_r, planes[0].edge_channels);
  } catch (const std::exception& e) {
    return Status::invalid(std::string("stand-in reference refused the guide plane: ") + e.what());
  }
  // Every source is read before any destination is written (they do not overlap, as on the GPU).
  for (size_t i = 0; i < planes.size(); ++i) {
    const PlaneSpec& p = planes[i];
    const EdgeSpacing spacing =
        i == 0 ? guide : resample_edge_spacing(guide, p.geometry.width, p.geometry.height, p.subsample_x, p.subsample_y);
    CG_TRY(cpu_plane_run(p.geometry, src[i].data, src[i].pitch, dst[i].data, dst[i].pitch, SampleFinish(),
                         [&](const PlaneValues& in) {
                           return reference_edge_aware(p.geometry, in, spacing, s.filter,
                                                       plan_->sigma_x / p.subsample_x,
                                                       plan_->sigma_y / p.subsample_y, s.iterations);
                         }));
  }
  return Status::success();
}

void EdgeAwareBlur::release() { plan_.reset(); }

}  // namespace cudagaussian
