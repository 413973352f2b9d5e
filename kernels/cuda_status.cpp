#include "cuda_status.h"

#include <cstring>

namespace cudagaussian {

Status cuda_failure(cudaError_t code, const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  Status s;
  s.cuda = code;
  s.message = std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ") from " +
              call + " at " + (base ? base + 1 : file) + ":" + std::to_string(line);
  return s;
}

}  // namespace cudagaussian
