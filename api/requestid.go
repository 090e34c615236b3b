package api

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gofiber/fiber/v2"
)

// HeaderRequestID carries the id of every request on its response.
const HeaderRequestID = "X-Request-Id"

// requestID gives every request an id of PixGate's own making, returned in
// X-Request-Id and carried into logs and error bodies. A caller-supplied id
// is not trusted (it would reach the logs unchecked).
func requestID(c *fiber.Ctx) error {
	id := newRequestID()
	c.Locals(localRequestID, id)
	c.Set(HeaderRequestID, id)
	return c.Next()
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

type localKey int

const (
	localRequestID  localKey = iota
	localAPIKey              // storage.APIKey of an authenticated v1 request
	localIntegrator          // storage.Integrator that owns it
)

// requestIDOf returns the current request's id.
func requestIDOf(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}
