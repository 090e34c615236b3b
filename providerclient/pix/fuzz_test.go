package pix

import (
	"strings"
	"testing"
)

// FuzzNormalizeDocument: an accepted CPF or CNPJ is canonical (normalising
// it again changes nothing), has the right length and passes its check
// digits.
func FuzzNormalizeDocument(f *testing.F) {
	for _, s := range []string{"52998224725", "529.982.247-25", "11.222.333/0001-81", "12ABC34501DE35", "12abc34501de35", "00000000000", "", "5299822472５"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		norm, err := NormalizeDocument(s)
		if err != nil {
			return
		}
		again, err := NormalizeDocument(norm)
		if err != nil || again != norm {
			t.Fatalf("NormalizeDocument(%q) = %q, which normalises to %q, %v", s, norm, again, err)
		}
		if !(len(norm) == 11 && validCPF(norm)) && !(len(norm) == 14 && validCNPJ(norm)) {
			t.Fatalf("NormalizeDocument(%q) = %q, not a valid CPF or CNPJ", s, norm)
		}
	})
}

// FuzzNormalizeKey: for every key type (as spelled by any provider of the
// family), an accepted key is canonical, printable ASCII, and within the
// directory's length.
func FuzzNormalizeKey(f *testing.F) {
	for _, c := range [][2]string{{"CPF", "529.982.247-25"}, {"cnpj", "11222333000181"}, {"EMAIL", "Fulano@Example.COM"},
		{"telefone", "(11) 99876-5432"}, {"aleatoria", "123E4567-E12B-12D1-A456-426655440000"}, {"EVP", "x"}, {"PIX", "y"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, typ, key string) {
		kt, err := ParseKeyType(typ)
		if err != nil {
			return
		}
		norm, err := NormalizeKey(kt, key)
		if err != nil {
			return
		}
		again, err := NormalizeKey(kt, norm)
		if err != nil || again != norm {
			t.Fatalf("NormalizeKey(%s, %q) = %q, which normalises to %q, %v", kt, key, norm, again, err)
		}
		if norm == "" || len(norm) > 77 || strings.IndexFunc(norm, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
			t.Fatalf("NormalizeKey(%s, %q) = %q", kt, key, norm)
		}
	})
}
