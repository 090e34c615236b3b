package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/cmd/internal/stack"
)

// archProviderName names the arch lifecycle's provider process, among the
// topology's processes and the components whose CPU a probe reads.
const archProviderName = "arch-provider"

// archNotifyDelay is how long after a send the provider notifies it
// settled (the sandbox's settlement delay in the harness).
const archNotifyDelay = time.Millisecond

// startArchProvider runs the arch lifecycle's provider, this binary again
// with -serve-arch-provider, and returns its base URL.
func (t *topology) startArchProvider(ctx context.Context, notifyURL string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	addrs, err := stack.FreeAddrs(1)
	if err != nil {
		return "", err
	}
	base := "http://" + addrs[0]
	p := &stack.Proc{Name: archProviderName, Path: self, Args: []string{"-serve-arch-provider", addrs[0], "-arch-notify", notifyURL},
		LogDir: t.logDir, Ready: stack.HTTPReady(base + "/healthz")}
	t.procs[archProviderName] = p
	return base, p.Start(ctx)
}

// archProvider is the minimal provider of the arch lifecycle: POST /sends
// takes a send (the same external_id is the same send) and answers its
// id, then POSTs its settlement to the notification URL shortly after;
// GET /sends/{id} is the consult.
type archProvider struct {
	notify string
	http   *http.Client
	mu     sync.Mutex
	sends  map[string]archNotice // provider id → the send
	byExt  map[string]string     // external_id → provider id
}

// serveArchProvider serves the arch provider on addr until ctx ends.
func serveArchProvider(ctx context.Context, addr, notify string) error {
	p := &archProvider{notify: notify, sends: map[string]archNotice{}, byExt: map[string]string{},
		http: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4 * bareClients, MaxConnsPerHost: 4 * bareClients}}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("POST /sends", p.send)
	mux.HandleFunc("GET /sends/{id}", p.consult)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (p *archProvider) send(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ExternalID string `json:"external_id"`
		Amount     int64  `json:"amount"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.ExternalID == "" || req.Amount <= 0 {
		http.Error(w, "bad send", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	id, repeated := p.byExt[req.ExternalID]
	if !repeated {
		id = uuid.NewString()
		p.byExt[req.ExternalID] = id
		p.sends[id] = archNotice{ID: id, ExternalID: req.ExternalID, Status: "COMPLETED"}
	}
	n := p.sends[id]
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(archNotice{ID: id, ExternalID: req.ExternalID, Status: "PROCESSING"})
	if !repeated {
		time.AfterFunc(archNotifyDelay, func() { p.notifyOf(n) })
	}
}

// notifyOf POSTs the send's settlement to the notification URL.
func (p *archProvider) notifyOf(n archNotice) {
	body, _ := json.Marshal(n)
	resp, err := p.http.Post(p.notify, "application/json", bytes.NewReader(body))
	if err != nil {
		log.Printf("notification of %s: %v", n.ID, err)
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		log.Printf("notification of %s: %d", n.ID, resp.StatusCode)
	}
}

func (p *archProvider) consult(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	n, ok := p.sends[r.PathValue("id")]
	p.mu.Unlock()
	if !ok {
		http.Error(w, "no such send", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(n)
}

// ServeArchProvider is the process -serve-arch-provider runs: the arch
// lifecycle's provider on addr, its notifications going to notify, until
// ctx ends.
func ServeArchProvider(ctx context.Context, addr, notify string) {
	if err := serveArchProvider(ctx, addr, notify); err != nil {
		fmt.Fprintln(os.Stderr, "arch provider:", err)
		os.Exit(1)
	}
}
