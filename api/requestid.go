package api

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gofiber/fiber/v2"
)

// HeaderRequestID carries the id of every request on its response.
const HeaderRequestID = "X-Request-Id"

// maxRequestIDLen bounds a client-sent request id.
const maxRequestIDLen = 128

// requestID gives every request an id, returned in X-Request-Id and carried
// into logs and error bodies. A client-sent X-Request-Id is kept when it is
// short and made of letters, digits and . _ : - (so it is safe in logs and
// lets one id follow a request across the integrator's systems and
// PixGate's); any other value is replaced by one of PixGate's own.
func requestID(c *fiber.Ctx) error {
	id := c.Get(HeaderRequestID)
	if saneRequestID(id) {
		id = string([]byte(id)) // fasthttp reuses the header's buffer
	} else {
		id = newRequestID()
	}
	c.Locals(localRequestID, id)
	c.Set(HeaderRequestID, id)
	return c.Next()
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch b := id[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '.', b == '_', b == ':', b == '-':
		default:
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

type localKey int

const (
	localRequestID  localKey = iota
	localAPIKey              // storage.APIKey of an authenticated v1 or v2 request
	localIntegrator          // storage.Integrator that owns it
)

// requestIDOf returns the current request's id.
func requestIDOf(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}
