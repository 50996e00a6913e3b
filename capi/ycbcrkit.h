/* ycbcrkit.h: libycbcrkit, video textures on an engine's own Vulkan device, from C.
 *
 * The library is the Go package videotex (go doc ./videotex; docs/engine.md) behind a C ABI. An
 * engine that owns its VkInstance, VkDevice, queues, render passes and pipelines opens a video as
 * a texture: FFmpeg decodes it (in software, or with Vulkan Video on the engine's device), the
 * library uploads each picture into a small ring of images, and the engine samples the image it is
 * given with a combined image sampler whose set-layout binding holds the library's immutable
 * sampler (a VkSamplerYcbcrConversion where the device expresses the stream exactly).
 *
 *   cc engine.c -Ibin/lib -Lbin/lib -lycbcrkit -lvulkan -Wl,-rpath,'$ORIGIN'
 *
 * Integration, in order (examples/engine-c/main.c does all of it):
 *   1. Create the instance (apiVersion >= 1.1; 1.3 for hardware decoding), pick the physical
 *      device, call yk_requirements and create the device with what it lists.
 *   2. yk_engine_create on the device and a graphics queue; yk_texture_open per video.
 *   3. Each frame: yk_texture_acquire; if frame.generation changed, rebuild the descriptor set
 *      layout (frame.sampler as its immutable sampler), pipeline layout, pipelines and pool
 *      (frame.descriptor_count descriptors per combined image sampler); write frame.view and
 *      frame.layout into the descriptor set; sample at uv * frame.uv_scale; submit with a wait on
 *      frame.wait_semaphore (at frame.wait_value when it is a timeline) at frame.wait_stage.
 *   4. Give the frame back with yk_frame_release: after the fence of the submission that sampled
 *      it, or at once with a semaphore that submission signals.
 *   5. At exit: wait for the GPU work that sampled the textures, yk_texture_close each texture,
 *      then yk_engine_destroy; the device, queues and instance stay the engine's.
 *
 * Conventions.
 *   - Every function returns a yk_result; on an error yk_last_error() says why, in one line.
 *   - Handles (yk_engine, yk_texture) are opaque numbers; a zeroed handle is no handle. A handle
 *     that was destroyed, or never made, gives YK_ERROR_INVALID_HANDLE (never a crash).
 *   - Every call takes a params struct whose zeroed value works: memset it to 0, set what you need.
 *     Output structs are filled by the library. Pointers to params are read during the call only.
 *   - Strings are UTF-8, NUL-terminated; the library copies what it keeps.
 *   - Times are nanoseconds of media time: the first picture is at 0.
 *   - Threads: every function may be called from any thread. Functions that submit to the queue
 *     lent to the engine (yk_texture_acquire, yk_frame_release with a semaphore or discard,
 *     yk_texture_close) follow Vulkan's external-synchronization rule for that queue: call them
 *     from the thread that submits to it, or give yk_engine_params.lock_queue/unlock_queue, which
 *     the library holds around each of its vkQueueSubmit calls (and FFmpeg around its own, with
 *     hardware decoding; then never hold that lock while calling the library). While a texture is
 *     open, wait for the whole device with yk_engine_wait_idle, never vkDeviceWaitIdle (which
 *     needs every queue, and the library's and FFmpeg's threads submit meanwhile). Queues created
 *     internally synchronized (yk_engine_params.internally_synchronized_queues, ABI 1.3) need no
 *     lock: any thread may then call these functions while others submit.
 *
 * ABI versioning. yk_abi_version() is the library's YK_ABI_VERSION: the major number (bits 16..31)
 * changes only when an existing function, struct field or value changes meaning or layout, which
 * the library avoids; the minor number (bits 0..15) grows when functions, enum values or struct
 * fields are added. Structs only ever grow by appending fields. Every params and output struct
 * starts with `uint32_t size`: set it to sizeof(the struct) from the header you compiled against,
 * or leave it 0, which means the size of the struct in ABI 1.0. The library reads or writes only
 * that many bytes (fields beyond them take their zero defaults), so a program built against an
 * older header works with a newer library; a newer header's struct given to an older library is
 * accepted when the fields it does not know are zero, and refused with YK_ERROR_ABI otherwise. A
 * program checks at start-up that YK_ABI_MAJOR(yk_abi_version()) equals YK_ABI_MAJOR(YK_ABI_VERSION).
 */
