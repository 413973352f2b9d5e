// SPDX-License-Identifier: LGPL-2.1-or-later
// Command-line parsing shared by the benchmarks, through GLib's GOptionContext: --help prints the
// usage, and an unknown option or a missing value is an error instead of being taken for a file
// name.
#pragma once

#include <glib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

// Parses and removes the options of @entries (and of @group, e.g. GStreamer's, when given) from
// argc/argv; what is left are the program name and the positional arguments. --help prints the
// usage and exits 0; an error prints a line and exits 2.
inline void parse_options_or_exit(int* argc, char*** argv, const char* parameters, const char* summary,
                                  const GOptionEntry* entries, GOptionGroup* group = nullptr) {
  GOptionContext* ctx = g_option_context_new(parameters);
  g_option_context_set_summary(ctx, summary);
  g_option_context_add_main_entries(ctx, entries, nullptr);
  if (group) g_option_context_add_group(ctx, group);
  GError* err = nullptr;
  if (!g_option_context_parse(ctx, argc, argv, &err)) {
    std::fprintf(stderr, "%s: %s (try --help)\n", g_get_prgname(), err->message);
    std::exit(2);
  }
  g_option_context_free(ctx);
}

// Exits 2 when more than @max positional arguments are left after parse_options_or_exit().
inline void allow_positional_or_exit(int argc, char** argv, int max) {
  if (argc - 1 > max) {
    std::fprintf(stderr, "%s: unexpected argument '%s' (try --help)\n", g_get_prgname(), argv[1 + max]);
    std::exit(2);
  }
}

// A string option's value (GLib allocates it) as a std::string, or @fallback when not given.
inline std::string take_option_string(gchar* value, const std::string& fallback) {
  if (!value) return fallback;
  std::string s = value;
  g_free(value);
  return s;
}

// --csv PATH and --quick, the options of the smaller benchmarks. @default_csv is the CSV written
// without --csv ("" for none); @parameters names the positional arguments left in argc/argv.
struct CsvQuickOptions {
  std::string csv_path;
  bool quick = false;
};
inline CsvQuickOptions parse_csv_quick_options(int* argc, char*** argv, const char* parameters, const char* summary,
                                               const char* default_csv, const char* quick_help) {
  gchar* csv = nullptr;
  gboolean quick = FALSE;
  const std::string csv_help =
      *default_csv ? std::string("CSV output (default ") + default_csv + ")" : "CSV output (none by default)";
  const GOptionEntry entries[] = {
      {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, csv_help.c_str(), "PATH"},
      {"quick", 0, 0, G_OPTION_ARG_NONE, &quick, quick_help, nullptr},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  parse_options_or_exit(argc, argv, parameters, summary, entries);
  return {take_option_string(csv, default_csv), quick != FALSE};
}
