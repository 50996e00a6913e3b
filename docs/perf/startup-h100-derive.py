import json,statistics as st,sys
rs=[json.loads(l) for l in open(sys.argv[1])]
med=st.median
print("H100 run of scripts/device/startup.sh 8, 2026-11-24 ~19:20 (NVIDIA 580.159.04); raw: startup-h100-2026-11-24.jsonl")
print("CAVEAT: ycbcrplay built from main then, -hwdec defaulting to auto: it decoded in HARDWARE (decoder \"h264 (vulkan)\"),")
print("ffmpeg -threads 8 -f null in software: not like with like. Cut at 480 s during HEVC 1080p's first 'noahead' run.")
print("Derived by: python3 derive.py startup-h100-2026-11-24.jsonl (medians; ms unless s)")
print(f"{'clip':11} {'run':11} {'n':>2} {'wall s':>6} {'ratio':>5} {'play fps':>8} {'before':>6} {'inst':>5} {'dev':>5} {'1st dec':>7} {'wait':>5} {'probe':>5} {'first':>5} {'shut':>5} {'rest':>5} {'cpu/f':>5} {'RSS':>4}")
for clip in dict.fromkeys(r['clip'] for r in rs):
  ff=[r['wall_s'] for r in rs if r['clip']==clip and r['tool']=='ffmpeg' and r['rc']==0]
  print(f"{clip:11} {'ffmpeg':11} {len(ff):2d} {med(ff):6.3f}   (min {min(ff):.3f}, max {max(ff):.3f}; {300/med(ff):.0f} frames/s)")
  for tool,lab,sel in [('cache','warm',lambda r:r['run']>1),('cache','cold',lambda r:r['run']==1),('off','off',lambda r:1),('noahead','noahead',lambda r:1)]:
    x=[r for r in rs if r['tool']==tool and r['clip']==clip and sel(r) and r['rc']==0]
    if not x: continue
    s=[r['stats'] for r in x]; m=lambda f: med(f(q) for q in s)
    w=med(r['wall_s'] for r in x)
    rest=med(r['wall_s']*1000-r['stats']['startup_ms']['before_play']-r['stats']['wall_s']*1000-r['stats']['shutdown_ms'] for r in x)
    sm=lambda k: m(lambda q:q['startup_ms'].get(k,0))
    print(f"{'':11} {lab:11} {len(x):2d} {w:6.3f} {med(ff)/w:5.3f} {m(lambda q:q['frames_presented']/(q['wall_s']-q['first_frame_ms']/1000)):8.0f} {sm('before_play'):6.1f} {sm('instance'):5.1f} {sm('device'):5.1f} {sm('first_decoded'):7.1f} {sm('wait_decoded'):5.1f} {sm('probe'):5.1f} {m(lambda q:q['first_frame_ms']):5.0f} {m(lambda q:q['shutdown_ms']):5.0f} {rest:5.1f} {m(lambda q:q['cpu_ms_per_frame']):5.2f} {m(lambda q:q['peak_rss_mb']):4.0f}")
print("play fps: frames / (Play's wall_s - first_frame): the rate once the first picture is up.")
print("rest: process wall - before_play - Play's wall_s - shutdown_ms (process start and exit, stats printing).")
print("warm = rounds 2-8 of the default cache; cold = round 1 (empty cache); off = -cache off; noahead = -decode-ahead 0.")
