/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudagaussian's region modes through a harness: regions from region-of-interest metas and
 * privacy zones, inside and outside, every effect and shape, on every format, in system and
 * CUDA memory, against region_expectation.h; metas passed on; holding; bad and absurd input.
 * Without a CUDA device the program reports a skip. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "element_gpu_helpers.h"
#include "pipeline_error.h"
#include "region_expectation.h"
#include "region_fill.h"
#include "region_boxes.h"

namespace cg = cudagaussian;
using cgt::caps_string;
using cgt::video_info;

static const char *kFormats[] = { "RGBA", "BGRA", "RGBx", "BGRx", "ARGB",
  "ABGR", "xRGB", "xBGR", "RGB", "BGR", "GRAY8", "GRAY16_LE", "I420", "YV12",
  "NV12", "NV21", "Y42B", "Y444", "P010_10LE", "P016_LE"
};

struct Meta
{
  const char *type;
  int x, y, w, h;
  int id;
};

static void
add_metas (GstBuffer * buf, const std::vector < Meta > &metas)
{
  for (const Meta & m : metas) {
    GstVideoRegionOfInterestMeta *roi = gst_buffer_add_video_region_of_interest_meta (buf,
        m.type, m.x, m.y, m.w, m.h);
    roi->id = m.id;
  }
}

static std::vector < cg::MarkedBox >
boxes_of (const std::vector < Meta > &metas, const char *type)
{
  std::vector < cg::MarkedBox > boxes;
  for (const Meta & m : metas) {
    if (type && !g_str_equal (type, m.type))
      continue;
    /* As the meta stores them: unsigned, so a negative x is a huge one. */
    cg::MarkedBox b;
    b.x = (guint) m.x, b.y = (guint) m.y, b.w = (guint) m.w, b.h = (guint) m.h, b.id = m.id;
    boxes.push_back (b);
  }
  return boxes;
}

/* The regions the element plans for @boxes on frames of @info (region_frame_extent: the
 * frame as every plane covers it). */
static std::vector < cg::Region >
plan (const GstVideoInfo & info, const std::vector < cg::MarkedBox > &boxes,
    const cg::RegionOptions & o)
{
  std::vector < cg::PlaneSpec > specs;
  fail_unless (gst_cuda_gaussian_plane_specs (&info, &specs));
  long long width, height;
  cg::region_frame_extent (specs, &width, &height);
  return cg::plan_regions (boxes, o, (int) width, (int) height, NULL);
}

/* A harness around cudagaussian with @props ("name=value ..."). */
static GstHarness *
region_harness (const std::string & props, const std::string & caps)
{
  GstHarness *h = gst_harness_new_parse (("cudagaussian name=blur frames-in-flight=1 " +
          props).c_str ());
  gst_harness_set_src_caps_str (h, caps.c_str ());
  return h;
}

/* Pushes @in (its metas attached), pulls the output and checks it against @e. */
static void
push_and_check (GstHarness * h, const GstVideoInfo & info, GstBuffer * in,
    const cgt::RegionExpectation & e, const std::string & what)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what.c_str ());
  double worst = 0.0;
  const std::string wrong = cgt::check_regions (info, in, out, e, &worst);
  fail_unless (wrong.empty (), "%s: %s", what.c_str (), wrong.c_str ());
  GST_INFO ("%s: max error inside %.0f", what.c_str (), worst);
  gst_buffer_unref (out);
}

static cg::RegionOptions
options (double sigma, int padding = 0, cg::RegionShape shape = cg::RegionShape::Rectangle,
    int feather = 0, double strength = 0.0)
{
  cg::RegionOptions o;
  o.sigma_x = o.sigma_y = sigma;
  o.padding = padding;
  o.shape = shape;
  o.feather = feather;
  o.strength = strength;
  return o;
}

/* Faces touching the left edge (crossing it once padded) and crossing the right and bottom
 * edges, two overlapping, and a plate that roi-types filters out, on a 385x289 frame. */
