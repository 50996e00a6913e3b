package videotex

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/pump"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// ErrClosed is returned by a Texture's methods after Close.
var ErrClosed = errors.New("videotex: texture is closed")

// EngineDevice is the engine's Vulkan objects the texture lives on. The engine keeps ownership:
// Close leaves them alone.
type EngineDevice struct {
	// Instance, Physical and Device are the engine's (instance apiVersion ≥ 1.1, the device with
	// what Requirements lists enabled).
	Instance vk.Instance
	Physical vk.PhysicalDevice
	Device   vk.Device
	// Queue is where the toolkit submits uploads and fallback conversions (see the package
	// documentation for the external-synchronization rule). It must belong to QueueFamily.
	Queue vk.Queue
	// QueueFamily must support graphics and be the family of the queue the engine samples the
	// texture on: images are VK_SHARING_MODE_EXCLUSIVE and never change family.
	QueueFamily uint32
	// Extensions are the device extensions the engine enabled (DeviceRequirements.Extensions, and
	// any of its own). Textures use none beyond those; hardware decoding's come with HWDecode.
	Extensions []string
	// QueueLock, if set, is held around each of the toolkit's vkQueueSubmit calls: for engines that
	// submit to Queue from several goroutines under that lock. With hardware decoding it must be
	// the lock of queue 0 of QueueFamily (the queue FFmpeg is given there, whichever queue the
	// engine lends as Queue): FFmpeg takes it, from its own threads, around its submissions to that
	// queue (AVVulkanDeviceContext.lock_queue). Hardware decoding needs it, unless
	// InternallySynchronizedQueues.
	QueueLock sync.Locker
	// InternallySynchronizedQueues says the engine created every queue it lends (those of
	// QueueFamily and, with HWDecode, of HWDecode.DecodeFamily) with
	// DeviceQueueCreateInternallySynchronized, on a device created with
	// ExtInternallySynchronizedQueues (listed in Extensions) and its internallySynchronizedQueues
	// feature (DeviceRequirements.InternallySynchronized says whether the device offers them). Such
	// queues may be used from any thread without a lock: the toolkit then takes none, QueueLock is
	// never called (it may be nil, with hardware decoding too), FFmpeg's lock_queue does nothing and
	// FFmpeg fetches its queues with vkGetDeviceQueue2 and the flag. NewEngine and Open refuse it
	// where the device does not offer the extension or Extensions does not list it.
	InternallySynchronizedQueues bool
	// HWDecode, if set, says the device was created for hardware decoding with what it lists
	// (HWRequirements: the extensions and features enabled, DecodeQueues queues of DecodeFamily
	// created). The engine hands those decode queues to the texture: it never submits to them.
	HWDecode *HWDecode
}

// Change describes a new stream configuration (pixel layout, size or colour metadata), as given to
// Options.OnChange.
type Change struct {
	// Generation is that of the frames from now on; Rebuild says it differs from the previous one,
	// so the engine must rebuild its set layout, pipeline layout, pipelines and descriptor pool.
	Generation uint64
	Rebuild    bool
	Path       formats.Path
	Reason     string // why that path
	Format     string // FFmpeg's pixel format name
	Width      int
	Height     int
	Params     string // matrix/range/chroma siting
}

