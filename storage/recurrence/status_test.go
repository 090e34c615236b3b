package recurrence

import (
	"errors"
	"testing"
)

// Every transition of the three tables, and what each refuses. The BCB's
// states are RecStatus, CobRStatus and tentativas[].status of the API Pix
// 2.9.0 (providerclient/bcbpix/bcbpixtest/testdata/openapi.yaml).
func TestRecurrenceTransitions(t *testing.T) {
	tests := []struct {
		from    RecurrenceStatus
		event   RecurrenceEvent
		to      RecurrenceStatus
		wantErr error
	}{
		{RecurrenceCreated, RecurrenceApprove, RecurrenceApproved, nil},
		{RecurrenceCreated, RecurrenceReject, RecurrenceRejected, nil},
		{RecurrenceCreated, RecurrenceExpire, RecurrenceExpired, nil},
		{RecurrenceCreated, RecurrenceCancel, RecurrenceCancelled, nil},
		{RecurrenceCreated, RecurrenceFail, RecurrenceFailed, nil},
		{RecurrenceApproved, RecurrenceCancel, RecurrenceCancelled, nil},
		{RecurrenceApproved, RecurrenceComplete, RecurrenceCompleted, nil},
		{RecurrenceFailed, RecurrenceReissue, RecurrenceCreated, nil},
		// A repeated notification: already there.
		{RecurrenceApproved, RecurrenceApprove, RecurrenceApproved, ErrRepeated},
		{RecurrenceCancelled, RecurrenceCancel, RecurrenceCancelled, ErrRepeated},
		// The BCB refuses to change a recurrence "expirada, cancelada ou
		// rejeitada" (PATCH /rec/{idRec}, RecOperacaoInvalida).
		{RecurrenceExpired, RecurrenceCancel, RecurrenceExpired, ErrTransition},
		{RecurrenceRejected, RecurrenceApprove, RecurrenceRejected, ErrTransition},
		{RecurrenceCancelled, RecurrenceApprove, RecurrenceCancelled, ErrTransition},
		// A consent given cannot be withdrawn into a rejection or an expiry.
		{RecurrenceApproved, RecurrenceReject, RecurrenceApproved, ErrTransition},
		{RecurrenceApproved, RecurrenceExpire, RecurrenceApproved, ErrTransition},
		{RecurrenceCompleted, RecurrenceCancel, RecurrenceCompleted, ErrTransition},
		{RecurrenceCreated, RecurrenceComplete, RecurrenceCreated, ErrTransition},
	}
	for _, tc := range tests {
		to, err := tc.from.Transition(tc.event)
		if to != tc.to || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s + %s = %s, %v; want %s, %v", tc.from, tc.event, to, err, tc.to, tc.wantErr)
		}
		if tc.wantErr == ErrTransition && errors.Is(err, ErrRepeated) {
			t.Errorf("%s + %s: a refusal reported as a repeat", tc.from, tc.event)
		}
	}
}

func TestUnknownStatusRefusesEverything(t *testing.T) {
	if _, err := RecurrenceStatus("ATIVA").Transition(RecurrenceCancel); !errors.Is(err, ErrTransition) {
		t.Errorf("unknown recurrence status: %v", err)
	}
	if RecurrenceStatus("ATIVA").Valid() || RecurrenceStatus("ATIVA").Final() {
		t.Error("unknown recurrence status is valid or final")
	}
	if RecurrenceStatus("").Valid() {
		t.Error("empty status is valid")
	}
	var te *TransitionError
	_, err := RecurrenceRejected.Transition(RecurrenceApprove)
	if !errors.As(err, &te) || te.Kind != "recurrence" || te.From != "REJECTED" || te.Event != "approve" {
		t.Errorf("error %#v does not name the record, status and event", err)
	}
}

func TestFinalStatuses(t *testing.T) {
	final := map[RecurrenceStatus]bool{
		RecurrenceCreated: false, RecurrenceApproved: false, RecurrenceFailed: false,
		RecurrenceRejected: true, RecurrenceExpired: true, RecurrenceCancelled: true, RecurrenceCompleted: true,
	}
	for s, want := range final {
		if s.Final() != want {
			t.Errorf("%s.Final() = %v", s, !want)
		}
	}
}

// The BCB's names, both ways: each of the BCB's enum values maps to one
// PixGate status and back.
func TestBCBNames(t *testing.T) {
	for _, name := range []string{"CRIADA", "APROVADA", "REJEITADA", "EXPIRADA", "CANCELADA"} {
		s, ok := RecurrenceStatusFromBCB(name)
		if !ok || s.BCB() != name {
			t.Errorf("RecStatus %s: %s, %v", name, s, ok)
		}
	}
	if RecurrenceCompleted.BCB() != "" || RecurrenceFailed.BCB() != "" {
		t.Error("PixGate's own statuses have a BCB name")
	}
	if _, ok := RecurrenceStatusFromBCB("ATIVA"); ok {
		t.Error("ATIVA is no recurrence status")
	}
	for _, name := range []string{"USUARIO_PAGADOR", "PSP_PAGADOR", "USUARIO_RECEBEDOR", "PSP_RECEBEDOR"} {
		p, ok := PartyFromBCB(name)
		if !ok || p.BCB() != name {
			t.Errorf("solicitante %s: %s, %v", name, p, ok)
		}
	}
}
