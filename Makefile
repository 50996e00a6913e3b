# ycbcrkit: `make play` and `make test` are all a newcomer needs (both install what is missing).
SHELL := /bin/bash
GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
export PATH := $(dir $(GO)):$(PATH)
BIN := bin
OUT := out

.PHONY: all deps build play test vet fmt-check shaders clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

# Plays the bundled clip: in a window when there is a display, headless otherwise; either way the
# last frame goes to out/play.png and the figures (-stats) to the terminal.
play: build
	@mkdir -p $(OUT)
	$(BIN)/ycbcrplay -stats -screenshot $(OUT)/play.png
	@echo "last frame: $(OUT)/play.png"

test: deps
	@scripts/test.sh

vet:
	$(GO) vet ./...

fmt-check:
	@files=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$files" ]; then echo "gofmt needed: $$files"; exit 1; fi

# Recompiles GLSL to SPIR-V (glslc + spirv-val); commit the .spv files.
shaders:
	$(GO) generate ./shaders

clean:
	rm -rf $(BIN) $(OUT)
