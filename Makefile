# PixGate. `make run` starts the whole service on this machine; `make test`
# runs the whole suite against real Postgres and Redis.

GO      ?= go
BIN     := bin/pixgate
PKGS    := ./...

.PHONY: run build test check bench services migrate docs clean

## run: the whole service here (API, workers, sandbox provider), demo credentials printed
run: build services
	./$(BIN) dev

## build: the pixgate binary in bin/
build:
	$(GO) build -o $(BIN) ./cmd/pixgate

## test: formatting, vet, then every test with the race detector
test: services check
	$(GO) test -race -count=1 -timeout 8m $(PKGS)

## check: gofmt and go vet
check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

# tee hides go test's exit status: benchreport refuses output that reports a
# failure or lacks a benchmark, so docs/benchmarks.md is only replaced by a full run.
## bench: benchmarks against this machine's raw limits (Postgres, Redis, HTTP), medians in docs/benchmarks.md
bench: BENCH_MAIN = $(GO) test -run '^$$' -bench '^Benchmark(Raw|Reserve|API|MoneyParse|FeeCompute)' -benchmem -count 5 -benchtime 1s ./cmd/pixgate/
bench: BENCH_PIPELINE = $(GO) test -run '^$$' -bench '^BenchmarkChargePaidPipeline$$' -benchmem -count 5 -benchtime 30x ./cmd/pixgate/
bench: services
	@mkdir -p bin
	$(BENCH_MAIN) | tee bin/bench.txt
	$(BENCH_PIPELINE) | tee -a bin/bench.txt
	$(GO) run ./cmd/benchreport -command "$(BENCH_MAIN)" -command "$(BENCH_PIPELINE)" < bin/bench.txt > bin/benchmarks.md
	mv bin/benchmarks.md docs/benchmarks.md

## services: make sure Postgres and Redis answer (start them if installed here)
services:
	@deploy/scripts/services.sh

## migrate: create the database if missing and apply migrations
migrate: build services
	./$(BIN) migrate

## docs: regenerate the README's configuration table from the code
docs: build
	@./$(BIN) env --markdown > bin/config-table.md
	@awk 'BEGIN{skip=0} /<!-- config:begin -->/{print; while((getline l < "bin/config-table.md")>0) print l; skip=1; next} /<!-- config:end -->/{skip=0} !skip' README.md > bin/README.md && mv bin/README.md README.md
	@echo "README.md configuration table updated"

clean:
	rm -rf bin
