// SPDX-License-Identifier: LGPL-2.1-or-later
// The rows of blur_algorithms(): each algorithm's checks and planner beside its row.
#include "blur_algorithms.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "box_filter.h"
#include "box_widths.h"
#include "direct_conv.h"
#include "fir_bands.h"
#include "edge_aware.h"
#include "fir_taps.h"
#include "integral_box.h"
#include "multirate_blur.h"
#include "per_pixel_fir.h"
#include "recursive_filter.h"
#include "sample_finish_pass.h"
#include "separable_fir.h"
#include "tensor_fir.h"

namespace cudagaussian {

namespace {

Status check_geometry(const PlaneSpec& p) {
  if (!p.geometry.valid() || p.subsample_x < 1 || p.subsample_y < 1)
    return Status::invalid("invalid plane geometry");
  return Status::success();
}

// Plans one PlaneBlur per plane with plan_plane(geometry, sigma_x, sigma_y, &blur), each with
// the plane's own sigmas.
template <class PlanPlane>
Status plan_each_plane(const BlurSettings& s, const std::vector<PlaneSpec>& planes,
                       std::unique_ptr<FrameFilter>* filter, PlanPlane plan_plane) {
  auto filters = std::make_unique<PlaneFilters>();
  for (const PlaneSpec& p : planes) {
    std::unique_ptr<PlaneBlur> blur;
    CG_TRY(plan_plane(p.geometry, plane_sigma(s.sigma_x, p.subsample_x), plane_sigma(s.sigma_y, p.subsample_y),
                      &blur));
    filters->planes.push_back(std::move(blur));
    filters->geometry.push_back(p.geometry);
  }
  *filter = std::move(filters);
  return Status::success();
}

template <class Blur, class... Args>
Status plan_blur(std::unique_ptr<PlaneBlur>* out, Args&&... args) {
  auto blur = std::make_unique<Blur>();
  const Status st = blur->plan(std::forward<Args>(args)...);
  *out = std::move(blur);
  return st;
}

// --- fir and direct: sampled Gaussian taps out to ceil(truncate x sigma) -------------------

int plane_fir_radius(const BlurSettings& s, const PlaneSpec& p) {
  return std::max(fir_radius(plane_sigma(s.sigma_x, p.subsample_x), s.truncate),
                  fir_radius(plane_sigma(s.sigma_y, p.subsample_y), s.truncate));
}

Status check_fir_radius(int r) {
  if (r > SeparableFir::kMaxRadius)
    return Status::invalid("the FIR radius ceil(truncate x sigma) = " + std::to_string(r) +
                           " exceeds the supported " + std::to_string(SeparableFir::kMaxRadius) +
                           "; lower sigma or truncate, or use algorithm=auto or multirate (any border) or deriche");
  return Status::success();
}

Status check_fir(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  for (const PlaneSpec& p : planes) {
    CG_TRY(check_geometry(p));
    CG_TRY(check_fir_radius(plane_fir_radius(s, p)));
  }
  return Status::success();
}

Status plan_fir(const BlurSettings& s, bool chosen_by_auto, const std::vector<PlaneSpec>& planes,
                std::unique_ptr<FrameFilter>* filter) {
  const bool incremental = !chosen_by_auto && s.coefficients == TapSource::Incremental;
  return plan_each_plane(s, planes, filter, [&](const PlaneGeometry& g, double sx, double sy,
                                                std::unique_ptr<PlaneBlur>* blur) {
    const int rx = fir_radius(sx, s.truncate), ry = fir_radius(sy, s.truncate);
    if (incremental) return plan_blur<PerPixelFir>(blur, g, sx, rx, sy, ry, s.border, TapSource::Incremental);
    return plan_blur<SeparableFir>(blur, g, gaussian_taps(sx, rx), gaussian_taps(sy, ry), s.border);
  });
}

// The largest radius at which a plane's FIR is as fast as Deriche block-parallel: on tensor
// cores where the plane and its taps suit them (assuming a GPU that has them, compute
// capability 7.0 or later), else on CUDA cores.
int auto_fir_max_radius(const BlurSettings& s, const PlaneSpec& p) {
  const double sx = plane_sigma(s.sigma_x, p.subsample_x), sy = plane_sigma(s.sigma_y, p.subsample_y);
  const int rx = fir_radius(sx, s.truncate), ry = fir_radius(sy, s.truncate);
  const bool tensor =
      TensorFir::faster(rx, ry) && plane_suits_tensor_cores(p.geometry, gaussian_taps(sx, rx), gaussian_taps(sy, ry));
  if (!tensor)
    return kAutoFirMaxRadius;
  return p.geometry.channels == 4 ? kAutoTensorFirMaxRadius : TensorFir::kMaxRadius;
}

// Against Deriche's 1: the largest of the planes' radii, each over its auto_fir_max_radius.
double fir_auto_cost(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  double cost = 0.0;
  for (const PlaneSpec& p : planes)
    cost = std::max(cost, static_cast<double>(plane_fir_radius(s, p)) / auto_fir_max_radius(s, p));
  return cost;
}

Status check_direct(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  for (const PlaneSpec& p : planes) {
    CG_TRY(check_geometry(p));
    const int r = plane_fir_radius(s, p);
    if (r > DirectConvolution::kMaxRadius)
      return Status::invalid("algorithm=direct supports a radius ceil(truncate x sigma) of at most " +
                             std::to_string(DirectConvolution::kMaxRadius) + " (here " +
                             std::to_string(r) + "); use fir, auto or a recursive algorithm");
    CG_TRY(check_fir_radius(r));
  }
  return Status::success();
}

Status plan_direct(const BlurSettings& s, bool, const std::vector<PlaneSpec>& planes,
                   std::unique_ptr<FrameFilter>* filter) {
  return plan_each_plane(s, planes, filter, [&](const PlaneGeometry& g, double sx, double sy,
                                                std::unique_ptr<PlaneBlur>* blur) {
    const std::vector<double> tx = gaussian_taps(sx, fir_radius(sx, s.truncate));
    const std::vector<double> ty = gaussian_taps(sy, fir_radius(sy, s.truncate));
    int size = 0;
    const std::vector<double> k = outer_product_kernel(tx, ty, &size);
    return plan_blur<DirectConvolution>(blur, g, k, size, s.border);
  });
}

// --- the recursive Gaussians ----------------------------------------------------------------

RecursiveSettings recursive_settings(const BlurSettings& s) {
  RecursiveSettings r = s.recursive;
  r.filter = recursive_filter_of(s.algorithm);
  return r;
}

Status check_recursive(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  for (const PlaneSpec& p : planes) {
    CG_TRY(check_geometry(p));
    if (s.border != Border::Replicate)
      return Status::invalid(std::string("the recursive algorithms start up exactly for the "
                                         "replicate border only; border ") +
                             border_name(s.border) + " needs algorithm=multirate or fir");
    CG_TRY(RecursiveBlur::validate(recursive_settings(s), plane_sigma(s.sigma_x, p.subsample_x),
                                   plane_sigma(s.sigma_y, p.subsample_y)));
  }
  return Status::success();
}

Status plan_recursive(const BlurSettings& s, bool, const std::vector<PlaneSpec>& planes,
                      std::unique_ptr<FrameFilter>* filter) {
  const RecursiveSettings r = recursive_settings(s);
  return plan_each_plane(s, planes, filter, [&](const PlaneGeometry& g, double sx, double sy,
                                                std::unique_ptr<PlaneBlur>* blur) {
    return plan_blur<RecursiveBlur>(blur, g, r, sx, sy);
  });
}

// The unit of the auto costs (fir_auto_cost); exact for the replicate border only.
double deriche_auto_cost(const BlurSettings& s, const std::vector<PlaneSpec>&) {
  return s.border == Border::Replicate ? 1.0 : -1.0;
}

// --- box: iterated box passes ---------------------------------------------------------------

Status check_box(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  if (!(s.box_passes >= kMinBoxPasses && s.box_passes <= kMaxBoxPasses))
    return Status::invalid("box-passes must be between 1 and 6");
  for (const PlaneSpec& p : planes) {
    CG_TRY(check_geometry(p));
    if (s.box_method == BoxMethod::Integral)
      CG_TRY(IntegralBoxBlur::validate(p.geometry, box_widths(plane_sigma(s.sigma_x, p.subsample_x), s.box_passes),
                                       box_widths(plane_sigma(s.sigma_y, p.subsample_y), s.box_passes)));
  }
  return Status::success();
}

Status plan_box(const BlurSettings& s, bool, const std::vector<PlaneSpec>& planes,
                std::unique_ptr<FrameFilter>* filter) {
  return plan_each_plane(s, planes, filter, [&](const PlaneGeometry& g, double sx, double sy,
                                                std::unique_ptr<PlaneBlur>* blur) {
    const std::vector<int> wx = box_widths(sx, s.box_passes), wy = box_widths(sy, s.box_passes);
    if (s.box_method == BoxMethod::Integral) return plan_blur<IntegralBoxBlur>(blur, g, wx, wy, s.border);
    return plan_blur<BoxBlur>(blur, g, wx, wy, s.border);
  });
}

// --- edge-aware: one filter for all planes, along the first plane's edges -------------------

EdgeAwareSettings edge_aware_settings(const BlurSettings& s) {
  EdgeAwareSettings e;
  static_cast<LineSchedule&>(e) = s.recursive;
  e.filter = s.edge_filter;
  e.sigma_r = s.sigma_r;
  e.iterations = s.iterations;
  return e;
}

// Edge-aware's last passes write every plane at once in several kernels: the finishing step
// (sharpen, channels kept) runs after them as a pass of its own over the planes that need it.
class EdgeAwareFrames final : public FrameFilter {
 public:
  EdgeAwareBlur blur;
  std::vector<PlaneGeometry> geometry;
  std::vector<SampleFinish> finish;
  Status run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
             cudaStream_t stream) const override {
    CG_TRY(blur.run(src, dst, stream));
    for (size_t i = 0; i < finish.size() && i < src.size() && i < dst.size(); ++i)
      if (finish[i].active())
        CG_TRY(finish_plane(geometry[i], src[i].data, src[i].pitch, dst[i].data, dst[i].pitch, finish[i], stream));
    return Status::success();
  }
  void set_finish(const std::vector<SampleFinish>& f) override { finish = f; }
};

Status check_edge_aware(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  if (s.border != Border::Replicate)
    return Status::invalid(std::string("algorithm=edge-aware starts up for the replicate border only; "
                                       "border ") + border_name(s.border) + " is not available with it");
  return EdgeAwareBlur::validate(edge_aware_settings(s), planes, s.sigma_x, s.sigma_y);
}

Status plan_edge_aware(const BlurSettings& s, bool, const std::vector<PlaneSpec>& planes,
                       std::unique_ptr<FrameFilter>* filter) {
  auto edge = std::make_unique<EdgeAwareFrames>();
  CG_TRY(edge->blur.plan(edge_aware_settings(s), planes, s.sigma_x, s.sigma_y));
  for (const PlaneSpec& p : planes) edge->geometry.push_back(p.geometry);
  *filter = std::move(edge);
  return Status::success();
}

// --- multirate: the exact Gaussian through a coarser grid, every border -----------------------

Status check_multirate(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  for (const PlaneSpec& p : planes) {
    CG_TRY(check_geometry(p));
    MultirateAxis x, y;
    MultirateLayout layout;
    CG_TRY(plan_multirate_plane(p.geometry, plane_sigma(s.sigma_x, p.subsample_x),
                                plane_sigma(s.sigma_y, p.subsample_y), &x, &y, &layout));
  }
  return Status::success();
}

// Against Deriche's 1 (fir_auto_cost): the multirate passes' time over Deriche block-parallel's,
// modelled on bench_auto's measurements (docs/bench/kernel_choices.md, "algorithm=auto"). Less
// than half of Deriche's time at steps of 5 to 25 on a 1080p RGBA plane; more at short steps,
// where the row pass runs on many coarse rows, and at long steps, where each thread walks more
// phases (the more so on small planes, which fill the GPU with fewer threads); the part that
// does not grow with the step less on planes of fewer channels, which Deriche does not gain
// from. The costliest plane decides.
double multirate_auto_cost(const BlurSettings& s, const std::vector<PlaneSpec>& planes) {
  double cost = 0.0;
  for (const PlaneSpec& p : planes) {
    MultirateAxis x, y;
    MultirateLayout layout;
    if (!plan_multirate_plane(p.geometry, plane_sigma(s.sigma_x, p.subsample_x), plane_sigma(s.sigma_y, p.subsample_y),
                              &x, &y, &layout)
             .ok())
      return -1.0;
    const double shortest = std::min(x.step, y.step), longest = std::max(x.step, y.step);
    const double pixels = static_cast<double>(p.geometry.width) * p.geometry.height;
    cost = std::max(cost, (kMultirateCostBase + kMultirateCostShortStep / (shortest * shortest)) *
                                  std::pow(p.geometry.channels / 4.0, kMultirateCostChannelPower) +
                              kMultirateCostLongStep * longest * std::sqrt(kMultirateCostPixels / pixels));
  }
  return cost;
}

Status plan_multirate(const BlurSettings& s, bool, const std::vector<PlaneSpec>& planes,
                      std::unique_ptr<FrameFilter>* filter) {
  return plan_each_plane(s, planes, filter, [&](const PlaneGeometry& g, double sx, double sy,
                                                std::unique_ptr<PlaneBlur>* blur) {
    return plan_blur<MultirateBlur>(blur, g, sx, sy, s.border);
  });
}

constexpr RecursiveFilter kNoFilter = RecursiveFilter::YoungVanVliet2002;

}  // namespace

