// Package videotex plays a video as a texture in an engine that owns its Vulkan instance, device,
// render passes and pipelines. The engine samples the texture with a combined image sampler whose
// descriptor-set-layout binding carries the immutable sampler the package gives it; the package
// decodes (FFmpeg) on its own goroutine and uploads on a queue the engine lends it.
//
// # Integration, in order
//
//  1. Before creating the device: Requirements lists what to enable (Vulkan 1.1, the
//     samplerYcbcrConversion feature, optional extensions). FeatureChain builds the feature struct.
//     For hardware decoding, HWRequirements lists more (Vulkan 1.3, the decode queue family, the
//     video extensions, HWDecode.FeatureChain); pass it back as EngineDevice.HWDecode with a
//     QueueLock (see "Hardware decoding" below).
//  2. Open(EngineDevice{...}, url, Options{}) starts decoding and returns once the first picture is
//     ready to upload.
//  3. Each engine frame, once the engine's fence for the frame slot has signalled: call Done on the
//     Frame that slot held, then Acquire(now) (or Step) for the new Frame.
//  4. When Frame.Generation differs from the last one seen, (re)build the descriptor set layout
//     (Frame.LayoutBinding), the pipeline layout, the pipelines and the descriptor pool
//     (Frame.PoolSize): the immutable sampler changed.
//  5. Write Frame.ImageInfo into the slot's descriptor set (the image changes from frame to frame),
//     scale texture coordinates by Frame.UVScale, and submit with a wait on Frame.Wait at
//     Frame.WaitStage.
//  6. Keep the Frame with the slot until that submission's fence has signalled, then Done (step 3).
//  7. At exit: wait for the engine's GPU work, then Close.
//
// # Many textures on one device
//
// An engine that shows several videos makes one Engine per device (NewEngine) and opens each
// texture with Engine.Open: the textures share the sampler path's conversion cache (textures of
// like streams hand out the same immutable sampler), the shader path's pipelines and the fallback
// path's sampler and render pass (stream.TextureKit); each keeps its own decoder, goroutine and
// stream.Stream (its pictures and submissions).
// Close the textures, then the Engine. Open makes a private Engine for its one texture.
//
// # Ownership protocol
//
// The package keeps a small ring of images (Options.Images). Every Acquire or Step returns a new
// Frame, possibly of the same image as the previous one, and takes a reference on that image; Done
// drops it. An image is reused only when no Frame references it, it is no longer the current
// picture, and its upload has completed. So the engine never needs to copy: it holds a Frame for
// as long as its GPU work may read the image, which for a renderer with N frames in flight means
// "until the fence of the frame that sampled it". If the engine holds every image, decoding
// pauses; Acquire still returns the current picture. The images are the pictures of a
// stream.Stream made on the engine's device (its queue lock, fence waits: never vkDeviceWaitIdle),
// whose plan (stream.Plan) decides each configuration's path and which takes a picture again only
// once the texture has released it and the fence of its upload has signalled.
//
// Every Frame carries its own binary semaphore, signalled on the toolkit's queue after the upload
// (or, when the picture did not change, after an empty submission that follows it). The engine
// waits on it exactly once, in the submission that samples the frame: this is correct whether the
// toolkit's queue is the engine's rendering queue or another one of the same family. A Frame the
// engine does not submit a wait for must be given back with Discard instead of Done.
//
// Both ends can stay on the GPU: Frame.SignalTimeline hands the acquire to a timeline semaphore
// value of the engine's, and Frame.ReleaseAfter gives the frame back once a semaphore (binary, or a
// timeline value) that the engine's sampling submission signals is signalled, instead of Done after
// the engine's fence. Both submit to the toolkit's queue.
//
// # Drawing into the engine's image
//
// Instead of sampling the frame, an engine may have it drawn into an image of its own
// (Frame.DrawInto: libmpv's render shape): scaled as ycbcrplay scales it into its window, aspect
// kept, letterboxed, between a semaphore the engine signals and one it waits on.
//
// # Device loss
//
// Errors caused by VK_ERROR_DEVICE_LOST match ErrDeviceLost. The device stays lost: close every
// texture and the Engine, recreate the device, and open the textures again, acquiring from the media
// time last shown.
//
// # Threads and the queue
//
// Decoding and CPU staging run on the package's goroutine and never touch the queue; Acquire
// and Step do not wait for them (except once per new fallback-path configuration, while its
// pipeline compiles: vulkan-go's pipeline creation must not overlap a garbage collection). The toolkit
// submits to EngineDevice.Queue only inside Acquire, Step, Discard and Close, on the calling
// goroutine. Vulkan requires external synchronization of a queue: either call those methods from
// the goroutine that submits to that queue, or set EngineDevice.QueueLock to the lock the engine
// holds around its own vkQueueSubmit and vkQueuePresentKHR, or lend a queue of its own (another
// queue of the same family). Done may be called from any goroutine. While textures are open, wait
// for the whole device with DeviceWaitIdle, never a plain vkDeviceWaitIdle: that call needs every
// queue, and FFmpeg's threads submit to them meanwhile under locks only the toolkit holds. An engine
// that created its queues with VK_KHR_internally_synchronized_queues' flag
// (EngineDevice.InternallySynchronizedQueues; DeviceRequirements.InternallySynchronized says whether
// the device offers it) needs none of this: no lock is taken, by the toolkit or FFmpeg.
//
// # Sound
//
// The engine plays the sound itself: Options.Audio decodes the input's audio (swresample to
// interleaved float32) and hands it to AudioOptions.Samples with each run's media time, on Acquire's
// clock, for the engine's own mixer. The engine's audio is then the master clock: pass its playback
// position (samples handed to the device less the device's latency) to Acquire, or set Options.Clock
// and call AcquireClock. The standalone player does the same with PulseAudio (package audio).
//
// # Paths
//
// When the device's VkSamplerYcbcrConversion expresses the stream exactly (ycbcr.SamplerKey), the
// frame is the multi-planar image itself, sampled through the conversion (formats.PathSampler). Otherwise
// (for example a chroma siting the device lacks) the package converts each picture with the
// project's shader path into an RGBA8 image and hands that out with a plain immutable sampler
// (formats.PathShader). The engine's code is the same for both: one combined image sampler with an
// immutable sampler. Texture.Path says which path is used and why. Both give non-linear R′G′B′
// (UNORM): the transfer function is not undone. Options.Target says what the engine's render target
// shows (SDR BT.709, the default, HDR10 or extended-linear sRGB): PQ and HLG streams are
// tone-mapped to SDR, or every stream's display light PQ-encoded in BT.2020 for HDR10, or kept
// linear in BT.709 in a float16 image for extended-linear, on the shader path, as ycbcrplay does
// for its swapchain.
//
// # Hardware decoding
//
// With EngineDevice.HWDecode (the device created from HWRequirements) and EngineDevice.QueueLock,
// Options.HWDec's default decodes with Vulkan Video where the device decodes the stream, else in
// software; Texture.Decoding says which and why. FFmpeg submits from its own threads to queue 0 of
// QueueFamily under EngineDevice.QueueLock (lock_queue calls it), and to the decode queues, which
// the engine hands over and never uses, under the toolkit's own lock. A decoded picture is copied on
// the GPU into the texture's image in the upload's submission, which waits on and signals the
// frame's timeline semaphore (hwcontext_vulkan.h's AVVkFrame contract); the engine samples the
// texture as with software decoding.
//
// # Vulkan rules the engine must respect
//
//   - The sampler goes into the set layout as an immutable sampler (Frame.LayoutBinding); a
//     descriptor write's sampler is ignored. Y′CbCr samplers cannot be used in SAMPLER descriptors.
//   - Pool sizes count Frame.DescriptorCount descriptors per binding
//     (combinedImageSamplerDescriptorCount, up to 3 for 3-plane formats), not 1.
//   - Pipelines belong to a generation: they embed the set layout and so the sampler.
//   - On the sampler path: no mipmaps, no textureGather, no texelFetch, no offsets, no
//     textureLod beyond level 0, and no other sampler or view on the image: the view and the sampler
//     carry identical conversions, made by the package.
package videotex
