/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Buffers that end right before an inaccessible page, so that a read or write one byte past
 * their end faults instead of passing unnoticed. */
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <gst/check/gstcheck.h>

#include "element_test_basics.h"

namespace cgt {

struct MappedRegion
{
  void *base;
  size_t length;
};

inline void
unmap_region (gpointer data)
{
  MappedRegion *r = static_cast < MappedRegion * >(data);
  munmap (r->base, r->length);
  delete r;
}

/* @size random bytes followed by a PROT_NONE page; @read_only: the pages are made read-only
 * after filling. */
inline GstBuffer *
guarded_buffer (gsize size, unsigned seed, bool read_only = false)
{
  const size_t page = (size_t) sysconf (_SC_PAGESIZE);
  const size_t span = (size + page - 1) / page * page;
  void *base = mmap (NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
      -1, 0);
  fail_unless (base != MAP_FAILED);
  guint8 *data = (guint8 *) base + span - size;
  fill_bytes (data, size, seed);
  fail_unless (mprotect ((guint8 *) base + span, page, PROT_NONE) == 0);
  if (read_only)
    fail_unless (mprotect (base, span, PROT_READ) == 0);
  return gst_buffer_new_wrapped_full (read_only ? GST_MEMORY_FLAG_READONLY : (GstMemoryFlags) 0,
      data, size, 0, size, new MappedRegion { base, span + page }, unmap_region);
}

}  // namespace cgt
