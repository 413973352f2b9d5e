set -u
export GST_PLUGIN_PATH_1_0=$PWD/build-gpu/gst
meson test -C build-gpu --print-errorlogs --suite element 2>&1 | grep -E "^[0-9]+/|Checks|F:|note|E:"
for d in 1 2 3 4; do
 for sz in "1920 1080" "3840 2160"; do set -- $sz
  s=$(date +%s%N)
  gst-launch-1.0 -q videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=$1,height=$2 ! imagefreeze num-buffers=1000 ! cudagaussian sigma=2 frames-in-flight=$d ! fakesink sync=false
  e=$(date +%s%N); echo "depth $d ${1}x$2 sysmem: $(( 1000 * 1000000000 / (e - s) )) fps"
 done
done
s=$(date +%s%N)
gst-launch-1.0 -q videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=1920,height=1080 ! imagefreeze num-buffers=1000 ! cudagaussian sigma=0 ! fakesink sync=false
e=$(date +%s%N); echo "passthrough 1080p: $(( 1000 * 1000000000 / (e - s) )) fps"
