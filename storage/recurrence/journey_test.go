package recurrence

import "testing"

// ativacao.tipoJornada: JORNADA_1 to JORNADA_4 (API Pix, RecAtivacao).
func TestJourneys(t *testing.T) {
	tests := []struct {
		j            Journey
		bcb          string
		qr, payFirst bool
	}{
		{JourneyPush, "JORNADA_1", false, false},
		{JourneyQR, "JORNADA_2", true, false},
		{JourneyQRWithPayment, "JORNADA_3", true, true},
		{JourneyQRWithDuePayment, "JORNADA_4", true, true},
	}
	for _, tc := range tests {
		if !tc.j.Valid() || tc.j.BCB() != tc.bcb || tc.j.HasQR() != tc.qr || tc.j.PaysFirstCycle() != tc.payFirst {
			t.Errorf("%s: valid %v, %s, QR %v, pays the first cycle %v", tc.j, tc.j.Valid(), tc.j.BCB(), tc.j.HasQR(), tc.j.PaysFirstCycle())
		}
	}
	if Journey("AGUARDANDO_DEFINICAO").Valid() || Journey("").HasQR() {
		t.Error("an unknown journey is valid or has a QR Code")
	}
}
