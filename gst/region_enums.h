/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The enumerated region properties of cudagaussian, as GLib enum types. */
#pragma once

#include <glib-object.h>

/* Where the effect goes. */
enum class RegionMode
{ Frame = 0, Inside = 1, Outside = 2 };

G_BEGIN_DECLS

#define GST_TYPE_CUDA_GAUSSIAN_REGIONS (gst_cuda_gaussian_regions_get_type ())
GType gst_cuda_gaussian_regions_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_ROI_SHAPE (gst_cuda_gaussian_roi_shape_get_type ())
GType gst_cuda_gaussian_roi_shape_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_ROI_EFFECT (gst_cuda_gaussian_roi_effect_get_type ())
GType gst_cuda_gaussian_roi_effect_get_type (void);

G_END_DECLS
