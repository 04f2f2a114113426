//go:build libxml2

package parity

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rscheck/rscheck/schemas"
	"github.com/rscheck/rscheck/validator/xmlscan"
	"github.com/rscheck/rscheck/validator/xsd"
)

// engines holds our engine's schemas, compiled once per version.
var engines = struct {
	mu sync.Mutex
	m  map[string]*xsd.Schema
}{m: map[string]*xsd.Schema{}}

// engineSchema compiles the roots of version from package schemas with our
// engine, once per test binary.
func engineSchema(tb testing.TB, version string) *xsd.Schema {
	tb.Helper()
	engines.mu.Lock()
	defer engines.mu.Unlock()
	if s, ok := engines.m[version]; ok {
		return s
	}
	roots, err := schemas.Roots(version)
	if err != nil {
		tb.Fatal(err)
	}
	c := xsd.NewCompiler()
	c.SetFS(schemas.FS)
	s, err := c.Compile(roots...)
	if err != nil {
		tb.Fatalf("our engine cannot compile %v: %v", roots, err)
	}
	engines.m[version] = s
	return s
}

// engineVerdict is our engine's verdict, or the panic it raised, or the
// fact that it did not finish.
type engineVerdict struct {
	verdict
	panicked string
	hung     bool
}

func (v engineVerdict) String() string {
	switch {
	case v.panicked != "":
		return "panic: " + v.panicked
	case v.hung:
		return fmt.Sprintf("no verdict after %v", engineTimeout)
	}
	return v.verdict.String()
}

// engineTimeout bounds the time our engine may take on one corpus
// document, all of which are small: a loop that does not end is reported
// for the document that caused it instead of stopping the whole test at
// its deadline.
const engineTimeout = 10 * time.Second

// engineValidate validates doc with our engine. A panic is caught and
// reported as a verdict of its own, as is a validation that does not end,
// so that one bad document does not hide the results of the others.
func engineValidate(s *xsd.Schema, doc []byte) engineVerdict {
	done := make(chan engineVerdict, 1)
	go func() { done <- engineValidateNow(s, doc) }()
	timer := time.NewTimer(engineTimeout)
	defer timer.Stop()
	select {
	case v := <-done:
		return v
	case <-timer.C:
		return engineVerdict{hung: true}
	}
}

func engineValidateNow(s *xsd.Schema, doc []byte) (v engineVerdict) {
	defer func() {
		if r := recover(); r != nil {
			v = engineVerdict{panicked: fmt.Sprintf("%v\n%s", r, debug.Stack())}
		}
	}()
	errs, err := s.Validate(bytes.NewReader(doc))
	if err != nil {
		// Validate fails only when the document is not well-formed (or on
		// I/O errors, which a bytes.Reader does not have).
		e := xsdError{Message: err.Error()}
		var se *xmlscan.SyntaxError
		if errors.As(err, &se) {
			e.Line = se.Pos.Line
		}
		return engineVerdict{verdict: verdict{Errors: []xsdError{e}}}
	}
	v.WellFormed, v.Valid = true, len(errs) == 0
	for _, e := range errs {
		v.Errors = append(v.Errors, xsdError{Line: e.Line, Message: e.Error()})
	}
	return v
}

// Disagreement categories of the engine comparison.
const (
	diffVerdict        = "verdict"         // both parsed; valid vs invalid
	diffLine           = "first-line"      // both invalid; first errors on different lines
	diffWellFormedness = "well-formedness" // one parser accepts what the other rejects, unexplained
	diffPanic          = "panic"           // our engine panicked
	diffHang           = "hang"            // our engine did not finish
)

// sameLine says whether our line matches libxml2's. libxml2 as the oracle
// runs it reports 65535 for every line past 65534 (16-bit line numbers),
// where our engine may report the real line.
func sameLine(libxml2, ours int) bool {
	return libxml2 == ours || (libxml2 == xmllintLineCap && ours >= xmllintLineCap)
}

