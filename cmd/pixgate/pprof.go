package main

import (
	"net/http"
	"net/http/pprof"
)

// withPprof serves Go's profiles under /debug/pprof/ beside h when
// PIXGATE_PPROF is set. It is for the admin listeners only (the api's
// metrics listener, the worker's side server), never the public port.
func (c *cli) withPprof(h http.Handler) http.Handler {
	if !c.cfg.Pprof {
		return h
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("/", h)
	return mux
}
