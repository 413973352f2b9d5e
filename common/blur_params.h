// Plain parameter types shared by the CPU references, the CUDA kernels and the element.
#pragma once

namespace cudagaussian {

// How samples outside the image are invented. Names follow scipy.ndimage:
//   replicate  aaaa|abcd|dddd   (clamp to edge; the reference rule of REFERENCE.md)
//   mirror     dcb|abcd|cba     (reflect about the edge sample, which is not repeated)
//   reflect    cba|abcd|dcb     (reflect about the edge, which is repeated)
enum class Border : int { Replicate = 0, Mirror = 1, Reflect = 2 };

// The recursive ones: Young–van Vliet 3rd order (2002 or 1995 coefficients), Deriche 4th order;
// Box: iterated box passes; Direct: 2D convolution with the outer product of the FIR taps.
enum class Algorithm : int {
  Auto = 0, Fir = 1, YoungVanVliet = 2, YoungVanVliet1995 = 3, Deriche = 4, Box = 5, Direct = 6
};

const char* border_name(Border border);
const char* algorithm_name(Algorithm algorithm);

}  // namespace cudagaussian
