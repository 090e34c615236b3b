package fleet

import (
	"fmt"
	"testing"
)

func TestChargeVerdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want Verdict
	}{
		{"created", nil, Done},
		{"connection refused", errRefused, MoveOn},
		{"breaker open", errOpen, MoveOn},
		{"bulkhead full", errFull, MoveOn},
		{"503, documented as nothing done", err503, MoveOn},
		{"429, documented as nothing done", err429, MoveOn},
		{"charges not offered", errNoCharge, MoveOn},
		{"timeout after sending", errTimeout, ReadFirst},
		{"unclassified", errOther, ReadFirst},
		{"wrapped timeout", fmt.Errorf("charge: %w", errTimeout), ReadFirst},
		{"rejected", errRejected, Final},
		{"404 on create", errNotFound, Final},
	} {
		if got := ChargeVerdict(tc.err); got != tc.want {
			t.Errorf("%s: ChargeVerdict = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestReadVerdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want Verdict
	}{
		{"proved absent: no record", errAbsent, MoveOn},
		{"a bare 404 proves nothing", errNotFound, Stay},
		{"found", nil, Stay},
		{"refused", errRefused, Stay},
		{"503", err503, Stay},
		{"timeout", errTimeout, Stay},
		{"breaker open", errOpen, Stay},
		{"rejected (cannot be read by this id)", errRejected, Stay},
	} {
		if got := ReadVerdict(tc.err); got != tc.want {
			t.Errorf("%s: ReadVerdict = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestPayoutVerdict(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		firstSend bool
		want      Verdict
	}{
		{"sent", nil, true, Done},
		{"refused, nothing held", errRefusedAbsent, true, MoveOn},
		{"refused, nothing held, on a later send", errRefusedAbsent, false, MoveOn},
		{"refused without proof (maybe: the id was used)", errRejected, true, Stay},
		{"refused without proof, on a later send", errRejected, false, Stay},
		{"a bare 404 on a send", errNotFound, false, Stay},
		{"not offered", errNoCharge, false, MoveOn},
		{"refused, first send", errRefused, true, MoveOn},
		{"breaker open, first send", errOpen, true, MoveOn},
		{"bulkhead full, first send", errFull, true, MoveOn},
		{"refused, a later send: an earlier one may have paid", errRefused, false, ReadFirst},
		{"breaker open, a later send", errOpen, false, ReadFirst},
		{"bulkhead full, a later send", errFull, false, ReadFirst},
		{"timeout", errTimeout, true, Stay},
		{"503 on a payout", err503, true, Stay},
		{"429 on a payout", err429, true, Stay},
		{"unclassified", errOther, true, Stay},
	} {
		if got := PayoutVerdict(tc.err, tc.firstSend); got != tc.want {
			t.Errorf("%s: PayoutVerdict = %d, want %d", tc.name, got, tc.want)
		}
	}
}