// comparison is the outcome of comparing libxml2's verdict with ours.
type comparison struct {
	// category is "" when the verdicts agree, else one of the diff*
	// constants.
	category string
	// wfAsInvalid is set when they agree only because our well-formedness
	// error counts as an invalid verdict: libxml2 treats namespace errors
	// (an undeclared prefix, say) as recoverable and then finds the
	// document invalid, where our tokenizer stops at the error.
	wfAsInvalid bool
	// known explains an intended well-formedness difference (see
	// knownWFDifference) on a document libxml2 finds valid; the verdicts
	// then count as agreeing, and the difference is reported.
	known string
}

// compareEngine compares libxml2's verdict on doc, with the official
// schemas, to our engine's, with ours.
func compareEngine(doc []byte, lib verdict, ours engineVerdict) comparison {
	switch {
	case ours.panicked != "":
		return comparison{category: diffPanic}
	case ours.hung:
		return comparison{category: diffHang}
	case !lib.WellFormed && !ours.WellFormed:
		return comparison{}
	case !lib.WellFormed:
		return comparison{category: diffWellFormedness}
	case !ours.WellFormed:
		if !lib.Valid {
			return comparison{wfAsInvalid: true}
		}
		if why := knownWFDifference(doc, ours.Errors[0].Message); why != "" {
			return comparison{known: why}
		}
		return comparison{category: diffWellFormedness}
	case lib.Valid != ours.Valid:
		return comparison{category: diffVerdict}
	case !lib.Valid && !sameLine(lib.firstLine(), ours.firstLine()):
		return comparison{category: diffLine}
	}
	return comparison{}
}

// knownWFDifference explains why our tokenizer may reject, as not
// well-formed, a document that libxml2 parses and finds valid, when that is
// by design. The classes are those validator/xmlscan documents and tests
// against libxml2 (TestLibxml2Verdicts): libxml2 only warns about
// violations of Namespaces in XML, expands entities declared in the
// DOCTYPE, and reads encodings through iconv. When xmllint is installed,
// libxml2's own diagnostics must confirm the class; otherwise our message
// decides. It returns "" for any other difference.
func knownWFDifference(doc []byte, ours string) string {
	stderr, haveXmllint := xmllintParse(doc)
	confirmed := func(libxml2Says string) bool {
		return !haveXmllint || strings.Contains(stderr, libxml2Says)
	}
	switch {
	case isNamespaceError(ours) && confirmed("namespace error"):
		return "namespace error (libxml2: non-fatal)"
	case strings.Contains(ours, "declared in the DOCTYPE but not expanded"):
		return "entity declared in the DOCTYPE (libxml2 expands it; we never do)"
	case strings.Contains(ours, "unsupported encoding"):
		return "encoding we do not support (libxml2 has iconv)"
	case strings.Contains(ours, `unsupported XML version "1."`) && confirmed("Unsupported version '1.'"):
		return `version "1." (libxml2 accepts it with a warning; VersionNum needs a digit after the dot)`
	case strings.Contains(ours, "undefined entity") && confirmed("not defined"):
		return "undefined entity in a document with an external DTD subset (libxml2: not an error)"
	}
	return ""
}

