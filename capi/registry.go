package main

import (
	"sync"
)

// registry maps the numbers C holds (yk_engine.id, yk_texture.id, yk_frame.id) to Go objects, so
// that no Go pointer crosses into C (cgo's pointer rules). Numbers are never reused: a stale or
// made-up one finds nothing (YK_ERROR_INVALID_HANDLE) instead of another object, or a panic as
// cgo.Handle.Value would give.
type registry struct {
	mu   sync.Mutex
	next uint64
	objs map[uint64]any
}

var handles = registry{objs: map[uint64]any{}}

func (r *registry) add(v any) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	r.objs[r.next] = v
	return r.next
}

func (r *registry) get(id uint64) any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.objs[id]
}

func (r *registry) remove(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.objs, id)
}

// lookup is the object id names, if it is a T.
func lookup[T any](id uint64) (T, bool) {
	v, ok := handles.get(id).(T)
	return v, ok
}
