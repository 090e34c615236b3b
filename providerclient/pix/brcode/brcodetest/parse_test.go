package brcodetest

import (
	"errors"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/pix/brcode"
	"github.com/pixgate/pixgate/storage/money"
)

// The two payloads published in the contract document.
const (
	publishedDynamic = "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4"
	publishedStatic  = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)

func TestParsePublished(t *testing.T) {
	tests := []struct {
		name string
		code string
		want brcode.Payload
	}{
		{"dynamic", publishedDynamic, brcode.Payload{
			MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA",
			Location: "pix.example.com/8b3da2f39a4140d1a91abd93113bd441", TxID: "***",
		}},
		{"static", publishedStatic, brcode.Payload{
			MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA",
			Key: "123e4567-e12b-12d1-a456-426655440000", TxID: "***",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if crc := crcHex(tt.code[:len(tt.code)-4]); crc != tt.code[len(tt.code)-4:] {
				t.Fatalf("published CRC %s, computed %s", tt.code[len(tt.code)-4:], crc)
			}
			got, err := Parse(tt.code)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got != tt.want {
				t.Fatalf("Parse = %+v, want %+v", got, tt.want)
			}
			again, err := brcode.Encode(got)
			if err != nil || again != tt.code {
				t.Fatalf("brcode.Encode(Parse(code)) = %q, %v; want the published code", again, err)
			}
		})
	}
}

// Every one-character change of a published payload is refused: either the
// CRC no longer verifies, or the structure breaks.
func TestParseRefusesEveryOneCharacterChange(t *testing.T) {
	for _, code := range []string{publishedDynamic, publishedStatic} {
		for i := range len(code) {
			for _, c := range []byte{'0', '7', 'A', 'z', '*'} {
				if code[i] == c {
					continue
				}
				changed := code[:i] + string(c) + code[i+1:]
				if _, err := Parse(changed); !errors.Is(err, brcode.ErrInvalid) {
					t.Fatalf("Parse accepted %q (position %d changed to %c), err %v", changed, i, c, err)
				}
			}
		}
	}
}

func TestParseRefusesWrongCRC(t *testing.T) {
	wrong := publishedDynamic[:len(publishedDynamic)-4] + "64E5"
	if _, err := Parse(wrong); !errors.Is(err, brcode.ErrCRC) {
		t.Fatalf("err = %v, want brcode.ErrCRC", err)
	}
	if _, err := Parse(strings.ToLower(publishedDynamic[:len(publishedDynamic)-4]) + "64e4"); !errors.Is(err, brcode.ErrCRC) {
		t.Fatalf("a lowercased payload kept its CRC: err = %v", err)
	}
}

// withCRC closes a hand-made payload with its right CRC, so that the test
// reaches the structural checks behind it.
func withCRC(body string) string {
	body += "6304"
	return body + crcHex(body)
}

