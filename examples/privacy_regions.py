#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Blurs regions that the application itself chooses: each frame gets a region-of-interest meta
(here a box gliding across the picture, where a real app would put its detector's results), and
cudagaussian regions=inside blurs only there.

  GST_PLUGIN_PATH=build/gst examples/privacy_regions.py                       # test pattern
  GST_PLUGIN_PATH=build/gst examples/privacy_regions.py --input tests/data/megamind-4s.mp4
  GST_PLUGIN_PATH=build/gst examples/privacy_regions.py --frames 100 --sink fakesink

The frames come out of one pipeline (appsink), get their metas, and go into a second one
(appsrc ! cudagaussian ! sink). Exit code 0 at the end of the input or after --frames, 1 on a
pipeline error. Needs PyGObject (Debian: python3-gi, gir1.2-gst-plugins-base-1.0).
"""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", help="a video file (default: a test pattern)")
    ap.add_argument("--frames", type=int, default=300, help="stop after N frames (default 300)")
    ap.add_argument("--sink", default="autovideosink", help="video sink, e.g. fakesink to run headless")
    return ap.parse_args()


def region_for(frame, width, height):
    """The app's region for a frame: a box a quarter of the picture wide, moving left to right."""
    w, h = width // 4, height // 3
    x = (frame * 4) % max(1, width - w)
    return x, (height - h) // 2, w, h


def main():
    args = parse_args()
    Gst.init(None)
    if args.input:
        source = f'filesrc location="{args.input}" ! decodebin'
    else:
        source = "videotestsrc pattern=smpte ! video/x-raw,width=1280,height=720,framerate=30/1"
    frames_in = Gst.parse_launch(
        f"{source} ! videoconvert ! video/x-raw,format=RGBA ! appsink name=frames sync=false max-buffers=4")
    frames_out = Gst.parse_launch(
        "appsrc name=src format=time ! cudagaussian regions=inside sigma=12 roi-shape=ellipse "
        f"roi-feather=8 ! videoconvert ! {args.sink}")
    appsink = frames_in.get_by_name("frames")
    appsrc = frames_out.get_by_name("src")
    frames_in.set_state(Gst.State.PLAYING)
    frames_out.set_state(Gst.State.PLAYING)

    count, rc = 0, 0
    while count < args.frames:
        sample = appsink.emit("pull-sample")
        if sample is None:  # end of the input
            break
        if count == 0:
            appsrc.set_property("caps", sample.get_caps())
        info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
        # Metas go on a buffer the app owns: a new one with the frame's bytes and timing (a
        # buffer from the first pipeline is shared with it, so it does not take metas).
        frame = sample.get_buffer()
        ok, mapped = frame.map(Gst.MapFlags.READ)
        if not ok:
            rc = 1
            break
        buf = Gst.Buffer.new_wrapped(bytes(mapped.data))
        frame.unmap(mapped)
        buf.pts, buf.duration = frame.pts, frame.duration
        x, y, w, h = region_for(count, info.width, info.height)
        GstVideo.buffer_add_video_region_of_interest_meta(buf, "face", x, y, w, h)
        if appsrc.emit("push-buffer", buf) != Gst.FlowReturn.OK:
            rc = 1
            break
        count += 1
    appsrc.emit("end-of-stream")
    msg = frames_out.get_bus().timed_pop_filtered(
        30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if msg is None or msg.type == Gst.MessageType.ERROR:
        err = msg.parse_error()[0].message if msg else "no end of stream within 30 s"
        print(f"privacy_regions: {err}", file=sys.stderr)
        rc = 1
    frames_in.set_state(Gst.State.NULL)
    frames_out.set_state(Gst.State.NULL)
    print(f"privacy_regions: {count} frames with a region each")
    return rc


if __name__ == "__main__":
    sys.exit(main())
