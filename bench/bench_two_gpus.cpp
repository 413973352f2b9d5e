// SPDX-License-Identifier: LGPL-2.1-or-later
// Two GPUs against one: the same total work (two streams of N frames, 1920x1080 RGBA, sigma 5 by
// default) through `appsrc ! cudagaussian cuda-device-id=G ! fakesink sync=false` pipelines, one
// per stream, all in this process and streaming at the same time:
//   - one GPU:  both streams on GPU 0;
//   - two GPUs: stream k on GPU k;
//   - one stream alone on GPU 0, for reference;
// in system memory (each frame crosses its GPU's PCIe link both ways) and in CUDA memory (frames
// already on the stream's GPU, in a GstCudaContext shared with the element; output in CUDA memory).
// The source alone (appsrc ! fakesink, two streams) is measured too, to show it is not the limit:
// appsrc pushes K = 4 pre-filled frames over and over (new buffers sharing their memory, so system
// memory is page-locked once by the element and then copied by DMA).
//
// fps of a stream = frames after the first kWarmup / time between the arrival at fakesink of frame
// kWarmup and of the last frame. Aggregate fps = those frames of all streams / time from the first
// stream's frame kWarmup to the last stream's last frame. Scaling = aggregate fps of two GPUs /
// aggregate fps of one GPU (2.0 is perfect).
//
// Usage: bench_two_gpus [--frames N] [--sigma S] [--width W] [--height H] [--csv PATH]
// Prints Markdown (docs/bench/two_gpus.md is its output). Without a CUDA device it prints
// "skipped: no CUDA device" and exits 0; with one device the two-GPU rows say they were skipped.
// The element is registered from the statically linked sources; GST_PLUGIN_PATH is not needed.

#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_options.h"
#include "device_memory.h"
#include "gstcudagaussian.h"
#include "pushed_frames.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kTemplates = 4;
constexpr int kWarmup = 50;
constexpr GstClockTime kPtsStep = GST_SECOND / 60;

enum class Memory { Source, System, Cuda };

const char* memory_name(Memory m) {
  return m == Memory::Source ? "source only" : m == Memory::System ? "system" : "CUDA";
}

struct Settings {
  int frames = 3000;
  double sigma = 5.0;
  int width = 1920, height = 1080;
};

// One stream: its pipeline, the frames it pushes and the arrival times that make its fps.
struct Stream {
  int gpu = 0;
  GstElement* pipeline = nullptr;
  GstElement* src = nullptr;
  std::vector<GstBuffer*> templates;
  std::atomic<int> arrived{0};
  Clock::time_point warm, last;
  std::string error;
};

struct Row {
  Row(Memory m, std::string l, std::vector<int> g) : memory(m), layout(std::move(l)), gpus(std::move(g)) {}
  Memory memory;
  std::string layout;
  std::vector<int> gpus;  // the GPU of each stream
  std::vector<double> stream_fps;
  double aggregate_fps = 0.0;
  std::string status = "ok";
};

GstBuffer* new_frame(Memory memory, GstCudaContext* ctx, const GstVideoInfo& info, unsigned seed) {
  GstBuffer* buf = nullptr;
  if (memory == Memory::Cuda) {
    GstAllocator* allocator = gst_allocator_find(GST_CUDA_MEMORY_TYPE_NAME);
    GstMemory* mem = allocator ? gst_cuda_allocator_alloc(GST_CUDA_ALLOCATOR(allocator), ctx, &info) : nullptr;
    if (allocator) gst_object_unref(allocator);
    if (!mem) return nullptr;
    const GstVideoInfo& layout = GST_CUDA_MEMORY_CAST(mem)->info;
    buf = gst_buffer_new();
    gst_buffer_append_memory(buf, mem);
    gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                   GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                                   GST_VIDEO_INFO_N_PLANES(&info), (gsize*)layout.offset, (gint*)layout.stride);
  } else {
    buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  }
  GstMapInfo map;
  if (!gst_buffer_map(buf, &map, GST_MAP_WRITE)) {
    gst_buffer_unref(buf);
    return nullptr;
  }
  std::mt19937 rng(seed);
  for (gsize i = 0; i + 4 <= map.size; i += 4) {
    const guint32 v = rng() | 0x01010101u;  // never zero
    std::memcpy(map.data + i, &v, 4);
  }
  gst_buffer_unmap(buf, &map);
  return buf;
}

