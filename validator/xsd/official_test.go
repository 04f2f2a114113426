package xsd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// referenceDir is the shared reference material (../shared from the
// repository root): the official schemas and the xmllint experiments.
func referenceDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/reference/schemas")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sitemap.xsd")); err != nil {
		t.Fatalf("reference schemas missing (expected at %s): %v", dir, err)
	}
	return dir
}

var (
	officialOnce   sync.Once
	officialSchema *Schema
	officialErr    error
)

// officialSchema compiles sitemap.xsd and siteindex.xsd (one namespace)
// with resourcesync-1.1.xsd, as wrapper-all.xsd does for xmllint.
func official(t testing.TB) *Schema {
	t.Helper()
	dir := referenceDir(t)
	officialOnce.Do(func() {
		c := NewCompiler()
		c.SetFS(os.DirFS(dir))
		officialSchema, officialErr = c.Compile("sitemap.xsd", "siteindex.xsd", "resourcesync-1.1.xsd")
	})
	if officialErr != nil {
		t.Fatal(officialErr)
	}
	return officialSchema
}

func TestCompileOfficial(t *testing.T) {
	official(t)
	dir := referenceDir(t)
	c := NewCompiler()
	c.SetFS(os.DirFS(dir))
	for _, root := range []string{"wrapper-all.xsd", "wrapper-urlset.xsd", "wrapper-siteindex.xsd", "resourcesync-0.9.1.xsd", "resourcesync-1.0.xsd", "resourcesync-1.1-2017.xsd"} {
		if _, err := c.Compile(root); err != nil {
			t.Errorf("%s: %v", root, err)
		}
	}
}

// xmllintLine matches the first error line of xmllint's output.
var xmllintLine = regexp.MustCompile(`^[^:]+:(\d+): `)

// TestXmllintExperiments checks every document of xmllint-tests against
// the verdict and first error line xmllint gives with wrapper-all.xsd.
// The expectations are in testdata/xmllint-verdicts.txt, recorded from
// xmllint 2.9.14; the libxml2 build tag re-checks them.
func TestXmllintExperiments(t *testing.T) {
	s := official(t)
	dir := referenceDir(t)
	want := readVerdicts(t)
	files, _ := filepath.Glob(filepath.Join(dir, "xmllint-tests", "*.xml"))
	more, _ := filepath.Glob(filepath.Join(dir, "xmllint-tests", "*", "*.xml"))
	files = append(files, more...)
	sort.Strings(files)
	if len(files) < 40 {
		t.Fatalf("only %d experiment documents found", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join(dir, "xmllint-tests"), f)
		t.Run(rel, func(t *testing.T) {
			w, ok := want[rel]
			if !ok {
				t.Fatalf("no recorded xmllint verdict for %s", rel)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			errs, err := s.Validate(strings.NewReader(string(data)))
			if err != nil {
				if w != -2 {
					t.Fatalf("not well-formed: %v", err)
				}
				return
			}
			got := 0
			if len(errs) > 0 {
				got = errs[0].Line
			}
			if got != w {
				t.Errorf("first error line %d, xmllint %d", got, w)
				for _, e := range errs {
					t.Logf("  %v [%s] %s", e, e.Kind.Code(), e.Component)
				}
			}
		})
	}
}

// readVerdicts reads "file line" pairs: line 0 means valid.
func readVerdicts(t testing.TB) map[string]int {
	data, err := os.ReadFile("testdata/xmllint-verdicts.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int{}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 || strings.HasPrefix(l, "#") {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		m[f[0]] = n
	}
	return m
}

// xmllintFirstLine runs xmllint and returns the line of its first schema
// validity error (0 when the document validates).
func xmllintFirstLine(t testing.TB, schema, doc string) int {
	out, _ := exec.Command("xmllint", "--noout", "--schema", schema, doc).CombinedOutput()
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.Contains(l, "Schemas validity error") {
			continue
		}
		if m := xmllintLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// TestConcurrentValidation: a Schema is shared by concurrent validations
// (run with -race).
func TestConcurrentValidation(t *testing.T) {
	s := official(t)
	dir := referenceDir(t)
	good, err := os.ReadFile(filepath.Join(dir, "xmllint-tests", "rl-good.xml"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile(filepath.Join(dir, "xmllint-tests", "rl-content.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				doc, want := good, 0
				if (i+j)%2 == 1 {
					doc, want = bad, 8
				}
				errs, err := s.Validate(strings.NewReader(string(doc)))
				if err != nil || len(errs) != want {
					t.Errorf("goroutine %d: %d errors (%v), want %d", i, len(errs), err, want)
					return
				}
			}
		}(i)
	}
	wg.Wait()
}

// TestWrapperEqualsRoots: compiling wrapper-all.xsd (as xmllint is run)
// and compiling the three official documents as roots give the same
// errors on every experiment document.
func TestWrapperEqualsRoots(t *testing.T) {
	dir := referenceDir(t)
	c := NewCompiler()
	c.SetFS(os.DirFS(dir))
	wrapper, err := c.Compile("wrapper-all.xsd")
	if err != nil {
		t.Fatal(err)
	}
	roots := official(t)
	files, _ := filepath.Glob(filepath.Join(dir, "xmllint-tests", "*.xml"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		a, _ := wrapper.Validate(strings.NewReader(string(data)))
		b, _ := roots.Validate(strings.NewReader(string(data)))
		if len(a) != len(b) {
			t.Errorf("%s: %d errors with the wrapper, %d with the roots", filepath.Base(f), len(a), len(b))
			continue
		}
		for i := range a {
			if a[i].Line != b[i].Line || a[i].Message != b[i].Message {
				t.Errorf("%s: error %d differs: %v / %v", filepath.Base(f), i, a[i], b[i])
			}
		}
	}
}
