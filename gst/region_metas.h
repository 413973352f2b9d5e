/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The regions a detector marked on a buffer: its GstVideoRegionOfInterestMeta, filtered by type
 * and detection confidence. */
#pragma once

#include <string>
#include <vector>

#include <gst/gst.h>

#include "region_boxes.h"

/* The boxes of @buffer's region-of-interest metas whose type is in @types (all when empty) and
 * whose confidence, when the meta carries one, is at least @min_confidence. @skipped counts
 * the others. */
std::vector < cudagaussian::MarkedBox > gst_cuda_gaussian_read_regions (GstBuffer * buffer,
    const std::vector < std::string > &types, double min_confidence, guint * skipped);