#ifndef YCBCRKIT_H
#define YCBCRKIT_H

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#define YK_ABI_VERSION ((1u << 16) | 4u) /* 1.1: yk_frame_draw; 1.2: yk_engine_wait_idle, targets;
                                            1.3: internally synchronized queues;
                                            1.4: YK_TARGET_EXTENDED_LINEAR, target_white */
#define YK_ABI_MAJOR(v) ((uint32_t)(v) >> 16)
#define YK_ABI_MINOR(v) ((uint32_t)(v)&0xffffu)

/* Result codes. Negative values are errors; yk_last_error() explains each. */
typedef enum yk_result {
	YK_SUCCESS = 0,
	YK_TIMEOUT = 1,            /* yk_texture_wait_ready: nothing new within the timeout */
	YK_END = 2,                /* yk_texture_wait_ready: the stream has ended (not with loop) */
	YK_ERROR_INVALID_ARGUMENT = -1,
	YK_ERROR_INVALID_HANDLE = -2,
	YK_ERROR_UNSUPPORTED = -3, /* the device or build cannot do what was asked */
	YK_ERROR_OPEN = -4,        /* the input cannot be opened or decoded */
	YK_ERROR_DEVICE_LOST = -5, /* VK_ERROR_DEVICE_LOST: see "Device loss" below */
	YK_ERROR_CLOSED = -6,      /* the texture is closed or closing */
	YK_ERROR_BUSY = -7,        /* yk_engine_destroy while textures are open */
	YK_ERROR_VULKAN = -8,      /* another Vulkan call failed (the text names it and its VkResult) */
	YK_ERROR_ABI = -9,         /* a struct's size or fields are newer than this library */
	YK_ERROR_INTERNAL = -10
} yk_result;

/* Device loss. Once any call returns YK_ERROR_DEVICE_LOST, the device is lost for good (Vulkan
 * spec, "Lost Device") and every later call on its textures returns it too; none blocks. Recover:
 * note each texture's media time (the pts_ns of its last frame), yk_texture_close every texture
 * (frames not released are released), yk_engine_destroy, destroy and recreate the VkDevice (and
 * the instance if vkCreateDevice fails), yk_engine_create, yk_texture_open each URL again and
 * acquire with YK_ACQUIRE_AT from the noted time (or yk_texture_seek). */

/* The text of the last error of this thread's last failed call: one line, owned by the library,
 * valid until this thread's next call. "" when the last call succeeded. */
const char *yk_last_error(void);

/* YK_ABI_VERSION of the library (see "ABI versioning"). Any thread, any time. */
uint32_t yk_abi_version(void);

/* ---- Device requirements: before the engine creates its device ------------------------------ */

#define YK_MAX_EXTENSIONS 16
#define YK_MAX_TEXT 256

typedef struct yk_requirements_params {
	uint32_t size;
	VkInstance instance;              /* the engine's, apiVersion >= 1.1 (1.3 for hardware decoding) */
	VkPhysicalDevice physical_device; /* the device the engine will create */
	/* Non-zero when the instance has the Khronos validation layer: an old layer's version withholds
	 * VK_KHR_video_maintenance1 from hw_extensions. */
	uint32_t validation;
} yk_requirements_params;

/* Features of hardware decoding to enable (VkPhysicalDeviceVulkan11/12/13Features, and
 * VkPhysicalDeviceVideoMaintenance1FeaturesKHR), each 1 when it must be on. */
