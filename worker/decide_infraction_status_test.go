package worker

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// Each status a provider reports maps to storage's by name, one by one;
// any other is an error, never stored as it came.
func TestInfractionStatusFromProvider(t *testing.T) {
	tests := []struct {
		from providerclient.InfractionStatus
		want storage.InfractionStatus
		err  bool
	}{
		{providerclient.InfractionOpen, storage.InfractionOpen, false},
		{providerclient.InfractionAgreed, storage.InfractionAgreed, false},
		{providerclient.InfractionDisagreed, storage.InfractionDisagreed, false},
		{providerclient.InfractionCancelled, storage.InfractionCancelled, false},
		{"ACKNOWLEDGED", "", true}, // the DICT's, folded into OPEN by the adapters
		{"CLOSED", "", true},
		{"open", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		got, err := infractionStatus(tt.from)
		if got != tt.want || (err != nil) != tt.err || (err != nil && !errors.Is(err, errInfractionStatus)) {
			t.Errorf("infractionStatus(%q) = %q, %v; want %q, error %v", tt.from, got, err, tt.want, tt.err)
		}
	}
	if len(infractionStatuses) != len(storage.InfractionStatuses) {
		t.Errorf("%d provider statuses mapped for %d of storage's", len(infractionStatuses), len(storage.InfractionStatuses))
	}
}

// An infraction in a status PixGate does not know is ignored: nothing is
// recorded, no money blocked.
func TestUnknownInfractionStatusIsIgnored(t *testing.T) {
	w, st, _, c := medWorker(t)
	o, err := w.applyInfraction(context.Background(), providerclient.DefaultName, &providerclient.Infraction{ProviderID: "inf-9",
		Charge: providerclient.Ref{ProviderID: *c.PixID}, Amount: 100, Status: "ACKNOWLEDGED"}, nil)
	if err != nil || o.kind != ignored || len(st.infractions) != 0 || len(st.postings) != 0 {
		t.Fatalf("outcome %v, %v; %d infractions, postings %v", o, err, len(st.infractions), st.postings)
	}
}