// isNamespaceError says whether our tokenizer's message is about
// Namespaces in XML rather than XML 1.0.
func isNamespaceError(msg string) bool {
	for _, s := range []string{
		"namespace prefix", "prefix xml", "prefix xmlns", "XML namespace", "xmlns namespace",
		"more than one colon", "empty namespace prefix", "empty local part", "local part of",
		"contains a colon", "same expanded name", "reserved prefix xmlns",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// xmllintParse runs xmllint --noout on doc and returns its diagnostics;
// false when xmllint is not installed.
func xmllintParse(doc []byte) (string, bool) {
	path, err := exec.LookPath("xmllint")
	if err != nil {
		return "", false
	}
	cmd := exec.Command(path, "--noout", "-")
	cmd.Stdin = bytes.NewReader(doc)
	out, _ := cmd.CombinedOutput()
	return string(out), true
}

// TestEngineVsLibxml2 holds our engine, with our schemas, to libxml2's
// verdicts with the official schemas: for every version and corpus
// document, the same verdict and the first error on the same line.
func TestEngineVsLibxml2(t *testing.T) {
	docs := loadCorpus(t)
	resetFailures(t)
	for _, version := range schemas.Versions() {
		t.Run(version, func(t *testing.T) {
			official := officialSchema(t, version)
			engine := engineSchema(t, version)
			n := 0
			var wfAsInvalid, known []string
			byCategory := map[string][]string{}
			for _, d := range docs {
				t.Run(d.Name, func(t *testing.T) {
					n++
					lib, err := official.validate(d.Data)
					if err != nil {
						t.Fatal(err)
					}
					ours := engineValidate(engine, d.Data)
					c := compareEngine(d.Data, lib, ours)
					switch {
					case c.wfAsInvalid:
						wfAsInvalid = append(wfAsInvalid, fmt.Sprintf("%s (ours: %s)", d.Name, ours.Errors[0].Message))
					case c.known != "":
						known = append(known, fmt.Sprintf("%s: %s (ours: %s)", d.Name, c.known, ours.Errors[0].Message))
					case c.category != "":
						report := fmt.Sprintf("%s\n\tlibxml2, official schemas: %v\n\tour engine, our schemas:  %v", c.category, lib, ours)
						path := recordFailure(t, "TestEngineVsLibxml2", version, d, report)
						byCategory[c.category] = append(byCategory[c.category], d.Name)
						t.Errorf("%s (written to %s)", report, path)
					}
				})
			}
			total := 0
			var cats []string
			for _, c := range sortedKeys(byCategory) {
				total += len(byCategory[c])
				cats = append(cats, fmt.Sprintf("%s %d", c, len(byCategory[c])))
			}
			if len(cats) == 0 {
				cats = []string{"none"}
			}
			t.Logf("version %s: %d documents: %d agree, %d disagree (%s); the agreements include %d where our well-formedness error meets libxml2's invalid verdict and %d known well-formedness differences",
				version, n, n-total, total, strings.Join(cats, ", "), len(wfAsInvalid), len(known))
			if len(wfAsInvalid) > 0 {
				t.Logf("version %s: our well-formedness error, libxml2 invalid:\n\t%s", version, strings.Join(wfAsInvalid, "\n\t"))
			}
			if len(known) > 0 {
				t.Logf("version %s: known well-formedness differences:\n\t%s", version, strings.Join(known, "\n\t"))
			}
			for _, c := range sortedKeys(byCategory) {
				t.Errorf("version %s: %d %s disagreements:\n\t%s", version, len(byCategory[c]), c, strings.Join(byCategory[c], "\n\t"))
			}
		})
	}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FuzzEngineVsLibxml2 looks for documents on which our engine and libxml2
// disagree. The input is a document and a version selector; the seeds are
// the corpus. Inputs that neither parser accepts are skipped; a difference
// in well-formedness alone is a failure of its own category, unless it is
// one of the known, intended ones. A disagreement found here is to be
// minimised (go test -fuzz minimises automatically) and added to
// testdata/regress.
func FuzzEngineVsLibxml2(f *testing.F) {
	for i, d := range loadCorpus(f) {
		f.Add(d.Data, uint8(i))
	}
	versions := schemas.Versions()
	f.Fuzz(func(t *testing.T, doc []byte, sel uint8) {
		version := versions[int(sel)%len(versions)]
		lib, err := officialSchema(t, version).validate(doc)
		if err != nil {
			t.Fatal(err)
		}
		ours := engineValidate(engineSchema(t, version), doc)
		if !lib.WellFormed && !ours.WellFormed {
			t.Skip("not well-formed for either parser")
		}
		if c := compareEngine(doc, lib, ours); c.category != "" {
			t.Errorf("version %s: %s disagreement\n\tlibxml2, official schemas: %v\n\tour engine, our schemas:  %v", version, c.category, lib, ours)
		}
	})
}