typedef struct yk_video_features {
	uint32_t sampler_ycbcr_conversion; /* Vulkan 1.1 */
	uint32_t timeline_semaphore;       /* Vulkan 1.2 */
	uint32_t host_query_reset;         /* Vulkan 1.2 */
	uint32_t synchronization2;         /* Vulkan 1.3 */
	uint32_t video_maintenance1;       /* VK_KHR_video_maintenance1 */
} yk_video_features;

typedef struct yk_requirements {
	uint32_t size;
	/* Textures: Vulkan api_version (1.1), the samplerYcbcrConversion feature (always 1: enable it
	 * with VkPhysicalDeviceSamplerYcbcrConversionFeatures or VkPhysicalDeviceVulkan11Features, not
	 * both), a queue family with queue_flags (graphics), and these device extensions. */
	uint32_t api_version;
	uint32_t sampler_ycbcr_conversion;
	VkQueueFlags queue_flags;
	uint32_t extension_count;
	char extensions[YK_MAX_EXTENSIONS][VK_MAX_EXTENSION_NAME_SIZE];
	/* Acquire and release with timeline semaphores need the timelineSemaphore feature (Vulkan 1.2);
	 * 1 when the device offers it. */
	uint32_t timeline_semaphore;
	/* Hardware decoding (Vulkan Video through FFmpeg): hw_available, or hw_missing says why not.
	 * To use it, create the instance and device with hw_api_version (1.3), hw_extensions, the
	 * hw_features (they include samplerYcbcrConversion: chain only the Vulkan 1.1/1.2/1.3 structs),
	 * hw_decode_queues queues of hw_decode_family (besides the graphics queue; the engine never
	 * submits to them), and set yk_engine_params.hardware_decoding and the queue-lock callbacks. */
	uint32_t hw_available;
	char hw_missing[YK_MAX_TEXT];
	uint32_t hw_api_version;
	uint32_t hw_extension_count;
	char hw_extensions[YK_MAX_EXTENSIONS][VK_MAX_EXTENSION_NAME_SIZE];
	uint32_t hw_decode_family;
	uint32_t hw_decode_queues;
	yk_video_features hw_features;
	char hw_codecs[YK_MAX_TEXT];   /* FFmpeg's names, space-separated: "h264 hevc av1" */
	char hw_withheld[YK_MAX_TEXT]; /* what the device offers and is left off, and why */
	/* Added in ABI 1.3: 1 when the device offers VK_KHR_internally_synchronized_queues with its
	 * internallySynchronizedQueues feature (optional: see
	 * yk_engine_params.internally_synchronized_queues); else 0, and internally_synchronized_missing
	 * says why. */
	uint32_t internally_synchronized_queues;
	char internally_synchronized_missing[YK_MAX_TEXT];
} yk_requirements;

/* Fills *out for params->physical_device. YK_ERROR_UNSUPPORTED (with the reason) when the device
 * cannot sample Y'CbCr at all (below Vulkan 1.1, or no samplerYcbcrConversion). Any thread. */
yk_result yk_requirements_query(const yk_requirements_params *params, yk_requirements *out);

/* ---- Engine: what the textures on one device share ------------------------------------------ */

typedef struct yk_engine { uint64_t id; } yk_engine;

typedef void (*yk_lock_fn)(void *user);

