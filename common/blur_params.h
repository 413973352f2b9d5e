// SPDX-License-Identifier: LGPL-2.1-or-later
// Plain parameter types shared by the CPU references, the CUDA kernels and the element.
#pragma once

namespace cudagaussian {

// How samples outside the image are invented. Names follow scipy.ndimage:
//   replicate  aaaa|abcd|dddd   (clamp to edge; the default; the recursive filters allow no other)
//   mirror     dcb|abcd|cba     (reflect about the edge sample, which is not repeated)
//   reflect    cba|abcd|dcb     (reflect about the edge, which is repeated)
enum class Border : int { Replicate = 0, Mirror = 1, Reflect = 2 };

// The recursive ones: Young–van Vliet 3rd order (2002 or 1995 coefficients), Deriche 4th order;
// Box: iterated box passes; Direct: 2D convolution with the outer product of the FIR taps;
// EdgeAware: recursive filtering in the domain-transformed space (keeps edges); Multirate: the
// exact Gaussian through a coarser grid (multirate_axis.h), cost independent of sigma.
enum class Algorithm : int {
  Auto = 0, Fir = 1, YoungVanVliet = 2, YoungVanVliet1995 = 3, Deriche = 4, Box = 5, Direct = 6,
  EdgeAware = 7, Multirate = 8
};

// The recursive filter of algorithm=edge-aware (docs/algorithms.md, "Edge-aware blur"): the
// Gaussian in the transformed domain (Gastal & Oliveira 2015, the default) or the first-order
// filter of the Domain Transform (Gastal & Oliveira 2011, "RF": cheaper, an exponential rather
// than a Gaussian response).
enum class EdgeFilter : int { Gaussian = 0, Rf = 1 };

// How algorithm=box computes its passes: running window sums in float (BoxBlur) or exact
// integer sums from summed-area tables (IntegralBoxBlur).
enum class BoxMethod : int { RunningSum = 0, Integral = 1 };

const char* border_name(Border border);
const char* edge_filter_name(EdgeFilter filter);

}  // namespace cudagaussian