GstPadProbeReturn count_arrival(GstPad*, GstPadProbeInfo*, gpointer data) {
  Stream* s = static_cast<Stream*>(data);
  const int n = ++s->arrived;
  const Clock::time_point now = Clock::now();
  if (n == kWarmup) s->warm = now;
  s->last = now;
  return GST_PAD_PROBE_OK;
}

std::string caps_of(const Settings& set, Memory memory) {
  return std::string("video/x-raw") + (memory == Memory::Cuda ? "(memory:CUDAMemory)" : "") +
         ",format=RGBA,width=" + std::to_string(set.width) + ",height=" + std::to_string(set.height) +
         ",framerate=60/1";
}

// Builds stream @s's pipeline on GPU s->gpu; false with s->error set on failure.
bool build_stream(Stream* s, const Settings& set, Memory memory, GstCudaContext* ctx) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, set.width, set.height);
  const std::string blur = memory == Memory::Source
                               ? ""
                               : "cudagaussian cuda-device-id=" + std::to_string(s->gpu) +
                                     " sigma=" + std::to_string(set.sigma) + " ! ";
  const std::string line = "appsrc name=src format=time is-live=false block=true max-bytes=" +
                           std::to_string(2 * GST_VIDEO_INFO_SIZE(&info)) + " caps=\"" +
                           caps_of(set, memory) + "\" ! " + blur + "fakesink name=sink sync=false";
  GError* err = nullptr;
  s->pipeline = gst_parse_launch(line.c_str(), &err);
  if (!s->pipeline) {
    s->error = err ? err->message : "could not build the pipeline";
    g_clear_error(&err);
    return false;
  }
  GstContext* c = gst_context_new_cuda_context(ctx);
  gst_element_set_context(s->pipeline, c);
  gst_context_unref(c);
  s->src = gst_bin_get_by_name(GST_BIN(s->pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(s->pipeline), "sink");
  GstPad* pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, count_arrival, s, nullptr);
  gst_object_unref(pad);
  gst_object_unref(sink);
  for (int k = 0; k < kTemplates; ++k) {
    GstBuffer* b = new_frame(memory == Memory::Cuda ? Memory::Cuda : Memory::System, ctx, info,
                             1000u * (unsigned)s->gpu + (unsigned)k);
    if (!b) {
      s->error = "could not allocate the source frames";
      return false;
    }
    s->templates.push_back(b);
  }
  return true;
}

void free_stream(Stream* s) {
  if (s->pipeline) gst_element_set_state(s->pipeline, GST_STATE_NULL);
  for (GstBuffer* b : s->templates) gst_buffer_unref(b);
  if (s->src) gst_object_unref(s->src);
  if (s->pipeline) gst_object_unref(s->pipeline);
}

