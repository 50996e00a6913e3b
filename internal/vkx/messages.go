package vkx

/*
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Messenger is a VkDebugUtilsMessengerEXT.
type Messenger uint64

// CreateDebugMessenger routes an instance's validation messages into the process-wide queue that
// Messages drains.
func CreateDebugMessenger(instance vk.Instance) (Messenger, error) {
	var m C.VkDebugUtilsMessengerEXT
	err := Check(vk.Result(C.vkx_create_debug_messenger(cInstance(instance), &m)), "vkCreateDebugUtilsMessengerEXT")
	return *(*Messenger)(unsafe.Pointer(&m)), err
}

// DestroyDebugMessenger removes a messenger made by CreateDebugMessenger.
func DestroyDebugMessenger(instance vk.Instance, m Messenger) {
	if m != 0 {
		C.vkx_destroy_debug_messenger(cInstance(instance), *(*C.VkDebugUtilsMessengerEXT)(unsafe.Pointer(&m)))
	}
}

// Message is one validation-layer message.
type Message struct {
	Error bool
	Text  string
}

// Messages drains the queued validation messages.
func Messages() []Message {
	for {
		need := C.vkx_take_messages(nil, 0, nil, nil)
		if need == 0 {
			return nil
		}
		buf := C.malloc(C.size_t(need))
		var count, nerr C.int
		got := C.vkx_take_messages((*C.char)(buf), need, &count, &nerr)
		if got > need { // more arrived between the two calls: try again with a larger buffer
			C.free(buf)
			continue
		}
		raw := C.GoStringN((*C.char)(buf), got)
		C.free(buf)
		var out []Message
		for _, s := range strings.Split(strings.TrimRight(raw, "\x00"), "\x00") {
			if s == "" {
				continue
			}
			out = append(out, Message{Error: strings.HasPrefix(s, "error: "), Text: s})
		}
		return out
	}
}

// ForeignImage registers img as an image FFmpeg created (messages.c says which validation message
// about it is left out rather than reported).
func ForeignImage(img vk.Image) {
	C.vkx_foreign_image(C.uint64_t(uintptr(unsafe.Pointer(cImage(img)))))
}
