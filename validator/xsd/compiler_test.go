package xsd

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func compileErr(t *testing.T, files map[string]string, roots ...string) error {
	t.Helper()
	c := NewCompiler()
	for name, data := range files {
		c.AddResource(name, []byte(data))
	}
	_, err := c.Compile(roots...)
	return err
}

// TestCompileErrors: constructs refused at compile time, each with a
// located *CompileError that says what is wrong.
func TestCompileErrors(t *testing.T) {
	el := func(body string) string { return schemaHead + body + "\n</xs:schema>" }
	cases := []struct {
		name, schema, want string
		unsupported        bool
		line               int
	}{
		{"redefine", el(`<xs:redefine schemaLocation="x.xsd"/>`), "xs:redefine", true, 2},
		{"override", el(`<xs:override schemaLocation="x.xsd"/>`), "xs:override", true, 2},
		{"unique", el(`<xs:element name="r"><xs:complexType/>
<xs:unique name="u"><xs:selector xpath="."/><xs:field xpath="@a"/></xs:unique></xs:element>`), "identity constraints", true, 3},
		{"key", el(`<xs:element name="r"><xs:key name="k"><xs:selector xpath="."/><xs:field xpath="@a"/></xs:key></xs:element>`), "identity constraints", true, 2},
		{"assert", el(`<xs:complexType name="T"><xs:assert test="true()"/></xs:complexType>`), "XML Schema 1.1", true, 2},
		{"not deterministic", el(`<xs:element name="r"><xs:complexType><xs:choice><xs:element name="a"/><xs:sequence><xs:element name="a"/><xs:element name="b"/></xs:sequence></xs:choice></xs:complexType></xs:element>`), "not deterministic", false, 2},
		{"unknown block", el(`<xs:simpleType name="S"><xs:restriction base="xs:string"><xs:pattern value="\p{IsFoo}"/></xs:restriction></xs:simpleType>`), "unknown Unicode block", true, 2},
		{"bad pattern", el(`<xs:simpleType name="S"><xs:restriction base="xs:string"><xs:pattern value="a{"/></xs:restriction></xs:simpleType>`), "pattern", false, 2},
		{"facet not applicable", el(`<xs:simpleType name="S"><xs:restriction base="xs:int"><xs:length value="2"/></xs:restriction></xs:simpleType>`), "does not apply", false, 2},
		{"bad enumeration value", el(`<xs:simpleType name="S"><xs:restriction base="xs:int"><xs:enumeration value="x"/></xs:restriction></xs:simpleType>`), "not a valid value", false, 2},
		{"undeclared type", el(`<xs:element name="r" type="t:Nope"/>`), "not declared", false, 2},
		{"undeclared prefix", el(`<xs:element name="r" type="q:T"/>`), "prefix", false, 2},
		{"duplicate", el(`<xs:element name="r"/>
<xs:element name="r"/>`), "already declared", false, 3},
		{"circular group", el(`<xs:group name="g"><xs:sequence><xs:group ref="t:g"/></xs:sequence></xs:group>
<xs:element name="r"><xs:complexType><xs:group ref="t:g"/></xs:complexType></xs:element>`), "refers to itself", false, 0},
		{"circular derivation", el(`<xs:complexType name="A"><xs:complexContent><xs:extension base="t:A"/></xs:complexContent></xs:complexType>`), "derived from itself", false, 2},
		{"extension of anyType", el(`<xs:complexType name="A"><xs:complexContent><xs:extension base="xs:anyType"><xs:sequence><xs:element name="a"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>`), "xs:anyType", true, 2},
		{"missing include", el(`<xs:include schemaLocation="nope.xsd"/>`), "cannot include", false, 2},
		{"not a schema", `<notaschema/>`, "not xs:schema", false, 0},
		{"not well-formed", `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">`, "not well-formed", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := compileErr(t, map[string]string{"test.xsd": c.schema}, "test.xsd")
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *CompileError", err)
			}
			if !strings.Contains(ce.Error(), c.want) || ce.Unsupported != c.unsupported || c.line != 0 && ce.Line != c.line || ce.Location != "test.xsd" {
				t.Errorf("got %q (unsupported %v, line %d, location %q); want %q, unsupported %v, line %d",
					ce.Error(), ce.Unsupported, ce.Line, ce.Location, c.want, c.unsupported, c.line)
			}
		})
	}
}

