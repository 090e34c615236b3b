package sandbox

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
)

// faultsWire is the JSON form of Faults on /sandbox/faults.
type faultsWire struct {
	LatencyMS               int      `json:"latency_ms"`
	ErrorRate               float64  `json:"error_rate"`
	TimeoutRate             float64  `json:"timeout_rate"`
	Outage                  bool     `json:"outage"`
	Routes                  []string `json:"routes"`
	DuplicateNotifications  int      `json:"duplicate_notifications"`
	OutOfOrderNotifications bool     `json:"out_of_order_notifications"`
	DropNotifications       bool     `json:"drop_notifications"`
	FailKeys                []string `json:"fail_keys"`
	AutoSettle              *bool    `json:"auto_settle"`
	SettleDelayMS           int      `json:"settle_delay_ms"`
	// ExpireTokens is an action, not a fault: it invalidates the tokens
	// issued so far and is not kept.
	ExpireTokens bool `json:"expire_tokens,omitempty"`
}

func toWire(f Faults) faultsWire {
	auto := !f.ManualSettle
	return faultsWire{
		LatencyMS: int(f.Latency / time.Millisecond), ErrorRate: f.ErrorRate, TimeoutRate: f.TimeoutRate,
		Outage: f.Outage, Routes: nonNil(f.Routes), DuplicateNotifications: f.DuplicateNotifications,
		OutOfOrderNotifications: f.OutOfOrderNotifications, DropNotifications: f.DropNotifications,
		FailKeys: nonNil(f.FailKeys), AutoSettle: &auto, SettleDelayMS: int(f.SettleDelay / time.Millisecond),
	}
}

func (w faultsWire) faults() Faults {
	return Faults{
		Latency: time.Duration(w.LatencyMS) * time.Millisecond, ErrorRate: w.ErrorRate, TimeoutRate: w.TimeoutRate,
		Outage: w.Outage, Routes: w.Routes, DuplicateNotifications: w.DuplicateNotifications,
		OutOfOrderNotifications: w.OutOfOrderNotifications, DropNotifications: w.DropNotifications,
		FailKeys: w.FailKeys, ManualSettle: w.AutoSettle != nil && !*w.AutoSettle,
		SettleDelay: time.Duration(w.SettleDelayMS) * time.Millisecond,
	}
}

func (w faultsWire) validate() validation {
	var v validation
	rate := func(field string, x float64) {
		if x < 0 || x > 1 {
			v.add(field, "must be between 0 and 1")
		}
	}
	between := func(field string, x, hi int) {
		if x < 0 || x > hi {
			v.add(field, "must be between 0 and "+strconv.Itoa(hi))
		}
	}
	rate("error_rate", w.ErrorRate)
	rate("timeout_rate", w.TimeoutRate)
	between("latency_ms", w.LatencyMS, 60_000)
	between("duplicate_notifications", w.DuplicateNotifications, 10)
	between("settle_delay_ms", w.SettleDelayMS, 600_000)
	return v
}

// handleSetFaults is POST /sandbox/faults: replaces the fault set; fields
// left out take their healthy value.
func (s *Sandbox) handleSetFaults(w http.ResponseWriter, r *http.Request) {
	var in faultsWire
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil && !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "malformed faults: "+err.Error())
		return
	}
	if v := in.validate(); v.failed() {
		v.write(w)
		return
	}
	s.SetFaults(in.faults())
	if in.ExpireTokens {
		s.ExpireTokens()
	}
	writeJSON(w, http.StatusOK, toWire(s.Faults()))
}

func (s *Sandbox) handleGetFaults(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, toWire(s.Faults()))
}

func (s *Sandbox) handleResetFaults(w http.ResponseWriter, _ *http.Request) {
	s.ResetFaults()
	writeJSON(w, http.StatusOK, toWire(s.Faults()))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
