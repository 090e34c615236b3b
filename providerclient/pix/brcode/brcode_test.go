package brcode

import (
	"errors"
	"strings"
	"testing"
)

func TestCRC16CheckValue(t *testing.T) {
	if got := crcHex("123456789"); got != "29B1" {
		t.Fatalf("CRC16(123456789) = %s, want 29B1", got)
	}
}

// The accented letters Encode folds and their ASCII letters pair up.
func TestFoldTables(t *testing.T) {
	if len([]rune(foldFrom)) != len(foldTo) {
		t.Fatal("fold tables differ in length")
	}
}

func TestEncodeRefuses(t *testing.T) {
	ok := Payload{MerchantName: "Loja", MerchantCity: "Recife", Location: "pix.example.com/x"}
	tests := []struct {
		name string
		edit func(*Payload)
		want error
	}{
		{"no name", func(p *Payload) { p.MerchantName = " " }, ErrMissing},
		{"long name", func(p *Payload) { p.MerchantName = strings.Repeat("N", 26) }, ErrField},
		{"long city", func(p *Payload) { p.MerchantCity = strings.Repeat("C", 16) }, ErrField},
		{"emoji", func(p *Payload) { p.MerchantName = "Loja 😀" }, ErrField},
		{"no account", func(p *Payload) { p.Location = "" }, ErrMissing},
		{"location and key", func(p *Payload) { p.Key = "a@b.com" }, ErrField},
		{"scheme", func(p *Payload) { p.Location = "https://pix.example.com/x" }, ErrField},
		{"long location", func(p *Payload) { p.Location = strings.Repeat("l", 78) }, ErrField},
		{"negative", func(p *Payload) { p.Amount = -1 }, ErrField},
		{"too large", func(p *Payload) { p.Amount = MaxAmount + 1 }, ErrField},
		{"bad txid", func(p *Payload) { p.TxID = "pedido-1" }, ErrField},
		{"long txid", func(p *Payload) { p.TxID = strings.Repeat("t", 26) }, ErrField},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok
			tt.edit(&p)
			if code, err := Encode(p); !errors.Is(err, tt.want) {
				t.Fatalf("Encode = %q, %v; want %v", code, err, tt.want)
			}
		})
	}
}
