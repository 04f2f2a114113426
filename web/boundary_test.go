package web

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// jsPackages are the packages that reach JavaScript.
var jsPackages = []string{"syscall/js", "github.com/hack-pad/safejs"}

// TestWasmBoundary enforces the browser boundary mechanically: every Go
// file of the bridge (../wasm) builds only for js/wasm, and no package
// outside it imports syscall/js or safejs, so that everything else builds
// and is tested natively.
func TestWasmBoundary(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := constraint.Parse("//go:build js && wasm")
	files, _ := filepath.Glob(filepath.Join(root, "wasm", "*.go"))
	if len(files) == 0 {
		t.Fatal("no Go files in wasm/")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var found constraint.Expr
		for _, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(line, "package ") {
				break
			}
			if constraint.IsGoBuild(line) {
				found, _ = constraint.Parse(line)
			}
		}
		if found == nil || found.String() != want.String() {
			t.Errorf("%s: build constraint %v, want %v", f, found, want)
		}
	}

	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p == filepath.Join(root, "wasm") || (p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return nil // another package's syntax error is not this test's business
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, js := range jsPackages {
				if path == js {
					rel, _ := filepath.Rel(root, p)
					t.Errorf("%s imports %s: only wasm/ may", rel, js)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoMarkupSinks checks that the page's scripts never parse strings as
// markup or code: every value they show comes from a document, a report or
// a server, and goes into the page as text.
func TestNoMarkupSinks(t *testing.T) {
	sinks := regexp.MustCompile(`\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(|createContextualFragment|DOMParser|srcdoc`)
	fs.WalkDir(Static(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") || p == "wasm_exec.js" {
			return err
		}
		src, _ := fs.ReadFile(Static(), p)
		for i, line := range strings.Split(string(src), "\n") {
			if sinks.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				t.Errorf("%s:%d: %s", p, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
}
