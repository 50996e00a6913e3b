package videotex

// WithBeforeNext returns o with a hook the decoder goroutine calls before decoding each picture:
// tests stall decoding with it.
func WithBeforeNext(o Options, f func()) Options {
	o.beforeNext = f
	return o
}

// WithHWUpload returns o with a hook that puts each software-decoded picture into one of FFmpeg's
// Vulkan frames (decode.Uploader) before the texture takes it: the route of hardware-decoded
// pictures, on devices that decode nothing. The device needs HWDecode.Features (timeline
// semaphores, synchronization2).
func WithHWUpload(o Options) Options {
	o.hwUpload = true
	return o
}
