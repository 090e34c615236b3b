package statements

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
)

// A statement line names a woovi charge by its correlationID: the
// hyphenated UUID of charges made before, the 32 characters without
// hyphens of those made since. Either is read as PixGate's record id.
func TestStatementLineNamesPixGateIDInEitherForm(t *testing.T) {
	id := uuid.Must(uuid.NewV7())
	for _, ext := range []string{id.String(), strings.ReplaceAll(id.String(), "-", "")} {
		l := storageLine(providerclient.StatementLine{Kind: providerclient.KindCharge, ProviderID: ext, ExternalID: ext})
		if l.RecordID == nil || *l.RecordID != id || l.ProviderID != ext {
			t.Errorf("a line naming %s: record %v, provider id %q", ext, l.RecordID, l.ProviderID)
		}
	}
}
