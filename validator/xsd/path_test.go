package xsd

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// TestPathsAsXmlscanPath checks the paths of errors, built from the
// frames, against xmlscan.Path on random documents: repeated and
// alternating names, names in namespaces, and parents with more than
// siblingsMapAt distinct child names.
func TestPathsAsXmlscanPath(t *testing.T) {
	c := NewCompiler()
	c.AddResource("p.xsd", []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="r"><xs:complexType><xs:sequence>
    <xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="bad" type="xs:integer"/>
</xs:schema>`))
	s, err := c.Compile("p.xsd")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(4))
	total, deepest, sample := 0, 0, ""
	defer func() { t.Logf("%d error paths, for example %s", total, sample) }()
	for n := 0; n < 300; n++ {
		var b strings.Builder
		b.WriteString(`<r xmlns:p="urn:p" xmlns:q="urn:p">`)
		names := []string{"a", "b", "url", "ln", "p:a", "q:a", "sitemap"}
		if n%5 == 0 {
			for i := 0; i < 40; i++ {
				names = append(names, fmt.Sprintf("n%d", i))
			}
		}
		var gen func(depth int)
		gen = func(depth int) {
			for k := r.Intn(6); k > 0; k-- {
				if r.Intn(4) == 0 {
					b.WriteString("<bad>x</bad>")
					continue
				}
				name := names[r.Intn(len(names))]
				if r.Intn(3) == 0 {
					name = names[0]
				}
				b.WriteString("<" + name + ">")
				if depth < 4 {
					gen(depth + 1)
				}
				b.WriteString("</" + name + ">")
			}
		}
		gen(1)
		b.WriteString("</r>")
		doc := b.String()

		var want []string
		var p xmlscan.Path
		sc := xmlscan.NewScanner(strings.NewReader(doc))
		for {
			tok, err := sc.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			switch tok.Kind {
			case xmlscan.StartElement:
				p.Push(tok.Name)
				if tok.Name.Local == "bad" {
					want = append(want, p.String())
				}
			case xmlscan.EndElement:
				p.Pop()
			}
		}
		errs, err := s.Validate(bytes.NewReader([]byte(doc)))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Path)
		}
		total += len(got)
		for _, g := range got {
			if strings.Count(g, "[") > deepest {
				deepest, sample = strings.Count(g, "["), g
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s\npaths %q\nwant  %q", doc, got, want)
		}
	}
}
