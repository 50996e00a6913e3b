# ycbcrkit: `make play` and `make test` are all a newcomer needs (both install what is missing).
SHELL := /bin/bash
GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
export PATH := $(dir $(GO)):$(PATH)
BIN := bin
OUT := out

.PHONY: all deps build nowindow lib engine-c engine-c-shaders play test fuzz vet fmt-check shaders clean layer

all: build

# Every Go build links FFmpeg 7.1 statically from the prefix scripts/build-ffmpeg.sh makes; this puts
# its pkg-config path (and the reference ffmpeg program's path) into the recipe's environment.
FFMPEG_ENV = eval "$$(scripts/build-ffmpeg.sh --env)"

deps:
	@scripts/install-deps.sh
	@scripts/build-ffmpeg.sh

# bin/: the programs (FFmpeg linked in; ldd lists the C runtime and the window's X11 libraries) and
# ffmpeg, the same build's reference program.
build: deps
	@mkdir -p $(BIN)
	@$(FFMPEG_ENV); $(GO) build -o $(BIN)/ ./cmd/... && cp -f "$$YCBCRKIT_FFMPEG" $(BIN)/ffmpeg

# bin/nowindow/: the same programs without GLFW (-tags nowindow), for machines with no display server
# and no X11 libraries (the GPU machines): ldd lists libc and libm only. Stripped, to travel light.
nowindow: deps
	@mkdir -p $(BIN)/nowindow
	@$(FFMPEG_ENV); $(GO) build -tags nowindow -ldflags=-s -o $(BIN)/nowindow/ ./cmd/... && cp -f "$$YCBCRKIT_FFMPEG" $(BIN)/nowindow/ffmpeg

# bin/lib/: libycbcrkit.so (package videotex behind a C ABI, capi/; FFmpeg linked in) and its header
# ycbcrkit.h. An engine builds with: cc engine.c -Ibin/lib -Lbin/lib -lycbcrkit -lvulkan
lib: deps
	@mkdir -p $(BIN)/lib
	@$(FFMPEG_ENV); $(GO) build -trimpath -buildmode=c-shared -ldflags=-s -o $(BIN)/lib/libycbcrkit.so ./capi && \
		rm -f $(BIN)/lib/libycbcrkit.h && cp capi/ycbcrkit.h $(BIN)/lib/

# bin/engine-c: the C example (examples/engine-c), with the system's cc against bin/lib. Its shaders
# are committed as C arrays; engine-c-shaders recompiles them (glslc).
ENGINE_C = examples/engine-c
engine-c: lib
	cc -std=c11 -O2 -Wall -Wextra -o $(BIN)/engine-c $(ENGINE_C)/main.c $(ENGINE_C)/png.c -I$(BIN)/lib \
		-L$(BIN)/lib -lycbcrkit -lvulkan -pthread -Wl,-rpath,'$$ORIGIN/lib'

engine-c-shaders:
	glslc -mfmt=c -o $(ENGINE_C)/quad.vert.inc $(ENGINE_C)/quad.vert
	glslc -mfmt=c -o $(ENGINE_C)/video.frag.inc $(ENGINE_C)/video.frag

# Plays the bundled clip: in a window when there is a display, headless otherwise; either way the
# last frame goes to out/play.png and the figures (-stats) to the terminal.
play: build
	@mkdir -p $(OUT)
	$(BIN)/ycbcrplay -stats -screenshot $(OUT)/play.png
	@echo "last frame: $(OUT)/play.png"

test: deps
	@scripts/test.sh

# Fuzzing proper: every fuzz target for FUZZTIME each (default 7s); make test runs their corpora.
fuzz: deps
	@scripts/fuzz.sh

vet:
	@$(FFMPEG_ENV); $(GO) vet ./...

fmt-check:
	@files=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$files" ]; then echo "gofmt needed: $$files"; exit 1; fi

# bin/layer/: the fault layer VK_LAYER_YCBCRKIT_faults (layers/faults; links only libc) and its
# manifests, for ycbcrcheck's planted-fault runs (docs/conformance/faults.md). LAYER= picks the folder.
LAYER ?= $(BIN)/layer
CC ?= cc
layer:
	@mkdir -p $(LAYER)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
		-o $(LAYER)/libVkLayer_ycbcrkit_faults.so layers/faults/faults.c -lpthread
	@cp layers/faults/*.json $(LAYER)/

# Recompiles GLSL to SPIR-V (glslc + spirv-val); commit the .spv files.
shaders:
	$(GO) generate ./shaders

clean:
	rm -rf $(BIN) $(OUT)
