// Package web is rscheck's browser app: the page, its scripts and style
// sheet, and the WebAssembly build of rscheck (see the wasm directory),
// embedded so that cmd/serve stands alone, and the HTTP handler that
// serves them.
//
// The files live in static/: index.html, the ES modules, style.css, the
// bookmarklet's readable source, and, once built by make wasm,
// rscheck.wasm and wasm_exec.js (the build output is not committed; the
// package compiles without it and the handler then answers 404 for it).
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Static returns the app's files, rooted at the static directory.
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // "static" is a valid path: cannot happen
	}
	return sub
}
