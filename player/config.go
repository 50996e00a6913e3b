package player

import (
	"io"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/player/ipc"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/subtitle"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Config is how to play, one group per concern; the zero value of each group plays as the
// programs do by default (ycbcrplay's flags, grouped alike in its flags.go).
type Config struct {
	GPU       GPUConfig
	Output    OutputConfig
	Playback  PlaybackConfig
	Convert   ConvertConfig
	Colour    ColourConfig
	Quality   QualityConfig
	View      ViewConfig
	Sound     SoundConfig
	Subtitles SubtitlesConfig
	IPC       IPCConfig
	Hooks     Hooks
}

// GPUConfig is the Vulkan device and what is kept of it.
type GPUConfig struct {
	Device   int  // gpu.Options.Index: -1 picks the first suitable device
	Validate bool // the Khronos validation layer on; any message fails playback
	// Video opens the device with what Vulkan Video decoding needs (gpu.Options.Video) and, for a
	// DeviceSource, before decoding starts, handing the device to the source.
	Video bool
	// Frames opens the device with what FFmpeg's Vulkan frames need (gpu.Options.Frames: timeline
	// semaphores, synchronization2) and, as Video does, hands it to a DeviceSource before decoding
	// starts: for a source that uploads its software pictures into Vulkan frames (decode.Uploader),
	// so that they take the routes of hardware-decoded pictures (ConvertConfig.HWRoute) on devices
	// without Vulkan Video. The program says it, not the source: PlayOpening's window opens the
	// device before the source exists.
	Frames bool
	// CacheDir is where the device's pipeline cache is kept between runs (gpu.Options.CacheDir; the
	// programs pass gpu.DefaultCacheDir()); "" keeps nothing.
	CacheDir string
	// Exiting says the process exits when Play returns: without Validate, the source, the device
	// and the instance are then left to the operating system after the GPU is idle and the pipeline
	// cache written (gpu.Device.Leave). Not for a program that goes on using the source, or plays on.
	Exiting bool
}

// OutputConfig is where pictures go: a window or an offscreen target, and the pictures written.
type OutputConfig struct {
	Headless   bool // an offscreen target, no window
	Fullscreen bool // the window starts on the full screen
	// Width and Height, when set, are the window's or offscreen target's size (-geometry).
	Width, Height int
	Screenshot    string // the last presented frame at exit (PNG or JPEG by the extension)
	Title         string // the window's title (mpv's --title; empty: the input's name and the program's)
	ShotDir       string // where the s key writes screenshots (empty: the current folder)
	// ScreenshotWindow makes Screenshot the headless window as drawn (the picture scaled and
	// letterboxed into Width×Height) instead of the video at its size (-screenshot-window).
	ScreenshotWindow bool
}

// PlaybackConfig is what plays and how fast.
type PlaybackConfig struct {
	Frames int // stop after this many presented frames; 0 = play to the end
	// Loop is how many times the input plays: 0 and 1 once, N > 1 N times (a seek to the start at
	// each end), negative forever.
	Loop    int
	Untimed bool    // present each frame as soon as it is ready
	Start   float64 // where playback begins (seconds; 0: the start)
	// Pause starts paused on the first picture (mpv's --pause).
	Pause bool
	// KeepOpen is mpv's --keep-open: "yes" keeps the last file's last picture on screen, paused,
	// at its end instead of ending (eof-reached true; a seek plays on), "always" every file's;
	// "" or "no" ends. The program says which file is the last (LastInput).
	KeepOpen  string
	LastInput bool
	// ABLoopA and ABLoopB are the A-B loop's points in seconds (-ab-loop-a, -ab-loop-b; nil: unset):
	// once both are set, playback that reaches B goes back to A.
	ABLoopA, ABLoopB *float64
	// Speed is the playback speed (0 or 1: as timed). With sound, a speed other than 1 pauses the
	// sound and times pictures by the wall clock.
	Speed float64
	// DecodeAhead is how many bytes of decoded frames may wait for the GPU side before the first
	// picture is shown: the decoder keeps decoding while the device, the output and the conversion
	// are made, instead of stopping a few frames in. 0 means what the pipeline needs (the steady
	// queue and a frame per decoder thread, SourceInfo.Threads), at most DefaultDecodeAhead bytes;
	// negative, only the few frames of steady playback. Hardware decoding (GPU.Video) and uploads into Vulkan frames
	// (GPU.Frames) never run ahead (their frames come from a pool of fixed size), nor does decoding for a device that renders on the CPU.
	DecodeAhead int
	// Timeout ends playback with an error once no new picture has come for this long, the first
	// one included, whatever the source's progress (a network source trickling a few bytes a
	// second); pauses and seeks restart the wait. 0: none (the stall watch alone).
	Timeout time.Duration
	// VideoSync is how pictures are timed: by the master clock (SyncAudio, the zero value), or by
	// the display's refreshes (SyncDisplayResample: a whole number of refreshes per frame, the
	// sound resampled to follow; displaysync.go). DisplayFPS is the display's refresh rate for it
	// (0: the window's monitor's; headless, 60 Hz with a notice). TScale blends the frames around
	// each refresh (TScaleOff: none); any other implies SyncDisplayResample.
	VideoSync  VideoSync
	DisplayFPS float64
	TScale     TScale
}

// ConvertConfig is how pictures reach the GPU and are converted.
type ConvertConfig struct {
	Path    formats.Choice
	Compare Compare
	Upload  planes.Upload
	// HWRoute is how hardware-decoded frames reach the conversion (stream.RouteAuto by default).
	HWRoute stream.Route
	// Variant is how the conversion runs, drawn or compute; the zero value measures both on the
	// device and takes the faster (stream.VariantAuto).
	Variant stream.Variant
}

// ColourConfig overrides the stream's colour metadata and says how HDR reaches the display.
type ColourConfig struct {
	// Overrides of the stream's metadata (nil: keep the stream's).
	Matrix         *formats.Matrix
	Range          *formats.Range
	ChromaLocation *formats.ChromaLocation
	// Tone is how PQ and HLG streams reach the SDR target (-tonemap; the zero value is BT.2390);
	// HDRPeak is the peak it assumes (-hdr-peak; the zero value: the metadata's).
	Tone    ycbcr.ToneCurve
	HDRPeak HDRPeak
	// HDROutput asks for an HDR10 swapchain (present.HDR10Formats): PQ and HLG keep their display
	// light, PQ-encoded in BT.2020, instead of being tone-mapped (-hdr-output). Playback fails with
	// the reason where the device, instance or surface offers none, and without a window.
	HDROutput bool
	// ICCProfile, when set, is the display's ICC profile (an ICC file's bytes: -icc-profile): the
	// output is transformed from the sRGB display it is made for into the profile's device values
	// by LittleCMS, as a 3D LUT in the frame's last pass (icc.go). Playback fails with the reason
	// where liblcms2 is missing or the profile is not an RGB one.
	ICCProfile []byte
	// ICCFromDisplay, without ICCProfile and HDROutput, applies the profile the window system holds
	// for the display (X11's _ICC_PROFILE on the default screen's root window), with a notice.
	ICCFromDisplay bool
}

// QualityConfig is how the picture is rounded and cleaned up.
type QualityConfig struct {
	// Dither is how the shown picture is rounded to the target's depth (-dither; the zero value is
	// off). Screenshots of the picture are not dithered unless ScreenshotDither (-screenshot-dither).
	Dither           Dither
	ScreenshotDither bool
	// Deband debands 8-bit sources (-deband; Iterations 0, the zero value: off).
	Deband ycbcr.DebandParams
}

// debands says whether pictures of pf are debanded (the stream's rule: 8-bit sources).
func (q QualityConfig) debands(pf *formats.PixelFormat) bool {
	return q.Deband.Iterations > 0 && pf.Depth == 8
}

// ViewConfig is how the picture is placed in the output.
type ViewConfig struct {
	Filter ycbcr.Filter // the scale pass's filter (-scale)
	// ScaleDraw draws the scale pass's last step (-scale-draw) even where the target allows compute
	// to write it (a storage image): to compare the two.
	ScaleDraw bool
	Zoom      float64 // -zoom (0: fit)
	// Rotate is -rotate in clockwise quarter turns, or nil for the stream's display matrix (auto).
	Rotate *int
}

// SoundConfig is the sound the pictures follow.
type SoundConfig struct {
	// Clock, when set and not Playback.Untimed, is the master clock (the audio being played): each
	// frame is shown when the clock reaches its PTS and dropped when the clock is already a frame
	// past it; pause, step, seek and loop drive it too. Nil: the wall clock.
	Clock Clock
	Info  AudioInfo // the sound, for -stats
}

// SubtitlesConfig is the subtitles drawn over the picture.
type SubtitlesConfig struct {
	// Source, when set, is the input's subtitle tracks: the selected one is drawn over the picture
	// and into screenshots; j, J and v cycle and toggle it. Its owner closes it.
	Source *subtitle.Subtitles
}

// IPCConfig is mpv's JSON IPC (-input-ipc-server).
type IPCConfig struct {
	// Server, when set, is the IPC server: its requests are answered between frames (ipcserve.go)
	// and its events sent; Playlist is the program's list of inputs for it.
	Server   *ipc.Server
	Playlist Playlist
	// Thumbnail, when set, makes the picture at seconds of the input at path (the playlist's Path),
	// width pixels wide (0: the video's), into file ("": one it picks), and returns the file: the
	// IPC's ycbcrplay-thumbnail command, run on a goroutine of its own while playback goes on.
	Thumbnail func(path string, seconds float64, width int, file string) (string, error)
	// Session, when set, holds mpv's properties that outlive one input (pause, volume, mute): the
	// player starts from it and leaves its own there at the end.
	Session *Session
}

// Session is what the IPC's clients set that outlives one input, as mpv's global properties do.
type Session struct {
	Pause  bool
	Volume float64 // percent, 0 to 100
	Mute   bool
}

// Hooks is what a program connects to the player: where notices go, what ends or drives
// playback, and callbacks on the main thread.
type Hooks struct {
	Log io.Writer // notices, one line each (nil: none)
	// Stop, when closed, ends playback as the q key does (the programs close it on SIGINT and
	// SIGTERM): the figures are made and the screenshot written.
	Stop <-chan struct{}
	// Keys, if set, are read with the window's keys, as if pressed on it, and also without a window
	// (headless): scripted seeks, steps and screenshots (ycbcrplay's tests; keys that need a window,
	// f, do nothing there).
	Keys <-chan window.Key
	// Commands, if set, are run as the keys' are, in a window and headless: a program driving the
	// player (Command).
	Commands <-chan Command
	// OnFrame, if set, is called on the main thread after each presented frame (tests resize from it).
	OnFrame func(p *Player, n int)
	// OnRefresh, if set, is called on the main thread after each display refresh of display-synced
	// playback (Config.Playback.VideoSync), with what it showed; headless, the presented picture
	// read back too (tests measure motion from it).
	OnRefresh func(p *Player, r Refresh)
	// OnOpening, if set, is called on the main thread about every 20 ms while PlayOpening's window
	// waits for the input to open, with the time since the window showed (tests press keys from it).
	OnOpening func(p *Player, waited time.Duration)
}
