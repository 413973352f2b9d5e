// SPDX-License-Identifier: LGPL-2.1-or-later
// Real photographs for tests and benchmarks (tests/data/*.jpg): decoded with GStreamer, tightly
// packed, and mirror-tiled to any size. Call gst_init() first.
#pragma once

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Decodes `path` to `format` (a packed GStreamer format of `channels` bytes per pixel, e.g.
// "GRAY8" with 1, "RGBA" with 4) into rows of exactly w x channels bytes.
inline bool load_photo(const std::string& path, const char* format, int channels, int* w, int* h,
                       std::vector<uint8_t>* pixels) {
  GError* err = nullptr;
  const std::string desc = "filesrc location=\"" + path + "\" ! decodebin ! videoconvert ! video/x-raw,format=" +
                           format + " ! appsink name=sink";
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  if (!pipeline) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), err ? err->message : "parse failed");
    g_clear_error(&err);
    return false;
  }
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 10 * GST_SECOND);
  bool ok = false;
  if (sample) {
    GstVideoInfo info;
    GstVideoFrame frame;
    if (gst_video_info_from_caps(&info, gst_sample_get_caps(sample)) &&
        gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ)) {
      *w = GST_VIDEO_INFO_WIDTH(&info);
      *h = GST_VIDEO_INFO_HEIGHT(&info);
      const size_t row = static_cast<size_t>(*w) * channels;
      pixels->resize(row * *h);
      for (int y = 0; y < *h; ++y)
        std::memcpy(pixels->data() + y * row,
                    static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                        static_cast<size_t>(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
                    row);
      gst_video_frame_unmap(&frame);
      ok = true;
    }
    gst_sample_unref(sample);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return ok;
}

// A photograph of the test data (CG_TEST_DATA, else tests/data) by file name, decoded as
// load_photo does; initialises GStreamer first.
inline bool load_test_photo(const char* name, const char* format, int channels, int* w, int* h,
                            std::vector<uint8_t>* pixels) {
  gst_init(nullptr, nullptr);
  const char* dir = std::getenv("CG_TEST_DATA");
  return load_photo(std::string(dir ? dir : "tests/data") + "/" + name, format, channels, w, h, pixels);
}

// Mirror-tiles a w x h photo of `channels` bytes per pixel to tw x th (no seams: each tile is the
// mirror of its neighbour).
inline std::vector<uint8_t> tile_photo(const std::vector<uint8_t>& img, int w, int h, int channels, int tw,
                                       int th) {
  std::vector<uint8_t> out(static_cast<size_t>(tw) * th * channels);
  auto fold = [](int i, int n) {
    const int p = 2 * n, m = i % p;
    return m < n ? m : p - 1 - m;
  };
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x)
      for (int c = 0; c < channels; ++c)
        out[(static_cast<size_t>(y) * tw + x) * channels + c] =
            img[(static_cast<size_t>(fold(y, h)) * w + fold(x, w)) * channels + c];
  return out;
}
