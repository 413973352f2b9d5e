/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For element tests: run a gst-launch description until it posts an error (or ends). */
#pragma once

#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include <cstring>

#include <gst/cuda/gstcudaloader.h>

#include "device_memory.h"

/* The first ERROR the pipeline posts within @timeout, or NULL after EOS or a timeout. The caller
 * frees the returned error. */
static inline GError *
pipeline_error (const char *description, GstClockTime timeout)
{
  GstElement *pipeline = gst_parse_launch (description, NULL);
  if (!pipeline)
    return g_error_new_literal (GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "the test pipeline does not parse");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, timeout,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  GError *err = NULL;
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, NULL);
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return err;
}

/* The error a user gets from @element when no CUDA device can be used: RESOURCE/NOT_FOUND saying
 * "No CUDA device". With a GPU present, a device id that does not exist says "no CUDA device with
 * id N" instead. A
 * check assertion, so call it from inside a test. */
static inline void
check_no_cuda_device_error (const char *element)
{
  const gboolean have_device = gst_cuda_load_library () && cudagaussian::cuda_device_count () > 0;
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! %s cuda-device-id=%d ! fakesink", element,
      have_device ? 4242 : -1);
  GError *err = pipeline_error (desc, 10 * GST_SECOND);
  g_free (desc);
  fail_unless (err != NULL, "no error within 10 s");
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND),
      "unexpected error: %s", err->message);
  gchar *lower = g_ascii_strdown (err->message, -1);
  fail_unless (strstr (lower, "no cuda device") != NULL, "%s", err->message);
  g_free (lower);
  GST_INFO ("error as users see it: %s", err->message);
  g_error_free (err);
}
