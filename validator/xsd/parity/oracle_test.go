//go:build libxml2

package parity

// The oracle: libxml2, through github.com/terminalstatic/go-xsd-validate,
// with either the official schemas or ours.
//
// go-xsd-validate parses the instance into a DOM (xmlCtxtReadMemory with no
// options) and validates the tree with xmlSchemaValidateDoc, collecting the
// structured errors. Consequences worth knowing when reading results:
//   - A well-formedness error makes the parse fail: we get no line for it.
//   - A namespace error (undeclared prefix, xmlns:p="") is not fatal to
//     libxml2: the document is built, with the offending name in no
//     namespace, and validated.
//   - Line numbers are the line of the end of an element's start tag; the
//     parser counts LF (and CR LF) but not a lone CR, and keeps line
//     numbers in 16 bits (XML_PARSE_BIG_LINES is not set), so lines past
//     65534 are reported as 65535. xmllint sets XML_PARSE_BIG_LINES and
//     reports the real line; TestOracleMatchesXmllint shows both.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rscheck/rscheck/schemas"
	xsdvalidate "github.com/terminalstatic/go-xsd-validate"
)

// TestMain initialises libxml2 once for the test binary (fuzz workers
// included) and releases it at the end.
func TestMain(m *testing.M) {
	if err := xsdvalidate.Init(); err != nil {
		fmt.Fprintln(os.Stderr, "parity: libxml2:", err)
		os.Exit(2)
	}
	code := m.Run()
	oracles.free()
	xsdvalidate.Cleanup()
	os.Exit(code)
}

// xsdError is one schema-validity error: the line it is reported on and
// the message.
type xsdError struct {
	Line    int
	Message string
}

func (e xsdError) String() string { return fmt.Sprintf("%d: %s", e.Line, e.Message) }

// verdict is what a validator says about a document.
type verdict struct {
	// WellFormed is false when the parser rejected the document.
	WellFormed bool
	// Valid is true when the document is well-formed and schema-valid.
	Valid bool
	// Errors are the schema-validity errors in the order reported; for a
	// document that is not well-formed, at most one entry describing why.
	Errors []xsdError
}

// firstLine is the line of the first error, 0 when there is none.
func (v verdict) firstLine() int {
	if len(v.Errors) == 0 {
		return 0
	}
	return v.Errors[0].Line
}

func (v verdict) String() string {
	switch {
	case !v.WellFormed:
		if len(v.Errors) > 0 {
			return "not well-formed: " + v.Errors[0].String()
		}
		return "not well-formed"
	case v.Valid:
		return "valid"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "invalid (%d errors)", len(v.Errors))
	for _, e := range v.Errors {
		sb.WriteString("\n\t\t" + e.String())
	}
	return sb.String()
}

// libxml2Schema is a schema compiled by libxml2.
type libxml2Schema struct {
	name string
	h    *xsdvalidate.XsdHandler
}

// validate validates doc. The error is non-nil only when libxml2 itself
// failed, which is a broken test setup, not a verdict.
func (s *libxml2Schema) validate(doc []byte) (verdict, error) {
	err := s.h.ValidateMem(doc, xsdvalidate.ParsErrDefault)
	var ve xsdvalidate.ValidationError
	var pe xsdvalidate.XmlParserError
	switch {
	case err == nil:
		return verdict{WellFormed: true, Valid: true}, nil
	case errors.As(err, &ve):
		v := verdict{WellFormed: true, Valid: true}
		for _, e := range ve.Errors {
			// Level 1 is a warning; only errors (2) and fatal errors (3)
			// make a document invalid, as for xmllint.
			if e.Level < 2 {
				continue
			}
			v.Valid = false
			v.Errors = append(v.Errors, xsdError{Line: e.Line, Message: e.Message})
		}
		return v, nil
	case errors.As(err, &pe):
		return verdict{Errors: []xsdError{{Message: pe.Error()}}}, nil
	}
	return verdict{}, fmt.Errorf("%s: libxml2 failed: %w", s.name, err)
}

// oracles holds the libxml2 schemas, compiled once per test binary and
// kind, because compiling takes far longer than validating a document.
var oracles = &oracleSet{compiled: map[string]*libxml2Schema{}}

type oracleSet struct {
	mu       sync.Mutex
	tmp      string
	compiled map[string]*libxml2Schema
}

func (o *oracleSet) free() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range o.compiled {
		s.h.Free()
	}
	o.compiled = map[string]*libxml2Schema{}
	if o.tmp != "" {
		os.RemoveAll(o.tmp)
		o.tmp = ""
	}
}