// Options tune Open. The zero value plays once, choosing the path automatically.
type Options struct {
	// Path chooses between the Y′CbCr sampler (formats.PathSampler: the engine samples the decoded
	// planes through the conversion) and the RGBA8 fallback (formats.PathShader: each picture is
	// converted into an RGBA8 image first); the default, formats.ChooseAuto, takes the sampler
	// wherever it is exact.
	Path formats.Choice
	// Images is the ring size, 3 to 16; 0 means 5 (two engine frames in flight, the current
	// picture, one ready and one being staged).
	Images int
	// Loop restarts the stream at its end; media time keeps increasing.
	Loop bool
	// OnChange, if set, is called on the goroutine of Acquire or Step, before it returns the first
	// frame of a new configuration (the first frame included).
	OnChange func(Change)
	// Decode tunes the decoder (threads, timeouts, size limits); its HWDec and Vulkan are ignored.
	Decode decode.Options
	// HWDec chooses Vulkan Video decoding on the engine's device. The zero value, auto, decodes in
	// hardware where the engine created its device for it (EngineDevice.HWDecode, QueueLock) and the
	// device decodes the stream's codec and profile, else in software: an engine that did nothing for
	// hardware decoding gets software decoding as before, one that did gets hardware by default, as
	// ycbcrplay does. decode.HWDecVulkan fails Open, naming what is missing, where it cannot;
	// decode.HWDecNo is software. Texture.Decoding says which, and why.
	HWDec decode.HWDec
	// OpenTimeout bounds how long Open waits for the first picture; 0 means 10 s.
	OpenTimeout time.Duration
	// Audio, if set, decodes the input's audio too and hands it to the engine (see AudioOptions).
	Audio *AudioOptions
	// Clock, if set, is the engine's clock for AcquireClock: its audio's playback position when it
	// plays the audio itself.
	Clock func() time.Duration
	// Target is the colour of the engine's render target, which every picture is converted or
	// tone-mapped to; the zero value is SDR BT.709.
	Target Target
}

// Stats counts what a texture did.
type Stats struct {
	Decoded int64 // pictures decoded and staged
	Shown   int64 // pictures uploaded for the engine
	Dropped int64 // staged pictures skipped because a later one was already due
	// HWCopied counts pictures shown from Vulkan frames (hardware decoding), each copied on the GPU
	// into the texture's image.
	HWCopied int64
}

// Texture is a video playing into images the engine samples. Its methods are safe for concurrent
// use, but see the package documentation for which of them submit to the queue.
type Texture struct {
	dev *gpu.Device // wraps the engine's device; Release, never Close
	eng *Engine     // what the textures on the device share
	// counted says open succeeded, so that Close gives eng back its count (a failed open's caller
	// does); ownEng says eng is the texture's own (Open): closed with it.
	counted, ownEng bool
	ed              EngineDevice
	opts            Options
	dec             *decode.Decoder
	url             string
	info            decode.Info
	// src is where the decoder goroutine takes its pictures: the decoder, or what open's wrap made
	// of it (the package's tests).
	src pictureSource

	audio     *decode.AudioDecoder // with Options.Audio and an input with audio
	audioQuit chan struct{}
	audioDone chan struct{}
	firstPTS  float64 // the first picture's PTS: media time 0

	// st is the stream on the engine's device (borrowed: its queue lock, fence waits): each
	// configuration's plan (the path and why), the pictures (their images and the textures the
	// engine samples, remade per configuration) and the ring of the toolkit's submissions; the
	// conversion paths and the textures' sampler and pass are the Engine's, shared. The texture
	// keeps what is its own: which pictures the engine holds.
	st *stream.Stream
	// pump runs the decoding goroutine, which stages pictures (pictures.go: stage, with its own
	// account stg); nil before it starts.
	pump *pump.Pump[*decode.Frame]
	stg  staging
	// quiet is held by the decoder goroutine while it decodes or makes images. Never taken by
	// the decoder while it holds or waits for mu.
	quiet sync.Mutex

	mu      sync.Mutex
	cond    *sync.Cond
	ready   []*picture // staged, in decode order
	current *picture
	// shown is what the last frame handed out was made for, gen its generation (which grows when
	// the sampler or descriptor count of the frames changes); latest is the plan's path of the
	// last configuration decoded.
	shown  *shownConfig
	gen    uint64
	latest ycbcr.Decision
	// ring is st's: it carries the toolkit's submissions (uploads, shader-path conversions, the
	// empty ones that signal or consume a Frame's semaphore) and retires what they use on their
	// fences.
	ring    *stream.Ring
	sems    []vk.Semaphore // unsignalled, free for a Frame
	decErr  error
	eof     bool
	closing bool
	closed  bool
	stats   Stats
	allSems []vk.Semaphore // every semaphore made: Frames not given back still hold some at Close
}

