/* For element tests: run a gst-launch description until it posts an error (or ends). */
#pragma once

#include <gst/gst.h>

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
