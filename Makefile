# rscheck: ResourceSync conformance validator and explorer.
#
#   make serve   build the WebAssembly app and serve the page on http://localhost:8080
#                (SERVE_FLAGS="--proxy --monitor --public-url URL" for the options)
#   make test    everything CI runs: format, vet, unit, libxml2 parity, end-to-end
#
# Targets install the Debian packages they need (.ci/install-deps) when missing.

GO       ?= go
ADDR     ?= 127.0.0.1:8080
SERVE_FLAGS ?=
FUZZTIME ?= 5m
PARITY_FUZZTIME ?= 10m

WASM     := web/static/rscheck.wasm
WASMEXEC := web/static/wasm_exec.js
GOSRC    := $(shell find . -name '*.go' -not -path './e2e/*' 2>/dev/null) $(wildcard schemas/*.xsd) go.mod go.sum

.PHONY: all serve test check unit parity e2e wasm bench bench-browser bench-wasm bench-monitor fuzz generate deps-xml deps-browser clean

all: check unit wasm

## serve: build the WASM app and run the static server (Ctrl-C stops it).
# Built, then run: under go run, Ctrl-C would end in "Error 1" (go run
# exits 1 when interrupted, whatever its program does).
serve: wasm
	$(GO) build -o bin/serve ./cmd/serve
	./bin/serve --addr $(ADDR) $(SERVE_FLAGS)

## test: the whole suite, as CI runs it (.ci/run).
test: deps-xml deps-browser check unit parity e2e

## check: formatting, vet (native, libxml2 tag, js/wasm), generated docs up to date.
check: deps-xml
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags libxml2 ./...
	GOOS=js GOARCH=wasm $(GO) vet ./validator/... ./schemas/... ./explorer/... ./wasm/...

## unit: all Go tests (no build tags) but the browser ones, which e2e runs.
unit:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v '/e2e$$')

## parity: verdict parity with libxml2 (build tag libxml2, needs libxml2-dev):
## the packages that have libxml2-tagged tests.
PARITY_PKGS := ./validator/xmlscan ./validator/xsd/...
parity: deps-xml
	$(GO) test -count=1 -tags libxml2 $(PARITY_PKGS)

## e2e: chromedp tests in headless Chromium against cmd/serve.
e2e: deps-browser wasm
	$(GO) test -count=1 ./e2e/...

## wasm: the browser build (-s -w), and its gzipped size.
wasm: $(WASM) $(WASMEXEC)

$(WASM): $(GOSRC)
	@mkdir -p $(dir $@)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $@ ./wasm
	@gzip -9 -c $@ | wc -c | awk '{ printf "$(WASM): %.2f MB gzipped\n", $$1 / 1048576 }'

# wasm_exec.js must match the Go that built the module: refresh it with Go.
$(WASMEXEC): $(shell $(GO) env GOROOT)/lib/wasm/wasm_exec.js
	@mkdir -p $(dir $@)
	cp "$<" $@

## bench: benchmarks against the named peers, in one run (see docs/performance.md).
bench: deps-xml
	./bench/run.sh

## bench-browser: the browser app against xmllint-wasm in headless Chromium (needs npm).
bench-browser: deps-browser
	./bench/browser/run.sh

## bench-wasm: the WebAssembly build under Node, timed and profiled.
bench-wasm:
	./bench/wasm/run.sh profile

## bench-monitor: notification latency from the Source to the monitor, then to the page's feed in headless Chromium.
bench-monitor: deps-browser
	$(GO) run ./bench/monitor -n 1000
	$(GO) run ./bench/monitor-page -n 1000

## fuzz: every fuzz target for FUZZTIME each; the libxml2 differential one for PARITY_FUZZTIME.
fuzz: deps-xml
	$(GO) test -run '^$$' -fuzz '^FuzzScanner$$' -fuzztime $(FUZZTIME) ./validator/xmlscan
	$(GO) test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(FUZZTIME) ./validator
	$(GO) test -run '^$$' -fuzz '^FuzzParseLinkHeader$$' -fuzztime $(FUZZTIME) ./explorer
	$(GO) test -tags libxml2 -run '^$$' -fuzz '^FuzzEngineVsLibxml2$$' -fuzztime $(PARITY_FUZZTIME) ./validator/xsd/parity

## generate: regenerate docs/rules.md and other generated files.
generate:
	$(GO) generate ./...

deps-xml:
	@./.ci/install-deps xml

deps-browser:
	@./.ci/install-deps browser

clean:
	rm -f $(WASM) $(WASM).br $(WASMEXEC)
	rm -rf bench/out e2e/testdata/failures validator/xsd/parity/testdata/failures
	$(GO) clean -testcache
