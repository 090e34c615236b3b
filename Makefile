# PixGate. `make run` starts the whole service on this machine; `make test`
# runs the whole suite against real Postgres and Redis.

GO      ?= go
BIN     := bin/pixgate
PKGS    := ./...
# Modules of their own inside the tree, which ./... does not reach: the Go
# SDK (its tests run in make test through cmd/pixgate's TestGoSDK, against
# a pixgate dev).
SDK     := api/sdk
# The version pixgate reports (pixgate version, --version): the nearest tag
# and the commit, from git.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: run build image test offline check lint fuzz bench bench-reconcile chaos soak services clienttools migrate docs clean

## run: the whole service here (API, workers, sandbox provider), demo credentials printed
# A first build downloads the modules and compiles every package, minutes
# in which go build prints little or nothing: run says so first.
run:
	@echo "make run: building $(BIN); a first build downloads Go modules and compiles every package: a few minutes"
	@$(MAKE) --no-print-directory build services
	@echo "make run: starting pixgate dev; its banner, with the demo credentials, follows once it is up"
	./$(BIN) dev

## build: the pixgate binary in bin/
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/pixgate

## image: the container image, pixgate:$(VERSION), version stamped
image:
	docker build -f deploy/Dockerfile --build-arg VERSION=$(VERSION) -t pixgate:$(VERSION) .

# Test packages run TESTP at a time: each holds at most 16 Postgres
# connections (storagetest.ProcessConns), so the suite holds at most
# 16 x TESTP (README, Tests).
TESTP ?= 2
# Each test package's bound (go test -timeout). The slowest package,
# cmd/pixgate, starts a pixgate dev stack per end-to-end test, two at a
# time: 75-240 s on a two-core machine, and up to 9 minutes on one running
# fifteen times as much work as it has cores.
TESTTIMEOUT ?= 15m

## test: formatting, vet, then every test with the race detector, then the worker's decision tests with no network
test: services check clienttools
	$(GO) test -race -count=1 -p $(TESTP) -timeout $(TESTTIMEOUT) $(PKGS)
	deploy/scripts/offline.sh

## offline: the worker's decision tests (worker/**/decide*_test.go) in a network namespace of their own, with no network at all
offline:
	deploy/scripts/offline.sh

## check: gofmt and go vet (the SDK module too)
check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	cd $(SDK) && GOWORK=off $(GO) vet ./...

# staticcheck is pinned and installed into bin/ by the go toolchain itself.
STATICCHECK_VERSION := v0.8.2
STATICCHECK         := bin/staticcheck-$(STATICCHECK_VERSION)

$(STATICCHECK):
	@mkdir -p bin
	GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/staticcheck $@

# deadcode (golang.org/x/tools/cmd/deadcode) is pinned and installed the
# same way: it finds the functions no binary of the module reaches.
DEADCODE_VERSION := v0.52.0
DEADCODE         := bin/deadcode-$(DEADCODE_VERSION)

$(DEADCODE):
	@mkdir -p bin
	GOBIN=$(CURDIR)/bin $(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)
	mv bin/deadcode $@

## lint: go vet and staticcheck (pinned), both clean, the SDK module too; deadcode (pinned) finds nothing unreached; imports run one way
lint: $(STATICCHECK) $(DEADCODE)
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)
	cd $(SDK) && GOWORK=off $(GO) vet ./... && GOWORK=off $(CURDIR)/$(STATICCHECK) ./...
	deploy/scripts/deadcode.sh $(DEADCODE)
	deploy/scripts/layers.sh

# Every FuzzXxx target in the tree, FUZZTIME each. Their seeds (f.Add and
# testdata/fuzz) also run as plain tests in make test.
FUZZTIME ?= 15s

## fuzz: run every fuzz target for FUZZTIME (default 15s) each
fuzz:
	@set -e; for f in $$(git ls-files --cached --others --exclude-standard '*_test.go' | xargs grep -l '^func Fuzz'); do \
	  for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "== $$t ./$$(dirname $$f)"; \
	    $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) ./$$(dirname $$f); \
	  done; \
	done

# tee hides go test's exit status: benchreport refuses output that reports a
# failure or lacks a benchmark, so docs/benchmarks.md is only replaced by a full run.
## bench: benchmarks and the deployed stack under load, against this machine's raw limits, in docs/benchmarks.md
bench: BENCH_MAIN = $(GO) test -run '^$$' -bench '^Benchmark(Raw|Reserve|API|MoneyParse|FeeCompute)' -benchmem -count 5 -benchtime 1s ./cmd/pixgate/
bench: BENCH_PIPELINE = $(GO) test -run '^$$' -bench '^BenchmarkChargePaidPipeline$$' -benchmem -count 5 -benchtime 30x ./cmd/pixgate/
bench: BENCH_LOAD = $(GO) run ./cmd/pixgate-load -bin $(BIN) -out bin/load.md
bench: build services bench-reconcile
	@mkdir -p bin
	$(BENCH_MAIN) | tee bin/bench.txt
	$(BENCH_PIPELINE) | tee -a bin/bench.txt
	$(BENCH_LOAD)
	$(GO) run ./cmd/benchreport -command "$(BENCH_MAIN)" -command "$(BENCH_PIPELINE)" \
	  -load bin/load.md -load-command "$(BENCH_LOAD)" \
	  -reconcile bin/reconcile.txt -reconcile-command "$(BENCH_RECONCILE)" < bin/bench.txt > bin/benchmarks.md
	mv bin/benchmarks.md docs/benchmarks.md

# The reconciliation of a provider's day of a million transactions, alone in
# its own process: the peak memory it reports is its own.
BENCH_RECONCILE = $(GO) test -run '^$$' -bench '^BenchmarkReconcileDay$$' -benchtime 1x -count 1 -timeout 30m ./worker/statements/

## bench-reconcile: a provider's day of 1,000,000 statement lines reconciled, against a raw scan of the same rows, with the process's peak memory (bin/reconcile.txt; part of make bench)
bench-reconcile: services
	@mkdir -p bin
	$(BENCH_RECONCILE) | tee bin/reconcile.txt

## chaos: PixGate as deployed (its own Postgres and Redis, two sandboxes of two contracts, 2 api, 2 workers) under load and one fault after another, checked; the table in docs/reliability.md
chaos: build
	$(GO) run ./cmd/pixgate-chaos -bin $(BIN) -out docs/reliability.md

# The randomized run: SOAK_OPS operations at SOAK_RATE a second, drawn from a
# new seed, or from SEED=N to run a plan again (the seed is printed at the
# start and in the report).
SOAK_OPS  ?= 100000
SOAK_RATE ?= 50

## soak: the chaos run's deployment with a third provider (woovi) under operations, faults and route changes drawn from a seed, checked against the sandboxes' ledgers; its section of docs/reliability.md
soak: build
	$(GO) run ./cmd/pixgate-chaos -soak$(if $(SEED), -seed $(SEED)) -ops $(SOAK_OPS) -rate $(SOAK_RATE) -bin $(BIN) -out docs/reliability.md

## services: make sure Postgres and Redis answer (start them if installed here)
services:
	@deploy/scripts/services.sh

## clienttools: the client generators of docs/clients (npm) into bin/clients, for make test
clienttools:
	@deploy/scripts/clienttools.sh

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
