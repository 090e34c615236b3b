package api

import (
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// Every key lookup the DICT answers is counted for the integrator's day,
// a key it does not have also as a miss (pixgate lookups ratio reads them).
func TestKeyLookupsAreCounted(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.provider.Extensions = true })
	in, token := e.integrator("Loja Consulta", money.Percent(0), money.Fixed(0))
	e.call(http.MethodGet, "/api/v1/pix-keys/cliente%40example.com", token, nil).expect(t, http.StatusOK)
	e.call(http.MethodGet, "/api/v1/pix-keys/inexistente%40example.com", token, nil).expectError(t, http.StatusNotFound, codeKeyNotFound)
	if n := e.count(`SELECT coalesce(sum(lookups), 0) FROM key_lookup_days WHERE integrator_id = $1`, in.ID); n != 2 {
		t.Fatalf("%d lookups counted, want 2", n)
	}
	if n := e.count(`SELECT coalesce(sum(misses), 0) FROM key_lookup_days WHERE integrator_id = $1`, in.ID); n != 1 {
		t.Fatalf("%d misses counted, want 1", n)
	}
}
