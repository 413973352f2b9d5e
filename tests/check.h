// SPDX-License-Identifier: LGPL-2.1-or-later
// A minimal test harness for the CPU and kernel tests: no dependency beyond the standard
// library, so the same tests build on the GPU host. Exit code 77 makes meson report a skip.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace cgtest {

inline int& failures() { static int n = 0; return n; }

struct Case { const char* name; std::function<void()> body; };
inline std::vector<Case>& cases() { static std::vector<Case> c; return c; }
struct Register { Register(const char* n, std::function<void()> f) { cases().push_back({n, f}); } };

// CG_TEST_FILTER=substring runs only the cases whose name contains it (e.g. under a sanitizer).
inline int run_all() {
  int failed_cases = 0, ran = 0;
  const char* filter = std::getenv("CG_TEST_FILTER");
  for (const Case& c : cases()) {
    if (filter && !std::strstr(c.name, filter)) continue;
    ++ran;
    const int before = failures();
    c.body();
    const bool ok = failures() == before;
    failed_cases += ok ? 0 : 1;
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", c.name);
  }
  std::printf("%d passed, %d failed\n", ran - failed_cases, failed_cases);
  return failed_cases == 0 ? 0 : 1;
}

// Prints a visible skip line and exits with meson's skip code.
[[noreturn]] inline void skip(const char* why) {
  std::printf("skipped: %s\n", why);
  std::exit(77);
}

}  // namespace cgtest

#define CG_TEST(name)                                              \
  static void name();                                              \
  static cgtest::Register name##_registered(#name, name);          \
  static void name()

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::printf("  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
      ++cgtest::failures();                                                      \
    }                                                                            \
  } while (0)

#define CHECK_MSG(cond, ...)                                                     \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::printf("  %s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);     \
      std::printf(__VA_ARGS__);                                                  \
      std::printf("\n");                                                         \
      ++cgtest::failures();                                                      \
    }                                                                            \
  } while (0)

#define CHECK_NEAR(a, b, tol) \
  CHECK_MSG(std::fabs(double(a) - double(b)) <= (tol), "%.9g vs %.9g (tol %.3g)", double(a), double(b), double(tol))

#define CG_TEST_MAIN() \
  int main() { return cgtest::run_all(); }
