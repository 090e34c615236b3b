package api

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"

	"github.com/pixgate/pixgate/docs"
)

// Where the API describes itself.
const (
	pathOpenAPI = "/openapi.yaml"
	pathDocs    = "/docs"
)

// noScript is what /docs shows a browser without JavaScript, which Swagger
// UI needs: where the document itself and the guides are.
const noScript = `<noscript>
<h1>PixGate API</h1>
<p>This page renders the API description with JavaScript, which is off in
this browser. The description itself is <a href="` + pathOpenAPI + `">` + pathOpenAPI + `</a>
(OpenAPI 3.1, YAML: readable as text, and what client generators take). The
guides are docs/api-v1.md, docs/api-v2.md and docs/postbacks.md in PixGate's
repository.</p>
</noscript>`

// docsRoutes serves the OpenAPI document, a page that renders it for people,
// and a pointer to both at /: a browser (asking for HTML) is sent to the
// page, a program gets the pointers as JSON. The page is Swagger UI, whose
// assets are embedded in the binary (github.com/swaggest/swgui): nothing is
// fetched from elsewhere when it is opened, so it works offline and behind
// egress rules.
func (s *Server) docsRoutes() {
	s.app.Get("/", func(c *fiber.Ctx) error {
		if c.Accepts(fiber.MIMEApplicationJSON, fiber.MIMETextHTML) == fiber.MIMETextHTML {
			return c.Redirect(pathDocs, fiber.StatusFound)
		}
		return c.JSON(fiber.Map{"name": "PixGate", "docs": pathDocs, "openapi": pathOpenAPI})
	})
	s.app.Get(pathOpenAPI, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "application/yaml")
		return c.Send(docs.OpenAPI)
	})
	ui := adaptor.HTTPHandler(v5emb.NewHandlerWithConfig(swgui.Config{
		Title:       "PixGate API",
		SwaggerJSON: pathOpenAPI,
		BasePath:    pathDocs + "/",
		// The schemas section shows the records and the postback bodies.
		SettingsUI:  map[string]string{"defaultModelsExpandDepth": "1"},
		PrependHTML: noScript,
	}))
	s.app.Get(pathDocs, ui)
	s.app.Get(pathDocs+"/*", func(c *fiber.Ctx) error {
		if err := ui(c); err != nil || c.Response().StatusCode() != fiber.StatusNotFound {
			return err
		}
		c.Response().ResetBody()
		return fiber.ErrNotFound // in the one error shape, not the file server's text
	})
}
