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

#include "skip_note.h"

namespace cgtest {

inline int& failures() { static int n = 0; return n; }

struct Case { const char* name; std::function<void()> body; };
inline std::vector<Case>& cases() { static std::vector<Case> c; return c; }
struct Register { Register(const char* n, std::function<void()> f) { cases().push_back({n, f}); } };

// Which cases run: the names given as arguments (exact), else CG_TEST_CASE (one exact name, set
// per case by tests/meson.build, which lists every case as its own meson test), else
// CG_TEST_FILTER (a substring, e.g. under a sanitizer), else all. A selection that matches no
// case is an error (exit 1), so that a misspelt name cannot pass by running nothing.
// `--list` prints the names.
inline int run_all(int argc = 0, char** argv = nullptr) {
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--list") == 0) {
      for (const Case& c : cases()) std::printf("%s\n", c.name);
      return 0;
    }
    names.push_back(argv[i]);
  }
  const char* one = std::getenv("CG_TEST_CASE");
  if (names.empty() && one && *one) names.push_back(one);
  const char* filter = names.empty() ? std::getenv("CG_TEST_FILTER") : nullptr;
  if (filter && !*filter) filter = nullptr;

  for (const std::string& n : names) {
    bool known = false;
    for (const Case& c : cases()) known = known || n == c.name;
    if (!known) {
      std::fprintf(stderr, "no test case named '%s' (--list prints them)\n", n.c_str());
      return 1;
    }
  }
  int failed_cases = 0, ran = 0;
  for (const Case& c : cases()) {
    bool selected = names.empty() && (!filter || std::strstr(c.name, filter));
    for (const std::string& n : names) selected = selected || n == c.name;
    if (!selected) continue;
    ++ran;
    const int before = failures();
    c.body();
    const bool ok = failures() == before;
    failed_cases += ok ? 0 : 1;
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", c.name);
  }
  if (ran == 0 && filter) {
    std::fprintf(stderr, "CG_TEST_FILTER='%s' matches no test case (--list prints them)\n", filter);
    return 1;
  }
  std::printf("%d passed, %d failed\n", ran - failed_cases, failed_cases);
  return failed_cases == 0 ? 0 : 1;
}

// Prints a visible skip line (skip_note.h) and exits with meson's skip code.
[[noreturn]] inline void skip(const char* why) {
  note_skip(why);
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
  int main(int argc, char** argv) { return cgtest::run_all(argc, argv); }