// Waits for EOS (or an error) of @s; false with s->error set on error or timeout.
bool wait_eos(Stream* s, GstClockTime timeout) {
  GstBus* bus = gst_element_get_bus(s->pipeline);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, timeout, (GstMessageType)(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  gst_object_unref(bus);
  bool ok = m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS;
  if (!m) {
    s->error = "timed out";
  } else if (!ok) {
    GError* err = nullptr;
    gst_message_parse_error(m, &err, nullptr);
    s->error = err ? err->message : "error";
    g_clear_error(&err);
  }
  if (m) gst_message_unref(m);
  return ok;
}

// Runs one stream per entry of @gpus at once; fills @row.
void run_row(Row* row, const Settings& set, const std::vector<GstCudaContext*>& contexts) {
  std::vector<Stream> streams(row->gpus.size());
  bool ok = true;
  for (size_t i = 0; i < streams.size() && ok; ++i) {
    streams[i].gpu = row->gpus[i];
    ok = build_stream(&streams[i], set, row->memory, contexts[row->gpus[i]]);
    if (ok && gst_element_set_state(streams[i].pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
      streams[i].error = "could not start";
      ok = false;
    }
  }
  if (ok) {
    std::vector<std::thread> feeders;
    for (Stream& s : streams)
      feeders.emplace_back([&s, &set] {
        for (int i = 0; i < set.frames; ++i)
          if (gst_app_src_push_buffer(GST_APP_SRC(s.src),
                                      wrap_for_push(s.templates[i % kTemplates], (guint64)i, kPtsStep)) !=
              GST_FLOW_OK)
            break;
        gst_app_src_end_of_stream(GST_APP_SRC(s.src));
      });
    for (Stream& s : streams) ok = wait_eos(&s, 300 * GST_SECOND) && ok;
    for (Stream& s : streams)
      if (!ok) gst_element_set_state(s.pipeline, GST_STATE_NULL);  // unblocks a waiting feeder
    for (std::thread& t : feeders) t.join();
  }
  Clock::time_point first_warm = Clock::time_point::max(), last = Clock::time_point::min();
  double steady = 0.0;
  for (Stream& s : streams) {
    if (ok && s.arrived.load() != set.frames) {
      s.error = std::to_string(s.arrived.load()) + " of " + std::to_string(set.frames) + " frames arrived";
      ok = false;
    }
    if (!s.error.empty() && row->status == "ok") row->status = "failed: GPU " + std::to_string(s.gpu) + ": " + s.error;
    if (!ok) continue;
    const double seconds = std::chrono::duration<double>(s.last - s.warm).count();
    row->stream_fps.push_back((set.frames - kWarmup) / seconds);
    first_warm = std::min(first_warm, s.warm);
    last = std::max(last, s.last);
    steady += set.frames - kWarmup;
  }
  if (ok) row->aggregate_fps = steady / std::chrono::duration<double>(last - first_warm).count();
  for (Stream& s : streams) free_stream(&s);
}

std::string fps_list(const Row& r) {
  std::string out;
  char text[32];
  for (double f : r.stream_fps) {
    std::snprintf(text, sizeof text, "%s%.0f", out.empty() ? "" : " + ", f);
    out += text;
  }
  return out;
}

std::string gpu_list(const Row& r) {
  std::string out;
  for (int g : r.gpus) out += (out.empty() ? "" : ", ") + std::to_string(g);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Settings set;
  gchar* csv_option = nullptr;
  const GOptionEntry entries[] = {
      {"frames", 0, 0, G_OPTION_ARG_INT, &set.frames, "Frames per stream (default 3000)", "N"},
      {"sigma", 0, 0, G_OPTION_ARG_DOUBLE, &set.sigma, "Blur sigma (default 5)", "S"},
      {"width", 0, 0, G_OPTION_ARG_INT, &set.width, "Frame width (default 1920)", "W"},
      {"height", 0, 0, G_OPTION_ARG_INT, &set.height, "Frame height (default 1080)", "H"},
      {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_option, "CSV output (default: none)", "PATH"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  parse_options_or_exit(&argc, &argv, "",
                        "Aggregate fps of two cudagaussian streams on one GPU against one stream per GPU,\n"
                        "in system and CUDA memory, and the scaling ratio. Prints Markdown; without a CUDA\n"
                        "device a skip line (exit 0).",
                        entries, gst_init_get_option_group());
  allow_positional_or_exit(argc, argv, 0);
  const std::string csv_path = take_option_string(csv_option, "");
  if (set.frames <= 2 * kWarmup || set.width < 1 || set.height < 1 || set.sigma <= 0.0) {
    std::fprintf(stderr, "bench_two_gpus: need --frames > %d, a positive size and sigma\n", 2 * kWarmup);
    return 2;
  }

  gst_init(&argc, &argv);
  const int devices = gst_cuda_load_library() ? cudagaussian::cuda_device_count() : 0;
  if (devices == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  gst_cuda_memory_init_once();
  if (!GST_ELEMENT_REGISTER(cudagaussian, nullptr)) {
    std::fprintf(stderr, "could not register cudagaussian\n");
    return 1;
  }
  std::vector<GstCudaContext*> contexts;
  std::vector<std::string> names;
  for (int d = 0; d < std::min(devices, 2); ++d) {
    contexts.push_back(gst_cuda_context_new((guint)d));
    cudaDeviceProp prop{};
    names.push_back(cudaGetDeviceProperties(&prop, d) == cudaSuccess ? prop.name : "?");
    if (!contexts.back()) {
      std::fprintf(stderr, "gst_cuda_context_new(%d) failed\n", d);
      return 1;
    }
  }

  // The source alone runs two streams without GPU work.
  std::vector<Row> rows = {Row(Memory::Source, "source alone", {0, 0})};
  for (Memory m : {Memory::System, Memory::Cuda}) {
    rows.emplace_back(m, "one stream", std::vector<int>{0});
    rows.emplace_back(m, "one GPU", std::vector<int>{0, 0});
    rows.emplace_back(m, "two GPUs", std::vector<int>{0, 1});
  }
  for (Row& r : rows) {
    if (std::find(r.gpus.begin(), r.gpus.end(), 1) != r.gpus.end() && devices < 2) {
      r.status = "skipped: needs two CUDA devices";
      continue;
    }
    std::fprintf(stderr, "%s, %s (GPUs %s)...\n", memory_name(r.memory), r.layout.c_str(), gpu_list(r).c_str());
    run_row(&r, set, contexts);
  }

  std::printf("# Two GPUs against one\n\n");
  std::printf("GPU 0: %s", names[0].c_str());
  if (names.size() > 1) std::printf("; GPU 1: %s", names[1].c_str());
  std::printf(" (%d CUDA device(s)); %s. %d frames of %dx%d RGBA per stream, sigma %g, "
              "frames-in-flight auto; fps after %d warm-up frames.\n\n",
              devices, gst_version_string(), set.frames, set.width, set.height, set.sigma, kWarmup);
  std::printf("| memory | layout | streams on GPUs | fps per stream | aggregate fps | status |\n");
  std::printf("|---|---|---|---:|---:|---|\n");
  for (const Row& r : rows)
    std::printf("| %s | %s | %s | %s | %s | %s |\n", memory_name(r.memory), r.layout.c_str(),
                r.memory == Memory::Source ? "(none)" : gpu_list(r).c_str(), fps_list(r).c_str(),
                r.aggregate_fps > 0 ? std::to_string((int)(r.aggregate_fps + 0.5)).c_str() : "",
                r.status.c_str());
  std::printf("\nScaling, aggregate fps of two GPUs / one GPU (same two streams):\n\n");
  std::printf("| memory | one GPU fps | two GPUs fps | scaling |\n|---|---:|---:|---:|\n");
  for (Memory m : {Memory::System, Memory::Cuda}) {
    double one = 0.0, two = 0.0;
    for (const Row& r : rows)
      if (r.memory == m && r.layout == "one GPU") one = r.aggregate_fps;
      else if (r.memory == m && r.layout == "two GPUs") two = r.aggregate_fps;
    if (one > 0 && two > 0)
      std::printf("| %s | %.0f | %.0f | %.2fx |\n", memory_name(m), one, two, two / one);
    else
      std::printf("| %s | %s | %s | not measured |\n", memory_name(m), one > 0 ? std::to_string((int)one).c_str() : "",
                  two > 0 ? std::to_string((int)two).c_str() : "");
  }

  if (!csv_path.empty()) {
    FILE* f = std::fopen(csv_path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "could not write %s\n", csv_path.c_str());
      return 1;
    }
    std::fprintf(f, "memory,layout,gpus,frames,width,height,sigma,stream_fps,aggregate_fps,status\n");
    for (const Row& r : rows)
      std::fprintf(f, "%s,%s,\"%s\",%d,%d,%d,%g,\"%s\",%.1f,\"%s\"\n", memory_name(r.memory), r.layout.c_str(),
                   gpu_list(r).c_str(), set.frames, set.width, set.height, set.sigma, fps_list(r).c_str(),
                   r.aggregate_fps, r.status.c_str());
    std::fclose(f);
  }
  for (GstCudaContext* c : contexts) gst_object_unref(c);
  bool failed = false;
  for (const Row& r : rows) failed |= r.status.rfind("failed", 0) == 0;
  return failed ? 1 : 0;
}
