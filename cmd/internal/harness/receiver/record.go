package receiver

import (
	"strconv"
	"time"
)

// record notes one verified, well-formed delivery of ev under webhook id.
func (r *Receiver) record(ev Event, id, externalID string, arrived time.Time, fail bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts++
	d := r.events[ev]
	if d == nil {
		d = &Delivery{IDs: map[string]bool{}, First: arrived}
		r.events[ev] = d
	}
	d.IDs[id] = true
	if fail {
		r.failed++
	} else {
		d.Delivered = true
	}
	if _, seen := r.first[ev.ID]; !seen {
		r.resources++
	}
	r.arrive(ev.ID, arrived)
	if externalID != "" {
		r.arrive("ext:"+externalID, arrived)
	}
}

// arrive notes key's first arrival and wakes its waiter; r.mu is held.
func (r *Receiver) arrive(key string, at time.Time) {
	if _, seen := r.first[key]; seen {
		return
	}
	r.first[key] = at
	if ch, ok := r.waiters[key]; ok {
		close(ch)
		delete(r.waiters, key)
	}
}

func (r *Receiver) note(list *[]string, s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(*list) < 20 {
		*list = append(*list, s)
	}
}

// Snapshot is a copy of what the receiver saw.
type Snapshot struct {
	Events map[Event]*Delivery
	// Attempts are the verified, well-formed deliveries; Failed those
	// answered 500 on purpose.
	Attempts, Failed int
	// Forged and Malformed are the first deliveries that did not verify,
	// or verified but said too little.
	Forged, Malformed []string
}

// Snapshot copies what the receiver saw.
func (r *Receiver) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	events := make(map[Event]*Delivery, len(r.events))
	for k, d := range r.events {
		ids := make(map[string]bool, len(d.IDs))
		for id := range d.IDs {
			ids[id] = true
		}
		events[k] = &Delivery{IDs: ids, Delivered: d.Delivered, First: d.First}
	}
	return Snapshot{Events: events, Attempts: r.attempts, Failed: r.failed,
		Forged: append([]string(nil), r.forged...), Malformed: append([]string(nil), r.malformed...)}
}

// Counts are the resources whose postback arrived, and the deliveries in
// all.
func (r *Receiver) Counts() (resources, deliveries int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.resources, r.attempts
}

// Arrival is when the first postback about resource id arrived.
func (r *Receiver) Arrival(id string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	at, ok := r.first[id]
	return at, ok
}

// ArrivalExt is when the first postback about the resource with the
// external id ext arrived.
func (r *Receiver) ArrivalExt(ext string) (time.Time, bool) { return r.Arrival("ext:" + ext) }

// WaitExt is closed when the first postback about the resource with the
// external id ext has arrived.
func (r *Receiver) WaitExt(ext string) <-chan struct{} {
	key := "ext:" + ext
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	if _, seen := r.first[key]; seen {
		close(ch)
		return ch
	}
	if old, ok := r.waiters[key]; ok {
		return old
	}
	r.waiters[key] = ch
	return ch
}

// hang is one integrator's endpoint hanging, until release is closed.
type hang struct {
	integrator string
	release    chan struct{}
}

// HangOn makes integrator index's endpoint hang: every delivery to it is
// held unanswered until HangOff, then answered 503.
func (r *Receiver) HangOn(index int) {
	r.hung.Store(&hang{integrator: strconv.Itoa(index), release: make(chan struct{})})
}

// HangOff ends the hang.
func (r *Receiver) HangOff() {
	if h := r.hung.Swap(nil); h != nil {
		close(h.release)
	}
}