typedef struct yk_engine_params {
	uint32_t size;
	/* The engine's objects; the library never destroys them. The device has what
	 * yk_requirements_query listed enabled. queue belongs to queue_family, which has graphics and is
	 * the family the engine samples on (images are VK_SHARING_MODE_EXCLUSIVE). */
	VkInstance instance;
	VkPhysicalDevice physical_device;
	VkDevice device;
	VkQueue queue;
	uint32_t queue_family;
	/* The device extensions the engine enabled (copied). */
	const char *const *enabled_extensions;
	uint32_t enabled_extension_count;
	/* Optional queue lock: lock_queue(lock_user) and unlock_queue(lock_user) are called around each
	 * of the library's vkQueueSubmit calls to queue, from the calling thread, and, with hardware
	 * decoding, by FFmpeg's threads around theirs to queue 0 of queue_family: it must then be the
	 * lock of queue 0 of queue_family, which the engine holds around its own submissions and
	 * presents there. Both or neither. Required for hardware decoding. */
	yk_lock_fn lock_queue;
	yk_lock_fn unlock_queue;
	void *lock_user;
	/* Non-zero: the device was created with yk_requirements' hw_* lists (decode queues included). */
	uint32_t hardware_decoding;
	/* Non-zero: the instance has the validation layer (as yk_requirements_params.validation). */
	uint32_t validation;
	/* Added in ABI 1.3. Non-zero: the engine created the device with
	 * VK_KHR_internally_synchronized_queues (listed in enabled_extensions) and its
	 * internallySynchronizedQueues feature (VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR),
	 * and every queue it lends the library, those of queue_family and, with hardware decoding, of
	 * hw_decode_family, with VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR (fetched with
	 * vkGetDeviceQueue2 and the flag). Such queues need no lock from any thread: the library then
	 * never calls lock_queue/unlock_queue (they may be NULL, hardware decoding included), FFmpeg
	 * takes no lock, and yk_engine_wait_idle takes none. yk_engine_create fails with
	 * YK_ERROR_UNSUPPORTED where the device does not offer the extension and feature
	 * (yk_requirements.internally_synchronized_queues) or enabled_extensions does not list it. 0:
	 * the queues are locked as above. */
	uint32_t internally_synchronized_queues;
} yk_engine_params;

/* Checks the device and prepares what its textures share (the conversion cache: textures of like
 * streams get the same immutable sampler; the shader path's pipelines). Any thread. *out is
 * zeroed on failure. */
yk_result yk_engine_create(const yk_engine_params *params, yk_engine *out);

/* Frees what the textures shared. Every texture opened on the engine must be closed first
 * (YK_ERROR_BUSY otherwise, freeing nothing). Any thread; the handle is invalid afterwards. */
yk_result yk_engine_destroy(yk_engine engine);

/* vkDeviceWaitIdle on the engine's device, safe while textures are open (ABI 1.2). Vulkan requires
 * every queue of the device externally synchronized for vkDeviceWaitIdle, and the library's and
 * FFmpeg's threads submit meanwhile: to queue under lock_queue and, with hardware decoding, to the
 * decode queues under the library's own lock, which the engine cannot take. A plain
 * vkDeviceWaitIdle then races them (UNASSIGNED-Threading-MultipleThreads). This one holds
 * lock_queue (do not hold it when calling) and every lock of the library's around the call. To
 * wait for its own submissions only, an engine may call vkQueueWaitIdle(queue) holding its lock.
 * Any thread. YK_ERROR_DEVICE_LOST when the device is lost. */
yk_result yk_engine_wait_idle(yk_engine engine);

/* ---- Textures -------------------------------------------------------------------------------- */

typedef struct yk_texture { uint64_t id; } yk_texture;

typedef enum yk_hwdec {
	YK_HWDEC_AUTO = 0,   /* Vulkan Video where the engine enabled it and the device decodes the stream */
	YK_HWDEC_NO = 1,     /* software */
	YK_HWDEC_VULKAN = 2  /* Vulkan Video or yk_texture_open fails, naming what is missing */
} yk_hwdec;

typedef enum yk_path {
	YK_PATH_SAMPLER = 0, /* the multi-planar image through the Y'CbCr conversion */
	YK_PATH_SHADER = 1   /* an RGBA8 image the library converted into, with a plain sampler */
} yk_path;

typedef enum yk_path_choice {
	YK_CHOOSE_AUTO = 0, /* the sampler path wherever the device's conversion is exact */
	YK_CHOOSE_SAMPLER = 1,
	YK_CHOOSE_SHADER = 2
} yk_path_choice;

