/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The enumerated properties of cudagaussian, as GLib enum types. */
#pragma once

#include <glib-object.h>


G_BEGIN_DECLS

#define GST_TYPE_CUDA_GAUSSIAN_ALGORITHM (gst_cuda_gaussian_algorithm_get_type ())
GType gst_cuda_gaussian_algorithm_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_BORDER (gst_cuda_gaussian_border_get_type ())
GType gst_cuda_gaussian_border_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_START_UP (gst_cuda_gaussian_start_up_get_type ())
GType gst_cuda_gaussian_start_up_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_PARTITIONS (gst_cuda_gaussian_partitions_get_type ())
GType gst_cuda_gaussian_partitions_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_EDGE_FILTER (gst_cuda_gaussian_edge_filter_get_type ())
GType gst_cuda_gaussian_edge_filter_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_COEFFICIENTS (gst_cuda_gaussian_coefficients_get_type ())
GType gst_cuda_gaussian_coefficients_get_type (void);

#define GST_TYPE_CUDA_GAUSSIAN_BOX_METHOD (gst_cuda_gaussian_box_method_get_type ())
GType gst_cuda_gaussian_box_method_get_type (void);

/* Flags: the parts of the frame that are filtered (cudagaussian::FramePart). */
#define GST_TYPE_CUDA_GAUSSIAN_PLANES (gst_cuda_gaussian_planes_get_type ())
GType gst_cuda_gaussian_planes_get_type (void);

G_END_DECLS