func TestParseRefusesBrokenStructure(t *testing.T) {
	const acct = "26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000"
	const tail = "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***"
	tests := []struct {
		name string
		code string
		want error
	}{
		{"empty", "", brcode.ErrMissing},
		{"no CRC field", publishedStatic[:len(publishedStatic)-8], brcode.ErrMissing},
		{"length overruns", withCRC("000201" + "26990014br.gov.bcb.pix" + tail), brcode.ErrTLV},
		{"length not digits", withCRC("0002012658x014br.gov.bcb.pix" + tail), brcode.ErrTLV},
		{"zero length", withCRC("000201" + acct + "5400" + tail), brcode.ErrTLV},
		{"repeated field", withCRC("000201" + acct + "5204000052040000" + tail[8:]), brcode.ErrTLV},
		{"format not first", withCRC(acct + "000201" + tail), brcode.ErrField},
		{"format value", withCRC("000202" + acct + tail), brcode.ErrField},
		{"no account", withCRC("000201" + tail), brcode.ErrMissing},
		{"account without key", withCRC("000201" + "26180014br.gov.bcb.pix" + tail), brcode.ErrMissing},
		{"other GUI only", withCRC("000201" + "26230014br.gov.bcb.xyz0101k" + tail), brcode.ErrMissing},
		{"no currency", withCRC("000201" + acct + "520400005802BR5913Fulano de Tal6008BRASILIA62070503***"), brcode.ErrMissing},
		{"wrong currency", withCRC("000201" + acct + "5204000053038405802BR5913Fulano de Tal6008BRASILIA62070503***"), brcode.ErrField},
		{"no name", withCRC("000201" + acct + "5204000053039865802BR6008BRASILIA62070503***"), brcode.ErrMissing},
		{"no city", withCRC("000201" + acct + "5204000053039865802BR5913Fulano de Tal62070503***"), brcode.ErrMissing},
		{"no additional data", withCRC("000201" + acct + "5204000053039865802BR5913Fulano de Tal6008BRASILIA"), brcode.ErrMissing},
		{"no txid", withCRC("000201" + acct + "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070103***"), brcode.ErrMissing},
		{"long name", withCRC("000201" + acct + "5204000053039865802BR5926" + strings.Repeat("N", 26) + "6008BRASILIA62070503***"), brcode.ErrField},
		{"negative amount", withCRC("000201" + acct + "5204000053039865405-1.005802BR5913Fulano de Tal6008BRASILIA62070503***"), brcode.ErrField},
		{"amount 3 decimals", withCRC("000201" + acct + "52040000530398654051.0015802BR5913Fulano de Tal6008BRASILIA62070503***"), brcode.ErrField},
		{"zero amount", withCRC("000201" + acct + "5204000053039865404" + "0.00" + "5802BR5913Fulano de Tal6008BRASILIA62070503***"), brcode.ErrField},
		{"initiation 13", withCRC("000201010213" + acct + tail), brcode.ErrField},
		{"too long", withCRC("000201" + acct + tail + strings.Repeat("9910XXXXXXXXXX", 30)), brcode.ErrField},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.code)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse = %+v, %v; want %v", p, err, tt.want)
			}
		})
	}
}

func TestParseIgnoresUnknownFieldsAndTrimsSpace(t *testing.T) {
	code := withCRC("000201" + "26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000" +
		"5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***" + "80080004test")
	p, err := Parse("  " + code + "\n")
	if err != nil || p.Key != "123e4567-e12b-12d1-a456-426655440000" {
		t.Fatalf("Parse = %+v, %v", p, err)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	tests := []brcode.Payload{
		{MerchantName: "PIXGATE SANDBOX", MerchantCity: "SAO PAULO", Location: "127.0.0.1:9090/qr/v2/abcdefghijklmnopqrstuvwxyz012345", Amount: 1550, TxID: "***"},
		{MerchantName: "Loja", MerchantCity: "Recife", Location: "pix.example.com/qr/v2/" + strings.Repeat("a", 35), Amount: brcode.MaxAmount, TxID: "***"},
		{MerchantName: "Fulano", MerchantCity: "BRASILIA", Key: "+5511998765432", Amount: 1, TxID: "PEDIDO123"},
		{MerchantName: strings.Repeat("N", 25), MerchantCity: strings.Repeat("C", 15), Key: "fulano@example.com", TxID: "***"},
	}
	for _, p := range tests {
		code, err := brcode.Encode(p)
		if err != nil {
			t.Fatalf("brcode.Encode(%+v): %v", p, err)
		}
		got, err := Parse(code)
		if err != nil || got != p {
			t.Fatalf("Parse(brcode.Encode(p)) = %+v, %v; want %+v (code %s)", got, err, p, code)
		}
		if crc := code[len(code)-4:]; crc != strings.ToUpper(crc) {
			t.Fatalf("CRC %s is not uppercase", crc)
		}
	}
}

func TestEncodeDefaultsAndFolding(t *testing.T) {
	code, err := brcode.Encode(brcode.Payload{MerchantName: "Padaria São João", MerchantCity: "São Paulo", Location: "pix.example.com/x", Amount: money.FromReais(15, 0)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(code)
	if err != nil {
		t.Fatal(err)
	}
	want := brcode.Payload{MerchantName: "Padaria Sao Joao", MerchantCity: "Sao Paulo", Location: "pix.example.com/x", Amount: 1500, TxID: "***"}
	if p != want || !strings.Contains(code, "010212") || !strings.Contains(code, "540515.00") {
		t.Fatalf("got %+v from %s", p, code)
	}
}
