package videotex

// WithBeforeNext returns o with a hook the decoder goroutine calls before decoding each picture:
// tests stall decoding with it.
func WithBeforeNext(o Options, f func()) Options {
	o.beforeNext = f
	return o
}