typedef enum yk_audio {
	YK_AUDIO_NONE = 0,     /* no sound */
	YK_AUDIO_CALLBACK = 1  /* PCM to audio_callback, for the engine's mixer */
} yk_audio;

/* Audio for the engine's mixer: interleaved float32, frames × channels samples at rate, the first
 * sample at pts_ns. Called on a library thread, in order; it may block (decoding then waits). */
typedef void (*yk_audio_fn)(void *user, int64_t pts_ns, const float *samples, uint32_t frames,
                            uint32_t channels, uint32_t rate);

/* The engine's target (ABI 1.2; docs/engine.md, "Target colour"). */
typedef enum yk_target {
	/* BT.709 primaries, R'G'B' as an SDR BT.709 stream's (BT.709 OETF), white at 100 cd/m². SDR
	 * streams pass through (any path); PQ and HLG are tone-mapped with yk_open_params.tone on the
	 * shader path. */
	YK_TARGET_SDR = 0,
	/* HDR10: BT.2020 primaries, PQ (SMPTE ST 2084, absolute: 1.0 = 10000 cd/m²), every stream's
	 * display light kept (SDR white at 203 cd/m², HLG for a 1000 cd/m² display), no tone curve. The
	 * shader path; its image is R8G8B8A8_UNORM (8-bit PQ codes). */
	YK_TARGET_HDR10 = 1,
	/* ABI 1.4. Extended-linear sRGB (scRGB, for VK_COLOR_SPACE_EXTENDED_SRGB_LINEAR_EXT): BT.709
	 * primaries, linear light, 1.0 = yk_open_params.target_white (80 cd/m² by default; SDR white
	 * lands there), the same display light as HDR10 and unclipped: above 1.0 for highlights (1000
	 * cd/m² = 12.5 of 80), below 0 for colours outside BT.709. The shader path; its image is
	 * R16G16B16A16_SFLOAT. yk_frame_draw refuses it. */
	YK_TARGET_EXTENDED_LINEAR = 2
} yk_target;

/* How PQ and HLG pictures are brought to an SDR target. */
typedef enum yk_tone {
	YK_TONE_BT2390 = 0,     /* ITU-R BT.2390 §5.4's EETF on each component */
	YK_TONE_CLIP = 1,       /* no curve: light above 100 cd/m² clips */
	YK_TONE_OFF = 2,        /* none: the stream's R'G'B' is handed over as it is */
	YK_TONE_BT2390_MAX = 3  /* the EETF on max(R, G, B), ratios kept */
} yk_tone;

typedef struct yk_open_params {
	uint32_t size;
	yk_hwdec hwdec;
	yk_path_choice path;
	uint32_t loop;            /* non-zero: restart at the end; media time keeps growing */
	uint32_t images;          /* ring size 3..16; 0: 5 */
	uint32_t open_timeout_ms; /* how long open waits for the first picture; 0: 10000 */
	yk_audio audio;
	yk_audio_fn audio_callback;
	void *audio_user;
	uint32_t audio_rate;     /* 0: the stream's */
	uint32_t audio_channels; /* 0: stereo (mono stays mono) */
	/* Added in ABI 1.2: the colour of the engine's render target, which every picture is converted
	 * or tone-mapped to, as ycbcrplay does for its swapchain (0, 0: SDR BT.709 with BT.2390). */
	yk_target target;
	yk_tone tone;
	/* Added in ABI 1.4: YK_TARGET_EXTENDED_LINEAR's 1.0 in cd/m², where SDR white lands; 0: 80
	 * (scRGB's, as Windows composes it). An engine whose compositor shows 1.0 at its SDR white
	 * (Apple's EDR) gives that white; HDR streams are then scaled by it. Other targets: 0. */
	double target_white;
} yk_open_params;

/* Opens url (a file or anything FFmpeg opens) on the engine and returns once the first picture is
 * decoded, so the first acquire has a frame. params may be NULL (all defaults). Any thread; the
 * texture's clock starts paused at 0 until yk_texture_play. *out is zeroed on failure. */