const std::vector<BlurAlgorithm>& blur_algorithms() {
  // id, nick, description; recursive, filter; default split, kappa; check, plan, auto cost
  static const std::vector<BlurAlgorithm> rows = {
    {Algorithm::Auto, "auto", "Pick the fastest exact algorithm",
     false, kNoFilter, LineSplit::BlockParallel, 4.0, nullptr, nullptr, nullptr},
    {Algorithm::Fir, "fir", "Separable FIR: sampled Gaussian taps out to truncate x sigma",
     false, kNoFilter, LineSplit::BlockParallel, 4.0, check_fir, plan_fir, fir_auto_cost},
    {Algorithm::YoungVanVliet, "young-van-vliet",
     "Recursive, Young-van Vliet 3rd order (2002 coefficients): cost independent of sigma",
     true, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 4.0, check_recursive, plan_recursive,
     nullptr},
    {Algorithm::YoungVanVliet1995, "young-van-vliet-1995",
     "Recursive, Young-van Vliet 3rd order with the 1995 coefficients (sigma >= 0.5)",
     true, RecursiveFilter::YoungVanVliet1995, LineSplit::BlockParallel, 4.0, check_recursive, plan_recursive,
     nullptr},
    {Algorithm::Deriche, "deriche",
     "Recursive, Deriche 4th order: cost independent of sigma, closest to a Gaussian",
     true, RecursiveFilter::Deriche, LineSplit::BlockParallel, 4.0, check_recursive, plan_recursive,
     deriche_auto_cost},
    {Algorithm::Box, "box",
     "Iterated box filter (box-passes passes, widths matching sigma): cost independent of sigma, approximate",
     false, kNoFilter, LineSplit::BlockParallel, 4.0, check_box, plan_box, nullptr},
    {Algorithm::Direct, "direct", "Direct 2D convolution with the FIR taps (a baseline; radius at most 16)",
     false, kNoFilter, LineSplit::BlockParallel, 4.0, check_direct, plan_direct, nullptr},
    // k-way (Algorithm C) with kappa 2 (Ferreira et al.'s choice): measured faster than A and
    // than the exact block-parallel split, with an MSE against A far below 1 (bench_edge_aware).
    {Algorithm::EdgeAware, "edge-aware",
     "Edge-aware: recursive blur in the domain-transformed space (sigma-r, iterations, edge-filter); "
     "keeps edges sharp",
     false, kNoFilter, LineSplit::KWay, 2.0, check_edge_aware, plan_edge_aware, nullptr},
    {Algorithm::Multirate, "multirate",
     "Exact Gaussian through a coarser grid (a Gaussian of sigma/sqrt(2) every sigma/2 pixels, interpolated "
     "back by another): nearly flat cost from sigma 8, any border",
     false, kNoFilter, LineSplit::BlockParallel, 4.0, check_multirate, plan_multirate, multirate_auto_cost},
  };
  return rows;
}

const BlurAlgorithm* find_blur_algorithm(Algorithm algorithm) {
  for (const BlurAlgorithm& a : blur_algorithms())
    if (a.id == algorithm) return &a;
  return nullptr;
}

const char* algorithm_name(Algorithm algorithm) {
  const BlurAlgorithm* a = find_blur_algorithm(algorithm);
  return a ? a->nick : "unknown";
}

bool is_recursive(Algorithm algorithm) {
  const BlurAlgorithm* a = find_blur_algorithm(algorithm);
  return a && a->recursive;
}

RecursiveFilter recursive_filter_of(Algorithm algorithm) {
  const BlurAlgorithm* a = find_blur_algorithm(algorithm);
  return a && a->recursive ? a->recursive_filter : RecursiveFilter::YoungVanVliet2002;
}

}  // namespace cudagaussian
