package storage

import (
	"encoding/hex"
	"strings"

	"github.com/google/uuid"
)

// A charge's pix_id is the provider's transactionId, known when the
// provider issues it, in the same request. A withdrawal or refund is sent
// to the provider later, by a worker, yet its pix_id must exist from the
// first answer on (the family's clients keep the transactionId of that
// answer and match notifications with it). So PixGate gives withdrawals and
// refunds their own pix_id: the 32 lowercase hex digits of their id, the
// family's transactionId format. The provider's id for them stays internal
// (their PixID field).

// TransferPixID is the pix_id of the withdrawal or refund whose id is id.
func TransferPixID(id uuid.UUID) string { return hex.EncodeToString(id[:]) }

// ParseTransferPixID reads the id behind a withdrawal's or refund's pix_id:
// 32 hex digits, or the id itself in its usual 36-character form.
func ParseTransferPixID(s string) (uuid.UUID, bool) {
	switch len(s) {
	case 32:
		var id uuid.UUID
		if _, err := hex.Decode(id[:], []byte(strings.ToLower(s))); err != nil {
			return uuid.UUID{}, false
		}
		return id, true
	case 36:
		id, err := uuid.Parse(s)
		return id, err == nil
	}
	return uuid.UUID{}, false
}

// PublicPixID is the transfer's pix_id, its transactionId for integrators
// (see TransferPixID).
func (t Transfer) PublicPixID() string { return TransferPixID(t.ID) }
