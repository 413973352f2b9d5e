#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shows a camera (or a test pattern) blurred by cudagaussian and changes the blur live from
the application: every second the blur toggles off and on (sigma 0 <-> SIGMA), and every third
second it ramps from 0 up to SIGMA in small steps instead.

  GST_PLUGIN_PATH=build/gst examples/blur_live.py                    # camera, else test pattern
  GST_PLUGIN_PATH=build/gst examples/blur_live.py --test-pattern --frames 300 --sink fakesink

Prints each change as it is made and, at the end, the frames shown and changes made. Exit code 0
after --frames frames or when the window is closed, 1 on a pipeline error, 77 when there is no
CUDA device. Needs PyGObject (Debian: python3-gi, gir1.2-gstreamer-1.0).
"""
import argparse
import os
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

RAMP_STEPS = 10  # sigma values per ramp, spread over one second


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--test-pattern", action="store_true",
                    help="videotestsrc instead of the camera (the default when there is no camera)")
    ap.add_argument("--device", default="/dev/video0", help="V4L2 camera (default /dev/video0)")
    ap.add_argument("--sigma", type=float, default=8.0, help="blur strength when on (default 8)")
    ap.add_argument("--frames", type=int, default=0, help="stop after N frames (default: run until closed)")
    ap.add_argument("--sink", default="autovideosink", help="video sink, e.g. fakesink to run headless")
    return ap.parse_args()


class BlurLive:
    def __init__(self, args):
        self.args = args
        self.frames = 0
        self.changes = 0
        self.tick = 0
        self.rc = 0
        self.start = time.monotonic()
        use_camera = not args.test_pattern and os.path.exists(args.device)
        if use_camera:
            source = f"v4l2src device={args.device}"
        else:
            source = "videotestsrc is-live=true pattern=ball ! video/x-raw,width=1280,height=720,framerate=30/1"
        # videoconvert on both sides: cameras and sinks offer formats cudagaussian may not.
        self.pipeline = Gst.parse_launch(
            f"{source} ! videoconvert ! cudagaussian name=blur sigma=0 ! videoconvert ! "
            f"{args.sink} name=sink")
        self.blur = self.pipeline.get_by_name("blur")
        print(f"blur_live: source {'camera ' + args.device if use_camera else 'test pattern'}, "
              f"sink {args.sink}, sigma 0 <-> {args.sigma:g}"
              + (f", {args.frames} frames" if args.frames else ""))
        sinkpad = self.pipeline.get_by_name("sink").get_static_pad("sink")
        sinkpad.add_probe(Gst.PadProbeType.BUFFER, self.on_frame)
        self.loop = GLib.MainLoop()
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)

    def set_sigma(self, sigma, why):
        self.blur.set_property("sigma", sigma)
        self.changes += 1
        print(f"  t={time.monotonic() - self.start:5.1f} s  frame {self.frames:5d}: "
              f"sigma {self.blur.get_property('sigma'):5.2f}  ({why})")

    def on_second(self):
        """Every second: toggle on or off; every third second start a ramp instead."""
        self.tick += 1
        if self.tick % 3 == 0:
            steps = iter(range(1, RAMP_STEPS + 1))

            def ramp():
                step = next(steps, None)
                if step is None:
                    return False
                self.set_sigma(self.args.sigma * step / RAMP_STEPS, f"ramp {step}/{RAMP_STEPS}")
                return True

            self.set_sigma(0.0, "ramp start")
            GLib.timeout_add(1000 // (RAMP_STEPS + 1), ramp)
        else:
            on = self.blur.get_property("sigma") == 0
            self.set_sigma(self.args.sigma if on else 0.0, "on" if on else "off")
        return True

    def on_frame(self, pad, info):
        self.frames += 1
        if self.args.frames and self.frames == self.args.frames:
            # Not from the streaming thread: post EOS from the main loop.
            GLib.idle_add(lambda: self.pipeline.send_event(Gst.Event.new_eos()) and False)
        return Gst.PadProbeReturn.OK

    def on_message(self, bus, msg):
        if msg.type == Gst.MessageType.EOS:
            self.loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print(f"blur_live: error from {msg.src.get_name()}: {err.message}", file=sys.stderr)
            if debug:
                print(f"  {debug}", file=sys.stderr)
            self.rc = 77 if "No CUDA device" in err.message else 1
            self.loop.quit()

    def run(self):
        if self.pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            # The element's error is on the bus already: report it without starting the loop.
            msg = self.pipeline.get_bus().timed_pop_filtered(0, Gst.MessageType.ERROR)
            if msg:
                self.on_message(None, msg)
            else:
                print("blur_live: the pipeline could not start", file=sys.stderr)
                self.rc = 1
        else:
            GLib.timeout_add_seconds(1, self.on_second)
            try:
                self.loop.run()
            except KeyboardInterrupt:
                pass
        self.pipeline.set_state(Gst.State.NULL)
        verdict = {0: "ok", 77: "skipped (no CUDA device)"}.get(self.rc, "FAILED")
        print(f"blur_live: {self.frames} frames shown, {self.changes} sigma changes, "
              f"{time.monotonic() - self.start:.1f} s: {verdict}")
        return self.rc


def main():
    args = parse_args()
    Gst.init(None)
    if Gst.ElementFactory.find("cudagaussian") is None:
        print("blur_live: GStreamer has no cudagaussian element: set GST_PLUGIN_PATH to the build's "
              "gst/ directory", file=sys.stderr)
        return 1
    return BlurLive(args).run()


if __name__ == "__main__":
    sys.exit(main())
