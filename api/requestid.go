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
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := "req_" + hex.EncodeToString(b[:])
	c.Locals(localRequestID, id)
	c.Set(HeaderRequestID, id)
	return c.Next()
}

type localKey int

const (
	localRequestID localKey = iota
)

// requestIDOf returns the current request's id.
func requestIDOf(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}
