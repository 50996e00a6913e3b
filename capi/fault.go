//go:build ycbcrkit_faults

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Test builds only (-tags ycbcrkit_faults, as make test builds): YCBCRKIT_FAULT=call:result:afterN,...
// makes the library report a Vulkan failure (vkx.InjectFault) from its afterN+1-th check of each
// call on, so that a C program's handling of YK_ERROR_DEVICE_LOST can be tested (capi_test.go).
func init() {
	env := os.Getenv("YCBCRKIT_FAULT")
	if env == "" {
		return
	}
	for _, f := range strings.Split(env, ",") {
		parts := strings.Split(f, ":")
		if len(parts) == 3 {
			res, err1 := strconv.Atoi(parts[1])
			after, err2 := strconv.Atoi(parts[2])
			if err1 == nil && err2 == nil {
				vkx.InjectFault(parts[0], vk.Result(res), after)
				continue
			}
		}
		fmt.Fprintf(os.Stderr, "libycbcrkit: bad YCBCRKIT_FAULT %q: want call:result:afterN,...\n", f)
	}
}