yk_result yk_texture_open(yk_engine engine, const char *url, const yk_open_params *params, yk_texture *out);

/* Stops decoding, waits for the library's own submissions and frees the texture (frames not
 * released are released: call it after the engine's GPU work that sampled the texture is done).
 * Submits nothing but waits on fences. The handle is invalid afterwards. */
yk_result yk_texture_close(yk_texture texture);

/* The texture's clock, used by YK_ACQUIRE_CLOCK: play (from where it stands), pause, rate (speed:
 * 1 is normal, > 0), and the current media time. Any thread. */
yk_result yk_texture_play(yk_texture texture);
yk_result yk_texture_pause(yk_texture texture);
yk_result yk_texture_set_rate(yk_texture texture, double rate);
yk_result yk_texture_time(yk_texture texture, int64_t *time_ns);

/* Moves the clock to time_ns. A texture's pictures only go forward: seeking back reopens the
 * input on the same engine (the texture's handle stays; its next frame may have a new generation)
 * and decodes from its start up to time_ns; seeking forward skips pictures as the clock passes
 * them. It submits nothing; it waits for decoding up to time_ns (up to open_timeout_ms). */
yk_result yk_texture_seek(yk_texture texture, int64_t time_ns);

/* Blocks until a picture newer than the current one is decoded (YK_SUCCESS: a STEP acquire
 * advances), the stream ends (YK_END), or timeout_ms passes (YK_TIMEOUT). For offline rendering
 * and tests; a frame loop never needs it. Any thread. */
yk_result yk_texture_wait_ready(yk_texture texture, uint32_t timeout_ms);

typedef enum yk_route {
	YK_ROUTE_NONE = 0, /* decoded in software: copied through a staging buffer */
	YK_ROUTE_COPY = 1  /* a Vulkan Video picture, copied on the GPU into the texture's image */
} yk_route;

typedef struct yk_stats {
	uint32_t size;
	int64_t decoded;   /* pictures decoded and staged */
	int64_t shown;     /* pictures uploaded for the engine */
	int64_t dropped;   /* staged pictures skipped because a later one was already due */
	int64_t hw_copied; /* pictures taken from Vulkan Video frames */
	uint32_t hardware_decoded; /* Vulkan Video decodes the stream now */
	char decoder[64];          /* FFmpeg's decoder: "hevc (vulkan)", "h264" */
	char decoding_reason[YK_MAX_TEXT]; /* why software, when it is */
	yk_route route;
	char route_reason[YK_MAX_TEXT];
	yk_path path;
	char path_reason[YK_MAX_TEXT];
	uint32_t ended; /* the stream ended (never with loop) and its last picture is current */
	uint32_t width, height; /* as the container declares */
} yk_stats;

/* Fills *out. Any thread. */
yk_result yk_texture_stats(yk_texture texture, yk_stats *out);

/* ---- Frames ---------------------------------------------------------------------------------- */

/* The VkSamplerYcbcrConversionCreateInfo behind a sampler-path frame's sampler and view, as plain
 * values (what Dawn's YCbCrVkDescriptor carries): an engine that makes its own immutable sampler
 * creates its own conversion from these (an identically defined one, as Vulkan requires). */
typedef struct yk_conversion {
	VkFormat format;
	VkSamplerYcbcrModelConversion model;
	VkSamplerYcbcrRange range;
	VkComponentMapping components;
	VkChromaLocation x_chroma_offset;
	VkChromaLocation y_chroma_offset;
	VkFilter chroma_filter;
	VkBool32 force_explicit_reconstruction;
} yk_conversion;

/* Static HDR metadata (SMPTE ST 2086 mastering display, CTA-861.3 light levels); zeros when the
 * stream carries none. Luminances in cd/m^2, chromaticities as CIE 1931 xy. */
