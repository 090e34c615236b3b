package brcodetest

import (
	"testing"

	"github.com/pixgate/pixgate/providerclient/pix/brcode"
)

// FuzzParse checks that Parse never panics, and that whatever it accepts and
// Encode can render comes back unchanged.
func FuzzParse(f *testing.F) {
	f.Add(publishedDynamic)
	f.Add(publishedStatic)
	f.Add(withCRC("00020101021226330014br.gov.bcb.pix2511example.com52040000530398654041.005802BR5901N6001C62070503***"))
	f.Add("")
	f.Add("6304")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		if p.MerchantName == "" || p.MerchantCity == "" || (p.Location == "") == (p.Key == "") || p.Amount < 0 {
			t.Fatalf("Parse accepted an incomplete payload %+v from %q", p, s)
		}
		code, err := brcode.Encode(p)
		if err != nil {
			return // valid for Parse, outside what Encode writes (e.g. non-ASCII name)
		}
		again, err := Parse(code)
		if err != nil || again != p {
			t.Fatalf("round trip of %+v gave %+v, %v", p, again, err)
		}
	})
}
