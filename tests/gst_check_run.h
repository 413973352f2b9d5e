/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs a GstCheck suite like gst_check_run_suite(), but a GST_CHECKS that selects no case is an
 * error (exit 1) instead of a pass with nothing run, so that a misspelt case name cannot pass.
 * tests/meson.build runs each case as its own meson test with GST_CHECKS=<case>;
 * `GST_CHECKS=a,b program` runs a few by hand and `program --list-tests` prints the names. */
#pragma once

#include <gst/check/gstcheck.h>

#include "skip_note.h"

namespace cgt {

/* The number of failed cases (the exit code gst_check_run_suite gives), or 1 when GST_CHECKS
 * selected none. */
inline int
run_suite (Suite * suite)
{
  SRunner *sr = srunner_create (suite);
  srunner_run_all (sr, CK_NORMAL);
  const int ran = srunner_ntests_run (sr);
  const int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  const gchar *checks = g_getenv ("GST_CHECKS");
  if (ran == 0 && checks && *checks && !_gst_check_list_tests) {
    g_printerr ("GST_CHECKS='%s' matches no test case (--list-tests prints them)\n", checks);
    return 1;
  }
  return failed;
}

/* A skip of the whole program, visible on meson's line through tools/test.sh (skip_note.h). */
inline int
skip_program (const char *why)
{
  cgtest::note_skip (why);
  return 77;
}

}  // namespace cgt

/* GST_CHECK_MAIN with run_suite(). */
#define CGT_CHECK_MAIN(name)                                    \
int main (int argc, char **argv)                                \
{                                                               \
  gst_check_init (&argc, &argv);                                \
  return cgt::run_suite (name ## _suite ());                    \
}