typedef struct yk_hdr_metadata {
	double min_luminance, max_luminance;
	double max_cll, max_fall;
	double primaries[3][2]; /* red, green, blue */
	double white_point[2];
} yk_hdr_metadata;

/* The picture's colour description, as ITU-T H.273 code points (FFmpeg's AVColorSpace,
 * AVColorRange, AVChromaLocation, AVColorPrimaries, AVColorTransferCharacteristic values), resolved
 * (unspecified fields guessed as a player would). matrix, range and chroma_location are what the
 * conversion applied; primaries and transfer describe the non-linear R'G'B' the engine samples. */
typedef struct yk_color {
	int32_t matrix;
	int32_t range;
	int32_t chroma_location;
	int32_t primaries;
	int32_t transfer;
	yk_hdr_metadata hdr;
} yk_color;

typedef enum yk_acquire_mode {
	YK_ACQUIRE_CLOCK = 0, /* the latest picture due at the texture's clock (play/pause/rate) */
	YK_ACQUIRE_AT = 1,    /* the latest picture due at time_ns (the engine's clock) */
	YK_ACQUIRE_STEP = 2   /* the next picture in decode order, whatever its time */
} yk_acquire_mode;

typedef struct yk_acquire_params {
	uint32_t size;
	yk_acquire_mode mode;
	int64_t time_ns; /* YK_ACQUIRE_AT */
	/* Optional timeline acquire: the library signals this timeline semaphore of the engine's at
	 * timeline_value (> 0 and above any value it had) once the picture is in the image, and the
	 * frame's wait_semaphore/wait_value are these. Needs the timelineSemaphore feature. Without
	 * it, the frame carries a binary semaphore of the library's. */
	VkSemaphore timeline;
	uint64_t timeline_value;
} yk_acquire_params;

typedef struct yk_frame {
	uint32_t size;
	uint64_t id; /* names the frame to yk_frame_release */
	/* What the engine samples, in layout. On the sampler path the view carries the conversion: make
	 * no other view of image and no other sampler, except one built from conversion. */
	VkImage image;
	VkImageView view;
	VkImageLayout layout;
	/* The immutable sampler: it goes in the descriptor set layout binding (pImmutableSamplers),
	 * never in a descriptor write. */
	VkSampler sampler;
	/* Descriptors one combined image sampler of this frame consumes
	 * (combinedImageSamplerDescriptorCount, up to 3): multiply pool sizes by it. */
	uint32_t descriptor_count;
	/* Changes exactly when sampler or descriptor_count does: rebuild the set layout, pipeline
	 * layout, pipelines and descriptor pool then. Older generations' samplers stay valid until
	 * yk_texture_close. */
	uint64_t generation;
	/* The engine's submission that samples the frame waits on wait_semaphore at wait_stage, once:
	 * a binary semaphore of the library's (wait_value 0), or the acquire's timeline at wait_value. */
	VkSemaphore wait_semaphore;
	uint64_t wait_value;
	VkPipelineStageFlags wait_stage;
	/* Sample at uv * uv_scale (the image may be padded to whole chroma samples). */
	float uv_scale[2];
	uint32_t width, height;
	int64_t pts_ns;   /* media time; grows across loops */
	int64_t index;    /* number in decode order, from 0 */
	uint32_t advanced; /* 1 when the picture differs from the previous acquire's */
	yk_path path;
	uint32_t hardware_decoded; /* Vulkan Video decoded the stream's current configuration */
	yk_route route;
	uint32_t has_conversion; /* 1 on the sampler path: conversion is set */
	yk_conversion conversion;
	yk_color color;
	uint32_t sample_aspect[2]; /* pixel aspect: display width = width * [0] / [1] */
	uint32_t rotate;           /* clockwise quarter turns for display, after flip */
	uint32_t flip;             /* mirror horizontally first */
	/* Added in ABI 1.2: 1 when the picture was converted to yk_open_params.target (its R'G'B' has
	 * the target's primaries and transfer, not color's); 0 when it is the stream's. */
	uint32_t to_target;
} yk_frame;

