package pix

import "testing"

func TestMaskDocument(t *testing.T) {
	tests := map[string]string{
		"52998224725":    "***.982.247-**",
		"11222333000181": "11.222.333/0001-81",
		"12ABC34501DE35": "12.ABC.345/01DE-35",
		"123":            "***",
		"":               "",
	}
	for doc, want := range tests {
		if got := MaskDocument(doc); got != want {
			t.Errorf("MaskDocument(%q) = %q, want %q", doc, got, want)
		}
	}
}

func TestSameDocument(t *testing.T) {
	tests := []struct {
		doc, given string
		want       bool
	}{
		{"52998224725", "52998224725", true},
		{"52998224725", "529.982.247-25", true},
		{"52998224725", "***.982.247-**", true},
		{"52998224725", "***.982.248-**", false},
		{"52998224725", "***********", false}, // shows nothing: proves nothing
		{"52998224725", "11144477735", false},
		{"52998224725", "5299822472", false},
		{"11222333000181", "11.222.333/0001-81", true},
		{"12ABC34501DE35", "12abc34501de35", true},
	}
	for _, tt := range tests {
		if got := SameDocument(tt.doc, tt.given); got != tt.want {
			t.Errorf("SameDocument(%q, %q) = %v", tt.doc, tt.given, got)
		}
	}
}
