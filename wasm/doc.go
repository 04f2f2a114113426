//go:build js && wasm

// Command wasm is rscheck compiled to WebAssembly: the bridge between the
// browser app (web/) and the validator, the report views and the
// explorer. It runs inside a dedicated Web Worker (web/static/worker.js)
// and talks to the page with postMessage; the page's JavaScript API is
// web/static/client.js. The bridge holds no domain logic: it converts
// messages to calls of the Go packages and their results back to messages.
//
// Build it with
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o web/static/rscheck.wasm ./wasm
//
// (make wasm). Every file of this package carries the js && wasm build
// constraint, and it is the only package that touches JavaScript, through
// github.com/hack-pad/safejs: a thrown exception or a panic never crosses
// the boundary, it becomes an error message.
//
// # Protocol
//
// Every request is an object with a type and an id (a string or a number,
// echoed in every message about the request). Each request runs in its own
// goroutine, so that the message handler returns at once: a callback that
// blocked would deadlock the browser's fetch. README.md in this directory
// describes the message shapes in full; in short:
//
//	→ {type:"version", id}                              ← {type:"version", id, version, go}
//	→ {type:"rules", id}                                ← {type:"rules", id, json:"[…]"}
//	→ {type:"validate", id, inputs:[{input, name}], options, html}
//	                                                    ← {type:"progress", …}* then {type:"result", id, json, documents, html?}
//	→ {type:"explore", id, url, options, via, proxy}    ← {type:"progress", …}* then {type:"result", id, json, explore}
//	→ {type:"render", id, of, format}                   ← {type:"rendered", id, format, text}
//	→ {type:"cancel", id}                               (the request with that id ends with an error or a partial result)
//	← {type:"fetch", fid, url, method}                  bookmarklet mode: the page fetches through the relay and
//	→ {type:"fetch-result", fid, …} / ← {type:"fetch-abort", fid}
//
// Failures are {type:"error", id, code, message}; code is "cancelled",
// "input", "network" or "internal".
package main
