package storage

import (
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestTransferPixID(t *testing.T) {
	id := uuid.MustParse("0195d1a3-1d4f-7c2b-8a5e-3c9d7e1f2a34")
	pix := TransferPixID(id)
	if pix != "0195d1a31d4f7c2b8a5e3c9d7e1f2a34" {
		t.Fatalf("TransferPixID = %q", pix)
	}
	for _, s := range []string{pix, strings.ToUpper(pix), id.String()} {
		if got, ok := ParseTransferPixID(s); !ok || got != id {
			t.Errorf("ParseTransferPixID(%q) = %v, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "0195d1a31d4f7c2b8a5e3c9d7e1f2a3", "0195d1a31d4f7c2b8a5e3c9d7e1f2a3g", "k3v9x2m8q1w7e5r4t6y0u2i8o3p5a7s1",
		"0195d1a3-1d4f-7c2b-8a5e-3c9d7e1f2a3x"} {
		if _, ok := ParseTransferPixID(s); ok {
			t.Errorf("ParseTransferPixID(%q) succeeded", s)
		}
	}
}
