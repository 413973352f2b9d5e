// SPDX-License-Identifier: LGPL-2.1-or-later
// An application that blurs frames from its own memory: it pushes uniform RGBA frames through
// appsrc ! cudagaussian ! appsink, takes them back and checks what must hold for any blur:
// as many frames come out as went in, in order, with their timestamps, each still uniform
// (an exact, normalised Gaussian leaves a constant image unchanged, within 1 LSB).
//
//   GST_PLUGIN_PATH=build/gst build/examples/appsrc_roundtrip [FRAMES] [SIGMA]
//
// Prints one line per check and "roundtrip: ok"; exit code 0 when all held, 1 on a failure,
// 77 when there is no CUDA device (the element's error says so).

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWidth = 320, kHeight = 240 };
static const guint8 kPixel[4] = {40, 120, 200, 255};  // R, G, B, A of every input pixel

// A frame of kPixel in memory the application owns, wrapped (no copy) in a GstBuffer.
static GstBuffer* make_frame(guint index, GstClockTime duration) {
  const gsize size = (gsize)kWidth * kHeight * 4;
  guint8* pixels = g_malloc(size);
  for (gsize i = 0; i < size; i += 4) memcpy(pixels + i, kPixel, 4);
  GstBuffer* buf = gst_buffer_new_wrapped(pixels, size);
  GST_BUFFER_PTS(buf) = index * duration;
  GST_BUFFER_DURATION(buf) = duration;
  return buf;
}

// The largest difference of any sample of @buf from kPixel, or -1 when it cannot be read.
static int max_deviation(GstBuffer* buf, GstCaps* caps) {
  GstVideoInfo info;
  GstVideoFrame frame;
  if (!gst_video_info_from_caps(&info, caps) || !gst_video_frame_map(&frame, &info, buf, GST_MAP_READ))
    return -1;
  int worst = 0;
  const guint8* data = GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
  const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
  for (int y = 0; y < GST_VIDEO_FRAME_HEIGHT(&frame); ++y)
    for (int x = 0; x < GST_VIDEO_FRAME_WIDTH(&frame) * 4; ++x) {
      const int d = abs((int)data[y * stride + x] - (int)kPixel[x % 4]);
      if (d > worst) worst = d;
    }
  gst_video_frame_unmap(&frame);
  return worst;
}

// The text of an ERROR message (caller frees), or NULL when there is none.
static gchar* error_text(GstMessage* msg) {
  if (!msg) return NULL;
  GError* err = NULL;
  gst_message_parse_error(msg, &err, NULL);
  gchar* text = g_strdup(err->message);
  g_error_free(err);
  return text;
}

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const guint frames = argc > 1 ? (guint)strtoul(argv[1], NULL, 10) : 30;
  const double sigma = argc > 2 ? strtod(argv[2], NULL) : 3.0;
  const GstClockTime duration = GST_SECOND / 30;
  if (frames == 0) {
    fprintf(stderr, "usage: %s [FRAMES > 0] [SIGMA]\n", argv[0]);
    return 2;
  }
  GstElementFactory* factory = gst_element_factory_find("cudagaussian");
  if (!factory) {
    fprintf(stderr, "roundtrip: GStreamer has no cudagaussian element: set GST_PLUGIN_PATH to the build's gst/ directory\n");
    return 1;
  }
  gst_object_unref(factory);

  gchar* description = g_strdup_printf(
      "appsrc name=src format=time caps=video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1 "
      "! cudagaussian sigma=%g ! appsink name=sink sync=false",
      kWidth, kHeight, sigma);
  GError* err = NULL;
  GstElement* pipeline = gst_parse_launch(description, &err);
  g_free(description);
  if (!pipeline) {
    fprintf(stderr, "roundtrip: cannot build the pipeline: %s\n", err->message);
    return 1;
  }
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  printf("roundtrip: %u frames of %dx%d RGBA, every pixel (%d,%d,%d,%d), sigma %g\n", frames, kWidth,
         kHeight, kPixel[0], kPixel[1], kPixel[2], kPixel[3], sigma);

  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < frames; ++i)
    if (gst_app_src_push_buffer(GST_APP_SRC(src), make_frame(i, duration)) != GST_FLOW_OK) break;
  gst_app_src_end_of_stream(GST_APP_SRC(src));

  // Take every frame back; each must be the next timestamp and still uniform.
  guint received = 0, out_of_order = 0;
  int worst = 0;
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* error_msg = NULL;
  for (int idle_seconds = 0; idle_seconds < 10;) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), GST_SECOND);
    if (!sample) {
      // Nothing for a second: the end, an error, or a slow start.
      if (!error_msg) error_msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
      if (gst_app_sink_is_eos(GST_APP_SINK(sink)) || error_msg) break;
      ++idle_seconds;
      continue;
    }
    GstBuffer* buf = gst_sample_get_buffer(sample);
    if (GST_BUFFER_PTS(buf) != received * duration) ++out_of_order;
    const int d = max_deviation(buf, gst_sample_get_caps(sample));
    if (d < 0 || d > worst) worst = d < 0 ? 256 : d;
    ++received;
    gst_sample_unref(sample);
  }
  if (!error_msg) error_msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  gst_object_unref(bus);

  gchar* error = error_text(error_msg);
  if (error_msg) gst_message_unref(error_msg);
  int rc = 0;
  if (error) {
    printf("roundtrip: pipeline error: %s\n", error);
    rc = strstr(error, "No CUDA device") ? 77 : 1;
  }
  printf("frames out: %u of %u %s\n", received, frames, received == frames ? "(ok)" : "(FAILED)");
  printf("timestamps out of order or missing: %u %s\n", out_of_order, out_of_order == 0 ? "(ok)" : "(FAILED)");
  printf("largest difference from the uniform input: %d %s\n", worst, worst <= 1 ? "(ok, at most 1)" : "(FAILED)");
  if (rc == 0 && (received != frames || out_of_order != 0 || worst > 1)) rc = 1;
  printf("roundtrip: %s\n", rc == 0 ? "ok" : rc == 77 ? "skipped (no CUDA device)" : "FAILED");

  g_free(error);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return rc;
}