// Open starts playing url (a file or anything FFmpeg opens) as a texture on dev, and returns once
// the first picture is decoded and staged, so the first Acquire has a frame. Errors are one line,
// "videotex: open URL: reason". The texture shares nothing with other textures; an engine that
// shows several videos on one device opens them on one Engine (NewEngine) instead.
func Open(dev EngineDevice, url string, opts Options) (*Texture, error) {
	return openWith(dev, url, opts, nil)
}

// pictureSource is where the decoder goroutine takes its pictures.
type pictureSource interface {
	Next() (*decode.Frame, error)
}

// openWith is Open with the decoder's pictures taken through wrap's source, if wrap is not nil (the
// package's tests stall decoding, or put pictures into FFmpeg's Vulkan frames, there). A wrapping
// source that is an io.Closer is closed after the texture's pictures are freed.
func openWith(dev EngineDevice, url string, opts Options, wrap func(*Texture, pictureSource) (pictureSource, error)) (*Texture, error) {
	e, err := newEngine(dev)
	if err != nil {
		return nil, fmt.Errorf("videotex: open %s: %w", url, err)
	}
	e.count++
	t, err := openOn(e, url, opts, wrap)
	if err != nil {
		e.release()
		e.Close()
		return nil, fmt.Errorf("videotex: open %s: %w", url, err)
	}
	t.ownEng = true
	return t, nil
}

// openOn opens a texture on e, for which the caller has counted it, with openWith's wrap.
func openOn(e *Engine, url string, opts Options, wrap func(*Texture, pictureSource) (pictureSource, error)) (*Texture, error) {
	ed := e.ed
	if opts.Images == 0 {
		opts.Images = 5
	}
	if opts.Images < 3 || opts.Images > 16 {
		return nil, fmt.Errorf("Options.Images %d: must be 3 to 16", opts.Images)
	}
	if err := opts.Target.check(); err != nil {
		return nil, fmt.Errorf("Options.Target: %w", err)
	}
	if opts.OpenTimeout <= 0 {
		opts.OpenTimeout = 10 * time.Second
	}
	pd, err := gpu.Wrap(ed.Instance, ed.Physical, ed.Device, ed.Queue, ed.QueueFamily, ed.Extensions)
	if err != nil {
		return nil, err
	}
	t := &Texture{dev: pd, eng: e, ed: ed, opts: opts, url: url}
	t.cond = sync.NewCond(&t.mu)
	dopts, err := t.hwDevice()
	if err != nil {
		pd.Release()
		return nil, err
	}
	if t.dec, err = decode.Open(url, dopts); err != nil {
		pd.Release()
		return nil, err
	}
	t.src = t.dec
	if wrap != nil {
		if t.src, err = wrap(t, t.dec); err != nil {
			t.dec.Close()
			pd.Release()
			return nil, err
		}
	}
	t.info = t.dec.Info()
	if err := t.initObjects(); err != nil {
		t.destroy()
		return nil, err
	}
	if opts.Audio != nil {
		if err := t.openAudio(url); err != nil {
			t.destroy()
			return nil, fmt.Errorf("audio: %w", err)
		}
	}
	t.startDecoding()
	if err := t.WaitReady(opts.OpenTimeout); err != nil {
		t.Close()
		return nil, fmt.Errorf("first picture: %w", err)
	}
	if t.audio != nil {
		t.mu.Lock()
		first := t.firstPTS
		t.mu.Unlock()
		t.audioQuit = make(chan struct{})
		go t.audioLoop(first)
	}
	t.mu.Lock()
	t.counted = true
	t.mu.Unlock()
	return t, nil
}