// get returns the schema compiled for kind ("official" or "ours") and
// version, compiling it on first use.
func (o *oracleSet) get(tb testing.TB, kind, version string) *libxml2Schema {
	tb.Helper()
	ref := requireReference(tb)
	o.mu.Lock()
	defer o.mu.Unlock()
	key := kind + "/" + version
	if s, ok := o.compiled[key]; ok {
		return s
	}
	if o.tmp == "" {
		dir, err := os.MkdirTemp("", "rscheck-parity-")
		if err != nil {
			tb.Fatal(err)
		}
		o.tmp = dir
	}
	var path string
	var err error
	switch kind {
	case "official":
		path, err = officialDriver(ref, o.tmp, version)
	case "ours":
		path, err = ourDriver(o.tmp, version)
	default:
		err = fmt.Errorf("unknown schema kind %q", kind)
	}
	if err != nil {
		tb.Fatalf("%s schemas for %s: %v", kind, version, err)
	}
	h, err := xsdvalidate.NewXsdHandlerUrl(path, xsdvalidate.ParsErrVerbose)
	if err != nil {
		tb.Fatalf("libxml2 cannot compile the %s schemas for %s (%s): %v", kind, version, path, err)
	}
	s := &libxml2Schema{name: key, h: h}
	o.compiled[key] = s
	return s
}

// officialSchema returns libxml2 with the official schemas of version.
func officialSchema(tb testing.TB, version string) *libxml2Schema {
	return oracles.get(tb, "official", version)
}

// ourSchema returns libxml2 with the schemas of package schemas.
func ourSchema(tb testing.TB, version string) *libxml2Schema {
	return oracles.get(tb, "ours", version)
}

// officialDriver returns the schema document that makes libxml2 validate
// both Sitemaps roots and the rs: elements with the official schemas of
// version. For 1.1 that is the wrapper-all.xsd kept with the schemas; for
// the other versions an equivalent wrapper is written to tmp. libxml2
// honours only the first xs:import of a namespace, hence the shim that
// xs:includes both official Sitemaps schemas into one.
func officialDriver(ref, tmp, version string) (string, error) {
	if version == "1.1" {
		return filepath.Join(ref, "wrapper-all.xsd"), nil
	}
	rs := filepath.Join(ref, "resourcesync-"+version+".xsd")
	if _, err := os.Stat(rs); err != nil {
		return "", err
	}
	dir := filepath.Join(tmp, "official-"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	shim := filepath.Join(dir, "sitemap-ns-both.xsd")
	err := os.WriteFile(shim, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           targetNamespace="`+nsSitemap+`"
           elementFormDefault="qualified">
  <xs:include schemaLocation="`+filepath.Join(ref, "sitemap.xsd")+`"/>
  <xs:include schemaLocation="`+filepath.Join(ref, "siteindex.xsd")+`"/>
</xs:schema>
`), 0o644)
	if err != nil {
		return "", err
	}
	wrapper := filepath.Join(dir, "wrapper-all.xsd")
	return wrapper, os.WriteFile(wrapper, []byte(driverSchema(map[string]string{
		nsSitemap: shim,
		nsRS:      rs,
	})), 0o644)
}

// ourDriver copies the embedded schemas to tmp and returns a driver schema
// importing the roots of version, so that libxml2 validates exactly the
// bytes rscheck ships.
func ourDriver(tmp, version string) (string, error) {
	dir := filepath.Join(tmp, "ours")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	files, err := fs.Glob(schemas.FS, "*.xsd")
	if err != nil {
		return "", err
	}
	for _, f := range files {
		data, err := fs.ReadFile(schemas.FS, f)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return "", err
		}
	}
	roots, err := schemas.Roots(version)
	if err != nil {
		return "", err
	}
	imports := map[string]string{}
	for _, r := range roots {
		data, err := fs.ReadFile(schemas.FS, r)
		if err != nil {
			return "", err
		}
		m := targetNamespaceRE.FindSubmatch(data)
		if m == nil {
			return "", fmt.Errorf("%s has no targetNamespace", r)
		}
		imports[string(m[1])] = filepath.Join(dir, r)
	}
	driver := filepath.Join(dir, "driver-"+version+".xsd")
	return driver, os.WriteFile(driver, []byte(driverSchema(imports)), 0o644)
}

var targetNamespaceRE = regexp.MustCompile(`targetNamespace="([^"]*)"`)

// driverSchema is a schema without a target namespace that imports one
// schema per namespace, in a stable order.
func driverSchema(imports map[string]string) string {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	sb.WriteString(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">` + "\n")
	for _, ns := range []string{nsSitemap, nsRS} {
		if loc, ok := imports[ns]; ok {
			fmt.Fprintf(&sb, "  <xs:import namespace=%q schemaLocation=%q/>\n", ns, loc)
			delete(imports, ns)
		}
	}
	rest := make([]string, 0, len(imports))
	for ns := range imports {
		rest = append(rest, ns)
	}
	sort.Strings(rest)
	for _, ns := range rest {
		fmt.Fprintf(&sb, "  <xs:import namespace=%q schemaLocation=%q/>\n", ns, imports[ns])
	}
	sb.WriteString("</xs:schema>\n")
	return sb.String()
}
