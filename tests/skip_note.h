// SPDX-License-Identifier: LGPL-2.1-or-later
// A visible skip: the reason on stdout, and in $CG_SKIP_NOTES/<meson test name> when both are
// set (CG_TEST_NAME comes from tests/meson.build, CG_SKIP_NOTES from tools/test.sh). Meson 1.0
// shows a test that exits 77 as "SKIP ... exit status 77"; tools/test.sh puts the reason from
// that file on the test's line instead. Plain C stdio, for the harness and the GstCheck tests.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cgtest {

inline void note_skip(const char* why) {
  std::printf("skipped: %s\n", why);
  std::fflush(stdout);
  const char* dir = std::getenv("CG_SKIP_NOTES");
  const char* name = std::getenv("CG_TEST_NAME");
  if (!dir || !*dir || !name || !*name) return;
  if (FILE* f = std::fopen((std::string(dir) + "/" + name).c_str(), "w")) {
    std::fprintf(f, "%s\n", why);
    std::fclose(f);
  }
}

}  // namespace cgtest
