package brcodetest

import (
	"errors"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/pix/brcode"
)

// The BCB's example of a JORNADA_3 code (API Pix 2.9.0, the vendored
// openapi.yaml's example recResponse6, dadosQR.pixCopiaECola): it pays an
// immediate charge (26) and asks the consent to a recurrence (80).
const (
	bcbJourney3 = "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741"
)

// The published composite code reads as its charge and its recurrence, and
// Encode writes it back byte for byte.
func TestRecurrencePublishedJourney3(t *testing.T) {
	want := brcode.Payload{MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA", TxID: "***",
		Location:           "pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441",
		RecurrenceLocation: "pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890"}
	got, err := Parse(bcbJourney3)
	if err != nil || got != want {
		t.Fatalf("Parse = %+v, %v; want %+v", got, err, want)
	}
	code, err := brcode.Encode(want)
	if err != nil || code != bcbJourney3 {
		t.Fatalf("Encode = %s, %v; want the BCB's", code, err)
	}
}

// WithRecurrence turns a charge's code into the composite one Encode
// writes from the same payload, and the round trip keeps every field.
func TestWithRecurrence(t *testing.T) {
	charge := brcode.Payload{MerchantName: "PIXGATE SANDBOX", MerchantCity: "SAO PAULO", TxID: "***", Amount: 4990,
		Location: "127.0.0.1:9090/qr/v2/abcdefghijklmnopqrstuvwxyz012345"}
	code, err := brcode.Encode(charge)
	if err != nil {
		t.Fatal(err)
	}
	composite, err := brcode.WithRecurrence(code, "127.0.0.1:9090/qr/v2/rec/0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	want := charge
	want.RecurrenceLocation = "127.0.0.1:9090/qr/v2/rec/0123456789abcdef"
	if direct, err := brcode.Encode(want); err != nil || direct != composite {
		t.Fatalf("WithRecurrence = %s; Encode = %s, %v", composite, direct, err)
	}
	if got, err := Parse(composite); err != nil || got != want {
		t.Fatalf("Parse = %+v, %v; want %+v", got, err, want)
	}
}

func TestWithRecurrenceRefuses(t *testing.T) {
	plain, _ := brcode.Encode(brcode.Payload{MerchantName: "Loja", MerchantCity: "Recife", Location: "pix.example.com/x"})
	composite, _ := brcode.WithRecurrence(plain, "pix.example.com/rec/1")
	tests := []struct {
		name, code, location string
		want                 error
	}{
		{"no location", plain, "", brcode.ErrMissing},
		{"a scheme", plain, "https://pix.example.com/rec/1", brcode.ErrField},
		{"a long location", plain, "pix.example.com/" + strings.Repeat("r", 62), brcode.ErrField},
		{"a bad CRC", plain[:len(plain)-4] + "0000", "pix.example.com/rec/1", brcode.ErrField},
		{"no CRC", "000201", "pix.example.com/rec/1", brcode.ErrField},
		{"already composite", composite, "pix.example.com/rec/2", brcode.ErrField},
		{"not fields", withCRC("0002019"), "pix.example.com/rec/1", brcode.ErrTLV},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := brcode.WithRecurrence(tt.code, tt.location); !errors.Is(err, tt.want) {
				t.Fatalf("WithRecurrence = %q, %v; want %v", got, err, tt.want)
			}
		})
	}
	if _, err := brcode.Encode(brcode.Payload{MerchantName: "Loja", MerchantCity: "Recife", Location: "pix.example.com/x",
		RecurrenceLocation: "http://pix.example.com/rec/1"}); !errors.Is(err, brcode.ErrField) {
		t.Fatalf("Encode with a scheme in 80: %v", err)
	}
}

// A template 80 of Pix Automático must carry its location; one of another
// GUI is ignored.
func TestParseRecurrenceTemplate(t *testing.T) {
	const head = "00020101021226230014br.gov.bcb.pix2501x5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***"
	if _, err := Parse(withCRC(head + "80180014br.gov.bcb.pix")); !errors.Is(err, brcode.ErrMissing) {
		t.Fatalf("80 without a location: %v", err)
	}
	if p, err := Parse(withCRC(head + "80150004test2503rec")); err != nil || p.RecurrenceLocation != "" {
		t.Fatalf("80 of another GUI: %+v, %v", p, err)
	}
}
