/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "host_registration.h"

#include <mutex>

#include <gst/cuda/gstcudamemory.h>

#include "device_memory.h"

namespace cg = cudagaussian;

/* What a registered memory carries until it is freed. */
struct Registration
{
  GstCudaContext *context;
  void *data;                   /* NULL: nothing to undo (already pinned, or refused) */
};

/* The check and the marking of a memory are one step for every element of the process. */
static std::mutex registration_lock;

static GQuark
seen_quark (void)
{
  static GQuark q = g_quark_from_static_string ("cudagaussian-seen");
  return q;
}

static GQuark
registration_quark (void)
{
  static GQuark q = g_quark_from_static_string ("cudagaussian-registration");
  return q;
}

static void
registration_free (gpointer user_data)
{
  Registration *r = static_cast < Registration * >(user_data);

  if (r->data && gst_cuda_context_push (r->context)) {
    cg::host_unregister (r->data);
    gst_cuda_context_pop (NULL);
  }
  gst_object_unref (r->context);
  delete r;
}

void
gst_cuda_filter_register_host_memory (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context, GstBuffer * buffer)
{
  /* A registration, once set, stays until the memory is freed: memories that have one need no
   * lock (the usual case, every frame after the first two). */
  gboolean all_registered = TRUE;
  for (guint i = 0; i < gst_buffer_n_memory (buffer) && all_registered; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    all_registered = !gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM) ||
        gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem), registration_quark ()) != NULL;
  }
  if (all_registered)
    return;

  std::lock_guard < std::mutex > guard (registration_lock);
  for (guint i = 0; i < gst_buffer_n_memory (buffer); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    GstMiniObject *obj = GST_MINI_OBJECT_CAST (mem);

    /* Only plain system memory keeps the same address for its whole life. */
    if (!gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM) ||
        gst_mini_object_get_qdata (obj, registration_quark ()))
      continue;
    if (!gst_mini_object_get_qdata (obj, seen_quark ())) {
      gst_mini_object_set_qdata (obj, seen_quark (), GINT_TO_POINTER (1), NULL);
      continue;
    }

    GstMapInfo map;
    if (!gst_memory_map (mem, &map, GST_MAP_READ))
      continue;
    Registration *r = new Registration {
    GST_CUDA_CONTEXT (gst_object_ref (context)), NULL};
    if (!cg::is_pinned (map.data)) {
      cg::Status st = cg::host_register (map.data, map.size);
      if (st.ok ())
        r->data = map.data;
      else
        GST_CAT_DEBUG_OBJECT (category, element, "could not page-lock %" G_GSIZE_FORMAT
            " bytes: %s", map.size, st.message.c_str ());
    }
    gst_memory_unmap (mem, &map);
    gst_mini_object_set_qdata (obj, registration_quark (), r, registration_free);
  }
}
