package recurrence

// RejectionCode is why the payer's bank rejected an attempt or a cycle:
// the BCB's catalogue codes that tentativas[].rejeicao.codigo and the
// cobr's encerramento.rejeicao.codigo list [API Pix].
type RejectionCode string

// rejections is every code the schema lists, true for those that end the
// cycle: "Os códigos de rejeição da tentativa AC05, AM09, DENC, DS27,
// DTED, MIDI, MSUC, NITX, RC09 ... causam a rejeição da cobrança
// recorrente correspondente" (CobRTentativas). After any other, the cycle
// is retried as its policy allows. The meanings noted are Celcoin's table
// (developers.celcoin.com.br/docs/motivos-de-rejeição-pelo-participante-pagador);
// the schema gives none. No code ends the recurrence: the BCB
// ends one by its own status (REJEITADA or CANCELADA, with a code in
// encerramento), which PixGate reads from the provider.
var rejections = map[RejectionCode]bool{
	"AB10": false, // an error at the payer's bank
	"AC05": true,  // the payer's account is closed
	"AC06": false, // the payer's account is blocked
	"AM02": false, // above the payer's maximum
	"AM09": true,  // not the recurrence's amount
	"DENC": true,  // the payer's CPF/CNPJ is not the recurrence's
	"DS27": true,  // a participant not registered in the SPI
	"DTED": true,
	"DTNT": false,
	"FBRD": false,
	"IRNT": false,
	"MIDI": true,
	"MSUC": true,
	"NIEC": false,
	"NIPA": false,
	"NITX": true,
	"QUNT": false,
	"RC09": true,
	"UDEI": false,
}

// Known reports whether c is a code the schema lists.
func (c RejectionCode) Known() bool {
	_, ok := rejections[c]
	return ok
}

// EndsCycle reports whether c ends its cycle (REJECTED) rather than leave
// it to the retry policy. A code the schema does not list ends the cycle
// too (PixGate's choice: retrying what nobody described could bring the
// same rejection three more times, with three notices to the payer).
func (c RejectionCode) EndsCycle() bool {
	ends, ok := rejections[c]
	return ends || !ok
}

// RecurrenceRejectionCodes are the codes of a recurrence the payer
// refused (encerramento.rejeicao.codigo: AP13, AP14 [API Pix]).
var RecurrenceRejectionCodes = []string{"AP13", "AP14"}

// Party is who cancelled a recurrence or a cycle (encerramento
// .cancelamento.solicitante [API Pix]).
type Party string

// Parties.
const (
	PartyPayer           Party = "PAYER"      // USUARIO_PAGADOR
	PartyPayerBank       Party = "PAYER_BANK" // PSP_PAGADOR
	PartyIntegrator      Party = "INTEGRATOR" // USUARIO_RECEBEDOR
	PartyReceiverBank    Party = "PROVIDER"   // PSP_RECEBEDOR
	partyBCBPayer              = "USUARIO_PAGADOR"
	partyBCBPayerBank          = "PSP_PAGADOR"
	partyBCBIntegrator         = "USUARIO_RECEBEDOR"
	partyBCBReceiverBank       = "PSP_RECEBEDOR"
)

var partyBCB = map[Party]string{
	PartyPayer: partyBCBPayer, PartyPayerBank: partyBCBPayerBank,
	PartyIntegrator: partyBCBIntegrator, PartyReceiverBank: partyBCBReceiverBank,
}

// IntegratorCancelCode is the code of a recurrence its receiver
// cancelled, as the BCB's own example writes it (API Pix 2.9.0, example
// recResponse5: solicitante USUARIO_RECEBEDOR, codigo SLCR). PixGate
// gives it to an integrator's cancel whose provider names no code, so
// that the answer is the same whatever the provider.
const IntegratorCancelCode = "SLCR"

// BCB is p's name in cancelamento.solicitante.
func (p Party) BCB() string { return partyBCB[p] }

// PartyFromBCB is PixGate's name for a cancelamento.solicitante.
func PartyFromBCB(name string) (Party, bool) {
	for p, n := range partyBCB {
		if n == name {
			return p, true
		}
	}
	return "", false
}
