package api

import (
	"context"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
)

// create is every create endpoint of both surfaces: decode the body, parse
// it with the surface's parser, run the payments operation for the
// authenticated integrator, and answer in the surface's shape. Only parse
// and answer differ between /api/v1 and /v2.
func create[R, T any](c *fiber.Ctx, parse func(object) (R, error),
	op func(context.Context, storage.Integrator, R) (T, bool, error),
	answer func(c *fiber.Ctx, req R, rec T, created bool) error) error {
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	req, err := parse(body)
	if err != nil {
		return err
	}
	rec, created, err := op(c.UserContext(), integratorOf(c), req)
	if err != nil {
		return err // typed errors are mapped in errors.go
	}
	return answer(c, req, rec, created)
}

// createdStatus is v1's status of a create: 201 for a new record, 200 for a
// replay.
func createdStatus(created bool) int {
	if created {
		return http.StatusCreated
	}
	return http.StatusOK
}
