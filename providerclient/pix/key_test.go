package pix

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizeKeyValid(t *testing.T) {
	tests := []struct {
		typ      KeyType
		in, want string
	}{
		{KeyCPF, "52998224725", "52998224725"},
		{KeyCPF, "123.456.789-09", "12345678909"},
		{KeyCNPJ, "11.222.333/0001-81", "11222333000181"},
		{KeyCNPJ, "12ABC34501DE35", "12ABC34501DE35"},
		{KeyCNPJ, "12abc34501de35", "12ABC34501DE35"},
		{KeyEmail, "Fulano.Tal@Example.COM", "fulano.tal@example.com"},
		{KeyEmail, "  pix+loja@mail.example.com.br ", "pix+loja@mail.example.com.br"},
		{KeyEmail, strings.Repeat("a", 65-12) + "@example.com.br", strings.Repeat("a", 53) + "@example.com.br"},
		{KeyPhone, "+5511998765432", "+5511998765432"},
		{KeyPhone, "(11) 99876-5432", "+5511998765432"},
		{KeyPhone, "11998765432", "+5511998765432"},
		{KeyPhone, "5511998765432", "+5511998765432"},
		{KeyPhone, "+55 11 99876-5432", "+5511998765432"},
		{KeyPhone, "(21) 3456-7890", "+552134567890"}, // landline, 8 digits
		{KeyPhone, "552134567890", "+552134567890"},
		{KeyPhone, "55998765432", "+5555998765432"}, // area code 55 without country code
		{KeyEVP, "123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"},
		{KeyEVP, "123E4567-E89B-12D3-A456-426614174000", "123e4567-e89b-12d3-a456-426614174000"},
	}
	for _, tt := range tests {
		got, err := NormalizeKey(tt.typ, tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeKey(%s, %q) = %q, %v; want %q", tt.typ, tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeKeyInvalid(t *testing.T) {
	tests := []struct {
		typ  KeyType
		in   string
		want error
	}{
		{KeyCPF, "", ErrKeyRequired},
		{KeyCPF, "52998224724", ErrInvalidCPF},
		{KeyCPF, "11111111111", ErrInvalidCPF},
		{KeyCPF, "11222333000181", ErrInvalidCPF}, // a CNPJ under the CPF type
		{KeyCNPJ, "11222333000182", ErrInvalidCNPJ},
		{KeyCNPJ, "52998224725", ErrInvalidCNPJ},
		{KeyCNPJ, "12ABC34501DE34", ErrInvalidCNPJ},
		{KeyEmail, "fulano", ErrInvalidEmail},
		{KeyEmail, "fulano@", ErrInvalidEmail},
		{KeyEmail, "@example.com", ErrInvalidEmail},
		{KeyEmail, "fulano@example", ErrInvalidEmail},
		{KeyEmail, "fulano@@example.com", ErrInvalidEmail},
		{KeyEmail, "ful ano@example.com", ErrInvalidEmail},
		{KeyEmail, "fulano@exa_mple.com", ErrInvalidEmail},
		{KeyEmail, "fulano@-example.com", ErrInvalidEmail},
		{KeyEmail, "fulano@example..com", ErrInvalidEmail},
		{KeyEmail, ".fulano@example.com", ErrInvalidEmail},
		{KeyEmail, "ful..ano@example.com", ErrInvalidEmail},
		{KeyEmail, "fulano@example.c0m", ErrInvalidEmail},
		{KeyEmail, strings.Repeat("a", 66) + "@example.com", ErrEmailTooLong}, // 78 characters
		{KeyPhone, "998765432", ErrInvalidPhone},                              // no area code
		{KeyPhone, "+14155552671", ErrInvalidPhone},                           // not Brazil
		{KeyPhone, "+55119987654321", ErrInvalidPhone},                        // too long
		{KeyPhone, "(10) 99876-5432", ErrInvalidPhone},                        // no area code 10
		{KeyPhone, "(11) 89876-5432", ErrInvalidPhone},                        // 9 digits must start with 9
		{KeyPhone, "(11) 1876-5432", ErrInvalidPhone},
		{KeyPhone, "4411998765432", ErrInvalidPhone},
		{KeyPhone, "11 99876-543a", ErrInvalidPhone},
		{KeyEVP, "123e4567e89b12d3a456426614174000", ErrInvalidRandom},
		{KeyEVP, "123e4567-e89b-12d3-a456-42661417400g", ErrInvalidRandom},
		{KeyEVP, "{123e4567-e89b-12d3-a456-426614174000}", ErrInvalidRandom},
		{KeyEVP, "123e4567-e89b-12d3-a456_426614174000", ErrInvalidRandom},
		{KeyType("RG"), "123", ErrKeyType},
	}
	for _, tt := range tests {
		got, err := NormalizeKey(tt.typ, tt.in)
		if !errors.Is(err, tt.want) {
			t.Errorf("NormalizeKey(%s, %q) = %q, %v; want %v", tt.typ, tt.in, got, err, tt.want)
		}
	}
}

func TestKeyErrorsReadAfterAFieldName(t *testing.T) {
	for _, err := range []error{ErrKeyType, ErrKeyRequired, ErrInvalidCPF, ErrInvalidCNPJ, ErrInvalidDoc,
		ErrInvalidEmail, ErrEmailTooLong, ErrInvalidPhone, ErrInvalidRandom} {
		msg := err.Error()
		if !strings.HasPrefix(msg, "must ") && !strings.HasPrefix(msg, "is ") {
			t.Errorf("%q does not complete \"<field> ...\"", msg)
		}
	}
}