static const std::vector < Meta > kMetas = {
  {"face", 0, 30, 60, 60, 0}, {"face", 150, 100, 70, 50, 0}, {"face", 190, 120, 60, 70, 0},
  {"face", 300, 250, 120, 90, 0}, {"license-plate", 20, 200, 90, 30, 0},
};

GST_START_TEST (test_inside_every_format)
{
  const int w = 385, hgt = 289;
  unsigned seed = 1;
  for (const char *format : kFormats) {
    GstVideoInfo info = video_info (format, w, hgt);
    GstHarness *h = region_harness ("regions=inside roi-types=face sigma=3 roi-padding=4",
        caps_string (format, w, hgt));
    cgt::RegionExpectation e;
    e.regions = plan (info, boxes_of (kMetas, "face"), options (3.0, 4));
    for (bool padded : {false, true}) {
      GstBuffer *in = padded ? cgt::new_padded_buffer (&info, 29) :
          gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fail_unless (cgt::fill_random (in, seed++));
      add_metas (in, kMetas);
      push_and_check (h, info, in, e, std::string (format) + (padded ? " padded" : ""));
      gst_buffer_unref (in);
    }
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

GST_START_TEST (test_shapes_feather_strength_and_effects)
{
  const int w = 385, hgt = 289;
  struct Case
  {
    const char *props;
    cg::RegionOptions opts;
    cg::RegionEffect effect;
  } cases[] = {
    {"roi-shape=ellipse sigma=4", options (4.0, 0, cg::RegionShape::Ellipse), cg::RegionEffect::Blur},
    {"roi-feather=9 sigma=2.5", options (2.5, 0, cg::RegionShape::Rectangle, 9), cg::RegionEffect::Blur},
    {"roi-shape=ellipse roi-feather=12 roi-padding=6", options (2.0, 6, cg::RegionShape::Ellipse,
            12), cg::RegionEffect::Blur},
    {"roi-strength=0.12", options (2.0, 0, cg::RegionShape::Rectangle, 0, 0.12), cg::RegionEffect::Blur},
    {"roi-effect=pixelate roi-pixel-size=11", options (2.0), cg::RegionEffect::Pixelate},
    {"roi-effect=fill roi-fill-color=0x80ff4020 roi-feather=5",
        options (2.0, 0, cg::RegionShape::Rectangle, 5), cg::RegionEffect::Fill},
  };
  unsigned seed = 100;
  for (const char *format : {"RGBA", "I420", "NV12", "P010_10LE", "RGB", "GRAY16_LE"}) {
    GstVideoInfo info = video_info (format, w, hgt);
    for (const Case & c : cases) {
      GstHarness *h = region_harness (std::string ("regions=inside ") + c.props,
          caps_string (format, w, hgt));
      cgt::RegionExpectation e;
      e.regions = plan (info, boxes_of (kMetas, NULL), c.opts);
      e.effect.effect = c.effect;
      e.effect.pixel_size = 11;
      e.effect.fill = gst_cuda_gaussian_fill_values (&info, 0x80ff4020);
      GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fail_unless (cgt::fill_random (in, seed++));
      add_metas (in, kMetas);
      push_and_check (h, info, in, e, std::string (format) + " " + c.props);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

GST_START_TEST (test_outside_keeps_regions_and_blurs_zones)
{
  const int w = 385, hgt = 289;
  const char *zones = "100,90,80,60;0,0,30,20";
  unsigned seed = 200;
  for (const char *format : {"RGBA", "I420", "NV12", "Y444"}) {
    GstVideoInfo info = video_info (format, w, hgt);
    for (const char *effect : {"blur", "pixelate", "fill"}) {
      GstHarness *h = region_harness (std::string ("regions=outside algorithm=fir sigma=3 "
              "roi-feather=4 roi-effect=") + effect + " privacy-zones=\"" + zones + "\"",
          caps_string (format, w, hgt));
      cgt::RegionExpectation e;
      e.mode = cgt::Mode::Outside;
      e.sigma_x = e.sigma_y = 3.0;
      e.regions = plan (info, boxes_of (kMetas, NULL), options (3.0, 0,
              cg::RegionShape::Rectangle, 4));
      std::vector < cg::MarkedBox > zone_boxes;
      fail_unless (cg::parse_privacy_zones (zones, &zone_boxes, NULL));
      e.zones = plan (info, zone_boxes, options (3.0, 0, cg::RegionShape::Rectangle, 4));
      e.effect.effect = g_str_equal (effect, "blur") ? cg::RegionEffect::Blur :
          g_str_equal (effect, "fill") ? cg::RegionEffect::Fill : cg::RegionEffect::Pixelate;
      e.effect.fill = gst_cuda_gaussian_fill_values (&info, 0xff000000);
      GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fail_unless (cgt::fill_random (in, seed++));
      add_metas (in, kMetas);
      push_and_check (h, info, in, e, std::string (format) + " outside " + effect);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

GST_START_TEST (test_odd_sizes_and_region_counts)
{
  const int sizes[][2] = { {1, 1}, {3, 2}, {385, 289}, {1921, 1081} };
  unsigned seed = 300;
  for (auto & wh : sizes) {
    for (int count : {0, 1, 100}) {
      std::vector < Meta > metas;
      for (int i = 0; i < count; ++i)
        metas.push_back ({"face", (i * 37) % (wh[0] + 20) - 10, (i * 53) % (wh[1] + 20) - 10,
                1 + (i * 13) % 90, 1 + (i * 7) % 70, 0});
      for (const char *format : {"RGBA", "NV12"}) {
        if (g_str_equal (format, "NV12") && (wh[0] < 2 || wh[1] < 2))
          continue;
        GstVideoInfo info = video_info (format, wh[0], wh[1]);
        GstHarness *h = region_harness ("regions=inside sigma=2 roi-shape=ellipse roi-feather=3",
            caps_string (format, wh[0], wh[1]));
        cgt::RegionExpectation e;
        e.regions = plan (info, boxes_of (metas, NULL), options (2.0, 0,
                cg::RegionShape::Ellipse, 3));
        GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
        fail_unless (cgt::fill_random (in, seed++));
        add_metas (in, metas);
        push_and_check (h, info, in, e, std::string (format) + " " + std::to_string (wh[0]) +
            "x" + std::to_string (wh[1]) + " " + std::to_string (count) + " regions");
        gst_buffer_unref (in);
        gst_harness_teardown (h);
      }
    }
  }
}
GST_END_TEST;

GST_START_TEST (test_metas_pass_through_and_no_regions_passes_the_buffer)
{
  GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstHarness *h = region_harness ("regions=inside", caps_string ("RGBA", 64, 48));
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (cgt::fill_random (in, 5));
  add_metas (in, {{"face", 10, 10, 20, 20, 3}});
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  GstVideoRegionOfInterestMeta *roi = gst_buffer_get_video_region_of_interest_meta_id (out, 3);
  fail_unless (roi != NULL, "the region-of-interest meta did not reach the output");
  fail_unless (roi->x == 10 && roi->y == 10 && roi->w == 20 && roi->h == 20 &&
      g_str_equal (g_quark_to_string (roi->roi_type), "face"));
  gst_buffer_unref (out);
  /* No region on the frame: the input buffer itself comes out. */
  GstBuffer *bare = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (bare)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out == bare, "a frame without regions should pass through");
  gst_buffer_unref (out);
  gst_buffer_unref (bare);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_hold_covers_missed_frames)
{
  const int w = 160, hgt = 120;
  GstVideoInfo info = video_info ("RGBA", w, hgt);
  GstHarness *h = region_harness ("regions=inside sigma=3 roi-hold=2", caps_string ("RGBA", w,
          hgt));
  const std::vector < Meta > seen = { {"face", 40, 30, 50, 40, 0} };
  cgt::RegionExpectation held;
  held.regions = plan (info, boxes_of (seen, NULL), options (3.0));
  cgt::RegionExpectation none;
  for (int frame = 0; frame < 5; ++frame) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fail_unless (cgt::fill_random (in, 400 + frame));
    if (frame == 0)
      add_metas (in, seen);
    /* Frame 0 has the face, 1 and 2 are held, 3 and 4 are not. */
    push_and_check (h, info, in, frame <= 2 ? held : none, "frame " + std::to_string (frame));
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_absurd_regions_are_clipped_or_ignored)
{
  const int w = 200, hgt = 100;
  GstVideoInfo info = video_info ("I420", w, hgt);
  GstHarness *h = region_harness ("regions=inside sigma=2 roi-padding=3", caps_string ("I420",
          w, hgt));
  std::vector < Meta > metas = { {"face", 0, 0, 0, 10, 0}, {"face", 500, 10, 10, 10, 0},
  {"face", 190, 90, 4000000, 4000000, 0}, {"face", -2000000000, -2000000000, 10, 10, 0},
  };
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (cgt::fill_random (in, 500));
  /* Unsigned fields: a negative x is a huge one. */
  for (int i = 0; i < 10000; ++i)
    metas.push_back ({"face", (i * 7919) % 260 - 30, (i * 104729) % 140 - 20, 1 + i % 9, 1 + i % 7,
            0});
  add_metas (in, metas);
  cgt::RegionExpectation e;
  std::vector < cg::MarkedBox > boxes = boxes_of (metas, NULL);
  cg::RegionOptions o = options (2.0, 3);
  o.max_regions = 1024;
  e.regions = plan (info, boxes, o);
  fail_unless_equals_int ((int) e.regions.size (), 1024);
  push_and_check (h, info, in, e, "10,004 metas");
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_malformed_privacy_zones_stop_with_an_error)
{
  GstVideoInfo info = video_info ("RGBA", 32, 32);
  GstHarness *h = region_harness ("regions=inside privacy-zones=\"1,2,3\"",
      caps_string ("RGBA", 32, 32));
  GstBus *bus = cgt::attach_bus (h->element);
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_harness_push (h, in) == GST_FLOW_ERROR);
  const std::string error = cgt::pop_error (bus);
  fail_unless (error.find ("privacy-zones") != std::string::npos, "error: %s", error.c_str ());
  cgt::teardown_with_bus (h, bus);
}
GST_END_TEST;

/* Adds kMetas to each buffer entering cudagaussian (after cudaupload, which drops them). */
static GstPadProbeReturn
add_metas_probe (GstPad *, GstPadProbeInfo * info, gpointer)
{
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  add_metas (buf, kMetas);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_cuda_memory)
{
  if (!cgt::have_cudaupload ())
    return;
  const int w = 385, hgt = 288;
  unsigned seed = 600;
  for (const char *format : {"RGBA", "NV12", "I420", "P010_10LE"}) {
    for (const char *mode : {"inside", "outside"}) {
      GstVideoInfo info = video_info (format, w, hgt);
      GstHarness *h = gst_harness_new_parse ((std::string ("cudaupload ! "
                  "video/x-raw(memory:CUDAMemory) ! cudagaussian name=blur frames-in-flight=2 "
                  "algorithm=fir sigma=3 roi-shape=ellipse roi-feather=6 regions=") + mode +
              " ! video/x-raw(memory:CUDAMemory) ! cudadownload").c_str ());
      GstElement *blur = gst_bin_get_by_name (GST_BIN (h->element), "blur");
      GstPad *pad = gst_element_get_static_pad (blur, "sink");
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, add_metas_probe, NULL, NULL);
      gst_object_unref (pad);
      gst_object_unref (blur);
      gst_harness_set_src_caps_str (h, caps_string (format, w, hgt).c_str ());
      cgt::RegionExpectation e;
      e.mode = g_str_equal (mode, "inside") ? cgt::Mode::Inside : cgt::Mode::Outside;
      e.sigma_x = e.sigma_y = 3.0;
      e.regions = plan (info, boxes_of (kMetas, NULL), options (3.0, 0,
              cg::RegionShape::Ellipse, 6));
      std::vector < GstBuffer * >inputs;
      for (int i = 0; i < 3; ++i) {
        GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
        fail_unless (cgt::fill_random (in, seed++));
        inputs.push_back (in);
        fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
      }
      gst_harness_push_event (h, gst_event_new_eos ());
      for (GstBuffer * in:inputs) {
        GstBuffer *out = gst_harness_pull (h);
        fail_unless (out != NULL);
        const std::string wrong = cgt::check_regions (info, in, out, e);
        fail_unless (wrong.empty (), "%s %s CUDA memory: %s", format, mode, wrong.c_str ());
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

/* Frames uploaded from system memory are filtered in place in the element's output staging.
 * Several frames in flight, each with regions of its own, so that slots are reused while
 * earlier frames' regions are still queued. */
GST_START_TEST (test_in_place_uploads_with_regions_changing_every_frame)
{
  const int w = 385, hgt = 289, frames = 12;
  unsigned seed = 700;
  for (const char *format : {"RGBA", "NV12", "P010_10LE"}) {
    const GstVideoInfo info = video_info (format, w, hgt);
    GstHarness *h = gst_harness_new_parse ("cudagaussian frames-in-flight=4 algorithm=fir "
        "sigma=3 regions=inside");
    gst_harness_set_src_caps_str (h, caps_string (format, w, hgt).c_str ());
    std::vector < GstBuffer * >inputs;
    std::vector < cgt::RegionExpectation > expected;
    for (int i = 0; i < frames; ++i) {
      std::vector < Meta > metas;
      for (const Meta & m : kMetas)
        metas.push_back ({m.type, m.x + 9 * i - 40, m.y + 5 * i - 20, m.w, m.h, 0});
      GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fail_unless (cgt::fill_random (in, seed++));
      add_metas (in, metas);
      cgt::RegionExpectation e;
      e.sigma_x = e.sigma_y = 3.0;
      e.regions = plan (info, boxes_of (metas, NULL), options (3.0));
      expected.push_back (e);
      inputs.push_back (in);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    }
    gst_harness_push_event (h, gst_event_new_eos ());
    for (int i = 0; i < frames; ++i) {
      GstBuffer *out = gst_harness_pull (h);
      fail_unless (out != NULL);
      const std::string wrong = cgt::check_regions (info, inputs[i], out, expected[i]);
      fail_unless (wrong.empty (), "%s frame %d: %s", format, i, wrong.c_str ());
      gst_buffer_unref (out);
      gst_buffer_unref (inputs[i]);
    }
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static Suite *
region_element_suite (void)
{
  Suite *s = suite_create ("cudagaussian-regions");
  TCase *tc = tcase_create ("regions");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_inside_every_format);
  tcase_add_test (tc, test_shapes_feather_strength_and_effects);
  tcase_add_test (tc, test_outside_keeps_regions_and_blurs_zones);
  tcase_add_test (tc, test_odd_sizes_and_region_counts);
  tcase_add_test (tc, test_metas_pass_through_and_no_regions_passes_the_buffer);
  tcase_add_test (tc, test_hold_covers_missed_frames);
  tcase_add_test (tc, test_absurd_regions_are_clipped_or_ignored);
  tcase_add_test (tc, test_malformed_privacy_zones_stop_with_an_error);
  tcase_add_test (tc, test_cuda_memory);
  tcase_add_test (tc, test_in_place_uploads_with_regions_changing_every_frame);
  return s;
}

int
main (int argc, char **argv)
{
  return cgt::run_gpu_suite (argc, argv, region_element_suite, "cudagaussian_regions", __FILE__);
}
