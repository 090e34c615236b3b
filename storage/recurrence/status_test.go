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

func TestCycleTransitions(t *testing.T) {
	tests := []struct {
		from    CycleStatus
		event   CycleEvent
		to      CycleStatus
		wantErr error
	}{
		{CycleScheduled, CycleSend, CycleCreated, nil},
		{CycleScheduled, CycleCancel, CycleCancelled, nil},
		{CycleScheduled, CycleFail, CycleFailed, nil},
		{CycleCreated, CycleAccept, CycleActive, nil},
		{CycleCreated, CyclePay, CyclePaid, nil}, // read before its ATIVA
		{CycleCreated, CycleReject, CycleRejected, nil},
		{CycleCreated, CycleExpire, CycleExpired, nil},
		{CycleCreated, CycleCancel, CycleCancelled, nil},
		{CycleActive, CyclePay, CyclePaid, nil},
		{CycleActive, CycleReject, CycleRejected, nil},
		{CycleActive, CycleExpire, CycleExpired, nil},
		{CycleActive, CycleCancel, CycleCancelled, nil},
		{CyclePaid, CyclePay, CyclePaid, ErrRepeated},
		{CycleActive, CycleAccept, CycleActive, ErrRepeated},
		// A paid cycle is never rejected or cancelled: its money is in the
		// ledger; a refund goes through its charge.
		{CyclePaid, CycleReject, CyclePaid, ErrTransition},
		{CyclePaid, CycleCancel, CyclePaid, ErrTransition},
		{CycleExpired, CyclePay, CycleExpired, ErrTransition},
		{CycleScheduled, CyclePay, CycleScheduled, ErrTransition},
		{CycleFailed, CycleSend, CycleFailed, ErrTransition},
	}
	for _, tc := range tests {
		to, err := tc.from.Transition(tc.event)
		if to != tc.to || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s + %s = %s, %v; want %s, %v", tc.from, tc.event, to, err, tc.to, tc.wantErr)
		}
	}
}

func TestAttemptTransitions(t *testing.T) {
	tests := []struct {
		from    AttemptStatus
		event   AttemptEvent
		to      AttemptStatus
		wantErr error
	}{
		{AttemptRequested, AttemptSchedule, AttemptScheduled, nil},
		{AttemptRequested, AttemptPay, AttemptPaid, nil},
		{AttemptRequested, AttemptReject, AttemptRejected, nil},
		{AttemptRequested, AttemptExpire, AttemptExpired, nil},
		{AttemptRequested, AttemptCancel, AttemptCancelled, nil},
		{AttemptScheduled, AttemptPay, AttemptPaid, nil},
		{AttemptScheduled, AttemptReject, AttemptRejected, nil},
		{AttemptScheduled, AttemptExpire, AttemptExpired, nil},
		{AttemptScheduled, AttemptCancel, AttemptCancelled, nil},
		{AttemptPaid, AttemptPay, AttemptPaid, ErrRepeated},
		{AttemptPaid, AttemptReject, AttemptPaid, ErrTransition},
		{AttemptRejected, AttemptSchedule, AttemptRejected, ErrTransition},
		{AttemptExpired, AttemptPay, AttemptExpired, ErrTransition},
	}
	for _, tc := range tests {
		to, err := tc.from.Transition(tc.event)
		if to != tc.to || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s + %s = %s, %v; want %s, %v", tc.from, tc.event, to, err, tc.to, tc.wantErr)
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
	if CycleStatus("").Valid() || AttemptStatus("").Open() {
		t.Error("empty status is valid or open")
	}
	var te *TransitionError
	_, err := CycleScheduled.Transition(CyclePay)
	if !errors.As(err, &te) || te.Kind != "cycle" || te.From != "SCHEDULED" || te.Event != "pay" {
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
	for _, s := range []CycleStatus{CyclePaid, CycleExpired, CycleRejected, CycleCancelled, CycleFailed} {
		if !s.Final() {
			t.Errorf("%s is not final", s)
		}
	}
	for _, s := range []CycleStatus{CycleScheduled, CycleCreated, CycleActive} {
		if s.Final() {
			t.Errorf("%s is final", s)
		}
	}
	for s, open := range map[AttemptStatus]bool{AttemptRequested: true, AttemptScheduled: true, AttemptPaid: false, AttemptRejected: false, AttemptExpired: false, AttemptCancelled: false} {
		if s.Open() != open {
			t.Errorf("%s.Open() = %v", s, !open)
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
	for _, name := range []string{"CRIADA", "ATIVA", "CONCLUIDA", "EXPIRADA", "REJEITADA", "CANCELADA"} {
		s, ok := CycleStatusFromBCB(name)
		if !ok || s.BCB() != name {
			t.Errorf("CobRStatus %s: %s, %v", name, s, ok)
		}
	}
	for _, name := range []string{"SOLICITADA", "AGENDADA", "PAGA", "CANCELADA", "REJEITADA", "EXPIRADA"} {
		s, ok := AttemptStatusFromBCB(name)
		if !ok || s.BCB() != name {
			t.Errorf("tentativa %s: %s, %v", name, s, ok)
		}
	}
	if RecurrenceCompleted.BCB() != "" || CycleScheduled.BCB() != "" || CycleFailed.BCB() != "" {
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

// tentativas[].tipo: only the retries the receiver asks count.
func TestAttemptKinds(t *testing.T) {
	for k, counts := range map[AttemptKind]bool{AttemptFirst: false, AttemptRetry: true, AttemptResend: false} {
		if k.CountsAsRetry() != counts {
			t.Errorf("%s.CountsAsRetry() = %v", k, !counts)
		}
	}
}
