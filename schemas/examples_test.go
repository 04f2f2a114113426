package schemas_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/schemas"
	"github.com/rscheck/rscheck/validator/xsd"
)

// examplesDir returns the directory of the specification's examples kept
// with the official schemas, ../shared/reference/schemas/xmllint-tests from
// the repository root, or skips the test when it is absent.
func examplesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "reference", "schemas", "xmllint-tests")
	if _, err := os.Stat(filepath.Join(dir, "spec-1.1-inline")); err != nil {
		t.Skipf("specification examples not found at %s: %v", dir, err)
	}
	return dir
}

// usesDatetime are the examples that use rs:md/@datetime, new in 1.1: they
// are invalid under the 1.0 and 0.9.1 schemas, and only because of it.
var usesDatetime = map[string]bool{
	"spec-1.1-inline/ex03.xml":                                 true,
	"spec-1.1-inline/ex19.xml":                                 true,
	"spec-1.1-inline/ex21.xml":                                 true,
	"spec-1.1-inline/ex23.xml":                                 true,
	"spec-1.1-inline/ex25.xml":                                 true,
	"spec-1.1-inline/ex26.xml":                                 true,
	"spec-1.1-inline/ex28.xml":                                 true,
	"notification-1.0.1-inline/notification_ex1.xml":           true,
	"notification-1.0.1-inline/framework_notification_ex1.xml": true,
}

// TestSpecExamples compiles every version's roots with our engine and
// validates the examples of the ResourceSync 1.1 and Notification
// specifications: all are valid under 1.1; under 1.0 and 0.9.1 exactly
// those that use datetime are invalid, with errors about datetime only.
func TestSpecExamples(t *testing.T) {
	dir := examplesDir(t)
	spec, err := filepath.Glob(filepath.Join(dir, "spec-1.1-inline", "ex*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	notif, err := filepath.Glob(filepath.Join(dir, "notification-1.0.1-inline", "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	// The spec's Examples 1-8 and 12-33 are XML documents (9-11 are HTML,
	// an HTTP header and robots.txt); the Notification specifications have
	// three.
	if len(spec) != 30 || len(notif) != 3 {
		t.Fatalf("found %d spec and %d notification examples, want 30 and 3", len(spec), len(notif))
	}
	files := append(spec, notif...)
	sort.Strings(files)
	for _, version := range schemas.Versions() {
		t.Run(version, func(t *testing.T) {
			roots, err := schemas.Roots(version)
			if err != nil {
				t.Fatal(err)
			}
			c := xsd.NewCompiler()
			c.SetFS(schemas.FS)
			s, err := c.Compile(roots...)
			if err != nil {
				t.Fatalf("compiling %v: %v", roots, err)
			}
			var invalid []string
			for _, f := range files {
				rel, _ := filepath.Rel(dir, f)
				rel = filepath.ToSlash(rel)
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				errs, err := s.Validate(strings.NewReader(string(data)))
				if err != nil {
					t.Errorf("%s: not well-formed: %v", rel, err)
					continue
				}
				wantInvalid := version != "1.1" && usesDatetime[rel]
				if len(errs) > 0 {
					invalid = append(invalid, rel)
				}
				switch {
				case wantInvalid && len(errs) == 0:
					t.Errorf("%s: valid under %s, want invalid (it uses datetime)", rel, version)
				case !wantInvalid:
					for _, e := range errs {
						t.Errorf("%s: %v", rel, e)
					}
				default:
					for _, e := range errs {
						if !strings.Contains(e.Message, "datetime") {
							t.Errorf("%s: error not about datetime: %v", rel, e)
						}
					}
				}
			}
			t.Logf("version %s: %d examples, %d invalid %v", version, len(files), len(invalid), invalid)
		})
	}
}

// TestSkeletons checks that the two structural skeletons of Table 2 (they
// contain "...") are invalid under every version.
func TestSkeletons(t *testing.T) {
	dir := examplesDir(t)
	for _, version := range schemas.Versions() {
		roots, _ := schemas.Roots(version)
		c := xsd.NewCompiler()
		c.SetFS(schemas.FS)
		s, err := c.Compile(roots...)
		if err != nil {
			t.Fatalf("compiling %v: %v", roots, err)
		}
		for _, name := range []string{"table2-urlset-skeleton.xml", "table2-sitemapindex-skeleton.xml"} {
			f, err := os.Open(filepath.Join(dir, "spec-1.1-inline", name))
			if err != nil {
				t.Fatal(err)
			}
			errs, err := s.Validate(f)
			f.Close()
			if err == nil && len(errs) == 0 {
				t.Errorf("%s: %s is valid, want invalid", version, name)
			}
		}
	}
}

func ExampleRoots() {
	roots, err := schemas.Roots("1.1")
	if err != nil {
		panic(err)
	}
	fmt.Println(roots)
	_, err = schemas.Roots("2.0")
	fmt.Println(err)
	// Output:
	// [sitemap.xsd resourcesync-1.1.xsd]
	// schemas: unknown ResourceSync schema version "2.0" (supported: 1.1, 1.0, 0.9.1)
}