// TestImportFirstWins: like libxml2, a namespace imported twice keeps the
// first schema document.
func TestImportFirstWins(t *testing.T) {
	fsys := fstest.MapFS{
		"main.xsd": {Data: []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
<xs:import namespace="urn:a" schemaLocation="a1.xsd"/>
<xs:import namespace="urn:a" schemaLocation="a2.xsd"/>
</xs:schema>`)},
		"a1.xsd": {Data: []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><xs:element name="one"/></xs:schema>`)},
		"a2.xsd": {Data: []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><xs:element name="two"/></xs:schema>`)},
	}
	c := NewCompiler()
	c.SetFS(fsys)
	s, err := c.Compile("main.xsd")
	if err != nil {
		t.Fatal(err)
	}
	if errs, _ := s.Validate(strings.NewReader(`<one xmlns="urn:a"/>`)); len(errs) != 0 {
		t.Errorf("one: %v", errs)
	}
	if errs, _ := s.Validate(strings.NewReader(`<two xmlns="urn:a"/>`)); len(errs) != 1 {
		t.Errorf("two should be undeclared: %v", errs)
	}
}

// TestChameleonInclude: a schema without target namespace included into
// one with a namespace takes that namespace.
func TestChameleonInclude(t *testing.T) {
	fsys := fstest.MapFS{
		"dir/main.xsd": {Data: []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:m" xmlns:m="urn:m">
<xs:include schemaLocation="../lib/types.xsd"/>
<xs:element name="r" type="m:T"/></xs:schema>`)},
		"lib/types.xsd": {Data: []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:simpleType name="T"><xs:restriction base="xs:int"/></xs:simpleType></xs:schema>`)},
	}
	c := NewCompiler()
	c.SetFS(fsys)
	s, err := c.Compile("dir/main.xsd")
	if err != nil {
		t.Fatal(err)
	}
	errs, _ := s.Validate(strings.NewReader(`<r xmlns="urn:m">x</r>`))
	if len(errs) != 1 {
		t.Fatalf("want one value error, got %v", errs)
	}
	if _, ok := errs[0].Kind.(*InvalidElementValue); !ok {
		t.Errorf("kind %T", errs[0].Kind)
	}
}

// TestResourcesBeforeFS: registered resources are used by location (URLs
// included) before the file system; nothing is fetched.
func TestResourcesBeforeFS(t *testing.T) {
	c := NewCompiler()
	c.AddResource("http://example.com/s/main.xsd", []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
<xs:include schemaLocation="part.xsd"/></xs:schema>`))
	c.AddResource("http://example.com/s/part.xsd", []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="p"/></xs:schema>`))
	s, err := c.Compile("http://example.com/s/main.xsd")
	if err != nil {
		t.Fatal(err)
	}
	if errs, _ := s.Validate(strings.NewReader(`<p/>`)); len(errs) != 0 {
		t.Error(errs)
	}
	if _, err := NewCompiler().Compile("http://example.com/absent.xsd"); err == nil {
		t.Error("an unregistered URL compiled")
	}
}

// TestXMLNamespaceBuiltIn: importing the XML namespace without a
// loadable document declares xml:lang and friends.
func TestXMLNamespaceBuiltIn(t *testing.T) {
	s := compileString(t, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
<xs:import namespace="http://www.w3.org/XML/1998/namespace"/>
<xs:element name="r"><xs:complexType><xs:attribute ref="xml:lang"/><xs:attribute ref="xml:space"/></xs:complexType></xs:element></xs:schema>`)
	errs, _ := s.Validate(strings.NewReader(`<r xml:lang="en" xml:space="preserve"/>`))
	if len(errs) != 0 {
		t.Error(errs)
	}
	errs, _ = s.Validate(strings.NewReader(`<r xml:space="keep"/>`))
	if len(errs) != 1 {
		t.Errorf("xml:space=keep: %v", errs)
	}
}

func TestResolveLocation(t *testing.T) {
	for _, c := range [][3]string{
		{"sitemap.xsd", "other.xsd", "other.xsd"},
		{"dir/main.xsd", "../lib/t.xsd", "lib/t.xsd"},
		{"/abs/main.xsd", "t.xsd", "/abs/t.xsd"},
		{"a.xsd", "http://example.com/x.xsd", "http://example.com/x.xsd"},
		{"http://example.com/s/main.xsd", "part.xsd", "http://example.com/s/part.xsd"},
		{"http://example.com/s/main.xsd", "../p/part.xsd", "http://example.com/p/part.xsd"},
		{"http://example.com/s/main.xsd", "/root.xsd", "http://example.com/root.xsd"},
		{"http://example.com/s/main.xsd", "//cdn.example.org/x.xsd", "http://cdn.example.org/x.xsd"},
		{"http://example.com", "x.xsd", "http://example.com/x.xsd"},
		{"https://example.com/a/b/c.xsd?v=1", "./d.xsd", "https://example.com/a/b/d.xsd"},
	} {
		if got := resolveLocation(c[0], c[1]); got != c[2] {
			t.Errorf("resolveLocation(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
