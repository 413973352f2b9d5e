/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gaussian_operation.h"

#include <cstdio>

namespace cg = cudagaussian;

static bool
same_regions (const std::vector < cg::Region > &a, const std::vector < cg::Region > &b)
{
  if (a.size () != b.size ())
    return false;
  for (size_t i = 0; i < a.size (); ++i) {
    const cg::RegionBox & x = a[i].box, &y = b[i].box;
    if (x.x0 != y.x0 || x.y0 != y.y0 || x.x1 != y.x1 || x.y1 != y.y1 || x.shape != y.shape ||
        x.feather != y.feather || x.clipped != y.clipped || x.shape_x0 != y.shape_x0 ||
        x.shape_y0 != y.shape_y0 || x.shape_x1 != y.shape_x1 || x.shape_y1 != y.shape_y1 ||
        a[i].sigma_x != b[i].sigma_x || a[i].sigma_y != b[i].sigma_y)
      return false;
  }
  return true;
}

static bool
same_effect (const cg::RegionEffectSettings & a, const cg::RegionEffectSettings & b)
{
  return a.effect == b.effect && a.truncate == b.truncate && a.pixel_size == b.pixel_size &&
      a.fill == b.fill && a.sharpen == b.sharpen && a.sharpen_threshold == b.sharpen_threshold &&
      a.keep == b.keep;
}

/* Whether the frame needs a whole-frame blur (FrameBlur). */
static bool
blurs_whole_frame (const GaussianSettings & s)
{
  return s.mode == RegionMode::Frame ||
      (s.mode == RegionMode::Outside && s.effect.effect == cg::RegionEffect::Blur);
}

bool
GaussianSettings::same_as (const FrameSettings & other) const
{
  const GaussianSettings *o = dynamic_cast < const GaussianSettings * >(&other);
  if (!o || o->mode != mode || !(o->blur == blur))
    return false;
  return mode == RegionMode::Frame || (same_effect (o->effect, effect) &&
      same_regions (o->regions, regions) && same_regions (o->zones, zones));
}

bool
GaussianSettings::passes_through () const
{
  const bool no_blur = blur.sigma_x == 0.0 && blur.sigma_y == 0.0;
  if ((blur.parts & cg::kAllParts) == 0)
    return true;                /* nothing filtered (or none of the chosen parts in the format) */
  switch (mode) {
    case RegionMode::Frame:
      return no_blur;
    case RegionMode::Inside:
      if (effect.effect != cg::RegionEffect::Blur)
        return regions.empty ();
      for (const cg::Region & r : regions)
        if (r.sigma_x != 0.0 || r.sigma_y != 0.0)
          return false;
      return true;
    case RegionMode::Outside:
      return effect.effect == cg::RegionEffect::Blur && no_blur;
  }
  return false;
}

GaussianOperation::GaussianOperation (std::vector < cg::PlaneSpec > planes)
:  planes_ (std::move (planes))
{
}

/* Whether the whole-frame blur is planned for @s's blur settings. */
bool
GaussianOperation::blur_planned_for (const GaussianSettings & s) const
{
  return blur_.planned () && blur_.settings () == s.blur;
}

/* Whether @s needs a whole-frame blur that is not planned yet. */
bool
GaussianOperation::needs_blur_plan (const GaussianSettings & s) const
{
  return blurs_whole_frame (s) && !blur_planned_for (s);
}

bool
GaussianOperation::planned_for (const FrameSettings & settings) const
{
  const GaussianSettings & s = static_cast < const GaussianSettings & >(settings);
  if (s.mode == RegionMode::Frame)
    return !region_planned_ && blur_planned_for (s);
  return region_planned_ && planned_.same_as (s) &&
      (!blurs_whole_frame (s) || blur_planned_for (s));
}

/* Only a new whole-frame blur plan replaces GPU memory (its scratch); regions, zones and the
 * effect's settings are host data, and RegionFilter keeps its own buffers safe for queued work. */
bool
GaussianOperation::plan_needs_idle_lane (const FrameSettings & settings) const
{
  const GaussianSettings & s = static_cast < const GaussianSettings & >(settings);
  return needs_blur_plan (s);
}

/* Effects inside the regions write the regions alone (RegionFilter::apply in place); a
 * whole-frame blur, and restore() after it, need the input intact. */
bool
GaussianOperation::works_in_place () const
{
  return region_planned_ && planned_.mode == RegionMode::Inside;
}

cg::Status
GaussianOperation::plan (const FrameSettings & settings)
{
  const GaussianSettings & s = static_cast < const GaussianSettings & >(settings);
  region_planned_ = false;
  if (needs_blur_plan (s))
    CG_TRY (blur_.plan (s.blur, planes_));
  if (s.mode != RegionMode::Frame) {
    CG_TRY (cg::RegionFilter::validate (planes_, s.regions, s.effect));
    CG_TRY (cg::RegionFilter::validate (planes_, s.zones, s.effect));
    region_planned_ = true;
  }
  planned_ = s;
  return cg::Status::success ();
}

cg::Status
GaussianOperation::run_frame (const std::vector < cg::DevicePlaneRef > &src,
    const std::vector < cg::MutableDevicePlaneRef > &dst, cudaStream_t stream)
{
  const GaussianSettings & s = planned_;
  if (s.mode == RegionMode::Inside)
    return regions_.apply (planes_, src, dst, s.regions, s.effect, stream);
  /* Outside: the effect over the whole frame, then the regions brought back, but for the
   * privacy zones. */
  if (s.effect.effect == cg::RegionEffect::Blur) {
    CG_TRY (blur_.run (src, dst, stream));
  } else {
    long long width, height;
    cg::region_frame_extent (planes_, &width, &height);
    cg::Region whole;
    whole.box = cg::RegionBox { 0, 0, (int) width, (int) height, cg::RegionShape::Rectangle, 0 };
    CG_TRY (regions_.apply (planes_, src, dst, {whole}, s.effect, stream));
  }
  return regions_.restore (planes_, src, dst, s.regions, s.zones, stream);
}

cg::Status
GaussianOperation::run_batch (const SourceBatch & src, const TargetBatch & dst,
    cudaStream_t stream)
{
  if (planned_.mode == RegionMode::Frame)
    return blur_.run_batch (src, dst, stream);
  for (size_t f = 0; f < src.size (); ++f)
    CG_TRY (run_frame (src[f], dst[f], stream));
  return cg::Status::success ();
}

std::string
GaussianOperation::describe () const
{
  char text[160];
  if (planned_.mode != RegionMode::Frame && !blurs_whole_frame (planned_)) {
    std::snprintf (text, sizeof text, "%zu regions, %zu zones", planned_.regions.size (),
        planned_.zones.size ());
    return text;
  }
  std::snprintf (text, sizeof text, "sigma %g x %g: %s%s", blur_.settings ().sigma_x,
      blur_.settings ().sigma_y, cg::algorithm_name (blur_.chosen ()),
      planned_.mode == RegionMode::Outside ? ", outside the regions" : "");
  return text;
}
