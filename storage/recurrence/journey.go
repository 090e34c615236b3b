package recurrence

// Journey is how the payer is asked to consent: the BCB's four
// (ativacao.tipoJornada [API Pix]).
type Journey string

// Journeys.
const (
	// JourneyPush (JORNADA_1): the request reaches the payer's bank app
	// from the payer's data ("notificação externa ao ecossistema"; the
	// receiver's bank sends a solicrec to the payer's account).
	JourneyPush Journey = "PUSH"
	// JourneyQR (JORNADA_2): a QR Code of the recurrence alone.
	JourneyQR Journey = "QR"
	// JourneyQRWithPayment (JORNADA_3): a QR Code of an immediate charge and
	// the recurrence; paying it consents ("leitura de QR Code composto e
	// pagamento de cobrança imediata"). Woovi's PAYMENT_ON_APPROVAL
	// ([Woovi] pix-automatic-how-to-create.md).
	JourneyQRWithPayment Journey = "QR_WITH_PAYMENT"
	// JourneyQRWithDuePayment (JORNADA_4): a QR Code of a due-date charge
	// (a cobv) and the recurrence.
	JourneyQRWithDuePayment Journey = "QR_WITH_DUE_PAYMENT"
)

// Journeys lists them in the BCB's order.
var Journeys = []Journey{JourneyPush, JourneyQR, JourneyQRWithPayment, JourneyQRWithDuePayment}

var journeyBCB = map[Journey]string{
	JourneyPush: "JORNADA_1", JourneyQR: "JORNADA_2",
	JourneyQRWithPayment: "JORNADA_3", JourneyQRWithDuePayment: "JORNADA_4",
}

// Valid reports whether j is one of the four.
func (j Journey) Valid() bool { return journeyBCB[j] != "" }

// BCB is j's name in ativacao.tipoJornada.
func (j Journey) BCB() string { return journeyBCB[j] }

// HasQR reports whether the journey gives the integrator a QR Code.
func (j Journey) HasQR() bool { return j.Valid() && j != JourneyPush }

// PaysFirstCycle reports whether the journey's own charge pays cycle 0:
// the immediate charge of journey 3 (so its calendar starts on the day it
// is created: the rec's dataInicial is the "data estimada de primeiro
// pagamento", and Woovi asks PAYMENT_ON_APPROVAL's first charge date to be
// "o dia atual", [Woovi] pix-automatic-how-to-create.md) and the due-date
// charge of journey 4 (due on the calendar's start). The later cycles are
// charged as the other journeys' all are.
func (j Journey) PaysFirstCycle() bool {
	return j == JourneyQRWithPayment || j == JourneyQRWithDuePayment
}