func (t *Texture) initObjects() error {
	// As many slots as pictures: a slot is reused after Images submissions, long after its fence
	// has usually signalled, so Acquire seldom waits for one.
	var err error
	if t.st, err = stream.New(t.dev, stream.Options{Slots: t.opts.Images, Pictures: t.opts.Images,
		Textures: t.eng.textures, Paths: t.eng.paths, Upload: planes.UploadCopy, QueueLock: queueLocksOf(t.ed).Submit,
		Borrowed: true}); err != nil {
		return err
	}
	t.ring = t.st.Ring
	return nil
}

// Info describes the stream as the container declares it.
func (t *Texture) Info() decode.Info { return t.info }

// Path is the path of the frames handed out (before the first Acquire: of the first picture), and
// why it was chosen.
func (t *Texture) Path() (formats.Path, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.shown; c != nil {
		return c.path, c.reason
	}
	return t.latest.Path, t.latest.Reason
}

// Generation is that of the last frame handed out (0 before the first).
func (t *Texture) Generation() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.gen
}

// Stats returns the counters.
func (t *Texture) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Err is the decoder's error, if decoding stopped on one (the last picture stays current).
func (t *Texture) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.decErr
}

// Ended reports that the stream has ended (never with Options.Loop) and its last picture is the
// current one.
func (t *Texture) Ended() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.eof && len(t.ready) == 0
}

// WaitReady blocks until a picture newer than the current one is staged (so Step advances), the
// stream ends (io.EOF), decoding fails (its error) or timeout passes. It is for offline rendering
// and tests; an engine's frame loop calls Acquire, which never waits for decoding.
func (t *Texture) WaitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() {
		t.mu.Lock()
		t.cond.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		switch {
		case t.closed || t.closing:
			return ErrClosed
		case len(t.ready) > 0:
			return nil
		case t.decErr != nil:
			return t.decErr
		case t.eof:
			return errEOF
		case !time.Now().Before(deadline):
			return fmt.Errorf("videotex: no picture decoded within %s", timeout)
		}
		t.cond.Wait()
	}
}

// Close stops decoding, waits for the toolkit's own submissions and frees everything the texture
// made; the engine's device and queue stay. Call it after the engine's GPU work that sampled the
// texture has completed (frames not given back are released). Close submits nothing but waits on
// fences; it is idempotent.
func (t *Texture) Close() error {
	t.mu.Lock()
	if t.closing || t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closing = true
	t.cond.Broadcast()
	t.mu.Unlock()
	if t.pump != nil && !t.pump.Stop() { // a stalled network read returns at once (Interrupt)
		<-t.pump.Done()
	}
	if t.audioQuit != nil {
		// The audio goroutine ends at its next chunk: AudioOptions.Samples must return by then.
		close(t.audioQuit)
		t.audio.Interrupt()
		<-t.audioDone
	}
	return t.destroy()
}

func (t *Texture) destroy() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	d := t.dev.Device
	var err error
	if t.ring != nil {
		// Waits on the ring's fences (a borrowed device: never vkDeviceWaitIdle) and runs what was
		// retired on them.
		if e := t.ring.Drain(); e != nil {
			err = fmt.Errorf("videotex: close: %w", e)
		}
	}
	// The stream frees every picture, held or not: the engine is done with them (Close's contract).
	for _, p := range t.ready {
		p.dropHW()
	}
	t.ready, t.current = nil, nil
	for _, s := range t.allSems {
		vk.DestroySemaphore(d, s, nil)
	}
	t.sems, t.allSems = nil, nil
	if t.st != nil {
		// The ring (drained above), the pictures. t.st itself stays: Decoding reads its plan, a
		// plain value, after Close too.
		t.st.Close()
		t.ring = nil
	}
	if c, ok := t.src.(io.Closer); ok && t.src != pictureSource(t.dec) {
		c.Close()
	}
	if t.dec != nil {
		t.dec.Close()
	}
	if t.audio != nil {
		t.audio.Close()
	}
	t.dev.Release()
	// The shared objects outlive the texture; a private engine goes with it (nothing of the
	// texture's is in flight: the ring was drained above).
	if t.counted {
		t.eng.release()
		if t.ownEng {
			t.eng.Close()
		}
	}
	return err
}
