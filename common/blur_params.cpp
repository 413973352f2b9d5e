// SPDX-License-Identifier: LGPL-2.1-or-later
#include "blur_params.h"

namespace cudagaussian {

const char* border_name(Border border) {
  switch (border) {
    case Border::Replicate: return "replicate";
    case Border::Mirror: return "mirror";
    case Border::Reflect: return "reflect";
  }
  return "unknown";
}

const char* edge_filter_name(EdgeFilter filter) {
  switch (filter) {
    case EdgeFilter::Gaussian: return "gaussian";
    case EdgeFilter::Rf: return "rf";
  }
  return "unknown";
}

}  // namespace cudagaussian
