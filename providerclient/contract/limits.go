package contract

// Field limits of the contract's text fields, in characters. The family
// publishes none; these are PixGate's, applied alike by PixGate's own
// surfaces and by the sandbox, so that whatever PixGate accepts its provider
// accepts too.
const (
	MaxExternalIDLen  = 64   // external_id
	MaxPixIDLen       = 128  // pix_id, transactionId
	MaxNameLen        = 100  // payer.name, creditParty.name
	MaxShortTextLen   = 140  // payerQuestion, description
	MaxEmailLen       = 254  // payer.email (RFC 5321's path limit)
	MaxPostbackURLLen = 2048 // postbackUrl
)