/* Fills *out with the frame to show. It never waits for decoding: when nothing new is due or
 * ready, the current picture comes back (advanced 0). params may be NULL (YK_ACQUIRE_CLOCK, a
 * binary semaphore). It submits to the lent queue (see Threads). Every frame acquired is given back
 * with yk_frame_release exactly once. *out is zeroed on failure. */
yk_result yk_texture_acquire(yk_texture texture, const yk_acquire_params *params, yk_frame *out);

typedef struct yk_release_params {
	uint32_t size;
	/* Optional GPU release: a semaphore the engine's submission that sampled the frame signals
	 * when done, binary (value 0) or timeline at value. Call after submitting that signal; the
	 * library waits on it on the lent queue (a submission) and reuses the image once that wait is
	 * done. A binary semaphore may be signalled again in later submissions to the same queue.
	 * Without it (VK_NULL_HANDLE), the release is on the CPU: call only after the fence of the
	 * submission that sampled the frame has signalled. */
	VkSemaphore semaphore;
	uint64_t value;
	/* Non-zero: the engine submitted no wait on the frame's semaphore (it skipped the frame); the
	 * library consumes the signal itself (a submission, unless the acquire was a timeline one). */
	uint32_t discard;
} yk_release_params;

/* Gives the frame back. params may be NULL (CPU release). Releasing a frame twice does nothing and
 * succeeds; after yk_texture_close the texture's handle is invalid (YK_ERROR_INVALID_HANDLE) and
 * the close released its frames. Without a semaphore and without discard it submits
 * nothing and may be called from any thread. */
yk_result yk_frame_release(yk_texture texture, const yk_frame *frame, const yk_release_params *params);

/* ---- Drawing into the engine's image (ABI 1.1) ------------------------------------------------ */

typedef enum yk_filter {
	YK_FILTER_LANCZOS = 0, /* three lobes: the player's default */
	YK_FILTER_CATMULL_ROM = 1,
	YK_FILTER_MITCHELL = 2,
	YK_FILTER_BILINEAR = 3
} yk_filter;

typedef struct yk_draw_params {
	uint32_t size;
	/* The engine's image (2D, one level and layer, on the queue family of the engine) and a view of
	 * it, width x height. The scale pass writes it from compute: format must be
	 * VK_FORMAT_R8G8B8A8_UNORM and the image made with VK_IMAGE_USAGE_STORAGE_BIT (others:
	 * YK_ERROR_UNSUPPORTED). Every pixel is written, so its current layout does not matter. */
	VkImage image;
	VkImageView view;
	VkFormat format;
	uint32_t width, height;
	/* The layout the image is left in; 0 (UNDEFINED): VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL. */
	VkImageLayout final_layout;
	/* Optional: the draw waits on wait_semaphore (the engine's earlier use of the image done; a
	 * binary semaphore, or a timeline at wait_value) and signals signal_semaphore (binary, or a
	 * timeline at signal_value) once the picture is in the image, in final_layout. */
	VkSemaphore wait_semaphore;
	uint64_t wait_value;
	VkSemaphore signal_semaphore;
	uint64_t signal_value;
	yk_filter filter;
} yk_draw_params;

/* Draws the frame's picture into the engine's image as ycbcrplay draws it into its window: the
 * conversion at the picture's size, then the scale pass (params->filter) onto its display size
 * (sample aspect and rotation applied) fitted to the image, aspect kept, letterboxed in black; not
 * dithered; no subtitles or on-screen display. It submits to the lent queue (see Threads), waiting
 * on the frame's wait_semaphore itself, and gives the frame back: do not yk_frame_release it
 * afterwards (that then does nothing). Acquire with a binary semaphore (no timeline) for it. */
yk_result yk_frame_draw(yk_texture texture, const yk_frame *frame, const yk_draw_params *params);

#ifdef __cplusplus
}
#endif
#endif /* YCBCRKIT_H */
