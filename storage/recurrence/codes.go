package recurrence

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
