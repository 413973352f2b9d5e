// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU references of the recursive Gaussians (Young–van Vliet 1995 and 2002, Deriche 1993): lines
// and planes.
//   - direct form in double: the recursions as published (Young–van Vliet 3rd order with the
//     Triggs–Sdika right border, Deriche 4th order with its edge terms) — the reference that GPU
//     results of the same algorithm are compared with;
//   - section form (recursive_sections.h) in double or float32: the exact code the GPU runs,
//     sequentially per line, so the CPU can measure its float32 error.
// Accuracy (0..255 units, measured in tests/test_recursive.cpp): the direct form in double is
// ill-conditioned at large sigma — ~1e-11 to sigma 10, 1e-9 at 30, ~1e-6 at 90–200 (3e-5 for
// YvV 1995 at 200), 2e-3 at 1000 — while the double section form stays within 1e-10 of
// long-double truths to sigma 200. To sigma 200 both are far below the float32 error (~1e-4);
// beyond sigma ~30 the double section form is the tighter reference, and at sigma 1000 the
// double direct form is worse than float32 sections.
// Planes: the horizontal pass, then the vertical pass, every channel on its own (like
// reference_fir). sigma == 0 in a direction leaves that direction unfiltered. Other sigmas must
// satisfy recursive_sigma_valid() (std::invalid_argument otherwise).
#pragma once

#include <vector>

#include "plane.h"
#include "recursive_coeffs.h"
#include "reference_blur.h"

namespace cudagaussian {

// Direct form, double, one line of n samples; `out` may alias `in`.
void yvv_filter_line(const YvvCoeffs& c, const double* in, double* out, int n, StartUp start);
// Deriche has one start-up (Simple == Exact, see StartUp); `out` may alias `in`.
void deriche_filter_line(const DericheCoeffs& c, const double* in, double* out, int n);

// Any filter by name, direct form, double.
std::vector<double> recursive_line(RecursiveFilter filter, double sigma, const std::vector<double>& line,
                                   StartUp start);

enum class SectionPrecision : int { Double = 0, Float = 1 };

// Section form: the input is rounded to the precision, filtered in it, and returned in double.
std::vector<double> recursive_line_sections(RecursiveFilter filter, double sigma,
                                            const std::vector<double>& line, StartUp start,
                                            SectionPrecision precision);

// Direct form, double: the reference for a recursive blur of a plane.
PlaneValues reference_recursive(const PlaneGeometry& g, const PlaneValues& in, RecursiveFilter filter,
                                double sigma_x, double sigma_y, StartUp start);

// Section form in double or float32 (float keeps the intermediate plane between the two passes
// in float, as the GPU does).
PlaneValues recursive_sections_plane(const PlaneGeometry& g, const PlaneValues& in,
                                     RecursiveFilter filter, double sigma_x, double sigma_y,
                                     StartUp start, SectionPrecision precision);

}  // namespace cudagaussian
